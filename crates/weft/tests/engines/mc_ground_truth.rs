//! Ground truth: on every litmus test of `tests/corpus` and of the shared Dat3M corpus,
//! the model checker gives exactly the simulator's final states, execution counts,
//! flags and verdict for `rc11`, `scoped-rc11`, `ptx-v7.5` and `vulkan`.
//!
//! The simulator enumerates candidates herd-style (traces × rf × co) and is the reference;
//! the per-state execution counts must match too, so an execution explored twice or
//! missed fails the test. `ptx-v7.5` and `vulkan` allow load buffering without
//! dependencies, which the checker explores through its (po ∪ rf)-cycle extension; a
//! comparison that fails only because cycles through dependencies are missing (the
//! checker has every execution of the simulator under the model plus No-Thin-Air and only
//! executions of the simulator under the model) is listed as the known limit, and so is
//! one on a test whose dependency cycles the checker built by value speculation, which
//! follows herd7 where the simulator guesses the condition's constants (the checker must
//! still have every (po ∪ rf)-acyclic execution). Tests the simulator itself cannot finish (truncated,
//! unconverged value domains, 20 s timeout) and tests the checker cannot finish in 20 s
//! are skipped and listed.
//!
//! `WEFT_MC_GT_FILTER=substring` restricts the files; `WEFT_MC_GT_MODELS=a,b` the models.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;
use weft_cat::Model;
use weft_mc::{check_litmus, McOptions};
use weft_sim::{models, simulate, SimOptions, SimResult};

fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            litmus_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "litmus" || x == "json")
            && !p.to_string_lossy().ends_with(".meta.json")
        {
            out.push(p);
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The model with No-Thin-Air added (for models that do not have it).
fn with_nta(name: &str) -> Model {
    let src = models::BUNDLED
        .iter()
        .find(|(n, _)| *n == name)
        .expect("bundled")
        .1;
    Model::parse(
        &format!("{name}+nta.cat"),
        &format!("{src}\nacyclic po | rf as mc-no-thin-air\n"),
    )
    .expect("parses")
}

fn summary(r: &SimResult) -> String {
    format!(
        "states={:?} pos={} neg={} ok={} flags={:?}",
        r.states
            .iter()
            .map(|(k, v)| (k.join(","), v.executions))
            .collect::<Vec<_>>(),
        r.positive,
        r.negative,
        r.validated,
        r.flags
    )
}

/// Whether `mc` lies between the simulator under the model plus No-Thin-Air (every
/// (po|rf)-acyclic execution) and under the model itself: per final state, at least the
/// first's execution count and at most the second's.
fn between(nta: &SimResult, mc: &SimResult, full: &SimResult) -> bool {
    let count = |r: &SimResult, k: &Vec<String>| r.states.get(k).map_or(0, |v| v.executions);
    nta.states.iter().all(|(k, v)| count(mc, k) >= v.executions)
        && mc
            .states
            .iter()
            .all(|(k, v)| count(full, k) >= v.executions)
}

/// Whether `mc` has, per final state, at least the executions of the simulator under the
/// model plus No-Thin-Air.
fn at_least(nta: &SimResult, mc: &SimResult) -> bool {
    let count = |r: &SimResult, k: &Vec<String>| r.states.get(k).map_or(0, |v| v.executions);
    nta.states.iter().all(|(k, v)| count(mc, k) >= v.executions)
}

/// (compared, skipped because, known-limit mismatch, failure)
type Row = (bool, Option<String>, Option<String>, Option<String>);

#[test]
fn mc_agrees_with_sim_on_every_corpus_test() {
    let mut files = Vec::new();
    litmus_files(&root().join("tests/corpus"), &mut files);
    let shared = root().join("../shared/corpus/dat3m/litmus");
    if shared.is_dir() {
        litmus_files(&shared, &mut files);
    } else {
        eprintln!("note: {} not found; only tests/corpus", shared.display());
    }
    files.sort();
    if let Ok(f) = std::env::var("WEFT_MC_GT_FILTER") {
        files.retain(|p| p.to_string_lossy().contains(&f));
    }
    let names: Vec<String> = std::env::var("WEFT_MC_GT_MODELS")
        .map(|s| s.split(',').map(str::to_string).collect())
        .unwrap_or_else(|_| {
            ["rc11", "scoped-rc11", "ptx-v7.5", "vulkan"]
                .map(str::to_string)
                .to_vec()
        });
    // Per-test budget: 20 s in release builds; 4 s in debug builds (CI), where the
    // slowest tests are skipped and listed rather than slowing the suite.
    let budget = Duration::from_secs(if cfg!(debug_assertions) { 4 } else { 20 });
    let sim_opts = SimOptions {
        timeout: Some(budget),
        ..SimOptions::default()
    };
    let loaded: Vec<(String, Model, Option<Model>)> = names
        .iter()
        .map(|name| {
            // Diagnostics only: the model with No-Thin-Air, to tell load-buffering
            // differences apart when a comparison fails.
            let has_nta = name == "rc11" || name == "scoped-rc11";
            let reference = if has_nta { None } else { Some(with_nta(name)) };
            (name.clone(), models::load(name).unwrap(), reference)
        })
        .collect();
    let jobs: Vec<(usize, &PathBuf)> = (0..loaded.len())
        .flat_map(|m| files.iter().map(move |f| (m, f)))
        .collect();
    // (compared?, skipped, lb-only, failure)
    // Deep stacks: the simulator's and the checker's searches recurse per event.
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(256 << 20)
        .build()
        .unwrap();
    let results: Vec<Row> = pool.install(|| {
        jobs.par_iter()
            .map(|&(mi, f)| {
                let (name, model, reference) = &loaded[mi];
                let rel = f.strip_prefix(root()).unwrap_or(f).display().to_string();
                let none = (false, None, None, None);
                let Ok(src) = std::fs::read_to_string(f) else {
                    return none;
                };
                let Ok(p) = weft_litmus::parse(&src) else {
                    return (
                        false,
                        Some(format!("{name} {rel}: does not parse")),
                        None,
                        None,
                    );
                };
                if std::env::var("WEFT_MC_GT_VERBOSE").is_ok() {
                    eprintln!("{name} {rel}");
                }
                let s = match simulate(&p, model, &sim_opts) {
                    Ok(s) => s,
                    Err(e) => {
                        return (
                            false,
                            Some(format!("{name} {rel}: sim error: {e}")),
                            None,
                            None,
                        )
                    }
                };
                if s.truncated || s.timed_out || !s.converged {
                    let why = format!(
                        "{name} {rel}: sim incomplete (truncated {}, timed out {}, converged {})",
                        s.truncated, s.timed_out, s.converged
                    );
                    return (false, Some(why), None, None);
                }
                let opts = McOptions {
                    timeout: Some(budget),
                    threads: 1,
                    ..McOptions::default()
                };
                let m = match check_litmus(&p, name, model, &opts) {
                    Ok(m) => m,
                    Err(e) => {
                        return (
                            false,
                            None,
                            None,
                            Some(format!("{name} {rel}: mc error: {e}")),
                        )
                    }
                };
                if m.sim.timed_out {
                    return (
                        false,
                        Some(format!("{name} {rel}: mc timed out")),
                        None,
                        None,
                    );
                }
                let speculated = m.dep_cycles.is_empty()
                    && !weft_mc::thinair::dep_cycles(&p, name.starts_with("ptx")).is_empty();
                let (a, b) = (summary(&s), summary(&m.sim));
                let failure = (a != b)
                    .then(|| format!("{name} {rel} [{}]:\n  sim {a}\n  mc  {b}", m.checker));
                let mut lb = None;
            if let (Some(nta), Some(_)) = (reference.as_ref(), failure.as_ref()) {
                match simulate(&p, nta, &sim_opts) {
                    Ok(r) if r.timed_out => {
                        let why = format!(
                            "{name} {rel}: differs from sim; the No-Thin-Air diagnostic ran past the budget"
                        );
                        return (false, Some(why), None, None);
                    }
                    Ok(r) if between(&r, &m.sim, &s) => {
                        lb = Some(format!(
                            "{name} {rel}: mc has every execution of sim under {name} + No-Thin-Air and only executions of sim under {name}"
                        ));
                    }
                    // Executions with a dependency cycle built by value speculation follow
                    // herd7 (a self-justifying value is symbolic, never a condition's
                    // constant); the simulator's speculation guesses the condition's
                    // constants (Dat3M's answers): they may differ there, but mc must still
                    // have every (po|rf)-acyclic execution.
                    Ok(r) if speculated && at_least(&r, &m.sim) => {
                        lb = Some(format!(
                            "{name} {rel}: dependency cycles built by speculation (herd7's values); mc has every execution of sim under {name} + No-Thin-Air"
                        ));
                    }
                    _ => {}
                }
            }
            // A mismatch explained by the documented limit (executions with (po|rf)
                // cycles the checker does not reach) is listed, not failed.
                if lb.is_some() {
                    return (true, None, lb, None);
                }
                (true, None, lb, failure)
            })
            .collect()
    });
    let compared = results.iter().filter(|r| r.0).count();
    let skipped: Vec<String> = results.iter().filter_map(|r| r.1.clone()).collect();
    let lb_only: Vec<String> = results.iter().filter_map(|r| r.2.clone()).collect();
    let failures: Vec<String> = results.iter().filter_map(|r| r.3.clone()).collect();
    eprintln!("compared {compared}, skipped {}", skipped.len());
    for s in &skipped {
        eprintln!("skipped: {s}");
    }
    for s in &lb_only {
        eprintln!("known limit, mismatch only through (po|rf) cycles: {s}");
    }
    // The known-limit list stays small: a regression in the cycle extension shows here.
    assert!(
        lb_only.len() <= 60,
        "{} known-limit mismatches",
        lb_only.len()
    );
    for f in failures.iter().take(40) {
        eprintln!("MISMATCH {f}");
    }
    assert!(failures.is_empty(), "{} mismatches", failures.len());
    assert!(compared > 0);
}
