//! Generated GPU suites: at least 500 tests each in Dat3M PTX, Dat3M Vulkan and weft/
//! GPUHarbor JSON (WebGPU) print, parse back, and simulate under the matching model;
//! message passing with release/acquire (or acq_rel fences, or WebGPU barriers inside one
//! workgroup) is forbidden, plain relaxed message passing allowed (the models' documented
//! verdicts: PTX ISA 7.5 memory model, Vulkan memory model, WebGPU/GPUHarbor).

use weft_gen::build::{build, BuildOptions, Target};
use weft_gen::edge::Edge;
use weft_gen::enumerate::{enumerate, Spec};
use weft_litmus::Format;

fn spec(relax: &str) -> Spec {
    Spec {
        relax: Edge::parse_list(relax).unwrap(),
        safe: Edge::parse_list("Rfe.gpu,Fre.gpu,Coe.gpu,Rfe.cta,Fre.cta,Coe.cta").unwrap(),
        size: 6,
        nprocs: 4,
        mix: true,
        max_relax: 3,
        placement: weft_ir::Scope::Gpu,
        ins: 4,
        max_tests: 1_000_000,
        deadline: None,
    }
}

/// Builds, prints, parses and simulates every test; returns (name, allowed) pairs.
fn suite(spec: &Spec, target: Target, format: Format, model: &str) -> Vec<(String, bool)> {
    let model = weft_sim::models::load(model).unwrap();
    let opts = weft_sim::SimOptions {
        stop_at_verdict: Some(weft_sim::StopAt::Condition),
        ..weft_sim::SimOptions::default()
    };
    let mut out = Vec::new();
    for g in enumerate(spec).unwrap() {
        let p = build(&g.cycle, &g.name, target, &BuildOptions::default()).unwrap();
        let Ok(text) = weft_litmus::print(&p, format) else {
            continue;
        };
        let back =
            weft_litmus::parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}\n{text}", g.name));
        let r = weft_sim::simulate(&back, &model, &opts).unwrap();
        out.push((g.name, r.validated));
    }
    out
}

fn verdict(s: &[(String, bool)], name: &str) -> bool {
    s.iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name} not generated"))
        .1
}

#[test]
fn ptx_suite() {
    let s = suite(
        &spec("PodWWRlxRlx,PodWRRlxRlx,PodRWRlxRlx,PodRRRlxRlx,PodWWRlxRel,PodRRAcqRlx,PodWWRlxRlx.cta,PodRRRlxRlx.cta,FenceScdWWRlxRlx.cta,FenceScdRRRlxRlx.gpu,FenceScdWRRlxRlx.gpu,FenceARdRWRlxRlx.cta"),
        Target::Ptx,
        Format::Ptx,
        "ptx-v7.5",
    );
    assert!(s.len() >= 500, "{}", s.len());
    assert!(!verdict(&s, "MP+porlxrel+poacqrlx+rfe.cta+fre.cta"));
    assert!(verdict(&s, "MP+porlxrlxs+rfe.cta+fre.cta"));
    assert!(!verdict(&s, "SB+fencescrlxrlx.gpus+fre.gpus"));
}

#[test]
fn vulkan_suite() {
    let s = suite(
        &spec("PodWWRlxRlx,PodWRRlxRlx,PodRWRlxRlx,PodRRRlxRlx,PodWWRlxRel,PodRRAcqRlx,PodWWRlxRlx.cta,PodRRRlxRlx.cta,FenceARdWWRlxRlx.cta,FenceARdRRRlxRlx.gpu,FenceARdWRRlxRlx.gpu,FenceARdRWRlxRlx.cta"),
        Target::Vulkan,
        Format::Vulkan,
        "vulkan",
    );
    assert!(s.len() >= 500, "{}", s.len());
    assert!(!verdict(&s, "MP+porlxrel+poacqrlx+rfe.cta+fre.cta"));
    assert!(verdict(&s, "MP+porlxrlxs+rfe.cta+fre.cta"));
}

#[test]
fn webgpu_suite() {
    let s = suite(
        &spec("PodWW,PodWR,PodRW,PodRR,BardWW,BardRR,BardWR,BardRW"),
        Target::WebGpu,
        Format::Json,
        "webgpu",
    );
    assert!(s.len() >= 500, "{}", s.len());
    // GPUHarbor's MP with barriers: forbidden (its conformance test messagePassingBarrier),
    // plain MP allowed (its tuning test messagePassing).
    assert!(!verdict(&s, "MP+bars+rfe.gpu+fre.gpu"));
    assert!(verdict(&s, "MP+rfe.gpu+fre.gpu"));
}

/// Vulkan queue families (issue 17: thread placement "Vulkan subgroup/workgroup/queue
/// family"): `.qf` on a communication keeps its two threads in one queue family
/// (different workgroups), `.dv` puts them in different queue families of the device;
/// the tests declare each thread as `P1@sg S,wg W,qf Q`. Expected verdicts, by hand from
/// the Vulkan memory model's inclusive scopes: release/acquire message passing with
/// device-scoped accesses is forbidden whatever the queue families; with
/// queue-family-scoped accesses it is forbidden inside one queue family and allowed
/// across two (the scopes do not include each other's thread, so no synchronisation).
#[test]
fn vulkan_queue_families() {
    let mut sp =
        spec("PodWWRlxRel,PodRRAcqRlx,PodWWRlxRel.qf,PodRRAcqRlx.qf,PodWWRlxRlx,PodRRRlxRlx");
    sp.safe = Edge::parse_list("Rfe.qf,Fre.qf,Coe.qf,Rfe.dv,Fre.dv,Coe.dv").unwrap();
    let s = suite(&sp, Target::Vulkan, Format::Vulkan, "vulkan");
    assert!(s.len() >= 100, "{}", s.len());
    assert!(!verdict(&s, "MP+porlxrel+poacqrlx+rfe.gpu+fre.gpu"));
    assert!(!verdict(&s, "MP+porlxrel+poacqrlx+rfe.qf+fre.qf"));
    assert!(!verdict(&s, "MP+porlxrel.qf+poacqrlx.qf+rfe.qf+fre.qf"));
    assert!(verdict(&s, "MP+porlxrel.qf+poacqrlx.qf+rfe.gpu+fre.gpu"));
    assert!(verdict(&s, "MP+porlxrlxs+rfe.qf+fre.qf"));

    // The declarations: `.dv` gives each thread its own queue family, `.qf` one family.
    // Two threads cannot share a queue family (`.qf`) and not share it (`.dv`).
    let c = weft_gen::Cycle::parse("PodWWRlxRel Rfe.dv PodRRAcqRlx Fre.qf").unwrap();
    let e = build(&c, "T", Target::Vulkan, &BuildOptions::default()).unwrap_err();
    assert!(e.0.contains("contradict"), "{}", e.0);
    for (cycle, qfs) in [
        (
            "PodWWRlxRel RfeRelAcq.dv PodRRAcqRlx FreRlxRlx.dv",
            ["qf 0", "qf 1"],
        ),
        (
            "PodWWRlxRel RfeRelAcq.qf PodRRAcqRlx FreRlxRlx.qf",
            ["qf 0", "qf 0"],
        ),
    ] {
        let c = weft_gen::Cycle::parse(cycle).unwrap();
        let p = build(&c, "T", Target::Vulkan, &BuildOptions::default()).unwrap();
        let text = weft_litmus::print(&p, Format::Vulkan).unwrap();
        let decl = text
            .lines()
            .find(|l| l.trim_start().starts_with("P0@"))
            .unwrap();
        assert!(decl.contains(&format!("wg 0, {}", qfs[0])), "{decl}");
        assert!(decl.contains(&format!("wg 1, {}", qfs[1])), "{decl}");
    }
}

/// Dependencies on GPUs are false dependencies ptxas cannot fold away (paper 000 §4.5,
/// Fig. 13): `and.b32 rD, rX, 0x80000000` (0 for the tests' small values, but not known to
/// the compiler), then the result added to the address (addr), to the stored value (data)
/// or to the read value tested by the predicate guarding the rest of the thread (ctrl);
/// never `xor r, r, r` (which ptxas folds to 0). Checked on the printed GPU_PTX text and on
/// the test parsed back: the access the edge leads to reads the `and`'s result.
#[test]
fn false_dependencies() {
    use weft_ir::{BinOp, Expr, StmtKind};
    for (cycle, kind) in [
        ("Rfe DpAddrdW Rfe DpAddrdW", "addr"),
        ("Rfe DpDatadW Rfe DpDatadW", "data"),
        ("Rfe DpCtrldW Rfe DpCtrldW", "ctrl"),
        ("PodWW Rfe DpAddrdR Fre", "addr"),
        ("PodWW Rfe DpCtrldR Fre", "ctrl"),
    ] {
        let c = weft_gen::Cycle::parse(cycle).unwrap();
        let p = build(&c, "T", Target::Ptx, &BuildOptions::default()).unwrap();
        let text = weft_litmus::print(&p, Format::GpuPtx).unwrap();
        assert!(text.contains("and.b32 r1,r0,2147483648"), "{cycle}\n{text}");
        assert!(!text.contains("xor"), "{cycle}\n{text}");
        let back = weft_litmus::parse(&text).unwrap_or_else(|e| panic!("{cycle}: {e:?}\n{text}"));
        // The reading thread (P1): r0 = load; r1 = r0 & 0x80000000; ... uses r1.
        let t = &back.threads[1];
        let code: Vec<&StmtKind> = t.code.iter().map(|s| &s.kind).collect();
        let StmtKind::Load(l0) = code[0] else {
            panic!("{cycle}: {code:?}")
        };
        let StmtKind::Assign { dst: d, value } = code[1] else {
            panic!("{cycle}: {code:?}")
        };
        assert_eq!(
            *value,
            Expr::bin(BinOp::And, Expr::Reg(l0.dst), Expr::Int(0x8000_0000)),
            "{cycle}"
        );
        let uses_d = |e: &Expr| format!("{e:?}").contains(&format!("{:?}", Expr::Reg(*d)));
        let StmtKind::Assign { dst: a, value: v2 } = code[2] else {
            panic!("{cycle}: {code:?}")
        };
        assert!(uses_d(v2), "{cycle}: {v2:?}");
        let last = t.code.last().unwrap();
        let ra = format!("{:?}", Expr::Reg(*a));
        match (kind, &last.kind) {
            ("addr", StmtKind::Store(s)) => assert!(format!("{:?}", s.addr).contains(&ra)),
            ("addr", StmtKind::Load(l)) => assert!(format!("{:?}", l.addr).contains(&ra)),
            ("data", StmtKind::Store(s)) => assert_eq!(s.value, Expr::Reg(*a)),
            ("ctrl", _) => {
                let g = last
                    .guard
                    .expect("the access after a control dependency is guarded");
                // The predicate compares `r0 + rD` with the value read.
                assert!(t.code.iter().any(|s| matches!(&s.kind,
                    StmtKind::Assign { dst, value } if *dst == g.reg
                        && format!("{value:?}").contains(&ra))));
            }
            other => panic!("{cycle}: {other:?}"),
        }
    }
}

/// Exchanges (`Rmw`) on GPUs: `atom.exch` (PTX), `rmw.atom` (Vulkan), an atomic exchange
/// (WebGPU). Message passing whose reader is an acquire exchange of the flag written with
/// release is forbidden (the exchange reads from the release store, so it synchronises
/// with it: PTX 7.5 and Vulkan models); all relaxed, it is allowed.
#[test]
fn exchanges_on_gpus() {
    for (target, format, model) in [
        (Target::Ptx, Format::Ptx, "ptx-v7.5"),
        (Target::Vulkan, Format::Vulkan, "vulkan"),
    ] {
        let model_ = weft_sim::models::load(model).unwrap();
        for (cycle, allowed) in [
            (
                "PodWWRlxRel RfeRelAcq RmwAcqRlx PodWRRlxRlx FreRlxRlx",
                false,
            ),
            (
                "PodWWRlxRlx RfeRlxRlx RmwRlxRlx PodWRRlxRlx FreRlxRlx",
                true,
            ),
        ] {
            let c = weft_gen::Cycle::parse(cycle).unwrap();
            let p = build(&c, "T", target, &BuildOptions::default()).unwrap();
            let text = weft_litmus::print(&p, format).unwrap();
            let back = weft_litmus::parse(&text).unwrap();
            assert!(
                back.threads[1]
                    .code
                    .iter()
                    .any(|s| matches!(s.kind, weft_ir::StmtKind::Rmw(_))),
                "{text}"
            );
            let r = weft_sim::simulate(&back, &model_, &weft_sim::SimOptions::default()).unwrap();
            assert_eq!(r.validated, allowed, "{model}: {cycle}\n{text}");
        }
    }
    // The RMW enumeration of `tests/gen/diy7/rmw5-aarch64` in WebGPU JSON: every test
    // prints, parses back and simulates.
    let mut sp = spec("Rmw");
    sp.safe = Edge::parse_list("Rfe,Fre,Coe,PodWR,PodRW,PodWW,PodRR").unwrap();
    sp.size = 5;
    sp.nprocs = 3;
    sp.mix = false;
    let s = suite(&sp, Target::WebGpu, Format::Json, "webgpu");
    assert_eq!(s.len(), 9);
}
