//! A successful `weft run` on lavapipe prints no `error:` line on stderr, even without
//! `XDG_RUNTIME_DIR` in the environment (Mesa complains about it otherwise; weft gives the
//! process a private runtime directory), and with a runtime directory others can read.
//! GPUHarbor-style stress files with `numMemLocations`/`numOutputs` run when the numbers
//! fit the test and stop with exit 2 at the field's `file:line:col` when they do not.

use std::path::Path;
use std::process::Command;

use crate::common::repo as root;

fn run_mp(env: Option<&Path>) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_weft"));
    c.current_dir(root()).env_remove("XDG_RUNTIME_DIR").args([
        "run",
        "--no-db",
        "--iterations",
        "1",
        "--stress",
        "tests/stress/small.json",
        "tests/corpus/gpuharbor/MP.json",
    ]);
    if let Some(dir) = env {
        c.env("XDG_RUNTIME_DIR", dir);
    }
    let o = c.output().expect("run weft");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn successful_run_prints_no_error_without_xdg_runtime_dir() {
    let (code, out, err) = run_mp(None);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("instances"), "{out}");
    assert!(
        !err.lines()
            .any(|l| l.to_ascii_lowercase().contains("error")),
        "stderr of a successful run:\n{err}"
    );
}

#[test]
fn successful_run_prints_no_error_with_a_shared_runtime_dir() {
    // A world-readable directory is what Mesa rejects as "invalid".
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("run_quiet-shared");
    std::fs::create_dir_all(&dir).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (code, out, err) = run_mp(Some(&dir));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        !err.lines()
            .any(|l| l.to_ascii_lowercase().contains("error")),
        "stderr of a successful run:\n{err}"
    );
}

fn run_with(stress: &str, tests: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(root())
        .args(["run", "--no-db", "--iterations", "1", "--stress", stress])
        .args(tests)
        .output()
        .expect("run weft");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn gpuharbor_stress_fields_are_checked_against_the_tests() {
    // MP and 2+2W both have 2 locations and 2 outputs (r0, r1; final x and y).
    let (code, out, err) = run_with(
        "tests/stress/gpuharbor-mp.json",
        &[
            "tests/corpus/gpuharbor/MP.json",
            "tests/corpus/gpuharbor/2+2W.json",
        ],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = run_with(
        "tests/stress/bad-outputs.json",
        &["tests/corpus/gpuharbor/MP.json"],
    );
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(
        err.contains(
            "tests/stress/bad-outputs.json:6:3: `numOutputs` is 3, but test MP has 2 outputs"
        ),
        "{err}"
    );
}
