//! `weft sim -m rc11` against herd7 on C tests that diy7 generated (`tests/corpus/diy`,
//! README there): every test parses, and weft's output equals herd7's stored output
//! (`NAME.rc11.herd7`, herd7 7.57 with its own `rc11.cat`) line for line, ignoring only
//! herd7's `Time` and `Hash` lines and blank lines.
//!
//! Racy plain-access tests: herd7's `rc11.cat` makes a racy execution *undefined*
//! (`undefined_unless`), printing `Undef` for the verdict and `Flag *undef*`; weft's `rc11`
//! does the same (it used to flag `data-race` instead), so these lines must be identical too.
//! weft's own summary line `Undefined NAME N` (the count of undefined executions, after the
//! herd block) is not part of herd7's output and is the one weft line left out.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::repo;

fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            litmus_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "litmus") {
            out.push(p);
        }
    }
}

/// The lines compared: everything but herd7's `Time`/`Hash` lines and blank lines.
fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| {
            !l.is_empty()
                && !l.starts_with("Time ")
                && !l.starts_with("Hash=")
                && !l.starts_with("Undefined ")
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn weft_gives_herd7_output_on_diy7_tests() {
    let mut files = Vec::new();
    litmus_files(&repo().join("tests/corpus/diy"), &mut files);
    assert!(files.len() >= 80, "{} diy7 tests", files.len());
    let mut failures = Vec::new();
    let (mut exact, mut undefined) = (0usize, 0usize);
    for f in &files {
        let herd_path = f.with_extension("rc11.herd7");
        let herd = std::fs::read_to_string(&herd_path)
            .unwrap_or_else(|e| panic!("{}: {e}", herd_path.display()));
        let out = Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(["sim", "-m", "rc11"])
            .arg(f)
            .output()
            .expect("run weft");
        let weft = String::from_utf8_lossy(&out.stdout).to_string();
        let (h, w) = (lines(&herd), lines(&weft));
        if h == w {
            exact += 1;
            if h.iter().any(|l| l == "Undef") {
                undefined += 1;
            }
        }
        if h != w {
            failures.push(format!(
                "{}:\n--- herd7\n{}\n--- weft\n{}\n{}",
                f.display(),
                h.join("\n"),
                w.join("\n"),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    println!(
        "{} diy7 tests: {exact} identical to herd7 ({undefined} of them racy: Undef)",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} differ from herd7:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_diy7_test_parses_and_shows_its_metadata() {
    let mut files = Vec::new();
    litmus_files(&repo().join("tests/corpus/diy"), &mut files);
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .arg("parse")
        .arg(repo().join("tests/corpus/diy"))
        .output()
        .expect("run weft");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!("{} passed, 0 failed", files.len())),
        "{text}"
    );
    // `weft show` writes every key=value line back, in order.
    let f = &files[0];
    let src = std::fs::read_to_string(f).unwrap();
    let shown = Command::new(env!("CARGO_BIN_EXE_weft"))
        .arg("show")
        .arg(f)
        .output()
        .expect("run weft");
    let shown = String::from_utf8_lossy(&shown.stdout);
    let meta = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| {
                [
                    "Cycle=",
                    "Relax=",
                    "Safe=",
                    "Generator=",
                    "Prefetch=",
                    "Com=",
                    "Orig=",
                ]
                .iter()
                .any(|k| l.starts_with(k))
            })
            .map(str::to_string)
            .collect()
    };
    assert!(meta(&src).len() >= 5, "{}", f.display());
    assert_eq!(meta(&src), meta(&shown), "{}", f.display());
}
