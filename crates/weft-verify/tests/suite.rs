//! The labelled suite `tests/verify/`: every kernel's first header line is its expected
//! verdict (`//pass`, `//xfail:RACE`, `//xfail:BARRIER_DIVERGENCE`, `//xfail:ASSERT`,
//! `//xfail:ARRAY_BOUNDS`, `//xfail:MEMORY`: a null-pointer access or a write to constant
//! memory, `//xfail:INVARIANT`: a loop invariant that fails or is not at the loop head), derived
//! by hand (the reason is the kernel's third line) or taken from paper 002. Kernels where
//! weft is known to disagree are listed, with weft's verdict and the reason, in
//! `tests/verify/known.tsv`; the test checks those keep weft's recorded verdict, so a fix (or a
//! regression) shows up. Kernels marked `slow` there are not run here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use weft_verify::load::{verify_file, FileOptions};
use weft_verify::{Options, Verdict, VerifyError};

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/verify")
}

fn label_of(text: &str) -> String {
    match text
        .lines()
        .next()
        .unwrap_or("")
        .trim_start_matches("//")
        .trim()
    {
        "pass" => "verified".into(),
        "xfail:RACE" => "race".into(),
        "xfail:BARRIER_DIVERGENCE" => "divergence".into(),
        "xfail:ASSERT" => "assert".into(),
        "xfail:ARRAY_BOUNDS" => "bounds".into(),
        "xfail:MEMORY" => "memory".into(),
        "xfail:INVARIANT" => "invariant".into(),
        other => panic!("unknown label {other}"),
    }
}

fn outcome(path: &Path) -> String {
    let o = Options {
        timeout_ms: 20_000,
        kernel_timeout_s: 120,
        ..Options::default()
    };
    match verify_file(path, &o, &FileOptions::default()) {
        Err(VerifyError::Unsupported(m)) => format!("unsupported: {m}"),
        Err(VerifyError::Tool(m)) => format!("tool: {m}"),
        Ok(rs) => {
            let r = &rs[0];
            match r.verdict {
                Verdict::Verified => "verified".into(),
                Verdict::Bounded => "bounded".into(),
                Verdict::Unknown => "unknown".into(),
                Verdict::Errors => {
                    // The most severe kind found: assertion, divergence, race.
                    let has = |k: &str| r.findings.iter().any(|f| f.kind == k);
                    if has("assert") {
                        "assert".into()
                    } else if has("array-bounds") {
                        "bounds".into()
                    } else if has("memory") {
                        "memory".into()
                    } else if has("barrier-divergence") {
                        "divergence".into()
                    } else if !has("race") && has("invariant") {
                        "invariant".into()
                    } else {
                        "race".into()
                    }
                }
            }
        }
    }
}

#[test]
fn labelled_suite() {
    if !weft_verify::smt::available(weft_verify::SolverKind::Z3)
        || weft_cuda::Compiler::detect_for(weft_cuda::Language::Cuda).is_err()
    {
        eprintln!("skipped: z3 or clang-19 missing (scripts/deps.sh installs them)");
        return;
    }
    let dir = suite_dir();
    let known_text = std::fs::read_to_string(dir.join("known.tsv")).unwrap();
    let mut known: HashMap<String, String> = HashMap::new();
    for l in known_text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = l.split('\t').collect();
        known.insert(cols[0].to_string(), cols[1].to_string());
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("cu" | "cl")))
        .collect();
    files.sort();
    assert!(files.len() >= 80, "the suite has {} kernels", files.len());
    let results: Vec<(String, String, String)> = files
        .par_iter()
        .filter_map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let want = match known.get(&name) {
                Some(k) if k == "slow" => return None,
                Some(k) => k.clone(),
                None => label_of(&std::fs::read_to_string(p).unwrap()),
            };
            Some((name, want, outcome(p)))
        })
        .collect();
    let bad: Vec<String> = results
        .iter()
        .filter(|(_, want, got)| want != got)
        .map(|(n, want, got)| format!("{n}: expected {want}, weft says {got}"))
        .collect();
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
