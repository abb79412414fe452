//! The GPU_PTX and JSON front-ends and the outcome classifier, against facts written down
//! from the papers: every test of paper 000 (GPU_PTX) and of GPUHarbor (JSON) in
//! `tests/corpus` parses and round-trips, its metadata names the right figure, the final
//! condition of each is weak under SC, GPUHarbor's own seq/interleaved/weak labels agree
//! with the classifier, Fig. 12 parses to the documented placements and memory map, and
//! malformed inputs fail at the right `line:col` without panicking.

use std::path::{Path, PathBuf};

use weft_ir::{
    BinOp, CacheOp, CmpOp, DataType, Expr, Guard, LocId, MemSpace, Order, Placement, Program, Prop,
    Quantifier, Reg, RmwOp, Scope, StmtKind, Term, Value,
};
use weft_litmus::classify::{classify, Class, Classification};
use weft_litmus::{gpuptx, json, parse, print, print_native, Format, ParseError};

fn corpus(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/corpus")
        .join(dir)
}

/// The tests of a corpus directory (not their metadata), sorted.
fn tests_in(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_str().unwrap();
            n.ends_with(".litmus") || (n.ends_with(".json") && !n.ends_with(".meta.json"))
        })
        .collect();
    v.sort_by_key(|p| stem(p));
    v
}

fn stem(p: &Path) -> String {
    let n = p.file_name().unwrap().to_str().unwrap();
    n.trim_end_matches(".litmus")
        .trim_end_matches(".json")
        .to_string()
}

fn meta(p: &Path) -> serde_json::Value {
    let m = p.with_file_name(format!("{}.meta.json", stem(p)));
    let text = std::fs::read_to_string(&m).unwrap_or_else(|e| panic!("{}: {e}", m.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", m.display()))
}

fn load(p: &Path) -> Program {
    let src = std::fs::read_to_string(p).unwrap();
    parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&p.display().to_string())))
}

fn reg(t: usize, r: u32) -> Term {
    Term::Reg {
        thread: t,
        reg: Reg(r),
    }
}

fn mem(l: u32) -> Term {
    Term::Mem {
        loc: LocId(l),
        index: 0,
    }
}

fn eq(t: Term, v: i64) -> Prop {
    Prop::Cmp(t, CmpOp::Eq, Term::Int(v))
}

fn all(props: Vec<Prop>) -> Prop {
    props.into_iter().reduce(Prop::and).unwrap_or(Prop::True)
}

// ----- corpus -----

const PAPER000: [(&str, &str); 19] = [
    ("SB", "Fig. 12"),
    ("cas-sl", "Fig. 9"),
    ("cas-sl+fences", "Fig. 9"),
    ("coRR", "Fig. 1"),
    ("coRR-L2-L1", "Fig. 4"),
    ("coRR-L2-L1+membar.cta", "Fig. 4"),
    ("coRR-L2-L1+membar.gl", "Fig. 4"),
    ("coRR-L2-L1+membar.sys", "Fig. 4"),
    ("dlb-lb", "Fig. 8"),
    ("dlb-lb+fences", "Fig. 8"),
    ("dlb-mp", "Fig. 7"),
    ("dlb-mp+fences", "Fig. 7"),
    ("mp-L1", "Fig. 3"),
    ("mp-L1+membar.cta", "Fig. 3"),
    ("mp-L1+membar.gl", "Fig. 3"),
    ("mp-L1+membar.sys", "Fig. 3"),
    ("mp-volatile", "Fig. 5"),
    ("sl-future", "Fig. 11"),
    ("sl-future+fix", "Fig. 11"),
];

const MUTANTS: [(&str, &str); 6] = [
    ("MP", "Fig. 1a"),
    ("LB", "Fig. 3a"),
    ("SB", "Fig. 3b"),
    ("S", "Fig. 3c"),
    ("R", "Fig. 3d"),
    ("2+2W", "Fig. 3e"),
];

#[test]
fn every_corpus_test_parses_and_round_trips() {
    let mut n = 0;
    for dir in ["paper000", "gpuharbor"] {
        for f in tests_in(dir) {
            let p = load(&f);
            assert_eq!(p.name, stem(&f), "{}: test name", f.display());
            let text = print_native(&p).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let q = parse(&text)
                .unwrap_or_else(|e| panic!("{}: reprint does not parse: {e}\n{text}", f.display()));
            assert_eq!(p, q, "{}: round trip changed the IR\n{text}", f.display());
            // Printing is a fixed point.
            assert_eq!(print_native(&q).unwrap(), text, "{}", f.display());
            n += 1;
        }
    }
    assert_eq!(n, 19 + 22);
}

#[test]
fn paper000_corpus_is_complete_and_its_metadata_names_the_figures() {
    let files = tests_in("paper000");
    let names: Vec<String> = files.iter().map(|f| stem(f)).collect();
    let want: Vec<&str> = PAPER000.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, want);
    for (f, (name, fig)) in files.iter().zip(PAPER000) {
        let p = load(f);
        assert_eq!(p.arch, weft_ir::Arch::GpuPtx, "{name}");
        let m = meta(f);
        assert_eq!(m["test"], name, "{name}");
        assert_eq!(m["source"]["paper"], "000", "{name}");
        assert_eq!(m["source"]["figure"], fig, "{name}");
        assert!(m["final"].is_string(), "{name}: final condition text");
        let threads = m["threads"].as_str().unwrap();
        assert!(threads == "intra-CTA" || threads == "inter-CTA", "{name}");
        // Intra-CTA: one CTA for both threads; inter-CTA: different CTAs.
        let same_cta = p.threads[0]
            .placement
            .same_instance(&p.threads[1].placement, Scope::Cta);
        assert_eq!(
            same_cta,
            threads == "intra-CTA",
            "{name}: placement vs metadata"
        );
        let obs = m["observations"].as_object().unwrap();
        for chip in ["GTX5", "TesC", "GTX6", "Titan", "GTX7", "HD6570", "HD7970"] {
            let v = &obs[chip];
            assert!(v.is_null() || v.is_u64(), "{name}: {chip}");
        }
    }
    // A few counts, as printed in the figures.
    let obs = |n: &str, chip: &str| {
        meta(&corpus("paper000").join(format!("{n}.litmus")))["observations"][chip].clone()
    };
    assert_eq!(obs("coRR", "GTX5"), 11642);
    assert_eq!(obs("mp-L1", "TesC"), 10581);
    assert_eq!(obs("mp-L1+membar.sys", "TesC"), 162);
    assert_eq!(obs("coRR-L2-L1+membar.cta", "GTX5"), 1934);
    assert_eq!(obs("mp-volatile", "Titan"), 2188);
    assert_eq!(obs("dlb-mp", "Titan"), 65);
    assert_eq!(obs("dlb-lb", "HD7970"), 13591);
    assert!(obs("dlb-lb", "HD6570").is_null());
    assert_eq!(obs("cas-sl", "HD6570"), 508);
    assert_eq!(obs("sl-future", "TesC"), 99);
    assert!(obs("sl-future", "HD7970").is_null());
}

#[test]
fn gpuharbor_corpus_and_metadata() {
    let files = tests_in("gpuharbor");
    assert_eq!(files.len(), 22);
    for f in &files {
        let name = stem(f);
        let p = load(f);
        assert_eq!(p.arch, weft_ir::Arch::WebGpu, "{name}");
        let m = meta(f);
        assert_eq!(m["test"], name.as_str());
        assert_eq!(m["source"]["paper"], "001", "{name}");
        let mutant = MUTANTS.iter().find(|(n, _)| *n == name);
        match mutant {
            Some((_, fig)) => {
                assert_eq!(m["source"]["figure"], *fig, "{name}");
                assert_eq!(m["webgpu_model"], "allowed", "{name}");
                assert_eq!(m["role"], "mutant", "{name}");
                let rates = m["table2_vulkan_weak_percent"].as_object().unwrap();
                assert_eq!(rates.len(), 8, "{name}: Table 2 has eight devices");
            }
            None => {
                assert_eq!(m["webgpu_model"], "forbidden", "{name}");
                assert_eq!(m["role"], "conformance", "{name}");
            }
        }
    }
    let rate = |n: &str, d: &str| {
        meta(&corpus("gpuharbor").join(format!("{n}.json")))["table2_vulkan_weak_percent"][d]
            .as_f64()
    };
    assert_eq!(rate("SB", "Qualcomm Adreno 660"), Some(14.37));
    assert_eq!(rate("MP", "Arm Mali G78"), Some(1.56));
    assert_eq!(rate("R", "NVIDIA Tegra X1"), Some(0.01));
    assert_eq!(rate("2+2W", "Qualcomm Adreno 642L"), Some(6.38));
    assert_eq!(
        meta(&corpus("gpuharbor").join("MP-CO.json"))["source"]["figure"],
        "Fig. 1b"
    );
}

#[test]
fn every_corpus_condition_is_weak_under_sc() {
    for dir in ["paper000", "gpuharbor"] {
        for f in tests_in(dir) {
            let p = load(&f);
            let m = meta(&f);
            let c = p.condition.as_ref().expect("a final condition");
            assert_eq!(c.quantifier, Quantifier::Exists);
            let cls = classify(&p).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert_eq!(
                cls.class_of_prop(&c.prop).name(),
                m["sc_class"].as_str().unwrap(),
                "{}",
                f.display()
            );
        }
    }
}

/// GPUHarbor labels every behavior of its configs seq…, interleaved… or weak…; the
/// classifier must agree with each label.
#[test]
fn gpuharbor_behavior_labels_agree_with_the_classifier() {
    let mut checked = 0;
    for f in tests_in("gpuharbor") {
        let src = std::fs::read_to_string(&f).unwrap();
        let raw: serde_json::Value = serde_json::from_str(&src).unwrap();
        let p = load(&f);
        let cls = classify(&p).unwrap();
        for (name, tree) in raw["behaviors"].as_object().unwrap() {
            let label = tree
                .get("key")
                .and_then(|k| k.as_str())
                .unwrap_or(name.as_str());
            let want = if label.starts_with("seq") {
                Class::Seq
            } else if label.starts_with("interleaved") {
                Class::Interleaved
            } else {
                Class::Weak
            };
            // The behavior alone, as the condition of the same test.
            let mut one = raw.clone();
            one.as_object_mut().unwrap().remove("behaviors");
            one["condition"] = serde_json::json!({"quantifier": "exists", "postcondition": tree});
            let q = json::parse(&one.to_string()).unwrap();
            let prop = &q.condition.as_ref().unwrap().prop;
            assert_eq!(
                cls.class_of_prop(prop),
                want,
                "{}: behavior {name}",
                f.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 80, "{checked} behaviors checked");
}

// ----- classification -----

fn classified(src: &str) -> (Program, Classification) {
    let p = parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let c = classify(&p).unwrap();
    (p, c)
}

const MP: &str = r#"{"testName": "MP", "threads": [
  {"actions": [{"action": "write", "memoryLocation": "x", "value": 1},
               {"action": "write", "memoryLocation": "y", "value": 1}]},
  {"actions": [{"action": "read", "memoryLocation": "y", "variable": "r0"},
               {"action": "read", "memoryLocation": "x", "variable": "r1"}]}]}"#;

#[test]
fn mp_outcomes_are_seq_interleaved_and_weak() {
    let (_, c) = classified(MP);
    let r01 = |a, b| all(vec![eq(reg(1, 0), a), eq(reg(1, 1), b)]);
    assert_eq!(c.class_of_prop(&r01(0, 0)), Class::Seq);
    assert_eq!(c.class_of_prop(&r01(1, 1)), Class::Seq);
    assert_eq!(c.class_of_prop(&r01(0, 1)), Class::Interleaved);
    assert_eq!(c.class_of_prop(&r01(1, 0)), Class::Weak);
    let proj = c.project(&[reg(1, 0), reg(1, 1)]);
    assert_eq!(
        proj,
        vec![
            (vec![0, 0], Class::Seq),
            (vec![1, 1], Class::Seq),
            (vec![0, 1], Class::Interleaved)
        ]
    );
    // Full outcomes: registers of both threads and the final memory.
    assert!(c.outcomes().all(|(o, _)| o.mem == vec![vec![1], vec![1]]));
}

/// The weak outcome of each of GPUHarbor's six mutants (paper 001 Fig. 1a and Fig. 3).
#[test]
fn the_six_classic_weak_outcomes() {
    let t = |name: &str| load(&corpus("gpuharbor").join(format!("{name}.json")));
    let class = |p: &Program, prop: Prop| classify(p).unwrap().class_of_prop(&prop);
    // SB: r0 = r1 = 0 is weak; r0 = r1 = 1 interleaved.
    let sb = t("SB");
    assert_eq!(
        class(&sb, all(vec![eq(reg(0, 0), 0), eq(reg(1, 0), 0)])),
        Class::Weak
    );
    assert_eq!(
        class(&sb, all(vec![eq(reg(0, 0), 1), eq(reg(1, 0), 1)])),
        Class::Interleaved
    );
    assert_eq!(
        class(&sb, all(vec![eq(reg(0, 0), 0), eq(reg(1, 0), 1)])),
        Class::Seq
    );
    // LB: r0 = r1 = 1 is weak; 0, 0 interleaved.
    let lb = t("LB");
    assert_eq!(
        class(&lb, all(vec![eq(reg(0, 0), 1), eq(reg(1, 0), 1)])),
        Class::Weak
    );
    assert_eq!(
        class(&lb, all(vec![eq(reg(0, 0), 0), eq(reg(1, 0), 0)])),
        Class::Interleaved
    );
    // S: r0 = 1 and x = 2 is weak.
    let s = t("S");
    assert_eq!(
        class(&s, all(vec![eq(reg(1, 0), 1), eq(mem(0), 2)])),
        Class::Weak
    );
    assert_eq!(
        class(&s, all(vec![eq(reg(1, 0), 0), eq(mem(0), 1)])),
        Class::Interleaved
    );
    // R: r0 = 0 and y = 2 is weak (x is location 0, y location 1).
    let r = t("R");
    assert_eq!(
        class(&r, all(vec![eq(reg(1, 0), 0), eq(mem(1), 2)])),
        Class::Weak
    );
    assert_eq!(
        class(&r, all(vec![eq(reg(1, 0), 1), eq(mem(1), 1)])),
        Class::Interleaved
    );
    // 2+2W: x = y = 2 is weak; x = y = 1 interleaved.
    let w = t("2+2W");
    assert_eq!(
        class(&w, all(vec![eq(mem(0), 2), eq(mem(1), 2)])),
        Class::Weak
    );
    assert_eq!(
        class(&w, all(vec![eq(mem(0), 1), eq(mem(1), 1)])),
        Class::Interleaved
    );
    assert_eq!(
        class(&w, all(vec![eq(mem(0), 1), eq(mem(1), 2)])),
        Class::Seq
    );
    // MP-CO: r0 > r1 is weak; (1, 1) interleaved.
    let co = t("MP-CO");
    let gt = Prop::Cmp(reg(1, 0), CmpOp::Gt, reg(1, 1));
    assert_eq!(class(&co, gt), Class::Weak);
    assert_eq!(
        class(&co, all(vec![eq(reg(1, 0), 1), eq(reg(1, 1), 1)])),
        Class::Interleaved
    );
}

#[test]
fn gpu_ptx_programs_classify_through_pointers_predicates_and_rmws() {
    let sb = load(&corpus("paper000").join("SB.litmus"));
    let c = classify(&sb).unwrap();
    let r2 = |t, v| eq(reg(t, 1), v); // r2 is the second register declared.
    assert_eq!(c.class_of_prop(&all(vec![r2(0, 0), r2(1, 0)])), Class::Weak);
    assert_eq!(
        c.class_of_prop(&all(vec![r2(0, 1), r2(1, 1)])),
        Class::Interleaved
    );
    assert_eq!(c.class_of_prop(&all(vec![r2(0, 0), r2(1, 1)])), Class::Seq);
    // cas-sl: once T1's CAS takes the lock (r1 = 0) its guarded load reads 1.
    let cas = load(&corpus("paper000").join("cas-sl.litmus"));
    let c = classify(&cas).unwrap();
    assert_eq!(
        c.class_of_prop(&all(vec![eq(reg(1, 0), 0), eq(reg(1, 2), 1)])),
        Class::Seq
    );
    assert_eq!(c.class_of_prop(&eq(reg(1, 0), 1)), Class::Seq);
    // dlb-lb: the CAS that loses reads 1.
    let lb = load(&corpus("paper000").join("dlb-lb.litmus"));
    let c = classify(&lb).unwrap();
    assert_eq!(
        c.class_of_prop(&all(vec![eq(reg(0, 0), 1), eq(reg(1, 1), 0)])),
        Class::Seq
    );
}

#[test]
fn barriers_synchronise_threads_of_one_workgroup() {
    let intra = r#"{"testName": "MP-bar", "testType": "intra_workgroup", "threads": [
      {"actions": [{"action": "write", "memoryLocation": "x", "value": 1}, {"action": "barrier"},
                   {"action": "write", "memoryLocation": "y", "value": 1}]},
      {"actions": [{"action": "read", "memoryLocation": "y", "variable": "r0"}, {"action": "barrier"},
                   {"action": "read", "memoryLocation": "x", "variable": "r1"}]}]}"#;
    let (_, c) = classified(intra);
    // Only r0 = 0, r1 = 1, and no thread can run to its end before the other starts.
    assert_eq!(
        c.project(&[reg(1, 0), reg(1, 1)]),
        vec![(vec![0, 1], Class::Interleaved)]
    );
    // Across workgroups the barrier does not synchronise: MP's usual classes.
    let inter = intra.replace("intra_workgroup", "inter_workgroup");
    let (_, c) = classified(&inter);
    assert_eq!(c.project(&[reg(1, 0), reg(1, 1)]).len(), 3);
}

#[test]
fn loops_are_classified_when_they_access_memory() {
    // A spin that never ends reaches no final state under SC: no outcome at all.
    let src = "GPU_PTX loop\n{ x=0; }\n T0 ;\n L0: ;\n ld.cg.s32 r0,[x] ;\n bra L0 ;\nScopeTree(grid(cta(warp T0)))\nx: global\nexists (0:r0=1)\n";
    let p = parse(src).unwrap();
    assert!(classify(&p).unwrap().is_empty());
    // And the JSON printer explains why it cannot list the behaviors.
    let e = print(&p, Format::Json).unwrap_err();
    assert!(
        e.message.contains("label") || e.message.contains("loop"),
        "{e}"
    );
    // A loop with no memory access in it would run forever between two steps: refused.
    let local = "GPU_PTX local\n{ x=0; }\n T0 ;\n L0: ;\n add.s32 r0, r0, 1 ;\n bra L0 ;\nScopeTree(grid(cta(warp T0)))\nx: global\nexists (0:r0=1)\n";
    let e = classify(&parse(local).unwrap()).unwrap_err();
    assert!(e.message.contains("loop without memory accesses"), "{e}");
    // A test-and-set spin lock around a plain increment (tests/corpus/locks, paper 001
    // §5.3): under SC the lock excludes, so x == 2 in every outcome, and each thread
    // running alone in turn reaches both outcomes (by hand: whoever goes first reads 0).
    let tas = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/locks/TAS-UF.litmus"),
    )
    .unwrap();
    let p = parse(&tas).unwrap();
    let c = classify(&p).unwrap();
    let x = p.locations.iter().position(|l| l.name == "x").unwrap();
    let x = Term::Mem {
        loc: LocId(x as u32),
        index: 0,
    };
    assert_eq!(c.project(&[x]), vec![(vec![2], Class::Seq)]);
    let r1 = p.threads[0]
        .regs
        .iter()
        .position(|r| r.name == "r1")
        .unwrap() as u32;
    assert_eq!(
        c.project(&[reg(0, r1), reg(1, r1)]),
        vec![(vec![0, 1], Class::Seq), (vec![1, 0], Class::Seq)]
    );
}

// ----- Fig. 12 -----

#[test]
fn fig12_parses_to_the_documented_ir() {
    let p = load(&corpus("paper000").join("SB.litmus"));
    assert_eq!(p.name, "SB");
    let names: Vec<&str> = p.locations.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["x", "y"]);
    assert_eq!(p.locations[0].space, MemSpace::Shared);
    assert_eq!(p.locations[1].space, MemSpace::Global);
    assert_eq!(
        p.threads[0].placement,
        Placement::new(vec![(Scope::Warp, 0), (Scope::Cta, 0), (Scope::Gpu, 0)])
    );
    assert_eq!(
        p.threads[1].placement,
        Placement::new(vec![(Scope::Warp, 1), (Scope::Cta, 0), (Scope::Gpu, 0)])
    );
    let t0 = &p.threads[0];
    assert_eq!(t0.name, "T0");
    let regs: Vec<(&str, Option<DataType>, Option<Value>)> = t0
        .regs
        .iter()
        .map(|r| (r.name.as_str(), r.ty, r.init))
        .collect();
    assert_eq!(
        regs,
        [
            ("r0", Some(DataType::S32), None),
            ("r2", Some(DataType::S32), None),
            ("r1", Some(DataType::B64), Some(Value::Addr(LocId(0)))),
            ("r3", Some(DataType::B64), Some(Value::Addr(LocId(1)))),
        ]
    );
    assert_eq!(p.threads[1].regs[2].init, Some(Value::Addr(LocId(1))));
    let r = |n: &str| t0.reg_by_name(n).unwrap();
    match &t0.code[0].kind {
        StmtKind::Assign { dst, value } => {
            assert_eq!(*dst, r("r0"));
            assert_eq!(*value, Expr::Int(1));
        }
        k => panic!("mov: {k:?}"),
    }
    match &t0.code[1].kind {
        StmtKind::Store(s) => {
            assert_eq!(s.addr, Expr::Reg(r("r1")));
            assert_eq!(s.value, Expr::Reg(r("r0")));
            assert_eq!(s.attrs.cache, Some(CacheOp::Cg));
            assert_eq!(s.attrs.ty, Some(DataType::S32));
            assert_eq!(s.attrs.order, Order::Plain);
        }
        k => panic!("st: {k:?}"),
    }
    match &t0.code[2].kind {
        StmtKind::Load(l) => {
            assert_eq!(l.dst, r("r2"));
            assert_eq!(l.addr, Expr::Reg(r("r3")));
        }
        k => panic!("ld: {k:?}"),
    }
    assert_eq!(t0.code[2].span.line, 9);
    let c = p.condition.unwrap();
    assert_eq!(c.quantifier, Quantifier::Exists);
    assert_eq!(c.prop, Prop::and(eq(reg(0, 1), 0), eq(reg(1, 1), 0)));
}

#[test]
fn predicates_cas_and_fences_lower_as_documented() {
    let p = load(&corpus("paper000").join("dlb-mp+fences.litmus"));
    let t1 = &p.threads[1];
    let p4 = t1.reg_by_name("p4").unwrap();
    assert_eq!(t1.regs[p4.index()].ty, Some(DataType::PRED));
    match &t1.code[1].kind {
        StmtKind::Assign { dst, value } => {
            assert_eq!(*dst, p4);
            assert_eq!(
                *value,
                Expr::bin(
                    BinOp::Eq,
                    Expr::Reg(t1.reg_by_name("r0").unwrap()),
                    Expr::Int(0)
                )
            );
        }
        k => panic!("setp: {k:?}"),
    }
    assert_eq!(
        t1.code[2].guard,
        Some(Guard {
            reg: p4,
            negated: true
        })
    );
    match &t1.code[2].kind {
        StmtKind::Fence(f) => {
            assert_eq!(f.kind, weft_ir::FenceKind::Membar);
            assert_eq!(f.attrs.scope, Some(Scope::Gpu));
            assert_eq!(f.attrs.order, Order::SeqCst);
        }
        k => panic!("membar: {k:?}"),
    }
    match &p.threads[0].code[3].kind {
        StmtKind::Assign { value, .. } => assert!(matches!(value, Expr::Bin(BinOp::Add, _, _))),
        k => panic!("add: {k:?}"),
    }
    let cas = load(&corpus("paper000").join("cas-sl.litmus"));
    match &cas.threads[1].code[0].kind {
        StmtKind::Rmw(r) => {
            assert_eq!(r.op, RmwOp::Cas);
            assert_eq!(r.args, vec![Expr::Int(0), Expr::Int(1)]);
            assert_eq!(r.attrs.ty, Some(DataType::B32));
        }
        k => panic!("atom.cas: {k:?}"),
    }
    assert_eq!(cas.locations[1].init, Value::Int(1));
    let vol = load(&corpus("paper000").join("mp-volatile.litmus"));
    match &vol.threads[1].code[0].kind {
        StmtKind::Load(l) => assert!(l.attrs.volatile && l.attrs.cache.is_none()),
        k => panic!("ld.volatile: {k:?}"),
    }
    assert!(vol.locations.iter().all(|l| l.space == MemSpace::Shared));
}

// ----- printing across formats -----

const DAT3M_MP: &str = "PTX MP\n{\nx=0;\ny=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.relaxed.gpu r0, y ;\n fence.sc.gpu | fence.sc.gpu ;\n st.relaxed.gpu y, 1 | ld.volatile r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

#[test]
fn dat3m_ptx_prints_as_gpu_ptx_when_expressible() {
    let p = parse(DAT3M_MP).unwrap();
    let text = gpuptx::print(&p).unwrap();
    assert!(text.contains("ld.relaxed.gpu r0,[y]"), "{text}");
    assert!(text.contains("fence.sc.gpu"), "{text}");
    assert!(text.contains("ld.volatile r1,[x]"), "{text}");
    assert!(text.contains("ScopeTree(grid(cta P0) (cta P1))"), "{text}");
    let q = parse(&text).unwrap();
    assert_eq!(q.arch, weft_ir::Arch::GpuPtx);
    assert_eq!(q.threads[1].placement, p.threads[1].placement);
    for (a, b) in p.threads.iter().zip(&q.threads) {
        assert_eq!(a.code.len(), b.code.len());
        for (s, t) in a.code.iter().zip(&b.code) {
            assert_eq!(s.kind, t.kind);
        }
    }
    // Acquire/release accesses, acq_rel fences and proxies are refused with a reason.
    for (from, to, what) in [
        ("ld.relaxed.gpu r0, y", "ld.acquire.gpu r0, y", "acquire"),
        ("st.relaxed.gpu y, 1", "st.release.gpu y, 1", "release"),
        (
            "fence.sc.gpu | fence.sc.gpu",
            "fence.acq_rel.gpu | fence.sc.gpu",
            "acq_rel",
        ),
    ] {
        let p = parse(&DAT3M_MP.replace(from, to)).unwrap();
        let e = gpuptx::print(&p).unwrap_err();
        assert!(
            e.message.contains("GPU_PTX cannot express") && e.message.contains(what),
            "{e}"
        );
    }
}

#[test]
fn json_of_a_gpu_ptx_test_lists_its_classified_behaviors() {
    let p = load(&corpus("paper000").join("coRR.litmus"));
    let text = print(&p, Format::Json).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let b = v["behaviors"].as_object().unwrap();
    let mut classes: Vec<(&str, &str)> = b
        .iter()
        .map(|(k, v)| (k.as_str(), v["class"].as_str().unwrap()))
        .collect();
    classes.sort();
    assert_eq!(
        classes,
        [
            ("interleaved", "interleaved"),
            ("seq0", "seq"),
            ("seq1", "seq"),
            ("weak", "weak")
        ]
    );
    // Printed in class order: seq, interleaved, weak.
    let order: Vec<usize> = ["\"seq0\"", "\"seq1\"", "\"interleaved\"", "\"weak\""]
        .iter()
        .map(|k| text.find(k).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    // The weak behavior is the paper's final condition r1=1 /\ r2=0.
    let weak = &b["weak"]["conditions"];
    assert_eq!(weak[0]["id"], "r1");
    assert_eq!(weak[0]["value"], 1);
    assert_eq!(weak[1]["id"], "r2");
    assert_eq!(weak[1]["value"], 0);
    // The JSON re-parses with the same accesses, annotations and condition.
    let q = parse(&text).unwrap();
    assert_eq!(
        q.condition.as_ref().unwrap().prop,
        p.condition.as_ref().unwrap().prop
    );
    assert_eq!(q.threads[1].code[0].kind, p.threads[1].code[0].kind);
    assert_eq!(q.threads[1].placement, p.threads[1].placement);
}

#[test]
fn json_extensions_round_trip() {
    let src = r#"{
  "testName": "ext",
  "doc": ["a test using weft's extensions"],
  "memoryType": "atomic_workgroup",
  "memory": [
    {"name": "m", "init": 1, "space": "storage"},
    {"name": "x"}
  ],
  "threads": [
    {"name": "A", "placement": {"workgroup": 0, "device": 0},
     "registers": [{"name": "k", "init": 7}],
     "actions": [
      {"action": "rmw", "op": "cas", "memoryLocation": "m", "expected": 1, "value": 0, "variable": "r0", "memoryOrder": "acq_rel"},
      {"action": "fence", "memoryOrder": "seq_cst", "memoryScope": "workgroup", "space": ["storage", "workgroup"]},
      {"action": "write", "memoryLocation": "x", "value": 3, "memoryScope": "device"}
    ]},
    {"name": "B", "placement": {"subgroup": 1, "workgroup": 0, "device": 0},
     "actions": [
      {"action": "read", "memoryLocation": "x", "variable": "r0", "memoryOrder": "plain"},
      {"action": "barrier", "memoryOrder": "release", "space": "storage"},
      {"action": "rmw", "op": "inc", "memoryLocation": "m", "value": 5},
      {"action": "fence", "kind": "membar", "memoryScope": "system"}
    ]}
  ],
  "condition": {"quantifier": "forall", "postcondition":
    {"type": "op", "op": "or", "conditions": [
      {"type": "variable", "id": "r0", "thread": 1, "cmp": "<=", "value": 3},
      {"type": "op", "op": "not", "conditions": [{"type": "memory", "id": "m", "value": {"type": "variable", "id": "k"}}]},
      {"type": "true"}
    ]}}
}"#;
    let p = parse(src).unwrap();
    assert_eq!(p.locations[0].init, Value::Int(1));
    assert_eq!(p.locations[0].space, MemSpace::Global);
    assert_eq!(p.locations[1].space, MemSpace::Shared);
    assert_eq!(p.threads[0].regs[0].init, Some(Value::Int(7)));
    match &p.threads[0].code[0].kind {
        StmtKind::Rmw(r) => {
            assert_eq!(r.op, RmwOp::Cas);
            assert_eq!(r.args, vec![Expr::Int(1), Expr::Int(0)]);
            assert_eq!(r.attrs.order, Order::AcqRel);
            assert_eq!(r.attrs.scope, Some(Scope::Gpu));
        }
        k => panic!("{k:?}"),
    }
    match &p.threads[0].code[2].kind {
        StmtKind::Store(s) => assert_eq!(s.attrs.scope, Some(Scope::Gpu)),
        k => panic!("{k:?}"),
    }
    match &p.threads[1].code[0].kind {
        StmtKind::Load(l) => assert_eq!((l.attrs.order, l.attrs.scope), (Order::Plain, None)),
        k => panic!("{k:?}"),
    }
    match &p.threads[1].code[2].kind {
        // Workgroup memory: the default scope of an atomic is the workgroup.
        StmtKind::Rmw(r) => assert_eq!(r.attrs.scope, Some(Scope::Gpu)),
        k => panic!("{k:?}"),
    }
    assert_eq!(p.condition.as_ref().unwrap().quantifier, Quantifier::Forall);
    let text = print_native(&p).unwrap();
    let q = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(p, q, "{text}");
    assert_eq!(print_native(&q).unwrap(), text);
    // The condition is not a weak behavior, so it is written out.
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["condition"]["quantifier"], "forall");
    assert_eq!(v["behaviors"]["weak"]["type"], "else");
}

#[test]
fn gpuharbor_legacy_fields_and_else_behaviors() {
    let src = r#"{"testName": "wg", "sameWorkgroup": true, "workgroupMemory": true, "threads": [
      {"actions": [{"action": "write", "memoryLocation": "x", "value": 1}]},
      {"actions": [{"action": "read", "memoryLocation": "x", "variable": "r0"}]}],
      "behaviors": {"seq0": {"type": "variable", "id": "r0", "value": 0},
                    "seq1": {"type": "variable", "id": "r0", "value": 1},
                    "weak": {"type": "else"}}}"#;
    let p = parse(src).unwrap();
    assert_eq!(p.locations[0].space, MemSpace::Shared);
    assert_eq!(
        p.threads[1].placement,
        Placement::new(vec![(Scope::Cta, 0), (Scope::Gpu, 0)])
    );
    // weak = anything but the listed behaviors.
    let c = p.condition.as_ref().unwrap();
    assert!(matches!(c.prop, Prop::Not(_)));
    assert_eq!(classify(&p).unwrap().class_of_prop(&c.prop), Class::Weak);
    let text = print_native(&p).unwrap();
    assert_eq!(parse(&text).unwrap(), p, "{text}");
}

// ----- malformed input -----

fn err(src: &str) -> ParseError {
    match parse(src) {
        Ok(p) => panic!("parsed:\n{src}\n{p:#?}"),
        Err(e) => e,
    }
}

fn assert_err(src: &str, line: u32, col: u32, needle: &str) {
    let e = err(src);
    assert_eq!((e.line, e.col), (line, col), "{e}\n{src}");
    assert!(e.message.contains(needle), "`{needle}` not in: {e}");
}

const GOOD: &str = "GPU_PTX t\n{ x=0; 1:.reg .s32 r1; }\n T0 | T1 ;\n st.cg.s32 [x],1 | ld.cg.s32 r1,[x] ;\nScopeTree(grid(cta(warp T0) (warp T1)))\nx: global\nexists (1:r1=1)\n";

#[test]
fn malformed_gpu_ptx_points_at_the_offending_token() {
    assert!(parse(GOOD).is_ok());
    // Unknown instruction.
    assert_err(
        &GOOD.replace("ld.cg.s32 r1,[x]", "frob.s32 r1,[x]"),
        4,
        20,
        "unknown instruction",
    );
    assert_err(&GOOD.replace("ld.cg.s32", "ld.xx.s32"), 4, 20, ".xx");
    assert_err(
        &GOOD.replace("ld.cg.s32", "ld.acquire.s32"),
        4,
        20,
        "acquire",
    );
    // Bad scope trees.
    assert_err(&GOOD.replace("(warp T1)", "(galaxy T1)"), 5, 30, "galaxy");
    assert_err(
        &GOOD.replace("cta(warp T0) (warp T1)", "warp(cta T0 T1)"),
        5,
        21,
        "nested",
    );
    assert_err(&GOOD.replace(" (warp T1)", ""), 5, 1, "T1");
    assert_err(&GOOD.replace("(warp T1)", "(warp T1 T0)"), 5, 38, "twice");
    assert_err(&GOOD.replace("(warp T1)", "(warp T9)"), 5, 35, "T9");
    assert_err(
        &GOOD.replace("ScopeTree(grid", "ScopeTree grid"),
        5,
        11,
        "`(`",
    );
    // Undeclared locations: in code and in the condition (a register initialiser such as
    // `.reg .b64 r1 = q` declares `q`).
    assert_err(
        &GOOD.replace("ld.cg.s32 r1,[x]", "ld.cg.s32 r1,[z]"),
        4,
        34,
        "undeclared location `z`",
    );
    assert_err(
        &GOOD.replace("exists (1:r1=1)", "exists (1:r1=1 /\\ zz=2)"),
        7,
        19,
        "zz",
    );
    // Duplicate register (the file of tests/malformed).
    let dup = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/malformed/gpuptx-duplicate-register.litmus"),
    )
    .unwrap();
    assert_err(&dup, 3, 1, "r0");
    assert_err(
        &GOOD.replace("1:.reg .s32 r1;", "1:.reg .s32 r1; T1:.reg .s32 r1;"),
        2,
        24,
        "r1",
    );
    // A register and a location may not share a name (`[r1]` would be ambiguous).
    assert_err(
        &GOOD.replace("1:.reg .s32 r1;", "1:.reg .s32 r1; 0:.reg .b64 r5 = r1;"),
        2,
        8,
        "both",
    );
    // Conditions.
    assert_err(&GOOD.replace("1:r1=1", "1:r9=1"), 7, 11, "r9");
    assert_err(&GOOD.replace("1:r1=1", "5:r1=1"), 7, 9, "no thread 5");
    assert_err(
        &GOOD.replace("exists (1:r1=1)\n", "exists (1:r1=1"),
        7,
        15,
        "`)`",
    );
    // Rows and header.
    assert_err(
        &GOOD.replace(" | ld.cg.s32 r1,[x] ;", " ;"),
        4,
        18,
        "column",
    );
    assert_err(&GOOD.replace("GPU_PTX t", "GPU_PTXX t"), 1, 1, "GPU_PTX");
    assert_err(&GOOD.replace("T0 | T1", "T0 | T0"), 3, 7, "twice");
    assert_err(
        &GOOD.replace("x: global", "x: galactic"),
        6,
        4,
        "unknown memory space `galactic`",
    );
    assert_err(
        &GOOD.replace("x: global", "x: global, z"),
        6,
        12,
        "memory map entry",
    );
    assert_err(&GOOD.replace("[x],1", "[x],r7"), 4, 16, "r7");
    assert_err("GPU_PTX t\n{ x=0;\n", 3, 1, "end of input");
    assert_err("GPU_PTX t\n", 2, 1, "`{`");
}

#[test]
fn malformed_json_points_at_the_offending_value() {
    assert!(parse(MP).is_ok());
    // Truncated input (the file of tests/malformed): serde_json's position and message.
    let trunc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/malformed/truncated.json"),
    )
    .unwrap();
    let e = err(&trunc);
    assert_eq!((e.line, e.col), (1, 31), "{e}");
    assert!(e.message.contains("EOF"), "{e}");
    // Wrong JSON types, at serde_json's positions (the end of the offending token).
    assert_err(
        &MP.replace("\"value\": 1}", "\"value\": \"1\"}"),
        2,
        70,
        "invalid type",
    );
    assert_err(
        &MP.replace("\"threads\": [", "\"threads\": {\"a\": ["),
        1,
        30,
        "invalid type",
    );
    assert_err(r#"{"testName": 5, "threads": []}"#, 1, 14, "invalid type");
    // Unknown fields and missing ones.
    assert_err(
        &MP.replace("\"variable\": \"r0\"", "\"varaible\": \"r0\""),
        4,
        67,
        "varaible",
    );
    assert_err(r#"{"threads": []}"#, 1, 15, "testName");
    // Semantic errors point at the first character of the offending value (or key).
    assert_err(
        &MP.replace(
            "\"action\": \"read\", \"memoryLocation\": \"y\"",
            "\"action\": \"load\", \"memoryLocation\": \"y\"",
        ),
        4,
        27,
        "unknown action `load`",
    );
    assert_err(
        &MP.replace(
            "\"value\": 1}]}",
            "\"value\": 1, \"memoryOrder\": \"weakest\"}]}",
        ),
        3,
        86,
        "weakest",
    );
    assert_err(
        &MP.replace(
            "\"value\": 1}]}",
            "\"value\": 1, \"memoryOrder\": \"acquire\"}]}",
        ),
        3,
        86,
        "cannot be acquire",
    );
    assert_err(
        &MP.replace("\"value\": 1}]}", "\"value\": 1, \"variable\": \"r9\"}]}"),
        3,
        71,
        "does not apply",
    );
    let with_behavior =
        |b: &str| MP.replace("}]}]}", &format!("}}]}}],\n\"behaviors\": {{{b}}}}}"));
    assert_err(
        &with_behavior(r#""weak": {"type": "memory", "id": "z", "value": 1}"#),
        6,
        48,
        "unknown memoryLocation `z`",
    );
    assert_err(
        &with_behavior(r#""weak": {"type": "variable", "id": "r7", "value": 1}"#),
        6,
        50,
        "unknown variable `r7`",
    );
    assert_err(
        &with_behavior(r#""odd": {"type": "variable", "id": "r0", "value": 1}"#),
        6,
        15,
        "class",
    );
    assert_err(
        &with_behavior(r#""weak": {"type": "op", "op": "xor", "conditions": []}"#),
        6,
        44,
        "unknown op",
    );
    assert_err(
        &with_behavior(r#""weak": {"type": "op", "op": "and", "conditions": [{"type": "else"}]}"#),
        6,
        75,
        "else",
    );
    assert_err(
        &with_behavior(r#""weak": {"type": "variable", "id": "r0", "value": [1]}"#),
        6,
        65,
        "value",
    );
    assert_err(
        &MP.replace(
            "\"testName\": \"MP\",",
            "\"testName\": \"MP\", \"testType\": \"sideways\",",
        ),
        1,
        32,
        "sideways",
    );
}

/// Every prefix of every corpus file, and a few mangled variants, parse or fail cleanly.
#[test]
fn truncated_and_mangled_inputs_never_panic() {
    let mut inputs: Vec<String> = Vec::new();
    for dir in ["paper000", "gpuharbor"] {
        for f in tests_in(dir) {
            let src = std::fs::read_to_string(&f).unwrap();
            for (i, _) in src.char_indices().step_by(3) {
                inputs.push(src[..i].to_string());
            }
            inputs.push(src.replace('1', "-9223372036854775808"));
            inputs.push(src.replace('(', "(("));
            inputs.push(src.replace(',', ""));
            inputs.push(src.replace("\"x\"", "\"\""));
        }
    }
    for s in &inputs {
        match parse(s) {
            Ok(p) => {
                if let Ok(text) = print_native(&p) {
                    let q = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(p, q, "{text}");
                }
            }
            Err(e) => assert!(e.line >= 1 && e.col >= 1),
        }
    }
    // Pathological nesting.
    let deep = format!(
        "GPU_PTX d\n{{ x=0; }}\n T0 ;\nexists {}0:r0=1{}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    assert!(parse(&deep).is_err());
    let deep = format!("{{\"testName\": \"d\", \"threads\": [], \"condition\": {{\"quantifier\": \"exists\", \"postcondition\": {}{}}}}}",
        "{\"type\": \"op\", \"op\": \"not\", \"conditions\": [".repeat(300), "{\"type\": \"true\"}".to_string() + &"]}".repeat(300));
    assert!(parse(&deep).is_err());
}

/// The examples of docs/formats.md parse, and the JSON one means what the text says.
#[test]
fn the_format_documentation_examples_parse() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/formats.md"),
    )
    .unwrap();
    let mut blocks = Vec::new();
    let mut cur: Option<String> = None;
    for line in doc.lines() {
        match (&mut cur, line.trim_start()) {
            (None, l) if l == "```json" || l == "```text" => cur = Some(String::new()),
            (Some(b), "```") => {
                blocks.push(std::mem::take(b));
                cur = None;
            }
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            _ => {}
        }
    }
    let programs: Vec<Program> = blocks
        .iter()
        .filter(|b| b.starts_with("GPU_PTX") || b.starts_with('{'))
        .map(|b| parse(b).unwrap_or_else(|e| panic!("{e}\n{b}")))
        .collect();
    assert_eq!(programs.len(), 2);
    let fig12 = load(&corpus("paper000").join("SB.litmus"));
    assert_eq!(programs[0], fig12);
    let mp = &programs[1];
    assert_eq!(
        mp.threads[1].placement,
        Placement::new(vec![(Scope::Cta, 1), (Scope::Gpu, 0)])
    );
    assert_eq!(
        mp.condition.as_ref().unwrap().prop,
        Prop::and(eq(reg(1, 0), 1), eq(reg(1, 1), 0))
    );
    assert_eq!(mp, &load(&corpus("gpuharbor").join("MP.json")));
}
