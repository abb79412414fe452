//! Race repair (paper 004 §4.1, Table 4) against expected results stored as data:
//! `tests/mc/bench/repair/NAME.litmus` with `NAME.expect-repair` (the number of racing
//! pairs, the number of lines changed and every edited line, derived by hand from each
//! benchmark's description), and the scoped-race corpus `tests/corpus/scoped-races`
//! (written for the race flags, not for repair): every racy test is repaired to a
//! race-free program and every race-free one is left alone.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use weft_mc::repair::{repair_litmus, rewrite_line, Fix, Lang, Repaired};
use weft_mc::McOptions;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn repair(path: &Path) -> Repaired {
    let src = std::fs::read_to_string(path).unwrap();
    let model = weft_exec::models::load("scoped-rc11").unwrap();
    let parse = |s: &str| weft_litmus::parse(s).map_err(|e| e.render("test"));
    repair_litmus(
        &path.display().to_string(),
        &src,
        &parse,
        "scoped-rc11",
        &model,
        &McOptions::default(),
        8,
    )
    .unwrap()
}

#[test]
fn table4_benchmarks_get_the_expected_edits() {
    let dir = root().join("tests/mc/bench/repair");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "litmus") {
            continue;
        }
        let expect = std::fs::read_to_string(p.with_extension("expect-repair")).unwrap();
        let (mut races, mut lines) = (None, None);
        let mut edits = BTreeSet::new();
        for l in expect.lines() {
            if let Some(v) = l.strip_prefix("races: ") {
                races = Some(v.trim().parse::<usize>().unwrap());
            } else if let Some(v) = l.strip_prefix("lines: ") {
                lines = Some(v.trim().parse::<usize>().unwrap());
            } else if let Some(v) = l.strip_prefix("edit: ") {
                let (ln, text) = v.split_once(": ").unwrap();
                edits.insert((ln.parse::<u32>().unwrap(), text.trim().to_string()));
            }
        }
        let r = repair(&p);
        let name = p.display();
        assert!(r.race_free, "{name}: not repaired: {:?}", r.refused);
        assert_eq!(Some(r.races()), races, "{name}: racing pairs");
        assert_eq!(Some(r.lines_changed()), lines, "{name}: lines changed");
        let got: BTreeSet<(u32, String)> = r
            .rounds
            .iter()
            .flat_map(|x| x.edits.iter().map(|e| (e.line, e.new.trim().to_string())))
            .collect();
        assert_eq!(got, edits, "{name}: edits");
        // The repaired text re-parses and re-explores race-free on its own.
        let again = weft_litmus::parse(&r.text).unwrap();
        let model = weft_exec::models::load("scoped-rc11").unwrap();
        let rr =
            weft_mc::check_litmus(&again, "scoped-rc11", &model, &McOptions::default()).unwrap();
        assert!(
            rr.races.is_empty() && !rr.sim.flags.keys().any(|f| f.contains("race")),
            "{name}"
        );
        assert!(rr.counts.complete > 0, "{name}");
        n += 1;
    }
    assert_eq!(n, 8, "Table 4 has eight programs");
}

#[test]
fn scoped_race_corpus_is_repaired_to_race_free() {
    let csv = std::fs::read_to_string(root().join("tests/corpus/scoped-races/expected-races.csv"))
        .unwrap();
    let mut n = 0;
    for l in csv
        .lines()
        .filter(|l| !l.starts_with("//") && !l.trim().is_empty())
    {
        let (file, ok) = l.split_once(',').unwrap();
        let r = repair(&root().join(file));
        if ok.trim() == "1" {
            assert!(
                r.rounds.is_empty() && r.race_free,
                "{file}: race-free test changed"
            );
        } else {
            assert!(r.race_free, "{file}: {:?}", r.refused);
            assert!(!r.rounds.is_empty() && r.races() > 0, "{file}");
        }
        n += 1;
    }
    assert_eq!(n, 9);
}

#[test]
fn rewriter_refuses_lines_without_the_access() {
    assert!(rewrite_line(
        "  __syncthreads();",
        Lang::Cuda,
        Fix::Atomic(weft_ir::Scope::Gpu)
    )
    .is_err());
    assert!(rewrite_line(
        "  int r = a + b;",
        Lang::OpenCl,
        Fix::Atomic(weft_ir::Scope::Gpu)
    )
    .is_err());
    assert!(rewrite_line(
        "  atomicAdd(&x, 1);",
        Lang::Cuda,
        Fix::Widen(weft_ir::Scope::Gpu)
    )
    .is_err());
}
