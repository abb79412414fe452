//! The exploration driver: TruSt-style exploration-optimal DPOR (paper 004 §4, Alg. 1;
//! Kokologiannakis et al., "Truly stateless, optimal dynamic partial order reduction",
//! POPL 2022). Events are added one at a time in a fixed thread order; a read branches
//! over the writes already present; a write branches over its coherence placements and
//! over *backward revisits* of earlier reads not in its (po ∪ rf)-prefix, performed only
//! when every deleted event (and the revisited read) was added maximally, so each
//! execution is built exactly once. Subtrees run in parallel with rayon work stealing;
//! every count is a sum over the tree, so results do not depend on the thread count.
//! Await reads (Kokologiannakis, Marmanis, Vafeiadis, "Unblocking dynamic partial order
//! reduction", CAV 2023: no stale blocked reads) are added reading a write whose value
//! fails their spin loop's iteration only when that write is coherence-latest: a stale one
//! is never maximal, so never revisited, and its branch could only end blocked.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use weft_exec::event::{EventKind, TraceEvent};

use crate::graph::{EvId, Graph, Node, Src, Status, ThreadG};
use crate::step::{Action, Stepper};

/// What the driver asks of the program-specific side: whether a (partial) graph is
/// consistent, and what to record for a complete one.
pub trait Judge<S>: Sync {
    type Acc: Default + Send;
    /// Consistency of a partial graph (called after every added event, which is the last
    /// of its thread; the judge may cache what it computed in the graph, [`Graph::hb`]).
    fn consistent(&self, g: &mut Graph<S>) -> bool;
    /// A complete graph whose every thread finished (`Done` or a failed assertion).
    fn complete(&self, g: &Graph<S>, acc: &mut Self::Acc);
    fn merge(&self, a: &mut Self::Acc, b: Self::Acc);
    /// Whether the exploration may stop (`--stop-on-first` and an error was recorded).
    fn satisfied(&self, acc: &Self::Acc) -> bool;
    /// A graph where every thread stopped and some thread is blocked (an `assume` failed,
    /// or a thread waits at a barrier or in a spin loop); kernels judge barrier divergence
    /// and deadlock here. The default ignores it (it is counted as blocked).
    fn blocked(&self, _g: &Graph<S>, _acc: &mut Self::Acc) {}
    /// Whether the model makes every RMW atomic whatever its scope and order (RC11's and
    /// scoped RC11's Atomicity: no write between an RMW's read's source and its write in
    /// coherence). The driver then places an RMW's write only right after that source
    /// instead of trying every position and having the others rejected, which made each
    /// arrival at a barrier of n threads cost n consistency checks. The default (false)
    /// keeps every placement (PTX's atomicity holds only for morally strong pairs).
    fn atomic_rmws(&self) -> bool {
        false
    }
}

/// Counts kept by the driver itself.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// Complete executions handed to the judge.
    pub complete: u64,
    /// Executions in which a thread's `assume` failed (not executions of the program).
    pub blocked: u64,
    /// Executions cut by the unroll bound.
    pub cut: u64,
    /// Executions in which a thread faulted, with the first message.
    pub faults: u64,
    pub fault_message: Option<String>,
    /// Graphs built (every node of the exploration tree).
    pub graphs: u64,
    /// Graphs rejected by the consistency check.
    pub inconsistent: u64,
    /// Backward revisits performed.
    pub revisits: u64,
    /// Largest number of events in a graph.
    pub max_events: usize,
    /// Complete executions reached again (only when (po ∪ rf) cycles are explored).
    pub duplicates: u64,
    /// Await reads not added reading a stale write (one that is not coherence-latest)
    /// whose value blocks their spin loop: such a branch can only end blocked.
    pub stale: u64,
    /// Under value speculation ([`crate::speculate`]): graphs ended with a guess no write
    /// justified (or a value cycle not symbolic), dropped.
    pub unjustified: u64,
}

impl Counts {
    fn merge(&mut self, o: Counts) {
        self.complete += o.complete;
        self.blocked += o.blocked;
        self.cut += o.cut;
        self.faults += o.faults;
        if self.fault_message.is_none() {
            self.fault_message = o.fault_message;
        }
        self.graphs += o.graphs;
        self.inconsistent += o.inconsistent;
        self.revisits += o.revisits;
        self.max_events = self.max_events.max(o.max_events);
        self.duplicates += o.duplicates;
        self.stale += o.stale;
        self.unjustified += o.unjustified;
    }
}

/// Limits and knobs of an exploration.
#[derive(Clone, Debug)]
pub struct Limits {
    pub deadline: Option<Instant>,
    /// Stop when the resident set exceeds this many bytes.
    pub max_memory: Option<u64>,
    /// Graphs with fewer events than this fan their children out to rayon.
    pub split_below: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            deadline: None,
            max_memory: None,
            split_below: 24,
        }
    }
}

/// Why an exploration stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stopped {
    Timeout,
    Memory,
    FirstError,
}

type FutureMemo =
    std::collections::HashMap<(usize, Vec<i64>), Option<Arc<crate::speculate::Future>>>;

pub struct Explorer<'a, P: Stepper, J: Judge<P::State>> {
    pub prog: &'a P,
    pub judge: &'a J,
    /// Initial value per dense cell.
    pub init: Vec<i64>,
    /// The cells, sorted (dense cell id = position).
    pub cells: Vec<weft_exec::event::Cell>,
    pub limits: Limits,
    /// Reads-from mode (paper 004 §4.4): writes are not branched over coherence
    /// placements (each goes last, in order of addition); the judge derives co.
    pub rf_mode: bool,
    /// Also build executions with (po ∪ rf) cycles (load buffering), for models without
    /// No-Thin-Air: a read in a write's prefix may still be revisited by it when no event
    /// of the prefix after the read depends on it (address, data or control).
    pub porf_cycles: bool,
    /// Thread symmetry (`crate::symmetry`): the members' leading stores are added before
    /// any read, and a member's first write is placed only coherence-after its class
    /// predecessor's, so one execution per orbit is built.
    pub symmetry: Option<&'a crate::symmetry::Symmetry>,
    /// Value speculation ([`crate::speculate`]): reads may also guess a value a later
    /// write must justify (those on a potential cycle through a dependency, revisits
    /// covering the others; or every read, revisits off).
    pub spec: Option<&'a crate::speculate::Speculation>,
    stop: AtomicBool,
    /// Complete executions seen, when (po ∪ rf) cycles are explored (that extension is
    /// complete but not optimal: an execution may be reached twice, and is counted once).
    seen: std::sync::Mutex<std::collections::HashSet<Vec<u64>>>,
    /// Under value speculation without revisits: what each thread may still write from a
    /// state, keyed by the thread and the values of its events so far (which fix its state).
    future: std::sync::Mutex<FutureMemo>,
    stopped: std::sync::Mutex<Option<Stopped>>,
}

/// The result of [`Explorer::run`].
pub struct Outcome<A> {
    pub counts: Counts,
    pub acc: A,
    pub stopped: Option<Stopped>,
}

impl<'a, P: Stepper, J: Judge<P::State>> Explorer<'a, P, J> {
    pub fn new(
        prog: &'a P,
        judge: &'a J,
        cells: Vec<weft_exec::event::Cell>,
        init: Vec<i64>,
        limits: Limits,
    ) -> Self {
        Explorer {
            prog,
            judge,
            init,
            cells,
            limits,
            rf_mode: false,
            porf_cycles: false,
            symmetry: None,
            spec: None,
            stop: AtomicBool::new(false),
            seen: Default::default(),
            future: Default::default(),
            stopped: std::sync::Mutex::new(None),
        }
    }

    /// Explores every execution of the program.
    pub fn run(&self) -> Outcome<J::Acc> {
        let n = self.prog.threads();
        let g = Graph {
            th: (0..n)
                .map(|t| ThreadG {
                    nodes: Default::default(),
                    state: self.prog.start(t),
                    status: Status::Running,
                })
                .collect(),
            co: vec![Vec::new(); self.init.len()],
            next_stamp: 0,
            hb: Default::default(),
        };
        let mut counts = Counts::default();
        let mut acc = J::Acc::default();
        self.visit(g, &mut counts, &mut acc);
        let stopped = *self.stopped.lock().expect("not poisoned");
        Outcome {
            counts,
            acc,
            stopped,
        }
    }

    fn halt(&self, why: Stopped) {
        let mut s = self.stopped.lock().expect("not poisoned");
        if s.is_none() {
            *s = Some(why);
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Checks the deadline at every graph built by this worker thread (one clock read, tens
    /// of nanoseconds against microseconds per graph), so the overshoot is one graph however
    /// slow graphs are (before the incremental consistency check a graph of a 256-thread
    /// launch took most of a second in a debug build, and a check every 256 graphs ran a
    /// `--timeout 300` run for 905 s), and the memory every 4096 graphs or 100 ms, whichever
    /// comes first (per-thread state, so workers share no counter).
    fn check_limits(&self) {
        thread_local! {
            static TICKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
            static LAST_MEM: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
        }
        let t = TICKS.with(|c| {
            let v = c.get().wrapping_add(1);
            c.set(v);
            v
        });
        if self.limits.deadline.is_none() && self.limits.max_memory.is_none() {
            return;
        }
        let now = Instant::now();
        if self.limits.deadline.is_some_and(|d| now > d) {
            self.halt(Stopped::Timeout);
        }
        if let Some(max) = self.limits.max_memory {
            let due = LAST_MEM.with(|c| {
                let due = t.is_multiple_of(4096)
                    || c.get()
                        .is_none_or(|l| now.duration_since(l) >= Duration::from_millis(100));
                if due {
                    c.set(Some(now));
                }
                due
            });
            if due && crate::mem::rss_bytes().is_some_and(|r| r > max) {
                self.halt(Stopped::Memory);
            }
        }
    }

    fn visit(&self, mut g: Graph<P::State>, counts: &mut Counts, acc: &mut J::Acc) {
        counts.graphs += 1;
        self.check_limits();
        if self.stop.load(Ordering::Relaxed) {
            return;
        }
        if self.hopeless(&g) {
            counts.unjustified += 1;
            return;
        }
        loop {
            // The lowest-numbered running thread that can move (a thread awaiting a value
            // no write provides yet lets the others go first).
            let mut chosen = self.leading_store(&g);
            let mut waiting = Vec::new();
            for t in 0..g.th.len() {
                if chosen.is_some() {
                    break;
                }
                if g.th[t].status != Status::Running {
                    continue;
                }
                let mut st = g.th[t].state.clone();
                let a = self.prog.next(t, &mut st);
                if let Action::Await { ev, lo, hi } = &a {
                    let cell = ev.cell.map(|c| self.cell_id(c)).unwrap_or(u32::MAX);
                    let provided = (cell as usize) < g.co.len()
                        && std::iter::once(Src::Init)
                            .chain(g.co[cell as usize].iter().map(|e| Src::Ev(*e)))
                            .any(|s| (*lo..=*hi).contains(&g.src_value(s, cell, &self.init)));
                    if !provided {
                        waiting.push(t);
                        continue;
                    }
                }
                chosen = Some((t, st, a));
                break;
            }
            let Some((t, st, action)) = chosen else {
                if waiting.is_empty() {
                    return self.leaf(&g, counts, acc);
                }
                for t in waiting {
                    g.th[t].status = Status::Blocked;
                }
                return self.leaf(&g, counts, acc);
            };
            let (ev, range) = match action {
                Action::Event(ev) => (ev, None),
                Action::Await { ev, lo, hi } => (ev, Some((lo, hi))),
                other => {
                    g.th[t].state = st;
                    g.th[t].status = match other {
                        Action::Done => Status::Done,
                        Action::AssertFailed(s) => Status::AssertFailed(s),
                        Action::Blocked => Status::Blocked,
                        Action::Cut => Status::Cut,
                        Action::Fault(m) => Status::Fault(m),
                        Action::Event(_) | Action::Await { .. } => unreachable!(),
                    };
                    continue;
                }
            };
            let cell = ev.cell.map(|c| self.cell_id(c)).unwrap_or(u32::MAX);
            let idx = g.th[t].nodes.len() as u32;
            let me: EvId = (t as u32, idx);
            match ev.kind {
                EventKind::Read => {
                    let children = self.read_children(g, t, st, ev, range, cell, counts);
                    return self.fan_out(children, counts, acc);
                }
                EventKind::Write => {
                    let value = ev.value;
                    let mut base = g;
                    base.th[t].state = st;
                    base.th[t].nodes.push(Node {
                        ev: Arc::new(ev),
                        cell,
                        stamp: base.next_stamp,
                        rf: None,
                        value,
                        revisited: false,
                        range: None,
                        hb: u32::MAX,
                    });
                    base.next_stamp += 1;
                    if self.spec.is_some_and(|sp| sp.readers.is_none()) {
                        let mut fwd = Vec::new();
                        self.place_justified(base, me, cell, value, &mut fwd, counts);
                        return self.fan_out(fwd, counts, acc);
                    }
                    let mut children = Vec::new();
                    // Backward revisits (computed on the graph with the write added but not
                    // yet placed in coherence).
                    let prefix = base.porf_prefix(me);
                    let mut reads = Vec::new();
                    for (u, th) in base.th.iter().enumerate() {
                        for (i, n) in th.nodes.iter().enumerate() {
                            // A pending guess is justified by `justify`, not revisited.
                            if n.cell != cell || !n.is_read() || n.rf.is_none() {
                                continue;
                            }
                            // An awaiting read never reads a value outside its range.
                            if n.range.is_some_and(|(lo, hi)| !(lo..=hi).contains(&value)) {
                                continue;
                            }
                            if (i as u32) >= prefix[u]
                                || (self.porf_cycles
                                    && u != t
                                    && self.independent(&base, (u as u32, i as u32), prefix[u]))
                            {
                                reads.push((u as u32, i as u32));
                            }
                        }
                    }
                    for r in reads {
                        if let Some(rg) = self.revisit(&base, me, r, &prefix) {
                            counts.revisits += 1;
                            self.place_justified(rg, me, cell, value, &mut children, counts);
                        }
                    }
                    let mut fwd = Vec::new();
                    self.place_justified(base, me, cell, value, &mut fwd, counts);
                    fwd.extend(children);
                    return self.fan_out(fwd, counts, acc);
                }
                EventKind::Fence { .. } | EventKind::Barrier { .. } => {
                    g.th[t].state = st;
                    g.th[t].nodes.push(Node {
                        ev: Arc::new(ev),
                        cell,
                        stamp: g.next_stamp,
                        rf: None,
                        value: 0,
                        revisited: false,
                        range: None,
                        hb: u32::MAX,
                    });
                    g.next_stamp += 1;
                    if !self.judge.consistent(&mut g) {
                        counts.inconsistent += 1;
                        return;
                    }
                }
            }
        }
    }

    /// The children of `g` where thread `t`'s read `ev` of `cell` (its stepper state
    /// `st` before the value is fed) reads each write of the cell already present, and under
    /// value speculation each value it may guess; children the judge rejects are counted.
    #[allow(clippy::too_many_arguments)]
    fn read_children(
        &self,
        g: Graph<P::State>,
        t: usize,
        st: P::State,
        ev: TraceEvent,
        range: Option<(i64, i64)>,
        cell: u32,
        counts: &mut Counts,
    ) -> Vec<Graph<P::State>> {
        let ev = Arc::new(ev);
        let mut srcs = vec![Src::Init];
        srcs.extend(g.co[cell as usize].iter().map(|e| Src::Ev(*e)));
        if let Some((lo, hi)) = range {
            srcs.retain(|s| (lo..=hi).contains(&g.src_value(*s, cell, &self.init)));
        }
        // The coherence-latest source first: the first executions explored are
        // the ones where each thread sees the others' latest writes (a lock is
        // handed on rather than spun on), where the first error of a program
        // usually is. Every source is explored; only the order changes.
        srcs.reverse();
        let mut choices: Vec<(Option<Src>, i64)> = srcs
            .iter()
            .map(|s| (Some(*s), g.src_value(*s, cell, &self.init)))
            .collect();
        // Value speculation: the read may also guess a value a write added
        // later must justify (no source yet).
        if range.is_none() {
            choices.extend(self.guesses(t, &ev, cell).map(|v| (None, v)));
        }
        let mut children = Vec::with_capacity(choices.len());
        // The last child takes the graph itself instead of a copy.
        let mut owned = Some(g);
        let last = choices.len().saturating_sub(1);
        for (k, (s, value)) in choices.into_iter().enumerate() {
            let mut st2 = st.clone();
            let fix = self.prog.feed(t, &mut st2, value);
            // A stale await read (not the coherence-latest source, and its value
            // fails the spin loop's iteration): never maximal, so never revisited,
            // and its thread never moves again; the branch could only end blocked.
            if range.is_none() && k > 0 && self.prog.spin_blocked(t, &st2) {
                counts.stale += 1;
                continue;
            }
            // Children whose label the value read does not change share it.
            let e2 = if fix.rmw == ev.rmw && fix.attrs.as_ref().is_none_or(|a| *a == ev.attrs) {
                ev.clone()
            } else {
                let mut e2 = (*ev).clone();
                e2.rmw = fix.rmw;
                if let Some(a) = fix.attrs {
                    e2.attrs = a;
                }
                Arc::new(e2)
            };
            let mut c = if k == last {
                owned.take()
            } else {
                owned.clone()
            }
            .expect("only the last child takes the graph");
            c.th[t].nodes.push(Node {
                ev: e2,
                cell,
                stamp: c.next_stamp,
                rf: s,
                value,
                revisited: false,
                range,
                hb: u32::MAX,
            });
            c.next_stamp += 1;
            c.th[t].state = st2;
            if self.judge.consistent(&mut c) {
                children.push(c);
            } else {
                counts.inconsistent += 1;
            }
        }
        children
    }

    /// The values thread `t`'s read `ev` of `cell` may guess (none without speculation or
    /// when it is not one of the guessing reads).
    fn guesses<'s>(
        &'s self,
        t: usize,
        ev: &TraceEvent,
        cell: u32,
    ) -> impl Iterator<Item = i64> + 's {
        self.spec
            .filter(|sp| sp.guesses_at(t, ev.span))
            .and_then(|sp| sp.guesses.get(cell as usize))
            .into_iter()
            .flatten()
            .copied()
    }

    /// [`Explorer::place`] of the write `w` just added in `g`, and under value speculation
    /// of each graph [`Explorer::justify`] makes of it.
    fn place_justified(
        &self,
        g: Graph<P::State>,
        w: EvId,
        cell: u32,
        value: i64,
        out: &mut Vec<Graph<P::State>>,
        counts: &mut Counts,
    ) {
        if self.spec.is_none() {
            return self.place(g, w, cell, out, counts);
        }
        for h in self.justify(g, w, cell, value) {
            self.place(h, w, cell, out, counts);
        }
    }

    /// Under value speculation: the graph `g` (write `w` just added) and, for every
    /// nonempty set of pending reads of `cell` that guessed `value`, a copy in which `w`
    /// is their source (each read is justified by at most one write, chosen here or later).
    fn justify(&self, g: Graph<P::State>, w: EvId, cell: u32, value: i64) -> Vec<Graph<P::State>> {
        let own_rmw_read = (g.node(w).ev.rmw && w.1 > 0).then(|| (w.0, w.1 - 1));
        let mut pending = Vec::new();
        for (u, th) in g.th.iter().enumerate() {
            for (i, n) in th.nodes.iter().enumerate() {
                let e = (u as u32, i as u32);
                if n.is_read()
                    && n.rf.is_none()
                    && n.cell == cell
                    && n.value == value
                    && Some(e) != own_rmw_read
                {
                    pending.push(e);
                }
            }
        }
        let mut out = vec![g];
        for r in pending {
            let more: Vec<_> = out
                .iter()
                .map(|h| {
                    let mut h = h.clone();
                    h.node_mut(r).rf = Some(Src::Ev(w));
                    h.forget_views();
                    h
                })
                .collect();
            out.extend(more);
        }
        out
    }

    /// Under value speculation without backward revisits (every read guesses): whether no
    /// extension of `g` can end justified, so its subtree is cut now instead of at each of
    /// its leaves. Either a read whose source chain is fixed holds the wrong kind of value
    /// ([`crate::speculate::viable`]), or a pending read guessed a number that no thread
    /// still running can write to its cell any more ([`crate::speculate::future_writes`]).
    /// Without revisits a graph's descendants are its extensions, so both verdicts hold
    /// for all of them.
    fn hopeless(&self, g: &Graph<P::State>) -> bool {
        let Some(sp) = self.spec.filter(|sp| sp.readers.is_none()) else {
            return false;
        };
        if !crate::speculate::viable(g, sp) {
            return true;
        }
        let mut futures: Vec<Option<Option<Arc<crate::speculate::Future>>>> =
            vec![None; g.th.len()];
        for th in &g.th {
            for n in th.nodes.iter() {
                if !n.is_read() || n.rf.is_some() || crate::speculate::is_symbolic(n.value) {
                    continue;
                }
                let mut justifiable = false;
                for (u, f) in futures.iter_mut().enumerate() {
                    if g.th[u].status != Status::Running {
                        continue;
                    }
                    let f = f.get_or_insert_with(|| self.future_of(g, u, sp));
                    if f.as_ref().is_none_or(|f| f.may(n.cell, n.value)) {
                        justifiable = true;
                        break;
                    }
                }
                if !justifiable {
                    return true;
                }
            }
        }
        false
    }

    /// What thread `u` of `g` may still write (memoised; `None`: anything).
    fn future_of(
        &self,
        g: &Graph<P::State>,
        u: usize,
        sp: &crate::speculate::Speculation,
    ) -> Option<Arc<crate::speculate::Future>> {
        let key = (u, g.th[u].nodes.iter().map(|n| n.value).collect::<Vec<_>>());
        if let Some(f) = self.future.lock().expect("not poisoned").get(&key) {
            return f.clone();
        }
        let cell_of = |c: weft_exec::event::Cell| self.cells.binary_search(&c).ok();
        let nodes = &g.th[u].nodes;
        let sym: Vec<usize> = (0..nodes.len())
            .filter(|&i| nodes[i].is_read() && crate::speculate::is_symbolic(nodes[i].value))
            .collect();
        let f = crate::speculate::future_writes(
            self.prog,
            u,
            &g.th[u].state,
            (nodes.len(), &sym),
            &cell_of,
            sp,
            20_000,
        )
        .map(Arc::new);
        let mut memo = self.future.lock().expect("not poisoned");
        if memo.len() > 1 << 20 {
            memo.clear();
        }
        memo.insert(key, f.clone());
        f
    }

    /// Under symmetry: the lowest class member that has read nothing yet and whose next
    /// event is a store (its leading stores go before every read, so no revisit can
    /// delete them and their coherence order is final).
    fn leading_store(&self, g: &Graph<P::State>) -> Option<(usize, P::State, Action)> {
        let sym = self.symmetry?;
        for t in 0..g.th.len() {
            if !sym.member[t]
                || g.th[t].status != Status::Running
                || g.th[t].nodes.iter().any(|n| n.is_read())
            {
                continue;
            }
            let mut st = g.th[t].state.clone();
            let a = self.prog.next(t, &mut st);
            if matches!(&a, Action::Event(ev) if ev.kind == EventKind::Write) {
                return Some((t, st, a));
            }
        }
        None
    }

    fn cell_id(&self, c: weft_exec::event::Cell) -> u32 {
        self.cells
            .binary_search(&c)
            .map(|i| i as u32)
            .unwrap_or(u32::MAX)
    }

    /// Every coherence placement of write `w` (already in its thread) that is consistent.
    fn place(
        &self,
        g: Graph<P::State>,
        w: EvId,
        cell: u32,
        out: &mut Vec<Graph<P::State>>,
        counts: &mut Counts,
    ) {
        let len = g.co[cell as usize].len();
        let lowest = if self.rf_mode { len } else { 0 };
        // An RMW's write under a model where RMWs are atomic: only right after its read's
        // source (every other position breaks Atomicity).
        let rmw_slot = (!self.rf_mode && self.judge.atomic_rmws() && g.node(w).ev.rmw && w.1 > 0)
            .then(|| g.node((w.0, w.1 - 1)))
            .filter(|r| r.is_read() && r.cell == cell)
            .and_then(|r| r.rf)
            .map(|s| g.co_pos(cell, s))
            .filter(|&p| p <= len);
        let (mut lowest, len) = match rmw_slot {
            Some(p) => (p, p),
            None => (lowest, len),
        };
        // Symmetry: a class member's first write goes after its predecessor's.
        if let Some(p) = self
            .symmetry
            .filter(|_| w.1 == 0)
            .and_then(|s| s.pred[w.0 as usize])
        {
            if let Some(i) = g.co[cell as usize].iter().position(|e| *e == (p as u32, 0)) {
                lowest = lowest.max(i + 1);
            }
        }
        // The last placement takes the graph itself instead of a copy.
        let mut owned = Some(g);
        for pos in (lowest..=len).rev() {
            let mut c = if pos == lowest {
                owned.take()
            } else {
                owned.clone()
            }
            .expect("only the last placement takes the graph");
            c.co[cell as usize].insert(pos, w);
            if self.judge.consistent(&mut c) {
                out.push(c);
            } else {
                counts.inconsistent += 1;
            }
        }
    }

    /// The graph where read `r` reads from the new write `w`, when the revisit is
    /// performed: events added after `r` and not in `w`'s prefix are deleted, each of
    /// them (and `r`) must have been added maximally (reads from the coherence-latest
    /// write, writes coherence-latest among the events before it or in `w`'s prefix).
    fn revisit(
        &self,
        g: &Graph<P::State>,
        w: EvId,
        r: EvId,
        prefix: &[u32],
    ) -> Option<Graph<P::State>> {
        let rstamp = g.node(r).stamp;
        let in_prefix = |e: EvId| e.1 < prefix[e.0 as usize];
        let deleted = |e: EvId| g.node(e).stamp > rstamp && !in_prefix(e);
        let in_prev = |x: EvId, s: u32| x != w && (g.node(x).stamp < s || in_prefix(x));
        // Maximality of r and of every deleted event.
        for (u, th) in g.th.iter().enumerate() {
            for (i, n) in th.nodes.iter().enumerate() {
                let e = (u as u32, i as u32);
                if e != r && !deleted(e) {
                    continue;
                }
                if e == w {
                    continue;
                }
                let s = n.stamp;
                if n.is_read() {
                    // Maximal: reads the coherence-latest write among the events before it
                    // (for an awaiting read, the latest of a value it may read).
                    let fits = |s: Src| {
                        n.range.is_none_or(|(lo, hi)| {
                            (lo..=hi).contains(&g.src_value(s, n.cell, &self.init))
                        })
                    };
                    let co = &g.co[n.cell as usize];
                    let max = co
                        .iter()
                        .rev()
                        .map(|x| Src::Ev(*x))
                        .find(|x| matches!(x, Src::Ev(e) if in_prev(*e, s)) && fits(*x))
                        .unwrap_or(Src::Init);
                    if n.rf != Some(max) {
                        return None;
                    }
                } else if n.is_write() && !self.rf_mode {
                    let co = &g.co[n.cell as usize];
                    let pos = co.iter().position(|x| *x == e)?;
                    if co[pos + 1..].iter().any(|x| in_prev(*x, s)) {
                        return None;
                    }
                }
            }
        }
        // Build the restricted graph (r's view changes, and so may the labels replayed).
        let mut h = g.clone();
        h.forget_views();
        let mut touched = vec![false; h.th.len()];
        for (u, th) in h.th.iter_mut().enumerate() {
            let keep = if u as u32 == r.0 {
                (r.1 as usize + 1).max(prefix[u] as usize)
            } else {
                let before = th.nodes.iter().take_while(|n| n.stamp < rstamp).count();
                before.max(prefix[u] as usize)
            };
            if keep < th.nodes.len() {
                th.nodes.truncate(keep);
                touched[u] = true;
            }
        }
        touched[r.0 as usize] = true;
        for co in h.co.iter_mut() {
            co.retain(|e| (e.1 as usize) < h.th[e.0 as usize].nodes.len() && *e != w);
        }
        // A kept read whose source is deleted was itself revisited by that write: the
        // revisit is not the canonical one (its deleted source is not in w's prefix).
        for th in &h.th {
            for n in &th.nodes {
                if let Some(Src::Ev(s)) = n.rf {
                    if s.1 as usize >= h.th[s.0 as usize].nodes.len() {
                        return None;
                    }
                }
            }
        }
        let wval = h.node(w).value;
        {
            let rn = h.node_mut(r);
            rn.rf = Some(Src::Ev(w));
            rn.value = wval;
            rn.revisited = true;
        }
        for (u, t) in touched.iter().enumerate() {
            if *t && !self.replay(&mut h, u) {
                return None;
            }
        }
        Some(h)
    }

    /// Whether no event of `r`'s thread after `r` among its first `upto` events depends on
    /// `r`'s value (so they stay the same when `r` reads something else).
    fn independent(&self, g: &Graph<P::State>, r: EvId, upto: u32) -> bool {
        let th = &g.th[r.0 as usize];
        let ri = r.1 as usize;
        th.nodes[ri + 1..(upto as usize).min(th.nodes.len())]
            .iter()
            .all(|n| {
                !n.ev.addr_deps.contains(&ri)
                    && !n.ev.data_deps.contains(&ri)
                    && !n.ev.ctrl_deps.contains(&ri)
            })
    }

    /// Re-runs thread `t` over its kept events (feeding their values) to rebuild its
    /// stepper state and the labels whose meaning depends on values read.
    fn replay(&self, g: &mut Graph<P::State>, t: usize) -> bool {
        let mut st = self.prog.start(t);
        let th = &mut g.th[t];
        for n in th.nodes.iter_mut() {
            match self.prog.next(t, &mut st) {
                Action::Event(mut ev) | Action::Await { mut ev, .. } => {
                    if ev.kind != n.ev.kind
                        || ev.cell != n.ev.cell
                        || (ev.kind == EventKind::Write && ev.value != n.value)
                    {
                        return false;
                    }
                    if ev.kind == EventKind::Read {
                        let fix = self.prog.feed(t, &mut st, n.value);
                        ev.rmw = fix.rmw;
                        if let Some(a) = fix.attrs {
                            ev.attrs = a;
                        }
                    }
                    n.ev = Arc::new(ev);
                }
                _ => return false,
            }
        }
        th.state = st;
        th.status = Status::Running;
        true
    }

    fn fan_out(&self, children: Vec<Graph<P::State>>, counts: &mut Counts, acc: &mut J::Acc) {
        if children.is_empty() {
            return;
        }
        let events = children[0].events();
        if children.len() > 1
            && events < self.limits.split_below
            && rayon::current_num_threads() > 1
        {
            let (c, a) = children
                .into_par_iter()
                .map(|g| {
                    let mut c = Counts::default();
                    let mut a = J::Acc::default();
                    self.visit(g, &mut c, &mut a);
                    (c, a)
                })
                .reduce(
                    || (Counts::default(), J::Acc::default()),
                    |(mut c1, mut a1), (c2, a2)| {
                        c1.merge(c2);
                        self.judge.merge(&mut a1, a2);
                        (c1, a1)
                    },
                );
            counts.merge(c);
            self.judge.merge(acc, a);
        } else {
            for g in children {
                self.visit(g, counts, acc);
            }
        }
    }

    fn leaf(&self, g: &Graph<P::State>, counts: &mut Counts, acc: &mut J::Acc) {
        counts.max_events = counts.max_events.max(g.events());
        if self
            .spec
            .is_some_and(|sp| !crate::speculate::justified(g, sp))
        {
            counts.unjustified += 1;
            return;
        }
        let mut blocked = false;
        let mut cut = false;
        for th in &g.th {
            match &th.status {
                Status::Fault(m) => {
                    counts.faults += 1;
                    if counts.fault_message.is_none() {
                        counts.fault_message = Some(m.clone());
                    }
                    return;
                }
                Status::Cut => cut = true,
                Status::Blocked => blocked = true,
                _ => {}
            }
        }
        if cut {
            counts.cut += 1;
            return;
        }
        if blocked {
            counts.blocked += 1;
            self.judge.blocked(g, acc);
            if self.judge.satisfied(acc) {
                self.halt(Stopped::FirstError);
            }
            return;
        }
        if self.porf_cycles && self.spec.is_none_or(|sp| sp.readers.is_some()) {
            let mut key = Vec::new();
            for th in &g.th {
                key.push(u64::MAX);
                for n in &th.nodes {
                    key.push(n.value as u64);
                    key.push(match n.rf {
                        None => 0,
                        Some(Src::Init) => 1,
                        Some(Src::Ev(e)) => 2 + ((e.0 as u64) << 32 | e.1 as u64),
                    });
                }
            }
            for co in &g.co {
                key.push(u64::MAX - 1);
                key.extend(co.iter().map(|e| (e.0 as u64) << 32 | e.1 as u64));
            }
            if !self.seen.lock().expect("not poisoned").insert(key) {
                counts.duplicates += 1;
                return;
            }
        }
        counts.complete += 1;
        self.judge.complete(g, acc);
        if self.judge.satisfied(acc) {
            self.halt(Stopped::FirstError);
        }
    }
}

/// Runs `f` on a rayon pool of `threads` workers (0: one per core) whose stacks are deep
/// enough for the exploration's recursion (one frame pair per event of a graph).
pub fn in_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> Result<R, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(512 << 20)
        .build()
        .map_err(|e| e.to_string())?;
    Ok(pool.install(f))
}
