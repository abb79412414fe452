//! Property tests on generated programs: for random straight-line litmus programs of every
//! dialect, printing in the program's own format always succeeds; for every format that
//! accepts a program, print -> parse -> print is a fixed point (the second parse gives the
//! same IR and the same text), and the accesses each thread makes (how many, to which
//! locations) survive the conversion.

use proptest::prelude::*;
use weft_ir::*;
use weft_litmus::{parse, print, Format};

#[derive(Clone, Debug)]
enum Op {
    Load(usize, u8),
    Store(usize, i64, u8),
    Rmw(usize, i64, u8),
    Fence(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..3usize, any::<u8>()).prop_map(|(l, a)| Op::Load(l, a)),
        (0..3usize, 1..4i64, any::<u8>()).prop_map(|(l, v, a)| Op::Store(l, v, a)),
        (0..3usize, 1..3i64, any::<u8>()).prop_map(|(l, v, a)| Op::Rmw(l, v, a)),
        any::<u8>().prop_map(Op::Fence),
    ]
}

fn arch() -> impl Strategy<Value = Arch> {
    prop_oneof![
        Just(Arch::Ptx),
        Just(Arch::Vulkan),
        Just(Arch::OpenCl),
        Just(Arch::C),
        Just(Arch::GpuPtx),
        Just(Arch::WebGpu),
    ]
}

fn pick<T: Copy>(xs: &[T], k: u8) -> T {
    xs[k as usize % xs.len()]
}

/// Attributes of an access, drawn from what the dialect can say.
fn access_attrs(arch: Arch, k: u8, is_load: bool, is_rmw: bool) -> MemAttrs {
    let scopes = [Scope::Cta, Scope::Gpu, Scope::System];
    let atomic_order = if is_rmw {
        pick(
            &[
                Order::Relaxed,
                Order::Acquire,
                Order::Release,
                Order::AcqRel,
            ],
            k / 4,
        )
    } else if is_load {
        pick(&[Order::Relaxed, Order::Acquire], k / 4)
    } else {
        pick(&[Order::Relaxed, Order::Release], k / 4)
    };
    let plain = k.is_multiple_of(3) && !is_rmw;
    match arch {
        Arch::Ptx => {
            if plain {
                MemAttrs::with_order(Order::Plain)
            } else {
                MemAttrs::scoped(atomic_order, pick(&scopes, k / 16))
            }
        }
        Arch::Vulkan => {
            let mut a = if plain {
                MemAttrs::with_order(Order::Plain)
            } else {
                MemAttrs::scoped(atomic_order, pick(&[Scope::Cta, Scope::Gpu], k / 16))
            };
            a.vulkan.storage_class = Some(0);
            if matches!(a.order, Order::Acquire | Order::Release | Order::AcqRel) {
                a.vulkan.sem_classes = vec![0];
            }
            a
        }
        Arch::OpenCl => {
            if plain {
                MemAttrs::with_order(Order::Plain)
            } else {
                MemAttrs::scoped(atomic_order, pick(&[Scope::Cta, Scope::Gpu], k / 16))
            }
        }
        Arch::C => MemAttrs::with_order(if plain { Order::Plain } else { atomic_order }),
        Arch::GpuPtx => {
            let mut a = MemAttrs::with_order(Order::Plain);
            if !is_rmw {
                if k.is_multiple_of(5) {
                    a.volatile = true;
                } else {
                    a.cache = Some(if is_load {
                        pick(&[CacheOp::Cg, CacheOp::Ca], k / 8)
                    } else {
                        CacheOp::Cg
                    });
                }
            }
            a
        }
        Arch::WebGpu => MemAttrs::scoped(Order::Relaxed, Scope::Gpu),
    }
}

fn fence(arch: Arch, k: u8) -> Fence {
    let scopes = [Scope::Cta, Scope::Gpu, Scope::System];
    let (kind, attrs) = match arch {
        Arch::Ptx => (
            FenceKind::Fence,
            MemAttrs::scoped(
                pick(&[Order::SeqCst, Order::AcqRel], k),
                pick(&scopes, k / 2),
            ),
        ),
        Arch::GpuPtx => (
            FenceKind::Membar,
            MemAttrs::scoped(Order::SeqCst, pick(&scopes, k / 2)),
        ),
        Arch::Vulkan => {
            let mut a = MemAttrs::scoped(
                pick(&[Order::Acquire, Order::Release, Order::AcqRel], k),
                pick(&[Scope::Cta, Scope::Gpu], k / 4),
            );
            a.vulkan.sem_classes = vec![0];
            (FenceKind::Fence, a)
        }
        Arch::OpenCl => (
            FenceKind::Fence,
            MemAttrs::scoped(
                pick(&[Order::SeqCst, Order::AcqRel], k),
                pick(&[Scope::Cta, Scope::Gpu], k / 4),
            ),
        ),
        Arch::C => (
            FenceKind::Fence,
            MemAttrs::with_order(pick(&[Order::SeqCst, Order::AcqRel], k)),
        ),
        Arch::WebGpu => (
            FenceKind::Fence,
            MemAttrs::scoped(Order::AcqRel, Scope::Gpu),
        ),
    };
    let spaces = if arch == Arch::OpenCl {
        vec![MemSpace::Global]
    } else {
        vec![]
    };
    Fence {
        kind,
        attrs,
        spaces,
    }
}

fn build(arch: Arch, nloc: usize, threads: Vec<Vec<Op>>) -> Program {
    let mut p = Program::new(arch, "gen");
    for name in ["x", "y", "z"].iter().take(nloc) {
        let mut l = Location::scalar(*name, 0);
        l.atomic = matches!(arch, Arch::C | Arch::OpenCl);
        p.locations.push(l);
    }
    let mut cond: Option<Prop> = None;
    for (ti, ops) in threads.into_iter().enumerate() {
        let mut t = Thread::new(format!("P{ti}"));
        t.placement = match arch {
            Arch::Ptx | Arch::OpenCl => {
                Placement::new(vec![(Scope::Cta, ti as u32), (Scope::Gpu, 0)])
            }
            Arch::Vulkan => Placement::new(vec![
                (Scope::Warp, 0),
                (Scope::Cta, ti as u32),
                (Scope::QueueFamily, 0),
            ]),
            Arch::GpuPtx => Placement::new(vec![
                (Scope::Warp, 0),
                (Scope::Cta, ti as u32),
                (Scope::Gpu, 0),
            ]),
            _ => Placement::default(),
        };
        for op in ops {
            let kind = match op {
                Op::Load(l, a) => {
                    let r = t.reg_or_declare(&format!("r{}", t.regs.len()));
                    let c = Prop::Cmp(Term::Reg { thread: ti, reg: r }, CmpOp::Eq, Term::Int(1));
                    cond = Some(match cond.take() {
                        Some(prev) => Prop::and(prev, c),
                        None => c,
                    });
                    StmtKind::Load(Load {
                        dst: r,
                        addr: Expr::Addr(LocId((l % nloc) as u32)),
                        attrs: access_attrs(arch, a, true, false),
                    })
                }
                Op::Store(l, v, a) => StmtKind::Store(Store {
                    addr: Expr::Addr(LocId((l % nloc) as u32)),
                    value: Expr::Int(v),
                    attrs: access_attrs(arch, a, false, false),
                }),
                Op::Rmw(l, v, a) => {
                    let r = t.reg_or_declare(&format!("r{}", t.regs.len()));
                    StmtKind::Rmw(Rmw {
                        dst: Some(r),
                        addr: Expr::Addr(LocId((l % nloc) as u32)),
                        op: pick(&[RmwOp::Add, RmwOp::Exch], a),
                        args: vec![Expr::Int(v)],
                        attrs: access_attrs(arch, a, false, true),
                        fail_order: None,
                    })
                }
                Op::Fence(k) => StmtKind::Fence(fence(arch, k)),
            };
            t.code.push(Stmt::new(kind, Span::default()));
        }
        p.threads.push(t);
    }
    let prop = cond.unwrap_or(Prop::Cmp(
        Term::Mem {
            loc: LocId(0),
            index: 0,
        },
        CmpOp::Eq,
        Term::Int(0),
    ));
    p.condition = Some(Condition {
        quantifier: Quantifier::Exists,
        prop,
    });
    p
}

/// Per thread: (reads, writes, names of the locations accessed).
fn footprint(p: &Program) -> Vec<(usize, usize, Vec<String>)> {
    p.threads
        .iter()
        .map(|t| {
            let (mut r, mut w, mut locs) = (0, 0, Vec::new());
            weft_ir::code::walk(&t.code, &mut |s| {
                let addr = match &s.kind {
                    StmtKind::Load(l) => {
                        r += 1;
                        Some(&l.addr)
                    }
                    StmtKind::Store(st) => {
                        w += 1;
                        Some(&st.addr)
                    }
                    StmtKind::Rmw(x) => {
                        r += 1;
                        w += 1;
                        Some(&x.addr)
                    }
                    _ => None,
                };
                if let Some(Expr::Addr(l)) = addr {
                    locs.push(p.loc(*l).name.clone());
                }
            });
            locs.sort();
            locs.dedup();
            (r, w, locs)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn print_parse_is_a_fixed_point_in_every_format(
        arch in arch(),
        nloc in 1..4usize,
        threads in prop::collection::vec(prop::collection::vec(op(), 1..5), 1..4),
    ) {
        let p = build(arch, nloc, threads);
        p.validate().expect("generator builds valid programs");
        for format in Format::ALL {
            let text = match print(&p, format) {
                Ok(t) => t,
                Err(e) => {
                    prop_assert!(format != Format::native(arch), "native printer refused {:?}: {}\n{:#?}", arch, e, p);
                    continue;
                }
            };
            let q = parse(&text).map_err(|e| TestCaseError::fail(format!("{} output does not parse: {e}\n{text}", format.name())))?;
            let text2 = print(&q, format).map_err(|e| TestCaseError::fail(format!("{}: cannot reprint: {e}\n{text}", format.name())))?;
            let q2 = parse(&text2).map_err(|e| TestCaseError::fail(format!("{}: reprint does not parse: {e}\n{text2}", format.name())))?;
            prop_assert_eq!(&q, &q2, "{} round trip changed the IR", format.name());
            prop_assert_eq!(&text, &text2, "{} printing is not a fixed point", format.name());
            prop_assert_eq!(footprint(&p), footprint(&q), "{} conversion changed the accesses:\n{}", format.name(), text);
        }
    }
}
