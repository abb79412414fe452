//! Models evaluated on hand-built candidate executions of classic litmus tests, against
//! verdicts written down here (allowed / forbidden, and by which check).
//!
//! Expected verdicts (weak outcome of each test):
//!
//! | test                          | SC     | TSO    | PTX RMO per scope (paper 000 §5) |
//! |-------------------------------|--------|--------|----------------------------------|
//! | SB                            | forbid | allow  | allow                            |
//! | SB + fences                   | forbid | forbid |                                  |
//! | MP                            | forbid | forbid | allow                            |
//! | MP + membar.cta/membar.gl, same CTA      |  |   | forbid (cta-constraint, Fig. 14) |
//! | MP + membar.cta/membar.gl, distinct CTAs |  |   | allow                            |
//! | MP + membar.gl both, distinct CTAs       |  |   | forbid (gl-constraint)           |
//! | coRR                          | forbid | forbid (uniproc, tso) | allow (load-load hazard) |
//! | LB                            | forbid | forbid | allow                            |
//! | LB + data dependencies        | forbid | forbid | forbid (no-thin-air)             |

mod common;

use common::{eval, model, model_text, thread_events, Builder};
use weft_cat::{CheckMode, EvalOptions, ExecutionBase, Witness};

/// SB: x=1; r0=y || y=1; r1=x — the weak outcome r0=0, r1=0 (both reads from the
/// initial writes). Returns the execution and its four thread events (wx, ry, wy, rx).
fn sb(fences: bool, w: &[&str], r: &[&str]) -> (ExecutionBase, [usize; 4]) {
    let mut b = Builder::new();
    let (ix, iy) = (b.init("x"), b.init("y"));
    let wx = b.w(0, "x", w);
    if fences {
        b.f(0, &[]);
    }
    let ry = b.r(0, "y", r);
    let wy = b.w(1, "y", w);
    if fences {
        b.f(1, &[]);
    }
    let rx = b.r(1, "x", r);
    b.rf(iy, ry);
    b.rf(ix, rx);
    b.co("x", &[wx]);
    b.co("y", &[wy]);
    (b.finish(), [wx, ry, wy, rx])
}

/// SB with r0 = 1 (T0 reads T1's write), r1 = 0: allowed by every model.
fn sb_seq() -> ExecutionBase {
    let mut b = Builder::new();
    let ix = b.init("x");
    b.init("y");
    let wx = b.w(0, "x", &[]);
    let ry = b.r(0, "y", &[]);
    let wy = b.w(1, "y", &[]);
    let rx = b.r(1, "x", &[]);
    b.rf(wy, ry);
    b.rf(ix, rx);
    b.co("x", &[wx]);
    b.co("y", &[wy]);
    b.finish()
}

struct Mp {
    x: ExecutionBase,
}

/// MP: x=1; y=1 || r0=y; r1=x — weak outcome r0=1, r1=0.
/// `wtags`/`rtags`: tags of (data, flag) accesses on each side. `membars`: the PTX
/// fences between the writes and between the reads (`None`: no fence). `same_cta`:
/// whether both threads are in one CTA (both are always on one GPU).
fn mp(wtags: [&[&str]; 2], rtags: [&[&str]; 2], membars: [Option<&str>; 2], same_cta: bool) -> Mp {
    let mut b = Builder::new();
    let ix = b.init("x");
    b.init("y");
    let wx = b.w(0, "x", wtags[0]);
    let f0 = membars[0].map(|_| b.f(0, &[]));
    let wy = b.w(0, "y", wtags[1]);
    let ry = b.r(1, "y", rtags[1]);
    let f1 = membars[1].map(|_| b.f(1, &[]));
    let rx = b.r(1, "x", rtags[0]);
    b.rf(wy, ry);
    b.rf(ix, rx);
    b.co("x", &[wx]);
    b.co("y", &[wy]);
    for name in ["membar.cta", "membar.gl", "membar.sys"] {
        b.x.declare_relation(name);
    }
    if let (Some(name), Some(_)) = (membars[0], f0) {
        b.edge(&format!("membar.{name}"), wx, wy);
    }
    if let (Some(name), Some(_)) = (membars[1], f1) {
        b.edge(&format!("membar.{name}"), ry, rx);
    }
    let mut x = b.finish();
    add_scopes(&mut x, if same_cta { &[0, 0] } else { &[0, 1] });
    Mp { x }
}

/// Scope relations of paper 000 §5.1.1: `cta` (same CTA), `gl` (same GPU: all threads
/// here) and `sys` (the universal relation). `cta_of[t]` is thread t's CTA.
fn add_scopes(x: &mut ExecutionBase, cta_of: &[usize]) {
    let threads: Vec<Vec<usize>> = (0..cta_of.len()).map(|t| thread_events(x, t)).collect();
    for cta in 0..cta_of.len() {
        let members: Vec<usize> = (0..cta_of.len())
            .filter(|&t| cta_of[t] == cta)
            .flat_map(|t| threads[t].clone())
            .collect();
        x.add_class("cta", &members);
    }
    let all_threads: Vec<usize> = threads.concat();
    x.add_class("gl", &all_threads);
    let all: Vec<usize> = (0..x.events.len()).collect();
    x.add_class("sys", &all);
}

/// coRR: x=1 || r0=x; r1=x — outcome r0=1, r1=0.
fn corr(rtag: &[&str]) -> ExecutionBase {
    let mut b = Builder::new();
    let ix = b.init("x");
    let w = b.w(0, "x", rtag);
    let r0 = b.r(1, "x", rtag);
    let r1 = b.r(1, "x", rtag);
    b.rf(w, r0);
    b.rf(ix, r1);
    b.co("x", &[w]);
    let mut x = b.finish();
    add_scopes(&mut x, &[0, 0]);
    for name in ["membar.cta", "membar.gl", "membar.sys"] {
        x.declare_relation(name);
    }
    x
}

/// LB: r0=x; y=1 || r1=y; x=1 — outcome r0=1, r1=1; optionally with data dependencies
/// from each read to the following write.
fn lb(datas: bool, tags: &[&str]) -> ExecutionBase {
    let mut b = Builder::new();
    b.init("x");
    b.init("y");
    let rx = b.r(0, "x", tags);
    let wy = b.w(0, "y", tags);
    let ry = b.r(1, "y", tags);
    let wx = b.w(1, "x", tags);
    b.rf(wx, rx);
    b.rf(wy, ry);
    b.co("x", &[wx]);
    b.co("y", &[wy]);
    if datas {
        b.edge("data", rx, wy);
        b.edge("data", ry, wx);
    }
    let mut x = b.finish();
    add_scopes(&mut x, &[0, 0]);
    for name in ["membar.cta", "membar.gl", "membar.sys"] {
        x.declare_relation(name);
    }
    x
}

fn failed_names(e: &weft_cat::Evaluation) -> Vec<String> {
    e.explanation()
        .map(|r| r.failed().map(|c| c.label()).collect())
        .unwrap_or_default()
}

#[test]
fn sb_weak_violates_sc_but_satisfies_tso() {
    let (x, [wx, ry, wy, rx]) = sb(false, &[], &[]);
    let sc = eval(&model("sc.cat"), &x);
    assert!(!sc.allowed());
    assert_eq!(failed_names(&sc), vec!["sc"]);
    // The witness is the cycle wx -po-> ry -fr-> wy -po-> rx -fr-> wx.
    let check = &sc.runs[0].checks[0];
    let Some(Witness::Cycle(cycle)) = &check.witness else {
        panic!("no cycle witness: {check:?}")
    };
    let mut sorted = cycle.clone();
    sorted.sort();
    assert_eq!(sorted, vec![wx, ry, wy, rx]);
    let start = cycle.iter().position(|&e| e == wx).unwrap();
    let rotated: Vec<usize> = cycle[start..]
        .iter()
        .chain(&cycle[..start])
        .copied()
        .collect();
    assert_eq!(rotated, vec![wx, ry, wy, rx]);

    let tso = eval(&model("tso.cat"), &x);
    assert!(tso.allowed(), "TSO allows SB: {:?}", failed_names(&tso));
    let mut x2 = x.clone();
    add_scopes(&mut x2, &[0, 0]);
    for name in ["membar.cta", "membar.gl", "membar.sys"] {
        x2.declare_relation(name);
    }
    assert!(eval(&model("ptx-rmo.cat"), &x2).allowed());
}

#[test]
fn sb_with_fences_is_forbidden_by_tso() {
    let (x, _) = sb(true, &[], &[]);
    let tso = eval(&model("tso.cat"), &x);
    assert!(!tso.allowed());
    assert_eq!(failed_names(&tso), vec!["tso"]);
    assert!(!eval(&model("sc.cat"), &x).allowed());
}

#[test]
fn sequential_outcome_is_allowed_everywhere() {
    let x = sb_seq();
    assert!(eval(&model("sc.cat"), &x).allowed());
    assert!(eval(&model("tso.cat"), &x).allowed());
    assert!(eval(&model("rc11-lite.cat"), &x).allowed());
}

#[test]
fn mp_weak_under_sc_tso_and_plain_rmo() {
    let m = mp([&[], &[]], [&[], &[]], [None, None], true);
    assert!(!eval(&model("sc.cat"), &m.x).allowed());
    let tso = eval(&model("tso.cat"), &m.x);
    assert_eq!(failed_names(&tso), vec!["tso"]);
    // RMO reorders unfenced accesses to different locations.
    assert!(eval(&model("ptx-rmo.cat"), &m.x).allowed());
}

#[test]
fn fig14_mp_with_cta_and_gl_fences_in_one_cta_is_forbidden() {
    // Paper 000 §5.3: the cycle membar.cta; rfe; membar.gl; fr lies in rmo-cta.
    let m = mp([&[], &[]], [&[], &[]], [Some("cta"), Some("gl")], true);
    let e = eval(&model("ptx-rmo.cat"), &m.x);
    assert!(!e.allowed());
    assert_eq!(failed_names(&e), vec!["cta-constraint"]);
}

#[test]
fn mp_with_cta_fence_across_ctas_is_allowed() {
    // rfe between CTAs is not in `cta`, and membar.cta is not a gl fence.
    let m = mp([&[], &[]], [&[], &[]], [Some("cta"), Some("gl")], false);
    assert!(eval(&model("ptx-rmo.cat"), &m.x).allowed());
    // With membar.gl on both sides the cycle is in rmo-gl.
    let m = mp([&[], &[]], [&[], &[]], [Some("gl"), Some("gl")], false);
    let e = eval(&model("ptx-rmo.cat"), &m.x);
    assert_eq!(failed_names(&e), vec!["gl-constraint"]);
    // membar.sys is a gl fence too (gl-fence = membar.gl | sys-fence).
    let m = mp([&[], &[]], [&[], &[]], [Some("sys"), Some("gl")], false);
    assert_eq!(
        failed_names(&eval(&model("ptx-rmo.cat"), &m.x)),
        vec!["gl-constraint"]
    );
}

#[test]
fn corr_is_allowed_by_rmo_only() {
    let x = corr(&[]);
    assert_eq!(failed_names(&eval(&model("sc.cat"), &x)), vec!["sc"]);
    // TSO: uniproc (po-loc | com) and the global order (rfe; R->R ppo; fr) both fail.
    assert_eq!(
        failed_names(&eval(&model("tso.cat"), &x)),
        vec!["uniproc", "tso"]
    );
    assert!(eval(&model("ptx-rmo.cat"), &x).allowed());
    let x = corr(&["RLX"]);
    assert_eq!(
        failed_names(&eval(&model("rc11-lite.cat"), &x)),
        vec!["coherence"]
    );
}

#[test]
fn lb_and_thin_air() {
    let x = lb(false, &[]);
    assert!(!eval(&model("sc.cat"), &x).allowed());
    assert!(!eval(&model("tso.cat"), &x).allowed());
    assert!(eval(&model("ptx-rmo.cat"), &x).allowed());
    let x = lb(true, &[]);
    let e = eval(&model("ptx-rmo.cat"), &x);
    assert!(!e.allowed());
    assert!(failed_names(&e).contains(&"no-thin-air".to_string()));
    let x = lb(false, &["RLX"]);
    assert_eq!(
        failed_names(&eval(&model("rc11-lite.cat"), &x)),
        vec!["no-thin-air"]
    );
}

#[test]
fn rc11_release_acquire_message_passing() {
    let m = mp(
        [&["RLX"], &["REL"]],
        [&["RLX"], &["ACQ"]],
        [None, None],
        true,
    );
    let e = eval(&model("rc11-lite.cat"), &m.x);
    assert_eq!(failed_names(&e), vec!["coherence"]);
    let m = mp(
        [&["RLX"], &["RLX"]],
        [&["RLX"], &["RLX"]],
        [None, None],
        true,
    );
    let e = eval(&model("rc11-lite.cat"), &m.x);
    assert!(e.allowed());
    assert!(e.flags().is_empty());
    // Non-atomic data with a relaxed flag: allowed, and racy.
    let m = mp([&["NA"], &["RLX"]], [&["NA"], &["RLX"]], [None, None], true);
    let e = eval(&model("rc11-lite.cat"), &m.x);
    assert!(e.allowed());
    assert_eq!(e.flags(), vec!["data-race".to_string()]);
    let flag = e.runs[0].checks.iter().find(|c| c.is_flag()).unwrap();
    assert_eq!(flag.mode, CheckMode::Flag);
    assert!(matches!(flag.witness, Some(Witness::Pair(..))));
}

#[test]
fn rc11_sc_accesses_forbid_sb() {
    let (x, _) = sb(false, &["SC"], &["SC"]);
    assert_eq!(failed_names(&eval(&model("rc11-lite.cat"), &x)), vec!["sc"]);
    let (x, _) = sb(false, &["RLX"], &["RLX"]);
    assert!(eval(&model("rc11-lite.cat"), &x).allowed());
}

/// `incl` of paper 004 §3: atomic events whose scopes include each other's threads
/// (and, when both access memory, the same location). Scopes are event tags `cta`/`gpu`.
fn add_incl(x: &mut ExecutionBase, cta_of: &[usize]) {
    let n = x.events.len();
    for a in 0..n {
        for b in 0..n {
            let (ea, eb) = (&x.events[a], &x.events[b]);
            let atomic = |e: &weft_cat::Event| !e.tags.iter().any(|t| t == "NA");
            let scope_includes =
                |e: &weft_cat::Event, other: &weft_cat::Event| match (e.thread, other.thread) {
                    (Some(t), Some(u)) => {
                        e.tags.iter().any(|s| s == "gpu") || cta_of[t] == cta_of[u]
                    }
                    _ => true,
                };
            let same_loc =
                ea.location.is_none() || eb.location.is_none() || ea.location == eb.location;
            if atomic(ea)
                && atomic(eb)
                && scope_includes(ea, eb)
                && scope_includes(eb, ea)
                && same_loc
            {
                x.add_edge("incl", a, b);
            }
        }
    }
}

fn scoped_mp(scope: &str, data: &str, same_cta: bool) -> ExecutionBase {
    let mut m = mp(
        [&[data, scope], &["REL", scope]],
        [&[data, scope], &["ACQ", scope]],
        [None, None],
        same_cta,
    );
    add_incl(&mut m.x, if same_cta { &[0, 0] } else { &[0, 1] });
    m.x
}

#[test]
fn scoped_rc11_synchronises_only_within_scope() {
    let model = model("scoped-rc11.cat");
    // Same CTA, cta scope: release/acquire synchronise, the weak outcome is forbidden.
    let e = eval(&model, &scoped_mp("cta", "RLX", true));
    assert_eq!(failed_names(&e), vec!["coherence"]);
    // Different CTAs, cta scope: no synchronisation; allowed, with a heterogeneous race.
    let e = eval(&model, &scoped_mp("cta", "RLX", false));
    assert!(e.allowed());
    assert_eq!(e.flags(), vec!["heterogeneous-race".to_string()]);
    assert!(!e.undefined());
    // Different CTAs, gpu scope: synchronise again.
    let e = eval(&model, &scoped_mp("gpu", "RLX", false));
    assert_eq!(failed_names(&e), vec!["coherence"]);
    // Non-atomic data across CTAs with cta-scoped flag: allowed but undefined (data race).
    let e = eval(&model, &scoped_mp("cta", "NA", false));
    assert!(e.allowed());
    assert!(e.undefined());
    let run = e.first_allowed().unwrap();
    let u = run
        .checks
        .iter()
        .find(|c| c.mode == CheckMode::UndefinedUnless)
        .unwrap();
    assert_eq!(u.name.as_deref(), Some("no-data-race"));
    assert!(!u.holds && u.makes_undefined());
}

#[test]
fn with_from_enumerates_total_orders() {
    let lamport = model("sc-total-order.cat");
    let (x, _) = sb(false, &[], &[]);
    let e = eval(&lamport, &x);
    // 4 events, two per thread, po kept: C(4,2) = 6 interleavings, none explains r0=r1=0.
    assert_eq!(e.runs.len(), 6);
    assert!(!e.allowed());
    for (i, run) in e.runs.iter().enumerate() {
        assert_eq!(run.choices.len(), 1);
        assert_eq!(
            (
                run.choices[0].name.as_str(),
                run.choices[0].index,
                run.choices[0].count
            ),
            ("S", i, 6)
        );
    }
    let e = eval(&lamport, &sb_seq());
    assert_eq!(e.runs.len(), 6);
    assert!(e.allowed());
    assert_eq!(e.runs.iter().filter(|r| r.allowed()).count(), 1);
}

#[test]
fn total_order_sc_agrees_with_acyclicity_sc() {
    let axiomatic = model("sc.cat");
    let operational = model("sc-total-order.cat");
    for x in [
        sb(false, &[], &[]).0,
        sb_seq(),
        mp([&[], &[]], [&[], &[]], [None, None], true).x,
        corr(&[]),
        lb(false, &[]),
    ] {
        assert_eq!(
            eval(&axiomatic, &x).allowed(),
            eval(&operational, &x).allowed()
        );
    }
}

#[test]
fn stop_at_first_failure_keeps_only_the_first_failure() {
    let x = lb(true, &[]);
    let m = model("ptx-rmo.cat");
    let full = eval(&m, &x);
    assert!(full.runs[0].failed().count() >= 2);
    let fast = m.evaluate(&x, &EvalOptions::fast()).unwrap();
    assert_eq!(fast.runs[0].failed().count(), 1);
    assert!(fast.runs[0].stopped_early);
    let mut opts = EvalOptions::default();
    opts.skip_checks.insert("no-thin-air".into());
    opts.skip_checks.insert("cta-constraint".into());
    opts.skip_checks.insert("gl-constraint".into());
    opts.skip_checks.insert("sys-constraint".into());
    assert!(m.evaluate(&x, &opts).unwrap().allowed());
}

#[test]
fn inline_models_with_includes_and_variants() {
    let m = model_text(
        "\"uses includes\"\ninclude \"rc11-common.cat\"\ninclude \"stdlib.cat\"\nlet hb = (po | [Rel] ; rf ; [Acq])+\nif variant \"strict\" irreflexive hb ; fr as strict-coherence end",
    );
    let x = mp(
        [&["RLX"], &["REL"]],
        [&["RLX"], &["ACQ"]],
        [None, None],
        true,
    )
    .x;
    assert!(eval(&m, &x).allowed());
    let mut opts = EvalOptions::default();
    opts.variants.insert("strict".into());
    let e = m.evaluate(&x, &opts).unwrap();
    assert_eq!(failed_names(&e), vec!["strict-coherence"]);
}
