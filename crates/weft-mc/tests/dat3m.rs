//! Dat3M's expected verdicts (the anchor, `../shared/corpus/dat3m/expected`): `weft mc`
//! must validate a test's condition exactly when Dat3M's `path,1|0` row says so, for
//! PTX v7.5, Vulkan and OpenCL. Rows whose test takes longer than the per-test budget are
//! skipped and listed; `tests/mc/dat3m-known.tsv` lists the rows the checker gets wrong
//! with the reason, and the test fails on any other disagreement (or if a listed one is
//! fixed, so the list stays true).

use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;
use weft_mc::{check_litmus, McOptions};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn mc_verdicts_match_dat3m() {
    let shared = root().join("../shared/corpus/dat3m");
    if !shared.is_dir() {
        eprintln!("skipped: {} not found", shared.display());
        return;
    }
    let known_text =
        std::fs::read_to_string(root().join("tests/mc/dat3m-known.tsv")).unwrap_or_default();
    let known: Vec<(String, String)> = known_text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            (
                f.next().unwrap_or("").to_string(),
                f.next().unwrap_or("").to_string(),
            )
        })
        .collect();
    let budget = Duration::from_secs(if cfg!(debug_assertions) { 4 } else { 20 });
    let sets = [
        ("ptx-v7.5", "PTXv7_5-expected.csv"),
        ("vulkan", "VULKAN-expected.csv"),
        ("opencl", "OPENCL-expected.csv"),
    ];
    let mut jobs = Vec::new();
    for (model, file) in sets {
        let text = std::fs::read_to_string(shared.join("expected").join(file)).unwrap();
        for line in text.lines() {
            let Some((p, v)) = line.trim().rsplit_once(',') else {
                continue;
            };
            jobs.push((model, p.to_string(), v.trim() == "1"));
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(256 << 20)
        .build()
        .unwrap();
    let rows: Vec<(Option<String>, Option<String>)> = pool.install(|| {
        jobs.par_iter()
            .map(|(model, path, expect)| {
                let f = shared.join(path);
                let Ok(src) = std::fs::read_to_string(&f) else {
                    return (Some(format!("{model} {path}: missing")), None);
                };
                let Ok(p) = weft_litmus::parse(&src) else {
                    return (Some(format!("{model} {path}: does not parse")), None);
                };
                let cat = weft_exec::models::load(model).unwrap();
                let opts = McOptions {
                    timeout: Some(budget),
                    threads: 1,
                    ..McOptions::default()
                };
                match check_litmus(&p, model, &cat, &opts) {
                    Err(e) => (None, Some(format!("{model}\t{path}\terror {e}"))),
                    Ok(r) if r.sim.timed_out => {
                        (Some(format!("{model} {path}: over {budget:?}")), None)
                    }
                    Ok(r) if r.sim.validated != *expect => (
                        None,
                        Some(format!(
                            "{model}\t{path}\tmc says {}, Dat3M {}",
                            r.sim.validated as u8, *expect as u8
                        )),
                    ),
                    Ok(_) => (None, None),
                }
            })
            .collect()
    });
    let skipped: Vec<&String> = rows.iter().filter_map(|r| r.0.as_ref()).collect();
    let wrong: Vec<&String> = rows.iter().filter_map(|r| r.1.as_ref()).collect();
    eprintln!(
        "{} rows, {} skipped, {} disagreements",
        jobs.len(),
        skipped.len(),
        wrong.len()
    );
    for s in &skipped {
        eprintln!("skipped: {s}");
    }
    let mut unexpected = Vec::new();
    for w in &wrong {
        let mut f = w.split('\t');
        let key = format!("{}\t{}", f.next().unwrap_or(""), f.next().unwrap_or(""));
        if known.iter().any(|(m, p)| format!("{m}\t{p}") == key) {
            eprintln!("known: {w}");
        } else {
            unexpected.push(w);
        }
    }
    for u in &unexpected {
        eprintln!("DISAGREES {u}");
    }
    for (m, p) in &known {
        let listed = wrong.iter().any(|w| w.starts_with(&format!("{m}\t{p}\t")));
        let skip = skipped.iter().any(|s| s.starts_with(&format!("{m} {p}:")));
        assert!(
            listed || skip,
            "{m} {p} now agrees with Dat3M: remove it from dat3m-known.tsv"
        );
    }
    assert!(
        unexpected.is_empty(),
        "{} unexpected disagreements",
        unexpected.len()
    );
    assert!(jobs.len() > 300);
}
