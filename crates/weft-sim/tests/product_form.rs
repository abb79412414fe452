//! Keeping settled final states in product form (`SimOptions::max_states`) must not
//! change any result: for every test of our corpus and of the shared Dat3M corpus's
//! manual Vulkan tests (xf-barrier excepted: debug builds), the result with every
//! settled product kept symbolic (`max_states: Some(0)`) has the same state count,
//! Positive/Negative, verdict and flags as the fully listed one (`None`), and its listed
//! states plus its terms' states are exactly the listed result's states, each once.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use weft_sim::{models, simulate, SimOptions, SimResult};

fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            litmus_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "litmus")
            && !p.to_string_lossy().contains("xf-barrier")
        {
            out.push(p);
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every state of `r`'s terms, listed (small tests only).
fn term_states(r: &SimResult) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for t in &r.terms {
        let mut partial: Vec<Vec<String>> = vec![vec![String::new(); r.columns.len()]];
        for (cols, tuples) in &t.groups {
            let mut next = Vec::new();
            for s in &partial {
                for tu in tuples {
                    let mut s = s.clone();
                    for (&c, v) in cols.iter().zip(tu) {
                        s[c] = v.clone();
                    }
                    next.push(s);
                }
            }
            partial = next;
        }
        out.extend(partial);
    }
    out
}

/// (tests compared, tests whose symbolic result has terms)
fn check(dirs: &[PathBuf], model_names: &[&str]) -> (usize, usize) {
    let mut files = Vec::new();
    for d in dirs {
        litmus_files(d, &mut files);
    }
    files.sort();
    let (mut compared, mut with_terms) = (0, 0);
    for name in model_names {
        let model = models::load(name).unwrap();
        for f in &files {
            let Ok(src) = std::fs::read_to_string(f) else {
                continue;
            };
            let Ok(p) = weft_litmus::parse(&src) else {
                continue;
            };
            let listed = SimOptions {
                timeout: Some(std::time::Duration::from_secs(20)),
                ..SimOptions::default()
            };
            let symbolic = SimOptions {
                max_states: Some(0),
                ..listed.clone()
            };
            let (Ok(a), Ok(b)) = (
                simulate(&p, &model, &listed),
                simulate(&p, &model, &symbolic),
            ) else {
                continue;
            };
            if a.truncated || b.truncated || a.timed_out || b.timed_out {
                continue;
            }
            let what = format!("{name} {}", f.display());
            assert!(a.terms.is_empty(), "{what}");
            assert_eq!(b.state_count(), a.states.len() as u128, "{what}");
            assert_eq!(
                (a.positive, a.negative, a.validated, &a.flags, a.consistent),
                (b.positive, b.negative, b.validated, &b.flags, b.consistent),
                "{what}"
            );
            let mut union: Vec<Vec<String>> = b.states.keys().cloned().collect();
            union.extend(term_states(&b));
            let n = union.len();
            let set: BTreeSet<Vec<String>> = union.into_iter().collect();
            assert_eq!(set.len(), n, "{what}: a state is listed twice");
            let want: BTreeSet<Vec<String>> = a.states.keys().cloned().collect();
            assert_eq!(set, want, "{what}");
            if !b.terms.is_empty() {
                with_terms += 1;
            }
            compared += 1;
        }
    }
    (compared, with_terms)
}

#[test]
fn product_form_keeps_every_result_on_our_corpus() {
    // Under ptx-v7.5 some of these tests settle subtrees (rc11: none does).
    let (n, with_terms) = check(&[root().join("tests/corpus")], &["ptx-v7.5"]);
    assert!(n > 100, "only {n} comparisons");
    assert!(with_terms > 0, "no test kept a product ({n} compared)");
    eprintln!("{n} compared, {with_terms} with terms");
}

#[test]
fn product_form_keeps_every_result_on_dat3m_vulkan_tests() {
    let shared = root().join("../shared/corpus/dat3m/litmus/VULKAN/Manual");
    if !shared.is_dir() {
        eprintln!("skipped: {} not found", shared.display());
        return;
    }
    let (n, with_terms) = check(&[shared], &["vulkan", "ptx-asplos15"]);
    assert!(n > 60, "only {n} comparisons");
    // Some of these tests settle subtrees (docs/perf.md, fourth pass): the comparison
    // must have exercised the product form.
    assert!(with_terms > 0, "no test kept a product ({n} compared)");
    eprintln!("{n} compared, {with_terms} with terms");
}
