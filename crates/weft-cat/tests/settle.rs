//! `Model::settle` (judging every completion of a partial candidate at once) on small
//! hand-built executions whose completions are known: it must agree with evaluating each
//! completion, and answer `None` where the completions disagree.

use weft_cat::{Event, ExecutionBase, Model};

/// x (location 0) and z (location 1) start at 0 (events 0 and 1). Thread 0 writes z
/// (2) then x (3); thread 1 reads x (4): the read still to choose, from 0 or 3.
/// With `reader_of_z`, thread 2 reads z (5) from its initial write (already chosen).
/// Returns the base (no rf), the rf edges fixed so far, and the number of events.
fn base(reader_of_z: bool) -> (ExecutionBase, Vec<(usize, usize)>) {
    let mut x = ExecutionBase::new();
    x.add_event(Event::init_write(0));
    x.add_event(Event::init_write(1));
    x.add_event(Event::write(0, 1));
    x.add_event(Event::write(0, 0));
    x.add_event(Event::read(1, 0));
    let mut rf = Vec::new();
    if reader_of_z {
        x.add_event(Event::read(2, 1));
        rf.push((1, 5));
    }
    x.add_edge("po", 2, 3);
    x.add_edge("co", 0, 3);
    x.add_edge("co", 1, 2);
    x.declare_relation("rf");
    (x, rf)
}

fn with_rf(x: &ExecutionBase, rf: &[(usize, usize)]) -> ExecutionBase {
    let mut x = x.clone();
    for &(w, r) in rf {
        x.add_edge("rf", w, r);
    }
    x
}

const MODEL: &str = "let com = rf | co | fr\n\
    acyclic (po & loc) | com as coherence\n\
    let hb = (po | rf)+\n\
    let race = (((W \\ IW) * R) & loc & ext) \\ hb\n\
    flag ~empty race as race\n";

/// The lower bound, the plain upper bound (the read reads from both writes) and the split
/// upper bound (a copy of the read, event 6 or 5, reads from the second write).
fn bounds(reader_of_z: bool) -> (ExecutionBase, ExecutionBase, ExecutionBase) {
    let (x, rf) = base(reader_of_z);
    let lower = with_rf(&x, &rf);
    let mut up_rf = rf.clone();
    up_rf.extend([(0, 4), (3, 4)]);
    let upper = with_rf(&x, &up_rf);
    let mut split = x.clone();
    let copy = split.add_event(Event::read(1, 0));
    let mut sp_rf = rf;
    sp_rf.extend([(0, 4), (3, copy)]);
    (lower, upper, with_rf(&split, &sp_rf))
}

fn completions(reader_of_z: bool) -> Vec<ExecutionBase> {
    let (x, rf) = base(reader_of_z);
    [0, 3]
        .iter()
        .map(|&w| {
            let mut r = rf.clone();
            r.push((w, 4));
            with_rf(&x, &r)
        })
        .collect()
}

#[test]
fn settles_when_every_completion_has_one_verdict() {
    let m = Model::parse("t.cat", MODEL).unwrap();
    let opts = weft_cat::EvalOptions::default();
    // Each completion is allowed and raises `race` (thread 2's read of z is ordered
    // after no write of z), whatever thread 1 reads.
    for c in completions(true) {
        let ev = m.evaluate(&c, &opts).unwrap();
        assert!(ev.allowed());
        assert_eq!(ev.flags(), vec!["race".to_string()]);
    }
    let (lower, upper, split) = bounds(true);
    let cache = weft_cat::EvalCache::new();
    let ev = m
        .settle(&lower, &upper, &split, &opts, &cache)
        .unwrap()
        .expect("every completion is allowed and raises `race`");
    assert!(ev.allowed());
    assert_eq!(ev.flags(), vec!["race".to_string()]);
    // The plain union of the choices has the cycle w -rf-> r -fr-> w that no completion
    // has: it cannot stand in for the split upper bound.
    assert!(m
        .settle(&lower, &upper, &upper, &opts, &cache)
        .unwrap()
        .is_none());
}

#[test]
fn does_not_settle_when_completions_differ() {
    let m = Model::parse("t.cat", MODEL).unwrap();
    let opts = weft_cat::EvalOptions::default();
    // Without thread 2: the race on x is there when thread 1 reads the initial value,
    // gone when it reads thread 0's write.
    let flags: Vec<Vec<String>> = completions(false)
        .iter()
        .map(|c| m.evaluate(c, &opts).unwrap().flags())
        .collect();
    assert_eq!(flags, vec![vec!["race".to_string()], vec![]]);
    let (lower, upper, split) = bounds(false);
    let cache = weft_cat::EvalCache::new();
    assert!(m
        .settle(&lower, &upper, &split, &opts, &cache)
        .unwrap()
        .is_none());
}

#[test]
fn does_not_settle_when_a_completion_is_forbidden() {
    // Thread 1 reading the initial x after thread 0's write of x in the same thread
    // would be forbidden: put the read in thread 0.
    let src = "let com = rf | co | fr\nacyclic (po & loc) | com as coherence\n";
    let m = Model::parse("t.cat", src).unwrap();
    let opts = weft_cat::EvalOptions::default();
    let mut x = ExecutionBase::new();
    x.add_event(Event::init_write(0));
    x.add_event(Event::write(0, 0));
    x.add_event(Event::read(0, 0));
    x.add_edge("po", 1, 2);
    x.add_edge("co", 0, 1);
    x.declare_relation("rf");
    let lower = with_rf(&x, &[]);
    let upper = with_rf(&x, &[(0, 2), (1, 2)]);
    let mut s = x.clone();
    let copy = s.add_event(Event::read(0, 0));
    s.add_edge("po", 1, copy);
    let split = with_rf(&s, &[(0, 2), (1, copy)]);
    assert!(!m
        .evaluate(&with_rf(&x, &[(0, 2)]), &opts)
        .unwrap()
        .allowed());
    let cache = weft_cat::EvalCache::new();
    assert!(m
        .settle(&lower, &upper, &split, &opts, &cache)
        .unwrap()
        .is_none());
}
