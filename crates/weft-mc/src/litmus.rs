//! Model checking litmus programs: the judge that records final states, the condition's
//! verdict and the model's flags for every complete execution, with consistency decided
//! natively (`sc`, `rc11`, `scoped-rc11`) or by a `.cat` model through the simulator's
//! execution adapter (`weft_exec::exec`), so `weft mc` and `weft sim` judge a candidate
//! execution identically. The summary is a [`weft_exec::SimResult`], printed in herd7's
//! layout by the same code as `weft sim`.

use std::collections::BTreeMap;
use std::time::Instant;

use weft_cat::{EvalOptions, Model};
use weft_exec::candidate::{skeleton, Candidate};
use weft_exec::event::{Cell, End, EventKind, Trace};
use weft_exec::exec::SkeletonExec;
use weft_exec::value::{addr_of, decode_addr, of_init};
use weft_exec::SimResult;
use weft_ir::{Program, Quantifier, Term};

use crate::explore::{Counts, Explorer, Judge, Limits, Stopped};
use crate::graph::{Graph, Src, Status};
use crate::kernel::WitnessGraph;
use crate::native::{self, Native};
use crate::states::StateTable;
use crate::step::{cells, LitmusState, LitmusStepper, Stepper};

/// How executions are judged.
pub enum Consistency<'m> {
    Native(Native),
    Cat(&'m Model),
}

/// Options of a litmus model-checking run.
#[derive(Clone, Debug)]
pub struct McOptions {
    pub unroll: u32,
    pub stop_on_first: bool,
    pub timeout: Option<std::time::Duration>,
    pub max_memory: Option<u64>,
    /// Witness executions kept as DOT graphs.
    pub keep_witnesses: usize,
    /// Use the `.cat` model even when a native check exists.
    pub force_cat: bool,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Reads-from mode (paper 004 §4.4): explore rf only; each complete rf-graph is
    /// judged under every coherence order of its writes.
    pub rf_mode: bool,
    /// `--replay`: explore only the execution this witness graph describes (rf+co mode).
    pub guide: Option<WitnessGraph>,
    /// Most distinct final states listed one per line; past it they are given in product
    /// form (`SimResult::terms`; `None`: always listed). Memory does not depend on it: the
    /// states are kept in a compact table ([`crate::states`]) either way.
    pub max_states: Option<u64>,
    /// Build one execution per orbit of interchangeable threads ([`crate::symmetry`]) and
    /// expand the final states over the group (on by default; repair turns it off, since
    /// it needs every racing pair as its own threads see it).
    pub symmetry: bool,
}

impl Default for McOptions {
    fn default() -> Self {
        McOptions {
            unroll: 2,
            stop_on_first: false,
            timeout: None,
            max_memory: None,
            keep_witnesses: 0,
            force_cat: false,
            threads: 0,
            rf_mode: false,
            guide: None,
            max_states: None,
            symmetry: true,
        }
    }
}

/// The outcome of model checking one litmus program.
#[derive(Clone, Debug)]
pub struct McResult {
    /// States, verdict, flags, in the simulator's terms (`consistent` = executions
    /// the model allows).
    pub sim: SimResult,
    pub counts: Counts,
    /// Complete executions the model rejected (the `.cat` oracle at the end).
    pub rejected: u64,
    /// Executions whose threads hang at their barriers (no final state).
    pub hung: u64,
    /// Which consistency check ran: `native` or `cat`.
    pub checker: &'static str,
    pub stopped: Option<Stopped>,
    /// Interleaving of the first witness (one line per event, in order of addition).
    pub witness_text: Option<String>,
    /// `--rf` mode: consistent reads-from classes (0 otherwise).
    pub rf_classes: u64,
    /// The racing pairs of statements over every explored execution (native checks only;
    /// empty under a `.cat` oracle), for repair (paper 004 §4.1).
    pub races: Vec<RaceSite>,
    /// The rf/co choices of the execution in `witness_text` (the first error's, else the
    /// first witness of the condition), which `McOptions::guide` replays.
    pub witness_graph: Option<WitnessGraph>,
    /// With a guide: complete executions built on the way that were not the witness.
    pub unmatched: u64,
    /// Under a model without No-Thin-Air: the dependency edges on a potential (po ∪ rf)
    /// cycle, whose executions the explorer does not build (the result may miss them).
    pub dep_cycles: Vec<crate::thinair::DepCycle>,
    /// The thread symmetry used (a line for the report), when one was.
    pub symmetry: Option<String>,
}

/// Two racing accesses, each named by (thread, source line, source column); `a` < `b`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct RaceSite {
    pub a: (u32, u32, u32),
    pub b: (u32, u32, u32),
    /// Heterogeneous (both atomic, scopes not inclusive) rather than a data race.
    pub hetero: bool,
    /// The location raced on (index into the program's locations).
    pub loc: Option<u32>,
}

fn race_site<S>(
    g: &Graph<S>,
    a_id: crate::graph::EvId,
    b: crate::graph::EvId,
    hetero: bool,
) -> RaceSite {
    let a = a_id;
    let sa = g.node(a).ev.span;
    let sb = g.node(b).ev.span;
    let x = (a.0, sa.line, sa.col);
    let y = (b.0, sb.line, sb.col);
    let (a, b) = if x <= y { (x, y) } else { (y, x) };
    let loc = g.node(a_id).ev.cell.map(|c| c.loc.0);
    RaceSite { a, b, hetero, loc }
}

/// Accumulated per subtree.
#[derive(Default)]
pub struct Acc {
    positive: u64,
    negative: u64,
    flags: BTreeMap<String, u64>,
    consistent: u64,
    rejected: u64,
    filtered: u64,
    undefined: u64,
    /// Undefined executions per failing `undefined_unless` (rc11: a data race).
    undefined_by: BTreeMap<String, u64>,
    assert_failed: u64,
    hung: u64,
    witnesses: Vec<(String, String)>,
    error: Option<String>,
    /// `--rf` mode: complete rf-graphs with at least one consistent coherence order.
    rf_classes: u64,
    /// Interleaving of the first erroneous execution, and its rf/co choices.
    error_witness: Option<String>,
    error_graph: Option<WitnessGraph>,
    /// The rf/co choices of the first witness of the condition.
    witness_graph: Option<WitnessGraph>,
    /// With a guide: complete executions that were not the witness.
    unmatched: u64,
    /// Racing statement pairs (native checks).
    races: std::collections::BTreeSet<RaceSite>,
    /// Under symmetry: each distinct final state of a representative, its executions and
    /// the first representative that ended in it.
    sym: std::collections::HashMap<Vec<i64>, (u64, WitnessGraph)>,
}

fn has_assert_failure<S>(g: &Graph<S>) -> bool {
    g.th.iter()
        .any(|t| matches!(t.status, Status::AssertFailed(_)))
}

/// Calls `f` on every permutation of `v[k..]` (v's prefix fixed).
fn permute<T: Clone>(v: &mut Vec<T>, k: usize, f: &mut dyn FnMut(&[T])) {
    if k + 1 >= v.len() {
        f(v);
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permute(v, k + 1, f);
        v.swap(k, i);
    }
}

struct LitmusJudge<'a> {
    p: &'a Program,
    stepper: &'a LitmusStepper<'a>,
    check: &'a Consistency<'a>,
    eval: EvalOptions,
    cols: Vec<Term>,
    init: Vec<i64>,
    ncells: usize,
    keep: usize,
    stop_on_first: bool,
    /// Relaxed loads and stores only, under rc11/scoped-rc11: the fast native check.
    relaxed: bool,
    cells: Vec<Cell>,
    rf_mode: bool,
    guide: Option<&'a WitnessGraph>,
    /// The final states of every worker (one lock per complete execution).
    table: std::sync::Mutex<StateTable>,
    /// Thread symmetry: states are kept per representative and expanded at the end.
    sym: Option<&'a crate::symmetry::Symmetry>,
}

fn value_text(p: &Program, v: i64) -> String {
    if crate::speculate::is_symbolic(v) {
        // A self-justifying value (herd7 prints a symbol, `S8`).
        return match v - crate::speculate::SYMBOLIC {
            0 => "S".into(),
            d => format!("S{d:+}"),
        };
    }
    match decode_addr(v, p.locations.len()) {
        Some((l, 0)) => p.loc(l).name.clone(),
        Some((l, i)) => format!("{}+{i}", p.loc(l).name),
        None => v.to_string(),
    }
}

impl LitmusJudge<'_> {
    fn term_value(&self, g: &Graph<std::sync::Arc<LitmusState>>, t: &Term) -> i64 {
        match t {
            Term::Reg { thread, reg } => {
                g.th.get(*thread)
                    .map(|th| self.stepper.reg(&th.state, reg.index()))
                    .unwrap_or(0)
            }
            Term::Mem { loc, index } => {
                let cell = Cell {
                    loc: self.p.storage_of(*loc),
                    index: *index,
                };
                match self.cells.binary_search(&cell) {
                    Ok(c) => match g.co[c].last() {
                        Some(e) => g.node(*e).value,
                        None => self.init[c],
                    },
                    Err(_) => of_init(self.p.loc(cell.loc).init),
                }
            }
            Term::Int(i) => *i,
            Term::Addr(l) => addr_of(*l),
        }
    }

    /// The `.cat` oracle: the graph as the simulator's candidate, judged by the model
    /// for each barrier synchronisation. `None`: the threads hang at their barriers.
    fn oracle(
        &self,
        m: &Model,
        g: &Graph<std::sync::Arc<LitmusState>>,
    ) -> Result<Option<Option<weft_cat::eval::Evaluation>>, String> {
        let traces: Vec<Trace> =
            g.th.iter()
                .enumerate()
                .map(|(t, th)| {
                    let nregs = self.p.threads[t].regs.len();
                    Trace {
                        events: th
                            .nodes
                            .iter()
                            .map(|n| {
                                let mut e = (*n.ev).clone();
                                if e.kind == EventKind::Read {
                                    e.value = n.value;
                                }
                                e
                            })
                            .collect(),
                        regs: (0..nregs).map(|r| self.stepper.reg(&th.state, r)).collect(),
                        reg_src: vec![None; nregs],
                        end: match &th.status {
                            Status::AssertFailed(s) => End::AssertFailed(*s),
                            _ => End::Done,
                        },
                    }
                })
                .collect();
        let sk = skeleton(self.p, traces.iter().collect());
        let id = |t: u32, i: u32| sk.thread_start[t as usize] + i as usize;
        let mut rf = Vec::new();
        for (t, th) in g.th.iter().enumerate() {
            for (i, n) in th.nodes.iter().enumerate() {
                if let Some(s) = n.rf {
                    let w = match s {
                        Src::Init => n.cell as usize,
                        Src::Ev(e) => id(e.0, e.1),
                    };
                    rf.push((w, id(t as u32, i as u32)));
                }
            }
        }
        let mut co = Vec::new();
        let mut finals = Vec::new();
        for (c, ws) in g.co.iter().enumerate() {
            let chain: Vec<usize> = std::iter::once(c)
                .chain(ws.iter().map(|e| id(e.0, e.1)))
                .collect();
            for i in 0..chain.len() {
                for j in i + 1..chain.len() {
                    co.push((chain[i], chain[j]));
                }
            }
            finals.push(*chain.last().expect("non-empty"));
        }
        let cand = Candidate {
            skeleton: &sk,
            rf,
            co,
            final_writes: finals,
        };
        let sx = SkeletonExec::new(self.p, &sk);
        if sx.choices() == 0 {
            return Ok(None);
        }
        for choice in 0..sx.choices() {
            let x = sx.with_choice(&cand, choice);
            let ev = m.evaluate(&x, &self.eval).map_err(|e| e.render())?;
            if ev.allowed() {
                return Ok(Some(Some(ev)));
            }
        }
        Ok(Some(None))
    }
}

impl Judge<std::sync::Arc<LitmusState>> for LitmusJudge<'_> {
    type Acc = Acc;

    fn consistent(&self, g: &mut Graph<std::sync::Arc<LitmusState>>) -> bool {
        if self.guide.is_some_and(|w| !w.admits(g, false)) {
            return false;
        }
        if self.rf_mode {
            return true;
        }
        match self.check {
            Consistency::Native(_) if self.relaxed => native::check_relaxed(g),
            Consistency::Native(m) => native::check_incremental(*m, self.p, g, self.ncells),
            Consistency::Cat(_) => true,
        }
    }

    fn complete(&self, g: &Graph<std::sync::Arc<LitmusState>>, acc: &mut Acc) {
        if self.guide.is_some_and(|w| !w.admits(g, true)) {
            acc.unmatched += 1;
            return;
        }
        if self.rf_mode {
            // Every coherence order of the writes of each cell (the initial write first).
            let mut h = g.clone();
            let before = acc.consistent;
            self.each_co(&mut h, 0, acc);
            if acc.consistent > before {
                acc.rf_classes += 1;
            }
            return;
        }
        self.complete_one(g, acc)
    }

    fn merge(&self, a: &mut Acc, b: Acc) {
        self.merge_acc(a, b)
    }

    fn satisfied(&self, acc: &Acc) -> bool {
        self.satisfied_acc(acc)
    }
}

impl LitmusJudge<'_> {
    fn each_co(&self, h: &mut Graph<std::sync::Arc<LitmusState>>, cell: usize, acc: &mut Acc) {
        if cell == h.co.len() {
            let ok = match self.check {
                Consistency::Native(_) if self.relaxed => native::check_relaxed(h),
                Consistency::Native(m) => {
                    native::check(*m, self.p, h, self.ncells, false).consistent
                }
                Consistency::Cat(_) => true,
            };
            if ok {
                self.complete_one(h, acc);
            }
            return;
        }
        let ws = h.co[cell].clone();
        let mut perm = ws.clone();
        permute(&mut perm, 0, &mut |p| {
            h.co[cell] = p.to_vec();
            self.each_co(h, cell + 1, acc);
        });
        h.co[cell] = ws;
    }

    fn complete_one(&self, g: &Graph<std::sync::Arc<LitmusState>>, acc: &mut Acc) {
        let mut value = |t: &Term| self.term_value(g, t);
        if let Some(f) = &self.p.filter {
            if !f.eval(&mut value) {
                acc.filtered += 1;
                return;
            }
        }
        let mut flags: Vec<String> = Vec::new();
        let mut undefined_by: Vec<String> = Vec::new();
        match self.check {
            Consistency::Native(m) if self.relaxed => {
                if *m == Native::ScopedRc11 {
                    let pairs = native::hetero_race_pairs_relaxed(self.p, g, false);
                    if !pairs.is_empty() {
                        flags.push("heterogeneous-race".into());
                    }
                    for (a, b) in pairs {
                        acc.races.insert(race_site(g, a, b, true));
                    }
                }
            }
            Consistency::Native(m) => {
                let v = native::check(*m, self.p, g, self.ncells, true);
                if !v.consistent {
                    acc.rejected += 1;
                    return;
                }
                if v.data_race && *m == Native::Rc11 {
                    // As models/rc11.cat (and C11): a racy execution is undefined.
                    undefined_by.push("data-race".into());
                } else if v.data_race {
                    flags.push("data-race".into());
                }
                if v.hetero_race {
                    flags.push("heterogeneous-race".into());
                }
                for (a, b, h) in v.race_pairs {
                    acc.races.insert(race_site(g, a, b, h));
                }
            }
            Consistency::Cat(m) => match self.oracle(m, g) {
                Err(e) => {
                    acc.error.get_or_insert(e);
                    return;
                }
                Ok(None) => {
                    acc.hung += 1;
                    return;
                }
                Ok(Some(None)) => {
                    acc.rejected += 1;
                    return;
                }
                Ok(Some(Some(ev))) => {
                    flags = ev.flags();
                    if ev.undefined() {
                        undefined_by = ev.undefined_by();
                    }
                }
            },
        }
        if let Some(sym) = self.sym {
            // Programs with symmetry are straight-line loads and stores: no assertion, no
            // undefined behaviour; flags (a property of the orbit) count for every image.
            acc.consistent += sym.size();
            for f in &flags {
                *acc.flags.entry(f.clone()).or_default() += sym.size();
            }
            if !flags.is_empty() && acc.error_witness.is_none() {
                acc.error_witness = Some(crate::witness::interleaving(self.p, g, &self.init));
                acc.error_graph = Some(WitnessGraph::of(g));
            }
            let vals: Vec<i64> = self.cols.iter().map(|t| self.term_value(g, t)).collect();
            acc.sym
                .entry(vals)
                .or_insert_with(|| (0, WitnessGraph::of(g)))
                .0 += 1;
            return;
        }
        acc.consistent += 1;
        if has_assert_failure(g) {
            acc.assert_failed += 1;
        }
        if !undefined_by.is_empty() {
            acc.undefined += 1;
        }
        let undefined_here = !undefined_by.is_empty();
        for u in undefined_by {
            *acc.undefined_by.entry(u).or_default() += 1;
        }
        let flags_here = flags.clone();
        for f in flags {
            *acc.flags.entry(f).or_default() += 1;
        }
        let sat = self
            .p
            .condition
            .as_ref()
            .map(|cd| cd.prop.eval(&mut value))
            .unwrap_or(false);
        if sat {
            acc.positive += 1;
        } else {
            acc.negative += 1;
        }
        let vals: Vec<i64> = self.cols.iter().map(|t| self.term_value(g, t)).collect();
        self.table
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .add(&vals, sat, 1);
        let witness = match self.p.condition.as_ref().map(|c| c.quantifier) {
            Some(Quantifier::Forall) => !sat,
            Some(_) => sat,
            None => true,
        };
        if witness && acc.witness_graph.is_none() {
            acc.witness_graph = Some(WitnessGraph::of(g));
        }
        if witness && acc.witnesses.len() < self.keep {
            acc.witnesses.push((
                crate::witness::dot(self.p, g, &self.init, acc.witnesses.len()),
                crate::witness::interleaving(self.p, g, &self.init),
            ));
        }
        // The first erroneous execution (failed assertion, race flag, violated
        // `~exists`/`forall`) is the witness printed with the errors.
        let error = has_assert_failure(g)
            || !flags_here.is_empty()
            || undefined_here
            || match self.p.condition.as_ref().map(|c| c.quantifier) {
                Some(Quantifier::NotExists) => sat,
                Some(Quantifier::Forall) => !sat,
                _ => false,
            };
        if error && acc.error_witness.is_none() {
            acc.error_witness = Some(crate::witness::interleaving(self.p, g, &self.init));
            acc.error_graph = Some(WitnessGraph::of(g));
        }
    }

    fn merge_acc(&self, a: &mut Acc, b: Acc) {
        a.rf_classes += b.rf_classes;
        a.races.extend(b.races);
        if a.error_witness.is_none() {
            a.error_witness = b.error_witness;
            a.error_graph = b.error_graph;
        }
        if a.witness_graph.is_none() {
            a.witness_graph = b.witness_graph;
        }
        a.unmatched += b.unmatched;
        for (k, (n, w)) in b.sym {
            a.sym.entry(k).or_insert((0, w)).0 += n;
        }
        a.positive += b.positive;
        a.negative += b.negative;
        for (k, v) in b.flags {
            *a.flags.entry(k).or_default() += v;
        }
        a.consistent += b.consistent;
        a.rejected += b.rejected;
        a.filtered += b.filtered;
        a.undefined += b.undefined;
        for (k, v) in b.undefined_by {
            *a.undefined_by.entry(k).or_default() += v;
        }
        a.assert_failed += b.assert_failed;
        a.hung += b.hung;
        for w in b.witnesses {
            if a.witnesses.len() < self.keep {
                a.witnesses.push(w);
            }
        }
        if a.error.is_none() {
            a.error = b.error;
        }
    }

    fn satisfied_acc(&self, acc: &Acc) -> bool {
        acc.error.is_some()
            || (self.stop_on_first
                && (acc.assert_failed > 0
                    || acc.flags.keys().any(|f| f.contains("race"))
                    || match self.p.condition.as_ref().map(|c| c.quantifier) {
                        Some(Quantifier::Exists | Quantifier::NotExists) => acc.positive > 0,
                        Some(Quantifier::Forall) => acc.negative > 0,
                        None => false,
                    }))
    }
}

/// Why a litmus program could not be checked.
#[derive(Debug, thiserror::Error)]
pub enum McError {
    /// The program is malformed for execution (a jump to nowhere...).
    #[error("{0}: {1}")]
    Program(weft_ir::Span, String),
    /// The `.cat` model failed while judging.
    #[error("model: {0}")]
    Model(String),
}

/// Model checks `p` under `model` (a bundled name or a `.cat` path already loaded as
/// `cat`); `name` selects the native check when one exists and covers `p`.
pub fn check_litmus(
    p: &Program,
    name: &str,
    cat: &Model,
    opts: &McOptions,
) -> Result<McResult, McError> {
    let start = Instant::now();
    let stepper = LitmusStepper::new(p, opts.unroll).map_err(|(s, m)| McError::Program(s, m))?;
    let all = cells(p);
    let init: Vec<i64> = all.iter().map(|c| of_init(p.loc(c.loc).init)).collect();
    let check = match Native::by_name(name) {
        Some(n) if !opts.force_cat && Native::covers(p) => Consistency::Native(n),
        _ => Consistency::Cat(cat),
    };
    let cols = weft_exec::result::columns(p);
    // Models with No-Thin-Air never allow a (po ∪ rf) cycle; the others (ptx-v7.5,
    // vulkan, opencl, user models) are explored with load-buffering executions too, and
    // the cycles through a dependency that are not built are named (`dep_cycles`).
    let porf_cycles = matches!(check, Consistency::Cat(_))
        && !matches!(
            name.strip_suffix(".cat").unwrap_or(name),
            "rc11" | "scoped-rc11" | "sc" | "tso"
        );
    let relaxed = matches!(
        check,
        Consistency::Native(Native::Rc11 | Native::ScopedRc11)
    ) && native::relaxed_only(p);
    let symmetry = (opts.symmetry && relaxed && !opts.rf_mode && opts.guide.is_none())
        .then(|| crate::symmetry::Symmetry::of(p, &cols))
        .flatten();
    let judge = LitmusJudge {
        p,
        stepper: &stepper,
        check: &check,
        eval: EvalOptions::fast(),
        cols: cols.clone(),
        init: init.clone(),
        ncells: all.len(),
        keep: opts.keep_witnesses.max(1),
        stop_on_first: opts.stop_on_first,
        relaxed,
        cells: all.clone(),
        rf_mode: opts.rf_mode,
        guide: opts.guide.as_ref(),
        table: std::sync::Mutex::new(StateTable::new(cols.len())),
        sym: symmetry.as_ref(),
    };
    let limits = Limits {
        deadline: opts.timeout.map(|d| start + d),
        max_memory: opts.max_memory,
        ..Limits::default()
    };
    let (dep_cycles, spec) = if porf_cycles {
        crate::speculate::plan(p, name, &stepper, &all, &init)
    } else {
        (Vec::new(), None)
    };
    let mut ex = Explorer::new(&stepper, &judge, all, init, limits);
    ex.rf_mode = opts.rf_mode;
    ex.porf_cycles = porf_cycles;
    ex.spec = spec.as_ref();
    ex.symmetry = symmetry.as_ref();
    let out = crate::explore::in_pool(opts.threads, || ex.run())
        .map_err(|e| McError::Model(format!("cannot start worker threads: {e}")))?;
    let mut acc = out.acc;
    if let Some(e) = acc.error {
        return Err(McError::Model(e));
    }
    let mut table = std::mem::replace(
        &mut *judge.table.lock().unwrap_or_else(|e| e.into_inner()),
        StateTable::new(0),
    );
    let mut counts = out.counts;
    let mut sym_witness = None;
    if let Some(sym) = &symmetry {
        sym_witness = expand_symmetric(sym, p, &cols, &mut acc, &mut table);
        for c in [
            &mut counts.complete,
            &mut counts.blocked,
            &mut counts.cut,
            &mut counts.faults,
        ] {
            *c *= sym.size();
        }
    }
    if let (Some(sym), Some((k, w))) = (&symmetry, sym_witness) {
        if acc.error_witness.is_none() {
            rebuild_witness(p, name, cat, opts, w.permuted(sym.thread_map(k)), &mut acc);
        }
    }
    let (states, terms, _) = table.finish(opts.max_states, &|v| value_text(p, v));
    let mut sim = SimResult {
        name: p.name.clone(),
        columns: cols
            .iter()
            .map(|t| weft_exec::result::term_text(p, t))
            .collect(),
        condition: p.condition.clone(),
        states,
        terms,
        positive: acc.positive,
        negative: acc.negative,
        flags: acc.flags,
        candidates: counts.complete,
        filtered: acc.filtered,
        consistent: acc.consistent,
        undefined: acc.undefined,
        undefined_by: acc.undefined_by,
        assert_failed: acc.assert_failed,
        cut_traces: counts.cut as usize,
        fault_traces: counts.faults as usize,
        fault_message: counts.fault_message.clone(),
        hung_skeletons: acc.hung,
        converged: true,
        timed_out: out.stopped == Some(Stopped::Timeout),
        stopped_at_verdict: out.stopped == Some(Stopped::FirstError),
        ..SimResult::default()
    };
    sim.validated = match p.condition.as_ref().map(|c| c.quantifier) {
        Some(Quantifier::Exists) => sim.positive > 0,
        Some(Quantifier::NotExists) => sim.positive == 0,
        Some(Quantifier::Forall) => sim.negative == 0,
        None => true,
    };
    let witness_text = acc
        .error_witness
        .clone()
        .or_else(|| acc.witnesses.first().map(|w| w.1.clone()));
    let witness_graph = acc.error_graph.clone().or(acc.witness_graph.clone());
    sim.witnesses = acc
        .witnesses
        .into_iter()
        .take(opts.keep_witnesses)
        .map(|w| w.0)
        .collect();
    sim.seconds = start.elapsed().as_secs_f64();
    Ok(McResult {
        sim,
        counts,
        rejected: acc.rejected,
        hung: acc.hung,
        checker: match check {
            Consistency::Native(_) => "native",
            Consistency::Cat(_) => "cat",
        },
        stopped: out.stopped,
        symmetry: symmetry.as_ref().map(|s| s.describe(p)),
        witness_text,
        rf_classes: acc.rf_classes,
        races: acc.races.into_iter().collect(),
        witness_graph,
        unmatched: acc.unmatched,
        dep_cycles,
    })
}

/// Expands the representatives' final states over the symmetry group into `table`, with
/// the condition's verdict per image. Returns the first image that witnesses the
/// condition (or violates it, for `~exists`/`forall`): the permutation and the
/// representative's rf/co choices.
fn expand_symmetric(
    sym: &crate::symmetry::Symmetry,
    p: &Program,
    cols: &[Term],
    acc: &mut Acc,
    table: &mut StateTable,
) -> Option<(usize, WitnessGraph)> {
    let mut reps: Vec<(Vec<i64>, (u64, WitnessGraph))> =
        std::mem::take(&mut acc.sym).into_iter().collect();
    reps.sort_by(|a, b| a.0.cmp(&b.0));
    let quant = p.condition.as_ref().map(|c| c.quantifier);
    let mut witness: Option<(bool, usize, WitnessGraph)> = None;
    for (vals, (count, w)) in reps {
        for (k, img) in sym.images(&vals).enumerate() {
            let mut value = |t: &Term| match cols.iter().position(|c| c == t) {
                Some(i) => img[i],
                None => match t {
                    Term::Int(i) => *i,
                    Term::Addr(l) => addr_of(*l),
                    _ => 0,
                },
            };
            let sat = p
                .condition
                .as_ref()
                .map(|cd| cd.prop.eval(&mut value))
                .unwrap_or(false);
            if sat {
                acc.positive += count;
            } else {
                acc.negative += count;
            }
            table.add(&img, sat, count);
            let error = match quant {
                Some(Quantifier::NotExists) => sat,
                Some(Quantifier::Forall) => !sat,
                _ => false,
            };
            let wit = match quant {
                Some(Quantifier::Forall) => !sat,
                Some(_) => sat,
                None => true,
            };
            // An error witness wins over a plain witness of the condition.
            if (wit || error) && witness.as_ref().is_none_or(|(e, _, _)| error && !e) {
                witness = Some((error, k, w.clone()));
            }
        }
    }
    witness.map(|(_, k, w)| (k, w))
}

/// The witness `w` (the image of a representative under a thread symmetry) rebuilt as an
/// execution of its own: the program explored again without symmetry, guided by `w`.
fn rebuild_witness(
    p: &Program,
    name: &str,
    cat: &Model,
    opts: &McOptions,
    w: WitnessGraph,
    acc: &mut Acc,
) {
    let again = McOptions {
        guide: Some(w),
        symmetry: false,
        timeout: None,
        ..opts.clone()
    };
    let Ok(r) = check_litmus(p, name, cat, &again) else {
        return;
    };
    acc.witnesses = r
        .witness_text
        .clone()
        .map(|t| (r.sim.witnesses.first().cloned().unwrap_or_default(), t))
        .into_iter()
        .collect();
    let error = p
        .condition
        .as_ref()
        .is_some_and(|c| matches!(c.quantifier, Quantifier::NotExists | Quantifier::Forall));
    acc.error_witness = r.witness_text.filter(|_| error);
    acc.error_graph = acc.error_witness.as_ref().and(r.witness_graph.clone());
    acc.witness_graph = r.witness_graph;
}
