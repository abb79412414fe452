//! Per-thread traces: every way one thread can run on its own, given a set of values each
//! read may return (herd's first stage of candidate-execution generation, paper 000 §5.1).
//!
//! A thread is explored depth-first over its control-flow graph. A read branches over the
//! value domain of its location; the domains are computed as a fixpoint (initial values,
//! then every value some trace writes, until nothing new appears). Loops are unrolled: a
//! trace that enters any block more than `unroll` times is cut and counted, never silently
//! dropped. Each event records the reads its address, data and control depend on.

use std::collections::BTreeSet;

use weft_ir::cfg::{BlockId, Cfg, Terminator};
use weft_ir::{
    BarrierKind, Expr, FenceKind, LocId, MemAttrs, MemSpace, Program, RmwOp, Scope, Span, StmtKind,
    Thread,
};

use crate::value::{decode_addr, of_init};

/// A memory cell: the storage location (aliases resolved) and element index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub loc: LocId,
    pub index: u32,
}

/// What an event does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    Read,
    Write,
    Fence {
        kind: FenceKind,
        spaces: Vec<MemSpace>,
    },
    Barrier {
        kind: BarrierKind,
        scope: Scope,
        id: i64,
        operands: Vec<i64>,
        spaces: Vec<MemSpace>,
    },
}

/// One event of a thread trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    pub kind: EventKind,
    /// The cell accessed (reads and writes).
    pub cell: Option<Cell>,
    /// The location named by the access (differs from `cell.loc` for an alias).
    pub via: Option<LocId>,
    /// Value read or written (0 for fences and barriers).
    pub value: i64,
    pub attrs: MemAttrs,
    /// Part of a read-modify-write: the read (followed by its write) or the write.
    pub rmw: bool,
    /// Indices (in this trace) of the reads the address depends on.
    pub addr_deps: Vec<usize>,
    /// Reads the written value depends on.
    pub data_deps: Vec<usize>,
    /// Reads that decided a branch taken before this event.
    pub ctrl_deps: Vec<usize>,
    pub span: Span,
    /// A read whose value nothing in the thread uses (only the final state shows it):
    /// its value is not enumerated here but comes from the write it reads from.
    pub symbolic: bool,
    /// Number of the statement execution that made the event (counts every statement
    /// the thread ran, so events of one statement share it).
    pub step: u32,
    /// Steps `lo..=hi` whose events this one is unsequenced with (C operands, see
    /// [`weft_ir::Unseq`]): program order leaves those pairs unrelated.
    pub unseq: Option<(u32, u32)>,
}

impl TraceEvent {
    /// An event with no address or data dependencies, not part of an RMW, not symbolic:
    /// what the litmus interpreters emit before filling in those fields.
    #[allow(clippy::too_many_arguments)]
    pub fn plain(
        kind: EventKind,
        cell: Option<(Cell, LocId)>,
        value: i64,
        attrs: &MemAttrs,
        span: Span,
        ctrl_deps: Vec<usize>,
        step: u32,
        unseq: Option<(u32, u32)>,
    ) -> TraceEvent {
        TraceEvent {
            kind,
            cell: cell.map(|c| c.0),
            via: cell.map(|c| c.1),
            value,
            attrs: attrs.clone(),
            rmw: false,
            addr_deps: Vec::new(),
            data_deps: Vec::new(),
            ctrl_deps,
            span,
            symbolic: false,
            step,
            unseq,
        }
    }

    /// Whether program order relates an earlier event `before` of the same trace to this.
    pub fn sequenced_after(&self, before: &TraceEvent) -> bool {
        !matches!(self.unseq, Some((lo, hi)) if (lo..=hi).contains(&before.step))
    }
}

/// How a trace ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The thread ran to completion.
    Done,
    /// An `assert` failed (the trace stops there).
    AssertFailed(Span),
    /// The unroll bound was reached: the trace is incomplete.
    Cut,
    /// The thread did something meaningless (an access to a non-address).
    Fault(Span, String),
}

/// One way a thread can run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub events: Vec<TraceEvent>,
    pub regs: Vec<i64>,
    /// Per register: the symbolic read (index in `events`) whose value it holds at the
    /// end, if any; `regs` then holds 0.
    pub reg_src: Vec<Option<usize>>,
    pub end: End,
}

/// The traces of every thread plus what was learned computing them.
#[derive(Clone, Debug)]
pub struct ThreadTraces {
    /// `per_thread[t]`: the complete traces of thread `t` (ended `Done` or `AssertFailed`).
    pub per_thread: Vec<Vec<Trace>>,
    /// Traces cut by the unroll bound, per thread.
    pub cut: Vec<usize>,
    /// Faulting traces, per thread (with the first message).
    pub faults: Vec<(usize, Option<String>)>,
    /// Values each storage location may hold.
    pub domains: Vec<BTreeSet<i64>>,
    /// Whether the domain fixpoint converged within its limits.
    pub converged: bool,
}

/// Limits of the exploration.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Times a block may be entered before the trace is cut.
    pub unroll: u32,
    /// Most values a location's domain may hold.
    pub max_domain: usize,
    /// Most traces per thread.
    pub max_traces: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            unroll: 2,
            max_domain: 64,
            max_traces: 100_000,
        }
    }
}

/// A failure that prevents simulation (the program is not simulable as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    pub span: Span,
    pub message: String,
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.span, self.message)
    }
}

impl std::error::Error for TraceError {}

/// Per register of `t`: whether no statement of the thread reads it (no address, value,
/// condition, guard, operand), so that only the final state shows it. Loads into such
/// registers need not branch on their value.
pub fn observed_only(t: &Thread) -> Vec<bool> {
    fn uses(code: &[weft_ir::Stmt], out: &mut Vec<weft_ir::Reg>) {
        for st in code {
            if let Some(g) = &st.guard {
                out.push(g.reg);
            }
            match &st.kind {
                StmtKind::Load(l) => l.addr.regs(out),
                StmtKind::Store(s) => {
                    s.addr.regs(out);
                    s.value.regs(out);
                }
                StmtKind::Rmw(r) => {
                    r.addr.regs(out);
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
                StmtKind::Assign { value, .. } => value.regs(out),
                StmtKind::Jump { cond, .. } => {
                    if let Some(c) = cond {
                        c.regs(out);
                    }
                }
                StmtKind::If {
                    cond,
                    then_branch,
                    else_branch,
                } => {
                    cond.regs(out);
                    uses(then_branch, out);
                    uses(else_branch, out);
                }
                StmtKind::While {
                    prelude,
                    cond,
                    body,
                } => {
                    uses(prelude, out);
                    cond.regs(out);
                    uses(body, out);
                }
                StmtKind::Assume(e) | StmtKind::Assert(e) => e.regs(out),
                StmtKind::Fence(_) | StmtKind::Label(_) => {}
                #[allow(unreachable_patterns)]
                _ => out.push(weft_ir::Reg(u32::MAX)), // unknown statement
            }
        }
    }
    let mut used = Vec::new();
    uses(&t.code, &mut used);
    if used.contains(&weft_ir::Reg(u32::MAX)) {
        return vec![false; t.regs.len()]; // a statement we cannot see into
    }
    let mut out = vec![true; t.regs.len()];
    for r in used {
        if let Some(o) = out.get_mut(r.index()) {
            *o = false;
        }
    }
    out
}

/// Values a read may speculatively return although no least-fixpoint chain of writes
/// computes them: the integer constants of the final condition and the literal values
/// stored or combined by read-modify-writes. A trace that reads such a value only
/// becomes an execution if some write of the candidate produces it.
pub fn speculated_values(p: &Program) -> BTreeSet<i64> {
    fn walk(code: &[weft_ir::Stmt], out: &mut BTreeSet<i64>) {
        for st in code {
            match &st.kind {
                StmtKind::Store(s) => {
                    if let Expr::Int(v) = s.value {
                        out.insert(v);
                    }
                }
                StmtKind::Rmw(r) => {
                    for a in &r.args {
                        if let Expr::Int(v) = a {
                            out.insert(*v);
                        }
                    }
                }
                StmtKind::If {
                    then_branch,
                    else_branch,
                    ..
                } => {
                    walk(then_branch, out);
                    walk(else_branch, out);
                }
                StmtKind::While { prelude, body, .. } => {
                    walk(prelude, out);
                    walk(body, out);
                }
                _ => {}
            }
        }
    }
    let mut out = BTreeSet::new();
    for t in &p.threads {
        walk(&t.code, &mut out);
    }
    if let Some(c) = &p.condition {
        let mut terms = Vec::new();
        c.prop.terms(&mut terms);
        for t in terms {
            if let weft_ir::Term::Int(v) = t {
                out.insert(*v);
            }
        }
    }
    out
}

/// Computes the traces of every thread of `p`.
pub fn thread_traces(p: &Program, limits: Limits) -> Result<ThreadTraces, TraceError> {
    let cfgs: Vec<Cfg> = p
        .threads
        .iter()
        .map(|t| {
            Cfg::build(&t.code).map_err(|e| TraceError {
                span: e.span,
                message: e.message,
            })
        })
        .collect::<Result<_, _>>()?;
    // Domains start from the initial values plus the speculated values (see
    // `speculated_values`), so that executions whose values justify themselves through a
    // cycle (load buffering with dependencies, C11 "out of thin air") are enumerated and
    // left for the model to judge, as herd7 and Dat3M do.
    let speculated = speculated_values(p);
    let mut domains: Vec<BTreeSet<i64>> = p
        .locations
        .iter()
        .map(|l| {
            let mut d = BTreeSet::from([of_init(l.init)]);
            d.extend(speculated.iter().copied());
            d
        })
        .collect();
    let observed: Vec<Vec<bool>> = p.threads.iter().map(observed_only).collect();
    let mut converged = false;
    let mut result = None;
    for round in 0..64 {
        let mut per_thread = Vec::new();
        let mut cut = Vec::new();
        let mut faults = Vec::new();
        for (ti, (t, cfg)) in p.threads.iter().zip(&cfgs).enumerate() {
            let mut ex = Explorer {
                p,
                thread: t,
                cfg,
                observed_only: &observed[ti],
                domains: &domains,
                limits,
                out: Vec::new(),
                cut: 0,
                faults: 0,
                fault_msg: None,
            };
            ex.run()?;
            per_thread.push(ex.out);
            cut.push(ex.cut);
            faults.push((ex.faults, ex.fault_msg));
        }
        let mut next = domains.clone();
        for traces in &per_thread {
            for tr in traces {
                for e in &tr.events {
                    if e.kind == EventKind::Write {
                        if let Some(c) = e.cell {
                            next[c.loc.index()].insert(e.value);
                        }
                    }
                }
            }
        }
        let overflow = next.iter().any(|d| d.len() > limits.max_domain);
        let stable = next == domains;
        // Every value of an execution is computed by a chain of writes, each reading the
        // value of the previous one; the chain has at most as many links as the execution
        // has writes. Round `r` reads every value of chains up to `r` links, so once `r`
        // reaches the most writes an execution can have, the domains are complete even if
        // they keep growing (e.g. `atom.add` feeding itself through several threads).
        let max_writes: usize = per_thread
            .iter()
            .map(|ts| {
                ts.iter()
                    .map(|t| {
                        t.events
                            .iter()
                            .filter(|e| e.kind == EventKind::Write)
                            .count()
                    })
                    .max()
                    .unwrap_or(0)
            })
            .sum();
        result = Some((per_thread, cut, faults));
        if stable || round >= max_writes {
            converged = true;
            break;
        }
        if overflow {
            break;
        }
        domains = next;
    }
    let (per_thread, cut, faults) = result.expect("at least one round");
    Ok(ThreadTraces {
        per_thread,
        cut,
        faults,
        domains,
        converged,
    })
}

#[derive(Clone)]
struct State {
    block: BlockId,
    idx: usize,
    regs: Vec<i64>,
    /// For each register, the reads (trace indices) its value depends on.
    deps: Vec<Vec<usize>>,
    ctrl: Vec<usize>,
    events: Vec<TraceEvent>,
    visits: Vec<u32>,
    reg_src: Vec<Option<usize>>,
    /// Statements executed so far, and the unsequenced steps of the current one.
    step: u32,
    unseq: Option<(u32, u32)>,
}

struct Explorer<'a> {
    p: &'a Program,
    thread: &'a Thread,
    cfg: &'a Cfg,
    /// Registers nothing in the thread reads (see [`observed_only`]).
    observed_only: &'a [bool],
    domains: &'a [BTreeSet<i64>],
    limits: Limits,
    out: Vec<Trace>,
    cut: usize,
    faults: usize,
    fault_msg: Option<String>,
}

/// The sorted union of two dependency sets (indices of reads in a trace).
pub fn union(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut v: Vec<usize> = a.iter().chain(b).copied().collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Evaluates `e` over a thread's registers, with the reads its value depends on (`deps[r]`:
/// the reads register `r` depends on). The one expression evaluator of the litmus
/// interpreters (the simulator's traces and the model checker's stepper).
pub fn eval_expr(e: &Expr, regs: &[i64], deps: &[Vec<usize>]) -> (i64, Vec<usize>) {
    match e {
        Expr::Int(i) => (*i, Vec::new()),
        Expr::Reg(r) => (
            regs.get(r.index()).copied().unwrap_or(0),
            deps.get(r.index()).cloned().unwrap_or_default(),
        ),
        Expr::Addr(l) => (crate::value::addr_of(*l), Vec::new()),
        Expr::Un(op, a) => {
            let (v, d) = eval_expr(a, regs, deps);
            (op.eval(v), d)
        }
        Expr::Bin(op, a, b) => {
            let (x, dx) = eval_expr(a, regs, deps);
            let (y, dy) = eval_expr(b, regs, deps);
            (op.eval(x, y), union(&dx, &dy))
        }
    }
}

impl<'a> Explorer<'a> {
    fn run(&mut self) -> Result<(), TraceError> {
        let nregs = self.thread.regs.len();
        let regs = self
            .thread
            .regs
            .iter()
            .map(|r| r.init.map(of_init).unwrap_or(0))
            .collect();
        let mut visits = vec![0; self.cfg.blocks.len()];
        visits[self.cfg.entry] = 1;
        let s = State {
            block: self.cfg.entry,
            idx: 0,
            regs,
            deps: vec![Vec::new(); nregs],
            ctrl: Vec::new(),
            events: Vec::new(),
            visits,
            reg_src: vec![None; nregs],
            step: 0,
            unseq: None,
        };
        let mut stack = vec![s];
        while let Some(s) = stack.pop() {
            if self.out.len() >= self.limits.max_traces {
                return Err(TraceError {
                    span: Span::default(),
                    message: format!(
                        "thread {} has more than {} traces",
                        self.thread.name, self.limits.max_traces
                    ),
                });
            }
            self.step(s, &mut stack);
        }
        Ok(())
    }

    fn eval(&self, e: &Expr, s: &State) -> (i64, Vec<usize>) {
        eval_expr(e, &s.regs, &s.deps)
    }

    fn cell(&self, addr: i64) -> Option<(Cell, LocId)> {
        let (via, index) = decode_addr(addr, self.p.locations.len())?;
        let loc = self.p.storage_of(via);
        (index < self.p.loc(loc).size).then_some((Cell { loc, index }, via))
    }

    fn finish(&mut self, s: State, end: End) {
        match end {
            End::Cut => self.cut += 1,
            End::Fault(_, ref m) => {
                self.faults += 1;
                if self.fault_msg.is_none() {
                    self.fault_msg = Some(m.clone());
                }
            }
            _ => self.out.push(Trace {
                events: s.events,
                regs: s.regs,
                reg_src: s.reg_src,
                end,
            }),
        }
    }

    fn set_reg(s: &mut State, r: weft_ir::Reg, v: i64, d: Vec<usize>) {
        if let Some(slot) = s.regs.get_mut(r.index()) {
            *slot = v;
            s.deps[r.index()] = d;
            s.reg_src[r.index()] = None;
        }
    }

    fn event(
        &self,
        s: &State,
        kind: EventKind,
        cell: Option<(Cell, LocId)>,
        value: i64,
        attrs: &MemAttrs,
        span: Span,
    ) -> TraceEvent {
        TraceEvent::plain(
            kind,
            cell,
            value,
            attrs,
            span,
            s.ctrl.clone(),
            s.step,
            s.unseq,
        )
    }

    /// Runs `s` until it branches, ends, or finishes a block; pushes successor states.
    fn step(&mut self, mut s: State, stack: &mut Vec<State>) {
        loop {
            let block = &self.cfg.blocks[s.block];
            if s.idx >= block.stmts.len() {
                let next = match &block.term {
                    Terminator::Exit => {
                        self.finish(s, End::Done);
                        return;
                    }
                    Terminator::Goto(t) => *t,
                    Terminator::Branch {
                        cond,
                        then_block,
                        else_block,
                    } => {
                        let (v, d) = self.eval(cond, &s);
                        s.ctrl = union(&s.ctrl, &d);
                        if v != 0 {
                            *then_block
                        } else {
                            *else_block
                        }
                    }
                };
                s.visits[next] += 1;
                if s.visits[next] > self.limits.unroll.max(1) {
                    self.finish(s, End::Cut);
                    return;
                }
                s.block = next;
                s.idx = 0;
                continue;
            }
            let stmt = &block.stmts[s.idx];
            s.idx += 1;
            s.step += 1;
            s.unseq = stmt.unseq.and_then(|u| {
                let hi = s.step.checked_sub(u.skip + 1)?;
                Some((hi.checked_sub(u.count.checked_sub(1)?)?, hi))
            });
            let span = stmt.span;
            match &stmt.kind {
                StmtKind::Assign { dst, value } => {
                    let (v, d) = self.eval(value, &s);
                    Self::set_reg(&mut s, *dst, v, d);
                }
                StmtKind::Assume(e) => {
                    if self.eval(e, &s).0 == 0 {
                        return; // discarded: not an execution of the program
                    }
                }
                StmtKind::Assert(e) => {
                    if self.eval(e, &s).0 == 0 {
                        self.finish(s, End::AssertFailed(span));
                        return;
                    }
                }
                StmtKind::Fence(f) => {
                    let ev = self.event(
                        &s,
                        EventKind::Fence {
                            kind: f.kind,
                            spaces: f.spaces.clone(),
                        },
                        None,
                        0,
                        &f.attrs,
                        span,
                    );
                    s.events.push(ev);
                }
                StmtKind::Barrier(b) => {
                    let id = self.eval(&b.id, &s).0;
                    let operands = b.operands.iter().map(|o| self.eval(o, &s).0).collect();
                    let kind = EventKind::Barrier {
                        kind: b.kind,
                        scope: b.scope,
                        id,
                        operands,
                        spaces: b.spaces.clone(),
                    };
                    let ev = self.event(&s, kind, None, 0, &b.attrs, span);
                    s.events.push(ev);
                }
                StmtKind::Store(st) => {
                    let (a, ad) = self.eval(&st.addr, &s);
                    let Some(cell) = self.cell(a) else {
                        self.finish(s, End::Fault(span, format!("store to non-address {a}")));
                        return;
                    };
                    let (v, dd) = self.eval(&st.value, &s);
                    let mut ev = self.event(&s, EventKind::Write, Some(cell), v, &st.attrs, span);
                    ev.addr_deps = ad;
                    ev.data_deps = dd;
                    s.events.push(ev);
                }
                StmtKind::Load(l) => {
                    let (a, ad) = self.eval(&l.addr, &s);
                    let Some(cell) = self.cell(a) else {
                        self.finish(s, End::Fault(span, format!("load from non-address {a}")));
                        return;
                    };
                    let dst = l.dst;
                    if self
                        .observed_only
                        .get(dst.index())
                        .copied()
                        .unwrap_or(false)
                    {
                        // Nothing uses the value: one trace, the value comes from rf.
                        let mut ev = self.event(&s, EventKind::Read, Some(cell), 0, &l.attrs, span);
                        ev.addr_deps = ad;
                        ev.symbolic = true;
                        s.events.push(ev);
                        let me = s.events.len() - 1;
                        Self::set_reg(&mut s, dst, 0, vec![me]);
                        s.reg_src[dst.index()] = Some(me);
                        continue;
                    }
                    let values: Vec<i64> =
                        self.domains[cell.0.loc.index()].iter().copied().collect();
                    for v in values.into_iter().rev() {
                        let mut n = s.clone();
                        let mut ev = self.event(&n, EventKind::Read, Some(cell), v, &l.attrs, span);
                        ev.addr_deps = ad.clone();
                        n.events.push(ev);
                        let me = n.events.len() - 1;
                        Self::set_reg(&mut n, dst, v, vec![me]);
                        stack.push(n);
                    }
                    return;
                }
                StmtKind::Rmw(r) => {
                    self.rmw(s, r, span, stack);
                    return;
                }
                StmtKind::Label(_)
                | StmtKind::Jump { .. }
                | StmtKind::If { .. }
                | StmtKind::While { .. } => {
                    // The CFG contains no control statements.
                }
            }
        }
    }

    fn rmw(&mut self, s: State, r: &weft_ir::Rmw, span: Span, stack: &mut Vec<State>) {
        let (a, ad) = self.eval(&r.addr, &s);
        let Some(cell) = self.cell(a) else {
            self.finish(
                s,
                End::Fault(span, format!("read-modify-write of non-address {a}")),
            );
            return;
        };
        let args: Vec<(i64, Vec<usize>)> = r.args.iter().map(|e| self.eval(e, &s)).collect();
        // C11 compare-exchange reads the expected value from memory first (non-atomic).
        let mut bases = vec![(s, None::<(Cell, LocId, usize, i64)>)];
        if let RmwOp::CompareExchange { .. } = r.op {
            let exp_addr = args.first().map(|x| x.0).unwrap_or(0);
            let Some(ecell) = self.cell(exp_addr) else {
                let s = bases.pop().expect("one").0;
                self.finish(
                    s,
                    End::Fault(
                        span,
                        "compare-exchange with a non-address expected operand".into(),
                    ),
                );
                return;
            };
            let s = bases.pop().expect("one").0;
            for v in self.domains[ecell.0.loc.index()].iter().copied() {
                let mut n = s.clone();
                let mut ev = self.event(
                    &n,
                    EventKind::Read,
                    Some(ecell),
                    v,
                    &MemAttrs::default(),
                    span,
                );
                ev.addr_deps = args[0].1.clone();
                n.events.push(ev);
                let idx = n.events.len() - 1;
                bases.push((n, Some((ecell.0, ecell.1, idx, v))));
            }
        }
        let arg_vals: Vec<i64> = args.iter().map(|x| x.0).collect();
        let arg_deps: Vec<usize> = args.iter().fold(Vec::new(), |acc, x| union(&acc, &x.1));
        for (base, expected) in bases {
            for old in self.domains[cell.0.loc.index()]
                .iter()
                .copied()
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
            {
                let mut n = base.clone();
                let new = match (r.op, expected) {
                    (RmwOp::CompareExchange { .. }, Some((_, _, _, ev))) => {
                        (old == ev).then(|| arg_vals.get(1).copied().unwrap_or(0))
                    }
                    _ => r.op.apply(old, &arg_vals),
                };
                let mut read_attrs = r.attrs.clone();
                if new.is_none() {
                    if let Some(fo) = r.fail_order {
                        read_attrs.order = fo;
                    }
                }
                let mut rd = self.event(&n, EventKind::Read, Some(cell), old, &read_attrs, span);
                rd.addr_deps = ad.clone();
                rd.rmw = new.is_some();
                n.events.push(rd);
                let ri = n.events.len() - 1;
                if let Some(v) = new {
                    let mut wr = self.event(&n, EventKind::Write, Some(cell), v, &r.attrs, span);
                    wr.addr_deps = ad.clone();
                    wr.data_deps = union(&arg_deps, &[ri]);
                    if let Some((_, _, ei, _)) = expected {
                        wr.data_deps = union(&wr.data_deps, &[ei]);
                    }
                    wr.rmw = true;
                    n.events.push(wr);
                }
                let result = match (r.op, expected) {
                    (RmwOp::CompareExchange { .. }, Some((ecell, evia, ei, _))) => {
                        if new.is_none() {
                            // Failure: the value read is written back to *expected.
                            let mut wb = self.event(
                                &n,
                                EventKind::Write,
                                Some((ecell, evia)),
                                old,
                                &MemAttrs::default(),
                                span,
                            );
                            wb.data_deps = vec![ri];
                            wb.addr_deps = union(&args[0].1, &[ei]);
                            n.events.push(wb);
                        }
                        (new.is_some() as i64, vec![ri])
                    }
                    _ => (old, vec![ri]),
                };
                if let Some(d) = r.dst {
                    Self::set_reg(&mut n, d, result.0, result.1);
                }
                stack.push(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_ir::{BinOp, Load, Location, Order, Reg, Rmw, Stmt, Store};

    fn st(kind: StmtKind) -> Stmt {
        Stmt::new(kind, Span::default())
    }

    fn load(r: u32, l: u32) -> Stmt {
        st(StmtKind::Load(Load {
            dst: Reg(r),
            addr: Expr::Addr(LocId(l)),
            attrs: MemAttrs::with_order(Order::Relaxed),
        }))
    }

    fn store(l: u32, v: i64) -> Stmt {
        st(StmtKind::Store(Store {
            addr: Expr::Addr(LocId(l)),
            value: Expr::Int(v),
            attrs: MemAttrs::with_order(Order::Relaxed),
        }))
    }

    fn mp() -> Program {
        let mut p = Program::new(weft_ir::Arch::Ptx, "MP");
        p.locations = vec![Location::scalar("x", 0), Location::scalar("y", 0)];
        let mut t0 = Thread::new("P0");
        t0.code = vec![store(0, 1), store(1, 1)];
        let mut t1 = Thread::new("P1");
        t1.reg_or_declare("r0");
        t1.reg_or_declare("r1");
        t1.code = vec![load(0, 1), load(1, 0)];
        p.threads = vec![t0, t1];
        p
    }

    #[test]
    fn observation_only_reads_are_symbolic() {
        // MP's reader uses r0 and r1 for nothing but the final state: one trace whose
        // reads take their values from rf.
        let tt = thread_traces(&mp(), Limits::default()).unwrap();
        assert_eq!(tt.per_thread[1].len(), 1);
        let t = &tt.per_thread[1][0];
        assert!(t.events.iter().all(|e| e.symbolic));
        assert_eq!(t.reg_src, vec![Some(0), Some(1)]);
    }

    #[test]
    fn mp_reader_has_four_traces_writer_one() {
        // With r0 and r1 used (an assertion reads them), each read branches on its value.
        let mut p = mp();
        p.threads[1].code.push(st(StmtKind::Assert(Expr::bin(
            BinOp::Eq,
            Expr::Reg(Reg(0)),
            Expr::Reg(Reg(0)),
        ))));
        p.threads[1].code.push(st(StmtKind::Assert(Expr::bin(
            BinOp::Eq,
            Expr::Reg(Reg(1)),
            Expr::Reg(Reg(1)),
        ))));
        let tt = thread_traces(&p, Limits::default()).unwrap();
        assert!(tt.converged);
        assert_eq!(tt.per_thread[0].len(), 1);
        assert_eq!(tt.per_thread[1].len(), 4);
        let mut finals: Vec<Vec<i64>> = tt.per_thread[1].iter().map(|t| t.regs.clone()).collect();
        finals.sort();
        assert_eq!(finals, vec![vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]]);
        assert_eq!(tt.domains[0], BTreeSet::from([0, 1]));
    }

    #[test]
    fn spin_loop_is_cut_at_the_bound_and_counted() {
        let mut p = mp();
        // P1: LC00: r0 = ld y; beq r0, 0, LC00; r1 = ld x
        p.threads[1].code = vec![
            st(StmtKind::Label("LC00".into())),
            load(0, 1),
            st(StmtKind::Jump {
                target: "LC00".into(),
                cond: Some(Expr::bin(BinOp::Eq, Expr::Reg(Reg(0)), Expr::Int(0))),
            }),
            load(1, 0),
        ];
        let tt = thread_traces(
            &p,
            Limits {
                unroll: 2,
                ..Limits::default()
            },
        )
        .unwrap();
        // Exits after the first or second read of y = 1, then reads x (symbolic: its
        // value is only observed): 2 complete traces.
        assert_eq!(tt.per_thread[1].len(), 2);
        assert_eq!(tt.cut[1], 1);
        for t in &tt.per_thread[1] {
            // The final read is control-dependent on the read of y that exited the loop.
            let last = t.events.last().unwrap();
            assert!(!last.ctrl_deps.is_empty());
        }
    }

    #[test]
    fn failed_cas_is_a_lone_read_and_success_is_read_plus_write() {
        let mut p = Program::new(weft_ir::Arch::Ptx, "cas");
        p.locations = vec![Location::scalar("m", 1)];
        let mut t0 = Thread::new("P0");
        t0.reg_or_declare("r0");
        t0.code = vec![st(StmtKind::Rmw(Rmw {
            dst: Some(Reg(0)),
            addr: Expr::Addr(LocId(0)),
            op: RmwOp::Cas,
            args: vec![Expr::Int(0), Expr::Int(1)],
            attrs: MemAttrs::with_order(Order::Relaxed),
            fail_order: None,
        }))];
        let mut t1 = Thread::new("P1");
        t1.code = vec![store(0, 0)];
        p.threads = vec![t0, t1];
        let tt = thread_traces(&p, Limits::default()).unwrap();
        let mut shapes: Vec<(i64, usize)> = tt.per_thread[0]
            .iter()
            .map(|t| (t.regs[0], t.events.len()))
            .collect();
        shapes.sort();
        assert_eq!(shapes, vec![(0, 2), (1, 1)]);
        let success = tt.per_thread[0]
            .iter()
            .find(|t| t.events.len() == 2)
            .unwrap();
        assert!(success.events[0].rmw && success.events[1].rmw);
        assert_eq!(success.events[1].data_deps, vec![0]);
    }
}
