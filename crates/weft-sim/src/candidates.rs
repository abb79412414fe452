//! Candidate executions (paper 000 §5.1.2): one trace per thread, then every read-from
//! choice (a read takes its value from a write to the same cell with the same value, or from
//! the initial write) and every coherence order (per cell, a total order of its writes with
//! the initial write first). Relations are edge lists over event ids; models turn them into
//! whatever representation they evaluate on. A partial candidate whose remaining steps
//! are all rf choices may be *settled* (every completion judged at once, see
//! [`Skeleton::split`] and `weft_cat::Model::settle`) instead of searched.

use weft_ir::Program;

pub use weft_exec::candidate::{skeleton, Candidate, Event, Pairs, Skeleton};

use crate::traces::{Cell, EventKind, ThreadTraces, Trace};
use crate::value::of_init;

/// Counts of the enumeration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Trace combinations considered.
    pub skeletons: u64,
    /// Candidate executions built (rf and co chosen).
    pub candidates: u64,
}

/// Calls `visit` on every candidate execution of `p` given its thread traces. `visit`
/// returns false to stop the enumeration early.
pub fn for_each_candidate(
    p: &Program,
    tt: &ThreadTraces,
    visit: &mut dyn FnMut(&Candidate) -> bool,
) -> Counts {
    let mut counts = Counts::default();
    for_each_skeleton(p, tt, &mut |sk| {
        counts.skeletons += 1;
        for_each_candidate_of(sk, &mut counts.candidates, visit)
    });
    counts
}

/// Calls `visit` on the skeleton of every combination of thread traces (one trace per
/// thread) in which every read can read from some write (same cell, same value: the
/// initial value or a value some chosen trace writes); `visit` returns false to stop.
///
/// Combinations are built thread by thread; a partial combination is abandoned as soon
/// as one of its reads needs a value that neither the initial state, nor the chosen
/// traces, nor any trace of the remaining threads writes.
pub fn for_each_skeleton(p: &Program, tt: &ThreadTraces, visit: &mut dyn FnMut(&Skeleton) -> bool) {
    use std::collections::HashSet;
    if tt.per_thread.iter().any(|t| t.is_empty()) {
        return;
    }
    let init_of = |c: Cell| of_init(p.loc(c.loc).init);
    // Per trace: the (cell, value) pairs its reads need beyond the initial value, and
    // the pairs it writes.
    let needs: Vec<Vec<Vec<(Cell, i64)>>> = tt
        .per_thread
        .iter()
        .map(|ts| {
            ts.iter()
                .map(|t| {
                    let mut v: Vec<(Cell, i64)> = t
                        .events
                        .iter()
                        .filter(|e| e.kind == EventKind::Read && !e.symbolic)
                        .filter_map(|e| e.cell.map(|c| (c, e.value)))
                        .filter(|(c, v)| *v != init_of(*c))
                        .collect();
                    v.sort();
                    v.dedup();
                    v
                })
                .collect()
        })
        .collect();
    let gives: Vec<Vec<Vec<(Cell, i64)>>> = tt
        .per_thread
        .iter()
        .map(|ts| {
            ts.iter()
                .map(|t| {
                    t.events
                        .iter()
                        .filter(|e| e.kind == EventKind::Write)
                        .filter_map(|e| e.cell.map(|c| (c, e.value)))
                        .collect()
                })
                .collect()
        })
        .collect();
    let nt = tt.per_thread.len();
    // could_give[k]: every pair some trace of threads k.. writes.
    let mut could_give: Vec<HashSet<(Cell, i64)>> = vec![HashSet::new(); nt + 1];
    for k in (0..nt).rev() {
        let mut s = could_give[k + 1].clone();
        for g in &gives[k] {
            s.extend(g.iter().copied());
        }
        could_give[k] = s;
    }
    struct Walk<'a, 'v> {
        p: &'a Program,
        tt: &'a ThreadTraces,
        needs: &'a [Vec<Vec<(Cell, i64)>>],
        gives: &'a [Vec<Vec<(Cell, i64)>>],
        could_give: &'a [HashSet<(Cell, i64)>],
        choice: Vec<usize>,
        given: Vec<(Cell, i64)>,
        visit: &'v mut dyn FnMut(&Skeleton) -> bool,
    }
    impl Walk<'_, '_> {
        fn ok(&self, k: usize) -> bool {
            // Every need of the chosen traces 0..k is met by chosen writes or could be
            // met by a later thread.
            (0..k).all(|t| {
                self.needs[t][self.choice[t]]
                    .iter()
                    .all(|n| self.given.contains(n) || self.could_give[k].contains(n))
            })
        }
        fn go(&mut self, k: usize) -> bool {
            if k == self.choice.len() {
                let traces: Vec<&Trace> = self
                    .choice
                    .iter()
                    .enumerate()
                    .map(|(t, i)| &self.tt.per_thread[t][*i])
                    .collect();
                let sk = skeleton(self.p, traces);
                return (self.visit)(&sk);
            }
            for i in 0..self.tt.per_thread[k].len() {
                self.choice[k] = i;
                let mark = self.given.len();
                self.given.extend(self.gives[k][i].iter().copied());
                let cont = if self.ok(k + 1) { self.go(k + 1) } else { true };
                self.given.truncate(mark);
                if !cont {
                    return false;
                }
            }
            true
        }
    }
    let mut w = Walk {
        p,
        tt,
        needs: &needs,
        gives: &gives,
        could_give: &could_give,
        choice: vec![0; nt],
        given: Vec::new(),
        visit,
    };
    w.go(0);
}

/// Calls `visit` on every rf and co choice of one skeleton, counting them in `visited`;
/// false when `visit` stopped the enumeration. Candidates are built one at a time and
/// never stored (see [`search_candidates_of`]).
pub fn for_each_candidate_of(
    sk: &Skeleton,
    visited: &mut u64,
    visit: &mut dyn FnMut(&Candidate) -> bool,
) -> bool {
    let mut refuted = 0;
    Search::new(sk, None, visit, visited, &mut refuted).run()
}

/// Candidates of one skeleton with more rf × co combinations than this are searched with
/// pruning (fewer are cheaper to enumerate without asking the model about partial ones).
pub const PRUNE_ABOVE: u64 = 16;

/// Every rf and co choice of one skeleton, built step by step in one depth-first search
/// that interleaves coherence with reads-from (paper 000 §5.1.2's candidates; the
/// incremental construction is the "prune early" of the simulator issue). Each thread's
/// events are taken in program order: a write is inserted into the coherence order of
/// its cell at every position (insertion keeps the order of the writes placed before,
/// so a partial candidate's `co` only grows), a read gets each write it may read from.
/// After every step with a real choice, `refute` judges the partial candidate: when it
/// answers true (no completion can be consistent, e.g. a monotone axiom already fails)
/// the whole subtree is skipped and counted in `refuted`. Nothing is materialised: the
/// memory used is the current path, whatever the number of candidates.
pub fn search_candidates_of(
    sk: &Skeleton,
    visited: &mut u64,
    refuted: &mut u64,
    refute: &mut dyn FnMut(&Candidate) -> bool,
    visit: &mut dyn FnMut(&Candidate) -> bool,
) -> bool {
    search_candidates_settled(sk, visited, refuted, refute, None, visit)
}

/// What a caller of [`search_candidates_settled`] does with a partial candidate whose
/// remaining steps are all rf choices (the indices into `rf_choices` given): `None` when
/// it cannot judge all of its completions at once (they are then searched one by one),
/// else it has accounted for every completion itself (see `weft_cat::Model::settle`)
/// and answers whether to go on.
pub type Settle<'a> = dyn FnMut(&Candidate, &[usize]) -> Option<bool> + 'a;

/// [`search_candidates_of`] that first offers each partial candidate whose remaining
/// steps are all rf choices to `settle` (when given), and skips its subtree when `settle`
/// has accounted for all of its completions (they still count in `visited`).
pub fn search_candidates_settled<'f>(
    sk: &Skeleton,
    visited: &'f mut u64,
    refuted: &'f mut u64,
    refute: &'f mut dyn FnMut(&Candidate) -> bool,
    settle: Option<&'f mut Settle<'f>>,
    visit: &'f mut dyn FnMut(&Candidate) -> bool,
) -> bool {
    if sk.rf_choices.iter().any(|(_, ws)| ws.is_empty()) {
        return true;
    }
    if combinations(sk) <= PRUNE_ABOVE {
        return for_each_candidate_of(sk, visited, visit);
    }
    let mut s = Search::new(sk, Some(refute), visit, visited, refuted);
    s.settle = settle;
    s.run()
}

/// The number of rf × co combinations of a skeleton (saturating).
pub fn combinations(sk: &Skeleton) -> u64 {
    let rf = sk
        .rf_choices
        .iter()
        .fold(1u64, |acc, (_, ws)| acc.saturating_mul(ws.len() as u64));
    sk.cells.iter().fold(rf, |acc, (_, _, ws)| {
        (1..=ws.len() as u64).fold(acc, |a, k| a.saturating_mul(k))
    })
}

/// One step of [`Search`]: place a write in its cell's coherence order, or choose the
/// write a read reads from (an index into `rf_choices`).
#[derive(Clone, Copy, Debug)]
enum Step {
    Insert { cell: usize, write: usize },
    Read(usize),
}

/// The depth-first candidate construction of [`search_candidates_of`].
struct Search<'s, 't, 'f> {
    sk: &'s Skeleton<'t>,
    steps: Vec<Step>,
    /// Index of the first step with a real choice (the forced steps come before it).
    first_choice: usize,
    /// Per cell, the non-initial writes placed so far, in coherence order.
    orders: Vec<Vec<usize>>,
    c: Candidate<'s, 't>,
    refute: Option<&'f mut dyn FnMut(&Candidate) -> bool>,
    /// Judges all completions of a partial candidate at once (see [`Settle`]).
    settle: Option<&'f mut Settle<'f>>,
    /// In the current unconstrained subtree, a `settle` attempt failed: no more there.
    free_settle_failed: bool,
    visit: &'f mut dyn FnMut(&Candidate) -> bool,
    visited: &'f mut u64,
    refuted: &'f mut u64,
    /// The depth below which every remaining step was found unconstrained (each of its
    /// alternatives survives the model's checks): no more probing there, and partial
    /// candidates are judged at every level only while judging pays (see
    /// [`FREE_JUDGE_EVERY`]).
    free_from: Option<usize>,
    /// Partial candidates judged, and refuted, below `free_from` (this skeleton).
    free_judged: u64,
    free_refuted: u64,
}

/// In a subtree whose remaining steps were all found unconstrained, partial candidates
/// are judged at every level while at least one judgement in [`FREE_HIT_RATE`] refutes
/// (the coherence family: unconstrained one by one, not together), else only at every
/// this many levels (the xf-barrier family's independent reads: judging there is
/// wasted). The leaves are always judged by the caller, so this is only about speed.
const FREE_JUDGE_EVERY: usize = 3;
const FREE_HIT_RATE: u64 = 8;

impl<'s, 't, 'f> Search<'s, 't, 'f> {
    fn new(
        sk: &'s Skeleton<'t>,
        refute: Option<&'f mut dyn FnMut(&Candidate) -> bool>,
        visit: &'f mut dyn FnMut(&Candidate) -> bool,
        visited: &'f mut u64,
        refuted: &'f mut u64,
    ) -> Self {
        let cell_of: std::collections::HashMap<usize, usize> = sk
            .cells
            .iter()
            .enumerate()
            .flat_map(|(ci, (_, _, ws))| ws.iter().map(move |w| (*w, ci)))
            .collect();
        let read_of: std::collections::HashMap<usize, usize> = sk
            .rf_choices
            .iter()
            .enumerate()
            .map(|(k, (r, _))| (*r, k))
            .collect();
        // Forced steps (one choice) first, then every thread's events in program order.
        let mut forced = Vec::new();
        let mut steps = Vec::new();
        let mut placed = vec![0usize; sk.cells.len()];
        for (id, _) in sk.events.iter().enumerate() {
            if let Some(&cell) = cell_of.get(&id) {
                placed[cell] += 1;
                let st = Step::Insert { cell, write: id };
                if placed[cell] == 1 {
                    forced.push(st);
                } else {
                    steps.push(st);
                }
            }
            if let Some(&k) = read_of.get(&id) {
                if sk.rf_choices[k].1.len() == 1 {
                    forced.push(Step::Read(k));
                } else {
                    steps.push(Step::Read(k));
                }
            }
        }
        let first_choice = forced.len();
        forced.extend(steps);
        Search {
            sk,
            steps: forced,
            first_choice,
            orders: vec![Vec::new(); sk.cells.len()],
            c: Candidate {
                skeleton: sk,
                rf: Vec::new(),
                co: Vec::new(),
                final_writes: Vec::new(),
            },
            refute,
            settle: None,
            free_settle_failed: false,
            visit,
            visited,
            refuted,
            free_from: None,
            free_judged: 0,
            free_refuted: 0,
        }
    }

    fn run(&mut self) -> bool {
        if self.sk.rf_choices.iter().any(|(_, ws)| ws.is_empty()) {
            return true; // some read has no write with its value: no candidate
        }
        self.go(0)
    }

    /// Rebuilds the candidate's `co` pairs and final writes from the orders placed so far.
    fn sync_co(&mut self) {
        let c = &mut self.c;
        c.co.clear();
        c.final_writes.clear();
        for ((_, init, _), ord) in self.sk.cells.iter().zip(&self.orders) {
            for (i, &a) in ord.iter().enumerate() {
                c.co.push((*init, a));
                for &b in &ord[i + 1..] {
                    c.co.push((a, b));
                }
            }
            c.final_writes.push(*ord.last().unwrap_or(init));
        }
    }

    fn go(&mut self, depth: usize) -> bool {
        if depth == self.steps.len() {
            self.sync_co();
            *self.visited += 1;
            return (self.visit)(&self.c);
        }
        // Once the forced steps are placed, judge the skeleton itself: when its forced
        // edges alone already fail a monotone check, no choice can repair it.
        if depth == self.first_choice && depth > 0 && self.refute.is_some() {
            self.sync_co();
            let refute = self.refute.as_mut().expect("checked");
            if refute(&self.c) {
                *self.refuted += 1;
                return true;
            }
        }
        if let Some(go_on) = self.try_settle(depth) {
            return go_on;
        }
        if self.refute.is_some()
            && self.free_from.is_none()
            && depth >= self.first_choice
            && depth + 1 < self.steps.len()
        {
            return self.probe(depth);
        }
        match self.steps[depth] {
            Step::Insert { cell, write } => {
                let len = self.orders[cell].len();
                for pos in 0..=len {
                    self.orders[cell].insert(pos, write);
                    let go_on = self.next(depth, len + 1);
                    self.orders[cell].remove(pos);
                    if !go_on {
                        return false;
                    }
                }
                true
            }
            Step::Read(k) => {
                let (r, ws) = &self.sk.rf_choices[k];
                for &w in ws {
                    self.c.rf.push((w, *r));
                    let go_on = self.next(depth, ws.len());
                    self.c.rf.pop();
                    if !go_on {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// Offers the partial candidate to `settle` when every remaining step (two or more) is
    /// an rf choice; `Some(go_on)` when it accounted for all completions (counted in
    /// `visited`). In an unconstrained subtree, only until one attempt fails there.
    fn try_settle(&mut self, depth: usize) -> Option<bool> {
        if self.settle.is_none()
            || depth < self.first_choice
            || self.steps.len() < depth + 2
            || (self.free_from.is_some() && self.free_settle_failed)
        {
            return None;
        }
        let mut reads = Vec::with_capacity(self.steps.len() - depth);
        for st in &self.steps[depth..] {
            match *st {
                Step::Read(k) => reads.push(k),
                Step::Insert { .. } => return None,
            }
        }
        self.sync_co();
        let settle = self.settle.as_mut().expect("checked");
        match settle(&self.c, &reads) {
            Some(go_on) => {
                let n = reads.iter().fold(1u64, |acc, &k| {
                    acc.saturating_mul(self.sk.rf_choices[k].1.len() as u64)
                });
                *self.visited += n;
                Some(go_on)
            }
            None => {
                if self.free_from.is_some() {
                    self.free_settle_failed = true;
                }
                None
            }
        }
    }

    /// The number of alternatives of a step: positions in its cell's order, or writes.
    fn alternatives(&self, st: Step) -> usize {
        match st {
            Step::Insert { cell, .. } => self.orders[cell].len() + 1,
            Step::Read(k) => self.sk.rf_choices[k].1.len(),
        }
    }

    /// Takes alternative `a` of step `st` (undone by [`Self::undo`]).
    fn apply(&mut self, st: Step, a: usize) {
        match st {
            Step::Insert { cell, write } => self.orders[cell].insert(a, write),
            Step::Read(k) => {
                let (r, ws) = &self.sk.rf_choices[k];
                self.c.rf.push((ws[a], *r));
            }
        }
    }

    fn undo(&mut self, st: Step, a: usize) {
        match st {
            Step::Insert { cell, .. } => {
                self.orders[cell].remove(a);
            }
            Step::Read(_) => {
                self.c.rf.pop();
            }
        }
    }

    /// The alternatives of `st` that the model does not refute on the current partial
    /// candidate (each refuted one is counted in `refuted`).
    fn survivors(&mut self, st: Step) -> Vec<usize> {
        let mut out = Vec::new();
        for a in 0..self.alternatives(st) {
            self.apply(st, a);
            self.sync_co();
            let refute = self.refute.as_mut().expect("probing needs the model");
            if refute(&self.c) {
                *self.refuted += 1;
            } else {
                out.push(a);
            }
            self.undo(st, a);
        }
        out
    }

    /// Chooses the next step by probing (a fail-first order): the remaining steps are
    /// tried in turn, each alternative judged by the model, and the first step some of
    /// whose alternatives are refuted is taken now, with its surviving alternatives
    /// only. A step whose alternatives all survive is deferred (tried again later, at
    /// the back). When every remaining step is unconstrained, the first is taken and the
    /// subtree is searched without probing. Any order of the steps builds every
    /// candidate exactly once (insertion and rf choice are independent per step), so
    /// this changes which partial candidates are judged, not which candidates exist.
    fn probe(&mut self, depth: usize) -> bool {
        let saved: Vec<Step> = self.steps[depth..].to_vec();
        let mut chosen = None;
        let mut free = Vec::new();
        for (i, &st) in saved.iter().enumerate() {
            let alts = self.survivors(st);
            if alts.len() < self.alternatives(st) {
                chosen = Some((i, alts));
                break;
            }
            if i == 0 {
                chosen = Some((0, alts)); // kept in case every step is unconstrained
            }
            free.push(i);
        }
        let Some((i, alts)) = chosen else {
            return true;
        };
        let all_free = free.len() == saved.len();
        let mut alts = alts;
        if all_free {
            self.free_from = Some(depth);
            self.free_settle_failed = false;
            // Coherence insertions first, so that a node whose remaining steps are all
            // rf choices (what `settle` judges) is reached; every alternative survived.
            let (ins, rds): (Vec<Step>, Vec<Step>) = saved
                .iter()
                .partition(|st| matches!(st, Step::Insert { .. }));
            for (slot, st) in ins.into_iter().chain(rds).enumerate() {
                self.steps[depth + slot] = st;
            }
            alts = (0..self.alternatives(self.steps[depth])).collect();
        } else {
            // The chosen step, then the untried ones, then the unconstrained ones.
            let order = std::iter::once(i)
                .chain(i + 1..saved.len())
                .chain(free.iter().copied().filter(|&f| f != i));
            for (slot, k) in order.enumerate() {
                self.steps[depth + slot] = saved[k];
            }
        }
        let st = self.steps[depth];
        let mut go_on = true;
        for a in alts {
            self.apply(st, a);
            go_on = self.go(depth + 1);
            self.undo(st, a);
            if !go_on {
                break;
            }
        }
        if all_free {
            self.free_from = None;
        }
        self.steps[depth..].copy_from_slice(&saved);
        go_on
    }

    /// After the step at `depth` (one of `branching` alternatives): prune or go deeper.
    fn next(&mut self, depth: usize, branching: usize) -> bool {
        let free = self.free_from.is_some();
        let sparse = free
            && self.free_refuted * FREE_HIT_RATE < self.free_judged
            && !(self.steps.len() - depth - 1).is_multiple_of(FREE_JUDGE_EVERY);
        if depth + 1 < self.steps.len() && branching > 1 && self.refute.is_some() && !sparse {
            self.sync_co();
            let refute = self.refute.as_mut().expect("checked");
            let refuted = refute(&self.c);
            if free {
                self.free_judged += 1;
                self.free_refuted += u64::from(refuted);
            }
            if refuted {
                *self.refuted += 1;
                return true;
            }
        }
        self.go(depth + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traces::{thread_traces, Limits};
    use weft_ir::{
        Expr, Load, LocId, Location, MemAttrs, Order, Reg, Span, Stmt, StmtKind, Store, Thread,
    };

    fn sb() -> Program {
        let mut p = Program::new(weft_ir::Arch::Ptx, "SB");
        p.locations = vec![Location::scalar("x", 0), Location::scalar("y", 0)];
        for (t, (w, r)) in [(0u32, 1u32), (1, 0)].into_iter().enumerate() {
            let mut th = Thread::new(format!("P{t}"));
            th.reg_or_declare("r0");
            let a = MemAttrs::with_order(Order::Relaxed);
            th.code = vec![
                Stmt::new(
                    StmtKind::Store(Store {
                        addr: Expr::Addr(LocId(w)),
                        value: Expr::Int(1),
                        attrs: a.clone(),
                    }),
                    Span::default(),
                ),
                Stmt::new(
                    StmtKind::Load(Load {
                        dst: Reg(0),
                        addr: Expr::Addr(LocId(r)),
                        attrs: a,
                    }),
                    Span::default(),
                ),
            ];
            p.threads.push(th);
        }
        p
    }

    /// Sequential consistency, written directly: po | rf | co | fr is acyclic.
    fn sc(c: &Candidate) -> bool {
        let n = c.events().len();
        let mut edges: Vec<(usize, usize)> = c.skeleton.po.clone();
        edges.extend(&c.rf);
        edges.extend(&c.co);
        for (w, r) in &c.rf {
            for (a, b) in &c.co {
                if a == w {
                    edges.push((*r, *b));
                }
            }
        }
        // Kahn's algorithm.
        let mut indeg = vec![0; n];
        for (_, b) in &edges {
            indeg[*b] += 1;
        }
        let mut ready: Vec<usize> = (0..n).filter(|i| indeg[*i] == 0).collect();
        let mut seen = 0;
        while let Some(v) = ready.pop() {
            seen += 1;
            for (a, b) in &edges {
                if *a == v {
                    indeg[*b] -= 1;
                    if indeg[*b] == 0 {
                        ready.push(*b);
                    }
                }
            }
        }
        seen == n
    }

    #[test]
    fn sb_has_four_candidates_and_sc_forbids_only_the_weak_one() {
        let p = sb();
        let tt = thread_traces(&p, Limits::default()).unwrap();
        let mut outcomes = Vec::new();
        let counts = for_each_candidate(&p, &tt, &mut |c| {
            let regs: Vec<i64> = (0..2).map(|t| c.reg_value(t, 0)).collect();
            outcomes.push((regs, sc(c)));
            true
        });
        // The loads' values are only observed: one skeleton, the rf choices decide them.
        assert_eq!(
            counts,
            Counts {
                skeletons: 1,
                candidates: 4
            }
        );
        outcomes.sort();
        assert_eq!(
            outcomes,
            vec![
                (vec![0, 0], false),
                (vec![0, 1], true),
                (vec![1, 0], true),
                (vec![1, 1], true)
            ]
        );
    }

    #[test]
    fn coherence_orders_are_enumerated() {
        // Two writers of x (values 1 and 2): 2 co orders, final value either.
        let mut p = sb();
        p.threads[1].code[0] = Stmt::new(
            StmtKind::Store(Store {
                addr: Expr::Addr(LocId(0)),
                value: Expr::Int(2),
                attrs: MemAttrs::default(),
            }),
            Span::default(),
        );
        let tt = thread_traces(&p, Limits::default()).unwrap();
        let mut finals = std::collections::BTreeSet::new();
        for_each_candidate(&p, &tt, &mut |c| {
            finals.insert(
                c.final_value(Cell {
                    loc: LocId(0),
                    index: 0,
                })
                .unwrap(),
            );
            true
        });
        assert_eq!(finals, std::collections::BTreeSet::from([1, 2]));
    }
}
