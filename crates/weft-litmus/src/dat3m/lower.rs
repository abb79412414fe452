//! Lowering of any program into the subset of the IR that a Dat3M dialect spells exactly:
//! names fitted to the dialect's lexical classes, placements completed, orders and scopes
//! mapped (see the module documentation of `dat3m` for the table), structured `if`/`while`
//! and predicate guards turned into labels and branches, nested expressions into
//! three-address code over fresh registers, and registers put in the order a re-parse
//! declares them. For a program the parser produced, lowering to its own dialect changes
//! nothing, which is what makes printing round-trip.

use std::collections::{HashMap, HashSet};

use weft_ir::{
    code::walk, Arch, Barrier, BarrierKind, BinOp, Expr, Fence, FenceKind, Load, LocId, MemAttrs,
    MemSpace, Order, Placement, Program, Prop, Proxy, Reg, RegDecl, Rmw, RmwOp, Scope, Stmt,
    StmtKind, Store, Term, Thread, UnOp, Value, VulkanAttrs,
};

use super::parse::split_docs;
use super::syntax::{
    check_ptx, check_vulkan, is_ident, is_label_name, is_location_name, is_register, thread_number,
    Dialect, PtxOp, VkOp,
};
use crate::PrintError;

type LResult<T> = Result<T, PrintError>;

/// How deep a foreign expression may nest before lowering gives up.
const MAX_EXPR_DEPTH: usize = 200;

fn fail(msg: impl Into<String>) -> PrintError {
    PrintError::new(msg)
}

/// Lowers `p` for printing in dialect `d`.
pub(crate) fn lower(p: &Program, d: Dialect) -> LResult<Program> {
    let native = p.arch == d.arch();
    let mut q = Program::new(d.arch(), fit_name(&p.name));
    q.doc = if docs_printable(&p.doc) {
        p.doc.clone()
    } else {
        p.doc
            .iter()
            .map(|s| s.replace('"', "'").replace('{', "("))
            .collect()
    };

    q.meta = p
        .meta
        .iter()
        .filter(|(k, v)| crate::cond::printable_meta(k, v))
        .cloned()
        .collect();

    lower_locations(p, d, &mut q)?;
    lower_relations(p, d, &mut q)?;
    lower_threads(p, d, native, &mut q)?;
    lower_final(p, d, &mut q)?;
    order_registers(&mut q);
    Ok(q)
}

/// The locations (names that would read as registers or keywords, or repeat, get fresh
/// ones; aliases take their root's initial value).
fn lower_locations(p: &Program, d: Dialect, q: &mut Program) -> LResult<()> {
    let what = d.header();
    let mut taken: HashSet<String> = HashSet::new();
    let mut rename: Vec<bool> = Vec::new();
    for l in &p.locations {
        rename.push(!is_location_name(&l.name) || taken.contains(&l.name));
        taken.insert(l.name.clone());
    }
    for (i, l) in p.locations.iter().enumerate() {
        if l.size != 1 {
            return Err(fail(format!(
                "{what} cannot express array location `{}` ({} elements)",
                l.name, l.size
            )));
        }
        if !matches!(l.space, MemSpace::Global | MemSpace::Generic) {
            return Err(fail(format!(
                "{what} cannot express location `{}` in {} memory",
                l.name,
                l.space.name()
            )));
        }
        let mut m = l.clone();
        m.space = MemSpace::Global;
        m.ty = None;
        m.atomic = false;
        if rename.get(i).copied().unwrap_or(false) {
            m.name = fresh_name(&sanitize(&l.name, "loc"), &mut taken);
        }
        if let Some(a) = &mut m.alias {
            if a.of.index() >= p.locations.len() {
                return Err(fail(format!("`{}` aliases an unknown location", l.name)));
            }
            if d == Dialect::Vulkan {
                match a.proxy {
                    None | Some(Proxy::Generic) => a.proxy = None,
                    Some(px) => {
                        return Err(fail(format!(
                            "VULKAN cannot express `{}`, an alias through the {} proxy",
                            l.name,
                            px.name()
                        )))
                    }
                }
            }
        }
        if let Value::Addr(t) = m.init {
            if t.index() >= p.locations.len() {
                return Err(fail(format!("`{}` holds an unknown address", l.name)));
            }
        }
        q.locations.push(m);
    }
    for i in 0..q.locations.len() {
        if q.locations.get(i).is_some_and(|l| l.alias.is_some()) {
            let root = alias_root(q, LocId(i as u32)).ok_or_else(|| {
                fail(format!(
                    "alias cycle (or a chain longer than 64) through `{}`",
                    q.locations.get(i).map(|l| l.name.as_str()).unwrap_or("?")
                ))
            })?;
            let init = q
                .locations
                .get(root.index())
                .map(|l| l.init)
                .unwrap_or_default();
            if let Some(l) = q.locations.get_mut(i) {
                l.init = init;
            }
        }
    }

    Ok(())
}

/// The thread relations (Vulkan's `ssw` only).
fn lower_relations(p: &Program, d: Dialect, q: &mut Program) -> LResult<()> {
    let what = d.header();
    for r in &p.relations {
        if d == Dialect::Ptx || r.name != "ssw" {
            return Err(fail(format!(
                "{what} cannot express the thread relation `{}`",
                r.name
            )));
        }
        if r.from >= p.threads.len() || r.to >= p.threads.len() {
            return Err(fail(format!(
                "relation `{}` names an unknown thread",
                r.name
            )));
        }
        q.relations.push(r.clone());
    }

    Ok(())
}

/// The threads: names, placements, registers, code.
fn lower_threads(p: &Program, d: Dialect, native: bool, q: &mut Program) -> LResult<()> {
    let what = d.header();
    if p.threads.is_empty() {
        return Err(fail(format!("{what} tests need at least one thread")));
    }
    let keep_names = {
        let mut seen = HashSet::new();
        p.threads
            .iter()
            .all(|t| thread_number(&t.name).is_some() && seen.insert(t.name.as_str()))
    };
    let placements = placements(p, d, native)?;
    for (i, (t, placement)) in p.threads.iter().zip(placements).enumerate() {
        let name = if keep_names {
            t.name.clone()
        } else {
            format!("P{i}")
        };
        let mut th = Thread::new(name);
        th.placement = placement;
        th.regs = fit_registers(&t.regs);
        let mut lw = Lowerer::new(d, native, p.arch, &t.code, &mut th.regs);
        lw.block(&t.code, 0)?;
        th.code = lw.out;
        q.threads.push(th);
    }

    Ok(())
}

/// The final part: condition, filter and observed locations, which must name what the
/// dialect can express.
fn lower_final(p: &Program, d: Dialect, q: &mut Program) -> LResult<()> {
    let what = d.header();
    q.condition = p.condition.clone();
    q.filter = p.filter.clone();
    q.observed = p.observed.clone();
    let mut terms: Vec<&Term> = Vec::new();
    if let Some(c) = &q.condition {
        c.prop.terms(&mut terms);
    }
    if let Some(f) = &q.filter {
        f.terms(&mut terms);
    }
    terms.extend(q.observed.iter());
    for t in terms {
        match t {
            Term::Addr(_) => {
                return Err(fail(format!(
                    "{what} cannot express an address in the condition"
                )))
            }
            Term::Mem { loc, index } if *index != 0 || loc.index() >= q.locations.len() => {
                return Err(fail(format!("{what} cannot express this memory term")))
            }
            Term::Reg { thread, reg } if !matches!(q.threads.get(*thread), Some(th) if reg.index() < th.regs.len()) =>
            {
                return Err(fail("the condition names an unknown register"));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether the printed doc strings read back as the same entries.
fn docs_printable(docs: &[String]) -> bool {
    let joined: Vec<String> = docs.iter().map(|d| format!("\"{d}\"")).collect();
    !docs.iter().any(|d| d.contains('{'))
        && split_docs(&joined.join("\n")).ok().as_deref() == Some(docs)
}

/// The location whose memory `id` names; `None` for a cycle or a chain of more than 64.
fn alias_root(p: &Program, id: LocId) -> Option<LocId> {
    let mut cur = id;
    for _ in 0..=64 {
        match p.locations.get(cur.index()).and_then(|l| l.alias.as_ref()) {
            Some(a) => cur = a.of,
            None => return Some(cur),
        }
    }
    None
}

/// A test name the header can hold: no blanks, quotes or braces.
fn fit_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_whitespace() || c == '"' || c == '{' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if s.is_empty() {
        "unnamed".to_string()
    } else {
        s
    }
}

/// `name` reduced to identifier characters (with `fallback` when nothing is left).
fn sanitize(name: &str, fallback: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !is_ident(&s) {
        s = format!("{fallback}_{s}");
    }
    if !is_location_name(&s) {
        s.push('_');
    }
    s
}

fn fresh_name(base: &str, taken: &mut HashSet<String>) -> String {
    let mut name = base.to_string();
    let mut k = 1;
    while taken.contains(&name) {
        name = format!("{base}_{k}");
        k += 1;
    }
    taken.insert(name.clone());
    name
}

/// Register declarations with Dat3M names (`r<digits>`); others get fresh numbers.
fn fit_registers(regs: &[RegDecl]) -> Vec<RegDecl> {
    let mut used: HashSet<String> = regs
        .iter()
        .filter(|r| is_register(&r.name))
        .map(|r| r.name.clone())
        .collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut next = 0u64;
    regs.iter()
        .map(|r| {
            let mut name = r.name.clone();
            if !is_register(&name) || !seen.insert(name.clone()) {
                while used.contains(&format!("r{next}")) {
                    next += 1;
                }
                name = format!("r{next}");
                used.insert(name.clone());
                seen.insert(name.clone());
            }
            RegDecl {
                name,
                ty: None,
                init: r.init,
                temp: false,
            }
        })
        .collect()
}

/// Placements in the dialect's vocabulary. Native placements must already be spelled in
/// it; foreign ones are mapped (PTX: `cta`, `gpu`, `sys`; Vulkan: `sg`, `wg`, `qf`, `dv`),
/// and a thread without a CTA/workgroup gets one of its own.
fn placements(p: &Program, d: Dialect, native: bool) -> LResult<Vec<Placement>> {
    let fresh_from = |s: Scope| {
        p.threads
            .iter()
            .filter_map(|t| t.placement.id_at(s))
            .max()
            .map_or(0, |m| m.saturating_add(1))
    };
    let mut next_cta = fresh_from(Scope::Cta);
    let mut next_warp = fresh_from(Scope::Warp);
    let qf_ids: HashSet<u32> = p
        .threads
        .iter()
        .filter_map(|t| t.placement.id_at(Scope::QueueFamily))
        .collect();
    let one_queue_family = qf_ids.len() <= 1;
    let mut out = Vec::new();
    for t in &p.threads {
        let pl = &t.placement;
        // Dat3M's Vulkan grammar requires the `sg`, `wg` and `qf` columns: a native
        // placement without one of them is completed below instead.
        let complete = d != Dialect::Vulkan
            || [Scope::Warp, Scope::Cta, Scope::QueueFamily]
                .iter()
                .all(|s| pl.id_at(*s).is_some());
        if native && !pl.levels.is_empty() && complete {
            let ok = pl.levels.iter().all(|(s, _)| d.scope_name(*s).is_some())
                && pl.levels.windows(2).all(|w| w[0].0 < w[1].0);
            if !ok {
                return Err(fail(format!(
                    "{} cannot express the placement of {}",
                    d.header(),
                    t.name
                )));
            }
            out.push(pl.clone());
            continue;
        }
        let fresh = |next: &mut u32| {
            let v = *next;
            *next = next.saturating_add(1);
            v
        };
        let levels = match d {
            Dialect::Ptx => {
                if !one_queue_family {
                    return Err(fail(
                        "PTX cannot express threads in different queue families",
                    ));
                }
                let mut v = vec![
                    (
                        Scope::Cta,
                        pl.id_at(Scope::Cta).unwrap_or_else(|| fresh(&mut next_cta)),
                    ),
                    (Scope::Gpu, pl.id_at(Scope::Gpu).unwrap_or(0)),
                ];
                if let Some(s) = pl.id_at(Scope::System) {
                    v.push((Scope::System, s));
                }
                v
            }
            Dialect::Vulkan => {
                let mut v = vec![
                    (
                        Scope::Warp,
                        pl.id_at(Scope::Warp)
                            .unwrap_or_else(|| fresh(&mut next_warp)),
                    ),
                    (
                        Scope::Cta,
                        pl.id_at(Scope::Cta).unwrap_or_else(|| fresh(&mut next_cta)),
                    ),
                    (
                        Scope::QueueFamily,
                        pl.id_at(Scope::QueueFamily).unwrap_or(0),
                    ),
                ];
                if let Some(g) = pl.id_at(Scope::Gpu) {
                    v.push((Scope::Gpu, g));
                }
                v
            }
        };
        out.push(Placement::new(levels));
    }
    Ok(out)
}

/// PTX scope of an access, fence or barrier: the narrowest PTX scope containing it;
/// `.sys` when none is given (the PTX ISA default).
fn ptx_scope(s: Option<Scope>) -> Scope {
    match s {
        None | Some(Scope::System) => Scope::System,
        Some(Scope::Thread | Scope::Warp | Scope::Cta) => Scope::Cta,
        Some(Scope::QueueFamily | Scope::Gpu) => Scope::Gpu,
    }
}

/// Vulkan scope: `dv` when none is given, and for `sys` (a Vulkan test runs on one device).
fn vk_scope(s: Option<Scope>) -> Scope {
    match s {
        None | Some(Scope::Gpu | Scope::System) => Scope::Gpu,
        Some(Scope::Thread | Scope::Warp) => Scope::Warp,
        Some(Scope::Cta) => Scope::Cta,
        Some(Scope::QueueFamily) => Scope::QueueFamily,
    }
}

/// Semantics that make a foreign acquire/release behave as in C11 under the Vulkan model:
/// storage class 0, with availability for releases and visibility for acquires.
fn derived_semantics(order: Order, v: &mut VulkanAttrs) {
    if matches!(order, Order::Acquire | Order::Release | Order::AcqRel) {
        v.sem_classes = vec![0];
        v.sem_av = matches!(order, Order::Release | Order::AcqRel);
        v.sem_vis = matches!(order, Order::Acquire | Order::AcqRel);
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Load,
    Store,
    Rmw,
}

impl Access {
    fn word(self) -> &'static str {
        match self {
            Access::Load => "load",
            Access::Store => "store",
            Access::Rmw => "read-modify-write",
        }
    }
}

struct Lowerer<'a> {
    d: Dialect,
    native: bool,
    src: Arch,
    regs: &'a mut Vec<RegDecl>,
    labels: HashSet<String>,
    label_map: HashMap<String, String>,
    next_label: usize,
    /// Register names in use (filled on the first fresh register).
    reg_names: HashSet<String>,
    next_reg: usize,
    out: Vec<Stmt>,
    span: weft_ir::Span,
}

impl<'a> Lowerer<'a> {
    fn new(d: Dialect, native: bool, src: Arch, code: &[Stmt], regs: &'a mut Vec<RegDecl>) -> Self {
        let mut labels = HashSet::new();
        walk(code, &mut |s| {
            if let StmtKind::Label(l) = &s.kind {
                if is_label_name(l) {
                    labels.insert(l.clone());
                }
            }
        });
        let mut lw = Lowerer {
            d,
            native,
            src,
            regs,
            labels,
            label_map: HashMap::new(),
            next_label: 0,
            reg_names: HashSet::new(),
            next_reg: 0,
            out: Vec::new(),
            span: weft_ir::Span::default(),
        };
        let mut bad = Vec::new();
        walk(code, &mut |s| {
            let name = match &s.kind {
                StmtKind::Label(l) => l,
                StmtKind::Jump { target, .. } => target,
                _ => return,
            };
            if !is_label_name(name) {
                bad.push(name.clone());
            }
        });
        for b in bad {
            if !lw.label_map.contains_key(&b) {
                let f = lw.fresh_label();
                lw.label_map.insert(b, f);
            }
        }
        lw
    }

    fn what(&self) -> &'static str {
        self.d.header()
    }

    fn fresh_label(&mut self) -> String {
        loop {
            let l = format!("LW{}", self.next_label);
            self.next_label += 1;
            if self.labels.insert(l.clone()) {
                return l;
            }
        }
    }

    fn label(&self, name: &str) -> String {
        self.label_map
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    fn fresh_reg(&mut self) -> Reg {
        if self.reg_names.is_empty() {
            self.reg_names = self.regs.iter().map(|r| r.name.clone()).collect();
        }
        loop {
            let name = format!("r{}", self.next_reg);
            self.next_reg += 1;
            if self.reg_names.insert(name.clone()) {
                self.regs.push(RegDecl::named(name));
                return Reg(self.regs.len() as u32 - 1);
            }
        }
    }

    fn push(&mut self, kind: StmtKind) {
        self.out.push(Stmt::new(kind, self.span));
    }

    fn block(&mut self, code: &[Stmt], depth: usize) -> LResult<()> {
        if depth > MAX_EXPR_DEPTH {
            return Err(fail("statements nested too deeply to print"));
        }
        for s in code {
            self.span = s.span;
            if let Some(g) = s.guard {
                let skip = self.fresh_label();
                let op = if g.negated { BinOp::Ne } else { BinOp::Eq };
                self.push(StmtKind::Jump {
                    target: skip.clone(),
                    cond: Some(Expr::bin(op, Expr::Reg(g.reg), Expr::Int(0))),
                });
                self.stmt(s, depth)?;
                self.push(StmtKind::Label(skip));
            } else {
                self.stmt(s, depth)?;
            }
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) -> LResult<()> {
        match &s.kind {
            StmtKind::Load(l) => {
                let loc = self.addr(&l.addr)?;
                let attrs = self.access(Access::Load, &l.attrs)?;
                self.push(StmtKind::Load(Load {
                    dst: l.dst,
                    addr: Expr::Addr(loc),
                    attrs,
                }));
            }
            StmtKind::Store(st) => {
                let loc = self.addr(&st.addr)?;
                let value = self.atom(&st.value, 0)?;
                let attrs = self.access(Access::Store, &st.attrs)?;
                self.push(StmtKind::Store(Store {
                    addr: Expr::Addr(loc),
                    value,
                    attrs,
                }));
            }
            StmtKind::Rmw(r) => self.rmw(r)?,
            StmtKind::Fence(f) => self.fence(f)?,
            StmtKind::Barrier(b) => self.barrier(b)?,
            StmtKind::Assign { dst, value } => self.compute(*dst, value, 0)?,
            StmtKind::Label(l) => {
                let l = self.label(l);
                self.push(StmtKind::Label(l));
            }
            StmtKind::Jump { target, cond } => {
                let target = self.label(target);
                match cond {
                    None => self.push(StmtKind::Jump { target, cond: None }),
                    Some(c) => self.branch(c, true, target, 0)?,
                }
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let l_else = self.fresh_label();
                self.branch(cond, false, l_else.clone(), 0)?;
                self.block(then_branch, depth + 1)?;
                if else_branch.is_empty() {
                    self.push(StmtKind::Label(l_else));
                } else {
                    let l_end = self.fresh_label();
                    self.push(StmtKind::Jump {
                        target: l_end.clone(),
                        cond: None,
                    });
                    self.push(StmtKind::Label(l_else));
                    self.block(else_branch, depth + 1)?;
                    self.push(StmtKind::Label(l_end));
                }
            }
            StmtKind::While {
                prelude,
                cond,
                body,
            } => {
                let l_top = self.fresh_label();
                let l_end = self.fresh_label();
                self.push(StmtKind::Label(l_top.clone()));
                self.block(prelude, depth + 1)?;
                self.span = s.span;
                self.branch(cond, false, l_end.clone(), 0)?;
                self.block(body, depth + 1)?;
                self.push(StmtKind::Jump {
                    target: l_top,
                    cond: None,
                });
                self.push(StmtKind::Label(l_end));
            }
            StmtKind::Assume(_) => {
                return Err(fail(format!("{} cannot express `assume`", self.what())))
            }
            StmtKind::Assert(_) => {
                return Err(fail(format!("{} cannot express `assert`", self.what())))
            }
        }
        Ok(())
    }

    fn addr(&self, e: &Expr) -> LResult<LocId> {
        e.as_loc().ok_or_else(|| {
            fail(format!(
                "{} cannot express an access through a computed address",
                self.what()
            ))
        })
    }

    /// An operand: a constant or a register, computing anything else into a fresh one.
    fn atom(&mut self, e: &Expr, depth: usize) -> LResult<Expr> {
        match e {
            Expr::Int(_) | Expr::Reg(_) => Ok(e.clone()),
            Expr::Addr(_) => Err(fail(format!(
                "{} cannot express the address of a location as a value",
                self.what()
            ))),
            _ => {
                let t = self.fresh_reg();
                self.compute(t, e, depth + 1)?;
                Ok(Expr::Reg(t))
            }
        }
    }

    /// `dst = e` as local instructions (`ld`, `add`, ...) and branches.
    fn compute(&mut self, dst: Reg, e: &Expr, depth: usize) -> LResult<()> {
        if depth > MAX_EXPR_DEPTH {
            return Err(fail("expression nested too deeply to print"));
        }
        let set = |v: i64| StmtKind::Assign {
            dst,
            value: Expr::Int(v),
        };
        match e {
            Expr::Int(_) | Expr::Reg(_) | Expr::Addr(_) => {
                let value = self.atom(e, depth)?;
                self.push(StmtKind::Assign { dst, value });
            }
            Expr::Bin(op, a, b) => {
                if let Some(op) = local(*op) {
                    let (a, b) = (self.atom(a, depth)?, self.atom(b, depth)?);
                    self.push(StmtKind::Assign {
                        dst,
                        value: Expr::bin(op, a, b),
                    });
                } else if op.is_comparison() || matches!(op, BinOp::LAnd | BinOp::LOr) {
                    let l_set = self.fresh_label();
                    let l_end = self.fresh_label();
                    let (a, b) = (self.atom(a, depth)?, self.atom(b, depth)?);
                    let (jump_to_set, when_set, otherwise) = match op {
                        BinOp::LAnd => {
                            self.push(StmtKind::Jump {
                                target: l_set.clone(),
                                cond: Some(Expr::bin(BinOp::Eq, a, Expr::Int(0))),
                            });
                            (Expr::bin(BinOp::Eq, b, Expr::Int(0)), 0, 1)
                        }
                        BinOp::LOr => {
                            self.push(StmtKind::Jump {
                                target: l_set.clone(),
                                cond: Some(Expr::bin(BinOp::Ne, a, Expr::Int(0))),
                            });
                            (Expr::bin(BinOp::Ne, b, Expr::Int(0)), 1, 0)
                        }
                        _ => (Expr::bin(*op, a, b), 1, 0),
                    };
                    self.push(StmtKind::Jump {
                        target: l_set.clone(),
                        cond: Some(jump_to_set),
                    });
                    self.push(set(otherwise));
                    self.push(StmtKind::Jump {
                        target: l_end.clone(),
                        cond: None,
                    });
                    self.push(StmtKind::Label(l_set));
                    self.push(set(when_set));
                    self.push(StmtKind::Label(l_end));
                } else {
                    return Err(fail(format!(
                        "{} has no local instruction for `{}`",
                        self.what(),
                        op.c_symbol()
                    )));
                }
            }
            Expr::Un(UnOp::Neg, a) => {
                let a = self.atom(a, depth)?;
                self.push(StmtKind::Assign {
                    dst,
                    value: Expr::bin(BinOp::Sub, Expr::Int(0), a),
                });
            }
            Expr::Un(UnOp::Not, a) => {
                let a = self.atom(a, depth)?;
                self.push(StmtKind::Assign {
                    dst,
                    value: Expr::bin(BinOp::Xor, a, Expr::Int(-1)),
                });
            }
            Expr::Un(UnOp::LNot, a) => {
                self.compute(
                    dst,
                    &Expr::bin(BinOp::Eq, (**a).clone(), Expr::Int(0)),
                    depth + 1,
                )?;
            }
        }
        Ok(())
    }

    /// Jumps to `target` when `cond` is non-zero (`when` = true) or zero (`when` = false).
    fn branch(&mut self, cond: &Expr, when: bool, target: String, depth: usize) -> LResult<()> {
        if depth > MAX_EXPR_DEPTH {
            return Err(fail("condition nested too deeply to print"));
        }
        let cond = match cond {
            Expr::Un(UnOp::LNot, a) => return self.branch(a, !when, target, depth + 1),
            // `a && b` is false when either is; `a || b` is true when either is.
            Expr::Bin(BinOp::LAnd, a, b) if !when => {
                self.branch(a, false, target.clone(), depth + 1)?;
                return self.branch(b, false, target, depth + 1);
            }
            Expr::Bin(BinOp::LOr, a, b) if when => {
                self.branch(a, true, target.clone(), depth + 1)?;
                return self.branch(b, true, target, depth + 1);
            }
            Expr::Bin(op, a, b) if op.is_comparison() => {
                let (a, b) = (self.atom(a, depth)?, self.atom(b, depth)?);
                Expr::bin(if when { *op } else { negate(*op) }, a, b)
            }
            _ => {
                let c = self.atom(cond, depth)?;
                Expr::bin(if when { BinOp::Ne } else { BinOp::Eq }, c, Expr::Int(0))
            }
        };
        self.push(StmtKind::Jump {
            target,
            cond: Some(cond),
        });
        Ok(())
    }

    fn sc_prefix(&mut self, scope: Scope) {
        self.push(StmtKind::Fence(Fence {
            kind: FenceKind::Fence,
            attrs: MemAttrs::scoped(Order::SeqCst, scope),
            spaces: Vec::new(),
        }));
    }

    fn common_checks(&self, a: &MemAttrs, what: &str) -> LResult<()> {
        if let Some(c) = a.cache {
            return Err(fail(format!(
                "{} cannot express the cache operator `.{}` of a {what}",
                self.what(),
                c.name()
            )));
        }
        if let Some(s) = a.space {
            if !matches!(s, MemSpace::Global | MemSpace::Generic) {
                return Err(fail(format!(
                    "{} cannot express a {what} in {} memory",
                    self.what(),
                    s.name()
                )));
            }
        }
        Ok(())
    }

    /// Annotations of an access in the target dialect; a PTX `seq_cst` access also emits
    /// its leading `fence.sc`.
    fn access(&mut self, k: Access, a: &MemAttrs) -> LResult<MemAttrs> {
        self.common_checks(a, k.word())?;
        let bad = |o: Order| {
            fail(format!(
                "{} cannot express a {} {}",
                self.d.header(),
                o.name(),
                k.word()
            ))
        };
        match self.d {
            Dialect::Ptx => {
                let order = match (k, a.order) {
                    (Access::Rmw, Order::Plain) => Order::Relaxed,
                    (_, Order::Plain | Order::Relaxed) => a.order,
                    (Access::Load, Order::Consume | Order::Acquire | Order::AcqRel) => {
                        Order::Acquire
                    }
                    (Access::Store, Order::Release | Order::AcqRel) => Order::Release,
                    (Access::Rmw, Order::Consume) => Order::Acquire,
                    (Access::Rmw, o @ (Order::Acquire | Order::Release | Order::AcqRel)) => o,
                    (_, Order::SeqCst) => {
                        self.sc_prefix(ptx_scope(a.scope));
                        match k {
                            Access::Load => Order::Acquire,
                            Access::Store => Order::Release,
                            Access::Rmw => Order::AcqRel,
                        }
                    }
                    (_, o) => return Err(bad(o)),
                };
                let mut m = MemAttrs::with_order(order);
                m.proxy = a.proxy;
                if order == Order::Plain {
                    m.volatile = a.volatile;
                } else {
                    m.scope = Some(ptx_scope(a.scope));
                }
                let op = match k {
                    Access::Load => PtxOp::Load,
                    Access::Store => PtxOp::Store,
                    Access::Rmw => PtxOp::Rmw,
                };
                check_ptx(op, &m).map_err(|e| fail(format!("PTX cannot express {e}")))?;
                Ok(m)
            }
            Dialect::Vulkan => {
                if a.volatile {
                    return Err(fail(format!(
                        "VULKAN cannot express a volatile {}",
                        k.word()
                    )));
                }
                if a.proxy != Proxy::Generic {
                    return Err(fail(format!(
                        "VULKAN cannot express a {} through the {} proxy",
                        k.word(),
                        a.proxy.name()
                    )));
                }
                let order = match (k, a.order) {
                    (_, Order::SeqCst) => return Err(bad(Order::SeqCst)),
                    (Access::Rmw, Order::Plain) => Order::Relaxed,
                    (_, Order::Consume) => Order::Acquire,
                    (Access::Load, Order::AcqRel) => Order::Acquire,
                    (Access::Store, Order::AcqRel) => Order::Release,
                    (_, o) => o,
                };
                let mut m = MemAttrs::with_order(order);
                if self.native || !a.vulkan.is_empty() {
                    m.vulkan = a.vulkan.clone();
                    m.vulkan.sem_classes.sort_unstable();
                    m.vulkan.sem_classes.dedup();
                } else if order == Order::Plain {
                    m.vulkan.nonpriv = true;
                } else {
                    derived_semantics(order, &mut m.vulkan);
                }
                if m.vulkan.storage_class.is_none() {
                    m.vulkan.storage_class = Some(0);
                }
                if order != Order::Plain || m.vulkan.av || m.vulkan.vis {
                    m.scope = Some(vk_scope(a.scope));
                }
                let op = match k {
                    Access::Load => VkOp::Load,
                    Access::Store => VkOp::Store,
                    Access::Rmw => VkOp::Rmw,
                };
                check_vulkan(op, &m).map_err(|e| fail(format!("VULKAN cannot express {e}")))?;
                Ok(m)
            }
        }
    }

    fn rmw(&mut self, r: &Rmw) -> LResult<()> {
        let what = self.what();
        if let RmwOp::CompareExchange { .. } = r.op {
            return Err(fail(format!(
                "{what} cannot express a C11 compare-exchange (it has `cas`, which returns the old value)"
            )));
        }
        if r.fail_order.is_some() {
            return Err(fail(format!(
                "{what} cannot express a separate failure order of a compare-and-swap"
            )));
        }
        if r.args.len() != r.op.arity() {
            return Err(fail(format!(
                "`{}` with the wrong number of operands",
                r.op.name()
            )));
        }
        if r.dst.is_none() {
            if self.d == Dialect::Vulkan {
                return Err(fail(
                    "VULKAN cannot express a reduction (an rmw without a result register)",
                ));
            }
            if matches!(r.op, RmwOp::Exch | RmwOp::Cas) {
                return Err(fail(format!("PTX has no `red.{}`", r.op.name())));
            }
        }
        let loc = self.addr(&r.addr)?;
        let mut args = Vec::new();
        for a in &r.args {
            args.push(self.atom(a, 0)?);
        }
        let attrs = self.access(Access::Rmw, &r.attrs)?;
        self.push(StmtKind::Rmw(Rmw {
            dst: r.dst,
            addr: Expr::Addr(loc),
            op: r.op,
            args,
            attrs,
            fail_order: None,
        }));
        Ok(())
    }

    fn fence(&mut self, f: &Fence) -> LResult<()> {
        let a = &f.attrs;
        let kind = f.kind;
        let attrs = match (self.d, kind) {
            (Dialect::Vulkan, FenceKind::AvDevice | FenceKind::VisDevice) => MemAttrs::default(),
            (Dialect::Ptx, FenceKind::AvDevice | FenceKind::VisDevice) => {
                return Err(fail("PTX cannot express Vulkan's `avdevice`/`visdevice`"))
            }
            (Dialect::Ptx, FenceKind::ProxyFence(p)) => {
                if p == Some(Proxy::Generic) {
                    return Err(fail("PTX has no generic-proxy fence"));
                }
                MemAttrs::default()
            }
            (Dialect::Vulkan, FenceKind::ProxyFence(_)) => {
                return Err(fail("VULKAN cannot express a proxy fence"))
            }
            (Dialect::Ptx, FenceKind::Membar) => {
                MemAttrs::scoped(Order::SeqCst, ptx_scope(a.scope))
            }
            (Dialect::Ptx, FenceKind::Fence) => {
                let order = match a.order {
                    Order::SeqCst => Order::SeqCst,
                    Order::Consume | Order::Acquire | Order::Release | Order::AcqRel => {
                        Order::AcqRel
                    }
                    Order::Relaxed => return Ok(()),
                    Order::Plain => {
                        return Err(fail("PTX cannot express a fence without an order"))
                    }
                };
                MemAttrs::scoped(order, ptx_scope(a.scope))
            }
            (Dialect::Vulkan, FenceKind::Membar | FenceKind::Fence) => {
                let order = match a.order {
                    Order::SeqCst => {
                        return Err(fail(format!(
                            "VULKAN cannot express a seq_cst fence{}",
                            if kind == FenceKind::Membar {
                                " (PTX `membar`)"
                            } else {
                                ""
                            }
                        )))
                    }
                    Order::Consume => Order::Acquire,
                    Order::Relaxed if kind == FenceKind::Fence => return Ok(()),
                    Order::Plain | Order::Relaxed => {
                        if kind == FenceKind::Membar {
                            Order::AcqRel
                        } else {
                            return Err(fail("VULKAN cannot express a fence without an order"));
                        }
                    }
                    o => o,
                };
                let mut m = MemAttrs::scoped(order, vk_scope(a.scope));
                if (self.native && kind == FenceKind::Fence) || !a.vulkan.is_empty() {
                    m.vulkan.sem_classes = a.vulkan.sem_classes.clone();
                    m.vulkan.sem_classes.sort_unstable();
                    m.vulkan.sem_classes.dedup();
                    m.vulkan.sem_av = a.vulkan.sem_av;
                    m.vulkan.sem_vis = a.vulkan.sem_vis;
                } else {
                    derived_semantics(order, &mut m.vulkan);
                }
                check_vulkan(VkOp::Membar, &m)
                    .map_err(|e| fail(format!("VULKAN cannot express {e}")))?;
                m
            }
        };
        let kind = if self.d == Dialect::Vulkan && kind == FenceKind::Membar {
            FenceKind::Fence
        } else {
            kind
        };
        self.push(StmtKind::Fence(Fence {
            kind,
            attrs,
            spaces: Vec::new(),
        }));
        Ok(())
    }

    fn barrier(&mut self, b: &Barrier) -> LResult<()> {
        let id = self.atom(&b.id, 0)?;
        let mut operands = Vec::new();
        for o in &b.operands {
            operands.push(self.atom(o, 0)?);
        }
        let (kind, scope, attrs) = match self.d {
            Dialect::Ptx => {
                if b.kind == BarrierKind::Warp || b.scope != Scope::Cta {
                    return Err(fail(format!(
                        "PTX (Dat3M) has only CTA barriers, not a {} barrier",
                        if b.kind == BarrierKind::Warp {
                            "warp"
                        } else {
                            b.scope.name()
                        }
                    )));
                }
                (b.kind, Scope::Cta, MemAttrs::default())
            }
            Dialect::Vulkan => {
                let scope = match (b.kind, b.scope) {
                    (BarrierKind::Arrive, _) => {
                        return Err(fail("VULKAN cannot express an arrive-only barrier"))
                    }
                    (BarrierKind::Warp, _) => Scope::Warp,
                    (_, Scope::Thread) => {
                        return Err(fail("VULKAN cannot express a thread-scope barrier"))
                    }
                    (_, s) => vk_scope(Some(s)),
                };
                let a = &b.attrs;
                let order = match a.order {
                    Order::SeqCst => return Err(fail("VULKAN cannot express a seq_cst barrier")),
                    Order::Consume => Order::Acquire,
                    Order::Relaxed => Order::Plain,
                    Order::Plain
                        if !self.native
                            && a.vulkan.is_empty()
                            && matches!(self.src, Arch::Ptx | Arch::GpuPtx) =>
                    {
                        // A PTX `bar.sync` orders the memory accesses around it.
                        Order::AcqRel
                    }
                    o => o,
                };
                let mut m = MemAttrs::with_order(order);
                if order != Order::Plain {
                    m.scope = Some(scope);
                    if self.native || !a.vulkan.is_empty() {
                        m.vulkan.sem_classes = a.vulkan.sem_classes.clone();
                        m.vulkan.sem_classes.sort_unstable();
                        m.vulkan.sem_classes.dedup();
                        m.vulkan.sem_av = a.vulkan.sem_av;
                        m.vulkan.sem_vis = a.vulkan.sem_vis;
                    } else {
                        derived_semantics(order, &mut m.vulkan);
                    }
                }
                check_vulkan(VkOp::Cbar, &m)
                    .map_err(|e| fail(format!("VULKAN cannot express {e}")))?;
                (BarrierKind::Sync, scope, m)
            }
        };
        self.push(StmtKind::Barrier(Barrier {
            kind,
            scope,
            id,
            operands,
            attrs,
            spaces: Vec::new(),
        }));
        Ok(())
    }
}

fn local(op: BinOp) -> Option<BinOp> {
    matches!(
        op,
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::And | BinOp::Or | BinOp::Xor
    )
    .then_some(op)
}

fn negate(op: BinOp) -> BinOp {
    match op {
        BinOp::Eq => BinOp::Ne,
        BinOp::Ne => BinOp::Eq,
        BinOp::Lt => BinOp::Ge,
        BinOp::Ge => BinOp::Lt,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        o => o,
    }
}

/// The registers a printed statement names, in the order its text names them (the order
/// in which a re-parse declares them).
pub(crate) fn stmt_regs(s: &Stmt, out: &mut Vec<Reg>) {
    match &s.kind {
        StmtKind::Load(l) => out.push(l.dst),
        StmtKind::Store(st) => st.value.regs(out),
        StmtKind::Rmw(r) => {
            out.extend(r.dst);
            for a in &r.args {
                a.regs(out);
            }
        }
        StmtKind::Barrier(b) => {
            b.id.regs(out);
            for o in &b.operands {
                o.regs(out);
            }
        }
        StmtKind::Assign { dst, value } => {
            out.push(*dst);
            value.regs(out);
        }
        StmtKind::Jump { cond: Some(c), .. } => c.regs(out),
        _ => {}
    }
}

/// Puts each thread's registers in the order a re-parse declares them: initialised ones
/// first (a register only the condition reads gets the initial value 0, which it has
/// anyway), then the others by first use; unused ones disappear.
fn order_registers(q: &mut Program) {
    let mut cond_regs: Vec<HashSet<Reg>> = vec![HashSet::new(); q.threads.len()];
    {
        let mut terms: Vec<&Term> = Vec::new();
        if let Some(c) = &q.condition {
            c.prop.terms(&mut terms);
        }
        if let Some(f) = &q.filter {
            f.terms(&mut terms);
        }
        terms.extend(q.observed.iter());
        for t in terms {
            if let Term::Reg { thread, reg } = t {
                if let Some(s) = cond_regs.get_mut(*thread) {
                    s.insert(*reg);
                }
            }
        }
    }
    let mut maps: Vec<HashMap<Reg, Reg>> = Vec::new();
    for (ti, th) in q.threads.iter_mut().enumerate() {
        let mut used = Vec::new();
        for s in &th.code {
            stmt_regs(s, &mut used);
        }
        let used_set: HashSet<Reg> = used.iter().copied().collect();
        for (i, r) in th.regs.iter_mut().enumerate() {
            let reg = Reg(i as u32);
            if r.init.is_none()
                && !used_set.contains(&reg)
                && cond_regs.get(ti).is_some_and(|s| s.contains(&reg))
            {
                r.init = Some(Value::Int(0));
            }
        }
        let mut order: Vec<Reg> = (0..th.regs.len() as u32)
            .map(Reg)
            .filter(|r| th.regs.get(r.index()).is_some_and(|d| d.init.is_some()))
            .collect();
        let mut placed: HashSet<Reg> = order.iter().copied().collect();
        for r in used {
            if placed.insert(r) {
                order.push(r);
            }
        }
        let map: HashMap<Reg, Reg> = order
            .iter()
            .enumerate()
            .map(|(new, old)| (*old, Reg(new as u32)))
            .collect();
        th.regs = order
            .iter()
            .filter_map(|r| th.regs.get(r.index()).cloned())
            .collect();
        for s in &mut th.code {
            remap_stmt(s, &map);
        }
        maps.push(map);
    }
    let remap_term = |t: &mut Term| {
        if let Term::Reg { thread, reg } = t {
            if let Some(n) = maps.get(*thread).and_then(|m| m.get(reg)) {
                *reg = *n;
            }
        }
    };
    if let Some(c) = &mut q.condition {
        remap_prop(&mut c.prop, &remap_term);
    }
    if let Some(f) = &mut q.filter {
        remap_prop(f, &remap_term);
    }
    for t in &mut q.observed {
        remap_term(t);
    }
}

fn remap_prop(p: &mut Prop, f: &dyn Fn(&mut Term)) {
    match p {
        Prop::Cmp(a, _, b) => {
            f(a);
            f(b);
        }
        Prop::Not(a) => remap_prop(a, f),
        Prop::And(a, b) | Prop::Or(a, b) => {
            remap_prop(a, f);
            remap_prop(b, f);
        }
        Prop::True | Prop::False => {}
    }
}

fn remap_expr(e: &mut Expr, m: &HashMap<Reg, Reg>) {
    match e {
        Expr::Reg(r) => {
            if let Some(n) = m.get(r) {
                *r = *n;
            }
        }
        Expr::Un(_, a) => remap_expr(a, m),
        Expr::Bin(_, a, b) => {
            remap_expr(a, m);
            remap_expr(b, m);
        }
        Expr::Int(_) | Expr::Addr(_) => {}
    }
}

fn remap_reg(r: &mut Reg, m: &HashMap<Reg, Reg>) {
    if let Some(n) = m.get(r) {
        *r = *n;
    }
}

fn remap_stmt(s: &mut Stmt, m: &HashMap<Reg, Reg>) {
    match &mut s.kind {
        StmtKind::Load(l) => {
            remap_reg(&mut l.dst, m);
            remap_expr(&mut l.addr, m);
        }
        StmtKind::Store(st) => {
            remap_expr(&mut st.addr, m);
            remap_expr(&mut st.value, m);
        }
        StmtKind::Rmw(r) => {
            if let Some(d) = &mut r.dst {
                remap_reg(d, m);
            }
            remap_expr(&mut r.addr, m);
            for a in &mut r.args {
                remap_expr(a, m);
            }
        }
        StmtKind::Barrier(b) => {
            remap_expr(&mut b.id, m);
            for o in &mut b.operands {
                remap_expr(o, m);
            }
        }
        StmtKind::Assign { dst, value } => {
            remap_reg(dst, m);
            remap_expr(value, m);
        }
        StmtKind::Jump { cond: Some(c), .. } => remap_expr(c, m),
        _ => {}
    }
}
