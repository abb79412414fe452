//! herd C11 / Dat3M OpenCL front-end tests: every OpenCL test of the shared Dat3M corpus
//! and every herd C test of `tests/corpus/c` parses, prints in its own dialect and
//! re-parses to an equal program; IR facts of the lowering (orders, scopes, spaces,
//! temporaries, compare-exchange); cross-dialect printing; malformed inputs fail at the
//! expected line:col without panicking.

use std::path::{Path, PathBuf};

use weft_ir::*;
use weft_litmus::clitmus::{parse as cparse, print_c, print_opencl};
use weft_litmus::{parse, print_native};

fn litmus_files(root: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(|e| e.ok())
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
        .collect();
    v.sort();
    v
}

/// Parses, prints natively, re-parses; returns a failure description.
fn round_trip(name: &str, src: &str) -> Result<Program, String> {
    let p = parse(src).map_err(|e| e.render(name))?;
    let text = print_native(&p).map_err(|e| format!("{name}: cannot print: {e}"))?;
    let q =
        parse(&text).map_err(|e| format!("{name}: printed text does not parse: {e}\n{text}"))?;
    if q != p {
        return Err(format!(
            "{name}: re-parsed IR differs\n{text}\n{p:#?}\n{q:#?}"
        ));
    }
    let again = print_native(&q).map_err(|e| format!("{name}: cannot reprint: {e}"))?;
    if again != text {
        return Err(format!(
            "{name}: printing is not a fixed point\n{text}\n---\n{again}"
        ));
    }
    Ok(p)
}

#[test]
fn corpus_round_trips() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = manifest.join("../../../shared/corpus/dat3m/litmus");
    let own = manifest.join("../../tests/corpus/c");
    let mut files = Vec::new();
    if shared.exists() {
        let opencl = litmus_files(&shared.join("OPENCL"));
        assert!(
            opencl.len() >= 161,
            "the Dat3M corpus holds 161 OpenCL tests, found {}",
            opencl.len()
        );
        files.extend(opencl);
    } else {
        eprintln!(
            "note: {} not found; checking our own C tests only",
            shared.display()
        );
    }
    let mine = litmus_files(&own);
    assert!(
        mine.len() >= 10,
        "tests/corpus/c holds {} tests",
        mine.len()
    );
    files.extend(mine);
    let mut failures = Vec::new();
    let mut passed = 0;
    for f in &files {
        let name = f.display().to_string();
        match std::fs::read_to_string(f) {
            Ok(src) => match round_trip(&name, &src) {
                Ok(_) => passed += 1,
                Err(e) => failures.push(e),
            },
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!("{passed}/{} C/OpenCL tests round-trip", files.len());
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

// ---- IR facts ----

fn thread_stmts(p: &Program, t: usize) -> Vec<&Stmt> {
    let mut v = Vec::new();
    code::walk(&p.threads[t].code, &mut |s| v.push(s));
    v
}

fn reg(p: &Program, t: usize, name: &str) -> Reg {
    p.threads[t]
        .reg_by_name(name)
        .unwrap_or_else(|| panic!("no register {name}"))
}

fn loc(p: &Program, name: &str) -> LocId {
    p.loc_by_name(name)
        .unwrap_or_else(|| panic!("no location {name}"))
}

const MP_OPENCL: &str = "OPENCL MP_scoped
{ [x]=0; [y]=0; }

P0@wg 0, dev 0 (volatile global int* x, local atomic_int* y) {
  *x = 1;
  atomic_store_explicit(y, 1, memory_order_release, memory_scope_work_group);
}

P1@wg 1, dev 0 (volatile global int* x, local atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_acquire);
  int r1 = *x;
  int r2 = atomic_load(y);
}

exists (1:r0=1 /\\ 1:r1=0)
";

#[test]
fn orders_scopes_spaces_and_parameters() {
    let p = parse(MP_OPENCL).unwrap();
    assert_eq!(p.arch, Arch::OpenCl);
    let (x, y) = (loc(&p, "x"), loc(&p, "y"));
    assert_eq!(
        p.loc(y).space,
        MemSpace::Shared,
        "`local` parameters make local memory"
    );
    assert!(p.loc(y).atomic && !p.loc(x).atomic);
    assert_eq!(p.loc(x).space, MemSpace::Global);
    let t0 = &p.threads[0];
    assert_eq!(t0.placement.levels, vec![(Scope::Cta, 0), (Scope::Gpu, 0)]);
    assert_eq!(
        p.threads[1].placement.levels,
        vec![(Scope::Cta, 1), (Scope::Gpu, 0)]
    );
    assert_eq!(t0.params.len(), 2);
    assert_eq!(
        t0.params[0],
        Param {
            name: "x".into(),
            loc: x,
            space: Some(MemSpace::Global),
            atomic: false,
            volatile: true,
            base: "int".into()
        }
    );
    assert_eq!(t0.params[1].space, Some(MemSpace::Shared));
    assert!(t0.params[1].atomic);
    match &t0.code[0].kind {
        StmtKind::Store(s) => {
            assert_eq!(s.addr, Expr::Addr(x));
            assert_eq!(s.value, Expr::Int(1));
            assert_eq!(s.attrs.order, Order::Plain);
            assert!(s.attrs.volatile, "plain access through a volatile pointer");
            assert_eq!(s.attrs.scope, None);
        }
        k => panic!("expected a store, got {k:?}"),
    }
    match &t0.code[1].kind {
        StmtKind::Store(s) => {
            assert_eq!(s.attrs, MemAttrs::scoped(Order::Release, Scope::Cta));
        }
        k => panic!("expected a store, got {k:?}"),
    }
    let t1 = &p.threads[1];
    let kinds: Vec<&StmtKind> = t1.code.iter().map(|s| &s.kind).collect();
    match kinds.as_slice() {
        [StmtKind::Load(a), StmtKind::Load(b), StmtKind::Load(c)] => {
            assert_eq!(a.dst, reg(&p, 1, "r0"));
            // No scope argument: OpenCL's default, memory_scope_device.
            assert_eq!(a.attrs, MemAttrs::scoped(Order::Acquire, Scope::Gpu));
            assert_eq!(b.attrs.order, Order::Plain);
            assert!(b.attrs.volatile);
            assert_eq!(c.attrs, MemAttrs::scoped(Order::SeqCst, Scope::Gpu));
        }
        k => panic!("unexpected code {k:?}"),
    }
    assert!(t1
        .regs
        .iter()
        .all(|r| r.ty == Some(DataType::S32) && !r.temp));
    let text = print_opencl(&p).unwrap();
    assert!(
        text.contains("P0@wg 0, dev 0 (volatile global int* x, local atomic_int* y) {"),
        "{text}"
    );
    assert!(
        text.contains(
            "atomic_store_explicit(y, 1, memory_order_release, memory_scope_work_group);"
        ),
        "{text}"
    );
    assert!(
        text.contains("int r0 = atomic_load_explicit(y, memory_order_acquire);"),
        "{text}"
    );
    assert!(text.contains("int r2 = atomic_load(y);"), "{text}");
    assert_eq!(parse(&text).unwrap(), p);
}

#[test]
fn nested_accesses_become_temporaries() {
    let src = "OPENCL temps
{ [d]=0; [val]=0; }
P0@wg 0, dev 0 (global int* val, global int* d, global atomic_int* x) {
  *val = *d;
  int t = atomic_load_explicit(x, memory_order_acquire) + *d;
  if (*d) { t = 2; }
}
exists (val=0)
";
    let p = parse(src).unwrap();
    let t = &p.threads[0];
    let names: Vec<(&str, bool)> = t.regs.iter().map(|r| (r.name.as_str(), r.temp)).collect();
    // The thread's own registers first, then temporaries in evaluation order.
    assert_eq!(
        names,
        [
            ("t", false),
            ("__t0", true),
            ("__t1", true),
            ("__t2", true),
            ("__t3", true)
        ]
    );
    let (val, d, x) = (loc(&p, "val"), loc(&p, "d"), loc(&p, "x"));
    let t0 = reg(&p, 0, "__t0");
    match (&t.code[0].kind, &t.code[1].kind) {
        (StmtKind::Load(l), StmtKind::Store(s)) => {
            assert_eq!(
                (l.dst, &l.addr, l.attrs.order),
                (t0, &Expr::Addr(d), Order::Plain)
            );
            assert_eq!((&s.addr, &s.value), (&Expr::Addr(val), &Expr::Reg(t0)));
        }
        k => panic!("`*val = *d` lowered to {k:?}"),
    }
    let (t1, t2, tt) = (reg(&p, 0, "__t1"), reg(&p, 0, "__t2"), reg(&p, 0, "t"));
    match (&t.code[2].kind, &t.code[3].kind, &t.code[4].kind) {
        (StmtKind::Load(a), StmtKind::Load(b), StmtKind::Assign { dst, value }) => {
            assert_eq!(
                (a.dst, &a.addr, a.attrs.order),
                (t1, &Expr::Addr(x), Order::Acquire)
            );
            assert_eq!((b.dst, &b.addr), (t2, &Expr::Addr(d)));
            assert_eq!(*dst, tt);
            assert_eq!(*value, Expr::bin(BinOp::Add, Expr::Reg(t1), Expr::Reg(t2)));
        }
        k => panic!("unexpected lowering {k:?}"),
    }
    match (&t.code[5].kind, &t.code[6].kind) {
        (StmtKind::Load(l), StmtKind::If { cond, .. }) => {
            assert_eq!(*cond, Expr::Reg(l.dst));
        }
        k => panic!("unexpected lowering {k:?}"),
    }
    // Every memory access is its own statement; the printer folds temporaries back.
    let text = print_opencl(&p).unwrap();
    assert!(text.contains("  *val = *d;\n"), "{text}");
    assert!(
        text.contains("  int t = atomic_load_explicit(x, memory_order_acquire) + *d;\n"),
        "{text}"
    );
    assert!(text.contains("  if (*d) {\n"), "{text}");
    assert!(!text.contains("__t"), "{text}");
    assert_eq!(parse(&text).unwrap(), p);
}

#[test]
fn compare_exchange_and_loop_conditions() {
    let src = "OPENCL cas
{ [x]=0; [e]=0; }
P0@wg 0, dev 0 (global atomic_int* x, global int* e) {
  int r = atomic_compare_exchange_strong_explicit(x, e, 2, memory_order_acquire, memory_order_relaxed, memory_scope_work_group);
  while (atomic_compare_exchange_weak_explicit(x, e, *e, memory_order_relaxed, memory_order_relaxed) == 0) {}
  atomic_compare_exchange_strong(x, e, 3);
}
exists (0:r=1)
";
    let p = parse(src).unwrap();
    let (x, e) = (loc(&p, "x"), loc(&p, "e"));
    let t = &p.threads[0];
    match &t.code[0].kind {
        StmtKind::Rmw(r) => {
            assert_eq!(r.dst, Some(reg(&p, 0, "r")));
            assert_eq!(r.op, RmwOp::CompareExchange { weak: false });
            assert_eq!(r.addr, Expr::Addr(x));
            assert_eq!(r.args, vec![Expr::Addr(e), Expr::Int(2)]);
            assert_eq!(r.attrs, MemAttrs::scoped(Order::Acquire, Scope::Cta));
            assert_eq!(r.fail_order, Some(Order::Relaxed));
        }
        k => panic!("unexpected {k:?}"),
    }
    match &t.code[1].kind {
        StmtKind::While {
            prelude,
            cond,
            body,
        } => {
            assert!(body.is_empty());
            match (&prelude[0].kind, &prelude[1].kind) {
                (StmtKind::Load(l), StmtKind::Rmw(r)) => {
                    assert_eq!(l.addr, Expr::Addr(e));
                    assert_eq!(r.op, RmwOp::CompareExchange { weak: true });
                    assert_eq!(r.args, vec![Expr::Addr(e), Expr::Reg(l.dst)]);
                    assert_eq!(r.fail_order, None, "same order on failure");
                    let flag = r.dst.expect("the success flag is used");
                    assert_eq!(*cond, Expr::bin(BinOp::Eq, Expr::Reg(flag), Expr::Int(0)));
                }
                k => panic!("unexpected prelude {k:?}"),
            }
        }
        k => panic!("unexpected {k:?}"),
    }
    match &t.code[2].kind {
        StmtKind::Rmw(r) => {
            assert_eq!(r.dst, None, "result discarded");
            assert_eq!(r.attrs, MemAttrs::scoped(Order::SeqCst, Scope::Gpu));
        }
        k => panic!("unexpected {k:?}"),
    }
    let text = print_opencl(&p).unwrap();
    assert!(text.contains("while (atomic_compare_exchange_weak_explicit(x, e, *e, memory_order_relaxed, memory_order_relaxed) == 0) {}"), "{text}");
    assert!(
        text.contains("  atomic_compare_exchange_strong(x, e, 3);\n"),
        "{text}"
    );
    assert_eq!(parse(&text).unwrap(), p);
}

#[test]
fn fences_barriers_labels() {
    let src = "OPENCL fb
{ [x]=0; }
P0@wg 0, dev 0 (global atomic_int* x) {
  atomic_work_item_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);
  B1: barrier(CLK_GLOBAL_MEM_FENCE);
  mem_fence(CLK_LOCAL_MEM_FENCE);
  work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);
  atomic_thread_fence(memory_order_seq_cst);
}
exists (x=0)
";
    let p = parse(src).unwrap();
    let k: Vec<&StmtKind> = p.threads[0].code.iter().map(|s| &s.kind).collect();
    match k.as_slice() {
        [StmtKind::Fence(f), StmtKind::Label(l), StmtKind::Barrier(b), StmtKind::Fence(m), StmtKind::Barrier(wb), StmtKind::Fence(c)] =>
        {
            assert_eq!(f.kind, FenceKind::Fence);
            assert_eq!(f.attrs, MemAttrs::scoped(Order::AcqRel, Scope::Cta));
            assert_eq!(f.spaces, vec![MemSpace::Global, MemSpace::Shared]);
            assert_eq!(l, "B1");
            assert_eq!(
                (b.kind, b.scope, &b.id),
                (BarrierKind::Sync, Scope::Cta, &Expr::Int(0))
            );
            assert_eq!(b.spaces, vec![MemSpace::Global]);
            assert_eq!(b.attrs.scope, None);
            assert_eq!(
                (m.kind, &m.spaces),
                (FenceKind::Membar, &vec![MemSpace::Shared])
            );
            assert_eq!(wb.attrs.scope, Some(Scope::Gpu));
            assert_eq!(
                (c.kind, c.attrs.scope, c.spaces.is_empty()),
                (FenceKind::Fence, None, true)
            );
        }
        k => panic!("unexpected {k:?}"),
    }
    let text = print_opencl(&p).unwrap();
    assert!(
        text.contains("  B1: barrier(CLK_GLOBAL_MEM_FENCE);\n"),
        "{text}"
    );
    assert!(text.contains("atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);"), "{text}");
    assert_eq!(parse(&text).unwrap(), p);
    assert!(print_c(&p).unwrap_err().message.contains("barrier"));
}

#[test]
fn herd_c_forms() {
    let src = "C forms
\"doc string\"
{ int x = 0; atomic_int y = 1; z = 2; unsigned w = 3; 0:r9=7; }
P0 (int* x, atomic_int* y, int* z, atomic_uint* w) {
  int r0 = atomic_load(y);
  long r1 = atomic_fetch_add_explicit(w, 2, memory_order_relaxed);
  r9 += *z;
  r9++;
  x[0] = r0;
  for (int i = 0; i < 2; i++) { atomic_store_explicit(y, i, memory_order_release); }
  atomic_thread_fence(memory_order_seq_cst);
}
locations [x; 0:r1;]
forall (0:r9=9 \\/ ~(y=1 /\\ x!=0))
";
    let p = parse(src).unwrap();
    assert_eq!(p.arch, Arch::C);
    assert_eq!(p.doc, vec!["doc string".to_string()]);
    let (x, y, z, w) = (loc(&p, "x"), loc(&p, "y"), loc(&p, "z"), loc(&p, "w"));
    assert_eq!((p.loc(x).ty, p.loc(x).atomic), (Some(DataType::S32), false));
    assert_eq!(
        (p.loc(y).ty, p.loc(y).atomic, p.loc(y).init),
        (Some(DataType::S32), true, Value::Int(1))
    );
    assert_eq!((p.loc(z).ty, p.loc(z).init), (None, Value::Int(2)));
    assert_eq!(p.loc(w).ty, Some(DataType::U32));
    assert!(
        p.loc(w).atomic,
        "an atomic parameter marks its location atomic"
    );
    let t = &p.threads[0];
    assert_eq!(t.placement, Placement::default());
    assert_eq!(t.regs[0].name, "r9");
    assert_eq!(t.regs[0].init, Some(Value::Int(7)));
    assert_eq!(t.regs[0].ty, None);
    assert_eq!(t.params[3].base, "uint");
    assert_eq!(reg(&p, 0, "r1"), Reg(2));
    assert_eq!(t.regs[2].ty, Some(DataType::S64));
    for s in thread_stmts(&p, 0) {
        match &s.kind {
            StmtKind::Load(l) => assert_eq!(l.attrs.scope, None, "C has no scopes"),
            StmtKind::Rmw(r) => assert_eq!(r.attrs, MemAttrs::with_order(Order::Relaxed)),
            StmtKind::Fence(f) => assert_eq!(f.attrs, MemAttrs::with_order(Order::SeqCst)),
            _ => {}
        }
    }
    assert!(
        t.code
            .iter()
            .any(|s| matches!(s.kind, StmtKind::While { .. })),
        "for becomes while"
    );
    assert_eq!(p.observed.len(), 2);
    assert_eq!(p.condition.as_ref().unwrap().quantifier, Quantifier::Forall);
    let text = print_c(&p).unwrap();
    assert!(text.starts_with("C forms\n\"doc string\"\n"), "{text}");
    assert!(text.contains("0:r9=7;"), "{text}");
    assert!(
        text.contains("forall (0:r9=9 \\/ ~(y=1 /\\ x!=0))"),
        "{text}"
    );
    assert_eq!(cparse(&text).unwrap(), p);
}

#[test]
fn parameter_in_condition_names_its_location() {
    // Dat3M's OPENCL/herd/barrier_example.litmus: `0:x` where x is P0's parameter.
    let src = "OPENCL barrier_example
{ [x]=0; [y]=0; }
P0@wg 0, dev 0 (global int* x, global int* y) {
  atomic_store_explicit(x, 1, memory_order_release);
  B1: barrier(CLK_GLOBAL_MEM_FENCE);
  int x1 = atomic_load_explicit(y, memory_order_acquire);
}
P1@wg 0, dev 0 (global int* x, global int* y) {
  atomic_store_explicit(y, 1, memory_order_release);
  B1: barrier(CLK_GLOBAL_MEM_FENCE);
  int y1 = atomic_load_explicit(x, memory_order_acquire);
}
exists (0:x=0 /\\ 1:y=0)
";
    let p = parse(src).unwrap();
    let (x, y) = (loc(&p, "x"), loc(&p, "y"));
    let want = Prop::and(
        Prop::Cmp(Term::Mem { loc: x, index: 0 }, CmpOp::Eq, Term::Int(0)),
        Prop::Cmp(Term::Mem { loc: y, index: 0 }, CmpOp::Eq, Term::Int(0)),
    );
    assert_eq!(p.condition.as_ref().unwrap().prop, want);
    // A register of the same thread takes precedence over a parameter.
    let q = parse(&src.replace("0:x=0", "0:x1=0")).unwrap();
    match &q.condition.unwrap().prop {
        Prop::And(a, _) => assert!(matches!(**a, Prop::Cmp(Term::Reg { thread: 0, .. }, _, _))),
        p => panic!("{p:?}"),
    }
}

#[test]
fn returns_are_restructured() {
    let src = "C ret
{ x = 0; y = 0; }
P0 (int* x, int* y) {
  int r0 = *x;
  if (r0) { if (r0 == 2) return; *y = 1; }
  *y = 2;
  return;
}
exists (y=1)
";
    let p = parse(src).unwrap();
    let stores = |code: &[Stmt]| -> Vec<i64> {
        let mut v = Vec::new();
        code::walk(code, &mut |s| {
            if let StmtKind::Store(st) = &s.kind {
                if let Expr::Int(n) = st.value {
                    v.push(n);
                }
            }
        });
        v
    };
    let t = &p.threads[0];
    match &t.code[1].kind {
        StmtKind::If {
            then_branch,
            else_branch,
            ..
        } => {
            // r0 != 0: `if (r0 == 2) {} else { *y = 1; *y = 2; }`; r0 == 0: `*y = 2`.
            assert_eq!(stores(then_branch), vec![1, 2]);
            assert_eq!(stores(else_branch), vec![2]);
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(t.code.len(), 2);
    round_trip("ret", src).unwrap();
}

#[test]
fn discarded_values_keep_their_accesses() {
    let src = "C discard
{ x = 0; y = 0; }
P0 (atomic_int* x, int* y) {
  atomic_fetch_add(x, 1);
  *y;
  atomic_load(x) + *y;
}
exists (x=1)
";
    let p = round_trip("discard", src).unwrap();
    let k: Vec<&StmtKind> = p.threads[0].code.iter().map(|s| &s.kind).collect();
    match k.as_slice() {
        [StmtKind::Rmw(r), StmtKind::Load(a), StmtKind::Load(b), StmtKind::Load(c)] => {
            assert_eq!(r.dst, None);
            assert!(p.threads[0].regs[a.dst.index()].temp);
            assert_eq!(b.attrs.order, Order::SeqCst);
            assert_eq!(c.attrs.order, Order::Plain);
        }
        k => panic!("{k:?}"),
    }
    let text = print_c(&p).unwrap();
    assert!(text.contains("  *y;\n  atomic_load(x) + *y;\n"), "{text}");
    // The operands of `+` are unsequenced (C11 §6.5p2): no program order between them.
    assert_eq!(
        p.threads[0].code[3].unseq,
        Some(weft_ir::Unseq { skip: 0, count: 1 })
    );
    assert_eq!(p.threads[0].code[2].unseq, None);
}

// ---- printing programs of other architectures ----

fn ptx_like() -> Program {
    let mut p = Program::new(Arch::Ptx, "MP_ptx");
    p.locations.push(Location::scalar("x", 0));
    p.locations.push(Location::scalar("y", 0));
    let (x, y) = (LocId(0), LocId(1));
    let st = |k| Stmt::new(k, Span::default());
    let mut t0 = Thread::new("P0");
    t0.placement = Placement::new(vec![(Scope::Cta, 0), (Scope::Gpu, 0)]);
    t0.code = vec![
        st(StmtKind::Store(Store {
            addr: Expr::Addr(x),
            value: Expr::Int(1),
            attrs: MemAttrs::with_order(Order::Plain),
        })),
        st(StmtKind::Fence(Fence {
            kind: FenceKind::Fence,
            attrs: MemAttrs::scoped(Order::SeqCst, Scope::Gpu),
            spaces: vec![],
        })),
        st(StmtKind::Store(Store {
            addr: Expr::Addr(y),
            value: Expr::Int(1),
            attrs: MemAttrs::scoped(Order::Relaxed, Scope::Gpu),
        })),
    ];
    let mut t1 = Thread::new("P1");
    t1.placement = Placement::new(vec![(Scope::Cta, 1), (Scope::Gpu, 0)]);
    let r0 = t1.reg_or_declare("r0");
    let r1 = t1.reg_or_declare("r1");
    t1.code = vec![
        st(StmtKind::Load(Load {
            dst: r0,
            addr: Expr::Addr(y),
            attrs: MemAttrs::scoped(Order::Relaxed, Scope::Gpu),
        })),
        st(StmtKind::Load(Load {
            dst: r1,
            addr: Expr::Addr(x),
            attrs: MemAttrs::with_order(Order::Plain),
        })),
    ];
    p.threads = vec![t0, t1];
    p.condition = Some(Condition {
        quantifier: Quantifier::Exists,
        prop: Prop::and(
            Prop::Cmp(Term::Reg { thread: 1, reg: r0 }, CmpOp::Eq, Term::Int(1)),
            Prop::Cmp(Term::Reg { thread: 1, reg: r1 }, CmpOp::Eq, Term::Int(0)),
        ),
    });
    p
}

#[test]
fn ptx_programs_print_as_opencl_and_c() {
    let p = ptx_like();
    let text = print_opencl(&p).unwrap();
    for want in [
        "P0@wg 0, dev 0 (global int* x, global atomic_int* y) {",
        "  *x = 1;",
        "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);",
        "  atomic_store_explicit(y, 1, memory_order_relaxed);",
        "  int r0 = atomic_load_explicit(y, memory_order_relaxed);",
        "  int r1 = *x;",
        "exists (1:r0=1 /\\ 1:r1=0)",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    let q = parse(&text).unwrap();
    assert_eq!(print_opencl(&q).unwrap(), text, "fixed point");
    // All threads share the GPU, so `.gpu` scopes do not matter: herd C can say it.
    let c = print_c(&p).unwrap();
    assert!(
        c.contains("atomic_thread_fence(memory_order_seq_cst);"),
        "{c}"
    );
    assert!(!c.contains("memory_scope") && !c.contains("@"), "{c}");
    cparse(&c).unwrap();
    // A `.cta` scope with threads in different CTAs does matter.
    let mut cta = p.clone();
    if let StmtKind::Store(s) = &mut cta.threads[0].code[2].kind {
        s.attrs.scope = Some(Scope::Cta);
    }
    let e = print_c(&cta).unwrap_err();
    assert!(e.message.contains("cta scope"), "{e}");
    assert!(print_opencl(&cta)
        .unwrap()
        .contains("memory_scope_work_group"));
}

#[test]
fn inexpressible_constructs_are_refused_by_name() {
    let base = ptx_like();
    let st = |k| Stmt::new(k, Span::default());
    type Edit<'a> = Box<dyn Fn(&mut Program) + 'a>;
    let cases: Vec<(Edit<'_>, &str)> = vec![
        (
            Box::new(move |p: &mut Program| {
                p.threads[0].code.push(st(StmtKind::Label("L".into())));
                p.threads[0].code.push(st(StmtKind::Jump {
                    target: "L".into(),
                    cond: None,
                }));
            }),
            "goto",
        ),
        (
            Box::new(|p: &mut Program| {
                if let StmtKind::Store(s) = &mut p.threads[0].code[0].kind {
                    s.attrs.cache = Some(CacheOp::Cg);
                }
            }),
            "cache operator `.cg`",
        ),
        (
            Box::new(|p: &mut Program| {
                if let StmtKind::Store(s) = &mut p.threads[0].code[0].kind {
                    s.attrs.vulkan.av = true;
                }
            }),
            "availability",
        ),
        (
            Box::new(|p: &mut Program| {
                if let StmtKind::Load(l) = &mut p.threads[1].code[0].kind {
                    l.attrs.vulkan.storage_class = Some(0);
                }
            }),
            "storage classes",
        ),
        (
            Box::new(|p: &mut Program| {
                if let StmtKind::Load(l) = &mut p.threads[1].code[0].kind {
                    l.attrs.proxy = Proxy::Surface;
                }
            }),
            "surface proxy",
        ),
        (
            Box::new(|p: &mut Program| {
                let mut a = Location::scalar("s", 0);
                a.alias = Some(Alias {
                    of: LocId(0),
                    proxy: Some(Proxy::Surface),
                });
                p.locations.push(a);
            }),
            "aliases",
        ),
        (
            Box::new(|p: &mut Program| {
                if let StmtKind::Fence(f) = &mut p.threads[0].code[1].kind {
                    f.kind = FenceKind::ProxyFence(None);
                }
            }),
            "fence.proxy.alias",
        ),
        (
            Box::new(|p: &mut Program| {
                p.threads[0].code.push(st(StmtKind::Barrier(Barrier {
                    kind: BarrierKind::Sync,
                    scope: Scope::Cta,
                    id: Expr::Int(1),
                    operands: vec![],
                    attrs: MemAttrs::default(),
                    spaces: vec![],
                })));
            }),
            "barrier",
        ),
        (
            Box::new(|p: &mut Program| {
                p.relations.push(ThreadRelation {
                    name: "ssw".into(),
                    from: 0,
                    to: 1,
                });
            }),
            "ssw",
        ),
    ];
    let mut numbered = base.clone();
    numbered.threads[0].code.push(Stmt::new(
        StmtKind::Barrier(Barrier {
            kind: BarrierKind::Sync,
            scope: Scope::Cta,
            id: Expr::Int(1),
            operands: vec![],
            attrs: MemAttrs::default(),
            spaces: vec![],
        }),
        Span::default(),
    ));
    assert!(print_opencl(&numbered)
        .unwrap_err()
        .message
        .contains("barrier number"));
    for (edit, want) in cases {
        let mut p = base.clone();
        edit(&mut p);
        for (dialect, r) in [("opencl", print_opencl(&p)), ("c", print_c(&p))] {
            let e = r.expect_err(want);
            assert!(
                e.message.contains(want),
                "{dialect}: {want:?} not in {:?}",
                e.message
            );
        }
    }
}

// ---- malformed inputs ----

/// (source, line, col, part of the message)
const MALFORMED: &[(&str, u32, u32, &str)] = &[
    (
        "OPENCL f\n{ [x]=0; }\nP0@wg 0, dev 0 (global atomic_int* x) {\n  frobnicate(x);\n}\n",
        4, 3, "unknown function `frobnicate`",
    ),
    (
        "OPENCL f\n{ [x]=0; }\nP0@wg 0, dev 0 (global atomic_int* x) {\n  int r = atomic_load_explicit(x, memory_order_sideways);\n}\n",
        4, 35, "bad memory order `memory_order_sideways`",
    ),
    (
        "OPENCL bad-scope\n{ [x]=0; }\nP0@wg 0, dev 0 (global atomic_int* x) {\n  atomic_store_explicit(x, 1, memory_order_relaxed, memory_scope_galaxy);\n}\nexists (x=1)\n",
        4, 53, "memory_scope_galaxy",
    ),
    (
        "OPENCL f\n{}\nP0 (global atomic_int* x) {\n  int r = atomic_load_explicit(x, memory_order_release);\n}\n",
        4, 35, "not a valid order for a load",
    ),
    (
        "C f\n{}\nP0 (atomic_int* x) {\n  int r = atomic_load(x, 1);\n}\n",
        4, 26, "too many arguments to `atomic_load`",
    ),
    (
        "C f\n{}\nP0 (atomic_int* x) {\n  atomic_store(x);\n}\n",
        4, 17, "too few arguments to `atomic_store`",
    ),
    (
        "C f\n{}\nP0 (atomic_int* x) {\n  atomic_store_explicit(x, 1, memory_order_relaxed, memory_scope_device);\n}\n",
        4, 53, "memory scopes are OpenCL-only",
    ),
    (
        "C f\n{}\nP0 (atomic_int* x) {\n  int r = atomic_load(q);\n}\n",
        4, 23, "undeclared variable `q`",
    ),
    (
        "C f\n{}\nP0 (atomic_int* x) {\n  r1 = 2;\n}\n",
        4, 3, "undeclared variable `r1`",
    ),
    (
        "C f\n{ x = 0; }\nP0 (atomic_int* x) {\n  *x = 1;\n}\nexists (zz=1)\n",
        6, 9, "undeclared location `zz`",
    ),
    (
        "C f\n{}\nP0 (atomic_int* x) {\n  int r0 = 1;\n}\nexists (0:r7=1)\n",
        6, 11, "no register `r7`",
    ),
    (
        "C f\n{}\nP0 (atomic_int* x, int* y, int* x) {\n}\n",
        3, 33, "parameter `x` declared twice",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  int r0 = 1;\n  int r0 = 2;\n}\n",
        5, 7, "register `r0` declared twice",
    ),
    (
        "C f\n{ x = 0; x = 1; }\n",
        2, 10, "location `x` declared twice",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  if (*x) {\n    *x = 1;\n}\nexists (x=1)\n",
        7, 1, "expected `}` closing thread P0 before the final condition",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  *x = 1;\nP1 (int* x) {\n}\n",
        5, 1, "expected `}` closing thread P0 before the next thread",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  *x = (1 + 2));\n}\n",
        4, 15, "expected `;`, found `)`",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  *x = 1;\n}\nexists (x=1 /\\",
        6, 15, "end of input",
    ),
    (
        "OPENCL f\n{}\nP0@wg 0, dev 0 (global int* x) {\n  *x = 1;\n",
        5, 1, "end of input",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  *x = 1;\u{0}\n}\n",
        4, 10, "unexpected character",
    ),
    (
        "C f\n{}\nP0@wg 0 (int* x) {\n}\n",
        3, 3, "OpenCL-only",
    ),
    (
        "C f\n{}\nP0 (global int* x) {\n}\n",
        3, 5, "OpenCL-only",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  barrier(CLK_GLOBAL_MEM_FENCE);\n}\n",
        4, 3, "OpenCL-only",
    ),
    (
        "OPENCL f\n{}\nP0 (global int* x) {\n  barrier(CLK_IMAGE_MEM_FENCE);\n}\n",
        4, 11, "CLK_IMAGE_MEM_FENCE",
    ),
    (
        "OPENCL f\n{}\nP0@wg 0, cluster 1 (global int* x) {\n}\n",
        3, 10, "unknown placement level `cluster`",
    ),
    (
        "C f\n{}\nP1 (int* x) {\n}\n",
        3, 1, "expected thread `P0`",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  int r = 0;\n  while (r) { return; }\n}\n",
        5, 15, "`return` inside a loop",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  int r = 0;\n  if (r && *x) {}\n}\n",
        5, 12, "right of `&&`",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  int r = *r;\n}\n",
        4, 12, "expected a pointer",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  x = 1;\n}\n",
        4, 3, "cannot assign to the pointer parameter `x`",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  int r = atomic_store(x, 1);\n}\n",
        4, 11, "returns no value",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  *x = 99999999999999999999;\n}\n",
        4, 8, "out of range",
    ),
    (
        "C f\n{ atomic_int y[2] = {0, 1}; }\n",
        2, 21, "same value",
    ),
    (
        "C f\n{}\nP0 (int* x) {\n  L: *x = 1;\n  L: *x = 2;\n}\n",
        5, 3, "label `L` defined twice",
    ),
    (
        "PTXX f\n",
        1, 1, "unknown litmus architecture",
    ),
];

#[test]
fn malformed_inputs_fail_at_the_offending_token() {
    let mut failures = Vec::new();
    for (src, line, col, part) in MALFORMED {
        match std::panic::catch_unwind(|| parse(src)) {
            Ok(Ok(_)) => failures.push(format!("accepted:\n{src}")),
            Ok(Err(e)) => {
                if (e.line, e.col) != (*line, *col) || !e.message.contains(part) {
                    failures.push(format!(
                        "expected {line}:{col} `{part}`, got {}:{} `{}` for\n{src}",
                        e.line, e.col, e.message
                    ));
                }
            }
            Err(_) => failures.push(format!("panicked on\n{src}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn nesting_is_bounded() {
    let deep = |n: usize| {
        format!(
            "C d\n{{}}\nP0 (int* x) {{\n  int r = {}1{};\n}}\n",
            "(".repeat(n),
            ")".repeat(n)
        )
    };
    parse(&deep(200)).unwrap();
    let e = parse(&deep(300)).unwrap_err();
    assert!(e.message.contains("nested too deeply"), "{e}");
    let ifs = |n: usize| {
        format!(
            "C d\n{{}}\nP0 (int* x) {{\n  int r = 1;\n{}*x = 1;\n{}}}\n",
            "if (r) {\n".repeat(n),
            "}\n".repeat(n)
        )
    };
    round_trip("ifs", &ifs(256)).unwrap();
    let e = parse(&ifs(257)).unwrap_err();
    assert!(e.message.contains("nested too deeply"), "{e}");
    let chain = format!(
        "C d\n{{ x = 0; }}\nexists ({}x=1)\n",
        "x=1 /\\ ".repeat(400)
    );
    let e = parse(&chain).unwrap_err();
    assert!(e.message.contains("nested too deeply"), "{e}");
}

#[test]
fn huge_single_lines_are_fast() {
    const MB10: usize = 10 * 1024 * 1024;
    let stmts = "*x = 1; ".repeat(MB10 / 8);
    let inputs = [
        format!("C big {{ x = 0; }} P0 (int* x) {{ {stmts}}} exists (x=1)"),
        format!("OPENCL {}", "a".repeat(MB10)),
        format!(
            "C big {{}} P0 (int* x) {{ int r = {}1; }}",
            "1 + ".repeat(MB10 / 4)
        ),
        format!("C big {{}} P0 (int* x) {{ {}", "(".repeat(MB10)),
        format!("C big {{}} P0 (int* x) {{ int r = {}; }}", "9".repeat(MB10)),
        format!("C big {{}} P0 (int* x) {{ {}", "(* ".repeat(MB10 / 3)),
        format!("C big {{ {}}}", "x = 0; ".repeat(MB10 / 7)),
        format!("C big {{}} P0 (int* x) {{ {} }}", "\u{1}".repeat(MB10)),
        format!(
            "C big {{}} P0 (int* x) {{}} exists ({}x=1)",
            "x=1 /\\ ".repeat(MB10 / 8)
        ),
    ];
    for src in &inputs {
        let t = std::time::Instant::now();
        let r = std::panic::catch_unwind(|| parse(src).map(|_| ()));
        let dt = t.elapsed();
        assert!(r.is_ok(), "panicked on a {} byte input", src.len());
        eprintln!(
            "{} bytes: {:?} in {dt:?}",
            src.len(),
            r.unwrap().err().map(|e| e.to_string())
        );
        // Generous bound for unoptimised test builds on a loaded machine.
        assert!(dt.as_secs_f64() < 3.0, "took {dt:?}");
    }
}

#[test]
fn invalid_utf8_is_reported() {
    let e = weft_litmus::parse_bytes(b"C f\n{ x = 0; }\n\xff\xfe").unwrap_err();
    assert_eq!((e.line, e.col), (3, 1));
}
