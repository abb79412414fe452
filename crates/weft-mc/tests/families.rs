//! The LB-n and SB-n ring families (paper 004 Table 5 and Fig. 4) explore exactly the
//! expected number of executions (`tests/mc/families.tsv`, with the reason for each
//! count), with one worker thread and with several (results must not depend on it).

use std::path::Path;

use weft_mc::{check_litmus, McOptions};

/// The family's program as a herd C litmus test (same shape as scripts/gen-mc-family.sh).
fn family(kind: &str, n: usize) -> String {
    let params: Vec<String> = (0..n).map(|i| format!("atomic_int* x{i}")).collect();
    let mut s = format!("C {kind}-{n}\n{{ ");
    for i in 0..n {
        s += &format!("x{i} = 0; ");
    }
    s += "}\n";
    for i in 0..n {
        let j = (i + 1) % n;
        s += &format!("P{i} ({}) {{\n", params.join(", "));
        if kind == "LB" {
            s += &format!("  int r0 = atomic_load_explicit(x{i}, memory_order_relaxed);\n");
            s += &format!("  atomic_store_explicit(x{j}, 1, memory_order_relaxed);\n");
        } else {
            s += &format!("  atomic_store_explicit(x{i}, 1, memory_order_relaxed);\n");
            s += &format!("  int r0 = atomic_load_explicit(x{j}, memory_order_relaxed);\n");
        }
        s += "}\n";
    }
    s + "exists (0:r0=1)\n"
}

#[test]
fn ring_families_have_the_expected_execution_counts() {
    let table = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/mc/families.tsv");
    let text = std::fs::read_to_string(&table).unwrap();
    let mut rows = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (kind, n, model, expected): (&str, usize, &str, u64) =
            (f[0], f[1].parse().unwrap(), f[2], f[3].parse().unwrap());
        let p = weft_litmus::parse(&family(kind, n)).unwrap();
        let cat = weft_exec::models::load(model).unwrap();
        for threads in [1, 2] {
            let r = check_litmus(
                &p,
                model,
                &cat,
                &McOptions {
                    threads,
                    ..McOptions::default()
                },
            )
            .unwrap();
            assert_eq!(
                r.sim.consistent, expected,
                "{kind}-{n} under {model} with {threads} threads"
            );
            assert_eq!(
                r.counts.complete, expected,
                "{kind}-{n}: explored = consistent"
            );
            assert_eq!(r.counts.blocked + r.counts.cut, 0);
        }
        rows += 1;
    }
    assert!(rows >= 10);
}

#[test]
fn the_cat_oracle_counts_the_same_executions_as_the_native_check() {
    // Same programs judged by models/rc11.cat on every complete execution.
    for (kind, n, expected) in [("LB", 4, 15), ("SB", 4, 16)] {
        let p = weft_litmus::parse(&family(kind, n)).unwrap();
        let cat = weft_exec::models::load("rc11").unwrap();
        let r = check_litmus(
            &p,
            "rc11",
            &cat,
            &McOptions {
                force_cat: true,
                ..McOptions::default()
            },
        )
        .unwrap();
        assert_eq!(r.checker, "cat");
        assert_eq!(r.sim.consistent, expected, "{kind}-{n}");
    }
}

#[test]
fn rf_mode_gives_the_same_states_and_verdicts() {
    // Reads-from mode explores rf-classes and derives co at the end: the final states,
    // per-state execution counts and verdicts must equal the default rf+co exploration.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/c");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let f = e.unwrap().path();
        let p = weft_litmus::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        for model in ["rc11", "scoped-rc11", "ptx-v7.5"] {
            let cat = weft_exec::models::load(model).unwrap();
            let a = check_litmus(&p, model, &cat, &McOptions::default()).unwrap();
            let b = check_litmus(
                &p,
                model,
                &cat,
                &McOptions {
                    rf_mode: true,
                    ..McOptions::default()
                },
            )
            .unwrap();
            assert_eq!(a.sim.states, b.sim.states, "{} {model}", f.display());
            assert_eq!(
                (a.sim.positive, a.sim.negative, a.sim.validated),
                (b.sim.positive, b.sim.negative, b.sim.validated)
            );
            assert!(b.rf_classes <= b.sim.consistent);
            n += 1;
        }
    }
    assert!(n >= 30);
}

/// Issue 28 item 7: the coherence family (`scripts/gen-mc-family.sh co N`: thread i writes
/// x0 = 2i+1, then x0 = 2i+2, then reads x0) gives herd7's exact final states and counts:
/// `tests/mc/co/CO-N.rc11.herd7` is `herd7 -model rc11.cat CO-N.litmus` (herd7 7.57, the
/// anchor), compared line for line without its `Time`/`Hash` lines.
#[test]
fn coherence_family_gives_herd7_states() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/mc/co");
    let mut n = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
        .collect();
    entries.sort();
    for f in entries {
        // CO-4 and CO-5 have no herd7 output (hours): tests/symmetry.rs derives theirs.
        let Ok(herd) = std::fs::read_to_string(f.with_extension("rc11.herd7")) else {
            continue;
        };
        let p = weft_litmus::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let cat = weft_exec::models::load("rc11").unwrap();
        let r = check_litmus(&p, "rc11", &cat, &McOptions::default()).unwrap();
        let keep = |t: &str| -> Vec<String> {
            t.lines()
                .map(str::trim_end)
                .filter(|l| !l.is_empty() && !l.starts_with("Time ") && !l.starts_with("Hash="))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(keep(&r.sim.herd_text(&p)), keep(&herd), "{}", f.display());
        n += 1;
    }
    assert!(n >= 1);
}
