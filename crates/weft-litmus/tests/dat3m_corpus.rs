//! Dat3M PTX and Vulkan dialects: every test of the shared corpus parses, prints in its
//! own dialect and re-parses to the same IR; the IR of representative instructions is what
//! the PTX ISA and the Vulkan memory model say (facts written down below); malformed input
//! fails with the expected position and never panics; other architectures print when they
//! can, and their printed form is a fixed point.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use weft_ir::*;
use weft_litmus::dat3m::{lower_for_ptx, lower_for_vulkan, print_ptx, print_vulkan};
use weft_litmus::{parse, parse_bytes, print_native, ParseError};

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/dat3m/litmus")
}

fn litmus_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
        .collect();
    v.sort();
    v
}

fn printed(p: &Program) -> String {
    match p.arch {
        Arch::Ptx => print_ptx(p),
        Arch::Vulkan => print_vulkan(p),
        a => panic!("not a Dat3M program: {a:?}"),
    }
    .unwrap_or_else(|e| panic!("{}: cannot print: {e}", p.name))
}

#[test]
fn whole_ptx_and_vulkan_corpus_round_trips() {
    let root = corpus_root();
    if !root.exists() {
        eprintln!("skipping: {} not found", root.display());
        return;
    }
    let mut files = litmus_files(&root.join("PTX"));
    let n_ptx = files.len();
    files.extend(litmus_files(&root.join("VULKAN")));
    let n_vulkan = files.len() - n_ptx;
    let (mut failures, mut ok, mut crossed) = (Vec::new(), 0usize, 0usize);
    for f in &files {
        let name = f.display().to_string();
        let src = std::fs::read_to_string(f).expect("readable");
        let p = match parse(&src) {
            Ok(p) => p,
            Err(e) => {
                failures.push(e.render(&name));
                continue;
            }
        };
        let lowered = match p.arch {
            Arch::Ptx => lower_for_ptx(&p),
            _ => lower_for_vulkan(&p),
        };
        if lowered.as_ref() != Ok(&p) {
            failures.push(format!(
                "{name}: lowering for its own dialect changed the program"
            ));
        }
        let text = match print_native(&p) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{name}: cannot print: {e}"));
                continue;
            }
        };
        match parse(&text) {
            Ok(q) if q == p => {
                if printed(&q) != text {
                    failures.push(format!("{name}: printing is not a fixed point"));
                } else {
                    ok += 1;
                }
            }
            Ok(_) => failures.push(format!("{name}: re-parsed IR differs:\n{text}")),
            Err(e) => failures.push(format!("{name}: printed text does not parse: {e}\n{text}")),
        }
        // The other dialect, when it can express the test: its text is a fixed point.
        let other = if p.arch == Arch::Ptx {
            print_vulkan(&p)
        } else {
            print_ptx(&p)
        };
        if let Ok(t) = other {
            crossed += 1;
            match parse(&t) {
                Ok(q) if printed(&q) == t => {}
                Ok(_) => {
                    failures.push(format!("{name}: converted text is not a fixed point:\n{t}"))
                }
                Err(e) => failures.push(format!("{name}: converted text does not parse: {e}\n{t}")),
            }
        }
    }
    eprintln!(
        "{ok}/{} round-tripped ({n_ptx} PTX, {n_vulkan} Vulkan); {crossed} converted to the other dialect",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        n_ptx >= 200 && n_vulkan >= 140,
        "corpus too small: {n_ptx} PTX, {n_vulkan} Vulkan"
    );
}

// ----- expected IR facts -----

fn ptx(body: &str) -> Program {
    let src = format!(
        "PTX t\n{{\nx=0;\ny=0;\n}}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n{body}\nexists (x == 0)\n"
    );
    parse(&src).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn vulkan(body: &str) -> Program {
    let src = format!(
        "VULKAN t\n{{\nx=0;\ny=0;\n}}\n P0@sg 0,wg 0, qf 0 | P1@sg 1,wg 0, qf 0 ;\n{body}\nexists (x == 0)\n"
    );
    parse(&src).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn first(p: &Program, t: usize) -> &StmtKind {
    &p.threads[t].code[0].kind
}

fn reg(p: &Program, t: usize, name: &str) -> Reg {
    p.threads[t]
        .reg_by_name(name)
        .unwrap_or_else(|| panic!("no {name}"))
}

fn roundtrip(p: &Program) {
    let text = printed(p);
    let q = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&q, p, "{text}");
}

#[test]
fn ptx_atomics() {
    let p = ptx(
        " atom.acq_rel.gpu.add r1, x, 1 | atom.relaxed.gpu.cas r0, x, 0, 1 ;\n red.acq_rel.sys.sub y, r1 | atom.acquire.cta.exch r2, y, 3 ;",
    );
    let x = p.loc_by_name("x").unwrap();
    let StmtKind::Rmw(r) = first(&p, 0) else {
        panic!()
    };
    assert_eq!(r.dst, Some(reg(&p, 0, "r1")));
    assert_eq!(
        (r.op, r.addr.clone(), r.args.clone()),
        (RmwOp::Add, Expr::Addr(x), vec![Expr::Int(1)])
    );
    assert_eq!(r.attrs, MemAttrs::scoped(Order::AcqRel, Scope::Gpu));
    let StmtKind::Rmw(r) = first(&p, 1) else {
        panic!()
    };
    assert_eq!(
        (r.op, r.args.clone()),
        (RmwOp::Cas, vec![Expr::Int(0), Expr::Int(1)])
    );
    assert_eq!(r.attrs, MemAttrs::scoped(Order::Relaxed, Scope::Gpu));
    let StmtKind::Rmw(r) = &p.threads[0].code[1].kind else {
        panic!()
    };
    assert_eq!((r.dst, r.op), (None, RmwOp::Sub), "red has no destination");
    assert_eq!(r.args, vec![Expr::Reg(reg(&p, 0, "r1"))]);
    assert_eq!(r.attrs, MemAttrs::scoped(Order::AcqRel, Scope::System));
    let StmtKind::Rmw(r) = &p.threads[1].code[1].kind else {
        panic!()
    };
    assert_eq!(
        (r.op, r.attrs.order, r.attrs.scope),
        (RmwOp::Exch, Order::Acquire, Some(Scope::Cta))
    );
    roundtrip(&p);
}

#[test]
fn ptx_loads_stores_and_proxies() {
    let p = ptx(" ld.weak r0, x | st.release.gpu x, r5 ;\n ld.relaxed r1, y | ld.volatile r2, y ;\n sust.weak x, 2 | suld.weak r3, x ;\n tld.weak r4, y | cold.weak r6, y ;");
    let t0 = &p.threads[0].code;
    let t1 = &p.threads[1].code;
    let StmtKind::Load(l) = &t0[0].kind else {
        panic!()
    };
    assert_eq!(l.attrs, MemAttrs::with_order(Order::Plain));
    let StmtKind::Store(s) = &t1[0].kind else {
        panic!()
    };
    assert_eq!(s.attrs, MemAttrs::scoped(Order::Release, Scope::Gpu));
    assert_eq!(s.value, Expr::Reg(reg(&p, 1, "r5")));
    let StmtKind::Load(l) = &t0[1].kind else {
        panic!()
    };
    assert_eq!(
        l.attrs,
        MemAttrs::scoped(Order::Relaxed, Scope::System),
        "PTX default scope is .sys"
    );
    let StmtKind::Load(l) = &t1[1].kind else {
        panic!()
    };
    assert!(l.attrs.volatile && l.attrs.order == Order::Plain && l.attrs.scope.is_none());
    let StmtKind::Store(s) = &t0[2].kind else {
        panic!()
    };
    assert_eq!(
        (s.attrs.proxy, s.value.clone()),
        (Proxy::Surface, Expr::Int(2))
    );
    let StmtKind::Load(l) = &t1[2].kind else {
        panic!()
    };
    assert_eq!(l.attrs.proxy, Proxy::Surface);
    let StmtKind::Load(l) = &t0[3].kind else {
        panic!()
    };
    assert_eq!(l.attrs.proxy, Proxy::Texture);
    let StmtKind::Load(l) = &t1[3].kind else {
        panic!()
    };
    assert_eq!(l.attrs.proxy, Proxy::Constant);
    assert!(print_ptx(&p).unwrap().contains("ld.relaxed.sys r1, y"));
    roundtrip(&p);
}

#[test]
fn ptx_fences_and_barriers() {
    let p = ptx(
        " fence.sc.cta | fence.acq_rel.sys ;\n membar.gl | membar.cta ;\n fence.proxy.alias | fence.proxy.texture ;\n bar.cta.sync 1 | bar.cta.sync 1, 1, 2 ;\n bar.cta.arrive 0 | bar.cta.sync 1, r2 ;",
    );
    let fence = |t: usize, i: usize| match &p.threads[t].code[i].kind {
        StmtKind::Fence(f) => f.clone(),
        k => panic!("{k:?}"),
    };
    assert_eq!(
        (fence(0, 0).kind, fence(0, 0).attrs),
        (
            FenceKind::Fence,
            MemAttrs::scoped(Order::SeqCst, Scope::Cta)
        )
    );
    assert_eq!(
        fence(1, 0).attrs,
        MemAttrs::scoped(Order::AcqRel, Scope::System)
    );
    assert_eq!(
        (fence(0, 1).kind, fence(0, 1).attrs.scope),
        (FenceKind::Membar, Some(Scope::Gpu))
    );
    assert_eq!(fence(1, 1).attrs.scope, Some(Scope::Cta));
    assert_eq!(fence(0, 2).kind, FenceKind::ProxyFence(None));
    assert_eq!(
        fence(1, 2).kind,
        FenceKind::ProxyFence(Some(Proxy::Texture))
    );
    let bar = |t: usize, i: usize| match &p.threads[t].code[i].kind {
        StmtKind::Barrier(b) => b.clone(),
        k => panic!("{k:?}"),
    };
    let b = bar(0, 3);
    assert_eq!(
        (b.kind, b.scope, b.id, b.operands),
        (BarrierKind::Sync, Scope::Cta, Expr::Int(1), vec![])
    );
    assert_eq!(bar(1, 3).operands, vec![Expr::Int(1), Expr::Int(2)]);
    assert_eq!(
        (bar(0, 4).kind, bar(0, 4).id),
        (BarrierKind::Arrive, Expr::Int(0))
    );
    assert_eq!(bar(1, 4).operands, vec![Expr::Reg(reg(&p, 1, "r2"))]);
    assert_eq!(bar(0, 3).attrs, MemAttrs::default());
    roundtrip(&p);
}

#[test]
fn local_ops_labels_and_branches() {
    let p = ptx(
        " LC00: | add r3, 1, 0 ;\n ld.weak r1, x | sub r4, r3, r3 ;\n beq r1, 0, LC00 | ld r5, 7 ;\n bne r1, r2, LC01 | blt r5, 2, LC10 ;\n goto LC00 | LC10: ;\n LC01: | ;",
    );
    let t0 = &p.threads[0].code;
    assert_eq!(t0[0].kind, StmtKind::Label("LC00".into()));
    let (r1, r2) = (reg(&p, 0, "r1"), reg(&p, 0, "r2"));
    assert_eq!(
        t0[2].kind,
        StmtKind::Jump {
            target: "LC00".into(),
            cond: Some(Expr::bin(BinOp::Eq, Expr::Reg(r1), Expr::Int(0)))
        }
    );
    assert_eq!(
        t0[3].kind,
        StmtKind::Jump {
            target: "LC01".into(),
            cond: Some(Expr::bin(BinOp::Ne, Expr::Reg(r1), Expr::Reg(r2)))
        }
    );
    assert_eq!(
        t0[4].kind,
        StmtKind::Jump {
            target: "LC00".into(),
            cond: None
        }
    );
    let r3 = reg(&p, 1, "r3");
    assert_eq!(
        first(&p, 1),
        &StmtKind::Assign {
            dst: r3,
            value: Expr::bin(BinOp::Add, Expr::Int(1), Expr::Int(0))
        }
    );
    assert_eq!(
        p.threads[1].code[2].kind,
        StmtKind::Assign {
            dst: reg(&p, 1, "r5"),
            value: Expr::Int(7)
        }
    );
    roundtrip(&p);
}

#[test]
fn placements_registers_and_init() {
    let src = "PTX init\n\"first doc\"\n\"second\ndoc\"\n{\nx = 5;\nP1: r3 = 2; P0:r0=0;\ny @ generic aliases x;\ns @ surface aliases x;\nw aliases y;\nz=&x;\n}\n P0@cta 0,gpu 0 | P1@cta 1, gpu 0 ;\n ld.weak r1, y | ld.weak r0, d ;\nexists (0:r0 = 0 /\\ P1:r3 == 2 \\/ ~(d == 0))\n";
    let p = parse(src).unwrap();
    assert_eq!(
        p.doc,
        vec!["first doc".to_string(), "second\ndoc".to_string()]
    );
    assert_eq!(
        p.threads[0].placement.levels,
        vec![(Scope::Cta, 0), (Scope::Gpu, 0)]
    );
    assert_eq!(
        p.threads[1].placement.levels,
        vec![(Scope::Cta, 1), (Scope::Gpu, 0)]
    );
    let names: Vec<&str> = p.locations.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        ["x", "y", "s", "w", "z", "d"],
        "init order, then first use in code"
    );
    let x = p.loc_by_name("x").unwrap();
    let y = p.loc(p.loc_by_name("y").unwrap());
    assert_eq!(
        y.alias,
        Some(Alias {
            of: x,
            proxy: Some(Proxy::Generic)
        })
    );
    assert_eq!(
        y.init,
        Value::Int(5),
        "an alias starts with the value of its memory"
    );
    assert_eq!(
        p.loc(p.loc_by_name("s").unwrap())
            .alias
            .as_ref()
            .unwrap()
            .proxy,
        Some(Proxy::Surface)
    );
    assert_eq!(
        p.loc(p.loc_by_name("w").unwrap())
            .alias
            .as_ref()
            .unwrap()
            .proxy,
        None
    );
    assert_eq!(p.loc(p.loc_by_name("z").unwrap()).init, Value::Addr(x));
    assert_eq!(
        p.loc(p.loc_by_name("d").unwrap()).init,
        Value::Int(0),
        "used only in code: 0"
    );
    // Registers: initialised ones first, then by first use.
    let regs: Vec<(&str, Option<Value>)> = p.threads[0]
        .regs
        .iter()
        .map(|r| (r.name.as_str(), r.init))
        .collect();
    assert_eq!(regs, [("r0", Some(Value::Int(0))), ("r1", None)]);
    assert_eq!(p.threads[1].regs[0].init, Some(Value::Int(2)));
    let c = p.condition.as_ref().unwrap();
    assert_eq!(c.quantifier, Quantifier::Exists);
    let Prop::Or(a, b) = &c.prop else {
        panic!("\\/ binds weakest: {:?}", c.prop)
    };
    assert!(matches!(**a, Prop::And(..)));
    assert!(matches!(**b, Prop::Not(_)));
    roundtrip(&p);
}

#[test]
fn vulkan_accesses() {
    let p = vulkan(
        " ld.atom.acq.wg.sc1.semsc0.semsc1 r0, x | st.av.wg.sc1 y, 1 ;\n ld.vis.dv.sc0 r1, y | ld.nonpriv.sc0 r2, x ;\n ld.sc0 r3, y | st.atom.rel.wg.sc1.semsc1.semsc0.semav x, r2 ;\n rmw.atom.acq_rel.dv.sc0.semsc0.add r4, x, 1 | rmw.atom.wg.sc0 r5, y, 2 ;\n ld.atom.acq.dv.sc0.semsc0.semvis r6, x | st.atom.qf.sc0 y, 3 ;",
    );
    let load = |t: usize, i: usize| match &p.threads[t].code[i].kind {
        StmtKind::Load(l) => l.attrs.clone(),
        k => panic!("{k:?}"),
    };
    let a = load(0, 0);
    assert_eq!((a.order, a.scope), (Order::Acquire, Some(Scope::Cta)));
    assert_eq!(
        a.vulkan,
        VulkanAttrs {
            storage_class: Some(1),
            sem_classes: vec![0, 1],
            ..VulkanAttrs::default()
        }
    );
    let a = load(0, 1);
    assert_eq!(
        (a.order, a.scope, a.vulkan.vis, a.vulkan.storage_class),
        (Order::Plain, Some(Scope::Gpu), true, Some(0))
    );
    let a = load(1, 1);
    assert_eq!(
        (a.order, a.scope, a.vulkan.nonpriv),
        (Order::Plain, None, true)
    );
    let a = load(0, 2);
    assert_eq!(
        (a.order, a.scope, a.vulkan.clone()),
        (
            Order::Plain,
            None,
            VulkanAttrs {
                storage_class: Some(0),
                ..Default::default()
            }
        )
    );
    let a = load(0, 4);
    assert!(a.vulkan.sem_vis && !a.vulkan.sem_av && a.order == Order::Acquire);
    let StmtKind::Store(s) = first(&p, 1) else {
        panic!()
    };
    assert_eq!(
        (s.attrs.order, s.attrs.scope, s.attrs.vulkan.av),
        (Order::Plain, Some(Scope::Cta), true)
    );
    let StmtKind::Store(s) = &p.threads[1].code[2].kind else {
        panic!()
    };
    assert_eq!(
        s.attrs.vulkan.sem_classes,
        vec![0, 1],
        "semantics classes are kept ascending"
    );
    assert!(s.attrs.vulkan.sem_av && s.attrs.order == Order::Release);
    let StmtKind::Rmw(r) = &p.threads[0].code[3].kind else {
        panic!()
    };
    assert_eq!(
        (r.op, r.attrs.order, r.attrs.scope),
        (RmwOp::Add, Order::AcqRel, Some(Scope::Gpu))
    );
    let StmtKind::Rmw(r) = &p.threads[1].code[3].kind else {
        panic!()
    };
    assert_eq!(
        (r.op, r.attrs.order, r.args.clone()),
        (RmwOp::Exch, Order::Relaxed, vec![Expr::Int(2)]),
        "rmw without an operation exchanges"
    );
    let StmtKind::Store(s) = &p.threads[1].code[4].kind else {
        panic!()
    };
    assert_eq!(
        (s.attrs.order, s.attrs.scope),
        (Order::Relaxed, Some(Scope::QueueFamily))
    );
    let text = print_vulkan(&p).unwrap();
    assert!(
        text.contains("st.atom.rel.wg.sc1.semsc0.semsc1.semav x, r2"),
        "{text}"
    );
    assert!(text.contains("rmw.atom.wg.sc0 r5, y, 2"), "{text}");
    roundtrip(&p);
}

#[test]
fn vulkan_fences_barriers_and_placement() {
    let p = vulkan(
        " membar.rel.dv.semsc0.semav | membar.acq_rel.wg.semsc0.semsc2 ;\n cbar.acq_rel.wg.semsc0 1 | cbar.wg 1 ;\n cbar.acq_rel.dv.semsc0 1, 1, 3 | avdevice ;\n | visdevice ;",
    );
    assert_eq!(
        p.threads[1].placement.levels,
        vec![(Scope::Warp, 1), (Scope::Cta, 0), (Scope::QueueFamily, 0)]
    );
    let StmtKind::Fence(f) = first(&p, 0) else {
        panic!()
    };
    assert_eq!(
        (f.kind, f.attrs.order, f.attrs.scope),
        (FenceKind::Fence, Order::Release, Some(Scope::Gpu))
    );
    assert_eq!(
        (f.attrs.vulkan.sem_classes.clone(), f.attrs.vulkan.sem_av),
        (vec![0], true)
    );
    let StmtKind::Fence(f) = first(&p, 1) else {
        panic!()
    };
    assert_eq!(
        (f.attrs.order, f.attrs.vulkan.sem_classes.clone()),
        (Order::AcqRel, vec![0, 2])
    );
    let StmtKind::Barrier(b) = &p.threads[0].code[1].kind else {
        panic!()
    };
    assert_eq!(
        (b.kind, b.scope, b.id.clone()),
        (BarrierKind::Sync, Scope::Cta, Expr::Int(1))
    );
    assert_eq!(
        (
            b.attrs.order,
            b.attrs.scope,
            b.attrs.vulkan.sem_classes.clone()
        ),
        (Order::AcqRel, Some(Scope::Cta), vec![0])
    );
    let StmtKind::Barrier(b) = &p.threads[1].code[1].kind else {
        panic!()
    };
    assert_eq!(
        (b.scope, b.attrs.clone()),
        (Scope::Cta, MemAttrs::default())
    );
    let StmtKind::Barrier(b) = &p.threads[0].code[2].kind else {
        panic!()
    };
    assert_eq!(
        (b.scope, b.operands.clone()),
        (Scope::Gpu, vec![Expr::Int(1), Expr::Int(3)])
    );
    let StmtKind::Fence(f) = &p.threads[1].code[2].kind else {
        panic!()
    };
    assert_eq!(f.kind, FenceKind::AvDevice);
    let StmtKind::Fence(f) = &p.threads[1].code[3].kind else {
        panic!()
    };
    assert_eq!(f.kind, FenceKind::VisDevice);
    roundtrip(&p);
}

#[test]
fn vulkan_ssw_and_filter() {
    let src = "Vulkan ssw\n{\nP2:r0=0;\nx=0;\ny aliases x;\n}\n{\nssw 0 1;\nssw 1 2;\n}\n P0@sg 0,wg 0, qf 0 | P1@sg 1,wg 0, qf 0 | P2@sg 2,wg 0, qf 0 ;\n st.sc0 x, 1 | avdevice | ld.sc1 r0, y ;\nfilter (x == 1)\n~exists (P2:r0 == 1)";
    let p = parse(src).unwrap();
    assert_eq!(p.arch, Arch::Vulkan);
    let rel: Vec<(&str, usize, usize)> = p
        .relations
        .iter()
        .map(|r| (r.name.as_str(), r.from, r.to))
        .collect();
    assert_eq!(rel, [("ssw", 0, 1), ("ssw", 1, 2)]);
    assert!(p.filter.is_some());
    assert_eq!(
        p.condition.as_ref().unwrap().quantifier,
        Quantifier::NotExists
    );
    roundtrip(&p);
    let text = print_vulkan(&p).unwrap();
    assert!(text.starts_with("VULKAN ssw\n"), "{text}");
    assert!(text.contains("{\nssw 0 1;\nssw 1 2;\n}\n"), "{text}");
    assert!(
        print_ptx(&p).unwrap_err().message.contains("ssw"),
        "PTX has no ssw"
    );
}

#[test]
fn printed_columns_are_aligned() {
    let p = ptx(" ld.weak r0, x | st.release.gpu y, 1 ;\n | ld.acquire.gpu r1, y ;");
    let text = print_ptx(&p).unwrap();
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.ends_with(';') && l.contains('|'))
        .collect();
    assert_eq!(rows.len(), 3, "{text}");
    let bar = rows[0].find('|').unwrap();
    assert!(
        rows.iter()
            .all(|r| r.find('|') == Some(bar) && r.len() == rows[0].len()),
        "{text}"
    );
    assert!(
        text.contains(" P0@cta 0,gpu 0 | P1@cta 1,gpu 0       ;\n"),
        "{text}"
    );
}

// ----- malformed input -----

fn err(src: &str) -> ParseError {
    match parse(src) {
        Ok(p) => panic!("accepted:\n{src}\n{p:#?}"),
        Err(e) => e,
    }
}

/// `None` when `src` fails at `line:col` with a message containing `needle`.
fn mismatch(src: &str, line: u32, col: u32, needle: &str) -> Option<String> {
    match parse(src) {
        Ok(_) => Some(format!("accepted:\n{src}")),
        Err(e) if (e.line, e.col) == (line, col) && e.message.contains(needle) => None,
        Err(e) => Some(format!("want {line}:{col} `{needle}`, got {e}\n{src}")),
    }
}

const HEAD: &str = "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n";

#[test]
fn malformed_inputs_point_at_the_offending_token() {
    let mut bad: Vec<String> = Vec::new();
    let mut assert_err =
        |src: &str, line: u32, col: u32, needle: &str| bad.extend(mismatch(src, line, col, needle));
    // Truncated files.
    assert_err(
        "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n st.weak x,",
        6,
        12,
        "end of input",
    );
    assert_err("PTX t\n{\nx=0;\n", 3, 5, "end of input");
    assert_err(
        &format!("{HEAD} st.weak x, 1   | ld.weak r0, x  ;\nexists (P1:r0 == 1"),
        7,
        19,
        "end of input",
    );
    assert_err(
        "PTX t\n\"doc never closed\n{",
        2,
        1,
        "unterminated doc string",
    );
    assert_err("PTX t \"doc\" stray\n{", 1, 13, "stray");
    // Unknown instruction, bad qualifiers.
    assert_err(
        &format!("{HEAD} st.weak x, 1   | frobnicate r0, x ;\nexists (P1:r0 == 1)"),
        6,
        19,
        "frobnicate",
    );
    assert_err(
        &format!("{HEAD} st.weak x, 1   | ld.acquire.galaxy r0, x ;\nexists (P1:r0 == 1)"),
        6,
        19,
        "galaxy",
    );
    assert_err(
        &format!("{HEAD} st.release x, 1 | ld.weak.gpu r0, x ;"),
        6,
        20,
        "no scope",
    );
    assert_err(&format!("{HEAD} ld.release.gpu r0, x | ;"), 6, 2, "release");
    assert_err(&format!("{HEAD} fence.proxy.galaxy | ;"), 6, 2, "galaxy");
    assert_err(
        &format!("{HEAD} ld.atom.acq.dv.sc0 r0, x | ;"),
        6,
        2,
        "atom",
    );
    assert_err(&format!("{HEAD} st.weak x, 1 | goto LC99 ;"), 6, 17, "LC99");
    // Unbalanced or malformed conditions.
    assert_err(
        &format!("{HEAD} st.weak x, 1   | ld.weak r0, x ;\nexists ((P1:r0 == 1 /\\ x == 1)"),
        7,
        31,
        "end of input",
    );
    assert_err(
        &format!("{HEAD} st.weak x, 1 | ld.weak r0, x ;\nexists (P1:r0 == 1))"),
        7,
        20,
        "end of input",
    );
    assert_err(
        &format!("{HEAD} st.weak x, 1 | ld.weak r0, x ;\nexists (P1:r0 1)"),
        7,
        15,
        "comparison",
    );
    // Rows with the wrong number of cells.
    assert_err(
        &format!("{HEAD} st.weak x, 1 | ld.weak r0, x | st.weak x, 2 ;"),
        6,
        31,
        "too many cells",
    );
    assert_err(
        &format!("{HEAD} st.weak x, 1 ;"),
        6,
        15,
        "1 cell but the test has 2 threads",
    );
    // Undeclared names in the condition.
    assert_err(
        &format!("{HEAD} st.weak x, 1   | ld.weak r0, x ;\nexists (P1:r0 == 1 /\\ zz == 2)"),
        7,
        23,
        "zz",
    );
    assert_err(
        &format!("{HEAD} st.weak x, 1 | ld.weak r0, x ;\nexists (P1:r7 == 1)"),
        7,
        12,
        "r7",
    );
    assert_err(
        &format!("{HEAD} st.weak x, 1 | ld.weak r0, x ;\nexists (P4:r0 == 1)"),
        7,
        9,
        "P4",
    );
    // Duplicates.
    assert_err(
        "PTX t\n{\nx=0;\nP1:r0=0;\nP1:r0=1;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n",
        5,
        1,
        "r0",
    );
    assert_err("PTX t\n{\nx=0;\n  x = 1;\n}\n", 4, 3, "declared twice");
    assert_err(
        "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P0@cta 1,gpu 0 ;\n",
        5,
        19,
        "P0",
    );
    assert_err(
        "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n LC0: ;\n LC0: ;\n",
        7,
        2,
        "twice",
    );
    // Other structural errors.
    assert_err("PTX t\n{\nP3:r0=0;\n}\n P0@cta 0,gpu 0 ;\n", 3, 1, "P3");
    assert_err("PTX t\n{\ny aliases q;\n}\n P0@cta 0,gpu 0 ;\n", 3, 11, "q");
    assert_err(
        "PTX t\n{\nx aliases y;\ny aliases x;\n}\n P0@cta 0,gpu 0 ;\n",
        3,
        11,
        "cycle",
    );
    assert_err("PTX t\n{\n}\n P0@gpu 0,cta 0 ;\n", 4, 11, "innermost");
    assert_err(
        "VULKAN t\n{\n}\n P0@sg 0,wg 0, qf 0 ;\n st.atom.acq.wg.sc0 x, 1 ;\n",
        5,
        2,
        "acquire store",
    );
    assert_err("VULKAN t\n{\n}\n P0@cta 0 ;\n", 4, 5, "cta");
    assert_err(
        "VULKAN t\n{x=0;}\n P0@sg 0, wg 0, qf 0 ;\n ld.atom.acq.wg.sc0.semav r0, x ;\n",
        4,
        2,
        "semav",
    );
    assert_err("ARM t\n", 1, 1, "ARM");
    assert_err("", 1, 1, "empty");
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n\n")
    );
}

#[test]
fn binary_and_control_characters_are_errors() {
    let e = parse_bytes(b"\x7fELF\x02\x01\x01\x00\xff\xfe\x00\x00garbage").unwrap_err();
    assert_eq!((e.line, e.col), (1, 9));
    let e = err("PTX t\n{\nx=0;\u{1}\n}");
    assert_eq!((e.line, e.col), (3, 5));
    let e = err("PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n st.weak x, 1 \u{0} ;");
    assert_eq!((e.line, e.col), (6, 15));
    // Every prefix of a valid test fails cleanly or parses; none panics.
    let src = std::fs::read_to_string(corpus_root().join(
        "PTX/Nvidia/proxy/Proxy-MP-Alias+diffProxy-aliasFence+proxyFence-correctOrder.litmus",
    ))
    .unwrap_or_else(|_| format!("{HEAD} st.weak x, 1 | ld.weak r0, x ;\nexists (P1:r0 == 1)"));
    for (i, _) in src.char_indices() {
        let _ = parse(&src[..i]);
    }
}

fn quick(limit_debug: u64) -> Duration {
    if cfg!(debug_assertions) {
        Duration::from_secs(limit_debug)
    } else {
        Duration::from_millis(1000)
    }
}

#[test]
fn ten_megabyte_lines_fail_or_parse_quickly() {
    let mb10 = 10 << 20;
    let cases: Vec<(String, bool)> = vec![
        // One huge number: an error, quoted shortly.
        (
            format!(
                "PTX long\n{{\nx=0;\n}}\n P0@cta 0,gpu 0 ;\n st.weak x, {}",
                "9".repeat(mb10)
            ),
            false,
        ),
        // One huge identifier.
        (
            format!(
                "PTX long\n{{\nx=0;\n}}\n P0@cta 0,gpu 0 ;\n {}",
                "a".repeat(mb10)
            ),
            false,
        ),
        // Deeply nested parentheses.
        (
            format!(
                "PTX long\n{{\nx=0;\n}}\n P0@cta 0,gpu 0 ;\nexists {}",
                "(".repeat(mb10 / 2)
            ),
            false,
        ),
        // A valid program of one thread on one line.
        (
            format!(
                "PTX long {{ x=0; }} P0@cta 0,gpu 0 ;{} exists (x == 1)",
                " st.weak x, 1 ;".repeat(mb10 / 15)
            ),
            true,
        ),
    ];
    for (src, valid) in cases {
        let start = Instant::now();
        let r = parse(&src);
        let took = start.elapsed();
        assert_eq!(r.is_ok(), valid, "{:?}", r.as_ref().err());
        if let Err(e) = &r {
            assert!(e.to_string().len() < 400, "message too long");
        }
        assert!(took < quick(20), "took {took:?}");
    }
}

// ----- other architectures -----

fn c_program() -> Program {
    let mut p = Program::new(Arch::C, "MP+sc");
    p.locations.push(Location::scalar("x", 0));
    p.locations.push(Location::scalar("flag", 0));
    let (x, f) = (LocId(0), LocId(1));
    let mut t0 = Thread::new("P0");
    let mut t1 = Thread::new("P1");
    let a = t1.reg_or_declare("a");
    let b = t1.reg_or_declare("b");
    let s = |k| Stmt::new(k, Span::default());
    t0.code = vec![
        s(StmtKind::Store(Store {
            addr: Expr::Addr(x),
            value: Expr::Int(1),
            attrs: MemAttrs::with_order(Order::Plain),
        })),
        s(StmtKind::Store(Store {
            addr: Expr::Addr(f),
            value: Expr::Int(1),
            attrs: MemAttrs::with_order(Order::SeqCst),
        })),
    ];
    t1.code = vec![
        s(StmtKind::While {
            prelude: vec![s(StmtKind::Load(Load {
                dst: a,
                addr: Expr::Addr(f),
                attrs: MemAttrs::with_order(Order::Acquire),
            }))],
            cond: Expr::bin(BinOp::Eq, Expr::Reg(a), Expr::Int(0)),
            body: vec![],
        }),
        s(StmtKind::Load(Load {
            dst: b,
            addr: Expr::Addr(x),
            attrs: MemAttrs::with_order(Order::Plain),
        })),
        s(StmtKind::If {
            cond: Expr::bin(
                BinOp::LAnd,
                Expr::Reg(a),
                Expr::bin(BinOp::Gt, Expr::Reg(b), Expr::Int(0)),
            ),
            then_branch: vec![s(StmtKind::Assign {
                dst: b,
                value: Expr::bin(
                    BinOp::Add,
                    Expr::bin(BinOp::Mul, Expr::Reg(b), Expr::Int(2)),
                    Expr::Int(1),
                ),
            })],
            else_branch: vec![],
        }),
    ];
    p.threads = vec![t0, t1];
    p.condition = Some(Condition {
        quantifier: Quantifier::Exists,
        prop: Prop::Cmp(Term::Reg { thread: 1, reg: b }, CmpOp::Eq, Term::Int(0)),
    });
    p.validate().unwrap();
    p
}

#[test]
fn c_programs_print_as_ptx_with_the_documented_mapping() {
    let p = c_program();
    let text = print_ptx(&p).unwrap();
    let q = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(q, lower_for_ptx(&p).unwrap(), "the text is the lowering");
    assert_eq!(print_ptx(&q).unwrap(), text, "fixed point");
    assert!(text.starts_with("PTX MP+sc\n"), "{text}");
    for needle in [
        "P0@cta 0,gpu 0",
        "P1@cta 1,gpu 0",
        "st.weak x, 1",
        "fence.sc.sys",
        "st.release.sys flag, 1",
        "ld.acquire.sys r0, flag",
        "bne r0, 0, LW1",
        "mul r",
        "exists (P1:r1 == 0)",
    ] {
        assert!(text.contains(needle), "missing `{needle}`:\n{text}");
    }
    // The same program is refused by Vulkan: seq_cst has no Vulkan spelling.
    assert!(print_vulkan(&p).unwrap_err().message.contains("seq_cst"));
}

#[test]
fn ptx_programs_print_as_vulkan_and_back() {
    let p = ptx(" st.weak x, 1 | ld.acquire.gpu r0, y ;\n fence.acq_rel.cta | ld.weak r1, x ;\n st.release.gpu y, 1 | bar.cta.sync 0 ;\n atom.relaxed.cta.add r2, x, 1 | ;");
    let text = print_vulkan(&p).unwrap();
    let q = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(q, lower_for_vulkan(&p).unwrap());
    assert_eq!(print_vulkan(&q).unwrap(), text);
    for needle in [
        "P0@sg 0, wg 0, qf 0",
        "st.nonpriv.sc0 x, 1",
        "ld.atom.acq.dv.sc0.semsc0.semvis r0, y",
        "membar.acq_rel.wg.semsc0.semav.semvis",
        "st.atom.rel.dv.sc0.semsc0.semav y, 1",
        "cbar.acq_rel.wg.semsc0.semav.semvis 0",
        "rmw.atom.wg.sc0.add r2, x, 1",
    ] {
        assert!(text.contains(needle), "missing `{needle}`:\n{text}");
    }
    // Proxies have no Vulkan spelling.
    let p = ptx(" sust.weak x, 1 | ;");
    assert!(print_vulkan(&p).unwrap_err().message.contains("surface"));
}

// ----- random programs of every architecture -----

/// A deterministic source of choices for building one program.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Builds random valid programs; `wild` ones also use what some dialect must refuse
/// (cache operators, shared memory, volatile, proxies, raw Vulkan annotations, `seq_cst`,
/// `%`, C11 compare-exchange, assume, warp and arrive barriers, odd fences).
struct Gen {
    g: Rng,
    wild: bool,
    nloc: usize,
    regs: usize,
    labels: Vec<String>,
}

impl Gen {
    fn attrs(&mut self) -> MemAttrs {
        let orders = [
            Order::Plain,
            Order::Relaxed,
            Order::Consume,
            Order::Acquire,
            Order::Release,
            Order::AcqRel,
            Order::SeqCst,
        ];
        let g = &mut self.g;
        let mut a = MemAttrs::with_order(g.pick(&orders[..if self.wild { 7 } else { 6 }]));
        if g.chance(70) {
            a.scope = Some(g.pick(&Scope::ALL));
        }
        if !self.wild {
            return a;
        }
        a.volatile = g.chance(10);
        if g.chance(10) {
            a.proxy = g.pick(&[Proxy::Surface, Proxy::Texture, Proxy::Constant]);
        }
        if g.chance(5) {
            a.cache = Some(CacheOp::Cg);
        }
        if g.chance(10) {
            a.space = Some(g.pick(&[MemSpace::Global, MemSpace::Shared, MemSpace::Generic]));
        }
        if g.chance(10) {
            a.ty = Some(DataType::S32);
        }
        if g.chance(25) {
            a.vulkan.storage_class = Some(g.below(3) as u8);
            a.vulkan.sem_classes = if g.chance(50) { vec![0] } else { vec![] };
            a.vulkan.sem_av = g.chance(30);
            a.vulkan.sem_vis = g.chance(30);
            a.vulkan.nonpriv = g.chance(30);
            a.vulkan.av = g.chance(15);
            a.vulkan.vis = g.chance(15);
        }
        a
    }

    fn expr(&mut self, depth: usize) -> Expr {
        let ops = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Div,
            BinOp::And,
            BinOp::Xor,
            BinOp::Eq,
            BinOp::Ne,
            BinOp::Lt,
            BinOp::Ge,
            BinOp::LAnd,
            BinOp::LOr,
        ];
        match self.g.below(if depth == 0 { 2 } else { 5 }) {
            0 => Expr::Int(self.g.below(5) as i64 - 1),
            1 => Expr::Reg(Reg(self.g.below(self.regs) as u32)),
            2 => {
                let op = self.g.pick(&[UnOp::Neg, UnOp::Not, UnOp::LNot]);
                Expr::un(op, self.expr(depth - 1))
            }
            3 if self.wild && self.g.chance(20) => {
                Expr::bin(BinOp::Rem, Expr::Int(1), Expr::Int(2))
            }
            _ => {
                let op = self.g.pick(&ops);
                Expr::bin(op, self.expr(depth - 1), self.expr(depth - 1))
            }
        }
    }

    fn block(&mut self, n: usize, depth: usize) -> Vec<Stmt> {
        let k = self.g.below(n + 1);
        (0..k).map(|_| self.stmt(depth)).collect()
    }

    fn stmt(&mut self, depth: usize) -> Stmt {
        let loc = Expr::Addr(LocId(self.g.below(self.nloc) as u32));
        let reg = Reg(self.g.below(self.regs) as u32);
        let kind = match self.g.below(if depth == 0 { 9 } else { 11 }) {
            0 => StmtKind::Load(Load {
                dst: reg,
                addr: loc,
                attrs: self.attrs(),
            }),
            1 => StmtKind::Store(Store {
                addr: loc,
                value: self.expr(1),
                attrs: self.attrs(),
            }),
            2 => {
                let mut ops = vec![RmwOp::Add, RmwOp::Exch, RmwOp::Cas, RmwOp::Max];
                if self.wild {
                    ops.push(RmwOp::CompareExchange { weak: false });
                }
                let op = self.g.pick(&ops);
                StmtKind::Rmw(Rmw {
                    dst: if self.g.chance(80) || !self.wild {
                        Some(reg)
                    } else {
                        None
                    },
                    addr: loc,
                    op,
                    args: (0..op.arity()).map(|_| self.expr(1)).collect(),
                    attrs: self.attrs(),
                    fail_order: None,
                })
            }
            3 => {
                let kinds = if self.wild {
                    vec![
                        FenceKind::Fence,
                        FenceKind::Membar,
                        FenceKind::ProxyFence(None),
                        FenceKind::ProxyFence(Some(Proxy::Surface)),
                        FenceKind::AvDevice,
                        FenceKind::VisDevice,
                    ]
                } else {
                    vec![FenceKind::Fence]
                };
                let kind = self.g.pick(&kinds);
                let mut attrs = self.attrs();
                if !self.wild && attrs.order == Order::Plain {
                    attrs.order = Order::AcqRel;
                }
                StmtKind::Fence(Fence {
                    kind,
                    attrs,
                    spaces: if self.g.chance(20) {
                        vec![MemSpace::Global]
                    } else {
                        vec![]
                    },
                })
            }
            4 => {
                let (kinds, scopes) = if self.wild {
                    (
                        vec![BarrierKind::Sync, BarrierKind::Arrive, BarrierKind::Warp],
                        vec![Scope::Cta, Scope::Gpu, Scope::Warp],
                    )
                } else {
                    (vec![BarrierKind::Sync], vec![Scope::Cta])
                };
                StmtKind::Barrier(Barrier {
                    kind: self.g.pick(&kinds),
                    scope: self.g.pick(&scopes),
                    id: self.expr(0),
                    operands: (0..self.g.below(3)).map(|_| self.expr(0)).collect(),
                    attrs: if self.wild {
                        self.attrs()
                    } else {
                        MemAttrs::default()
                    },
                    spaces: vec![],
                })
            }
            5 | 6 => StmtKind::Assign {
                dst: reg,
                value: self.expr(3),
            },
            7 => {
                let prefix = self.g.pick(&["LC", "L", "exists", "bad label"]);
                let l = format!("{prefix}{}", self.labels.len());
                self.labels.push(l.clone());
                StmtKind::Label(l)
            }
            8 => match self.labels.last().cloned() {
                Some(target) => StmtKind::Jump {
                    target,
                    cond: if self.g.chance(50) {
                        Some(self.expr(2))
                    } else {
                        None
                    },
                },
                None if self.wild => StmtKind::Assume(self.expr(1)),
                None => StmtKind::Assign {
                    dst: reg,
                    value: self.expr(1),
                },
            },
            9 => StmtKind::If {
                cond: self.expr(2),
                then_branch: self.block(2, depth - 1),
                else_branch: self.block(1, depth - 1),
            },
            _ => StmtKind::While {
                prelude: self.block(1, depth - 1),
                cond: self.expr(2),
                body: self.block(1, depth - 1),
            },
        };
        let mut s = Stmt::new(kind, Span::default());
        if self.g.chance(10) {
            s.guard = Some(Guard {
                reg: Reg(self.g.below(self.regs) as u32),
                negated: self.g.chance(50),
            });
        }
        s
    }
}

fn random_prop(g: &mut Rng, p: &Program, depth: usize) -> Prop {
    let term = |g: &mut Rng| match g.below(3) {
        0 => Term::Int(g.below(3) as i64 - 1),
        1 => Term::Mem {
            loc: LocId(g.below(p.locations.len()) as u32),
            index: 0,
        },
        _ => {
            let t = g.below(p.threads.len());
            Term::Reg {
                thread: t,
                reg: Reg(g.below(p.threads[t].regs.len()) as u32),
            }
        }
    };
    match g.below(if depth == 0 { 1 } else { 6 }) {
        0 | 1 => Prop::Cmp(term(g), g.pick(&[CmpOp::Eq, CmpOp::Ne, CmpOp::Le]), term(g)),
        2 => Prop::negate(random_prop(g, p, depth - 1)),
        3 => Prop::and(random_prop(g, p, depth - 1), random_prop(g, p, depth - 1)),
        4 => Prop::or(random_prop(g, p, depth - 1), random_prop(g, p, depth - 1)),
        _ => g.pick(&[Prop::True, Prop::False]),
    }
}

fn random_program(seed: u64) -> Program {
    let mut g = Rng(seed | 1);
    let wild = g.chance(25);
    let arch = g.pick(&[
        Arch::Ptx,
        Arch::Vulkan,
        Arch::OpenCl,
        Arch::C,
        Arch::GpuPtx,
        Arch::WebGpu,
    ]);
    let mut p = Program::new(arch, g.pick(&["MP", "has space", "SB+\"q\""]));
    if g.chance(30) {
        p.doc = vec![g
            .pick(&["plain doc", "has \"quotes\"", "brace {"])
            .to_string()];
    }
    let names = ["x", "y", "r9", "exists", "flag"];
    for n in names.iter().take(1 + g.below(4)) {
        p.locations.push(Location::scalar(*n, g.below(3) as i64));
    }
    if g.chance(30) {
        let mut a = Location::scalar("al", 0);
        let proxies = if wild {
            vec![None, Some(Proxy::Generic), Some(Proxy::Surface)]
        } else {
            vec![None]
        };
        a.alias = Some(Alias {
            of: LocId(0),
            proxy: g.pick(&proxies),
        });
        p.locations.push(a);
    }
    let nthreads = 1 + g.below(3);
    for i in 0..nthreads {
        let mut t = Thread::new(if g.chance(80) {
            format!("P{i}")
        } else {
            format!("T{i}")
        });
        t.placement = Placement::new(g.pick(&[
            vec![],
            vec![(Scope::Cta, i as u32), (Scope::Gpu, 0)],
            vec![
                (Scope::Warp, 0),
                (Scope::Cta, i as u32),
                (Scope::QueueFamily, 0),
            ],
            vec![(Scope::Thread, i as u32)],
        ]));
        let nregs = 1 + g.below(3);
        for k in 0..nregs {
            let mut d = RegDecl::named(if g.chance(80) {
                format!("r{k}")
            } else {
                format!("tmp{k}")
            });
            if g.chance(20) {
                d.init = Some(Value::Int(k as i64));
            }
            t.regs.push(d);
        }
        let mut gen = Gen {
            g: Rng(g.next() | 1),
            wild,
            nloc: p.locations.len(),
            regs: nregs,
            labels: vec![],
        };
        t.code = (0..1 + g.below(5)).map(|_| gen.stmt(2)).collect();
        p.threads.push(t);
    }
    if arch == Arch::Vulkan && nthreads > 1 && g.chance(50) {
        p.relations.push(ThreadRelation {
            name: "ssw".into(),
            from: 0,
            to: 1,
        });
    }
    let prop = random_prop(&mut g, &p, 3);
    let quantifier = g.pick(&[
        Quantifier::Exists,
        Quantifier::NotExists,
        Quantifier::Forall,
    ]);
    p.condition = Some(Condition { quantifier, prop });
    if g.chance(20) {
        p.filter = Some(random_prop(&mut g, &p, 1));
    }
    if g.chance(20) {
        p.observed = vec![Term::Mem {
            loc: LocId(0),
            index: 0,
        }];
    }
    p
}

type Printer = fn(&Program) -> Result<String, weft_litmus::PrintError>;
type Lowering = fn(&Program) -> Result<Program, weft_litmus::PrintError>;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 1000, ..Default::default() })]

    /// Whatever a printer accepts re-parses to exactly its lowering and prints the same again.
    #[test]
    fn printed_programs_of_any_architecture_read_back_as_their_lowering(seed in proptest::prelude::any::<u64>()) {
        let p = random_program(seed);
        proptest::prop_assume!(p.validate().is_ok());
        let printers: [(Printer, Lowering); 2] = [(print_ptx, lower_for_ptx), (print_vulkan, lower_for_vulkan)];
        for (print, lower) in printers {
            let Ok(text) = print(&p) else { continue };
            let q = parse(&text).map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}\n{text}")))?;
            proptest::prop_assert_eq!(&q, &lower(&p).unwrap(), "{}", text);
            proptest::prop_assert_eq!(print(&q).unwrap(), text);
        }
    }
}

#[test]
fn random_programs_often_print() {
    // The generator is rich enough to be useful: a fair share of its programs print.
    let (mut total, mut ptx, mut vk) = (0, 0, 0);
    for seed in 0..1000u64 {
        let p = random_program(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        if p.validate().is_err() {
            continue;
        }
        total += 1;
        ptx += usize::from(print_ptx(&p).is_ok());
        vk += usize::from(print_vulkan(&p).is_ok());
    }
    eprintln!("{total} valid random programs: {ptx} print as PTX, {vk} as Vulkan");
    assert!(
        total > 900 && ptx > total / 3 && vk > total / 4,
        "{total} {ptx} {vk}"
    );
}
