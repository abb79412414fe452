//! Trace events: what one thread of a litmus program does to memory, in program order —
//! the cells it accesses, the values it reads and writes, its fences and barriers, and the
//! reads each event's address, data and control depend on — plus the expression evaluator
//! that tracks those dependencies. The simulator's traces and the model checker's
//! explored threads are made of these events.

use weft_ir::{BarrierKind, Expr, FenceKind, LocId, MemAttrs, MemSpace, Scope, Span};

use crate::value::addr_of;

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
    #[inline]
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
        Expr::Addr(l) => (addr_of(*l), Vec::new()),
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
