//! Helpers the CLI test modules share (each former test file used to carry its own copy):
//! the repository root, running the `weft` binary cargo built for these tests, its output
//! as text, and fresh scratch directories.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root (canonical: `crates/weft/../..` resolved).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// `weft ARGS` run in the repository root; its output.
pub fn weft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run weft")
}

/// [`weft`] with `XDG_RUNTIME_DIR` set to the temporary directory: the commands that open a
/// wgpu adapter (lavapipe's loader complains on stderr without it).
pub fn weft_xdg(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(repo())
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .args(args)
        .output()
        .expect("run weft")
}

/// Bytes as text (lossy UTF-8).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// A fresh (emptied) directory `MODULE-NAME` under cargo's per-target temporary directory.
pub fn scratch_in(module: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{module}-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A directory `weft-PREFIX-PID` in the system's temporary directory (created, not emptied).
pub fn temp_dir_of(prefix: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("weft-{prefix}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}
