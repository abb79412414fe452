//! What a C11 or OpenCL litmus test can express: the checks the printer runs on the whole
//! program and on each statement (orders, scopes, memory spaces, addresses, fences,
//! barriers) before writing anything, refusing with a reason.

use std::collections::BTreeSet;

use weft_ir::{
    Barrier, BarrierKind, Expr, FenceKind, LocId, MemAttrs, MemSpace, Order, Program, Proxy, Rmw,
    RmwOp, Scope, Stmt, StmtKind,
};

use super::super::lower::rmw_name;
use super::super::{is_c_ident, Dialect, LEVELS, MAX_ARRAY};
use super::{dialect_name, err, flags_text, scope_name, Scopes, P};

fn check_attrs(a: &MemAttrs, what: &str) -> P<()> {
    let v = &a.vulkan;
    let vk = [
        (v.av, "availability (`.av`)"),
        (v.vis, "visibility (`.vis`)"),
        (v.nonpriv, "non-private access (`.nonpriv`)"),
        (v.storage_class.is_some(), "storage classes (`.scN`)"),
        (
            !v.sem_classes.is_empty(),
            "semantics storage classes (`.semscN`)",
        ),
        (v.sem_av, "semantics availability (`.semav`)"),
        (v.sem_vis, "semantics visibility (`.semvis`)"),
    ];
    if let Some((_, name)) = vk.iter().find(|(on, _)| *on) {
        return err(format!(
            "{what} uses Vulkan {name}, which C/OpenCL litmus tests cannot express"
        ));
    }
    if let Some(c) = a.cache {
        return err(format!(
            "{what} uses the PTX cache operator `.{}`, which C/OpenCL litmus tests cannot express",
            c.name()
        ));
    }
    if a.proxy != Proxy::Generic {
        return err(format!(
            "{what} goes through the PTX {} proxy, which C/OpenCL litmus tests cannot express",
            a.proxy.name()
        ));
    }
    if let Some(s @ (MemSpace::Local | MemSpace::Constant | MemSpace::Param)) = a.space {
        return err(format!(
            "{what} accesses the {} state space, which C/OpenCL litmus tests cannot express",
            s.name()
        ));
    }
    if a.scope == Some(Scope::QueueFamily) {
        return err(format!(
            "{what} has queue-family scope, which has no OpenCL spelling"
        ));
    }
    Ok(())
}

pub(super) fn check_program(p: &Program, d: Dialect) -> P<()> {
    if p.name.bytes().any(|c| c.is_ascii_whitespace()) {
        return err(format!("the test name {:?} contains whitespace", p.name));
    }
    if let Some(r) = p.relations.first() {
        return err(format!(
            "the thread relation `{}` (Vulkan) cannot be written in {} litmus tests",
            r.name,
            dialect_name(d)
        ));
    }
    let scopes = Scopes::new(p);
    let multi_cta = (0..p.threads.len()).any(|ti| scopes.matters(ti, Scope::Cta));
    for l in &p.locations {
        if !is_c_ident(&l.name) {
            return err(format!(
                "the location name {:?} is not a C identifier",
                l.name
            ));
        }
        if let Some(a) = &l.alias {
            let proxy = a.proxy.map_or("generic", |x| x.name());
            return err(format!(
                "location `{}` aliases another location (PTX {proxy} proxy), which C/OpenCL litmus tests cannot express",
                l.name
            ));
        }
        if l.size == 0 || l.size > MAX_ARRAY {
            return err(format!("location `{}` has {} elements", l.name, l.size));
        }
        match (l.space, d) {
            (MemSpace::Global, _) | (MemSpace::Shared, Dialect::OpenCl) => {}
            (MemSpace::Shared, Dialect::C) if !multi_cta => {}
            (MemSpace::Shared, Dialect::C) => {
                return err(format!(
                    "location `{}` is work-group local memory and the threads sit in different work-groups; herd C has no address spaces",
                    l.name
                ))
            }
            (s, _) => {
                return err(format!(
                    "location `{}` is in {} memory, which {} litmus tests cannot express",
                    l.name,
                    s.name(),
                    dialect_name(d)
                ))
            }
        }
    }
    if d == Dialect::OpenCl {
        for t in &p.threads {
            for (s, _) in &t.placement.levels {
                if !LEVELS.iter().any(|(_, x)| x == s) {
                    return err(format!(
                        "{} is placed at the {} level, which OpenCL placements cannot name",
                        t.name,
                        s.name()
                    ));
                }
            }
        }
    }
    Ok(())
}

pub(super) fn addr_locs(e: &Expr, out: &mut Vec<LocId>) {
    match e {
        Expr::Addr(l) => out.push(*l),
        Expr::Un(_, a) => addr_locs(a, out),
        Expr::Bin(_, a, b) => {
            addr_locs(a, out);
            addr_locs(b, out);
        }
        Expr::Int(_) | Expr::Reg(_) => {}
    }
}

fn check_address(tname: &str, e: &Expr, what: &str) -> P<()> {
    let mut locs = Vec::new();
    addr_locs(e, &mut locs);
    if locs.len() != 1 {
        return err(format!(
            "{tname}: the address of {what} is not a location plus an offset (an address held in a register cannot be written in C litmus tests)"
        ));
    }
    Ok(())
}

pub(super) fn check_stmt(
    scopes: &Scopes,
    d: Dialect,
    ti: usize,
    tname: &str,
    loc_spaces: &BTreeSet<MemSpace>,
    s: &Stmt,
) -> P<()> {
    let scoped = |a: &MemAttrs, what: &str| -> P<()> {
        if d == Dialect::C && a.order != Order::Plain {
            if let Some(sc) = a.scope {
                if scopes.matters(ti, sc) {
                    return err(format!(
                        "{tname}: {what} has {} scope and the threads sit in different instances of it; herd C has no scopes",
                        sc.name()
                    ));
                }
            }
        }
        Ok(())
    };
    match &s.kind {
        StmtKind::Load(l) => {
            let what = format!("a load in {tname}");
            check_attrs(&l.attrs, &what)?;
            check_address(tname, &l.addr, "a load")?;
            if matches!(l.attrs.order, Order::Release | Order::AcqRel) {
                return err(format!(
                    "{tname}: a load ordered {} has no C11 spelling",
                    l.attrs.order.name()
                ));
            }
            scoped(&l.attrs, "a load")?;
        }
        StmtKind::Store(st) => {
            check_attrs(&st.attrs, &format!("a store in {tname}"))?;
            check_address(tname, &st.addr, "a store")?;
            if matches!(
                st.attrs.order,
                Order::Acquire | Order::Consume | Order::AcqRel
            ) {
                return err(format!(
                    "{tname}: a store ordered {} has no C11 spelling",
                    st.attrs.order.name()
                ));
            }
            scoped(&st.attrs, "a store")?;
        }
        StmtKind::Rmw(r) => {
            check_attrs(&r.attrs, &format!("a read-modify-write in {tname}"))?;
            check_address(tname, &r.addr, "a read-modify-write")?;
            check_rmw_operands(tname, r)?;
            let mut rmw = r.attrs.clone();
            if rmw.order == Order::Plain {
                rmw.order = Order::Relaxed;
            }
            scoped(&rmw, "a read-modify-write")?;
        }
        StmtKind::Fence(f) => {
            check_attrs(&f.attrs, &format!("a fence in {tname}"))?;
            match f.kind {
                FenceKind::Fence | FenceKind::Membar => {}
                FenceKind::ProxyFence(px) => {
                    return err(format!(
                        "{tname}: the PTX proxy fence `fence.proxy.{}` cannot be written in C/OpenCL litmus tests",
                        px.map_or("alias", |x| x.name())
                    ))
                }
                FenceKind::AvDevice | FenceKind::VisDevice => {
                    return err(format!(
                        "{tname}: Vulkan device-domain availability/visibility operations cannot be written in C/OpenCL litmus tests"
                    ))
                }
            }
            if f.kind == FenceKind::Fence && f.attrs.order == Order::Plain {
                return err(format!("{tname}: a fence without a memory order"));
            }
            if d == Dialect::C {
                let mut a = f.attrs.clone();
                a.order = Order::SeqCst;
                scoped(&a, "a fence")?;
                if !f.spaces.is_empty() && !loc_spaces.iter().all(|s| f.spaces.contains(s)) {
                    return err(format!(
                        "{tname}: a fence limited to some memory spaces (CLK_*_MEM_FENCE) cannot be written in herd C"
                    ));
                }
            } else {
                flags_text(&f.spaces)?;
                if let Some(sc) = f.attrs.scope {
                    scope_name(sc)?;
                }
            }
        }
        StmtKind::Barrier(b) => check_barrier(d, tname, b)?,
        StmtKind::Jump { target, .. } => {
            return err(format!(
            "{tname}: jumps (to `{target}`) cannot be written: C/OpenCL litmus tests have no goto"
        ))
        }
        StmtKind::Assume(_) | StmtKind::Assert(_) => {
            return err(format!(
                "{tname}: assume/assert statements cannot be written in C/OpenCL litmus tests"
            ))
        }
        StmtKind::Assign { .. }
        | StmtKind::Label(_)
        | StmtKind::If { .. }
        | StmtKind::While { .. } => {}
    }
    if d == Dialect::OpenCl {
        if let Some(sc) = stmt_scope(s) {
            scope_name(sc)?;
        }
    }
    Ok(())
}

/// An execution barrier: OpenCL's `barrier`/`work_group_barrier` only.
fn check_barrier(d: Dialect, tname: &str, b: &Barrier) -> P<()> {
    if d == Dialect::C {
        return err(format!(
            "{tname}: herd C has no execution barriers (print the test as OpenCL)"
        ));
    }
    check_attrs(&b.attrs, &format!("a barrier in {tname}"))?;
    if b.kind != BarrierKind::Sync {
        return err(format!(
            "{tname}: a {} barrier has no OpenCL equivalent",
            match b.kind {
                BarrierKind::Arrive => "`bar.arrive`",
                _ => "warp (`bar.warp.sync`)",
            }
        ));
    }
    if !matches!(b.scope, Scope::Cta | Scope::Warp) {
        return err(format!(
            "{tname}: a barrier over the {} has no OpenCL equivalent",
            b.scope.name()
        ));
    }
    if b.id != Expr::Int(0) || !b.operands.is_empty() {
        return err(format!(
            "{tname}: OpenCL barriers have no barrier number or thread count (PTX `bar.sync a, b`)"
        ));
    }
    if b.attrs.order != Order::Plain {
        return err(format!(
            "{tname}: a barrier with memory semantics ({}) has no OpenCL equivalent",
            b.attrs.order.name()
        ));
    }
    flags_text(&b.spaces)?;
    if let Some(sc) = b.attrs.scope {
        scope_name(sc)?;
    }
    Ok(())
}

/// A read-modify-write's operation and operand count.
fn check_rmw_operands(tname: &str, r: &Rmw) -> P<()> {
    match r.op {
        RmwOp::CompareExchange { .. } => {
            if r.args.len() != 2 {
                return err(format!("{tname}: compare-exchange needs two operands"));
            }
            check_address(tname, &r.args[0], "a compare-exchange's expected value")?;
        }
        op => {
            if rmw_name(op).is_none() {
                return err(format!(
                    "{tname}: `atom.{}` has no C11/OpenCL 2.0 equivalent",
                    op.name()
                ));
            }
            if r.args.len() != 1 {
                return err(format!("{tname}: `{}` needs one operand", op.name()));
            }
        }
    }
    Ok(())
}

fn stmt_scope(s: &Stmt) -> Option<Scope> {
    match &s.kind {
        StmtKind::Load(l) if l.attrs.order != Order::Plain => l.attrs.scope,
        StmtKind::Store(st) if st.attrs.order != Order::Plain => st.attrs.scope,
        StmtKind::Rmw(r) => r.attrs.scope,
        _ => None,
    }
}
