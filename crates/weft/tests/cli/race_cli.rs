//! `weft race` end to end: reports and exit codes on kernels of `tests/race/`, JSON output,
//! several schedules, and bad input (exit 2 with the file and position).

use std::process::{Command, Output};

use serde_json::Value;

use crate::common::weft;

fn clang() -> bool {
    let ok = Command::new("clang-19").arg("--version").output().is_ok();
    if !ok {
        eprintln!("clang-19 not installed: skipped");
    }
    ok
}

#[test]
fn racy_kernel_exits_1_and_names_both_lines() {
    if !clang() {
        return;
    }
    let o = weft(&[
        "race",
        "tests/race/shared_missing_sync.cu",
        "--buffer",
        "in=64:iota",
        "--buffer",
        "out=64",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let t = String::from_utf8_lossy(&o.stdout);
    // Line 7 stores s[t], line 8 loads s[t+1] (the kernel's comment explains why they race).
    assert!(t.contains("read-write (intra-block, shared memory)"), "{t}");
    assert!(t.contains("shared_missing_sync.cu:7 (write"), "{t}");
    assert!(t.contains("shared_missing_sync.cu:8 (read"), "{t}");
}

#[test]
fn race_free_kernel_exits_0() {
    if !clang() {
        return;
    }
    let o = weft(&[
        "race",
        "tests/race/shared_sync_ok.cu",
        "--buffer",
        "in=64:iota",
        "--buffer",
        "out=64",
        "--schedules",
        "3",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("0 races, 0 findings"));
}

#[test]
fn json_report_has_kind_class_space_lines_threads_and_event() {
    if !clang() {
        return;
    }
    let o = weft(&[
        "race",
        "tests/race/mp_fence_block_across_ctas.cu",
        "--buffer",
        "data=1",
        "--buffer",
        "flag=1",
        "--buffer",
        "out=1",
        "--json",
        "--schedules",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    // The default definition is `scoped` (issue 26 item 3).
    assert_eq!(v["definition"], "scoped");
    assert_eq!(v["schedules"], serde_json::json!(["rr", "1"]));
    let r = &v["races"][0];
    assert_eq!(r["kind"], "fence-scope");
    assert_eq!(r["class"], "inter-block");
    assert_eq!(r["space"], "global");
    assert_eq!(r["first"]["line"], "mp_fence_block_across_ctas.cu:8");
    assert_eq!(r["second"]["line"], "mp_fence_block_across_ctas.cu:15");
    assert_eq!(r["first"]["thread"], 0);
    assert_eq!(r["second"]["thread"], 32);
    assert!(r["event"].as_u64().is_some());
    assert!(v["stats"]["shadow_bytes"].as_u64().unwrap() > 0);
}

#[test]
fn scoped_definition_reports_block_atomics_across_blocks() {
    if !clang() {
        return;
    }
    let args = [
        "race",
        "tests/race/atomic_block_across_ctas.cu",
        "--buffer",
        "count=1",
    ];
    // BARRACUDA's original definition: block-scoped atomics never race.
    let mut b: Vec<&str> = args.to_vec();
    b.extend(["--definition", "barracuda"]);
    assert_eq!(weft(&b).status.code(), Some(0));
    // `scoped`, explicit and (issue 26 item 3) the default, reports them.
    for a in [
        args.to_vec(),
        [&args[..], &["--definition", "scoped"]].concat(),
    ] {
        let o = weft(&a);
        assert_eq!(o.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&o.stdout).contains("atomic-scope (inter-block"));
    }
    let mut a: Vec<&str> = args.to_vec();
    a.extend(["--definition", "scoped"]);
    let o = weft(&a);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("atomic-scope (inter-block"));
}

#[test]
fn unsupported_instruction_is_bad_input_with_position() {
    let o = weft(&[
        "race",
        "tests/race/cli/unsupported.ptx",
        "--grid",
        "1",
        "--block",
        "32",
        "--buffer",
        "p=32",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("unsupported.ptx:10:1: unsupported instruction `mul24.lo.s32`"),
        "{e}"
    );
    assert!(o.stdout.is_empty(), "no half-written report");
}

#[test]
fn bad_options_are_bad_input() {
    for args in [
        vec![
            "race",
            "tests/race/cli/unsupported.ptx",
            "--definition",
            "nope",
        ],
        vec![
            "race",
            "tests/race/does-not-exist.cu",
            "--grid",
            "1",
            "--block",
            "1",
        ],
        vec!["race", "tests/race/cli/unsupported.ptx"],
        vec![
            "race",
            "tests/race/cli/unsupported.ptx",
            "--grid",
            "1",
            "--block",
            "2000",
        ],
        vec![
            "race",
            "tests/race/cli/unsupported.ptx",
            "--grid",
            "1",
            "--block",
            "1",
            "--schedule",
            "x",
        ],
    ] {
        let o = weft(&args);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn barrier_divergence_and_step_limit_are_findings() {
    if !clang() {
        return;
    }
    let o = weft(&[
        "race",
        "tests/race/barrier_divergent_branch.cu",
        "--buffer",
        "out=32",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["findings"][0]
        .as_str()
        .unwrap()
        .starts_with("barrier divergence at barrier_divergent_branch.cu:7"));
    // The SIMT spin-lock livelock of tests/kernels: reported, never a silent "no race".
    let o = weft(&[
        "race",
        "tests/kernels/spinlock_livelock/kernel.cu",
        "--buffer",
        "mutex=1",
        "--buffer",
        "count=1",
        "--max-steps",
        "50000",
    ]);
    let t = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("no termination after"), "{t}");
}

#[test]
fn instrumented_ptx_trace_finds_the_same_race() {
    if !clang() {
        return;
    }
    let base = [
        "race",
        "tests/race/shared_missing_sync.cu",
        "--buffer",
        "in=64:iota",
        "--buffer",
        "out=64",
        "--json",
    ];
    let lines = |o: &Output| -> Vec<(String, String, String)> {
        let v: Value = serde_json::from_slice(&o.stdout).expect("json");
        let mut r: Vec<(String, String, String)> = v["races"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let a = r["first"]["line"].as_str().unwrap().to_string();
                let b = r["second"]["line"].as_str().unwrap().to_string();
                (
                    r["kind"].as_str().unwrap().to_string(),
                    a.clone().min(b.clone()),
                    a.max(b),
                )
            })
            .collect();
        r.sort();
        r.dedup();
        r
    };
    let native = weft(&base);
    let mut a = base.to_vec();
    a.push("--instrumented");
    let inst = weft(&a);
    assert_eq!(inst.status.code(), Some(1));
    assert_eq!(lines(&native), lines(&inst));
    let v: Value = serde_json::from_slice(&inst.stdout).unwrap();
    assert_eq!(v["trace"], "instrumented-ptx");
    // A queue too small for the run is an internal error, not a silent partial analysis
    // (one CTA: 2 warps x (4 memory records + 1 exit record) = 10 records in queue 0).
    a.extend(["--queue-records", "3"]);
    let o = weft(&a);
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("queue 0 overflow: 10 records logged, room for 3"));
    assert!(o.stdout.is_empty());
}

#[test]
fn timeout_stops_without_a_report() {
    // The SIMT spin-lock livelock runs until the step limit; the timeout fires first.
    let o = weft(&[
        "race",
        "tests/kernels/spinlock_livelock/kernel.cu",
        "--buffer",
        "mutex=1",
        "--buffer",
        "count=1",
        "--timeout",
        "1.5",
    ]);
    if o.status.code() == Some(2) {
        eprintln!("clang-19 missing: skipped");
        return;
    }
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("did not finish in 1.5 s"));
    assert!(o.stdout.is_empty());
    let o = weft(&["race", "tests/race/cli/unsupported.ptx", "--timeout", "-1"]);
    assert_eq!(o.status.code(), Some(2));
}
