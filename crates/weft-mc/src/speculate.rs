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

use std::collections::{BTreeMap, BTreeSet, HashSet};

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
    /// stay on for the others (`WEFT_MC_SPECULATE_MIXED=1`, a cross-check). `None` (the
    /// default): every read guesses and revisits are off, which builds every execution
    /// once by construction and lets the explorer cut hopeless partial graphs.
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
/// [`Speculation`] that builds their executions and no edge left for the note (every read
/// guesses and backward revisits are off, so partial graphs no extension can justify are
/// cut early; with `WEFT_MC_SPECULATE_MIXED` set only the reads of the edges guess and
/// revisits build the rest, the former construction kept as a cross-check); else the edges
/// (the note) and none.
pub fn plan<P: Stepper>(
    p: &Program,
    name: &str,
    prog: &P,
    cells: &[weft_exec::event::Cell],
    init: &[i64],
) -> (Vec<crate::thinair::DepCycle>, Option<Speculation>) {
    let edges = crate::thinair::dep_cycles(p, name.starts_with("ptx"));
    // `WEFT_MC_NO_SPECULATION`: the executions with such a cycle are not built (the note),
    // as before speculation existed: a baseline for measurements.
    if edges.is_empty() || std::env::var_os("WEFT_MC_NO_SPECULATION").is_some() {
        return (edges, None);
    }
    let cell_of = |c: weft_exec::event::Cell| cells.binary_search(&c).ok();
    match guess_values(prog, &cell_of, init, &literals(p)) {
        Some(guesses) => {
            let readers = std::env::var_os("WEFT_MC_SPECULATE_MIXED")
                .is_some()
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
/// execution can have. Each value carries a lower bound on the writes to each cell a chain
/// producing it takes (the cell's own write plus, componentwise, the most of the values
/// its value or address depends on; a constant or initial value none but its own write); a
/// value whose bound exceeds the most writes an execution makes to some cell (the sum over
/// threads of the most a run makes) is produced by no execution and not guessed.
pub fn guess_values<P: Stepper>(
    prog: &P,
    cell_of: &dyn Fn(weft_exec::event::Cell) -> Option<usize>,
    init: &[i64],
    literals: &BTreeSet<i64>,
) -> Option<Vec<Vec<i64>>> {
    let n = init.len();
    let unit = |c: usize| {
        let mut v = vec![0u16; n];
        v[c] = 1;
        v
    };
    let mut dom: Vec<BTreeMap<i64, Vec<u16>>> = (0..n)
        .map(|c| {
            let mut d: BTreeMap<i64, Vec<u16>> = literals.iter().map(|v| (*v, unit(c))).collect();
            d.insert(init[c], vec![0; n]);
            d
        })
        .collect();
    let mut max_writes = 0usize;
    let mut bound: Option<Vec<u16>> = None;
    for round in 0..64 {
        let mut next = dom.clone();
        let mut per_cell = vec![0u16; n];
        let mut writes = 0;
        for t in 0..prog.threads() {
            let (most, most_cell) =
                isolated_runs(prog, t, cell_of, &dom, bound.as_deref(), &mut next)?;
            writes += most;
            for (a, b) in per_cell.iter_mut().zip(most_cell) {
                *a = a.saturating_add(b);
            }
        }
        max_writes = max_writes.max(writes);
        if next.iter().any(|d| d.len() > 64) {
            return None;
        }
        let settled_bound = bound.as_ref() == Some(&per_cell);
        bound = Some(per_cell);
        // After round `round` the domains hold every value of a chain of up to `round + 1`
        // writes, each reading the previous one's value (a value that is not such a chain's
        // closes a cycle: symbolic); no chain is longer than an execution's writes. The
        // bounds must have settled too (a round under smaller bounds may have left out
        // values the final ones allow).
        if settled_bound && (next == dom || round + 1 >= max_writes) {
            return Some(
                next.into_iter()
                    .map(|d| d.into_keys().chain([SYMBOLIC]).collect())
                    .collect(),
            );
        }
        dom = next;
    }
    None
}

/// One round of [`guess_values`] for thread `t`: its runs in isolation, each read
/// returning any value of `dom`; every write's value goes into `next` with its chain
/// bound (left out when it exceeds `bound`). Returns the most writes a run makes, in all
/// and per cell; `None` past 200,000 steps.
fn isolated_runs<P: Stepper>(
    prog: &P,
    t: usize,
    cell_of: &dyn Fn(weft_exec::event::Cell) -> Option<usize>,
    dom: &[BTreeMap<i64, Vec<u16>>],
    bound: Option<&[u16]>,
    next: &mut [BTreeMap<i64, Vec<u16>>],
) -> Option<(usize, Vec<u16>)> {
    let n = dom.len();
    // Per path: state, writes in all and per cell, and per event the chain bound of the
    // value it read (empty for other events).
    type Path<S> = (S, usize, Vec<u16>, Vec<Vec<u16>>);
    let mut stack: Vec<Path<P::State>> = vec![(prog.start(t), 0, vec![0; n], Vec::new())];
    let mut steps = 0usize;
    let (mut most, mut most_cell) = (0usize, vec![0u16; n]);
    while let Some((mut st, mut w, mut wc, mut costs)) = stack.pop() {
        loop {
            steps += 1;
            if steps > 200_000 {
                return None;
            }
            let (Action::Event(ev) | Action::Await { ev, .. }) = prog.next(t, &mut st) else {
                break;
            };
            let c = ev.cell.and_then(cell_of);
            match ev.kind {
                EventKind::Write => {
                    w += 1;
                    most = most.max(w);
                    if let Some(c) = c {
                        wc[c] = wc[c].saturating_add(1);
                        most_cell[c] = most_cell[c].max(wc[c]);
                        let mut cost = vec![0u16; n];
                        for d in ev.data_deps.iter().chain(ev.addr_deps.iter()) {
                            if let Some(k) = costs.get(*d) {
                                for (a, b) in cost.iter_mut().zip(k) {
                                    *a = (*a).max(*b);
                                }
                            }
                        }
                        cost[c] = cost[c].saturating_add(1);
                        let over = bound.is_some_and(|b| cost.iter().zip(b).any(|(x, y)| x > y));
                        if !over {
                            let e = next[c].entry(ev.value).or_insert_with(|| cost.clone());
                            for (a, b) in e.iter_mut().zip(&cost) {
                                *a = (*a).min(*b);
                            }
                        }
                    }
                    costs.push(Vec::new());
                }
                EventKind::Read => {
                    let vals: Vec<(i64, Vec<u16>)> = match c {
                        Some(c) => dom[c].iter().map(|(v, k)| (*v, k.clone())).collect(),
                        None => vec![(0, vec![0; n])],
                    };
                    for (v, k) in &vals[1..] {
                        let mut s2 = st.clone();
                        prog.feed(t, &mut s2, *v);
                        let mut c2 = costs.clone();
                        c2.push(k.clone());
                        stack.push((s2, w, wc.clone(), c2));
                    }
                    prog.feed(t, &mut st, vals[0].0);
                    costs.push(vals[0].1.clone());
                }
                _ => costs.push(Vec::new()),
            }
        }
    }
    Some((most, most_cell))
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

/// Whether a partial graph built without backward revisits (every read guesses) may
/// still end justified: no read whose source chain is already fixed holds the wrong kind
/// of value (a symbolic value on a grounded chain, or a number on a chain that closes a
/// cycle). Reads whose chain reaches a pending read are left for later. Without revisits a
/// read's source never changes once set, so a verdict given here holds for every
/// extension of the graph.
pub fn viable<S>(g: &Graph<S>, spec: &Speculation) -> bool {
    // 0 unknown, 1 on the current path, 2 grounded, 3 not grounded, 4 undecided (reaches
    // a pending read).
    let mut mark: Vec<Vec<u8>> = g.th.iter().map(|t| vec![0; t.nodes.len()]).collect();
    for (t, th) in g.th.iter().enumerate() {
        for (i, n) in th.nodes.iter().enumerate() {
            if !n.is_read() || n.rf.is_none() {
                continue;
            }
            match ground3(g, spec, (t as u32, i as u32), &mut mark) {
                2 if is_symbolic(n.value) => return false,
                3 if !is_symbolic(n.value) => return false,
                _ => {}
            }
        }
    }
    true
}

/// [`grounded`] on a partial graph: 2 grounded, 3 not grounded, 4 undecided (the chain
/// reaches a pending read and closes no cycle).
fn ground3<S>(g: &Graph<S>, spec: &Speculation, r: EvId, mark: &mut [Vec<u8>]) -> u8 {
    match mark[r.0 as usize][r.1 as usize] {
        1 | 3 => return 3,
        m @ (2 | 4) => return m,
        _ => {}
    }
    mark[r.0 as usize][r.1 as usize] = 1;
    let verdict = match g.node(r).rf {
        None => 4,
        Some(Src::Init) => 2,
        Some(Src::Ev(w)) => {
            let wn = g.node(w);
            let at = |e: &weft_exec::event::TraceEvent| (e.span.line, e.span.col);
            let skip_own = wn.ev.rmw && spec.const_rmw.contains(&at(&wn.ev));
            let mut v = 2;
            for &d in wn.ev.data_deps.iter().chain(wn.ev.addr_deps.iter()) {
                let dn = &g.th[w.0 as usize].nodes[d];
                if !dn.is_read() || (skip_own && at(&dn.ev) == at(&wn.ev)) {
                    continue;
                }
                match ground3(g, spec, (w.0, d as u32), mark) {
                    3 => {
                        v = 3;
                        break;
                    }
                    4 => v = 4,
                    _ => {}
                }
            }
            v
        }
    };
    // An undecided verdict is not cached: it may depend on a node still on the path.
    mark[r.0 as usize][r.1 as usize] = if verdict == 4 { 0 } else { verdict };
    verdict
}

/// The writes a thread may still make from a state, run in isolation with every read
/// returning any value of its cell's guesses (see [`future_writes`]).
#[derive(Clone, Debug, Default)]
pub struct Future {
    /// (dense cell, value) pairs it may write.
    pub exact: HashSet<(u32, i64)>,
    /// Cells it may write a value computed after reading a symbolic one (any value, as
    /// far as this check knows).
    pub any: HashSet<u32>,
}

impl Future {
    pub fn may(&self, cell: u32, value: i64) -> bool {
        self.any.contains(&cell) || self.exact.contains(&(cell, value))
    }
}

/// What thread `t` may still write from state `st` ([`Future`]), exploring its runs in
/// isolation, each read returning any value its cell may guess: in a justified execution
/// every value a read returns is such a value or symbolic. `base` is the number of events
/// the thread has, `sym0` those of them that read a symbolic value. A write whose value or
/// address depends on a read of a symbolic value is left out: its value is not grounded, so
/// it can only justify reads holding a symbolic value, which this check never cuts (an
/// exchange's or compare-and-swap's own read aside: its write is then counted as
/// anything); one only control-dependent on such a read may write anything to its cell
/// (feeding `S` decides its branches only up to the offset a symbolic value may carry).
/// `None` past `budget` steps (then it may write anything).
pub fn future_writes<P: Stepper>(
    prog: &P,
    t: usize,
    st: &P::State,
    (base, sym0): (usize, &[usize]),
    cell_of: &dyn Fn(weft_exec::event::Cell) -> Option<usize>,
    spec: &Speculation,
    budget: usize,
) -> Option<Future> {
    let mut out = Future::default();
    let mut stack = vec![(st.clone(), base, sym0.to_vec())];
    let mut steps = 0usize;
    while let Some((mut st, mut idx, mut sym)) = stack.pop() {
        loop {
            steps += 1;
            if steps > budget {
                return None;
            }
            let (Action::Event(ev) | Action::Await { ev, .. }) = prog.next(t, &mut st) else {
                break;
            };
            let c = ev.cell.and_then(cell_of);
            let hit = |deps: &[usize]| deps.iter().any(|d| sym.contains(d));
            match (ev.kind, c) {
                (EventKind::Write, Some(c)) => {
                    let valued = hit(&ev.data_deps) || hit(&ev.addr_deps);
                    let own = ev.rmw && spec.const_rmw.contains(&(ev.span.line, ev.span.col));
                    if hit(&ev.ctrl_deps) || (valued && own) {
                        out.any.insert(c as u32);
                    } else if !valued {
                        out.exact.insert((c as u32, ev.value));
                    }
                }
                (EventKind::Read, Some(c)) => {
                    let vals = spec.guesses.get(c)?;
                    for v in &vals[1..] {
                        let mut s2 = st.clone();
                        prog.feed(t, &mut s2, *v);
                        let mut sym2 = sym.clone();
                        if is_symbolic(*v) {
                            sym2.push(idx);
                        }
                        stack.push((s2, idx + 1, sym2));
                    }
                    prog.feed(t, &mut st, vals[0]);
                    if is_symbolic(vals[0]) {
                        sym.push(idx);
                    }
                }
                (EventKind::Read, None) => return None,
                _ => {}
            }
            idx += 1;
        }
    }
    Some(out)
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
