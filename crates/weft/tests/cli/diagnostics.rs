//! How the binary prints errors that point into a file: `weft show` prints the full report
//! (`error: message`, ` --> file:line:col`, the line and a caret), `weft parse` keeps its
//! one-line `file:line:col: message` and prints the line and caret under it, and the kernel
//! commands do the same for a malformed header. Expected renderings are the hand-written
//! `.expected` files beside the inputs in `tests/malformed`; output is not a terminal, so
//! it has no colour.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn weft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run weft")
}

/// The `.expected` files for inputs with extension `ext`, as (input, expected text).
fn cases(ext: &str) -> Vec<(String, String)> {
    let dir = repo().join("tests/malformed");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| {
            let input = n.strip_suffix(".expected")?;
            input.ends_with(ext).then(|| {
                let want = std::fs::read_to_string(dir.join(&n)).unwrap();
                (
                    format!("tests/malformed/{input}"),
                    want.trim_end().to_string(),
                )
            })
        })
        .collect();
    out.sort();
    out
}

/// `file:line:col: message` and the snippet lines, from a full report.
fn one_line_and_snippet(report: &str) -> (String, String) {
    let mut lines = report.lines();
    let message = lines.next().unwrap().trim_start_matches("error: ");
    let arrow = lines
        .next()
        .unwrap()
        .trim_start()
        .trim_start_matches("--> ");
    let head = format!("{arrow}: {message}");
    (head, lines.collect::<Vec<_>>().join("\n"))
}

#[test]
fn show_prints_the_report_with_line_and_caret() {
    let mut all = cases(".litmus");
    all.extend(cases(".json"));
    assert!(all.len() >= 5);
    for (input, want) in all {
        let o = weft(&["show", &input]);
        assert_eq!(o.status.code(), Some(2), "{input}");
        assert!(o.stdout.is_empty(), "{input}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!("{want}\n"),
            "{input}"
        );
    }
}

#[test]
fn parse_keeps_its_one_line_form_with_the_snippet_under_it() {
    for (input, want) in cases(".litmus") {
        let o = weft(&["parse", &input]);
        assert_eq!(o.status.code(), Some(2), "{input}");
        let (head, snippet) = one_line_and_snippet(&want);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            format!("{head}\n{snippet}\n0 passed, 1 failed\n"),
            "{input}"
        );
    }
}

#[test]
fn kernel_commands_show_the_header_line_with_a_caret() {
    let all = cases(".cu");
    assert!(!all.is_empty());
    for (input, want) in all {
        let o = weft(&["ptx", &input]);
        assert_eq!(o.status.code(), Some(2), "{input}");
        let (head, snippet) = one_line_and_snippet(&want);
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!("weft: {head}\n{snippet}\n"),
            "{input}"
        );
    }
}
