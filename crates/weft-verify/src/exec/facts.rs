//! The flow-insensitive facts about a kernel's arrays: which bases each register may derive
//! from, atomically accessed arrays, repetition-free counters (paper 002 §4.3).

use super::*;

/// Flow-insensitive base analysis: which bases each register may derive from; arrays that
/// may be accessed atomically; repetition-free arrays (paper 002 §4.3, Def. 4.1).
/// One operation on an array: `None` for a plain or atomic load/store, else the RMW and its
/// constant operand.
type ArrayOp = Option<(RmwOp, Option<u64>)>;

pub(super) fn array_facts(k: &Kernel, int_params: &[u32]) -> ArrayFacts {
    let bases = register_bases(k, int_params);
    let addr_bases = |a: &weft_ir::kernel::Addr| -> BTreeSet<Base> {
        match a.base {
            AddrBase::Reg(r) => bases[r.index()].clone(),
            AddrBase::Var(v) => BTreeSet::from([Base::Var(v)]),
            _ => BTreeSet::new(),
        }
    };
    let mut f = ArrayFacts {
        reg_bases: bases.clone(),
        ..ArrayFacts::default()
    };
    // Per array: the set of operations touching it.
    let mut ops: BTreeMap<Base, Vec<ArrayOp>> = BTreeMap::new();
    // Arrays with an atomic load or store (they can reset a counter without racing).
    let mut atomic_ldst: BTreeSet<Base> = BTreeSet::new();
    for i in &k.code {
        match &i.op {
            KOp::Atom {
                op,
                addr,
                args,
                attrs,
                ..
            } => {
                let step = match args.first() {
                    Some(Operand::Imm(v)) => Some(*v),
                    _ => None,
                };
                if addr_bases(addr).is_empty() && attrs.space != Some(MemSpace::Local) {
                    f.atomic_unknown = true;
                }
                for b in addr_bases(addr) {
                    f.atomic.insert(b);
                    ops.entry(b).or_default().push(Some((*op, step)));
                    if attrs.space == Some(MemSpace::Shared) {
                        f.shared.insert(b);
                    }
                }
            }
            KOp::Ld { addr, attrs, .. } | KOp::St { addr, attrs, .. } => {
                if attrs.order.is_atomic()
                    && addr_bases(addr).is_empty()
                    && !matches!(attrs.space, Some(MemSpace::Local | MemSpace::Param))
                    && !matches!(addr.base, AddrBase::Param(_))
                {
                    f.atomic_unknown = true;
                }
                for b in addr_bases(addr) {
                    if attrs.order.is_atomic() {
                        f.atomic.insert(b);
                        atomic_ldst.insert(b);
                    }
                    ops.entry(b).or_default().push(None);
                    if attrs.space == Some(MemSpace::Shared) {
                        f.shared.insert(b);
                    }
                }
            }
            _ => {}
        }
    }
    for (b, v) in ops {
        f.pointers.insert(b);
        if let Base::Var(x) = b {
            if k.vars[x as usize].space == MemSpace::Shared {
                f.shared.insert(b);
            }
        }
        // Def. 4.1: one repetition-free function: increments by a positive constant (or
        // decrements), all through the same operation.
        // Relaxed for block-shared memory: plain (non-atomic) loads and stores may also touch
        // the array. A plain access and an atomic of one block in one barrier interval race
        // (reported), so in a race-free kernel every value the atomics return between two
        // barriers comes from increments only and is distinct; threads of different blocks
        // use different copies of the array. The `used` set restarts at each barrier
        // (`repfree_restart`), so values from before a plain store are not assumed distinct
        // from values after it (the `counter` pattern: one thread zeroes, barrier, increments).
        let plain = v.iter().any(|x| x.is_none());
        let relaxed = plain && f.shared.contains(&b) && !atomic_ldst.contains(&b);
        let rmw: Vec<ArrayOp> = if relaxed {
            v.iter().copied().filter(|x| x.is_some()).collect()
        } else {
            v.clone()
        };
        let first = rmw.first().copied().flatten();
        let ok = rmw.iter().all(|x| *x == first)
            && match first {
                Some((RmwOp::Add | RmwOp::Sub, Some(c))) => {
                    let c32 = c as u32 as i32;
                    c32 != 0
                }
                Some((RmwOp::Inc, Some(lim))) => lim as u32 == u32::MAX,
                _ => false,
            };
        if ok {
            f.repfree.insert(b);
            if relaxed {
                f.repfree_restart.insert(b);
            }
        }
    }
    f
}

/// The bases each register may derive from (a fixed point over the code; bases stored into
/// thread-private cells flow to the loads of those cells).
fn register_bases(k: &Kernel, int_params: &[u32]) -> Vec<BTreeSet<Base>> {
    let n = k.regs.len();
    let mut bases: Vec<BTreeSet<Base>> = vec![BTreeSet::new(); n];
    let opb = |o: &Operand, bases: &Vec<BTreeSet<Base>>| -> BTreeSet<Base> {
        match o {
            Operand::Reg(r) => bases[r.index()].clone(),
            Operand::VarAddr { var, .. } => BTreeSet::from([Base::Var(*var)]),
            _ => BTreeSet::new(),
        }
    };
    // Bases stored into thread-private variables (call arguments and results the front-end
    // passes through `.param`/`.local` cells), per variable: a load of the variable may
    // return any of them.
    let mut cell_bases: HashMap<u32, BTreeSet<Base>> = HashMap::new();
    let is_cell = |v: u32| {
        k.vars
            .get(v as usize)
            .is_some_and(|x| matches!(x.space, MemSpace::Local | MemSpace::Param))
    };
    let mut changed = true;
    while changed {
        changed = false;
        for i in &k.code {
            if let KOp::St {
                src,
                addr:
                    weft_ir::kernel::Addr {
                        base: AddrBase::Var(v),
                        ..
                    },
                ..
            } = &i.op
            {
                if is_cell(*v) {
                    let e = cell_bases.entry(*v).or_default();
                    for o in src {
                        for b in opb(o, &bases) {
                            changed |= e.insert(b);
                        }
                    }
                }
            }
            let (dst, srcs): (Option<usize>, BTreeSet<Base>) = match &i.op {
                KOp::Mov { dst, src, .. }
                | KOp::Cvta { dst, src, .. }
                | KOp::Cvt { dst, src, .. } => (Some(dst.index()), opb(src, &bases)),
                // Only address arithmetic carries a base: a product, remainder or mask of a
                // parameter is an offset, not a pointer.
                KOp::Binary {
                    op: KBinOp::Add | KBinOp::Sub,
                    dst,
                    a,
                    b,
                    ..
                } => {
                    let mut s = opb(a, &bases);
                    s.extend(opb(b, &bases));
                    (Some(dst.index()), s)
                }
                KOp::Mad { dst, c, .. } => (Some(dst.index()), opb(c, &bases)),
                KOp::Selp { dst, a, b, .. } => {
                    let mut s = opb(a, &bases);
                    s.extend(opb(b, &bases));
                    (Some(dst.index()), s)
                }
                KOp::Ld { dst, addr, .. } => match addr.base {
                    AddrBase::Param(p) => {
                        let mut s = BTreeSet::new();
                        if !int_params.contains(&p) {
                            s.insert(Base::Param(p, addr.offset as u32));
                        }
                        (dst.first().copied().flatten().map(|r| r.index()), s)
                    }
                    AddrBase::Var(v) if is_cell(v) => (
                        dst.first().copied().flatten().map(|r| r.index()),
                        cell_bases.get(&v).cloned().unwrap_or_default(),
                    ),
                    _ => (None, BTreeSet::new()),
                },
                _ => (None, BTreeSet::new()),
            };
            if let Some(d) = dst {
                if d < n {
                    for b in srcs {
                        if bases[d].insert(b) {
                            changed = true;
                        }
                    }
                }
            }
        }
    }
    bases
}
