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

    // Issue 27: a race that needs a 32-bit wrap-around is reported and said to need one;
    // `--assume-no-overflow` verifies the kernel (its label's reason, tests/verify).
    let o = weft(&["verify", "tests/verify/overflow_index_wraps.cu"]);
    assert_eq!(o.status.code(), Some(1));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(
        s.contains("only when 32-bit integer arithmetic wraps around"),
        "{s}"
    );
    let o = weft(&[
        "verify",
        "--assume-no-overflow",
        "tests/verify/overflow_index_wraps.cu",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // `--template`: k<64> over a block of 64 threads writes distinct elements; the default
    // k<> (N = 32) races, as its label says.
    let o = weft(&[
        "verify",
        "--template",
        "k<64>",
        "tests/verify/template_default_args_race.cu",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("verified as k<64> (--template)"));

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

/// Issue 27: what weft deliberately does not check (a kernel's own postcondition; a called
/// function's postcondition beyond the kernel's calls) is printed as "not checked: WHAT (line
/// N)", never "verified"; with no error the exit code is 3 (incomplete), with an error 1.
#[test]
fn not_checked_is_never_verified() {
    if !ready() {
        eprintln!("skipped: z3 or clang-19 missing");
        return;
    }
    let o = weft(&["verify", "tests/verify/kernel_ensures_not_checked.cu"]);
    let s = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{s}");
    assert!(!s.contains("verified ("), "{s}");
    assert!(
        s.contains("not checked: the kernel's postcondition `__ensures`") && s.contains("(line 7)"),
        "{s}"
    );
    let o = weft(&[
        "verify",
        "--json",
        "tests/verify/ensures_modular_not_checked.cu",
    ]);
    assert_eq!(o.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["verdict"], "incomplete");
    assert!(v[0]["not_checked"][0]
        .as_str()
        .is_some_and(|n| n.contains("`dec`") && n.ends_with("(line 7)")));
    // An error decides the verdict: exit 1, and what was not checked is still said.
    let o = weft(&["verify", "tests/verify/kernel_ensures_race_not_checked.cu"]);
    let s = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{s}");
    assert!(
        s.contains("write-write race") && s.contains("not checked:"),
        "{s}"
    );
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
    std::fs::write(
        &f,
        "__global__ void k(int *a) { a[threadIdx.x] = blockIdx.x; }\n",
    )
    .unwrap();
    // No geometry (issue 27): verified for every 1-D launch, and said so; here blocks write
    // their ids to the same elements `a[threadIdx.x]`: with more than one block, a race.
    let o = weft(&["verify", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("no launch geometry given"), "{out}");
    assert!(out.contains("race on `a`"), "{out}");
    // `*` on the command line is any extent; one block of any size has no race.
    let o = weft(&["verify", "--grid", "1", "--block", "*", f.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("launch: grid [1,1,1], block [*,1,1]"));
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

/// The z3 processes whose parent is `pid` (from /proc).
fn solver_children(pid: u32) -> Vec<u32> {
    let mut v = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(child) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let comm = head.split_once('(').map(|x| x.1).unwrap_or("");
        let mut f = rest.split_whitespace();
        let state = f.next().unwrap_or("");
        let ppid: u32 = f.next().and_then(|p| p.parse().ok()).unwrap_or(0);
        if ppid == pid && comm == "z3" && state != "Z" {
            v.push(child);
        }
    }
    v
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        !s.rsplit_once(')')
            .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
    })
}

/// Issue 27 item 5: a `weft verify` killed by a harness (SIGKILL) leaves no solver running,
/// and `--timeout S` bounds the whole run with exit 3 and no "verified".
#[test]
#[cfg(target_os = "linux")]
fn the_solver_dies_with_weft_and_timeout_bounds_the_run() {
    if !ready() {
        eprintln!("skipped: z3 or clang-19 missing");
        return;
    }
    // bitonic_step.cu runs past 2 minutes (tests/verify/known.tsv: slow).
    let mut child = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(root())
        .args(["verify", "tests/verify/bitonic_step.cu"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let mut solvers = Vec::new();
    while solvers.is_empty() && start.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        solvers = solver_children(child.id());
    }
    assert!(
        !solvers.is_empty(),
        "no z3 child of weft verify within 60 s"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let killed = std::time::Instant::now();
    while solvers.iter().any(|&p| alive(p)) && killed.elapsed().as_secs() < 10 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let left: Vec<u32> = solvers.iter().copied().filter(|&p| alive(p)).collect();
    for p in &left {
        let _ = Command::new("kill").args(["-9", &p.to_string()]).status();
    }
    assert!(left.is_empty(), "z3 {left:?} outlived its killed weft");

    let t = std::time::Instant::now();
    let o = weft(&["verify", "--timeout", "2", "tests/verify/bitonic_step.cu"]);
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        t.elapsed().as_secs() < 30,
        "--timeout 2 took {:?}",
        t.elapsed()
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains(": verified"), "{out}");
}
