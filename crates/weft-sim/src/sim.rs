//! Simulation: every candidate execution of a program judged by a `.cat` model, summarised
//! as herd does (paper 000 §5.1–5.4: enumerate candidates, keep those the model allows,
//! report their final states and whether the test's condition is validated).
//!
//! Counting follows herd7: `Positive` is the number of allowed executions whose final
//! state satisfies the condition's proposition, `Negative` the allowed ones that do not.
//! The condition is validated (`Ok`) when: `exists p` — some allowed execution satisfies
//! `p`; `~exists p` — none does; `forall p` — all do. Executions whose final state fails
//! the test's `filter` are discarded before the model runs. Flags raised by the model in
//! allowed executions are counted per flag; executions an `undefined_unless` check marks
//! are counted as undefined (and still reported). Thread traces cut by the unroll bound or
//! faulting are counted, never silently dropped.

use std::time::Instant;

use weft_cat::{CatError, EvalOptions, Model};
use weft_ir::{Program, Quantifier, Term};

use crate::candidates::{for_each_skeleton, search_candidates_settled, Candidate, Skeleton};
use crate::exec::SkeletonExec;
use crate::product::{keep_symbolic, Product};
use crate::traces::{thread_traces, Cell, EventKind, Limits, TraceError};
use crate::value::{addr_of, decode_addr, of_init};

pub use weft_exec::result::{columns, condition_text, term_text, SimResult, StateInfo};

/// Knobs of a simulation.
#[derive(Clone, Debug)]
pub struct SimOptions {
    pub limits: Limits,
    pub eval: EvalOptions,
    /// Most candidate executions visited before giving up (the completions of settled
    /// subtrees are counted, never visited, and do not count against it).
    pub max_candidates: u64,
    /// Witness executions kept as DOT graphs (0: none).
    pub keep_witnesses: usize,
    /// Stop as soon as the condition's verdict is known (a witness for `exists`, a
    /// counterexample for `forall`/`~exists`); with `races`, only once a race flag is
    /// also seen. The state list is then incomplete (conformance mode).
    pub stop_at_verdict: Option<StopAt>,
    /// Judge partial candidates with the model's monotone checks and skip their
    /// completions when one already fails (see `weft_cat::monotone`).
    pub prune: bool,
    /// With `prune`: judge all completions of a partial candidate at once where the
    /// model allows that (`weft_cat::Model::settle`), instead of visiting each. The
    /// states and counts are the same either way.
    pub settle: bool,
    /// Wall-clock budget per test: past it the enumeration stops and the result is
    /// marked [`SimResult::timed_out`] (its states are then incomplete).
    pub timeout: Option<std::time::Duration>,
    /// Most resident memory of the process, in bytes: past it the enumeration stops and
    /// the result is marked [`SimResult::memory_limited`] (its states are then
    /// incomplete). Checked on the process's RSS (see [`crate::memory`]).
    pub max_memory: Option<u64>,
    /// Most distinct final states listed one by one: past it, the states of settled
    /// subtrees are kept in product form ([`SimResult::terms`], exact counts; see
    /// [`crate::product`]) instead of being listed. `None`: always listed.
    pub max_states: Option<u64>,
}

/// What decides a simulation early (see [`SimOptions::stop_at_verdict`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopAt {
    /// The condition's verdict.
    Condition,
    /// A flag whose name mentions a race.
    Race,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            limits: Limits::default(),
            eval: EvalOptions::fast(),
            max_candidates: 50_000_000,
            keep_witnesses: 0,
            stop_at_verdict: None,
            prune: true,
            settle: true,
            timeout: None,
            max_memory: None,
            max_states: None,
        }
    }
}

/// Why a simulation could not run.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("{0}")]
    Trace(TraceError),
    #[error("model: {}", .0.render())]
    Model(CatError),
}

pub(crate) fn term_value(p: &Program, c: &Candidate, t: &Term) -> i64 {
    match t {
        Term::Reg { thread, reg } => c.reg_value(*thread, reg.index()),
        Term::Mem { loc, index } => {
            let cell = Cell {
                loc: p.storage_of(*loc),
                index: *index,
            };
            c.final_value(cell)
                .unwrap_or_else(|| of_init(p.loc(cell.loc).init))
        }
        Term::Int(i) => *i,
        Term::Addr(l) => addr_of(*l),
    }
}

pub(crate) fn value_text(p: &Program, v: i64) -> String {
    match decode_addr(v, p.locations.len()) {
        Some((l, 0)) => p.loc(l).name.clone(),
        Some((l, i)) => format!("{}+{i}", p.loc(l).name),
        None => v.to_string(),
    }
}

/// [`simulate`] with the default options and its error as text: the simulator in the form
/// the binary lends it to crates that judge outcomes by a model without depending on an
/// engine (`weft_hw::judge::Simulate`).
pub fn simulate_default(p: &Program, model: &Model) -> Result<SimResult, String> {
    simulate(p, model, &SimOptions::default()).map_err(|e| e.to_string())
}

impl SimOptions {
    /// Whether subtrees may be settled without visiting their completions: pruning and
    /// settling on, and nothing that needs each completion (a filter, witnesses, a stop
    /// at the verdict).
    fn can_settle(&self, p: &Program) -> bool {
        self.prune
            && self.settle
            && p.filter.is_none()
            && self.keep_witnesses == 0
            && self.stop_at_verdict.is_none()
    }
}

/// What judging one complete candidate of a skeleton needs.
struct CandidateCtx<'a> {
    p: &'a Program,
    model: &'a Model,
    opts: &'a SimOptions,
    /// The outcome's columns.
    cols: &'a [Term],
    sx: &'a SkeletonExec,
    /// The model's static bindings, one per barrier synchronisation.
    caches: &'a [weft_cat::EvalCache],
    /// Some trace of the skeleton ends at a failed assertion.
    assert_failed: bool,
}

impl CandidateCtx<'_> {
    /// Whether the model's monotone checks already fail on partial candidate `c` for
    /// every barrier synchronisation.
    fn refutes(&self, c: &Candidate) -> Result<bool, CatError> {
        let CandidateCtx {
            model,
            opts,
            sx,
            caches,
            ..
        } = *self;
        for (choice, cache) in caches.iter().enumerate().take(sx.choices()) {
            let x = sx.candidate(c, choice);
            let ev = if model.has_bounded_checks() {
                // na-visible-like checks: judged against an upper bound of `c`.
                let up = sx.upper_candidate(c, choice);
                model.evaluate_partial(&x, &up, &opts.eval, cache)
            } else {
                model.evaluate_cached(&x, &opts.eval, cache)
            };
            if !ev?.refutes_partial() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The verdict of the subtree below partial candidate `c` once the reads `reads` are
    /// split off the skeleton `sk`, when the first barrier synchronisation allows every
    /// completion with one verdict (`weft_cat::Model::settle`).
    fn settle(
        &self,
        sk: &Skeleton,
        c: &Candidate,
        reads: &[usize],
    ) -> Result<Option<weft_cat::Evaluation>, CatError> {
        let CandidateCtx {
            p,
            model,
            opts,
            sx,
            caches,
            ..
        } = *self;
        let Some((ssk, extra)) = sk.split(reads) else {
            return Ok(None);
        };
        let ssx = SkeletonExec::new(p, &ssk);
        if ssx.choices() != sx.choices() {
            return Ok(None);
        }
        let mut sc = Candidate {
            skeleton: &ssk,
            rf: c.rf.clone(),
            co: c.co.clone(),
            final_writes: c.final_writes.clone(),
        };
        sc.rf.extend(extra);
        // The first barrier synchronisation: when it allows every completion, it is
        // the one a visit would have taken for each.
        let x = sx.candidate(c, 0);
        let up = sx.upper_candidate(c, 0);
        let split = ssx.candidate(&sc, 0);
        model.settle(&x, &up, &split, &opts.eval, &caches[0])
    }

    /// Counts candidate `c` in `r` (filter, consistency under some barrier
    /// synchronisation, flags, condition, witnesses, state); `Ok(false)` stops the search.
    fn visit(&self, c: &Candidate, r: &mut SimResult) -> Result<bool, CatError> {
        let CandidateCtx {
            p,
            model,
            opts,
            cols,
            sx,
            caches,
            assert_failed,
        } = *self;
        r.candidates += 1;
        if r.candidates - r.settled_candidates > opts.max_candidates {
            r.truncated = true;
            return Ok(false);
        }
        let mut value = |t: &Term| term_value(p, c, t);
        if let Some(f) = &p.filter {
            if !f.eval(&mut value) {
                r.filtered += 1;
                return Ok(true);
            }
        }
        // Consistent when some barrier synchronisation makes it so.
        let mut found = None;
        for (choice, cache) in caches.iter().enumerate() {
            let x = sx.candidate(c, choice);
            match model.evaluate_cached(&x, &opts.eval, cache) {
                Ok(ev) if ev.allowed() => {
                    found = Some(ev);
                    break;
                }
                Ok(_) => {}
                Err(e) => return Err(e),
            }
        }
        let Some(ev) = found else {
            return Ok(true);
        };
        r.consistent += 1;
        if assert_failed {
            r.assert_failed += 1;
        }
        if ev.undefined() {
            r.undefined += 1;
            for u in ev.undefined_by() {
                *r.undefined_by.entry(u).or_default() += 1;
            }
        }
        for f in ev.flags() {
            *r.flags.entry(f).or_default() += 1;
        }
        let sat = p
            .condition
            .as_ref()
            .map(|cd| cd.prop.eval(&mut value))
            .unwrap_or(false);
        if sat {
            r.positive += 1;
        } else {
            r.negative += 1;
        }
        let witness = match p.condition.as_ref().map(|c| c.quantifier) {
            Some(Quantifier::Forall) => !sat,
            Some(_) => sat,
            None => true,
        };
        if witness && r.witnesses.len() < opts.keep_witnesses {
            r.witnesses.push(dot(p, c, r.witnesses.len()));
        }
        let vals: Vec<String> = cols
            .iter()
            .map(|t| value_text(p, term_value(p, c, t)))
            .collect();
        let st = r.states.entry(vals).or_default();
        st.executions += 1;
        st.satisfies = sat;
        let decided = match opts.stop_at_verdict {
            None => false,
            Some(StopAt::Race) => r.racy(),
            Some(StopAt::Condition) => match p.condition.as_ref().map(|c| c.quantifier) {
                Some(Quantifier::Exists | Quantifier::NotExists) => r.positive > 0,
                Some(Quantifier::Forall) => r.negative > 0,
                None => false,
            },
        };
        if decided {
            r.stopped_at_verdict = true;
            return Ok(false);
        }
        Ok(true)
    }
}

/// Simulates `p` under `model`.
pub fn simulate(p: &Program, model: &Model, opts: &SimOptions) -> Result<SimResult, SimError> {
    let start = Instant::now();
    let tt = thread_traces(p, opts.limits).map_err(SimError::Trace)?;
    let cols = columns(p);
    let mut r = SimResult {
        name: p.name.clone(),
        columns: cols.iter().map(|t| term_text(p, t)).collect(),
        condition: p.condition.clone(),
        cut_traces: tt.cut.iter().sum(),
        fault_traces: tt.faults.iter().map(|f| f.0).sum(),
        fault_message: tt.faults.iter().find_map(|f| f.1.clone()),
        converged: tt.converged,
        ..SimResult::default()
    };
    let mut error = None;
    let budget = crate::memory::Budget::new(opts.timeout.map(|d| start + d), opts.max_memory);
    let late = || budget.exceeded();
    let mut timed_out = false;
    // Settled subtrees (every completion allowed with one verdict, see
    // `weft_cat::Model::settle`) record their states here, by value, without visiting
    // each completion; merged into `r.states` at the end.
    let can_settle = opts.can_settle(p);
    let mut products: HashMap<Product, u64> = HashMap::default();
    for_each_skeleton(p, &tt, &mut |sk| {
        if timed_out || late() {
            timed_out = true;
            return false;
        }
        let sx = SkeletonExec::new(p, sk);
        if sx.choices() == 0 {
            r.hung_skeletons += 1;
            if r.hang_message.is_none() {
                r.hang_message = sx.hang().map(str::to_string);
            }
            return true;
        }
        let assert_failed = sk
            .traces
            .iter()
            .any(|t| matches!(t.end, crate::traces::End::AssertFailed(_)));
        // The model's static bindings are computed once per barrier synchronisation of
        // this skeleton and shared by all of its (partial) candidates.
        let caches: Vec<weft_cat::EvalCache> = (0..sx.choices())
            .map(|_| weft_cat::EvalCache::new())
            .collect();
        let cx = CandidateCtx {
            p,
            model,
            opts,
            cols: &cols,
            sx: &sx,
            caches: &caches,
            assert_failed,
        };
        let mut visited = 0;
        let mut refuted = 0;
        let mut refute_error = None;
        let mut judged = 0u64;
        // A partial candidate is hopeless when, for every barrier synchronisation, the
        // model's monotone checks already fail on it.
        let mut refute = |c: &Candidate| -> bool {
            // Past the deadline every partial candidate is given up, ending the search.
            if late() {
                return true;
            }
            judged += 1;
            opts.prune
                && match cx.refutes(c) {
                    Ok(refuted) => refuted,
                    Err(e) => {
                        refute_error = Some(e);
                        false
                    }
                }
        };
        let rr = std::cell::RefCell::new(&mut r);
        let mut settle_error = None;
        let mut settle = |c: &Candidate, reads: &[usize]| -> Option<bool> {
            if !can_settle || late() {
                return None;
            }
            let ev = match cx.settle(sk, c, reads) {
                Ok(Some(ev)) => ev,
                Ok(None) => return None,
                Err(e) => {
                    settle_error = Some(e);
                    return None;
                }
            };
            let mut rg = rr.borrow_mut();
            Some(record_settled(
                p,
                &cols,
                c,
                reads,
                &ev,
                assert_failed,
                &mut rg,
                &mut products,
            ))
        };
        let go_on = search_candidates_settled(
            sk,
            &mut visited,
            &mut refuted,
            &mut refute,
            Some(&mut settle),
            &mut |c| {
                if late() {
                    return false;
                }
                let mut rg = rr.borrow_mut();
                match cx.visit(c, &mut rg) {
                    Ok(go_on) => go_on,
                    Err(e) => {
                        error = Some(e);
                        false
                    }
                }
            },
        );
        if let Some(e) = settle_error {
            error = Some(e);
        }
        r.pruned += refuted;
        r.judged += judged;
        if error.is_none() {
            error = refute_error;
        }
        if late() {
            timed_out = true;
        }
        go_on && error.is_none() && !timed_out
    });
    // Sorted, so that the product form (and the expansion's order) does not depend on
    // the hash map's.
    let mut products: Vec<(Product, u64)> = products.into_iter().collect();
    products.sort_unstable();
    let kept = match opts.max_states {
        Some(bound) if !products.is_empty() && !timed_out => {
            keep_symbolic(p, &cols, &products, &mut r, bound, &|| budget.exceeded())
        }
        _ => false,
    };
    // The expansion holds the states themselves: it stops at the memory ceiling (and
    // at the deadline), leaving a partial result marked as such.
    if !kept && expand_products(p, &cols, products, &mut r, &|| budget.exceeded()) {
        timed_out = true;
    }
    r.memory_limited = budget.memory_exceeded();
    r.timed_out = timed_out && !r.memory_limited;
    if let Some(e) = error {
        return Err(SimError::Model(e));
    }
    r.validated = validated(p, &r);
    r.seconds = start.elapsed().as_secs_f64();
    Ok(r)
}

/// Whether the condition's verdict holds on the counted executions (`exists`: some
/// satisfies it; `~exists`: none; `forall`: all).
fn validated(p: &Program, r: &SimResult) -> bool {
    match p.condition.as_ref().map(|c| c.quantifier) {
        Some(Quantifier::Exists) => r.positive > 0,
        Some(Quantifier::NotExists) => r.positive == 0,
        Some(Quantifier::Forall) => r.negative == 0,
        None => true,
    }
}

type HashMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<rustc_hash::FxHasher>>;

/// Accounts for every completion of a settled partial candidate `c` (its remaining steps
/// are `reads`) as an allowed execution with `ev`'s flags; the states are kept as a
/// [`Product`] in `products`. Always true (the walk goes on): the completions are
/// counted, not visited, so `max_candidates` does not bound them.
#[allow(clippy::too_many_arguments)]
fn record_settled(
    p: &Program,
    cols: &[Term],
    c: &Candidate,
    reads: &[usize],
    ev: &weft_cat::Evaluation,
    assert_failed: bool,
    r: &mut SimResult,
    products: &mut HashMap<Product, u64>,
) -> bool {
    let prod = Product::of(p, cols, c, reads);
    let total = prod.total();
    *products.entry(prod).or_default() += 1;
    r.settled += 1;
    r.candidates = r.candidates.saturating_add(total);
    r.settled_candidates = r.settled_candidates.saturating_add(total);
    r.consistent = r.consistent.saturating_add(total);
    if assert_failed {
        r.assert_failed = r.assert_failed.saturating_add(total);
    }
    if ev.undefined() {
        r.undefined = r.undefined.saturating_add(total);
        for u in ev.undefined_by() {
            let n = r.undefined_by.entry(u).or_default();
            *n = n.saturating_add(total);
        }
    }
    for f in ev.flags() {
        let n = r.flags.entry(f).or_default();
        *n = n.saturating_add(total);
    }
    true
}

/// Adds the states of the settled products (each counted `count` times) to `r`, with
/// their Positive/Negative counts; true when `late` stopped it (the states are then
/// partial).
fn expand_products(
    p: &Program,
    cols: &[Term],
    products: Vec<(Product, u64)>,
    r: &mut SimResult,
    late: &dyn Fn() -> bool,
) -> bool {
    let col_index: HashMap<&Term, usize> = cols.iter().enumerate().map(|(i, t)| (t, i)).collect();
    let mut states: HashMap<Vec<i64>, StateInfo> = HashMap::default();
    let mut cut = false;
    let mut steps = 0u32;
    for (prod, count) in products {
        if cut {
            break;
        }
        prod.for_each(&mut |vals, m| {
            steps = steps.wrapping_add(1);
            if cut || (steps.is_multiple_of(1024) && late()) {
                cut = true;
                return;
            }
            let m = m.saturating_mul(count);
            let st = match states.get_mut(vals) {
                Some(st) => st,
                None => {
                    let mut value = |t: &Term| match col_index.get(t) {
                        Some(&ci) => vals[ci],
                        None => match t {
                            Term::Int(i) => *i,
                            Term::Addr(l) => addr_of(*l),
                            _ => 0, // every observed term is a column
                        },
                    };
                    let satisfies = p
                        .condition
                        .as_ref()
                        .map(|cd| cd.prop.eval(&mut value))
                        .unwrap_or(false);
                    states.entry(vals.to_vec()).or_insert(StateInfo {
                        executions: 0,
                        satisfies,
                    })
                }
            };
            st.executions += m;
            if st.satisfies {
                r.positive += m;
            } else {
                r.negative += m;
            }
        });
    }
    // Sorted by the values' texts (each value ranked by its text) before the texts are
    // built, so that the map below is built from sorted input.
    let mut texts: Vec<(String, i64)> = {
        let mut seen: HashMap<i64, ()> = HashMap::default();
        for vals in states.keys() {
            for &v in vals {
                seen.insert(v, ());
            }
        }
        seen.into_keys().map(|v| (value_text(p, v), v)).collect()
    };
    texts.sort();
    let rank: HashMap<i64, usize> = texts.iter().enumerate().map(|(i, t)| (t.1, i)).collect();
    let mut sorted: Vec<(Vec<usize>, StateInfo)> = states
        .into_iter()
        .map(|(vals, info)| (vals.iter().map(|v| rank[v]).collect(), info))
        .collect();
    sorted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let settled: Vec<(Vec<String>, StateInfo)> = sorted
        .into_iter()
        .map(|(ranks, info)| (ranks.iter().map(|&i| texts[i].0.clone()).collect(), info))
        .collect();
    if r.states.is_empty() {
        r.states = settled.into_iter().collect(); // sorted once, built in bulk
    } else {
        for (key, info) in settled {
            let st = r.states.entry(key).or_default();
            st.executions += info.executions;
            st.satisfies = info.satisfies;
        }
    }
    cut
}

/// A candidate execution as a Graphviz digraph: one cluster per thread, `po` (immediate),
/// `rf`, `co` (immediate) and `fr` edges.
pub fn dot(p: &Program, c: &Candidate, index: usize) -> String {
    let ev = c.events();
    let label = |i: usize| {
        let e = &ev[i];
        let what = match &e.kind {
            EventKind::Read => "R",
            EventKind::Write => "W",
            EventKind::Fence { .. } => "F",
            EventKind::Barrier { .. } => "B",
        };
        let loc = e
            .cell
            .map(|cl| {
                let l = p.loc(cl.loc);
                if l.size > 1 {
                    format!("{}[{}]", l.name, cl.index)
                } else {
                    l.name.clone()
                }
            })
            .unwrap_or_default();
        let ord = if e.attrs.order.is_atomic() {
            format!(".{}", e.attrs.order.name())
        } else {
            String::new()
        };
        let scope = e
            .attrs
            .scope
            .map(|s| format!(".{}", s.name()))
            .unwrap_or_default();
        if e.cell.is_some() {
            format!(
                "e{i}: {what}{ord}{scope} {loc}={}",
                value_text(p, c.value_of(i))
            )
        } else {
            format!("e{i}: {what}{ord}{scope}")
        }
    };
    let mut s = format!(
        "digraph \"{}-{index}\" {{\n  rankdir=TB;\n",
        p.name.replace('"', "'")
    );
    s += "  subgraph cluster_init { label=\"init\";\n";
    for (i, e) in ev.iter().enumerate() {
        if e.is_init() {
            s += &format!("    n{i} [label=\"{}\" shape=box];\n", label(i));
        }
    }
    s += "  }\n";
    for (t, th) in p.threads.iter().enumerate() {
        s += &format!("  subgraph cluster_{t} {{ label=\"{}\";\n", th.name);
        for (i, e) in ev.iter().enumerate() {
            if e.thread == Some(t) {
                s += &format!("    n{i} [label=\"{}\" shape=box];\n", label(i));
            }
        }
        s += "  }\n";
    }
    for (i, e) in ev.iter().enumerate() {
        if let Some(t) = e.thread {
            if let Some(j) = (i + 1..ev.len()).find(|&j| ev[j].thread == Some(t)) {
                s += &format!("  n{i} -> n{j} [label=\"po\"];\n");
            }
        }
    }
    for &(w, r) in &c.rf {
        s += &format!("  n{w} -> n{r} [label=\"rf\" color=red];\n");
    }
    let co_imm: Vec<(usize, usize)> =
        c.co.iter()
            .copied()
            .filter(|&(a, b)| !c.co.iter().any(|&(x, y)| x == a && c.co.contains(&(y, b))))
            .collect();
    for &(a, b) in &co_imm {
        s += &format!("  n{a} -> n{b} [label=\"co\" color=blue];\n");
    }
    for &(w, r) in &c.rf {
        for &(a, b) in &co_imm {
            if a == w {
                s += &format!("  n{r} -> n{b} [label=\"fr\" color=orange];\n");
            }
        }
    }
    s += "}\n";
    s
}
