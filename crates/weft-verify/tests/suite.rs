//! The labelled suite `tests/verify/`: every kernel's first header line is its expected
//! verdict (`//pass`, `//xfail:RACE`, `//xfail:BARRIER_DIVERGENCE`, `//xfail:ASSERT`,
//! `//xfail:ARRAY_BOUNDS`, `//xfail:MEMORY`: a null-pointer access or a write to constant
//! memory, `//xfail:INVARIANT`: a loop invariant that fails or is not at the loop head,
//! `//xfail:UNINITIALISED`: a read of an uninitialised local variable, `//not_checked`: no
//! error, but something GPUVerify checks that weft deliberately does not, exit 3), derived
//! by hand (the reason is the kernel's third line) or taken from paper 002. Kernels where
//! weft is known to disagree are listed, with weft's verdict and the reason, in
//! `tests/verify/known.tsv`; the test checks those keep weft's recorded verdict, so a fix (or a
//! regression) shows up. Kernels marked `slow` there are not run here.
//! `WEFT_VERIFY_SUITE_ONLY=A,B` runs only the kernels whose file name contains A or B.
//!
//! `gpuverify_kernels`: the kernels of GPUVerify's own test suite kept in
//! `tests/verify/gpuverify/` (their labels are GPUVerify's: `//pass` must verify, any
//! `//xfail:` must be reported as a possible error; `gpuverify/known.tsv` lists the kernels
//! where weft knows it disagrees, with its outcome and the reason).

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
        "xfail:UNINITIALISED" => "uninitialised".into(),
        "not_checked" => "incomplete".into(),
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
        Err(e @ (VerifyError::Tool(_) | VerifyError::Solver(_))) => format!("tool: {e}"),
        Ok(rs) => {
            let r = &rs[0];
            match r.verdict {
                Verdict::Verified => "verified".into(),
                Verdict::Bounded => "bounded".into(),
                Verdict::Unknown => "unknown".into(),
                Verdict::Incomplete => "incomplete".into(),
                Verdict::Errors => {
                    // The most severe kind found: assertion, divergence, race.
                    let has = |k: &str| r.findings.iter().any(|f| f.kind == k);
                    if has("uninitialised") {
                        "uninitialised".into()
                    } else if has("assert") {
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
    if let Some(only) = std::env::var_os("WEFT_VERIFY_SUITE_ONLY") {
        let only = only.to_string_lossy().into_owned();
        files.retain(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            only.split(',').any(|o| n.contains(o))
        });
    }
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

/// Every `.cu`/`.cl` under `dir`, recursively.
fn kernels_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            kernels_under(&p, out);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("cu" | "cl")) {
            out.push(p);
        }
    }
}

#[test]
fn gpuverify_kernels() {
    if !weft_verify::smt::available(weft_verify::SolverKind::Z3)
        || weft_cuda::Compiler::detect_for(weft_cuda::Language::Cuda).is_err()
    {
        eprintln!("skipped: z3 or clang-19 missing (scripts/deps.sh installs them)");
        return;
    }
    let dir = suite_dir().join("gpuverify");
    // Kernels on which weft knows it disagrees: path under gpuverify/, weft's outcome, reason.
    let known: HashMap<String, String> = std::fs::read_to_string(dir.join("known.tsv"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            Some((c.first()?.to_string(), c.get(1)?.to_string()))
        })
        .collect();
    let mut files = Vec::new();
    kernels_under(&dir, &mut files);
    files.sort();
    assert!(
        files.len() >= 10,
        "{} kernels under {}",
        files.len(),
        dir.display()
    );
    let bad: Vec<String> = files
        .par_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let first = text.lines().next().unwrap_or("").trim();
            let want_error = first.starts_with("//xfail:");
            assert!(
                want_error || first == "//pass",
                "{}: label {first}",
                p.display()
            );
            let got = outcome(p);
            let rel = p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned();
            let ok = if let Some(k) = known.get(&rel) {
                got == *k
            } else if want_error {
                !matches!(got.as_str(), "verified" | "bounded" | "unknown")
                    && !got.starts_with("unsupported")
                    && !got.starts_with("tool")
            } else {
                got == "verified"
            };
            (!ok).then(|| format!("{}: label {first}, weft says {got}", p.display()))
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// `tests/verify/gpuverify-suite/ci-subset.txt`: a fixed subset of GPUVerify's whole suite
/// (kept in `tests/verify/gpuverify-suite/`, run whole by `scripts/verify-gpuverify-suite.sh`),
/// checked with GPUVerify's labels: `//pass` must verify, `//xfail` must give an error.
#[test]
fn gpuverify_suite_subset() {
    if !weft_verify::smt::available(weft_verify::SolverKind::Z3)
        || weft_cuda::Compiler::detect_for(weft_cuda::Language::Cuda).is_err()
    {
        eprintln!("skipped: z3 or clang-19 missing (scripts/deps.sh installs them)");
        return;
    }
    let dir = suite_dir().join("gpuverify-suite");
    let list = std::fs::read_to_string(dir.join("ci-subset.txt")).unwrap();
    let files: Vec<PathBuf> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| dir.join(l))
        .collect();
    assert!(files.len() >= 8, "{} kernels listed", files.len());
    let bad: Vec<String> = files
        .par_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let first = text.lines().next().unwrap_or("").trim();
            let want_error = first.to_ascii_lowercase().starts_with("//xfail:");
            let got = outcome(p);
            let ok = if want_error {
                !matches!(
                    got.as_str(),
                    "verified" | "bounded" | "unknown" | "incomplete"
                ) && !got.starts_with("unsupported")
                    && !got.starts_with("tool")
            } else {
                got == "verified"
            };
            (!ok).then(|| format!("{}: label {first}, weft says {got}", p.display()))
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
