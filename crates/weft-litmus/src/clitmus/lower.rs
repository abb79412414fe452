//! Lowering of one parsed C/OpenCL thread to IR: name resolution (registers, pointer
//! parameters), the memory-access calls, fresh temporaries for accesses nested in
//! expressions, `return` restructuring, and the canonical register order (the thread's own
//! registers first, temporaries after).

use std::collections::{HashMap, HashSet};

use weft_ir::{
    Barrier, BarrierKind, BinOp, Expr, Fence, FenceKind, Load, LocId, Location, MemAttrs, MemSpace,
    Order, Param, Placement, Program, Reg, RegDecl, Rmw, RmwOp, Scope, Span, Stmt, StmtKind, Store,
    Thread, UnOp, Value,
};

use super::parser::{SExpr, SParam, SStmt, SK};
use super::{Dialect, MAX_DEPTH, ORDERS, SCOPES};
use crate::diag::{quote, ParseError};

type R<T> = Result<T, ParseError>;

/// How many statements `return` restructuring may copy in one thread.
const RESTRUCTURE_BUDGET: usize = 100_000;

/// A register initialised in the initial state (`0:r0=1`).
#[derive(Clone, Debug)]
pub(super) struct RegInit {
    pub thread: usize,
    pub name: String,
    pub span: Span,
    pub value: Value,
}

/// The memory-model functions of C11 and OpenCL that weft understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fun {
    Load {
        explicit: bool,
    },
    Store {
        explicit: bool,
    },
    Rmw {
        op: RmwOp,
        explicit: bool,
    },
    Cas {
        weak: bool,
        explicit: bool,
    },
    WorkItemFence,
    ThreadFence,
    MemFence,
    /// `barrier`, `work_group_barrier` (`named`, level Cta), `sub_group_barrier` (Warp).
    Barrier {
        level: Scope,
        named: bool,
    },
}

/// The C name of a simple read-modify-write (`atomic_fetch_add`, `atomic_exchange`).
pub(crate) fn rmw_name(op: RmwOp) -> Option<&'static str> {
    Some(match op {
        RmwOp::Exch => "atomic_exchange",
        RmwOp::Add => "atomic_fetch_add",
        RmwOp::Sub => "atomic_fetch_sub",
        RmwOp::And => "atomic_fetch_and",
        RmwOp::Or => "atomic_fetch_or",
        RmwOp::Xor => "atomic_fetch_xor",
        RmwOp::Min => "atomic_fetch_min",
        RmwOp::Max => "atomic_fetch_max",
        _ => return None,
    })
}

impl Fun {
    /// The function called `name`, if weft knows it.
    pub(crate) fn lookup(name: &str) -> Option<Fun> {
        let (base, explicit) = match name.strip_suffix("_explicit") {
            Some(b) => (b, true),
            None => (name, false),
        };
        let rmw = [
            RmwOp::Exch,
            RmwOp::Add,
            RmwOp::Sub,
            RmwOp::And,
            RmwOp::Or,
            RmwOp::Xor,
            RmwOp::Min,
            RmwOp::Max,
        ];
        if let Some(op) = rmw.into_iter().find(|op| rmw_name(*op) == Some(base)) {
            return Some(Fun::Rmw { op, explicit });
        }
        Some(match base {
            "atomic_load" => Fun::Load { explicit },
            "atomic_store" => Fun::Store { explicit },
            "atomic_compare_exchange_strong" => Fun::Cas {
                weak: false,
                explicit,
            },
            "atomic_compare_exchange_weak" => Fun::Cas {
                weak: true,
                explicit,
            },
            _ if explicit => return None,
            "atomic_work_item_fence" => Fun::WorkItemFence,
            "atomic_thread_fence" => Fun::ThreadFence,
            "mem_fence" => Fun::MemFence,
            "barrier" => Fun::Barrier {
                level: Scope::Cta,
                named: false,
            },
            "work_group_barrier" => Fun::Barrier {
                level: Scope::Cta,
                named: true,
            },
            "sub_group_barrier" => Fun::Barrier {
                level: Scope::Warp,
                named: true,
            },
            _ => return None,
        })
    }

    /// (fewest arguments, most arguments, index of the optional scope argument).
    fn arity(self) -> (usize, usize, Option<usize>) {
        match self {
            Fun::Load { explicit: false } => (1, 1, None),
            Fun::Load { explicit: true } => (2, 3, Some(2)),
            Fun::Store { explicit: false }
            | Fun::Rmw {
                explicit: false, ..
            } => (2, 2, None),
            Fun::Store { explicit: true } | Fun::Rmw { explicit: true, .. } => (3, 4, Some(3)),
            Fun::Cas {
                explicit: false, ..
            } => (3, 3, None),
            Fun::Cas { explicit: true, .. } => (5, 6, Some(5)),
            Fun::WorkItemFence => (3, 3, None),
            Fun::ThreadFence | Fun::MemFence => (1, 1, None),
            Fun::Barrier { named: false, .. } => (1, 1, None),
            Fun::Barrier { named: true, .. } => (1, 2, Some(1)),
        }
    }

    fn opencl_only(self) -> bool {
        matches!(
            self,
            Fun::WorkItemFence | Fun::MemFence | Fun::Barrier { .. }
        )
    }

    fn returns_value(self) -> bool {
        matches!(self, Fun::Load { .. } | Fun::Rmw { .. } | Fun::Cas { .. })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OrderUse {
    Load,
    Store,
    Any,
}

/// Where the value of an access goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dst {
    /// A fresh temporary (the access is nested in an expression).
    Temp,
    /// A register of the source (`r = *x;`).
    Reg(Reg),
    /// Nowhere (`atomic_fetch_add(x, 1);`).
    Discard,
}

#[derive(Clone, Copy, Debug)]
enum Binding {
    Reg(Reg),
    /// Index into the thread's parameters.
    Param(usize),
}

/// What a thread header declares.
pub(super) struct Header<'s> {
    pub name: &'s str,
    pub placement: Placement,
    pub params: Vec<SParam<'s>>,
    pub inits: Vec<RegInit>,
}

/// Lowers the statements of one thread as the parser delivers them.
pub(super) struct Lowerer<'p> {
    prog: &'p Program,
    /// Statements and registers this test may still add (see [`super::MAX_ITEMS`]).
    budget: usize,
    /// Volatility of each location reached through a parameter.
    volatile: HashMap<LocId, bool>,
    dialect: Dialect,
    t: Thread,
    code: Vec<Stmt>,
    names: HashMap<String, Binding>,
    /// Per register: where the code declared it (None: the initial state or a temporary).
    decl_at: Vec<Option<(u32, u32)>>,
    /// Labels defined so far, with where.
    labels: HashMap<String, Span>,
}

impl<'p> Lowerer<'p> {
    /// Starts a thread: its initialised registers and its parameters, declaring the
    /// locations the parameters name.
    pub(super) fn new(
        prog: &'p mut Program,
        locs: &mut HashMap<String, LocId>,
        budget: usize,
        dialect: Dialect,
        header: Header<'_>,
    ) -> R<Self> {
        let Header {
            name,
            placement,
            params,
            inits,
        } = header;
        let mut t = Thread::new(name);
        t.placement = placement;
        let mut names = HashMap::new();
        let mut decl_at = Vec::new();
        for ri in inits {
            names.insert(ri.name.clone(), Binding::Reg(Reg(t.regs.len() as u32)));
            t.regs.push(RegDecl {
                name: ri.name,
                ty: None,
                init: Some(ri.value),
                temp: false,
            });
            decl_at.push(None);
        }
        for p in params {
            if names.contains_key(p.name) {
                return Err(ParseError::at(
                    p.span,
                    format!(
                        "{} is a register of {name} (initial state) and cannot also be a parameter",
                        quote(p.name)
                    ),
                ));
            }
            let loc = match locs.get(p.name) {
                Some(l) => *l,
                None => {
                    let mut loc = Location::scalar(p.name, 0);
                    loc.span = p.span;
                    prog.locations.push(loc);
                    let id = LocId(prog.locations.len() as u32 - 1);
                    locs.insert(p.name.to_string(), id);
                    id
                }
            };
            if let Some(l) = prog.locations.get_mut(loc.index()) {
                if p.space == Some(MemSpace::Shared) {
                    l.space = MemSpace::Shared;
                }
                if p.atomic {
                    l.atomic = true;
                }
            }
            names.insert(p.name.to_string(), Binding::Param(t.params.len()));
            t.params.push(Param {
                name: p.name.to_string(),
                loc,
                space: p.space,
                atomic: p.atomic,
                volatile: p.volatile,
                base: p.base.to_string(),
            });
        }
        let volatile = t.params.iter().map(|p| (p.loc, p.volatile)).collect();
        Ok(Lowerer {
            prog,
            budget,
            volatile,
            dialect,
            t,
            code: Vec::new(),
            names,
            decl_at,
            labels: HashMap::new(),
        })
    }

    /// Counts `n` more items against the test's size budget.
    pub(super) fn charge(&mut self, n: usize, span: Span) -> R<()> {
        if n > self.budget {
            return Err(ParseError::at(
                span,
                format!(
                    "test too large: more than {} statements, registers, locations, threads and condition terms",
                    super::MAX_ITEMS
                ),
            ));
        }
        self.budget -= n;
        Ok(())
    }

    fn push(&mut self, out: &mut Vec<Stmt>, s: Stmt) -> R<()> {
        self.charge(1, s.span)?;
        out.push(s);
        Ok(())
    }

    /// Lowers statements that contain no `return`.
    pub(super) fn lower(&mut self, stmts: &[SStmt]) -> R<()> {
        let mut out = std::mem::take(&mut self.code);
        let r = stmts.iter().try_for_each(|s| self.stmt(s, &mut out));
        self.code = out;
        r
    }

    /// Lowers the rest of a thread from the first statement containing a `return`.
    pub(super) fn lower_with_returns(&mut self, stmts: Vec<SStmt>) -> R<()> {
        // Registers are declared in source order first: restructuring may move a use
        // before its declaration.
        self.predeclare(&stmts)?;
        let mut budget = RESTRUCTURE_BUDGET;
        let body = restructure(stmts, 0, &mut budget)?;
        check_depth(&body, 1)?;
        self.lower(&body)
    }

    fn predeclare(&mut self, stmts: &[SStmt]) -> R<()> {
        for s in stmts {
            match s {
                SStmt::Decl { ty, name, span, .. } => {
                    self.declare(name, *ty, *span)?;
                }
                SStmt::If { then, els, .. } => {
                    self.predeclare(then)?;
                    self.predeclare(els)?;
                }
                SStmt::While { body, .. } => self.predeclare(body)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// The finished thread: temporaries named `__t0`, `__t1`, ... (skipping the thread's
    /// other names) and listed after its own registers.
    pub(super) fn finish(self) -> (Thread, usize) {
        let mut t = self.t;
        t.code = self.code;
        let mut taken: HashSet<String> = t
            .regs
            .iter()
            .filter(|r| !r.temp)
            .map(|r| r.name.clone())
            .collect();
        taken.extend(t.params.iter().map(|p| p.name.clone()));
        taken.extend(self.labels.into_keys());
        let mut k = 0u32;
        for r in t.regs.iter_mut().filter(|r| r.temp) {
            loop {
                let name = format!("__t{k}");
                k += 1;
                if !taken.contains(&name) {
                    r.name = name;
                    break;
                }
            }
        }
        reorder_temps(&mut t);
        (t, self.budget)
    }
}

/// Whether a statement contains a `return`.
pub(super) fn has_return(s: &SStmt) -> bool {
    first_return(std::slice::from_ref(s)).is_some()
}

// ---- return restructuring ----

fn first_return(s: &[SStmt]) -> Option<Span> {
    s.iter().find_map(|s| match s {
        SStmt::Return(sp) => Some(*sp),
        SStmt::If { then, els, .. } => first_return(then).or_else(|| first_return(els)),
        SStmt::While { body, .. } => first_return(body),
        _ => None,
    })
}

pub(super) fn size(s: &[SStmt]) -> usize {
    s.iter()
        .map(|s| match s {
            SStmt::If { then, els, .. } => 1 + size(then) + size(els),
            SStmt::While { body, .. } => 1 + size(body),
            _ => 1,
        })
        .sum()
}

/// Removes `return`s: what follows an `if` containing one moves into its branches.
fn restructure<'a>(items: Vec<SStmt<'a>>, depth: u32, budget: &mut usize) -> R<Vec<SStmt<'a>>> {
    let mut out = Vec::with_capacity(items.len());
    let mut it = items.into_iter();
    while let Some(s) = it.next() {
        match s {
            SStmt::Return(_) => return Ok(out),
            SStmt::While { cond, body, span } => {
                if let Some(r) = first_return(&body) {
                    return Err(ParseError::at(r, "`return` inside a loop is not supported"));
                }
                out.push(SStmt::While { cond, body, span });
            }
            SStmt::If {
                cond,
                then,
                els,
                span,
            } if first_return(&then).is_some() || first_return(&els).is_some() => {
                let rest: Vec<SStmt<'a>> = it.collect();
                let cost = size(&rest);
                if cost > *budget || depth + 1 >= MAX_DEPTH {
                    return Err(ParseError::at(
                        span,
                        "too many `return`s: restructuring them would nest or copy too much code",
                    ));
                }
                *budget -= cost;
                let mut t = then;
                t.extend(rest.iter().cloned());
                let mut e = els;
                e.extend(rest);
                let t = restructure(t, depth + 1, budget)?;
                let e = restructure(e, depth + 1, budget)?;
                out.push(SStmt::If {
                    cond,
                    then: t,
                    els: e,
                    span,
                });
                return Ok(out);
            }
            other => out.push(other),
        }
    }
    Ok(out)
}

/// Checks that statement lists nest at most [`MAX_DEPTH`] deep.
fn check_depth(s: &[SStmt], depth: u32) -> R<()> {
    for st in s {
        let (sub, span): (Vec<&[SStmt]>, Span) = match st {
            SStmt::If {
                then, els, span, ..
            } => (vec![then.as_slice(), els.as_slice()], *span),
            SStmt::While { body, span, .. } => (vec![body.as_slice()], *span),
            _ => continue,
        };
        if depth > MAX_DEPTH {
            return Err(ParseError::at(
                span,
                format!("statements nested too deeply (more than {MAX_DEPTH} levels)"),
            ));
        }
        for b in sub {
            check_depth(b, depth + 1)?;
        }
    }
    Ok(())
}

// ---- canonical register order ----

fn reorder_temps(t: &mut Thread) {
    let n = t.regs.len();
    let order: Vec<usize> = (0..n)
        .filter(|i| !t.regs[*i].temp)
        .chain((0..n).filter(|i| t.regs[*i].temp))
        .collect();
    if order.iter().enumerate().all(|(k, i)| k == *i) {
        return;
    }
    let mut map = vec![Reg(0); n];
    for (new, old) in order.iter().enumerate() {
        map[*old] = Reg(new as u32);
    }
    t.regs = order.iter().map(|i| t.regs[*i].clone()).collect();
    remap_stmts(&mut t.code, &map);
}

fn remap_reg(r: &mut Reg, map: &[Reg]) {
    if let Some(n) = map.get(r.index()) {
        *r = *n;
    }
}

fn remap_expr(e: &mut Expr, map: &[Reg]) {
    match e {
        Expr::Reg(r) => remap_reg(r, map),
        Expr::Un(_, a) => remap_expr(a, map),
        Expr::Bin(_, a, b) => {
            remap_expr(a, map);
            remap_expr(b, map);
        }
        Expr::Int(_) | Expr::Addr(_) => {}
    }
}

fn remap_stmts(code: &mut [Stmt], map: &[Reg]) {
    for s in code {
        if let Some(g) = &mut s.guard {
            remap_reg(&mut g.reg, map);
        }
        match &mut s.kind {
            StmtKind::Load(l) => {
                remap_reg(&mut l.dst, map);
                remap_expr(&mut l.addr, map);
            }
            StmtKind::Store(st) => {
                remap_expr(&mut st.addr, map);
                remap_expr(&mut st.value, map);
            }
            StmtKind::Rmw(r) => {
                if let Some(d) = &mut r.dst {
                    remap_reg(d, map);
                }
                remap_expr(&mut r.addr, map);
                r.args.iter_mut().for_each(|a| remap_expr(a, map));
            }
            StmtKind::Barrier(b) => {
                remap_expr(&mut b.id, map);
                b.operands.iter_mut().for_each(|a| remap_expr(a, map));
            }
            StmtKind::Assign { dst, value } => {
                remap_reg(dst, map);
                remap_expr(value, map);
            }
            StmtKind::Jump { cond, .. } => {
                if let Some(c) = cond {
                    remap_expr(c, map);
                }
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                remap_expr(cond, map);
                remap_stmts(then_branch, map);
                remap_stmts(else_branch, map);
            }
            StmtKind::While {
                prelude,
                cond,
                body,
            } => {
                remap_stmts(prelude, map);
                remap_expr(cond, map);
                remap_stmts(body, map);
            }
            StmtKind::Assume(e) | StmtKind::Assert(e) => remap_expr(e, map),
            StmtKind::Fence(_) | StmtKind::Label(_) => {}
        }
    }
}

fn count_addrs(e: &Expr, out: &mut Vec<LocId>) {
    match e {
        Expr::Addr(l) => out.push(*l),
        Expr::Un(_, a) => count_addrs(a, out),
        Expr::Bin(_, a, b) => {
            count_addrs(a, out);
            count_addrs(b, out);
        }
        Expr::Int(_) | Expr::Reg(_) => {}
    }
}

/// The first memory access inside `e`, if any.
fn find_access<'e, 'a>(e: &'e SExpr<'a>) -> Option<&'e SExpr<'a>> {
    match &e.kind {
        SK::Deref(_) | SK::Index(..) | SK::Call { .. } => Some(e),
        SK::Un(_, a) => find_access(a),
        SK::Bin(_, a, b) => find_access(a).or_else(|| find_access(b)),
        SK::Int(_) | SK::Name(_) => None,
    }
}

fn plain(volatile: bool) -> MemAttrs {
    MemAttrs {
        volatile,
        ..MemAttrs::default()
    }
}

impl Lowerer<'_> {
    fn block(&mut self, stmts: &[SStmt]) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        for s in stmts {
            self.stmt(s, &mut out)?;
        }
        Ok(out)
    }

    fn stmt(&mut self, s: &SStmt, out: &mut Vec<Stmt>) -> R<()> {
        match s {
            SStmt::Decl {
                ty,
                name,
                span,
                init,
            } => {
                let r = self.declare(name, *ty, *span)?;
                if let Some(e) = init {
                    self.assign(r, e, *span, out)?;
                }
            }
            SStmt::Assign {
                target,
                span,
                value,
            } => {
                let r = match self.names.get(*target) {
                    Some(Binding::Reg(r)) => *r,
                    Some(Binding::Param(_)) => {
                        return Err(ParseError::at(
                            *span,
                            format!(
                                "cannot assign to the pointer parameter {}; write `*{} = ...`",
                                quote(target),
                                target
                            ),
                        ))
                    }
                    None => return Err(self.undeclared(target, *span)),
                };
                self.assign(r, value, *span, out)?;
            }
            SStmt::Store {
                target,
                value,
                span,
            } => {
                let (addr, volatile) = match &target.kind {
                    SK::Deref(p) => self.address(p, out)?,
                    SK::Index(b, i) => self.index_addr(b, i, out)?,
                    _ => {
                        return Err(ParseError::at(
                            target.span,
                            "cannot assign to this expression",
                        ))
                    }
                };
                let value = self.expr(value, out)?;
                self.push(
                    out,
                    Stmt::new(
                        StmtKind::Store(Store {
                            addr,
                            value,
                            attrs: plain(volatile),
                        }),
                        *span,
                    ),
                )?;
            }
            SStmt::Expr(e) => self.discard(e, out)?,
            SStmt::If {
                cond,
                then,
                els,
                span,
            } => {
                let cond = self.expr(cond, out)?;
                let then_branch = self.block(then)?;
                let else_branch = self.block(els)?;
                self.push(
                    out,
                    Stmt::new(
                        StmtKind::If {
                            cond,
                            then_branch,
                            else_branch,
                        },
                        *span,
                    ),
                )?;
            }
            SStmt::While { cond, body, span } => {
                let mut prelude = Vec::new();
                let cond = self.expr(cond, &mut prelude)?;
                let body = self.block(body)?;
                self.push(
                    out,
                    Stmt::new(
                        StmtKind::While {
                            prelude,
                            cond,
                            body,
                        },
                        *span,
                    ),
                )?;
            }
            SStmt::Label { name, span } => {
                if let Some(first) = self.labels.insert(name.to_string(), *span) {
                    let why = if (first.line, first.col) == (span.line, span.col) {
                        ": a `return` in an `if` before it makes weft copy the code after that `if` into both branches"
                    } else {
                        ""
                    };
                    return Err(ParseError::at(
                        *span,
                        format!(
                            "label {} defined twice in {}{why}",
                            quote(name),
                            self.t.name
                        ),
                    ));
                }
                self.push(out, Stmt::new(StmtKind::Label(name.to_string()), *span))?;
            }
            SStmt::Return(span) => {
                return Err(ParseError::at(*span, "`return` is not supported here"));
            }
        }
        Ok(())
    }

    fn undeclared(&self, name: &str, span: Span) -> ParseError {
        if name.starts_with("memory_order_") || name.starts_with("memory_scope_") {
            ParseError::at(
                span,
                format!("{} can only be an argument of an atomic call", quote(name)),
            )
        } else if name.starts_with("CLK_") {
            ParseError::at(
                span,
                format!("{} can only be a fence or barrier flag", quote(name)),
            )
        } else if self.prog.loc_by_name(name).is_some() {
            ParseError::at(
                span,
                format!(
                    "undeclared variable {}: {} does not take the location as a parameter",
                    quote(name),
                    self.t.name
                ),
            )
        } else {
            ParseError::at(span, format!("undeclared variable {}", quote(name)))
        }
    }

    fn declare(&mut self, name: &str, ty: weft_ir::DataType, span: Span) -> R<Reg> {
        let here = (span.line, span.col);
        match self.names.get(name) {
            Some(Binding::Reg(r)) => {
                let r = *r;
                match self.decl_at.get(r.index()).copied().flatten() {
                    Some(at) if at == here => Ok(r),
                    Some(at) => Err(ParseError::at(
                        span,
                        format!(
                            "register {} declared twice in {} (first at {}:{})",
                            quote(name),
                            self.t.name,
                            at.0,
                            at.1
                        ),
                    )),
                    None => {
                        if let Some(d) = self.decl_at.get_mut(r.index()) {
                            *d = Some(here);
                        }
                        if let Some(d) = self.t.regs.get_mut(r.index()) {
                            d.ty = Some(ty);
                        }
                        Ok(r)
                    }
                }
            }
            Some(Binding::Param(_)) => Err(ParseError::at(
                span,
                format!(
                    "{} is a parameter of {} and cannot be declared as a register",
                    quote(name),
                    self.t.name
                ),
            )),
            None => {
                self.charge(1, span)?;
                let r = Reg(self.t.regs.len() as u32);
                self.t.regs.push(RegDecl {
                    name: name.to_string(),
                    ty: Some(ty),
                    init: None,
                    temp: false,
                });
                self.decl_at.push(Some(here));
                self.names.insert(name.to_string(), Binding::Reg(r));
                Ok(r)
            }
        }
    }

    fn fresh_temp(&mut self) -> Reg {
        let r = Reg(self.t.regs.len() as u32);
        self.t.regs.push(RegDecl {
            name: String::new(),
            ty: None,
            init: None,
            temp: true,
        });
        self.decl_at.push(None);
        r
    }

    /// `r = e`: an access goes straight into `r`, anything else is an assignment.
    fn assign(&mut self, r: Reg, e: &SExpr, span: Span, out: &mut Vec<Stmt>) -> R<()> {
        if matches!(e.kind, SK::Deref(_) | SK::Index(..) | SK::Call { .. }) {
            self.access(e, Dst::Reg(r), out)?;
            return Ok(());
        }
        let value = self.expr(e, out)?;
        self.push(out, Stmt::new(StmtKind::Assign { dst: r, value }, span))?;
        Ok(())
    }

    fn resolve(&self, name: &str, span: Span) -> R<Expr> {
        match self.names.get(name) {
            Some(Binding::Reg(r)) => Ok(Expr::Reg(*r)),
            Some(Binding::Param(i)) => match self.t.params.get(*i) {
                Some(p) => Ok(Expr::Addr(p.loc)),
                None => Err(self.undeclared(name, span)),
            },
            None => Err(self.undeclared(name, span)),
        }
    }

    fn no_access_in(&self, e: &SExpr) -> R<()> {
        match find_access(e) {
            Some(a) => Err(ParseError::at(
                a.span,
                "memory access on the right of `&&`/`||` (evaluated only sometimes) is not supported; use an `if`",
            )),
            None => Ok(()),
        }
    }

    /// The value of `e`; its memory accesses become statements in `out`. The two
    /// operands of a binary operator (other than `&&`/`||`, whose right side may not
    /// access memory) are unsequenced (C11 §6.5p2), and so are their accesses.
    fn expr(&mut self, e: &SExpr, out: &mut Vec<Stmt>) -> R<Expr> {
        match &e.kind {
            SK::Int(n) => Ok(Expr::Int(*n)),
            SK::Name(n) => self.resolve(n, e.span),
            SK::Un(op, a) => {
                let v = self.expr(a, out)?;
                if let (UnOp::Neg, Expr::Int(n)) = (op, &v) {
                    return Ok(Expr::Int(n.wrapping_neg()));
                }
                Ok(Expr::un(*op, v))
            }
            SK::Bin(op, a, b) => {
                if matches!(op, BinOp::LAnd | BinOp::LOr) {
                    self.no_access_in(b)?;
                }
                let a_start = out.len();
                let l = self.expr(a, out)?;
                let b_start = out.len();
                let r = self.expr(b, out)?;
                unsequence(out, a_start, b_start);
                Ok(Expr::bin(*op, l, r))
            }
            SK::Deref(_) | SK::Index(..) | SK::Call { .. } => {
                match self.access(e, Dst::Temp, out)? {
                    Some(r) => Ok(Expr::Reg(r)),
                    None => Err(ParseError::at(e.span, "this call returns no value")),
                }
            }
        }
    }

    /// An expression whose value is discarded: only its memory accesses remain.
    fn discard(&mut self, e: &SExpr, out: &mut Vec<Stmt>) -> R<()> {
        match &e.kind {
            SK::Int(_) => Ok(()),
            SK::Name(n) => self.resolve(n, e.span).map(|_| ()),
            SK::Un(_, a) => {
                no_void_operand(a)?;
                self.discard(a, out)
            }
            SK::Bin(op, a, b) => {
                no_void_operand(a)?;
                no_void_operand(b)?;
                if matches!(op, BinOp::LAnd | BinOp::LOr) {
                    self.no_access_in(b)?;
                }
                let a_start = out.len();
                self.discard(a, out)?;
                let b_start = out.len();
                self.discard(b, out)?;
                unsequence(out, a_start, b_start);
                Ok(())
            }
            SK::Deref(_) | SK::Index(..) | SK::Call { .. } => {
                self.access(e, Dst::Discard, out).map(|_| ())
            }
        }
    }

    /// A pointer expression: exactly one parameter plus integer offsets.
    fn address(&mut self, e: &SExpr, out: &mut Vec<Stmt>) -> R<(Expr, bool)> {
        let v = self.expr(e, out)?;
        self.check_pointer(v, e.span)
    }

    fn check_pointer(&self, v: Expr, span: Span) -> R<(Expr, bool)> {
        let mut locs = Vec::new();
        count_addrs(&v, &mut locs);
        match locs.as_slice() {
            [l] => {
                let volatile = self.volatile.get(l).copied().unwrap_or(false);
                Ok((v, volatile))
            }
            [] => Err(ParseError::at(
                span,
                format!("expected a pointer (a parameter of {}) here", self.t.name),
            )),
            _ => Err(ParseError::at(
                span,
                "an address cannot combine two pointers",
            )),
        }
    }

    fn index_addr(&mut self, b: &SExpr, i: &SExpr, out: &mut Vec<Stmt>) -> R<(Expr, bool)> {
        let base = self.expr(b, out)?;
        let idx = self.expr(i, out)?;
        self.check_pointer(Expr::bin(BinOp::Add, base, idx), b.span)
    }

    fn load_dst(&mut self, dst: Dst) -> Reg {
        match dst {
            Dst::Reg(r) => r,
            Dst::Temp | Dst::Discard => self.fresh_temp(),
        }
    }

    fn access(&mut self, e: &SExpr, dst: Dst, out: &mut Vec<Stmt>) -> R<Option<Reg>> {
        let (addr, volatile) = match &e.kind {
            SK::Deref(p) => self.address(p, out)?,
            SK::Index(b, i) => self.index_addr(b, i, out)?,
            SK::Call { name, args, close } => {
                return self.call(name, e.span, args, *close, dst, out)
            }
            _ => return Err(ParseError::at(e.span, "expected a memory access")),
        };
        let r = self.load_dst(dst);
        self.push(
            out,
            Stmt::new(
                StmtKind::Load(Load {
                    dst: r,
                    addr,
                    attrs: plain(volatile),
                }),
                e.span,
            ),
        )?;
        Ok(Some(r))
    }

    fn order(&self, a: &SExpr, usage: OrderUse) -> R<Order> {
        let name = match a.kind {
            SK::Name(n) => n,
            _ => {
                return Err(ParseError::at(
                    a.span,
                    "expected a memory order such as `memory_order_relaxed`",
                ))
            }
        };
        let Some(o) = ORDERS.iter().find(|(n, _)| *n == name).map(|(_, o)| *o) else {
            return Err(ParseError::at(
                a.span,
                format!(
                    "bad memory order {}: expected memory_order_relaxed, _consume, _acquire, _release, _acq_rel or _seq_cst",
                    quote(name)
                ),
            ));
        };
        let bad = match usage {
            OrderUse::Load => matches!(o, Order::Release | Order::AcqRel),
            OrderUse::Store => matches!(o, Order::Acquire | Order::Consume | Order::AcqRel),
            OrderUse::Any => false,
        };
        if bad {
            let what = if usage == OrderUse::Load {
                "a load"
            } else {
                "a store"
            };
            return Err(ParseError::at(
                a.span,
                format!("{} is not a valid order for {what}", quote(name)),
            ));
        }
        Ok(o)
    }

    fn scope(&self, a: &SExpr) -> R<Scope> {
        let name = match a.kind {
            SK::Name(n) => n,
            _ => {
                return Err(ParseError::at(
                    a.span,
                    "expected a memory scope such as `memory_scope_device`",
                ))
            }
        };
        SCOPES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| *s)
            .ok_or_else(|| {
                ParseError::at(
                    a.span,
                    format!(
                        "bad memory scope {}: expected memory_scope_work_item, _sub_group, _work_group, _device, _all_svm_devices or _all_devices",
                        quote(name)
                    ),
                )
            })
    }

    fn flags(&self, a: &SExpr, out: &mut Vec<MemSpace>) -> R<()> {
        match &a.kind {
            SK::Bin(BinOp::Or, x, y) => {
                self.flags(x, out)?;
                self.flags(y, out)
            }
            SK::Name("CLK_GLOBAL_MEM_FENCE") => {
                out.push(MemSpace::Global);
                Ok(())
            }
            SK::Name("CLK_LOCAL_MEM_FENCE") => {
                out.push(MemSpace::Shared);
                Ok(())
            }
            SK::Name("CLK_IMAGE_MEM_FENCE") => Err(ParseError::at(
                a.span,
                "`CLK_IMAGE_MEM_FENCE` is not supported (weft has no image memory)",
            )),
            _ => Err(ParseError::at(
                a.span,
                "expected fence flags: `CLK_GLOBAL_MEM_FENCE` and/or `CLK_LOCAL_MEM_FENCE`, joined with `|`",
            )),
        }
    }

    fn spaces(&self, a: &SExpr) -> R<Vec<MemSpace>> {
        let mut v = Vec::new();
        self.flags(a, &mut v)?;
        v.sort();
        v.dedup();
        Ok(v)
    }

    fn atomic_attrs(&self, order: Order, scope: Option<&SExpr>, volatile: bool) -> R<MemAttrs> {
        let scope = match scope {
            Some(a) => Some(self.scope(a)?),
            None => match self.dialect {
                Dialect::OpenCl => Some(Scope::Gpu),
                Dialect::C => None,
            },
        };
        Ok(MemAttrs {
            order,
            scope,
            volatile,
            ..MemAttrs::default()
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        name: &str,
        span: Span,
        args: &[SExpr],
        close: Span,
        dst: Dst,
        out: &mut Vec<Stmt>,
    ) -> R<Option<Reg>> {
        let Some(f) = Fun::lookup(name) else {
            return Err(ParseError::at(
                span,
                format!("unknown function {}", quote(name)),
            ));
        };
        self.check_call(f, name, span, args, close, dst)?;
        let scope_arg = f.arity().2.and_then(|i| args.get(i));
        match f {
            Fun::Load { explicit } => {
                let (addr, volatile) = self.address(&args[0], out)?;
                let order = if explicit {
                    self.order(&args[1], OrderUse::Load)?
                } else {
                    Order::SeqCst
                };
                let attrs = self.atomic_attrs(order, scope_arg, volatile)?;
                let r = self.load_dst(dst);
                self.push(
                    out,
                    Stmt::new(
                        StmtKind::Load(Load {
                            dst: r,
                            addr,
                            attrs,
                        }),
                        span,
                    ),
                )?;
                Ok(Some(r))
            }
            Fun::Store { explicit } => {
                let (addr, volatile) = self.address(&args[0], out)?;
                let value = self.expr(&args[1], out)?;
                let order = if explicit {
                    self.order(&args[2], OrderUse::Store)?
                } else {
                    Order::SeqCst
                };
                let attrs = self.atomic_attrs(order, scope_arg, volatile)?;
                self.push(
                    out,
                    Stmt::new(StmtKind::Store(Store { addr, value, attrs }), span),
                )?;
                Ok(None)
            }
            Fun::Rmw { op, explicit } => {
                let (addr, volatile) = self.address(&args[0], out)?;
                let value = self.expr(&args[1], out)?;
                let order = if explicit {
                    self.order(&args[2], OrderUse::Any)?
                } else {
                    Order::SeqCst
                };
                let attrs = self.atomic_attrs(order, scope_arg, volatile)?;
                let d = match dst {
                    Dst::Reg(r) => Some(r),
                    Dst::Temp => Some(self.fresh_temp()),
                    Dst::Discard => None,
                };
                self.push(
                    out,
                    Stmt::new(
                        StmtKind::Rmw(Rmw {
                            dst: d,
                            addr,
                            op,
                            args: vec![value],
                            attrs,
                            fail_order: None,
                        }),
                        span,
                    ),
                )?;
                Ok(d)
            }
            Fun::Cas { weak, explicit } => {
                self.cas_call(weak, explicit, span, args, scope_arg, dst, out)
            }
            Fun::WorkItemFence => {
                let spaces = self.spaces(&args[0])?;
                let order = self.order(&args[1], OrderUse::Any)?;
                let scope = self.scope(&args[2])?;
                self.push(
                    out,
                    Stmt::new(
                        StmtKind::Fence(Fence {
                            kind: FenceKind::Fence,
                            attrs: MemAttrs::scoped(order, scope),
                            spaces,
                        }),
                        span,
                    ),
                )?;
                Ok(None)
            }
            Fun::ThreadFence => {
                let order = self.order(&args[0], OrderUse::Any)?;
                self.push(
                    out,
                    Stmt::new(
                        StmtKind::Fence(Fence {
                            kind: FenceKind::Fence,
                            attrs: MemAttrs::with_order(order),
                            spaces: Vec::new(),
                        }),
                        span,
                    ),
                )?;
                Ok(None)
            }
            Fun::MemFence => {
                let spaces = self.spaces(&args[0])?;
                self.push(
                    out,
                    Stmt::new(
                        StmtKind::Fence(Fence {
                            kind: FenceKind::Membar,
                            attrs: MemAttrs::with_order(Order::SeqCst),
                            spaces,
                        }),
                        span,
                    ),
                )?;
                Ok(None)
            }
            Fun::Barrier { level, named } => {
                self.barrier_call(level, named, span, args, scope_arg, out)?;
                Ok(None)
            }
        }
    }

    /// Checks a call of `f` against the dialect, the use of its value (`dst`) and its
    /// arity.
    fn check_call(
        &self,
        f: Fun,
        name: &str,
        span: Span,
        args: &[SExpr],
        close: Span,
        dst: Dst,
    ) -> R<()> {
        if f.opencl_only() && self.dialect == Dialect::C {
            return Err(ParseError::at(
                span,
                format!(
                    "{} is OpenCL-only; this is a C test (use an `OPENCL` header)",
                    quote(name)
                ),
            ));
        }
        if !f.returns_value() && dst != Dst::Discard {
            return Err(ParseError::at(
                span,
                format!("{} returns no value", quote(name)),
            ));
        }
        let (min, mut max, scope_at) = f.arity();
        if self.dialect == Dialect::C && scope_at.is_some() {
            max -= 1;
        }
        if args.len() > max {
            let msg = if self.dialect == Dialect::C && Some(max) == scope_at {
                format!(
                    "too many arguments to {}: memory scopes are OpenCL-only (this is a C test)",
                    quote(name)
                )
            } else {
                format!(
                    "too many arguments to {}: it takes {}",
                    quote(name),
                    if min == max {
                        min.to_string()
                    } else {
                        format!("{min} to {max}")
                    }
                )
            };
            return Err(ParseError::at(args[max].span, msg));
        }
        if args.len() < min {
            return Err(ParseError::at(
                close,
                format!(
                    "too few arguments to {}: it takes {}, found {}",
                    quote(name),
                    if min == max {
                        min.to_string()
                    } else {
                        format!("{min} to {max}")
                    },
                    args.len()
                ),
            ));
        }
        Ok(())
    }

    /// A compare-exchange (`weak` or strong, with `explicit` orders).
    #[allow(clippy::too_many_arguments)]
    fn cas_call(
        &mut self,
        weak: bool,
        explicit: bool,
        span: Span,
        args: &[SExpr],
        scope_arg: Option<&SExpr>,
        dst: Dst,
        out: &mut Vec<Stmt>,
    ) -> R<Option<Reg>> {
        let (addr, volatile) = self.address(&args[0], out)?;
        let (expected, _) = self.address(&args[1], out)?;
        let desired = self.expr(&args[2], out)?;
        let (succ, fail) = if explicit {
            (
                self.order(&args[3], OrderUse::Any)?,
                self.order(&args[4], OrderUse::Any)?,
            )
        } else {
            (Order::SeqCst, Order::SeqCst)
        };
        let attrs = self.atomic_attrs(succ, scope_arg, volatile)?;
        let d = match dst {
            Dst::Reg(r) => Some(r),
            Dst::Temp => Some(self.fresh_temp()),
            Dst::Discard => None,
        };
        self.push(
            out,
            Stmt::new(
                StmtKind::Rmw(Rmw {
                    dst: d,
                    addr,
                    op: RmwOp::CompareExchange { weak },
                    args: vec![expected, desired],
                    attrs,
                    fail_order: (fail != succ).then_some(fail),
                }),
                span,
            ),
        )?;
        Ok(d)
    }

    /// A work-group or sub-group barrier (`named`: with a memory scope).
    fn barrier_call(
        &mut self,
        level: Scope,
        named: bool,
        span: Span,
        args: &[SExpr],
        scope_arg: Option<&SExpr>,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let spaces = self.spaces(&args[0])?;
        let mem_scope = match (named, scope_arg) {
            (false, _) => None,
            (true, Some(a)) => Some(self.scope(a)?),
            (true, None) => Some(level),
        };
        self.push(
            out,
            Stmt::new(
                StmtKind::Barrier(Barrier {
                    kind: BarrierKind::Sync,
                    scope: level,
                    id: Expr::Int(0),
                    operands: Vec::new(),
                    attrs: MemAttrs {
                        scope: mem_scope,
                        ..MemAttrs::default()
                    },
                    spaces,
                }),
                span,
            ),
        )?;
        Ok(())
    }
}

/// The operand of an operator must have a value: a call of a function that returns none
/// (`atomic_store`, `atomic_thread_fence`, ...) cannot be one, even in a statement whose
/// value is discarded (C11 §6.3.2.2: a void expression's value cannot be used).
fn no_void_operand(e: &SExpr) -> R<()> {
    if let SK::Call { name, .. } = &e.kind {
        if Fun::lookup(name).is_some_and(|f| !f.returns_value()) {
            return Err(ParseError::at(
                e.span,
                format!(
                    "{} returns no value, so it cannot be an operand",
                    quote(name)
                ),
            ));
        }
    }
    Ok(())
}

/// Marks the statements `out[b_start..]` (a right operand's accesses) as unsequenced with
/// `out[a_start..b_start]` (the left operand's), keeping any range an inner operator set:
/// the left operands of every enclosing operator lie just before a statement's own
/// operand, so the union stays one contiguous run (C11 §6.5p2, §5.1.2.3p3).
fn unsequence(out: &mut [Stmt], a_start: usize, b_start: usize) {
    if a_start == b_start {
        return;
    }
    for (i, s) in out.iter_mut().enumerate().skip(b_start) {
        let (mut lo, mut hi) = (a_start, b_start - 1);
        if let Some(u) = s.unseq {
            let hi0 = i - 1 - u.skip as usize;
            lo = lo.min(hi0 + 1 - u.count as usize);
            hi = hi.max(hi0);
        }
        s.unseq = Some(weft_ir::Unseq {
            skip: (i - 1 - hi) as u32,
            count: (hi + 1 - lo) as u32,
        });
    }
}
