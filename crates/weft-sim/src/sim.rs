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

use std::collections::BTreeMap;
use std::time::Instant;

use weft_cat::{CatError, EvalOptions, Model};
use weft_ir::{Condition, Program, Prop, Quantifier, Term};

use crate::candidates::{for_each_skeleton, search_candidates_settled, Candidate};
use crate::exec::SkeletonExec;
use crate::product::{keep_symbolic, Product, StateTerm};
use crate::traces::{thread_traces, Cell, EventKind, Limits, TraceError};
use crate::value::{addr_of, decode_addr, of_init};

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

/// What is known about one reachable final state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateInfo {
    /// Allowed executions ending in this state.
    pub executions: u64,
    /// Whether the state satisfies the condition's proposition.
    pub satisfies: bool,
}

/// The outcome of simulating one program under one model.
#[derive(Clone, Debug, Default)]
pub struct SimResult {
    pub name: String,
    /// The observed terms, in display order (`0:r0`, `x`).
    pub columns: Vec<String>,
    /// Reachable final states (values in column order) of allowed executions, listed
    /// one by one (those of [`SimResult::terms`] excepted).
    pub states: BTreeMap<Vec<String>, StateInfo>,
    /// The other reachable final states, in product form (see
    /// [`SimOptions::max_states`]): pairwise disjoint and disjoint from `states`.
    pub terms: Vec<StateTerm>,
    pub condition: Option<Condition>,
    /// Allowed executions satisfying / not satisfying the proposition.
    pub positive: u64,
    pub negative: u64,
    /// Whether the condition is validated (herd's `Ok`); true when there is none.
    pub validated: bool,
    /// Allowed executions raising each flag.
    pub flags: BTreeMap<String, u64>,
    /// Candidate executions visited, discarded by the filter, allowed by the model.
    pub candidates: u64,
    /// Partial candidates refuted by the model's monotone checks (each stands for all of
    /// its completions, which are never built).
    pub pruned: u64,
    /// Partial candidates judged by the model's monotone checks (refuted or not).
    pub judged: u64,
    pub filtered: u64,
    pub consistent: u64,
    /// Partial candidates whose completions were all judged at once (each stands for
    /// every completion, counted in `candidates` and `consistent`; see
    /// `weft_cat::Model::settle`).
    pub settled: u64,
    /// Of `candidates`, the completions of settled subtrees (counted, never visited).
    pub settled_candidates: u64,
    /// Allowed executions some `undefined_unless` check marks undefined.
    pub undefined: u64,
    /// Allowed executions per failing `undefined_unless` check (by its label).
    pub undefined_by: BTreeMap<String, u64>,
    /// Allowed executions in which an `assert` failed.
    pub assert_failed: u64,
    /// Thread traces cut by the unroll bound, and faulting traces (per thread, summed).
    pub cut_traces: usize,
    pub fault_traces: usize,
    pub fault_message: Option<String>,
    /// Trace combinations whose threads hang at their barriers (deadlock, or a quorum
    /// that cannot be met): they have no final state. The first reason found.
    pub hung_skeletons: u64,
    pub hang_message: Option<String>,
    /// Whether the value domains converged (else the executions are incomplete).
    pub converged: bool,
    /// Whether enumeration stopped at `max_candidates`.
    pub truncated: bool,
    /// Whether enumeration stopped once the verdict was known (the states are partial).
    pub stopped_at_verdict: bool,
    /// Whether enumeration stopped at [`SimOptions::timeout`] (the states are partial).
    pub timed_out: bool,
    /// Whether enumeration stopped at [`SimOptions::max_memory`] (the states are partial).
    pub memory_limited: bool,
    /// DOT graphs of witness executions (see [`SimOptions::keep_witnesses`]).
    pub witnesses: Vec<String>,
    pub seconds: f64,
}

impl SimResult {
    /// The number of distinct reachable final states: those listed plus those of the
    /// terms.
    pub fn state_count(&self) -> u128 {
        self.terms.iter().fold(self.states.len() as u128, |acc, t| {
            acc.saturating_add(t.states())
        })
    }

    /// herd's word for the test: `Allowed` (exists), `Forbidden` (~exists), `Required`.
    pub fn kind(&self) -> &'static str {
        match self.condition.as_ref().map(|c| c.quantifier) {
            Some(Quantifier::NotExists) => "Forbidden",
            Some(Quantifier::Forall) => "Required",
            _ => "Allowed",
        }
    }

    /// herd's observation: `Always`, `Sometimes` or `Never` the proposition holds.
    pub fn observation(&self) -> &'static str {
        if self.positive == 0 {
            "Never"
        } else if self.negative == 0 {
            "Always"
        } else {
            "Sometimes"
        }
    }

    /// Whether a flag whose name mentions "race" was raised, or an `undefined_unless` so
    /// named failed (herd's rc11.cat makes racy programs undefined rather than flagging them).
    pub fn racy(&self) -> bool {
        self.flags
            .keys()
            .chain(self.undefined_by.keys())
            .any(|f| f.to_ascii_lowercase().contains("race"))
    }

    /// The result in herd7's layout.
    pub fn herd_text(&self, p: &Program) -> String {
        let mut buf = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.herd_write(p, &mut buf);
        String::from_utf8(buf).unwrap_or_default()
    }

    /// Writes the result in herd7's layout to `w`, one state line at a time, so printing
    /// millions of states needs no copy of the whole text in memory.
    pub fn herd_write(&self, p: &Program, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        writeln!(w, "Test {} {}", self.name, self.kind())?;
        write!(w, "States {}", self.state_count())?;
        // A line ends when the next one starts: a state without any column adds no line of
        // its own (herd7 prints none), so its newline is never written.
        let mut line = String::new();
        for vals in self.states.keys() {
            line.clear();
            for (c, v) in self.columns.iter().zip(vals) {
                if !line.is_empty() {
                    line.push(' ');
                }
                line += &format!("{c}={v};");
            }
            if !line.is_empty() {
                write!(w, "\n{line}")?;
            }
        }
        writeln!(w)?;
        // States in product form (docs/formats.md), after the listed ones.
        for t in &self.terms {
            let line = t.line(&self.columns);
            // No column: no line, as for a listed state.
            if !line.is_empty() {
                writeln!(w, "{line}")?;
            }
        }
        // herd7: when an allowed execution is undefined (`undefined_unless`), the verdict
        // line reads `Undef` and a `Flag *undef*` line follows the witnesses.
        let verdict = if self.undefined > 0 {
            "Undef"
        } else if self.validated {
            "Ok"
        } else {
            "No"
        };
        writeln!(w, "{verdict}")?;
        writeln!(w, "Witnesses")?;
        // herd7 judges `~exists P` as `forall ~P`: its witnesses count the executions
        // satisfying `~P` as positive (the Observation line still counts `P`).
        let (pos, neg) = match self.condition.as_ref().map(|c| c.quantifier) {
            Some(Quantifier::NotExists) => (self.negative, self.positive),
            _ => (self.positive, self.negative),
        };
        writeln!(w, "Positive: {pos} Negative: {neg}")?;
        if self.undefined > 0 {
            writeln!(w, "Flag *undef*")?;
        }
        for f in self.flags.keys() {
            writeln!(w, "Flag {f}")?;
        }
        if let Some(c) = &self.condition {
            writeln!(w, "Condition {}", condition_text(p, c))?;
        }
        writeln!(
            w,
            "Observation {} {} {} {}",
            self.name,
            self.observation(),
            self.positive,
            self.negative
        )?;
        writeln!(w, "Time {} {:.2}", self.name, self.seconds)
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

/// herd7's spelling of a term: `0:r0`, `x`, `x[1]`, and `[x]` for the locations of C tests.
pub fn term_text(p: &Program, t: &Term) -> String {
    match t {
        Term::Reg { thread, reg } => {
            let name = p
                .threads
                .get(*thread)
                .map(|th| th.reg_name(*reg).to_string())
                .unwrap_or_else(|| "?".into());
            format!("{thread}:{name}")
        }
        Term::Mem { loc, index } => {
            let name = &p.loc(*loc).name;
            let text = if p.loc(*loc).size > 1 {
                format!("{name}[{index}]")
            } else {
                name.clone()
            };
            // herd7 prints the locations of C tests as the pointers they are: `[x]=1;`.
            if p.arch == weft_ir::Arch::C {
                format!("[{text}]")
            } else {
                text
            }
        }
        Term::Int(i) => i.to_string(),
        Term::Addr(l) => p.loc(*l).name.clone(),
    }
}

/// herd7's spelling of a proposition: chains of `/\` (or of `\/`) print flat, whatever
/// their nesting, a sub-proposition is parenthesised only where precedence needs it, and
/// negations (`!=` included) print as `not (...)`.
fn prop_text(p: &Program, prop: &Prop, top: bool) -> String {
    // Precedence: `\/` 0, `/\` 1, `~` and atoms 2.
    fn prec(prop: &Prop) -> u8 {
        match prop {
            Prop::Or(..) => 0,
            Prop::And(..) => 1,
            _ => 2,
        }
    }
    fn go(p: &Program, prop: &Prop, out: &mut String) {
        let child = |q: &Prop, parent: u8, out: &mut String| {
            if prec(q) < parent {
                out.push('(');
                go(p, q, out);
                out.push(')');
            } else {
                go(p, q, out);
            }
        };
        match prop {
            Prop::True => out.push_str("true"),
            Prop::False => out.push_str("false"),
            // herd7 reads `a!=b` as the negation of `a=b`, and prints it that way.
            Prop::Cmp(a, weft_ir::CmpOp::Ne, b) => {
                out.push_str(&format!("not ({}={})", term_text(p, a), term_text(p, b)));
            }
            Prop::Cmp(a, op, b) => {
                let o = match op {
                    weft_ir::CmpOp::Eq => "=",
                    other => other.symbol(),
                };
                out.push_str(&format!("{}{o}{}", term_text(p, a), term_text(p, b)));
            }
            // herd7 prints every negation as `not (...)`.
            Prop::Not(a) => {
                out.push_str("not (");
                go(p, a, out);
                out.push(')');
            }
            Prop::And(a, b) => {
                child(a, 1, out);
                out.push_str(" /\\ ");
                child(b, 1, out);
            }
            Prop::Or(a, b) => {
                child(a, 0, out);
                out.push_str(" \\/ ");
                child(b, 0, out);
            }
        }
    }
    let mut s = String::new();
    go(p, prop, &mut s);
    if top || prec(prop) == 2 {
        s
    } else {
        format!("({s})")
    }
}

/// herd's spelling of a condition: `exists (0:r0=0 /\ 1:r0=0)`.
pub fn condition_text(p: &Program, c: &Condition) -> String {
    format!(
        "{} ({})",
        c.quantifier.keyword(),
        prop_text(p, &c.prop, true)
    )
}

/// The terms a final state shows: registers (by thread, then name) and memory (by name)
/// named in the condition or in `locations [...]`; every register when there is neither.
pub fn columns(p: &Program) -> Vec<Term> {
    let mut terms: Vec<&Term> = Vec::new();
    if let Some(c) = &p.condition {
        c.prop.terms(&mut terms);
    }
    terms.extend(p.observed.iter());
    let mut out: Vec<Term> = Vec::new();
    for t in terms {
        if matches!(t, Term::Reg { .. } | Term::Mem { .. }) && !out.contains(t) {
            out.push(t.clone());
        }
    }
    if out.is_empty() {
        for (ti, th) in p.threads.iter().enumerate() {
            for (ri, r) in th.regs.iter().enumerate() {
                if !r.temp {
                    out.push(Term::Reg {
                        thread: ti,
                        reg: weft_ir::Reg(ri as u32),
                    });
                }
            }
        }
    }
    let key = |t: &Term| match t {
        Term::Reg { thread, .. } => (0, *thread, term_text(p, t)),
        _ => (1, 0, term_text(p, t)),
    };
    out.sort_by_key(key);
    out
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
    let can_settle = opts.prune
        && opts.settle
        && p.filter.is_none()
        && opts.keep_witnesses == 0
        && opts.stop_at_verdict.is_none();
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
                && (0..sx.choices()).all(|choice| {
                    let x = sx.candidate(c, choice);
                    let ev = if model.has_bounded_checks() {
                        // na-visible-like checks: judged against an upper bound of `c`.
                        let up = sx.upper_candidate(c, choice);
                        model.evaluate_partial(&x, &up, &opts.eval, &caches[choice])
                    } else {
                        model.evaluate_cached(&x, &opts.eval, &caches[choice])
                    };
                    match ev {
                        Ok(ev) => ev.refutes_partial(),
                        Err(e) => {
                            refute_error = Some(e);
                            false
                        }
                    }
                })
        };
        let rr = std::cell::RefCell::new(&mut r);
        let mut settle_error = None;
        let mut settle = |c: &Candidate, reads: &[usize]| -> Option<bool> {
            if !can_settle || late() {
                return None;
            }
            let (ssk, extra) = sk.split(reads)?;
            let ssx = SkeletonExec::new(p, &ssk);
            if ssx.choices() != sx.choices() {
                return None;
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
            let ev = match model.settle(&x, &up, &split, &opts.eval, &caches[0]) {
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
                let r: &mut SimResult = &mut rg;
                r.candidates += 1;
                if r.candidates - r.settled_candidates > opts.max_candidates {
                    r.truncated = true;
                    return false;
                }
                let mut value = |t: &Term| term_value(p, c, t);
                if let Some(f) = &p.filter {
                    if !f.eval(&mut value) {
                        r.filtered += 1;
                        return true;
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
                        Err(e) => {
                            error = Some(e);
                            return false;
                        }
                    }
                }
                let Some(ev) = found else {
                    return true;
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
                    return false;
                }
                true
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
    r.validated = match p.condition.as_ref().map(|c| c.quantifier) {
        Some(Quantifier::Exists) => r.positive > 0,
        Some(Quantifier::NotExists) => r.positive == 0,
        Some(Quantifier::Forall) => r.negative == 0,
        None => true,
    };
    r.seconds = start.elapsed().as_secs_f64();
    Ok(r)
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
