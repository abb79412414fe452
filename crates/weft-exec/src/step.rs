//! The stepping interface between an exploration driver and programs (paper 004 §4: the
//! driver asks a thread for its next event given the values its earlier reads returned),
//! and the one interpreter of litmus threads, [`LitmusStepper`].
//!
//! A [`Stepper`] runs each thread deterministically: [`Stepper::next`] yields the next
//! memory or synchronisation event (or the thread's end), and after a read the driver
//! calls [`Stepper::feed`] with the value the read returned. The model checker drives it
//! over the reads-from choices of one execution graph (and never knows whether it
//! explores a litmus test or a kernel); the simulator drives the same litmus stepper over
//! every value a read may return to enumerate each thread's traces in isolation.
//!
//! The litmus stepper walks a thread's control-flow graph: register dependencies
//! (address, data, control), the unroll bound, assume and assert, read-modify-writes
//! (with C11 compare-exchange's read of the expected value and write-back on failure).
//! Two knobs serve the simulator ([`LitmusStepper::with_symbolic_reads`],
//! [`LitmusStepper::with_whole_locations`]); the model checker uses neither.

use weft_ir::cfg::{BlockId, Cfg, Terminator};
use weft_ir::{Expr, LocId, MemAttrs, Program, Reg, Rmw, RmwOp, Span, StmtKind, Thread};

use crate::event::{eval_expr, union, Cell, EventKind, TraceEvent};
use crate::value::{decode_addr, of_init};

/// What a thread does next.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // one per step, moved straight into the graph
pub enum Action {
    /// A memory or synchronisation event. After a read the driver must call
    /// [`Stepper::feed`] before asking again.
    Event(TraceEvent),
    /// The thread ran to completion.
    Done,
    /// An `assert` failed at this source position; the thread stops.
    AssertFailed(Span),
    /// An `assume` failed (or a spin loop must wait): this execution is not one of the
    /// program's, the thread stops.
    Blocked,
    /// The unroll bound was reached: the execution is incomplete.
    Cut,
    /// The thread did something meaningless (an access to a non-address).
    Fault(String),
    /// A read that may only read a value in `lo..=hi` (a barrier's arrival or departure):
    /// the driver adds it once a write of such a value to its cell exists, reading only
    /// from those writes, and runs other threads meanwhile; threads still waiting when no
    /// thread can move are blocked.
    Await { ev: TraceEvent, lo: i64, hi: i64 },
}

/// A read's value changes how it is recorded: whether it is the read of a successful
/// read-modify-write, and the order of a failed compare-and-swap.
#[derive(Clone, Debug, Default)]
pub struct ReadFix {
    pub rmw: bool,
    pub attrs: Option<MemAttrs>,
}

/// Programs the driver can explore: a fixed number of threads, each stepping
/// deterministically from its own state.
pub trait Stepper: Sync {
    type State: Clone + Send + Sync;
    fn threads(&self) -> usize;
    fn start(&self, thread: usize) -> Self::State;
    fn next(&self, thread: usize, st: &mut Self::State) -> Action;
    /// Gives the value read by the read the last [`Stepper::next`] returned.
    fn feed(&self, thread: usize, st: &mut Self::State, value: i64) -> ReadFix;
    /// Final value of register `reg` in a finished thread state.
    fn reg(&self, st: &Self::State, reg: usize) -> i64;
    /// Whether the thread, its last read fed, blocks at its very next step in a spin loop
    /// (a failed iteration with no side effect): that read is an *await read* and the value
    /// fed one it waits past. The default: no spin loops are recognised.
    fn spin_blocked(&self, _thread: usize, _st: &Self::State) -> bool {
        false
    }
}

/// The memory cells of a program in the simulator's order of initial writes: one per
/// element (at most 64) of every location that is not an alias.
pub fn cells(p: &Program) -> Vec<Cell> {
    let mut out = Vec::new();
    for (i, l) in p.locations.iter().enumerate() {
        if l.alias.is_some() {
            continue;
        }
        for index in 0..l.size.min(64) {
            out.push(Cell {
                loc: LocId(i as u32),
                index,
            });
        }
    }
    out
}

/// The litmus-program stepper.
pub struct LitmusStepper<'p> {
    pub p: &'p Program,
    cfgs: Vec<Cfg>,
    unroll: u32,
    /// Elements of a location a thread may access (the model checker's cells stop at 64).
    cell_limit: u32,
    /// Per thread and register: loads into it are symbolic (see
    /// [`LitmusStepper::with_symbolic_reads`]); empty when off.
    symbolic: Vec<Vec<bool>>,
}

/// What to do with a read's value when it arrives.
#[derive(Clone, Debug)]
enum Pending {
    Load {
        dst: Reg,
        me: usize,
    },
    /// Compare-exchange: the expected value is being read (event `ei`); next the RMW read.
    CasExpected {
        rmw: Box<RmwCtx>,
        ei: usize,
    },
    RmwRead {
        rmw: Box<RmwCtx>,
        me: usize,
    },
}

/// An RMW statement in flight, with its operands evaluated.
#[derive(Clone, Debug)]
struct RmwCtx {
    dst: Option<Reg>,
    cell: (Cell, LocId),
    op: RmwOp,
    addr_deps: Vec<usize>,
    args: Vec<(i64, Vec<usize>)>,
    attrs: MemAttrs,
    fail_order: Option<weft_ir::Order>,
    span: Span,
    /// Compare-exchange: the cell of `*expected`, its read's index and value.
    expected: Option<((Cell, LocId), usize, i64)>,
}

/// Thread state of the litmus stepper.
#[derive(Clone, Debug)]
pub struct LitmusState {
    block: BlockId,
    idx: usize,
    regs: Vec<i64>,
    deps: Vec<Vec<usize>>,
    ctrl: Vec<usize>,
    visits: Vec<u32>,
    step: u32,
    unseq: Option<(u32, u32)>,
    nevents: usize,
    pending: Option<Pending>,
    /// Events to emit before the next statement (RMW write, CAS write-back).
    queue: Vec<TraceEvent>,
    /// Per register: the symbolic read whose value it holds (empty unless the stepper
    /// makes symbolic reads).
    reg_src: Vec<Option<usize>>,
}

impl LitmusState {
    /// The registers.
    pub fn regs(&self) -> &[i64] {
        &self.regs
    }

    /// Per register: the symbolic read (index among the thread's events) whose value it
    /// holds, if any (empty unless the stepper makes symbolic reads).
    pub fn reg_src(&self) -> &[Option<usize>] {
        &self.reg_src
    }

    /// Whether the read just emitted is a compare-exchange's read of its expected value
    /// (the read-modify-write's own read follows it).
    pub fn reads_expected(&self) -> bool {
        matches!(self.pending, Some(Pending::CasExpected { .. }))
    }
}

impl<'p> LitmusStepper<'p> {
    /// Builds the control-flow graphs; errors name the offending statement.
    pub fn new(p: &'p Program, unroll: u32) -> Result<Self, (Span, String)> {
        let cfgs = p
            .threads
            .iter()
            .map(|t| Cfg::build(&t.code).map_err(|e| (e.span, e.message)))
            .collect::<Result<_, _>>()?;
        Ok(LitmusStepper {
            p,
            cfgs,
            unroll,
            cell_limit: 64,
            symbolic: Vec::new(),
        })
    }

    /// Loads into a register nothing in the thread reads (see [`observed_only`]) become
    /// *symbolic*: the read event is marked so, the register holds 0 and remembers the
    /// read, and no value is fed (the final state takes it from the write read from).
    pub fn with_symbolic_reads(mut self) -> Self {
        self.symbolic = self.p.threads.iter().map(observed_only).collect();
        self
    }

    /// Every element of a location is a cell (not only the first 64).
    pub fn with_whole_locations(mut self) -> Self {
        self.cell_limit = u32::MAX;
        self
    }

    fn eval(e: &Expr, s: &LitmusState) -> (i64, Vec<usize>) {
        eval_expr(e, &s.regs, &s.deps)
    }

    fn cell(&self, addr: i64) -> Option<(Cell, LocId)> {
        let (via, index) = decode_addr(addr, self.p.locations.len())?;
        let loc = self.p.storage_of(via);
        (index < self.p.loc(loc).size.min(self.cell_limit)).then_some((Cell { loc, index }, via))
    }

    fn event(
        s: &LitmusState,
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

    fn set_reg(s: &mut LitmusState, r: Reg, v: i64, d: Vec<usize>) {
        if let Some(slot) = s.regs.get_mut(r.index()) {
            *slot = v;
            s.deps[r.index()] = d;
            if let Some(src) = s.reg_src.get_mut(r.index()) {
                *src = None;
            }
        }
    }

    fn emit(s: &mut LitmusState, ev: TraceEvent) -> Action {
        s.nevents += 1;
        Action::Event(ev)
    }

    /// The RMW read event of `c` (after the expected value, for a compare-exchange).
    fn rmw_read(s: &mut LitmusState, c: Box<RmwCtx>) -> Action {
        let mut rd = Self::event(s, EventKind::Read, Some(c.cell), 0, &c.attrs, c.span);
        rd.addr_deps = c.addr_deps.clone();
        let me = s.nevents;
        s.pending = Some(Pending::RmwRead { rmw: c, me });
        Self::emit(s, rd)
    }
}

impl<'p> LitmusStepper<'p> {
    /// The state of `thread` before its first statement.
    pub fn start_state(&self, thread: usize) -> LitmusState {
        let t = &self.p.threads[thread];
        let cfg = &self.cfgs[thread];
        let nregs = t.regs.len();
        let mut visits = vec![0; cfg.blocks.len()];
        visits[cfg.entry] = 1;
        LitmusState {
            block: cfg.entry,
            idx: 0,
            regs: t
                .regs
                .iter()
                .map(|r| r.init.map(of_init).unwrap_or(0))
                .collect(),
            deps: vec![Vec::new(); nregs],
            ctrl: Vec::new(),
            visits,
            step: 0,
            unseq: None,
            nevents: 0,
            pending: None,
            queue: Vec::new(),
            reg_src: if self.symbolic.is_empty() {
                Vec::new()
            } else {
                vec![None; nregs]
            },
        }
    }

    /// Runs `thread` to its next event or its end; `Err` is a fault (an access to a
    /// non-address) with its statement's position.
    pub fn advance(&self, thread: usize, s: &mut LitmusState) -> Result<Action, (Span, String)> {
        if !s.queue.is_empty() {
            let ev = s.queue.remove(0);
            return Ok(Self::emit(s, ev));
        }
        let cfg = &self.cfgs[thread];
        loop {
            let block = &cfg.blocks[s.block];
            if s.idx >= block.stmts.len() {
                let next = match &block.term {
                    Terminator::Exit => return Ok(Action::Done),
                    Terminator::Goto(t) => *t,
                    Terminator::Branch {
                        cond,
                        then_block,
                        else_block,
                    } => {
                        let (v, d) = Self::eval(cond, s);
                        s.ctrl = union(&s.ctrl, &d);
                        if v != 0 {
                            *then_block
                        } else {
                            *else_block
                        }
                    }
                };
                s.visits[next] += 1;
                if s.visits[next] > self.unroll.max(1) {
                    return Ok(Action::Cut);
                }
                s.block = next;
                s.idx = 0;
                continue;
            }
            let stmt = &block.stmts[s.idx];
            s.idx += 1;
            s.step += 1;
            let step = s.step;
            s.unseq = stmt.unseq.and_then(|u| {
                let hi = step.checked_sub(u.skip + 1)?;
                Some((hi.checked_sub(u.count.checked_sub(1)?)?, hi))
            });
            let span = stmt.span;
            match &stmt.kind {
                StmtKind::Assign { dst, value } => {
                    let (v, d) = Self::eval(value, s);
                    Self::set_reg(s, *dst, v, d);
                }
                StmtKind::Assume(e) => {
                    if Self::eval(e, s).0 == 0 {
                        return Ok(Action::Blocked);
                    }
                }
                StmtKind::Assert(e) => {
                    if Self::eval(e, s).0 == 0 {
                        return Ok(Action::AssertFailed(span));
                    }
                }
                StmtKind::Fence(f) => {
                    let kind = EventKind::Fence {
                        kind: f.kind,
                        spaces: f.spaces.clone(),
                    };
                    let ev = Self::event(s, kind, None, 0, &f.attrs, span);
                    return Ok(Self::emit(s, ev));
                }
                StmtKind::Barrier(b) => {
                    let id = Self::eval(&b.id, s).0;
                    let operands = b.operands.iter().map(|o| Self::eval(o, s).0).collect();
                    let kind = EventKind::Barrier {
                        kind: b.kind,
                        scope: b.scope,
                        id,
                        operands,
                        spaces: b.spaces.clone(),
                    };
                    let ev = Self::event(s, kind, None, 0, &b.attrs, span);
                    return Ok(Self::emit(s, ev));
                }
                StmtKind::Store(st) => {
                    let (a, ad) = Self::eval(&st.addr, s);
                    let Some(cell) = self.cell(a) else {
                        return Err((span, format!("store to non-address {a}")));
                    };
                    let (v, dd) = Self::eval(&st.value, s);
                    let mut ev = Self::event(s, EventKind::Write, Some(cell), v, &st.attrs, span);
                    ev.addr_deps = ad;
                    ev.data_deps = dd;
                    return Ok(Self::emit(s, ev));
                }
                StmtKind::Load(l) => {
                    let (a, ad) = Self::eval(&l.addr, s);
                    let Some(cell) = self.cell(a) else {
                        return Err((span, format!("load from non-address {a}")));
                    };
                    let mut ev = Self::event(s, EventKind::Read, Some(cell), 0, &l.attrs, span);
                    ev.addr_deps = ad;
                    let symbolic = self.symbolic.get(thread).and_then(|t| t.get(l.dst.index()));
                    if symbolic.copied().unwrap_or(false) {
                        // Nothing uses the value: the read takes it from rf.
                        ev.symbolic = true;
                        let me = s.nevents;
                        Self::set_reg(s, l.dst, 0, vec![me]);
                        s.reg_src[l.dst.index()] = Some(me);
                        return Ok(Self::emit(s, ev));
                    }
                    s.pending = Some(Pending::Load {
                        dst: l.dst,
                        me: s.nevents,
                    });
                    return Ok(Self::emit(s, ev));
                }
                StmtKind::Rmw(r) => return self.rmw(r, span, s),
                StmtKind::Label(_)
                | StmtKind::Jump { .. }
                | StmtKind::If { .. }
                | StmtKind::While { .. } => {}
            }
        }
    }

    /// A read-modify-write statement: its read event (a C11 compare-exchange first reads
    /// its expected value's cell).
    fn rmw(&self, r: &Rmw, span: Span, s: &mut LitmusState) -> Result<Action, (Span, String)> {
        let (a, ad) = Self::eval(&r.addr, s);
        let Some(cell) = self.cell(a) else {
            return Err((span, format!("read-modify-write of non-address {a}")));
        };
        let args: Vec<(i64, Vec<usize>)> = r.args.iter().map(|e| Self::eval(e, s)).collect();
        let ctx = Box::new(RmwCtx {
            dst: r.dst,
            cell,
            op: r.op,
            addr_deps: ad,
            args,
            attrs: r.attrs.clone(),
            fail_order: r.fail_order,
            span,
            expected: None,
        });
        if let RmwOp::CompareExchange { .. } = r.op {
            let exp_addr = ctx.args.first().map(|x| x.0).unwrap_or(0);
            let Some(ecell) = self.cell(exp_addr) else {
                return Err((
                    span,
                    "compare-exchange with a non-address expected operand".into(),
                ));
            };
            let mut ev = Self::event(
                s,
                EventKind::Read,
                Some(ecell),
                0,
                &MemAttrs::default(),
                span,
            );
            ev.addr_deps = ctx.args[0].1.clone();
            let ei = s.nevents;
            let mut ctx = ctx;
            ctx.expected = Some((ecell, ei, 0));
            s.pending = Some(Pending::CasExpected { rmw: ctx, ei });
            return Ok(Self::emit(s, ev));
        }
        Ok(Self::rmw_read(s, ctx))
    }

    /// Gives the value read by the read [`LitmusStepper::advance`] returned last (a
    /// symbolic read takes none).
    pub fn feed_value(&self, s: &mut LitmusState, value: i64) -> ReadFix {
        match s.pending.take() {
            None => ReadFix::default(),
            Some(Pending::Load { dst, me }) => {
                Self::set_reg(s, dst, value, vec![me]);
                ReadFix::default()
            }
            Some(Pending::CasExpected { mut rmw, ei }) => {
                if let Some(e) = rmw.expected.as_mut() {
                    e.2 = value;
                    e.1 = ei;
                }
                // The RMW read is the next event; queue it by emitting on the next call.
                let a = Self::rmw_read(s, rmw);
                if let Action::Event(ev) = a {
                    s.nevents -= 1; // re-counted when emitted from the queue
                    s.queue.push(ev);
                }
                ReadFix::default()
            }
            Some(Pending::RmwRead { rmw: c, me }) => {
                let old = value;
                let arg_vals: Vec<i64> = c.args.iter().map(|x| x.0).collect();
                let arg_deps: Vec<usize> =
                    c.args.iter().fold(Vec::new(), |acc, x| union(&acc, &x.1));
                let new = match (c.op, c.expected) {
                    (RmwOp::CompareExchange { .. }, Some((_, _, ev))) => {
                        (old == ev).then(|| arg_vals.get(1).copied().unwrap_or(0))
                    }
                    _ => c.op.apply(old, &arg_vals),
                };
                let mut fix = ReadFix {
                    rmw: new.is_some(),
                    attrs: None,
                };
                if new.is_none() {
                    if let Some(fo) = c.fail_order {
                        let mut a = c.attrs.clone();
                        a.order = fo;
                        fix.attrs = Some(a);
                    }
                }
                if let Some(v) = new {
                    let mut wr =
                        Self::event(s, EventKind::Write, Some(c.cell), v, &c.attrs, c.span);
                    wr.addr_deps = c.addr_deps.clone();
                    wr.data_deps = union(&arg_deps, &[me]);
                    if let Some((_, ei, _)) = c.expected {
                        wr.data_deps = union(&wr.data_deps, &[ei]);
                    }
                    wr.rmw = true;
                    s.queue.push(wr);
                }
                let result = match (c.op, c.expected) {
                    (RmwOp::CompareExchange { .. }, Some((ecell, ei, _))) => {
                        if new.is_none() {
                            let mut wb = Self::event(
                                s,
                                EventKind::Write,
                                Some(ecell),
                                old,
                                &MemAttrs::default(),
                                c.span,
                            );
                            wb.data_deps = vec![me];
                            wb.addr_deps = union(&c.args[0].1, &[ei]);
                            s.queue.push(wb);
                        }
                        (new.is_some() as i64, vec![me])
                    }
                    _ => (old, vec![me]),
                };
                if let Some(d) = c.dst {
                    Self::set_reg(s, d, result.0, result.1);
                }
                fix
            }
        }
    }
}

impl<'p> Stepper for LitmusStepper<'p> {
    /// Shared until a step changes it (graphs are cloned far more often than stepped).
    type State = std::sync::Arc<LitmusState>;

    fn threads(&self) -> usize {
        self.p.threads.len()
    }

    fn start(&self, thread: usize) -> std::sync::Arc<LitmusState> {
        std::sync::Arc::new(self.start_state(thread))
    }

    fn reg(&self, st: &std::sync::Arc<LitmusState>, reg: usize) -> i64 {
        st.regs.get(reg).copied().unwrap_or(0)
    }

    fn next(&self, thread: usize, st: &mut std::sync::Arc<LitmusState>) -> Action {
        match self.advance(thread, std::sync::Arc::make_mut(st)) {
            Ok(a) => a,
            Err((span, m)) => Action::Fault(format!("{span}: {m}")),
        }
    }

    fn feed(&self, _thread: usize, st: &mut std::sync::Arc<LitmusState>, value: i64) -> ReadFix {
        self.feed_value(std::sync::Arc::make_mut(st), value)
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use weft_ir::{Location, MemAttrs, Order, Rmw, Stmt, Thread};

    fn cas_program() -> Program {
        // P0: r0 = cas(m, 0, 1) (PTX-style compare-and-swap returning the old value).
        let mut p = Program::new(weft_ir::Arch::Ptx, "cas");
        p.locations = vec![Location::scalar("m", 0)];
        let mut t = Thread::new("P0");
        t.reg_or_declare("r0");
        t.code = vec![Stmt::new(
            StmtKind::Rmw(Rmw {
                dst: Some(Reg(0)),
                addr: Expr::Addr(LocId(0)),
                op: RmwOp::Cas,
                args: vec![Expr::Int(0), Expr::Int(1)],
                attrs: MemAttrs::with_order(Order::Relaxed),
                fail_order: None,
            }),
            Span::default(),
        )];
        p.threads = vec![t];
        p
    }

    #[test]
    fn a_successful_cas_is_a_read_then_its_write_a_failed_one_only_a_read() {
        let p = cas_program();
        let s = LitmusStepper::new(&p, 2).unwrap();
        // Reads 0: succeeds, the write of 1 follows and r0 holds the old value.
        let mut st = s.start(0);
        let Action::Event(r) = s.next(0, &mut st) else {
            panic!("read expected")
        };
        assert_eq!(r.kind, EventKind::Read);
        assert!(s.feed(0, &mut st, 0).rmw);
        let Action::Event(w) = s.next(0, &mut st) else {
            panic!("write expected")
        };
        assert_eq!(
            (w.kind.clone(), w.value, w.rmw),
            (EventKind::Write, 1, true)
        );
        assert_eq!(w.data_deps, vec![0]);
        assert!(matches!(s.next(0, &mut st), Action::Done));
        assert_eq!(s.reg(&st, 0), 0);
        // Reads 5: fails, no write.
        let mut st = s.start(0);
        let _ = s.next(0, &mut st);
        assert!(!s.feed(0, &mut st, 5).rmw);
        assert!(matches!(s.next(0, &mut st), Action::Done));
        assert_eq!(s.reg(&st, 0), 5);
    }

    #[test]
    fn cells_follow_the_simulators_initial_writes() {
        let mut p = cas_program();
        p.locations.push(Location {
            size: 3,
            ..Location::scalar("a", 7)
        });
        let c = cells(&p);
        assert_eq!(c.len(), 4);
        assert_eq!((c[1].loc, c[1].index), (LocId(1), 0));
        assert!(c.windows(2).all(|w| w[0] < w[1]));
    }
}
