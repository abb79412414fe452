//! `weft verify` end to end: verdicts and the documented exit codes (0 verified, 1 possible
//! error, 2 bad input, 3 solver missing), counter-example lines and JSON, on kernels of
//! `tests/verify/` whose labels come from paper 002 (Fig. 1a races, Fig. 1b does not).

use std::path::PathBuf;
use std::process::Command;

use crate::common::{repo as root, temp_dir_of, weft};

fn ready() -> bool {
    let ok = |c: &str| Command::new(c).arg("--version").output().is_ok();
    ok("z3") && ok("clang-19")
}

#[test]
fn verdicts_and_exit_codes() {
    if !ready() {
        eprintln!("skipped: z3 or clang-19 missing");
        return;
    }
    let o = weft(&["verify", "tests/verify/fig1b_barrier.cu"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("add: verified"));

    let o = weft(&["verify", "tests/verify/fig1a_race.cu"]);
    assert_eq!(o.status.code(), Some(1));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("race on `S`"), "{s}");
    assert!(s.contains("fig1a_race.cu:"), "source lines: {s}");

    // `--confirm`: the emulator re-runs the launch (unbound pointers get default buffers) and
    // shows Fig. 1a's race between the same lines.
    let o = weft(&["verify", "--confirm", "tests/verify/fig1a_race.cu"]);
    assert_eq!(o.status.code(), Some(1));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("confirmed: the emulator shows a race"), "{s}");

    let o = weft(&["verify", "--json", "tests/verify/divergent_barrier_tid.cu"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["verdict"], "errors");
    assert_eq!(v[0]["findings"][0]["kind"], "barrier-divergence");

    // The launch on the command line overrides the header: one block cannot race across blocks.
    let o = weft(&[
        "verify",
        "--grid",
        "1",
        "tests/verify/interblock_tid_index.cu",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = weft(&["verify", "tests/verify/interblock_tid_index.cu"]);
    assert_eq!(o.status.code(), Some(1));

    // Lock-step: verified, with the note that it relies on lock-step.
    let o = weft(&["verify", "tests/verify/warp_fig1a_one_warp.cu"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("verified only under lock-step"));
    let o = weft(&[
        "verify",
        "--no-lockstep",
        "tests/verify/warp_fig1a_one_warp.cu",
    ]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn bad_input_and_missing_solver() {
    if !ready() {
        return;
    }
    let o = weft(&["verify", "tests/verify/no-such-kernel.cu"]);
    assert_eq!(o.status.code(), Some(2));
    let dir = tempfile_dir();
    let f = dir.join("nogeom.cu");
    std::fs::write(&f, "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n").unwrap();
    let o = weft(&["verify", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no launch geometry"));
    let o = weft(&["verify", "--grid", "1", "--block", "0", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    // A solver that is not installed: exit 3, never "verified".
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(root())
        .env("PATH", dir.to_str().unwrap())
        .args(["verify", "tests/verify/fig1b_barrier.cu"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("verified"));
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> PathBuf {
    temp_dir_of("verify-cli")
}
