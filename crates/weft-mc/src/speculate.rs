//! Value speculation: building executions whose (po ∪ rf) cycles pass through a
//! dependency, under models without No-Thin-Air (what [`crate::thinair`] flags).
//!
//! A read may, besides reading a write already in the graph, *guess* its value: it is
//! added without a source (pending), its thread runs on with the guessed value, and a
//! write of that value to the same cell added later may become its source (each such
//! write is a separate branch, as is leaving the read pending). An execution whose reads
//! are not all justified by the end is dropped. With the explorer's fixed order of
//! addition and without backward revisits this builds every execution once: each read's
//! source is either added before it (an ordinary read) or after it (a guess).
//!
//! What a read may guess ([`guess_values`]): the values some write of the cell can write,
//! a fixpoint over the threads run in isolation (initial values and the constants the
//! program stores, [`literals`]; each round every read may return any value of its cell
//! found so far), which is every value a chain of writes grounded in constants and initial
//! values can produce. A value that only justifies
//! itself (load buffering with data dependencies closing on themselves) is none of them:
//! as herd7 does, such an execution is built once with a *symbolic* value
//! ([`SYMBOLIC`], printed `S`), kept only when every read on the value cycle holds it
//! ([`justified`]) and dropped when the cycle computes anything else from it (`x = r + 1`)
//! or a branch tests it.

use std::collections::{BTreeSet, HashSet};

use weft_exec::event::EventKind;
use weft_ir::{Program, RmwOp, Span, Stmt, StmtKind};

use crate::graph::{EvId, Graph, Src};
use crate::step::{Action, Stepper};

/// The value a read on a self-justifying value cycle holds (herd7's symbolic `S`): far
/// from every constant, address and small sum of them.
pub const SYMBOLIC: i64 = -(1 << 61);

/// Whether `v` is [`SYMBOLIC`] or a small offset of it (what a cycle computes from it).
pub fn is_symbolic(v: i64) -> bool {
    (v - SYMBOLIC).unsigned_abs() < 1 << 32
}

/// How values are guessed and judged during one exploration.
#[derive(Clone, Debug)]
pub struct Speculation {
    /// Per dense cell: the values a read of it may guess ([`SYMBOLIC`] last).
    pub guesses: Vec<Vec<i64>>,
    /// Source positions (line, column) of read-modify-writes whose written value does not depend on the
    /// value read (exchange, compare-and-swap): their write is grounded whatever it read.
    pub const_rmw: HashSet<(u32, u32)>,
    /// The reads that may guess, as (thread, line, column) (spans themselves all compare
    /// equal): the reads of the
    /// dependency edges [`crate::thinair`] found on a potential cycle; backward revisits
    /// stay on for the others. `None`: every read guesses and revisits are off, which
    /// builds every execution once by construction (slower: the cross-check of
    /// `WEFT_MC_SPECULATE_ALL=1`).
    pub readers: Option<HashSet<(u32, u32, u32)>>,
}

impl Speculation {
    /// Whether thread `t`'s read at `span` may guess.
    pub fn guesses_at(&self, t: usize, span: Span) -> bool {
        self.readers
            .as_ref()
            .is_none_or(|r| r.contains(&(t as u32, span.line, span.col)))
    }
}

/// Speculation for litmus program `p` under model `name` (one without No-Thin-Air): the
/// dependency edges of [`crate::thinair`]; when there are some and the values settle, the
/// [`Speculation`] that builds their executions and no edge left for the note (the reads
/// of the edges guess; all reads with `WEFT_MC_SPECULATE_ALL` set); else the edges (the
/// note) and none.
pub fn plan<P: Stepper>(
    p: &Program,
    name: &str,
    prog: &P,
    cells: &[weft_exec::event::Cell],
    init: &[i64],
) -> (Vec<crate::thinair::DepCycle>, Option<Speculation>) {
    let edges = crate::thinair::dep_cycles(p, name.starts_with("ptx"));
    if edges.is_empty() {
        return (edges, None);
    }
    let cell_of = |c: weft_exec::event::Cell| cells.binary_search(&c).ok();
    match guess_values(prog, &cell_of, init, &literals(p)) {
        Some(guesses) => {
            let readers = std::env::var_os("WEFT_MC_SPECULATE_ALL")
                .is_none()
                .then(|| {
                    edges
                        .iter()
                        .map(|d| (d.thread, d.read.0, d.read.1))
                        .collect()
                });
            let spec = Speculation {
                guesses,
                const_rmw: const_rmws(p),
                readers,
            };
            (Vec::new(), Some(spec))
        }
        None => (edges, None),
    }
}

/// Per dense cell of `cells`, the values some write can write (see the module doc), or
/// `None` when the fixpoint does not settle within its bounds (64 rounds, 64 values per
/// cell, 200,000 steps per thread and round): speculation is then not complete. It settles
/// when a round adds nothing or once the rounds cover the longest chain of writes an
/// execution can have.
pub fn guess_values<P: Stepper>(
    prog: &P,
    cell_of: &dyn Fn(weft_exec::event::Cell) -> Option<usize>,
    init: &[i64],
    literals: &BTreeSet<i64>,
) -> Option<Vec<Vec<i64>>> {
    let mut dom: Vec<BTreeSet<i64>> = init
        .iter()
        .map(|v| {
            let mut d = literals.clone();
            d.insert(*v);
            d
        })
        .collect();
    // Most writes an execution can have: the sum over threads of the most writes a run of
    // the thread makes (runs are cut at the unroll bound as in the exploration).
    let mut max_writes = 0usize;
    for round in 0..64 {
        let mut next = dom.clone();
        let mut writes = 0;
        for t in 0..prog.threads() {
            let mut stack = vec![(prog.start(t), 0usize)];
            let mut steps = 0usize;
            let mut most = 0;
            while let Some((mut st, mut w)) = stack.pop() {
                loop {
                    steps += 1;
                    if steps > 200_000 {
                        return None;
                    }
                    match prog.next(t, &mut st) {
                        Action::Event(ev) | Action::Await { ev, .. } => {
                            let c = ev.cell.and_then(cell_of);
                            match ev.kind {
                                EventKind::Write => {
                                    w += 1;
                                    most = most.max(w);
                                    if let Some(c) = c {
                                        next[c].insert(ev.value);
                                    }
                                }
                                EventKind::Read => {
                                    let vals: Vec<i64> = match c {
                                        Some(c) => dom[c].iter().copied().collect(),
                                        None => vec![0],
                                    };
                                    for v in &vals[1..] {
                                        let mut s2 = st.clone();
                                        prog.feed(t, &mut s2, *v);
                                        stack.push((s2, w));
                                    }
                                    prog.feed(t, &mut st, vals[0]);
                                }
                                _ => {}
                            }
                        }
                        _ => break,
                    }
                }
            }
            writes += most;
        }
        max_writes = max_writes.max(writes);
        if next.iter().any(|d| d.len() > 64) {
            return None;
        }
        // After round `round` the domains hold every value of a chain of up to `round + 1`
        // writes, each reading the previous one's value (a value that is not such a chain's
        // closes a cycle: symbolic); no chain is longer than an execution's writes.
        if next == dom || round + 1 >= max_writes {
            dom = next;
            return Some(
                dom.into_iter()
                    .map(|d| d.into_iter().chain([SYMBOLIC]).collect())
                    .collect(),
            );
        }
        dom = next;
    }
    None
}

/// Every statement of `p`, nested ones included.
fn each_stmt(p: &Program, f: &mut dyn FnMut(&Stmt)) {
    for t in &p.threads {
        weft_ir::code::walk(&t.code, f);
    }
}

/// Source positions of the read-modify-writes of `p` whose written value is an operand
/// (exchange, compare-and-swap, compare-exchange), not a function of the value read.
pub fn const_rmws(p: &Program) -> HashSet<(u32, u32)> {
    let mut out = HashSet::new();
    each_stmt(p, &mut |st| {
        if let StmtKind::Rmw(r) = &st.kind {
            if matches!(
                r.op,
                RmwOp::Exch | RmwOp::Cas | RmwOp::CompareExchange { .. }
            ) {
                out.insert((st.span.line, st.span.col));
            }
        }
    });
    out
}

/// The integer constants `p` stores or hands to a read-modify-write, wherever they are
/// (a store under a branch no isolated run of its thread takes is written in an execution
/// whose guesses take it: load buffering through control dependencies).
pub fn literals(p: &Program) -> BTreeSet<i64> {
    let mut out = BTreeSet::new();
    for t in &p.threads {
        weft_ir::code::stored_literals(&t.code, &mut out);
    }
    out
}

/// Whether a complete graph's guesses are justified: every read has a source, and a read
/// holds a symbolic value exactly when its value is not grounded, i.e. when following
/// sources and the data and address dependencies of the writes read from leads back into
/// a cycle (herd7's undetermined values) instead of ending at constants and initial values.
pub fn justified<S>(g: &Graph<S>, spec: &Speculation) -> bool {
    // 0 unknown, 1 on the current path, 2 grounded, 3 not grounded.
    let mut mark: Vec<Vec<u8>> = g.th.iter().map(|t| vec![0; t.nodes.len()]).collect();
    for (t, th) in g.th.iter().enumerate() {
        for (i, n) in th.nodes.iter().enumerate() {
            if !n.is_read() {
                continue;
            }
            if n.rf.is_none() {
                return false;
            }
            let ground = grounded(g, spec, (t as u32, i as u32), &mut mark);
            if ground == is_symbolic(n.value) {
                return false;
            }
        }
    }
    true
}

fn grounded<S>(g: &Graph<S>, spec: &Speculation, r: EvId, mark: &mut [Vec<u8>]) -> bool {
    match mark[r.0 as usize][r.1 as usize] {
        1 | 3 => return false,
        2 => return true,
        _ => {}
    }
    mark[r.0 as usize][r.1 as usize] = 1;
    let ok = match g.node(r).rf {
        None => false,
        Some(Src::Init) => true,
        Some(Src::Ev(w)) => {
            let wn = g.node(w);
            let at = |e: &weft_exec::event::TraceEvent| (e.span.line, e.span.col);
            let skip_own = wn.ev.rmw && spec.const_rmw.contains(&at(&wn.ev));
            wn.ev
                .data_deps
                .iter()
                .chain(wn.ev.addr_deps.iter())
                .all(|&d| {
                    let dn = &g.th[w.0 as usize].nodes[d];
                    !dn.is_read()
                        || (skip_own && at(&dn.ev) == at(&wn.ev))
                        || grounded(g, spec, (w.0, d as u32), mark)
                })
        }
    };
    mark[r.0 as usize][r.1 as usize] = if ok { 2 } else { 3 };
    ok
}
