//! The per-test note of models without No-Thin-Air (docs/mc.md, "Limits"): the dependency
//! edges on a potential (po ∪ rf) cycle, whose executions `weft mc` does not build.
//! - `tests/mc/thinair/*.litmus` against `expected.tsv` (edges derived by hand from each
//!   test's design; a test with no row has none);
//! - every row of `tests/mc/dat3m-known.tsv` (Dat3M's verdicts, the anchor, differ from
//!   `weft mc`'s there because executions with such a cycle are missing) gets the note under
//!   its model, and exits 3 (undecided) unless an error was found (1);
//! - models with No-Thin-Air (`rc11`) never get it; plain load buffering exits 0.

use std::path::{Path, PathBuf};

use weft_ir::exit::ExitCode;
use weft_mc::{check_litmus, McOptions};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn parse(path: &Path) -> weft_ir::Program {
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    weft_litmus::parse(&src).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

#[test]
fn dependency_cycles_match_the_hand_derived_edges() {
    let dir = root().join("tests/mc/thinair");
    let expected = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
        .collect();
    files.sort();
    assert!(files.len() >= 4);
    for f in &files {
        let name = f.file_name().unwrap().to_str().unwrap();
        let p = parse(f);
        let loc = |l: Option<u32>| l.map(|l| p.locations[l as usize].name.clone());
        for one_location in [false, true] {
            let mut want: Vec<String> = rows
                .iter()
                .filter(|r| r[0] == name && (r[1] == "1") <= one_location)
                .map(|r| r[2..].join(" "))
                .collect();
            want.sort();
            let mut got: Vec<String> = weft_mc::thinair::dep_cycles(&p, one_location)
                .iter()
                .map(|c| {
                    format!(
                        "{} {}:{} {} {}:{} {} {}",
                        c.thread,
                        c.read.0,
                        c.read.1,
                        loc(c.read_loc).unwrap_or_default(),
                        c.write.0,
                        c.write.1,
                        loc(c.write_loc).unwrap_or_default(),
                        serde_json::to_value(c.kind).unwrap().as_str().unwrap()
                    )
                })
                .collect();
            got.sort();
            let got: Vec<String> = got
                .into_iter()
                .map(|g| g.replace(" ctrl", " control"))
                .collect();
            assert_eq!(got, want, "{name} (one_location {one_location})");
        }
    }
}

#[test]
fn every_known_thin_air_row_gets_the_note_and_rc11_never_does() {
    let shared = root().join("../shared/corpus/dat3m");
    if !shared.is_dir() {
        eprintln!("skipped: {} not found", shared.display());
        return;
    }
    let known = std::fs::read_to_string(root().join("tests/mc/dat3m-known.tsv")).unwrap();
    let mut n = 0;
    for l in known
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut f = l.split('\t');
        let (model, path) = (f.next().unwrap(), f.next().unwrap());
        let p = parse(&shared.join(path));
        let cat = weft_exec::models::load(model).unwrap();
        let r = check_litmus(&p, model, &cat, &McOptions::default()).unwrap();
        assert!(!r.dep_cycles.is_empty(), "{model} {path}: no note");
        // Dat3M's verdict differs because executions are missing: no definitive "no
        // errors" (exit 3); an error that was found stays definitive (exit 1).
        let report = weft_mc::report::LitmusReport::new(&r, &p, model, false, None, None, 2);
        let want = if report.errors.is_empty() {
            ExitCode::Internal
        } else {
            ExitCode::Violation
        };
        assert_eq!(report.exit_code(), want, "{model} {path}");
        let rc11 = weft_exec::models::load("rc11").unwrap();
        let r = check_litmus(&p, "rc11", &rc11, &McOptions::default());
        if let Ok(r) = r {
            assert!(r.dep_cycles.is_empty(), "rc11 {path}: {:?}", r.dep_cycles);
        }
        n += 1;
    }
    assert_eq!(n, 8);
    // Plain load buffering (no dependency) is built: no note under vulkan either.
    let lb = parse(&root().join("tests/corpus/c/LB.litmus"));
    let cat = weft_exec::models::load("vulkan").unwrap();
    let r = check_litmus(&lb, "vulkan", &cat, &McOptions::default()).unwrap();
    assert!(r.dep_cycles.is_empty(), "{:?}", r.dep_cycles);
    let report = weft_mc::report::LitmusReport::new(&r, &lb, "vulkan", false, None, None, 2);
    assert_eq!(report.exit_code(), ExitCode::Ok);
}
