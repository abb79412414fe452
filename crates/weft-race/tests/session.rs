//! The race session (`weft race`'s engine) on two hand-written kernels: every thread writing
//! one word (a write-write race between the two threads of a block) and every thread
//! writing its own word (race-free); the expected verdicts and report lines follow from the
//! kernels by hand.

use weft_ir::exit::ExitCode;
use weft_race::session::{self, Emulator, SessionOptions};
use weft_race::Definition;
use weft_simt::{Arg, Buffer, ElemType, LaunchConfig, Schedule};

const HEAD: &str = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<9>;\n.reg .b64 %rd<4>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n";

fn report(body: &str, schedules: u32) -> session::RaceReport {
    let text = format!("{HEAD}{body}\nret;\n}}\n");
    let m = weft_ptx::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let k = weft_ptx::lower_kernel(&m, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let launch = LaunchConfig {
        grid: [1, 1, 1],
        block: [2, 1, 1],
    };
    let buffers = [Buffer::zeroed("p", ElemType::U32, 2)];
    let args = [Arg::Buffer(0)];
    let opts = SessionOptions {
        schedules: session::schedules("rr", schedules).unwrap(),
        definition: Definition::parse("barracuda").unwrap(),
        resident: 32,
        quantum: 64,
        max_steps: 1 << 20,
    };
    let mut source = Emulator {
        kernel: &k,
        launch,
        args: &args,
        buffers: &buffers,
        file: "k.ptx",
    };
    session::run(&k, launch, &opts, &mut source).unwrap()
}

#[test]
fn one_word_written_by_two_threads_races() {
    let r = report("st.global.u32 [%rd1], %r1;", 2);
    assert_eq!(r.exit_code(), ExitCode::Violation);
    assert_eq!(r.schedules, ["rr", "1"]);
    assert_eq!(r.races.len(), 1);
    assert_eq!(
        (r.races[0].first.access, r.races[0].second.access),
        ("write", "write")
    );
    assert!(r.completed && r.findings.is_empty());
    let text = r.text();
    assert!(
        text.starts_with("kernel k: grid 1x1x1, block 2x1x1, 2 threads; definition barracuda; schedules rr,1\nrace 1: "),
        "{text}"
    );
    assert!(text.ends_with("1 race, 0 findings\n"), "{text}");
}

#[test]
fn own_words_do_not_race() {
    let r = report(
        "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r1;",
        1,
    );
    assert_eq!(r.exit_code(), ExitCode::Ok);
    assert!(r.races.is_empty());
    assert_eq!(r.stats.accesses, 2);
    assert_eq!(
        r.text(),
        "kernel k: grid 1x1x1, block 2x1x1, 2 threads; definition barracuda; schedules rr\n0 races, 0 findings\n"
    );
    // `weft race --json`: keys in sorted order.
    let j = r.to_json();
    assert!(
        j.starts_with(r#"{"block":[2,1,1],"completed":true,"definition":"barracuda","findings":[],"gpu_kernel_ms":[],"grid":[1,1,1],"kernel":"k","races":[],"races_dropped":0,"schedules":["rr"],"stats":{"accesses":2,"#),
        "{j}"
    );
    assert!(j.ends_with(r#""trace":"emulator"}"#), "{j}");
}

#[test]
fn schedules_and_launch_limits() {
    assert_eq!(
        session::schedules("7", 3).unwrap(),
        [
            Schedule::Random(7),
            Schedule::Random(8),
            Schedule::Random(9)
        ]
    );
    assert_eq!(session::schedules("rr", 0).unwrap(), [Schedule::RoundRobin]);
    assert_eq!(
        session::schedules("x", 1).unwrap_err(),
        "--schedule x: expected `rr` or a seed"
    );
    let huge = LaunchConfig {
        grid: [1 << 20, 1 << 10, 1],
        block: [1024, 1, 1],
    };
    assert_eq!(
        session::check_launch(huge).unwrap_err().code,
        ExitCode::BadInput
    );
}
