//! CTAs on several cores (`Options::jobs`): every committed kernel of `tests/kernels/` gives
//! the same buffers, findings, completion and counters with two and three jobs as on the
//! sequential schedule, under round-robin and seeded schedules; the launches that the
//! design says validate (CTAs that share no written word, barrier-ordered warps) do run in
//! parallel, and those that must not (global atomics shared by CTAs, intra-CTA races,
//! device calls, findings) fall back to the sequential schedule.

use std::path::Path;

use weft_ir::kernel::Kernel;
use weft_simt::{run, Arg, Buffer, ElemType, LaunchConfig, Options, Outcome, Schedule};

fn kernel(name: &str) -> Kernel {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../tests/kernels/{name}/kernel.ptx"));
    let text = std::fs::read_to_string(&p).unwrap();
    let m = weft_ptx::parse(&text).unwrap();
    weft_ptx::lower_kernel(&m, None).unwrap()
}

/// `n` i32 elements: `f(i)`.
fn buf(name: &str, n: usize, f: impl Fn(usize) -> u64) -> Buffer {
    let mut b = Buffer::zeroed(name, ElemType::I32, n);
    for i in 0..n {
        b.set_bits(i, f(i));
    }
    b
}

fn launch(grid: [u32; 3], block: [u32; 3]) -> LaunchConfig {
    LaunchConfig { grid, block }
}

/// One launch of a committed kernel: name, shape, arguments, buffers, and whether the
/// design says a parallel run validates.
struct Case {
    name: &'static str,
    cfg: LaunchConfig,
    args: Vec<Arg>,
    buffers: Vec<Buffer>,
    parallel: bool,
}

fn rand(seed: u64, max: u64) -> impl Fn(usize) -> u64 {
    move |i| {
        let mut z = seed.wrapping_add((i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        (z ^ (z >> 31)) % max
    }
}

fn cases() -> Vec<Case> {
    let b1 = |x| [x, 1, 1];
    vec![
        Case {
            // Each CTA reduces its own slice in shared memory between barriers.
            name: "tree_reduction",
            cfg: launch(b1(16), b1(128)),
            args: vec![Arg::Buffer(0), Arg::Buffer(1)],
            buffers: vec![buf("in", 2048, rand(1, 1000)), buf("out", 16, |_| 0)],
            parallel: true,
        },
        Case {
            name: "inclusive_scan",
            cfg: launch(b1(8), b1(256)),
            args: vec![Arg::Buffer(0), Arg::Buffer(1)],
            buffers: vec![buf("in", 2048, rand(4, 100)), buf("out", 2048, |_| 0)],
            parallel: true,
        },
        Case {
            name: "transpose",
            cfg: launch([4, 2, 1], [16, 16, 1]),
            args: vec![
                Arg::Buffer(0),
                Arg::Buffer(1),
                Arg::Scalar(64),
                Arg::Scalar(32),
            ],
            buffers: vec![
                buf("in", 2048, |i| f32::to_bits(i as f32) as u64),
                buf("out", 2048, |_| 0),
            ],
            parallel: true,
        },
        Case {
            name: "warp_reduction",
            cfg: launch(b1(4), b1(128)),
            args: vec![Arg::Buffer(0), Arg::Buffer(1)],
            buffers: vec![buf("in", 512, rand(2, 1000)), buf("out", 16, |_| 0)],
            parallel: true,
        },
        Case {
            // Every CTA adds into one global word: CTAs share it, sequential.
            name: "atomic_reduction",
            cfg: launch(b1(4), b1(256)),
            args: vec![Arg::Buffer(0), Arg::Buffer(1), Arg::Scalar(1000)],
            buffers: vec![buf("in", 1000, rand(3, 1000)), buf("total", 1, |_| 0)],
            parallel: false,
        },
        Case {
            name: "histogram",
            cfg: launch(b1(8), b1(128)),
            args: vec![Arg::Buffer(0), Arg::Buffer(1), Arg::Scalar(3000)],
            buffers: vec![buf("in", 3000, rand(5, 1000)), buf("hist", 16, |_| 0)],
            parallel: false,
        },
        Case {
            // A global spin lock taken by every CTA.
            name: "lock_dot_fenced",
            cfg: launch(b1(8), b1(64)),
            args: (0..4).map(Arg::Buffer).chain([Arg::Scalar(1000)]).collect(),
            buffers: vec![
                buf("a", 1000, rand(6, 50)),
                buf("b", 1000, rand(7, 50)),
                buf("c", 1, |_| 0),
                buf("mutex", 1, |_| 0),
            ],
            parallel: false,
        },
        Case {
            name: "work_queue",
            cfg: launch(b1(4), b1(64)),
            args: vec![
                Arg::Buffer(0),
                Arg::Buffer(1),
                Arg::Scalar(256),
                Arg::Scalar(16),
            ],
            buffers: vec![buf("out", 256, |_| 0), buf("counter", 1, |_| 0)],
            parallel: false,
        },
        Case {
            // Device printf: output order is the schedule's.
            name: "device_calls",
            cfg: launch(b1(2), b1(64)),
            args: vec![Arg::Buffer(0), Arg::Buffer(1)],
            buffers: vec![buf("in", 128, |i| i as u64), buf("out", 128, |_| 0)],
            parallel: false,
        },
        Case {
            // A barrier divergence finding in one CTA of four.
            name: "barrier_divergence_warp",
            cfg: launch(b1(4), b1(64)),
            args: vec![Arg::Buffer(0)],
            buffers: vec![buf("out", 256, |_| 0)],
            parallel: false,
        },
    ]
}

fn run_case(c: &Case, schedule: Schedule, jobs: usize) -> Outcome {
    let k = kernel(c.name);
    let opts = Options {
        schedule,
        max_resident_ctas: 3,
        quantum: 8,
        jobs,
        min_parallel_work: 0,
        ..Options::default()
    };
    run(&k, c.cfg, &c.args, c.buffers.clone(), &opts, None).unwrap()
}

fn same(a: &Outcome, b: &Outcome, what: &str) {
    assert_eq!(a.completed, b.completed, "{what}: completed");
    assert_eq!(a.findings, b.findings, "{what}: findings");
    assert_eq!(a.printed, b.printed, "{what}: printf");
    assert_eq!(
        a.stats.warp_instrs, b.stats.warp_instrs,
        "{what}: warp-instrs"
    );
    assert_eq!(
        a.stats.thread_instrs, b.stats.thread_instrs,
        "{what}: thread-instrs"
    );
    for (x, y) in a.buffers.iter().zip(&b.buffers) {
        assert_eq!(x.data, y.data, "{what}: buffer {}", x.name);
    }
}

#[test]
fn parallel_runs_equal_the_sequential_schedule() {
    for c in cases() {
        for schedule in [Schedule::RoundRobin, Schedule::Random(7)] {
            let seq = run_case(&c, schedule, 1);
            assert_eq!(seq.stats.parallel_jobs, 0);
            for jobs in [2, 3] {
                let par = run_case(&c, schedule, jobs);
                let what = format!("{} {schedule:?} jobs {jobs}", c.name);
                same(&seq, &par, &what);
                let kept = par.stats.parallel_jobs > 1;
                assert_eq!(kept, c.parallel, "{what}: parallel run kept");
            }
        }
    }
}

/// Warp 1 of each CTA reads a shared word that warp 0 writes with no barrier between:
/// the value it reads depends on the warp interleaving.
const INTRA_CTA_RACE: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry racy(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<3>;
  .shared .align 4 .b32 flag;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra WRITER;
  ld.shared.u32 %r3, [flag];
  bra DONE;
WRITER:
  mov.u32 %r3, 7;
  st.shared.u32 [flag], %r3;
DONE:
  mov.u32 %r4, %ntid.x;
  mad.lo.u32 %r5, %r2, %r4, %r1;
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
"#;

#[test]
fn a_race_between_warps_of_one_cta_runs_sequentially() {
    let m = weft_ptx::parse(INTRA_CTA_RACE).unwrap();
    let k = weft_ptx::lower_kernel(&m, None).unwrap();
    let cfg = launch([4, 1, 1], [64, 1, 1]);
    // One resident CTA: a CTA's race is seen when the next CTA takes its slot, not only
    // at the job's end.
    for resident in [32, 1] {
        for schedule in [
            Schedule::RoundRobin,
            Schedule::Random(3),
            Schedule::Random(4),
        ] {
            let go = |jobs| {
                let opts = Options {
                    schedule,
                    quantum: 1,
                    jobs,
                    min_parallel_work: 0,
                    max_resident_ctas: resident,
                    ..Options::default()
                };
                let out = vec![buf("out", 256, |_| 0)];
                run(&k, cfg, &[Arg::Buffer(0)], out, &opts, None).unwrap()
            };
            let (seq, par) = (go(1), go(2));
            same(
                &seq,
                &par,
                &format!("racy {schedule:?} resident {resident}"),
            );
            assert_eq!(par.stats.parallel_jobs, 0);
        }
    }
}

/// A kernel over a module array `words[4]` (initially 5, 6, 7, 8) in global memory: warp 0
/// of CTA `c` stores `c + 1` to `words[W]` (when `W` is given), warp 1 loads `words[R]`, and
/// every thread writes what it holds to `out`. `W` and `R` are PTX expressions in `%r2`
/// (the CTA index) selecting the word.
fn global_words(write: Option<&str>, read: &str) -> Kernel {
    let store = match write {
        Some(w) => format!(
            "  {w}\n  mul.wide.u32 %rd5, %r6, 4;\n  add.s64 %rd6, %rd4, %rd5;\n  add.u32 %r3, %r2, 1;\n  st.global.u32 [%rd6], %r3;\n"
        ),
        None => "  mov.u32 %r3, 1;\n".to_string(),
    };
    let text = format!(
        r#"
.version 7.0
.target sm_70
.address_size 64
.global .align 4 .b32 words[4] = {{5, 6, 7, 8}};
.visible .entry words_kernel(.param .u64 out)
{{
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd4, words;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra WRITER;
  {read}
  mul.wide.u32 %rd5, %r7, 4;
  add.s64 %rd6, %rd4, %rd5;
  ld.global.u32 %r3, [%rd6];
  bra DONE;
WRITER:
{store}DONE:
  mov.u32 %r4, %ntid.x;
  mad.lo.u32 %r5, %r2, %r4, %r1;
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}}
"#
    );
    let m = weft_ptx::parse(&text).unwrap();
    weft_ptx::lower_kernel(&m, None).unwrap()
}

/// Global-memory words shared between CTAs or between warps of one CTA: the parallel run
/// is kept exactly when no CTA's write shares a word with another CTA's access and no
/// warp's write shares one with another warp of its CTA (no barrier here), and it always
/// equals the sequential schedule.
#[test]
fn shared_global_words_keep_or_drop_the_parallel_run() {
    let cases: [(&str, Option<&str>, &str, bool); 5] = [
        // Every CTA's warp 1 reads word 0, nobody writes: kept.
        ("read-only word", None, "mov.u32 %r7, 0;", true),
        // CTA c's warp 0 writes word c, its warp 1 reads word c: two warps of one CTA.
        (
            "warps of one CTA",
            Some("mov.u32 %r6, %r2;"),
            "mov.u32 %r7, %r2;",
            false,
        ),
        // CTA c writes word c, reads word (c + 1) % 4: another CTA's write.
        (
            "another CTA's word",
            Some("mov.u32 %r6, %r2;"),
            "add.u32 %r8, %r2, 1;\n  and.b32 %r7, %r8, 3;",
            false,
        ),
        // Every CTA writes word 0: write-write across CTAs.
        (
            "one word for all",
            Some("mov.u32 %r6, 0;"),
            "mov.u32 %r7, 1;",
            false,
        ),
        // CTA c writes word c (c < 2) and reads word c + 2: disjoint words.
        (
            "disjoint words",
            Some("mov.u32 %r6, %r2;"),
            "add.u32 %r7, %r2, 2;",
            true,
        ),
    ];
    for (name, write, read, kept) in cases {
        let k = global_words(write, read);
        let cfg = launch(
            [if kept && write.is_some() { 2 } else { 4 }, 1, 1],
            [64, 1, 1],
        );
        for schedule in [Schedule::RoundRobin, Schedule::Random(5)] {
            let go = |jobs| {
                let opts = Options {
                    schedule,
                    quantum: 1,
                    jobs,
                    min_parallel_work: 0,
                    ..Options::default()
                };
                let out = vec![buf("out", 256, |_| 0)];
                run(&k, cfg, &[Arg::Buffer(0)], out, &opts, None).unwrap()
            };
            let (seq, par) = (go(1), go(2));
            same(&seq, &par, &format!("{name} {schedule:?}"));
            assert_eq!(
                par.stats.parallel_jobs > 1,
                kept,
                "{name} {schedule:?}: kept"
            );
        }
    }
}

/// Only CTA 0's warps race on their shared word, and each job holds one CTA at a time: the
/// race is seen when the next CTA takes the slot (the end of CTA 0's barrier interval).
#[test]
fn a_race_in_one_cta_of_many_runs_sequentially() {
    let text = INTRA_CTA_RACE.replace(
        "  ld.shared.u32 %r3, [flag];\n",
        "  setp.ne.u32 %p2, %r2, 0;\n  mov.u32 %r3, 0;\n  @%p2 bra DONE;\n  ld.shared.u32 %r3, [flag];\n",
    );
    let m = weft_ptx::parse(&text).unwrap();
    let k = weft_ptx::lower_kernel(&m, None).unwrap();
    let cfg = launch([64, 1, 1], [64, 1, 1]);
    for schedule in [Schedule::RoundRobin, Schedule::Random(3)] {
        let go = |jobs| {
            let opts = Options {
                schedule,
                quantum: 1,
                jobs,
                min_parallel_work: 0,
                max_resident_ctas: 1,
                ..Options::default()
            };
            let out = vec![buf("out", 64 * 64, |_| 0)];
            run(&k, cfg, &[Arg::Buffer(0)], out, &opts, None).unwrap()
        };
        let (seq, par) = (go(1), go(2));
        same(&seq, &par, &format!("racy CTA 0 {schedule:?}"));
        assert_eq!(
            par.stats.parallel_jobs, 0,
            "{schedule:?}: parallel run dropped"
        );
    }
}

/// Below `Options::min_parallel_work` (CTAs × warps per CTA × static instructions), or with
/// an arena over 32 bytes per estimated warp-instruction when the jobs need copies of it
/// (no copy-on-write views: not Linux, or `WEFT_JOBS_COW=0`), a launch stays sequential
/// whatever `jobs` says; at or above it, an eligible launch runs in parallel. The tree
/// reduction at 64 CTAs of 128 threads: 64 × 4 × its static instruction count.
#[test]
fn small_launches_stay_sequential() {
    let k = kernel("tree_reduction");
    let n = 64 * 128;
    let cfg = launch([64, 1, 1], [128, 1, 1]);
    let est = 64 * 4 * k.code.len() as u64;
    let go = |min_parallel_work: u64, extra: usize| {
        let opts = Options {
            jobs: 2,
            min_parallel_work,
            ..Options::default()
        };
        let bufs = vec![
            buf("in", n, |i| i as u64),
            buf("out", 64, |_| 0),
            buf("pad", extra, |_| 0),
        ];
        let args = [Arg::Buffer(0), Arg::Buffer(1)];
        run(&k, cfg, &args, bufs, &opts, None).unwrap()
    };
    let seq = go(est + 1, 0);
    assert_eq!(seq.stats.parallel_jobs, 0, "below the threshold");
    let par = go(est, 0);
    assert_eq!(par.stats.parallel_jobs, 2, "at the threshold");
    same(&seq, &par, "tree reduction at the threshold");
    // An arena of more than 32 bytes per estimated warp-instruction (4-byte elements).
    let big = go(est, (32 * est / 4) as usize);
    let views = cfg!(target_os = "linux")
        && std::env::var("WEFT_JOBS_COW").map_or(true, |v| v.trim() != "0");
    let expect = if views { 2 } else { 0 };
    assert_eq!(
        big.stats.parallel_jobs, expect,
        "a large arena, views: {views}"
    );
    let big_seq = go(u64::MAX, (32 * est / 4) as usize);
    same(&big_seq, &big, "tree reduction with a large arena");
    assert_eq!(go(0, (32 * est / 4) as usize).stats.parallel_jobs, 2);
}
