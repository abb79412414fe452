//! Thread symmetry (issue 28 item 7, `weft_mc::symmetry`): one execution per orbit of
//! interchangeable threads, the final states expanded over the group.
//! - `tests/mc/co/CO-N.litmus` (scripts/gen-mc-family.sh co N): herd7 7.57's output for
//!   N = 2, 3 (`CO-N.rc11.herd7`, the anchor) with and without symmetry; N = 4 and 5 against
//!   the states and counts derived from RC11 by `tests/mc/co/co-states.py` (which gives
//!   herd7's exact output for N = 2, 3; herd7 takes hours for N = 4), with symmetry;
//! - `tests/mc/symmetry/*.litmus`: a class beside an observer thread, two locations, and a
//!   `~exists` whose only counterexample is the image of a representative (its witness is
//!   rebuilt), each against herd7's output;
//! - programs where renaming is not an automorphism get no symmetry.

use std::path::{Path, PathBuf};

use weft_mc::{check_litmus, McOptions, McResult};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn parse_text(src: &str) -> weft_ir::Program {
    weft_litmus::parse(src).unwrap_or_else(|e| panic!("{e:?}"))
}

fn run(p: &weft_ir::Program, symmetry: bool) -> McResult {
    let cat = weft_exec::models::load("rc11").unwrap();
    let opts = McOptions {
        symmetry,
        ..McOptions::default()
    };
    check_litmus(p, "rc11", &cat, &opts).unwrap()
}

/// herd7's block without its `Time`/`Hash` lines and blank lines.
fn keep(t: &str) -> Vec<String> {
    t.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with("Time ") && !l.starts_with("Hash="))
        .map(str::to_string)
        .collect()
}

fn herd_cases(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut v: Vec<(PathBuf, String)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
        .filter_map(|p| {
            let h = std::fs::read_to_string(p.with_extension("rc11.herd7")).ok()?;
            Some((p, h))
        })
        .collect();
    v.sort();
    v
}

#[test]
fn coherence_family_equals_herd7_with_and_without_symmetry() {
    let cases = herd_cases(&root().join("tests/mc/co"));
    assert!(cases.len() >= 2);
    for (f, herd) in cases {
        let p = parse_text(&std::fs::read_to_string(&f).unwrap());
        for symmetry in [true, false] {
            let r = run(&p, symmetry);
            assert_eq!(r.symmetry.is_some(), symmetry, "{}", f.display());
            assert_eq!(
                keep(&r.sim.herd_text(&p)),
                keep(&herd),
                "{} symmetry {symmetry}",
                f.display()
            );
        }
    }
}

/// CO-N against `co-states.py`'s derivation: executions, positive, the exact state list.
fn derived(n: usize, executions: u64, positive: u64, states: usize) {
    let dir = root().join("tests/mc/co");
    let p = parse_text(&std::fs::read_to_string(dir.join(format!("CO-{n}.litmus"))).unwrap());
    let r = run(&p, true);
    assert!(r.symmetry.is_some());
    assert_eq!(r.counts.complete, executions);
    assert_eq!(r.sim.positive + r.sim.negative, executions);
    assert_eq!(r.sim.positive, positive);
    let want = std::fs::read_to_string(dir.join(format!("CO-{n}.states"))).unwrap();
    let mut want: Vec<&str> = want.lines().collect();
    want.sort();
    let text = r.sim.herd_text(&p);
    let mut got: Vec<&str> = text.lines().filter(|l| l.starts_with("0:r0=")).collect();
    got.sort();
    assert_eq!(got.len(), states);
    assert_eq!(got, want);
}

#[test]
fn co4_with_symmetry_gives_the_derived_states() {
    // `co-states.py 4`: 104856 executions, 630 positive, 972 states.
    derived(4, 104_856, 630, 972);
}

/// Slow in a debug build (about 3 min on the loaded 2-core VM; a few seconds in release):
/// `cargo test --release -p weft-mc --test symmetry -- --ignored`.
#[test]
#[ignore]
fn co5_with_symmetry_gives_the_derived_states() {
    // `co-states.py 5`: 29237880 executions, 22680 positive, 19965 states.
    derived(5, 29_237_880, 22_680, 19_965);
}

#[test]
fn hand_written_symmetric_tests_equal_herd7() {
    let cases = herd_cases(&root().join("tests/mc/symmetry"));
    assert!(cases.len() >= 3);
    for (f, herd) in cases {
        let p = parse_text(&std::fs::read_to_string(&f).unwrap());
        for symmetry in [true, false] {
            let r = run(&p, symmetry);
            assert_eq!(r.symmetry.is_some(), symmetry, "{}", f.display());
            assert_eq!(
                keep(&r.sim.herd_text(&p)),
                keep(&herd),
                "{} symmetry {symmetry}",
                f.display()
            );
            if f.ends_with("CoWR-swap.litmus") {
                // The counterexample (both read 1) is rebuilt as its own execution: both
                // reads read P0's write.
                let w = r.witness_text.as_deref().unwrap_or_default();
                assert_eq!(w.matches("x=1 (from P0#0)").count(), 2, "{w}");
            }
        }
    }
}

#[test]
fn no_symmetry_where_renaming_is_not_an_automorphism() {
    let cols = |p: &weft_ir::Program| weft_exec::result::columns(p);
    let two = |body0: &str, body1: &str, init: &str, cond: &str| {
        format!(
            "C T\n{{ {init} }}\n\nP0 (atomic_int* x, atomic_int* y) {{\n{body0}\n}}\n\nP1 (atomic_int* x, atomic_int* y) {{\n{body1}\n}}\n\n{cond}\n"
        )
    };
    let w = |v: i32| format!("  atomic_store_explicit(x, {v}, memory_order_relaxed);");
    let r = "  int r0 = atomic_load_explicit(x, memory_order_relaxed);";
    let sym = |src: &str| {
        let p = parse_text(src);
        weft_mc::symmetry::Symmetry::of(&p, &cols(&p)).map(|s| (s.classes.clone(), s.size()))
    };
    let ok = two(
        &format!("{}\n{r}", w(1)),
        &format!("{}\n{r}", w(2)),
        "x = 0; y = 0;",
        "exists (0:r0=1 /\\ 1:r0=1)",
    );
    assert_eq!(sym(&ok), Some((vec![vec![0, 1]], 2)));
    // The condition names 0:r0 only: 1:r0 has no column to move it to.
    let one_col = two(
        &format!("{}\n{r}", w(1)),
        &format!("{}\n{r}", w(2)),
        "x = 0; y = 0;",
        "exists (0:r0=1)",
    );
    assert_eq!(sym(&one_col), None);
    // A stored value equal to an initial value.
    let init = two(
        &format!("{}\n{r}", w(1)),
        &format!("{}\n{r}", w(2)),
        "x = 0; y = 2;",
        "exists (0:r0=1 /\\ 1:r0=1)",
    );
    assert_eq!(sym(&init), None);
    // Two threads storing the same value.
    let same = two(
        &format!("{}\n{r}", w(1)),
        &format!("{}\n{r}", w(1)),
        "x = 0; y = 0;",
        "exists (0:r0=1 /\\ 1:r0=1)",
    );
    assert_eq!(sym(&same), None);
    // A branch on the value read.
    let branch = two(
        &format!(
            "{r}\n  if (r0 == 1) {{ atomic_store_explicit(y, 3, memory_order_relaxed); }}\n{}",
            w(1)
        ),
        &format!(
            "{r}\n  if (r0 == 1) {{ atomic_store_explicit(y, 4, memory_order_relaxed); }}\n{}",
            w(2)
        ),
        "x = 0; y = 0;",
        "exists (0:r0=1 /\\ 1:r0=1)",
    );
    assert_eq!(sym(&branch), None);
    // The first access is a read: no write orders the representative.
    let read_first = two(
        &format!("{r}\n{}", w(1)),
        &format!("{r}\n{}", w(2)),
        "x = 0; y = 0;",
        "exists (0:r0=1 /\\ 1:r0=1)",
    );
    assert_eq!(sym(&read_first), None);
}
