//! Kernels written elsewhere and labelled by their authors (issue 27's acceptance, second
//! bullet): Faial's `examples/drf/` (`tests/verify/faial/`, MIT), each run through
//! `weft verify` and compared with the authors' label in `labels.tsv`.
//!
//! Faial's labels answer Faial's default question: a race between two threads of one block,
//! over mathematical integers (its `--grid-level` flag adds the races between blocks, and its
//! logic is integer arithmetic unless `--logic QF_AUFBV` is given). `weft verify`'s default
//! question is wider (every pair of threads of the grid, 32-bit arithmetic that wraps): a
//! new user's run with no options reports the races between blocks and the wrap-around
//! races those kernels have (docs/verify.md, "h-fe6: kernels written elsewhere"). So each
//! row runs as `weft verify --only-intra-group --assume-no-overflow [ARG] FILE`, the
//! authors' question in weft's options.
//!
//! Expected outcome of a row: its label (`drf`: exit 0; `racy`: exit 1 with a race;
//! `error`: exit 2), unless `weft.tsv` lists the row (`FILE<TAB>ARG<TAB>KIND<TAB>OUTCOME<TAB>
//! REASON`): `differs` — weft's answer differs from the label for the reason given (derived
//! by hand from the kernel; either the label's outcome or the listed one is accepted, and a
//! row that now gets the label's is reported as a stale entry); `slow` — beyond CI time in a
//! debug build, run only with `WEFT_VERIFY_ALL=1`. A row labelled racy that weft verifies
//! fails the test whatever the lists say.

use std::collections::BTreeMap;
use std::process::Command;

use rayon::prelude::*;

use crate::common::repo;

#[derive(Clone, Debug)]
struct Row {
    file: String,
    arg: String,
    label: String,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(repo().join("tests/verify/faial/labels.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                file: f[0].to_string(),
                arg: f[1].to_string(),
                label: f[2].to_string(),
            }
        })
        .collect()
}

/// `weft.tsv`: (file, arg) -> (kind, outcome, reason).
fn listed() -> BTreeMap<(String, String), (String, String, String)> {
    let text = std::fs::read_to_string(repo().join("tests/verify/faial/weft.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                (f[0].to_string(), f[1].to_string()),
                (f[2].to_string(), f[3].to_string(), f[4].to_string()),
            )
        })
        .collect()
}

/// The outcome of one run, in `labels.tsv`'s and `weft.tsv`'s words.
fn run(r: &Row) -> String {
    let path = repo().join("tests/verify/faial").join(&r.file);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_weft"));
    cmd.args(["verify", "--only-intra-group", "--assume-no-overflow"]);
    if !r.arg.is_empty() {
        cmd.arg(&r.arg);
    }
    let out = cmd.arg(&path).output().expect("run weft");
    let text = String::from_utf8_lossy(&out.stdout);
    match out.status.code() {
        Some(0) => "drf".into(),
        Some(1) if text.contains(" race on `") => "racy".into(),
        Some(1) => "other-error".into(),
        Some(2) => "error".into(),
        Some(3) => "undecided".into(),
        c => format!("exit {c:?}"),
    }
}

#[test]
fn faial_labelled_kernels_agree_or_differ_as_listed() {
    if Command::new("clang-19").arg("--version").output().is_err()
        || Command::new("z3").arg("--version").output().is_err()
    {
        eprintln!("clang-19 or z3 not installed: labelled-kernel check skipped");
        return;
    }
    let all = std::env::var("WEFT_VERIFY_ALL").is_ok_and(|v| v == "1");
    let rows = rows();
    let listed = listed();
    let key = |r: &Row| (r.file.clone(), r.arg.clone());
    let todo: Vec<&Row> = rows
        .iter()
        .filter(|r| all || listed.get(&key(r)).is_none_or(|l| l.0 != "slow"))
        .collect();
    let results: Vec<(&Row, String)> = todo.par_iter().map(|r| (*r, run(r))).collect();
    let mut problems = Vec::new();
    let mut agree = 0;
    for (r, got) in &results {
        eprintln!("{}\t{}\t{}\t{got}", r.file, r.arg, r.label);
        if *got == r.label {
            agree += 1;
            if let Some((kind, _, why)) = listed.get(&key(r)) {
                if kind == "differs" {
                    eprintln!(
                        "stale weft.tsv entry: {} {} agrees now ({why})",
                        r.file, r.arg
                    );
                }
            }
            continue;
        }
        if r.label == "racy" && got == "drf" {
            problems.push(format!("{} {}: VERIFIED, labelled racy", r.file, r.arg));
            continue;
        }
        match listed.get(&key(r)) {
            Some((_, want, _)) if want == got => {}
            _ => problems.push(format!(
                "{} {}: {got}, labelled {} (not listed in weft.tsv with this outcome)",
                r.file, r.arg, r.label
            )),
        }
    }
    eprintln!(
        "faial labelled kernels: {} of {} rows run ({} skipped as slow: WEFT_VERIFY_ALL=1 runs them), {agree} agree",
        results.len(),
        rows.len(),
        rows.len() - results.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_listed_row_is_a_labelled_row() {
    let rows = rows();
    assert!(rows.len() >= 60, "labels.tsv: {} rows", rows.len());
    for ((file, arg), (kind, outcome, why)) in listed() {
        assert!(
            rows.iter().any(|r| r.file == file && r.arg == arg),
            "weft.tsv: {file} {arg} is not a row of labels.tsv"
        );
        assert!(
            matches!(kind.as_str(), "differs" | "slow") && !why.is_empty(),
            "weft.tsv: {file}: kind `{kind}` or no reason"
        );
        assert!(
            matches!(
                outcome.as_str(),
                "drf" | "racy" | "other-error" | "error" | "undecided"
            ),
            "weft.tsv: {file}: outcome `{outcome}`"
        );
    }
}
