//! The cat language feature by feature: each model states facts as checks that must all
//! hold on a small execution (message passing, weak outcome), so a failing check names the
//! broken feature.

mod common;

use common::{model_text, Builder};
use weft_cat::{CatError, ErrorKind, EvalOptions, Evaluation, ExecutionBase, Model};

/// MP, weak outcome: x=1; y=1 || r0=y (=1); r1=x (=0).
/// Events: 0 = init x, 1 = init y, 2 = W x, 3 = W y, 4 = R y, 5 = R x.
fn mp() -> ExecutionBase {
    let mut b = Builder::new();
    let ix = b.init("x");
    b.init("y");
    let wx = b.w(0, "x", &["RLX"]);
    let wy = b.w(0, "y", &["REL"]);
    let ry = b.r(1, "y", &["ACQ"]);
    let rx = b.r(1, "x", &["RLX"]);
    b.rf(wy, ry);
    b.rf(ix, rx);
    b.co("x", &[wx]);
    b.co("y", &[wy]);
    b.edge("chain", 0, 1);
    b.edge("chain", 1, 2);
    b.edge("chain", 2, 3);
    b.edge("chain", 3, 4);
    b.finish()
}

fn run(src: &str) -> Result<Evaluation, CatError> {
    model_text(src).evaluate(&mp(), &EvalOptions::default())
}

/// Every check of every run holds (flags included: they are stated as facts here).
#[track_caller]
fn all_hold(src: &str) {
    let e = run(src).unwrap_or_else(|e| panic!("{}", e.render()));
    assert!(!e.runs.is_empty(), "no run");
    for r in &e.runs {
        for c in &r.checks {
            assert!(c.holds, "check `{}` fails: {:?}", c.label(), c.witness);
        }
    }
}

#[track_caller]
fn eval_error(src: &str) -> CatError {
    match Model::parse("m.cat", src) {
        Err(e) => panic!("parse error instead of evaluation error: {}", e.render()),
        Ok(m) => m
            .evaluate(&mp(), &EvalOptions::default())
            .expect_err("evaluation should fail"),
    }
}

#[test]
fn predefined_and_derived_names() {
    all_hold(
        r#""names"
        empty W \ (IW | (M \ IW \ R)) as writes
        empty M \ (R | W) as memory
        empty _ \ (M | F | B | emptyset) as universe
        empty IW \ W as iw-are-writes
        empty FW \ W as fw-are-writes
        empty FW & IW as fw-not-initial
        empty fr \ (rf^-1 ; co) as fr-def
        empty (rf^-1 ; co) \ fr as fr-def2
        empty po-loc \ (po & loc) as po-loc-def
        empty rfe \ (rf & ext) as rfe
        empty rfi | coi | fri as no-internal-communication
        empty (int & ext) as int-ext-disjoint
        empty ~(int | ext) as int-ext-cover
        empty id \ int as id-internal
        ~empty rfe as has-rfe
        empty 0 as zero
        empty {} as empty-set
        "#,
    );
}

#[test]
fn operators_on_sets_and_relations() {
    all_hold(
        r#"
        let wr = W * R
        empty ([W] ; po ; [R]) \ (po & wr) as ident-seq
        empty (po & wr) \ ([W] ; po ; [R]) as ident-seq2
        let star = (po)*
        empty id \ star as star-reflexive
        empty (po ; po) \ star as star-transitive
        empty (po? \ (po | id)) | ((po | id) \ po?) as opt
        empty (chain+ ; chain+) \ chain+ as plus-transitive
        ~empty chain+ \ chain as plus-grows
        empty (chain^-1 ; chain^-1) \ (chain ; chain)^-1 as inverse-seq
        empty ~~po \ po as double-complement
        empty (~IW & W) \ (W \ IW) as set-complement
        empty domain(rf) \ W as domain
        empty range(rf) \ R as range
        "#,
    );
    // `\` is left-associative: (po \ po) \ rf is empty, po \ (po \ rf) is not.
    all_hold("~empty po \\ (po \\ rf) | rf as right\nempty po \\ po \\ rf as left");
}

#[test]
fn cartesian_product_and_closure_star() {
    // `*` between operands is the product; before `;` or at the end it is the closure.
    all_hold(
        "let a = W * R\nlet b = po* ; rf\nlet c = po*\n~empty a as product\nempty id \\ c as closure\nempty (po ; rf) \\ b as closure-seq",
    );
}

#[test]
fn fencerel_filters_and_classes() {
    let mut x = mp();
    let f = x.add_event(weft_cat::Event::fence(0));
    // Put the fence between the two writes of thread 0 (events 2 and 3).
    x.add_edge("po", 2, f);
    x.add_edge("po", f, 3);
    let m = model_text(
        "empty fencerel(F) \\ (po ; [F] ; po) as sound\nempty (po ; [F] ; po) \\ fencerel(F) as complete\n~empty fencerel(F) as found",
    );
    let e = m.evaluate(&x, &EvalOptions::default()).unwrap();
    assert!(e.runs[0].checks.iter().all(|c| c.holds));
    all_hold(
        r#"
        empty WW(po) \ (po & (W * W)) as ww
        empty RR(po) \ (po & (R * R)) as rr
        empty MM(po) \ po as mm
        empty (WR(po) | RW(po) | RM(po) | MW(po) | WM(po) | MR(po)) \ po as filters
        let rec count_classes S = match S with {} -> 0 || c ++ rest -> [c] | count_classes(rest) end
        empty count_classes(classes-loc(W)) \ (loc & id) as classes
        "#,
    );
}

#[test]
fn let_rec_is_a_least_fixpoint() {
    all_hold(
        r#"
        let rec t = chain | (t ; t)
        empty t \ chain+ as closure-sound
        empty chain+ \ t as closure-complete
        (* Mutual recursion: paths of odd and even length along chain. *)
        let rec odd = chain | (even ; chain)
        and even = odd ; chain
        empty odd & even as disjoint
        empty (odd | even) \ chain+ as sound
        empty chain+ \ (odd | even) as complete
        ~empty even as has-even
        let tr(r) = let rec x = r | (x ; x) in x
        empty tr(po) \ po+ as local-rec
        "#,
    );
}

#[test]
fn non_monotone_let_rec_hits_the_iteration_limit() {
    let m = Model::parse("m.cat", "let rec x = ~x\nempty x").unwrap();
    let opts = EvalOptions {
        max_fixpoint_iterations: 50,
        ..EvalOptions::default()
    };
    let e = m.evaluate(&mp(), &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert_eq!((e.line(), e.col()), (Some(1), Some(9)));
}

#[test]
fn functions_tuples_and_scoping() {
    all_hold(
        r#"
        let f(x) = x | rf
        let g x y = x ; y
        let sym = fun (a, b) -> (a \ b) | (b \ a)
        let unit() = po
        empty f(po) \ (po | rf) as application
        empty g po rf \ (po ; rf) as curried
        empty sym(po, po) as tuple-arg
        ~empty sym(po, rf) as tuple-arg2
        empty unit() \ po as unit
        let c = po
        let k(x) = x | c
        let c = rf
        empty k(0) \ po as static-scope
        let (p, q) = (po, rf)
        empty (p \ po) | (q \ rf) as tuple-binding
        let compose2 = fun r -> fun s -> r ; s
        empty compose2(po)(rf) \ (po ; rf) as higher-order
        let a = po and b = rf
        empty (a \ po) | (b \ rf) as and-binding
        "#,
    );
}

#[test]
fn sets_of_values_and_matching() {
    all_hold(
        r#"
        let rec union_all S = match S with
          || {} -> 0
          || r ++ rest -> r | union_all(rest)
          end
        empty union_all({po, rf, co}) \ (po | rf | co) as union-all
        empty (po | rf | co) \ union_all({po, rf, co}) as union-all2
        let rec size_one S = match S with {} -> 0 || e ++ rest -> {e} * {e} end
        ~empty size_one(W) as pick
        let events-of-w = let rec go S = match S with {} -> {} || e ++ rest -> e ++ go(rest) end in go(W)
        empty (events-of-w \ W) | (W \ events-of-w) as rebuild-set
        let rec pairs R = match R with {} -> 0 || p ++ rest -> {p} | pairs(rest) end
        empty (pairs(po) \ po) | (po \ pairs(po)) as rebuild-relation
        let both = {po, rf} | {rf, co}
        let common = {po, rf} & {rf, co}
        let only = {po, rf} \ {rf}
        empty union_all(both) \ (po | rf | co) as coll-union
        empty (union_all(common) \ rf) | (rf \ union_all(common)) as coll-inter
        empty (union_all(only) \ po) | (po \ union_all(only)) as coll-diff
        empty union_all(po ++ {rf}) \ (po | rf) as add
        "#,
    );
}

#[test]
fn tags_enums_match_forall_and_procedures() {
    all_hold(
        r#"
        enum Orders = 'rlx || 'acq || 'rel
        let order-set(t) = match t with
          || 'rlx -> RLX
          || 'acq -> ACQ
          || _ -> REL
          end
        empty order-set('acq) \ ACQ as tag-match
        empty order-set('rel) \ REL as tag-default
        forall t in Orders do
          empty order-set(t) \ M as orders-are-memory
        end
        procedure uniproc() =
          let com = rf | co | fr
          acyclic po-loc | com as uniproc
        end
        call uniproc()
        procedure included(r, s) =
          empty r \ s as included
        end
        call included(rfe, rf)
        let t = if 'acq = 'acq then po else rf
        empty t \ po as if-equal
        let v = if variant "nope" then rf else po
        empty v \ po as if-variant
        let opt = try NOT-A-SET with emptyset
        empty opt as try-fallback
        let ok = try po with rf
        empty ok \ po as try-value
        "#,
    );
    // forall ran its body once per tag; call's checks are kept.
    let e = run(
        "enum O = 'a || 'b || 'c\nforall t in O do empty 0 as each end\nprocedure p() = empty 0 as inside end\ncall p()",
    )
    .unwrap();
    let names: Vec<String> = e.runs[0].checks.iter().map(|c| c.label()).collect();
    assert_eq!(names, vec!["each", "each", "each", "inside"]);
    // Bindings made in a procedure body do not escape it.
    let err = eval_error("procedure p(x) = let y = x end\ncall p(po)\nempty y");
    assert!(
        err.message.contains("unknown identifier `y`"),
        "{}",
        err.message
    );
}

/// Names of the execution (`W`, `po`, `rf`, `co`) rebound by each kind of binder: the
/// binding wins wherever it is in scope (the evaluator resolves names that no construct
/// binds without looking at the environment, so every binder must be seen).
#[test]
fn every_binder_shadows_the_execution_names() {
    all_hold(
        r#"
        let W = R
        empty W \ R as let-shadows
        let f(po) = po
        empty f(rf) \ rf as parameter-shadows
        let g = fun (co, W) -> co ; W
        empty g(rf, 0) as tuple-parameter-shadows
        forall co in {rf} do empty co \ rf as forall-shadows end
        procedure p(rf) = empty rf \ po as procedure-parameter-shadows end
        call p(po)
        let h = match R with {} -> po || po ++ rf -> [po] end
        empty h \ [R] as match-shadows
        enum E = 'po || 'rf
        let k = match 'po with || 'po -> 0 || _ -> po end
        empty k as enum-tags
        with co from {po}
        empty co \ po as with-shadows
        "#,
    );
}

/// A sequence with an empty prefix is empty without evaluating the rest, except inside
/// `try`, where the error of the rest still selects the fallback.
#[test]
fn empty_prefixes_and_try() {
    all_hold(
        r#"
        empty [emptyset] ; po ; rf as empty-prefix
        empty 0 ; po as zero-prefix
        let t = try ([emptyset] ; NOT-A-SET) with po
        empty po \ t as try-sees-the-error
        "#,
    );
}

#[test]
fn show_unshow_instructions_and_headers_are_ignored() {
    all_hold(
        "X86 \"a comment\"\nshow po, rf\nshow po | rf as com\nunshow po\ninstructions W['a, 'b]\nempty 0 as fine",
    );
}

#[test]
fn with_from_forks_runs() {
    let e = run("with x from W\nempty [x] \\ [IW] as is-initial").unwrap();
    // W = {init x, init y, W x, W y}: one run per write.
    assert_eq!(e.runs.len(), 4);
    assert_eq!(e.runs.iter().filter(|r| r.allowed()).count(), 2);
    let e = run("let s = {po, rf}\nwith r from s\nwith q from s\nempty 0 as leaf").unwrap();
    assert_eq!(e.runs.len(), 4);
    let e = run("with x from emptyset\nempty 0 as never").unwrap();
    assert!(e.runs.is_empty());
    assert!(!e.allowed());
}

#[test]
fn linearisations_and_cross() {
    all_hold(
        r#"
        let chained = linearisations(W \ IW, po)
        with o from chained
        empty po & ((W \ IW) * (W \ IW)) \ o as extends-po
        empty (o ; o) \ o as transitive
        empty o & id as strict
        "#,
    );
    let e = run("with o from linearisations(M \\ IW, 0)\nempty 0 as leaf").unwrap();
    assert_eq!(e.runs.len(), 24); // 4 events, no constraint: 4!
    let e = run("with o from linearisations(M \\ IW, po)\nempty 0 as leaf").unwrap();
    assert_eq!(e.runs.len(), 6);
    let e = run("with o from linearisations(M, po | po^-1)\nempty 0 as leaf").unwrap();
    assert!(e.runs.is_empty(), "cyclic constraint: no order");
    let e = run("with c from cross({{po, rf}, {co, 0}})\nempty 0 as leaf").unwrap();
    assert_eq!(e.runs.len(), 4);
    let limited = Model::parse("m.cat", "with o from linearisations(_, 0)\nempty 0")
        .unwrap()
        .evaluate(
            &mp(),
            &EvalOptions {
                max_enumeration: 100,
                ..EvalOptions::default()
            },
        )
        .unwrap_err();
    assert_eq!(limited.kind, ErrorKind::Limit);
}

#[test]
fn runaway_recursion_is_an_error_not_a_crash() {
    // Run in a thread with a small stack to show the depth limit protects it.
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let m = Model::parse("m.cat", "let rec f x = f(x) | x\nempty f(po)").unwrap();
            m.evaluate(&mp(), &EvalOptions::default()).unwrap_err()
        })
        .unwrap();
    let e = handle.join().unwrap();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("deeper than"));
    let m = Model::parse("m.cat", "procedure p() = call p() end\ncall p()").unwrap();
    assert_eq!(
        m.evaluate(&mp(), &EvalOptions::default()).unwrap_err().kind,
        ErrorKind::Limit
    );
}

#[test]
fn checks_report_modes_and_witnesses() {
    let e = run(
        "flag ~empty rfe as has-rfe\nundefined_unless empty rfe as no-rfe\nirreflexive po? as refl\n~acyclic po as cyclic",
    )
    .unwrap();
    let c = &e.runs[0].checks;
    assert!(c[0].flag_raised() && c[0].is_flag());
    assert!(c[1].makes_undefined());
    assert!(!c[2].holds && matches!(c[2].witness, Some(weft_cat::Witness::Reflexive(_))));
    assert!(!c[3].holds && c[3].witness.is_none());
    assert!(!e.allowed());
    assert_eq!(e.runs[0].failed().count(), 2);
    assert_eq!(e.runs[0].flags().count(), 1);
}

/// An [`weft_cat::Execution`] written from scratch, not an [`ExecutionBase`].
struct TwoEvents;

impl weft_cat::Execution for TwoEvents {
    fn num_events(&self) -> usize {
        2
    }
    fn base_set(&self, name: &str) -> Option<weft_cat::BitSet> {
        match name {
            "W" => Some(weft_cat::BitSet::from_events(2, [0, 1])),
            "R" | "IW" => Some(weft_cat::BitSet::new(2)),
            "BAD" => Some(weft_cat::BitSet::new(3)),
            _ => None,
        }
    }
    fn base_relation(&self, name: &str) -> Option<weft_cat::Relation> {
        match name {
            "po" => Some(weft_cat::Relation::from_pairs(2, [(0, 1)])),
            "co" => Some(weft_cat::Relation::from_pairs(2, [(1, 0)])),
            "rf" => Some(weft_cat::Relation::new(2)),
            _ => None,
        }
    }
}

#[test]
fn custom_executions_and_their_errors() {
    let m = Model::parse("sc.cat", "acyclic po | rf | co | fr as sc").unwrap();
    let e = m.evaluate(&TwoEvents, &EvalOptions::default()).unwrap();
    let Some(weft_cat::Witness::Cycle(c)) = &e.runs[0].checks[0].witness else {
        panic!()
    };
    assert_eq!(c.len(), 2);
    let m = Model::parse("m.cat", "empty BAD").unwrap();
    let err = m.evaluate(&TwoEvents, &EvalOptions::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Execution);
    // po-loc needs `loc`, which this execution lacks: the error says so.
    let m = Model::parse("m.cat", "empty po-loc").unwrap();
    let err = m.evaluate(&TwoEvents, &EvalOptions::default()).unwrap_err();
    assert!(err.message.contains("`loc`"), "{}", err.message);
}

#[test]
fn herd_standard_library_helpers() {
    all_hold(
        r#"
        let eq(a, b) = (a \ b) | (b \ a)
        empty eq(toid(W), [W]) as toid
        empty eq(noid(po?), po) as noid
        empty eq(imply(W, R), ~W | R) as imply
        empty eq(nodetour(chain+, chain, chain), chain+ \ (chain ; chain)) as nodetour
        empty eq(singlestep(chain+), chain) as singlestep
        let twice = map (fun r -> r ; r)
        let both = twice({po, chain})
        empty eq(union-of(both), (po ; po) | (chain ; chain)) as map-relations
        let same = map (fun e -> e) (W)
        empty eq(same, W) as map-events
        empty eq(co0, loc & ((IW * (W \ IW)) | ((W \ FW) * FW))) as co0
        empty lxsx as lxsx
        "#
        .replace(
            "union-of(both)",
            "(let rec u S = match S with {} -> 0 || r ++ rest -> r | u(rest) end in u(both))",
        )
        .as_str(),
    );
}

#[test]
fn newer_herd_if_string_form() {
    let m =
        model_text("if \"opt\"\n  let r = po\nelse\n  let r = rf\nend\nempty r \\ po as picked-po");
    let x = mp();
    let plain = m.evaluate(&x, &EvalOptions::default()).unwrap();
    assert!(!plain.runs[0].checks[0].holds);
    let mut opts = EvalOptions::default();
    opts.variants.insert("opt".into());
    assert!(m.evaluate(&x, &opts).unwrap().runs[0].checks[0].holds);
}
