//! End-to-end tests of the `weft` binary as a user runs it: exit codes, the summary line,
//! `file:line:col: message` errors (first line of each) for the malformed inputs listed (with their
//! expected positions) in `tests/malformed/expected.tsv`, and parsing the shared Dat3M
//! corpus (549 tests, the figure in issue 2).

use crate::common::{repo, stderr, stdout, weft};

#[test]
fn malformed_inputs_give_one_line_positioned_errors_and_exit_2() {
    let dir = repo().join("tests/malformed");
    let table = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = row.split('\t').collect();
        let (file, pos, needle) = (cols[0], cols[1], cols[2]);
        let rel = format!("tests/malformed/{file}");
        let o = weft(&["parse", &rel]);
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        let want_prefix = format!("{rel}:{pos}: ");
        checked += 1;
        if o.status.code() != Some(2) {
            failures.push(format!("{file}: exit {:?}, want 2", o.status.code()));
        }
        if !stderr(&o).is_empty() && stderr(&o).contains("panicked") {
            failures.push(format!("{file}: panicked: {}", stderr(&o)));
        }
        // The one-line error first (the snippet under it is checked in diagnostics.rs).
        if lines.len() < 2 || !lines[0].starts_with(&want_prefix) || !lines[0].contains(needle) {
            failures.push(format!(
                "{file}: want `{want_prefix}...{needle}...`, got:\n{out}"
            ));
        }
        if lines.last() != Some(&"0 passed, 1 failed") {
            failures.push(format!("{file}: missing summary line, got:\n{out}"));
        }
    }
    assert!(checked >= 10, "expected.tsv lists too few cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_ten_megabyte_line_is_rejected_quickly_without_panic() {
    let dir = std::env::temp_dir().join(format!("weft-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, head) in [
        (
            "long.litmus",
            "PTX long\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n st.weak x, ",
        ),
        ("long-c.litmus", "C long\n{ x = 0; }\nP0 (int* x) { *x = "),
    ] {
        let path = dir.join(name);
        let mut text = head.to_string();
        text.push_str(&"9".repeat(10 << 20));
        std::fs::write(&path, text).unwrap();
        let start = std::time::Instant::now();
        let o = weft(&["parse", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
        let first = stdout(&o).lines().next().unwrap_or("").to_string();
        assert!(
            first.len() < 400,
            "error line too long: {} chars",
            first.len()
        );
        assert!(start.elapsed().as_secs() < 10, "took {:?}", start.elapsed());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_file_is_bad_input() {
    let o = weft(&["parse", "no/such/file.litmus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stdout(&o).starts_with("no/such/file.litmus: no such file"),
        "{}",
        stdout(&o)
    );
    let o = weft(&["show", "no/such/file.litmus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stdout(&o).is_empty(),
        "show wrote output for a missing file"
    );
}

#[test]
fn unknown_target_format_is_bad_input() {
    let o = weft(&["show", "--to", "fortran", "tests/corpus/paper000/SB.litmus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown format `fortran`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn whole_shared_corpus_parses() {
    let corpus = repo().join("../shared/corpus/dat3m/litmus");
    if !corpus.exists() {
        eprintln!("skipping: {} not found", corpus.display());
        return;
    }
    let o = weft(&["parse", corpus.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(out.lines().last(), Some("549 passed, 0 failed"), "{out}");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn own_corpus_parses_and_every_test_shows_in_its_own_format() {
    let o = weft(&["parse", "tests/corpus"]);
    let out = stdout(&o);
    let last = out.lines().last().unwrap_or("");
    assert!(last.ends_with(" passed, 0 failed"), "{out}");
    let n: usize = last.split(' ').next().unwrap().parse().unwrap();
    assert!(
        n >= 30,
        "our corpus should hold the tests of papers 000 and 001, found {n}"
    );
    for f in [
        "tests/corpus/paper000/SB.litmus",
        "tests/corpus/gpuharbor/MP.json",
    ] {
        let o = weft(&["show", f]);
        assert_eq!(o.status.code(), Some(0), "{f}: {}", stderr(&o));
        assert!(!stdout(&o).is_empty());
    }
}

#[test]
fn parse_json_emits_the_ir() {
    let o = weft(&["parse", "--json", "tests/corpus/paper000/SB.litmus"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let prog = &v[0]["program"];
    assert_eq!(prog["arch"], "gpu_ptx");
    assert_eq!(prog["threads"].as_array().unwrap().len(), 2);
    assert!(stderr(&o).contains("1 passed, 0 failed"));
}
