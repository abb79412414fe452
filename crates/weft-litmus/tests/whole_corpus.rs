//! The whole corpus — Dat3M's 549 GPU litmus tests in `../shared/corpus/dat3m/litmus` and
//! our own `tests/corpus` — parses; printing each test in its own format and re-parsing
//! yields the same IR; and every conversion to another format that a printer accepts yields
//! text that parses and keeps each thread's accesses.

use std::path::{Path, PathBuf};

use weft_ir::{code::walk, Program, StmtKind};
use weft_litmus::{parse, print, print_native, Format};

fn litmus_files(root: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(|e| e.ok())
        .map(|e| e.into_path())
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.ends_with(".litmus") || (n.ends_with(".json") && !n.ends_with(".meta.json"))
        })
        .collect();
    v.sort();
    v
}

fn accesses(p: &Program) -> Vec<usize> {
    p.threads
        .iter()
        .map(|t| {
            let mut n = 0;
            walk(&t.code, &mut |s| {
                if matches!(
                    s.kind,
                    StmtKind::Load(_) | StmtKind::Store(_) | StmtKind::Rmw(_)
                ) {
                    n += 1;
                }
            });
            n
        })
        .collect()
}

#[test]
fn every_test_round_trips_and_converts() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = manifest.join("../../../shared/corpus/dat3m/litmus");
    let own = manifest.join("../../tests/corpus");
    let mut files = litmus_files(&own);
    let own_count = files.len();
    if shared.exists() {
        let s = litmus_files(&shared);
        assert_eq!(s.len(), 549, "the shared Dat3M corpus holds 549 tests");
        files.extend(s);
    } else {
        eprintln!(
            "note: {} not found; checking our own corpus only",
            shared.display()
        );
    }
    assert!(own_count >= 30, "tests/corpus holds {own_count} tests");
    let (mut failures, mut conversions) = (Vec::new(), 0usize);
    for f in &files {
        let name = f.display().to_string();
        let src = match std::fs::read_to_string(f) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let p = match parse(&src) {
            Ok(p) => p,
            Err(e) => {
                failures.push(e.render(&name));
                continue;
            }
        };
        match print_native(&p) {
            Ok(text) => match parse(&text) {
                Ok(q) if q == p => {}
                Ok(_) => failures.push(format!("{name}: re-parsed IR differs\n{text}")),
                Err(e) => {
                    failures.push(format!("{name}: printed text does not parse: {e}\n{text}"))
                }
            },
            Err(e) => failures.push(format!("{name}: cannot print natively: {e}")),
        }
        for format in Format::ALL {
            if format == Format::native(p.arch) {
                continue;
            }
            if let Ok(text) = print(&p, format) {
                conversions += 1;
                match parse(&text) {
                    Ok(q) if accesses(&q) == accesses(&p) => {}
                    Ok(_) => failures.push(format!(
                        "{name} --to {}: accesses changed\n{text}",
                        format.name()
                    )),
                    Err(e) => failures.push(format!(
                        "{name} --to {}: output does not parse: {e}\n{text}",
                        format.name()
                    )),
                }
            }
        }
    }
    eprintln!("{} tests, {} conversions checked", files.len(), conversions);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
