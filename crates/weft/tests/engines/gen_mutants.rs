//! MC-Mutants (paper 001 §3.1; shared/notes/gpuharbor-facts.md): GPUHarbor's conformance
//! tests yield exactly its 32 tuning mutants — 18 weakening sw, 6 weakening po-loc,
//! 8 reversing po-loc — each paired with its conformance test, each target allowed by the
//! `webgpu` model, weak targets unreachable under SC and interleaving targets reachable.
//! The coherence conformance tests built by aliasing are forbidden by `webgpu`, and the
//! aliased MP is the corpus's MP-CO (paper 001 Fig. 1b).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use weft_gen::mutants::{
    coherency_test, gpuharbor_mutants, move_thread, weaken_scope, TargetKind, COHERENCY,
};
use weft_ir::{Program, Prop, Term};
use weft_litmus::classify::{classify, Class};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/gpuharbor")
}

fn load(name: &str) -> Option<Program> {
    let src = std::fs::read_to_string(corpus().join(format!("{name}.json"))).ok()?;
    Some(weft_litmus::parse(&src).unwrap())
}

fn allowed(p: &Program) -> bool {
    let m = weft_sim::models::load("webgpu").unwrap();
    weft_sim::simulate(p, &m, &weft_sim::SimOptions::default())
        .unwrap()
        .validated
}

fn sc_class(p: &Program) -> Class {
    let c = classify(p).unwrap();
    c.class_of_prop(&p.condition.as_ref().unwrap().prop)
}

/// The equalities of a conjunction, as (term, value).
fn equalities(p: &Prop, out: &mut Vec<(Term, i64)>) {
    match p {
        Prop::And(a, b) => {
            equalities(a, out);
            equalities(b, out);
        }
        Prop::Cmp(t, weft_ir::CmpOp::Eq, Term::Int(v)) => out.push((t.clone(), *v)),
        other => panic!("not a conjunction of equalities: {other:?}"),
    }
}

#[test]
fn aliased_mp_is_the_corpus_mp_co() {
    let mine = coherency_test(&load("MP").unwrap(), "MP-CO").unwrap();
    let theirs = load("MP-CO").unwrap();
    let (a, b) = (
        weft_gen::compare::signature(&mine),
        weft_gen::compare::signature(&theirs),
    );
    let threads = |s: &str| s.split("exists").next().unwrap().to_string();
    assert_eq!(threads(&a), threads(&b));
    // The target of the aliased test is one of the corpus test's weak outcomes.
    let mut eqs = Vec::new();
    equalities(&mine.condition.as_ref().unwrap().prop, &mut eqs);
    let sat = theirs
        .condition
        .as_ref()
        .unwrap()
        .prop
        .eval(&mut |t| match t {
            Term::Int(v) => *v,
            _ => eqs
                .iter()
                .find(|(x, _)| x == t)
                .map(|(_, v)| *v)
                .unwrap_or(-1),
        });
    assert!(sat, "{eqs:?} vs {:?}", theirs.condition);
}

#[test]
fn coherency_conformance_tests_are_forbidden() {
    for (plain, name, _) in COHERENCY {
        let p = coherency_test(&load(plain).unwrap(), name).unwrap();
        assert_eq!(p.locations.len(), 1, "{name}");
        assert_eq!(sc_class(&p), Class::Weak, "{name}");
        assert!(!allowed(&p), "{name} must be forbidden by webgpu");
    }
}

#[test]
fn gpuharbor_32_mutants() {
    let ms = gpuharbor_mutants(&load).unwrap();
    assert_eq!(ms.len(), 32);
    let count = |op: weft_gen::mutants::Operator| ms.iter().filter(|m| m.operator == op).count();
    use weft_gen::mutants::Operator::*;
    assert_eq!(count(WeakenSw), 18);
    assert_eq!(count(WeakenPoLoc), 6);
    assert_eq!(count(ReversePoLoc), 8);
    let names: BTreeSet<&str> = ms.iter().map(|m| m.gpuharbor_name.as_str()).collect();
    assert_eq!(names.len(), 32);
    for n in [
        "messagePassing",
        "messagePassingBarrier1",
        "storeBufferRMWBarrier2",
        "twoPlusTwoWriteCoherencyTuning",
        "rrMutant",
        "wwRMWMutant",
    ] {
        assert!(names.contains(n), "{n}");
    }
    for m in &ms {
        assert!(
            allowed(&m.program),
            "{}: target must be allowed by webgpu",
            m.name
        );
        let class = sc_class(&m.program);
        match m.target {
            TargetKind::Weak => assert_eq!(class, Class::Weak, "{}", m.name),
            TargetKind::Interleaving => assert_ne!(class, Class::Weak, "{}", m.name),
        }
        // Its conformance test forbids the same target.
        let conf = load(&m.paired_with).or_else(|| {
            COHERENCY
                .iter()
                .find(|(_, n, _)| *n == m.paired_with)
                .map(|(p, n, _)| coherency_test(&load(p).unwrap(), n).unwrap())
        });
        let conf = conf.unwrap_or_else(|| panic!("{}: no {}", m.name, m.paired_with));
        assert!(
            !allowed(&conf),
            "{}: {} must be forbidden",
            m.name,
            m.paired_with
        );
    }
}

#[test]
fn extension_operators() {
    // Moving a thread of MP-barrier into another workgroup leaves the barrier nothing to
    // synchronise within a workgroup: still forbidden through its acquire/release
    // semantics; narrowing the scope of MP's atomics keeps the weak outcome allowed.
    let mp = load("MP").unwrap();
    let narrowed = weaken_scope(&mp).unwrap();
    assert!(allowed(&narrowed));
    let moved = move_thread(&load("MP-barrier").unwrap(), 1).unwrap();
    assert_ne!(
        moved.threads[1].placement,
        load("MP-barrier").unwrap().threads[1].placement
    );
    assert!(weaken_scope(&narrowed).is_err());
}

#[test]
fn stored_mutants_carry_their_webgpu_verdicts() {
    // tests/corpus/gpuharbor-mutants holds the 6 coherence conformance tests and the
    // 32 mutants (written by `weft gen --mutants tests/corpus/gpuharbor -o ...`); each
    // meta file's verdict must agree with the model: conformance forbidden, mutants allowed.
    let dir = corpus().join("../gpuharbor-mutants");
    let (mut conf, mut mutants) = (0, 0);
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let n = p.file_name().unwrap().to_string_lossy().to_string();
        if !n.ends_with(".json") || n.ends_with(".meta.json") {
            continue;
        }
        let prog = weft_litmus::parse(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p.with_extension("meta.json")).unwrap())
                .unwrap();
        let v = if allowed(&prog) {
            "allowed"
        } else {
            "forbidden"
        };
        assert_eq!(meta["webgpu_model"], v, "{n}");
        match meta["role"].as_str().unwrap() {
            "conformance" => {
                conf += 1;
                assert_eq!(v, "forbidden", "{n}");
            }
            _ => {
                mutants += 1;
                assert_eq!(v, "allowed", "{n}");
                assert!(meta["paired_with"].is_string(), "{n}");
            }
        }
    }
    assert_eq!((conf, mutants), (6, 32));
}
