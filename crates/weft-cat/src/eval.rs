//! The cat interpreter: runs a parsed [`Model`] on an [`Execution`] and reports every check.
//!
//! Semantics follow the herd manual (§"Expressions", §"Instructions"): call-by-value,
//! static scoping, `let rec` as a least fixpoint (values start empty and are re-evaluated
//! until nothing changes), `with x from e` runs the rest of the model once per element of
//! `e` (one [`Run`] per choice), procedures and `forall` discard their bindings but keep
//! their checks. Unlike herd, a failed check does not stop the run unless
//! [`EvalOptions::stop_at_first_failure`] is set, so every check gets a verdict.
//!
//! Identifiers resolve to, in order: model bindings; the execution's base sets and
//! relations; the derived built-ins computed here (`fr = rf^-1;co`, `po-loc`, `rfe`, ...);
//! the primitive functions (`domain`, `range`, `fencerel`, `linearisations`, ...).

use std::cell::{Cell, RefCell};
use std::collections::{BTreeSet, HashMap};

/// The interpreter's per-evaluation caches are hit for every identifier: a fast,
/// non-cryptographic hash (keys are symbols and names from the model itself).
type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<rustc_hash::FxHasher>>;
use std::fmt;
use std::rc::Rc;

use crate::ast::*;
use crate::error::{CatError, ErrorKind, Location};
use crate::exec::Execution;
use crate::rel::{BitSet, Relation};

/// Knobs of an evaluation.
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// Enabled model variants (`if variant "v"`).
    pub variants: BTreeSet<String>,
    /// Checks whose outcome is ignored, by `as` name (herd's `-skipchecks`).
    pub skip_checks: BTreeSet<String>,
    /// Stop a run at its first failed (non-skipped, non-flag) check, as herd does.
    pub stop_at_first_failure: bool,
    /// Most runs (`with` choices) one evaluation may produce.
    pub max_runs: usize,
    /// Most rounds of a `let rec` fixpoint.
    pub max_fixpoint_iterations: usize,
    /// Most elements `linearisations` or `cross` may build.
    pub max_enumeration: usize,
    /// Deepest nesting of expression evaluation plus function and procedure calls.
    pub max_depth: usize,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            variants: BTreeSet::new(),
            skip_checks: BTreeSet::new(),
            stop_at_first_failure: false,
            max_runs: 100_000,
            max_fixpoint_iterations: 100_000,
            max_enumeration: 100_000,
            max_depth: 500,
        }
    }
}

impl EvalOptions {
    /// Defaults, but stopping each run at its first failed check (for simulators that
    /// only need the verdict).
    pub fn fast() -> Self {
        EvalOptions {
            stop_at_first_failure: true,
            ..Self::default()
        }
    }
}

/// Evidence for a test's outcome: what makes a relation cyclic, reflexive or non-empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Witness {
    /// Events `e0 → e1 → ... → ek → e0` of a cycle.
    Cycle(Vec<usize>),
    /// An event related to itself.
    Reflexive(usize),
    /// A pair of a non-empty relation.
    Pair(usize, usize),
    /// An event of a non-empty set.
    Event(usize),
    /// An element of a non-empty set of values, printed.
    Element(String),
}

/// The outcome of one check in one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// The `as` name.
    pub name: Option<String>,
    /// Check, flag or undefined_unless.
    pub mode: CheckMode,
    /// The test applied.
    pub test: Test,
    /// Whether the test was negated with `~`.
    pub negated: bool,
    /// Whether the (possibly negated) test holds.
    pub holds: bool,
    /// Whether the check was named in [`EvalOptions::skip_checks`].
    pub skipped: bool,
    /// When the un-negated test fails: the cycle, reflexive event or element showing it.
    pub witness: Option<Witness>,
    /// Where the check is in the model.
    pub location: Option<Location>,
    /// Whether the check may judge partial executions (a failure persists in every
    /// completion: see `monotone`).
    pub prunable: bool,
    /// The check's instruction span (file, start): which check of the model this is.
    pub key: (u32, u32),
}

impl CheckResult {
    /// Whether this is a `flag`.
    pub fn is_flag(&self) -> bool {
        self.mode == CheckMode::Flag
    }

    /// A consistency check that fails (and is not skipped): the run is forbidden.
    pub fn forbids(&self) -> bool {
        self.mode == CheckMode::Check && !self.holds && !self.skipped
    }

    /// A flag whose test holds.
    pub fn flag_raised(&self) -> bool {
        self.mode == CheckMode::Flag && self.holds && !self.skipped
    }

    /// An `undefined_unless` whose test fails.
    pub fn makes_undefined(&self) -> bool {
        self.mode == CheckMode::UndefinedUnless && !self.holds && !self.skipped
    }

    /// The name, or `test@line:col` for an unnamed check.
    pub fn label(&self) -> String {
        match (&self.name, &self.location) {
            (Some(n), _) => n.clone(),
            (None, Some(l)) => format!("{}@{}:{}", self.test.text(), l.line, l.col),
            (None, None) => self.test.text().to_string(),
        }
    }
}

/// One choice made by a `with x from e` instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The bound name.
    pub name: String,
    /// Which element was chosen (0-based, in enumeration order).
    pub index: usize,
    /// How many elements there were.
    pub count: usize,
}

/// One complete run of the model: a path through its `with` choices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// The `with` choices of this run, in order.
    pub choices: Vec<Choice>,
    /// Every check met, in order.
    pub checks: Vec<CheckResult>,
    /// Whether the run stopped at a failed check ([`EvalOptions::stop_at_first_failure`]).
    pub stopped_early: bool,
}

impl Run {
    /// No consistency check fails.
    pub fn allowed(&self) -> bool {
        !self.checks.iter().any(CheckResult::forbids)
    }

    /// The failing consistency checks.
    pub fn failed(&self) -> impl Iterator<Item = &CheckResult> {
        self.checks.iter().filter(|c| c.forbids())
    }

    /// The raised flags.
    pub fn flags(&self) -> impl Iterator<Item = &CheckResult> {
        self.checks.iter().filter(|c| c.flag_raised())
    }

    /// Whether an `undefined_unless` fails.
    pub fn undefined(&self) -> bool {
        self.checks.iter().any(CheckResult::makes_undefined)
    }
}

/// The result of evaluating a model on one execution.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// One run per combination of `with` choices (exactly one when the model has no
    /// `with`; none when a `with` enumerates an empty set).
    pub runs: Vec<Run>,
}

impl Evaluation {
    /// The execution is allowed: some run passes every consistency check.
    pub fn allowed(&self) -> bool {
        self.runs.iter().any(Run::allowed)
    }

    /// On a partial candidate (final events, only some `rf`/`co` edges): every run fails
    /// a prunable check, so every completion of the candidate is forbidden too.
    pub fn refutes_partial(&self) -> bool {
        !self.runs.is_empty()
            && self
                .runs
                .iter()
                .all(|r| r.checks.iter().any(|c| c.prunable && c.forbids()))
    }

    /// The first allowed run.
    pub fn first_allowed(&self) -> Option<&Run> {
        self.runs.iter().find(|r| r.allowed())
    }

    /// The run that explains the verdict: the first allowed run, else the first run.
    pub fn explanation(&self) -> Option<&Run> {
        self.first_allowed().or_else(|| self.runs.first())
    }

    /// Names (labels) of the flags raised in some allowed run, sorted and deduplicated.
    pub fn flags(&self) -> Vec<String> {
        let set: BTreeSet<String> = self
            .runs
            .iter()
            .filter(|r| r.allowed())
            .flat_map(|r| r.flags().map(CheckResult::label).collect::<Vec<_>>())
            .collect();
        set.into_iter().collect()
    }

    /// Some allowed run fails an `undefined_unless`.
    pub fn undefined(&self) -> bool {
        self.runs.iter().any(|r| r.allowed() && r.undefined())
    }

    /// Labels of the `undefined_unless` checks failing in some allowed run, sorted and
    /// deduplicated (herd's `undefined_unless empty dr as data-race`).
    pub fn undefined_by(&self) -> Vec<String> {
        let set: BTreeSet<String> = self
            .runs
            .iter()
            .filter(|r| r.allowed())
            .flat_map(|r| {
                r.checks
                    .iter()
                    .filter(|c| c.makes_undefined())
                    .map(CheckResult::label)
                    .collect::<Vec<_>>()
            })
            .collect();
        set.into_iter().collect()
    }
}

impl Model {
    /// Evaluates the model on `exec`.
    pub fn evaluate(
        &self,
        exec: &dyn Execution,
        opts: &EvalOptions,
    ) -> Result<Evaluation, CatError> {
        evaluate(self, exec, opts)
    }

    /// Evaluates the model on `exec`, taking the values of its static bindings from
    /// `cache` (and filling it on first use). Every execution evaluated with one cache
    /// must have the same events and the same base sets and relations except `rf` and
    /// `co` (the candidates of one skeleton, with one barrier synchronisation); the
    /// result is then exactly [`Model::evaluate`]'s.
    pub fn evaluate_cached(
        &self,
        exec: &dyn Execution,
        opts: &EvalOptions,
        cache: &EvalCache,
    ) -> Result<Evaluation, CatError> {
        evaluate_with(self, exec, opts, Some(cache), None, None, None)
    }
}

impl Model {
    /// Whether the model has checks that [`Model::evaluate_partial`] judges with an upper
    /// bound of the candidate (see `monotone::bounded_checks`).
    pub fn has_bounded_checks(&self) -> bool {
        !self.bounded.is_empty()
    }

    /// Evaluates the model on a *partial* candidate `lower` for pruning, given `upper`,
    /// an execution whose `rf` and `co` contain those of every completion of `lower` (same
    /// events and base relations otherwise). The checks of [`Model::has_bounded_checks`]
    /// (`empty E0 \ E1 ...` with monotone operands) are judged as `E0` on `lower` minus
    /// the subtrahends computed on `upper`, and marked prunable: when that is not empty,
    /// the check fails on every completion. Every other check is evaluated on `lower` as
    /// by [`Model::evaluate_cached`] first; only when none of them refutes `lower` are
    /// the bounded ones judged (two more evaluations, in which no other check is judged).
    /// So [`Evaluation::refutes_partial`] of the result may refute `lower`'s completions;
    /// its other verdicts mean nothing.
    pub fn evaluate_partial(
        &self,
        lower: &dyn Execution,
        upper: &dyn Execution,
        opts: &EvalOptions,
        cache: &EvalCache,
    ) -> Result<Evaluation, CatError> {
        let plain = evaluate_with(self, lower, opts, Some(cache), None, None, None)?;
        if self.bounded.is_empty() || plain.refutes_partial() {
            return Ok(plain);
        }
        let bounds = Bounds {
            record: Cell::new(true),
            values: RefCell::new(FastMap::default()),
        };
        // Every bounded check of `upper` is reached: its other checks are not judged.
        evaluate_with(self, upper, opts, Some(cache), Some(&bounds), None, None)?;
        bounds.record.set(false);
        evaluate_with(self, lower, opts, Some(cache), Some(&bounds), None, None)
    }
}

impl Model {
    /// Whether *every* completion of a partial candidate is allowed, with one and the same
    /// flags and `undefined_unless` verdicts: then the result is the evaluation of
    /// `lower`, whose checks give that verdict for all of them. `None` when that cannot
    /// be shown (the caller then enumerates the completions one by one).
    ///
    /// `lower` is the partial candidate, `upper` an execution whose `rf` and `co` contain
    /// those of every completion (same events), and `split` the *split* upper bound: the
    /// same execution with every read still to choose duplicated, one copy per write it
    /// may read from, each copy reading from its own (`weft_sim::candidates`). Two
    /// arguments, both sound for a model whose checks are all reached in one run:
    /// - *Sandwich*: a binding monotone in `rf`/`co` with the same value on `lower` and
    ///   `upper` has that value on every completion; a check that reads `rf`/`co` only
    ///   through such bindings has `lower`'s verdict on every completion
    ///   ([`crate::monotone::determined_checks`]).
    /// - *Split upper bound*: every completion maps into `split` injectively (each read to
    ///   the copy of its write), static relations and tags are kept, and monotone
    ///   expressions map into their value on `split`; so a prunable consistency check
    ///   (`acyclic`, `irreflexive`, `empty` of a monotone expression) that holds on
    ///   `split` holds on every completion. Unlike the plain union of the choices, no
    ///   cycle `w -rf-> r -fr-> w` mixes two choices of one read.
    /// - *Interval bounds*: a check monotone in `rf`, `co` and the interval bindings
    ///   (`race = conflict \ (hb | hb^-1)`, [`crate::monotone::interval_bindings`]) is
    ///   evaluated once with lower bounds (on `lower`, each interval binding's subtrahend
    ///   taken from `upper`) and once with upper bounds (the reverse); a test that holds
    ///   on the upper bounds holds on every completion, one that fails on the lower
    ///   bounds fails on every completion (how `flag ~empty data-race` is decided).
    ///
    /// Every check must be covered by one of these (and consistency checks must pass),
    /// each evaluation must have exactly one run, and `lower` must be allowed; the flags
    /// of the result are then those of every completion.
    pub fn settle(
        &self,
        lower: &dyn Execution,
        upper: &dyn Execution,
        split: &dyn Execution,
        opts: &EvalOptions,
        cache: &EvalCache,
    ) -> Result<Option<Evaluation>, CatError> {
        let (rl, ru) = (Recorder::default(), Recorder::default());
        let (il, iu) = (Interval::default(), Interval::default());
        let mut ev = evaluate_with(self, lower, opts, Some(cache), None, Some(&rl), Some(&il))?;
        if ev.runs.len() != 1 || !ev.runs[0].allowed() || ev.runs[0].stopped_early {
            return Ok(None);
        }
        let up = evaluate_with(self, upper, opts, Some(cache), None, Some(&ru), Some(&iu))?;
        if up.runs.len() != 1 {
            return Ok(None);
        }
        let ranks = crate::monotone::settle_ranks(self, &|k| {
            !self.interval.contains(&k) && rl.same(&ru, k)
        });
        let (mut split_keys, mut bounded) = (Vec::new(), Vec::new());
        for (i, c) in ev.runs[0].checks.iter().enumerate() {
            let rank = ranks.get(&c.key).copied().unwrap_or(2);
            if rank == 0 || c.skipped {
                continue; // lower's verdict holds on every completion
            }
            if c.mode == CheckMode::Check && c.prunable && !c.negated {
                split_keys.push(c.key);
            } else if rank == 1 {
                bounded.push(i);
            } else {
                return Ok(None);
            }
        }
        if !bounded.is_empty() {
            // Lower bounds: the partial candidate with the upper bound's subtrahends;
            // upper bounds: the reverse. A test (`acyclic`, `irreflexive`, `empty`, not
            // negated) that holds on the upper bound holds on every completion; one that
            // fails on the lower bound fails on every completion.
            let lo_iv = Interval {
                apply: true,
                subs: iu.subs,
                ..Interval::default()
            };
            let hi_iv = Interval {
                apply: true,
                subs: il.subs,
                ..Interval::default()
            };
            let lo = evaluate_with(self, lower, opts, Some(cache), None, None, Some(&lo_iv))?;
            let hi = evaluate_with(self, upper, opts, Some(cache), None, None, Some(&hi_iv))?;
            if lo_iv.missing.get()
                || hi_iv.missing.get()
                || lo.runs.len() != 1
                || hi.runs.len() != 1
            {
                return Ok(None);
            }
            let test = |run: &Run, key: (u32, u32)| {
                run.checks
                    .iter()
                    .find(|c| c.key == key)
                    .map(|c| c.holds != c.negated)
            };
            for i in bounded {
                let c = &mut ev.runs[0].checks[i];
                let (Some(t_lo), Some(t_hi)) = (test(&lo.runs[0], c.key), test(&hi.runs[0], c.key))
                else {
                    return Ok(None);
                };
                let t = if t_hi {
                    true
                } else if !t_lo {
                    false
                } else {
                    return Ok(None); // not the same on every completion, as far as known
                };
                c.holds = t != c.negated;
                if t {
                    c.witness = None;
                }
                if c.mode == CheckMode::Check && !c.holds {
                    return Ok(None);
                }
            }
        }
        if split_keys.is_empty() {
            return Ok(Some(ev));
        }
        let sp = evaluate_with(self, split, opts, None, None, None, None)?;
        if sp.runs.len() != 1 {
            return Ok(None);
        }
        let checks = &sp.runs[0].checks;
        let ok = split_keys
            .iter()
            .all(|k| checks.iter().any(|c| c.key == *k && (c.holds || c.skipped)));
        Ok(ok.then_some(ev))
    }
}

/// The values of the non-static bindings met in one evaluation (see [`Model::settle`]),
/// by binding span; a binding met twice (in a procedure, or once per `with` run) or
/// whose value is not a set or relation is kept as unknown (`None`).
#[derive(Default)]
struct Recorder {
    values: RefCell<FastMap<(u32, u32), Option<Cached>>>,
}

impl Recorder {
    fn note(&self, key: (u32, u32), v: &Value<'_>) {
        let c = Cached::of(v);
        let mut m = self.values.borrow_mut();
        let c = if m.contains_key(&key) { None } else { c };
        m.insert(key, c);
    }

    /// Whether the binding at `key` had one and the same value in both evaluations.
    fn same(&self, other: &Recorder, key: (u32, u32)) -> bool {
        let (a, b) = (self.values.borrow(), other.values.borrow());
        match (a.get(&key), b.get(&key)) {
            (Some(Some(x)), Some(Some(y))) => match (x, y) {
                (Cached::Empty, Cached::Empty) => true,
                (Cached::Set(x), Cached::Set(y)) => x == y,
                (Cached::Rel(x), Cached::Rel(y)) => x == y,
                (Cached::Empty, Cached::Set(s)) | (Cached::Set(s), Cached::Empty) => s.is_empty(),
                (Cached::Empty, Cached::Rel(r)) | (Cached::Rel(r), Cached::Empty) => r.is_empty(),
                _ => false,
            },
            _ => false,
        }
    }
}

/// The subtrahends of the bounded checks computed on an upper bound of a partial
/// candidate (recorded by one evaluation, applied by the next: see
/// [`Model::evaluate_partial`]).
struct Bounds {
    /// Recording (on the upper bound) or applying (on the partial candidate).
    record: Cell<bool>,
    values: RefCell<FastMap<(u32, u32), Vec<Cached>>>,
}

/// Values of a model's static top-level bindings ([`Model::static_bindings`]: they read
/// nothing of `rf` and `co`) for one family of executions that differ only in `rf` and
/// `co`, computed on the first evaluation and reused by the next ones. Only event sets
/// and relations are kept (functions and tags are cheap to rebuild).
#[derive(Default)]
pub struct EvalCache {
    values: RefCell<FastMap<(u32, u32), Cached>>,
}

#[derive(Clone)]
enum Cached {
    Empty,
    Set(Rc<BitSet>),
    Rel(Rc<Relation>),
}

impl Cached {
    fn of(v: &Value<'_>) -> Option<Cached> {
        match v {
            Value::Empty => Some(Cached::Empty),
            Value::Set(s) => Some(Cached::Set(s.clone())),
            Value::Rel(r) => Some(Cached::Rel(r.clone())),
            _ => None,
        }
    }

    fn value<'a>(&self) -> Value<'a> {
        match self {
            Cached::Empty => Value::Empty,
            Cached::Set(s) => Value::Set(s.clone()),
            Cached::Rel(r) => Value::Rel(r.clone()),
        }
    }
}

/// The interval bindings of a model (`monotone::interval_bindings`, `E0 \ E1 ...`) in
/// one evaluation of [`Model::settle`]: either evaluated as usual with their subtrahends
/// written down (`apply` false), or computed as the minuend minus the subtrahends that
/// the evaluation of the *opposite* bound wrote down (on the partial candidate with the
/// upper bound's subtrahends: a lower bound on every completion; on the upper bound with
/// the partial candidate's: an upper bound).
/// Per interval binding: its subtrahends' values (`None`: unknown).
type Subtrahends = FastMap<(u32, u32), Option<Vec<Cached>>>;

#[derive(Default)]
struct Interval {
    apply: bool,
    subs: RefCell<Subtrahends>,
    /// Applying: some interval binding had no subtrahends written down.
    missing: Cell<bool>,
}

impl EvalCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many binding values the cache holds.
    pub fn len(&self) -> usize {
        self.values.borrow().len()
    }

    /// Whether the cache holds no value yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Evaluates `model` on `exec`: one [`Run`] per `with` choice, each listing its checks.
pub fn evaluate(
    model: &Model,
    exec: &dyn Execution,
    opts: &EvalOptions,
) -> Result<Evaluation, CatError> {
    evaluate_with(model, exec, opts, None, None, None, None)
}

fn evaluate_with(
    model: &Model,
    exec: &dyn Execution,
    opts: &EvalOptions,
    statics: Option<&EvalCache>,
    bounds: Option<&Bounds>,
    record: Option<&Recorder>,
    interval: Option<&Interval>,
) -> Result<Evaluation, CatError> {
    let interp = Interp {
        model,
        exec,
        n: exec.num_events(),
        opts,
        statics,
        bounds,
        record,
        interval,
        cache: RefCell::new(FastMap::default()),
        named: RefCell::new(FastMap::default()),
        depth: Cell::new(0),
        trying: Cell::new(0),
    };
    let mut runs = Vec::new();
    interp
        .exec_block(
            &model.instrs,
            Env::default(),
            RunState::default(),
            &mut |_, st| {
                if runs.len() >= opts.max_runs {
                    return Err(Box::new(CatError::new(
                        ErrorKind::Limit,
                        format!(
                            "the model's `with` choices make more than {} runs",
                            opts.max_runs
                        ),
                    )));
                }
                runs.push(Run {
                    choices: st.choices,
                    checks: st.checks,
                    stopped_early: st.stopped,
                });
                Ok(())
            },
        )
        .map_err(|e| *e)?;
    Ok(Evaluation { runs })
}

// ===== values ============================================================================

#[derive(Clone)]
enum Value<'a> {
    /// `0`, `{}`: empty, whatever the expected kind of collection.
    Empty,
    Set(Rc<BitSet>),
    Rel(Rc<Relation>),
    Event(usize),
    Pair(usize, usize),
    Tag(Sym),
    Tuple(Rc<Vec<Value<'a>>>),
    /// A set of structured values (tags, event sets, relations, tuples...).
    Coll(Rc<Vec<Value<'a>>>),
    Closure(Rc<Closure<'a>>),
    Prim(Prim),
    /// `map f`: a function applying `f` to every element of its argument.
    Mapper(Rc<Value<'a>>),
    Proc(Rc<Procedure<'a>>),
}

struct Closure<'a> {
    def: &'a FunDef,
    env: Env<'a>,
    rec: Option<Rc<RecGroup<'a>>>,
}

struct RecGroup<'a> {
    funs: Vec<(Sym, &'a FunDef)>,
    env: Env<'a>,
}

struct Procedure<'a> {
    name: Sym,
    pat: &'a Pat,
    body: &'a [Instr],
    env: Env<'a>,
}

/// Built-in functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prim {
    Domain,
    Range,
    Fencerel,
    Ctrlcfence,
    Partition,
    Linearisations,
    Cross,
    Tag2Events,
    Tag2Scope,
    /// `RR(r)`, `WM(r)`, ...: `r` restricted to source and target kinds (R, W or M).
    Filter(u8, u8),
    /// `toid(s)` = `[s]`.
    Toid,
    /// `noid(r)` = `r \ id`.
    Noid,
    /// `imply(a, b)` = `~a | b`.
    Imply,
    /// `nodetour(r1, r2, r3)` = `r1 \ (r2 ; r3)`.
    Nodetour,
    /// `singlestep(r)` = `nodetour(r, r, r)`.
    Singlestep,
    /// `map f s`: `{f(x) | x ∈ s}` (curried).
    Map,
}

impl Prim {
    fn by_name(name: &str) -> Option<Prim> {
        Some(match name {
            "domain" => Prim::Domain,
            "range" => Prim::Range,
            "fencerel" => Prim::Fencerel,
            "ctrlcfence" => Prim::Ctrlcfence,
            "classes-loc" | "partition" => Prim::Partition,
            "linearisations" | "linearizations" => Prim::Linearisations,
            "cross" => Prim::Cross,
            "tag2events" | "tag2set" | "tag2instrs" => Prim::Tag2Events,
            "tag2scope" => Prim::Tag2Scope,
            "toid" => Prim::Toid,
            "noid" => Prim::Noid,
            "imply" => Prim::Imply,
            "nodetour" => Prim::Nodetour,
            "singlestep" => Prim::Singlestep,
            "map" => Prim::Map,
            _ => {
                let b = name.as_bytes();
                let ok = |c: u8| matches!(c, b'R' | b'W' | b'M');
                if b.len() == 2 && ok(b[0]) && ok(b[1]) {
                    Prim::Filter(b[0], b[1])
                } else {
                    return None;
                }
            }
        })
    }
}

impl Value<'_> {
    fn describe(&self) -> &'static str {
        match self {
            Value::Empty => "an empty set",
            Value::Set(_) => "an event set",
            Value::Rel(_) => "a relation",
            Value::Event(_) => "an event",
            Value::Pair(..) => "a pair of events",
            Value::Tag(_) => "a tag",
            Value::Tuple(_) => "a tuple",
            Value::Coll(_) => "a set of values",
            Value::Closure(_) | Value::Prim(_) | Value::Mapper(_) => "a function",
            Value::Proc(_) => "a procedure",
        }
    }
}

// ===== environments ======================================================================

#[derive(Clone, Default)]
struct Env<'a>(Option<Rc<Node<'a>>>);

struct Node<'a> {
    sym: Sym,
    val: Value<'a>,
    next: Env<'a>,
}

impl Drop for Node<'_> {
    /// Unlinks long chains iteratively so dropping them cannot overflow the stack.
    fn drop(&mut self) {
        let mut next = self.next.0.take();
        while let Some(rc) = next {
            match Rc::try_unwrap(rc) {
                Ok(mut node) => next = node.next.0.take(),
                Err(_) => break,
            }
        }
    }
}

impl<'a> Env<'a> {
    fn bind(&self, sym: Sym, val: Value<'a>) -> Env<'a> {
        Env(Some(Rc::new(Node {
            sym,
            val,
            next: self.clone(),
        })))
    }

    fn lookup(&self, sym: Sym) -> Option<&Value<'a>> {
        let mut cur = self.0.as_deref();
        while let Some(node) = cur {
            if node.sym == sym {
                return Some(&node.val);
            }
            cur = node.next.0.as_deref();
        }
        None
    }
}

// ===== interpreter =======================================================================

#[derive(Clone, Default)]
struct RunState {
    choices: Vec<Choice>,
    checks: Vec<CheckResult>,
    stopped: bool,
}

/// Errors are boxed inside the interpreter to keep its (recursive) frames small.
type EResult<T> = Result<T, Box<CatError>>;
type Cont<'k, 'a> = dyn FnMut(Env<'a>, RunState) -> EResult<()> + 'k;

struct Interp<'a, 'x> {
    model: &'a Model,
    exec: &'x dyn Execution,
    n: usize,
    opts: &'x EvalOptions,
    /// Values of the model's static bindings shared across evaluations (see [`EvalCache`]).
    statics: Option<&'x EvalCache>,
    /// Upper-bound subtrahends of the bounded checks (see [`Model::evaluate_partial`]).
    bounds: Option<&'x Bounds>,
    /// Where the values of non-static bindings are written down (see [`Model::settle`]).
    record: Option<&'x Recorder>,
    /// How interval bindings are evaluated (see [`Model::settle`]).
    interval: Option<&'x Interval>,
    cache: RefCell<FastMap<Sym, Value<'a>>>,
    named: RefCell<FastMap<String, Option<Value<'a>>>>,
    depth: Cell<usize>,
    /// How many `try` bodies are being evaluated.
    trying: Cell<usize>,
}

struct DepthGuard<'i>(&'i Cell<usize>, usize);

impl Drop for DepthGuard<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() - self.1);
    }
}

/// Depth charged for one level of instruction nesting (call, with, forall, if variant).
const CALL_WEIGHT: usize = 4;

impl<'a> Interp<'a, '_> {
    fn err(&self, span: Span, msg: impl Into<String>) -> Box<CatError> {
        Box::new(self.model.error_at(span, ErrorKind::Eval, msg))
    }

    fn limit(&self, span: Span, msg: impl Into<String>) -> Box<CatError> {
        Box::new(self.model.error_at(span, ErrorKind::Limit, msg))
    }

    fn enter(&self, span: Span) -> EResult<DepthGuard<'_>> {
        self.enter_weighted(span, 1)
    }

    /// Counts `weight` levels of nesting (instruction-level nesting has larger frames).
    fn enter_weighted(&self, span: Span, weight: usize) -> EResult<DepthGuard<'_>> {
        let d = self.depth.get() + weight;
        if d > self.opts.max_depth {
            return Err(self.limit(
                span,
                format!(
                    "evaluation nested deeper than {} levels (runaway recursion?)",
                    self.opts.max_depth
                ),
            ));
        }
        self.depth.set(d);
        Ok(DepthGuard(&self.depth, weight))
    }

    fn sym(&self, s: Sym) -> &'a str {
        self.model.symbols.name(s)
    }

    fn empty_set(&self) -> BitSet {
        BitSet::new(self.n)
    }

    fn empty_rel(&self) -> Relation {
        Relation::new(self.n)
    }

    // ----- instructions --------------------------------------------------------------

    /// Executes `instrs`, then hands the final environment and state to `k`. Instructions
    /// that continue elsewhere (`with`, `call`, `forall`, `if variant`) pass the rest of the
    /// block on as a continuation; each lives in its own function to keep this frame small.
    fn exec_block(
        &self,
        instrs: &'a [Instr],
        mut env: Env<'a>,
        mut st: RunState,
        k: &mut Cont<'_, 'a>,
    ) -> EResult<()> {
        for (i, ins) in instrs.iter().enumerate() {
            if st.stopped {
                break;
            }
            let rest = &instrs[i + 1..];
            match &ins.kind {
                InstrKind::Let { rec, bindings } => env = self.bind_let(*rec, bindings, &env)?,
                InstrKind::Check(c) => self.exec_check(c, &env, &mut st, ins.span)?,
                InstrKind::Enum { name, tags } => env = self.exec_enum(*name, tags, env),
                InstrKind::Procedure { name, pat, body } => {
                    let p = Procedure {
                        name: *name,
                        pat,
                        body,
                        env: env.clone(),
                    };
                    env = env.bind(*name, Value::Proc(Rc::new(p)));
                }
                InstrKind::With { var, set } => {
                    return self.exec_with(*var, set, rest, env, st, k, ins.span)
                }
                InstrKind::Call { name, arg, .. } => {
                    return self.exec_call(*name, arg, rest, env, st, k, ins.span)
                }
                InstrKind::Forall { var, set, body } => {
                    let v = self.eval(set, &env)?;
                    let elems = self.elements(v, set.span)?;
                    return self.exec_forall(*var, &elems, body, env, st, rest, k);
                }
                InstrKind::IfVariant { variant, then, els } => {
                    let branch = if self.opts.variants.contains(variant) {
                        then
                    } else {
                        els
                    };
                    return self.exec_splice(branch, rest, env, st, k, ins.span);
                }
                InstrKind::Show | InstrKind::Instructions => {}
            }
        }
        k(env, st)
    }

    #[inline(never)]
    fn exec_check(
        &self,
        c: &'a Check,
        env: &Env<'a>,
        st: &mut RunState,
        span: Span,
    ) -> EResult<()> {
        let r = self.check(c, env, span)?;
        if r.forbids() && self.opts.stop_at_first_failure {
            st.stopped = true;
        }
        st.checks.push(r);
        Ok(())
    }

    #[inline(never)]
    fn exec_enum(&self, name: Sym, tags: &[Sym], mut env: Env<'a>) -> Env<'a> {
        for &t in tags {
            env = env.bind(t, Value::Tag(t));
        }
        let all = tags.iter().map(|&t| Value::Tag(t)).collect();
        env.bind(name, Value::Coll(Rc::new(all)))
    }

    /// `with var from set`: the rest of the block once per element (herd manual
    /// §"Candidate execution extension").
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn exec_with(
        &self,
        var: Sym,
        set: &'a Expr,
        rest: &'a [Instr],
        env: Env<'a>,
        st: RunState,
        k: &mut Cont<'_, 'a>,
        span: Span,
    ) -> EResult<()> {
        let _g = self.enter_weighted(span, CALL_WEIGHT)?;
        let v = self.eval(set, &env)?;
        let elems = self.elements(v, set.span)?;
        let count = elems.len();
        for (index, e) in elems.into_iter().enumerate() {
            let mut st2 = st.clone();
            st2.choices.push(Choice {
                name: self.sym(var).to_string(),
                index,
                count,
            });
            self.exec_block(rest, env.bind(var, e), st2, k)?;
        }
        Ok(())
    }

    /// `call name arg`: the body's checks are kept, its bindings dropped.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn exec_call(
        &self,
        name: Sym,
        arg: &'a Expr,
        rest: &'a [Instr],
        env: Env<'a>,
        st: RunState,
        k: &mut Cont<'_, 'a>,
        span: Span,
    ) -> EResult<()> {
        let p = match env.lookup(name) {
            Some(Value::Proc(p)) => p.clone(),
            Some(v) => {
                return Err(self.err(
                    span,
                    format!("`{}` is {}, not a procedure", self.sym(name), v.describe()),
                ))
            }
            None => return Err(self.err(span, format!("unknown procedure `{}`", self.sym(name)))),
        };
        let a = self.eval(arg, &env)?;
        let penv = p.env.bind(p.name, Value::Proc(p.clone()));
        let penv = self.bind_pat(&penv, p.pat, a, arg.span)?;
        let _g = self.enter_weighted(span, CALL_WEIGHT)?;
        self.exec_block(p.body, penv, st, &mut |_, st2| {
            self.exec_block(rest, env.clone(), st2, k)
        })
    }

    /// Runs `branch` then `rest`, keeping the branch's bindings (`if variant`).
    #[inline(never)]
    fn exec_splice(
        &self,
        branch: &'a [Instr],
        rest: &'a [Instr],
        env: Env<'a>,
        st: RunState,
        k: &mut Cont<'_, 'a>,
        span: Span,
    ) -> EResult<()> {
        let _g = self.enter_weighted(span, CALL_WEIGHT)?;
        self.exec_block(branch, env, st, &mut |env2, st2| {
            self.exec_block(rest, env2, st2, k)
        })
    }

    /// Runs `body` for each element in turn, keeping checks and dropping bindings; a body
    /// that forks (`with`) continues the iteration once per branch.
    #[allow(clippy::too_many_arguments)]
    fn exec_forall(
        &self,
        var: Sym,
        elems: &[Value<'a>],
        body: &'a [Instr],
        env: Env<'a>,
        mut st: RunState,
        rest: &'a [Instr],
        k: &mut Cont<'_, 'a>,
    ) -> EResult<()> {
        let _g = self.enter_weighted(
            body.first().map_or_else(Span::default, |i| i.span),
            CALL_WEIGHT,
        )?;
        for (i, e) in elems.iter().enumerate() {
            if st.stopped {
                break;
            }
            let mut outs = Vec::new();
            self.exec_block(body, env.bind(var, e.clone()), st, &mut |_, s| {
                outs.push(s);
                Ok(())
            })?;
            if outs.len() == 1 {
                st = outs.pop().unwrap_or_default();
                continue;
            }
            for s in outs {
                self.exec_forall(var, &elems[i + 1..], body, env.clone(), s, rest, k)?;
            }
            return Ok(());
        }
        self.exec_block(rest, env, st, k)
    }

    fn check(&self, c: &'a Check, env: &Env<'a>, span: Span) -> EResult<CheckResult> {
        let key = (span.file, span.start);
        let mut prunable = self.model.prunable.contains(&key);
        let bounded = match (&c.expr.kind, self.bounds) {
            (ExprKind::Op(BinOp::Diff, items), Some(b)) if self.model.bounded.contains(&key) => {
                Some((items, b))
            }
            _ => None,
        };
        let v = match bounded {
            // On the upper bound: keep the subtrahends, judge nothing.
            Some((items, b)) if b.record.get() => {
                let mut subs = Vec::with_capacity(items.len() - 1);
                for x in &items[1..] {
                    match self.promote(self.eval(x, env)?) {
                        Value::Set(s) => subs.push(Cached::Set(s)),
                        Value::Rel(r) => subs.push(Cached::Rel(r)),
                        Value::Empty => subs.push(Cached::Empty),
                        _ => break, // not a set: judged normally (and reported) later
                    }
                }
                if subs.len() + 1 == items.len() {
                    b.values.borrow_mut().insert(key, subs);
                }
                Value::Empty
            }
            // The other checks are judged by a plain evaluation (see `evaluate_partial`).
            None if self.bounds.is_some() => Value::Empty,
            // On the partial candidate: its minuend minus the upper bound's subtrahends.
            Some((items, b)) if b.values.borrow().contains_key(&key) => {
                let subs: Vec<Value<'a>> = b.values.borrow()[&key]
                    .iter()
                    .map(|x| match x {
                        Cached::Set(s) => Value::Set(s.clone()),
                        Cached::Rel(r) => Value::Rel(r.clone()),
                        _ => Value::Empty,
                    })
                    .collect();
                let mut acc = self.eval(&items[0], env)?;
                for (x, sub) in items[1..].iter().zip(subs) {
                    acc = self.binary(BinOp::Diff, acc, sub, x.span)?;
                }
                prunable = true;
                acc
            }
            _ => self.eval(&c.expr, env)?,
        };
        let bad = |what: &str| {
            self.err(
                c.expr.span,
                format!("`{}` expects {what}, got {}", c.test.text(), v.describe()),
            )
        };
        // `evidence`: why the un-negated test fails, when it does.
        let evidence: Option<Witness> = match (c.test, &v) {
            (_, Value::Empty) => None,
            (Test::Acyclic, Value::Rel(r)) => r.find_cycle().map(Witness::Cycle),
            (Test::Acyclic | Test::Irreflexive, Value::Pair(a, b)) => {
                (a == b).then_some(Witness::Reflexive(*a))
            }
            (Test::Irreflexive, Value::Rel(r)) => r.reflexive_event().map(Witness::Reflexive),
            (Test::Acyclic | Test::Irreflexive, _) => return Err(bad("a relation")),
            (Test::Empty, Value::Set(s)) => s.first().map(Witness::Event),
            (Test::Empty, Value::Rel(r)) => r.first().map(|(a, b)| Witness::Pair(a, b)),
            (Test::Empty, Value::Event(e)) => Some(Witness::Event(*e)),
            (Test::Empty, Value::Pair(a, b)) => Some(Witness::Pair(*a, *b)),
            (Test::Empty, Value::Coll(items)) => {
                items.first().map(|x| Witness::Element(self.show(x)))
            }
            (Test::Empty, _) => return Err(bad("a set or a relation")),
        };
        // Only the bounded checks of a partial candidate are judged with bounds: no other
        // check stops the run.
        let holds = evidence.is_none() != c.negated || (self.bounds.is_some() && !prunable);
        let skipped = c
            .name
            .as_ref()
            .is_some_and(|n| self.opts.skip_checks.contains(n));
        let location = self
            .model
            .files
            .get(span.file as usize)
            .map(|f| f.location(span.start as usize));
        Ok(CheckResult {
            name: c.name.clone(),
            mode: c.mode,
            test: c.test,
            negated: c.negated,
            holds,
            skipped,
            witness: evidence,
            location,
            prunable,
            key,
        })
    }

    // ----- bindings ------------------------------------------------------------------

    fn bind_pat(&self, env: &Env<'a>, pat: &Pat, v: Value<'a>, span: Span) -> EResult<Env<'a>> {
        match pat {
            Pat::Var(s) => Ok(env.bind(*s, v)),
            Pat::Tuple(names) => {
                let items: Vec<Value<'a>> = match (&v, names.len()) {
                    (Value::Tuple(t), n) if t.len() == n => t.as_ref().clone(),
                    (Value::Pair(a, b), 2) => vec![Value::Event(*a), Value::Event(*b)],
                    _ => {
                        return Err(self.err(
                            span,
                            format!(
                                "expected a tuple of {} values, got {}",
                                names.len(),
                                v.describe()
                            ),
                        ))
                    }
                };
                let mut env = env.clone();
                for (s, x) in names.iter().zip(items) {
                    env = env.bind(*s, x);
                }
                Ok(env)
            }
        }
    }

    #[inline(never)]
    fn bind_let(&self, rec: bool, bindings: &'a [Binding], env: &Env<'a>) -> EResult<Env<'a>> {
        if !rec {
            // `let a = e1 and b = e2`: all evaluated in the outer environment.
            let vals = bindings
                .iter()
                .map(|b| self.eval_binding(b, env))
                .collect::<EResult<Vec<_>>>()?;
            let mut out = env.clone();
            for (b, v) in bindings.iter().zip(vals) {
                out = self.bind_pat(&out, &b.pat, v, b.span)?;
            }
            return Ok(out);
        }
        let mut funs = Vec::new();
        let mut others = Vec::new();
        for b in bindings {
            let Pat::Var(s) = b.pat else {
                return Err(self.err(b.span, "`let rec` binds names, not tuples"));
            };
            match &b.expr.kind {
                ExprKind::Fun(def) => funs.push((s, &**def)),
                _ => others.push((s, b)),
            }
        }
        let mut env1 = env.clone();
        if !funs.is_empty() {
            let group = Rc::new(RecGroup {
                funs,
                env: env.clone(),
            });
            env1 = self.bind_group(&env1, &group);
        }
        if others.is_empty() {
            return Ok(env1);
        }
        // Least fixpoint (herd manual §"Local bindings"): start from empty values and
        // re-evaluate all equations until none changes.
        let mut vals: Vec<Value<'a>> = vec![Value::Empty; others.len()];
        let mut rounds = 0usize;
        loop {
            let mut cur = env1.clone();
            for ((s, _), v) in others.iter().zip(&vals) {
                cur = cur.bind(*s, v.clone());
            }
            let new = others
                .iter()
                .map(|(_, b)| self.eval(&b.expr, &cur))
                .collect::<EResult<Vec<_>>>()?;
            let stable = new.iter().zip(&vals).all(|(a, b)| self.equal(a, b));
            vals = new;
            if stable {
                break;
            }
            rounds += 1;
            if rounds > self.opts.max_fixpoint_iterations {
                return Err(self.limit(
                    others[0].1.span,
                    format!(
                        "`let rec` did not reach a fixpoint in {} rounds (is it monotone?)",
                        self.opts.max_fixpoint_iterations
                    ),
                ));
            }
        }
        let mut out = env1;
        for ((s, _), v) in others.iter().zip(vals) {
            out = out.bind(*s, v);
        }
        Ok(out)
    }

    /// A non-recursive binding's value: from the [`EvalCache`] when the binding is
    /// static and already computed for this family of executions.
    fn eval_binding(&self, b: &'a Binding, env: &Env<'a>) -> EResult<Value<'a>> {
        let key = (b.span.file, b.span.start);
        let Some(cache) = self
            .statics
            .filter(|_| self.model.static_bindings.contains(&key))
        else {
            let v = match (self.interval, &b.expr.kind) {
                (Some(iv), ExprKind::Op(BinOp::Diff, items))
                    if self.model.interval.contains(&key) =>
                {
                    self.eval_interval(iv, key, items, env)?
                }
                _ => self.eval(&b.expr, env)?,
            };
            if let Some(rec) = self.record {
                rec.note(key, &v);
            }
            return Ok(v);
        };
        if let Some(c) = cache.values.borrow().get(&key) {
            return Ok(match c {
                Cached::Empty => Value::Empty,
                Cached::Set(s) => Value::Set(s.clone()),
                Cached::Rel(r) => Value::Rel(r.clone()),
            });
        }
        let v = self.eval(&b.expr, env)?;
        let c = match &v {
            Value::Empty => Some(Cached::Empty),
            Value::Set(s) => Some(Cached::Set(s.clone())),
            Value::Rel(r) => Some(Cached::Rel(r.clone())),
            _ => None,
        };
        if let Some(c) = c {
            cache.values.borrow_mut().insert(key, c);
        }
        Ok(v)
    }

    /// An interval binding `E0 \ E1 ...` (see [`Interval`]): evaluated as usual while its
    /// subtrahends are written down, or its minuend minus the subtrahends written down by
    /// the evaluation of the opposite bound.
    fn eval_interval(
        &self,
        iv: &Interval,
        key: (u32, u32),
        items: &'a [Expr],
        env: &Env<'a>,
    ) -> EResult<Value<'a>> {
        let mut acc = self.eval(&items[0], env)?;
        if iv.apply {
            let subs = iv.subs.borrow().get(&key).cloned().flatten();
            let Some(subs) = subs else {
                iv.missing.set(true);
                for x in &items[1..] {
                    let s = self.eval(x, env)?;
                    acc = self.binary(BinOp::Diff, acc, s, x.span)?;
                }
                return Ok(acc);
            };
            for (x, sub) in items[1..].iter().zip(subs.iter()) {
                acc = self.binary(BinOp::Diff, acc, sub.value(), x.span)?;
            }
            return Ok(acc);
        }
        let mut subs = Some(Vec::with_capacity(items.len() - 1));
        for x in &items[1..] {
            let s = self.eval(x, env)?;
            match (Cached::of(&self.promote(s.clone())), subs.as_mut()) {
                (Some(c), Some(v)) => v.push(c),
                _ => subs = None,
            }
            acc = self.binary(BinOp::Diff, acc, s, x.span)?;
        }
        let mut m = iv.subs.borrow_mut();
        let subs = if m.contains_key(&key) { None } else { subs };
        m.insert(key, subs);
        Ok(acc)
    }

    fn bind_group(&self, env: &Env<'a>, group: &Rc<RecGroup<'a>>) -> Env<'a> {
        let mut out = env.clone();
        for &(s, def) in &group.funs {
            let c = Closure {
                def,
                env: group.env.clone(),
                rec: Some(group.clone()),
            };
            out = out.bind(s, Value::Closure(Rc::new(c)));
        }
        out
    }

    // ----- identifiers ---------------------------------------------------------------

    #[inline(never)]
    fn lookup(&self, env: &Env<'a>, s: Sym, span: Span) -> EResult<Value<'a>> {
        // A name no construct binds (`po`, `W`, ...) is never in the environment.
        if self.model.may_bind(s) {
            if let Some(v) = env.lookup(s) {
                return Ok(v.clone());
            }
        }
        if let Some(v) = self.cache.borrow().get(&s) {
            return Ok(v.clone());
        }
        let name = self.sym(s);
        let v = match self.global(name, span)? {
            Some(v) => v,
            None => {
                return Err(self.err(span, format!("unknown identifier `{name}`")));
            }
        };
        self.cache.borrow_mut().insert(s, v.clone());
        Ok(v)
    }

    /// A name outside the model's bindings: base, derived or primitive (cached by name).
    fn global(&self, name: &str, span: Span) -> EResult<Option<Value<'a>>> {
        if let Some(v) = self.named.borrow().get(name) {
            return Ok(v.clone());
        }
        let v = match self.base(name, span)? {
            Some(v) => Some(v),
            None => match self.derived(name, span)? {
                Some(v) => Some(v),
                None => Prim::by_name(name).map(Value::Prim),
            },
        };
        self.named.borrow_mut().insert(name.to_string(), v.clone());
        Ok(v)
    }

    /// A name the execution itself provides.
    fn base(&self, name: &str, span: Span) -> EResult<Option<Value<'a>>> {
        if let Some(r) = self.exec.base_relation_shared(name) {
            if r.universe() != self.n {
                return Err(Box::new(self.model.error_at(
                    span,
                    ErrorKind::Execution,
                    format!(
                        "the execution's relation `{name}` is over {} events, expected {}",
                        r.universe(),
                        self.n
                    ),
                )));
            }
            return Ok(Some(Value::Rel(r)));
        }
        if let Some(s) = self.exec.base_set_shared(name) {
            if s.universe() != self.n {
                return Err(Box::new(self.model.error_at(
                    span,
                    ErrorKind::Execution,
                    format!(
                        "the execution's set `{name}` is over {} events, expected {}",
                        s.universe(),
                        self.n
                    ),
                )));
            }
            return Ok(Some(Value::Set(s)));
        }
        Ok(None)
    }

    fn base_rel(&self, name: &str, span: Span, for_what: &str) -> EResult<Rc<Relation>> {
        match self.global(name, span)? {
            Some(Value::Rel(r)) => Ok(r),
            Some(Value::Empty) => Ok(Rc::new(self.empty_rel())),
            Some(v) => Err(self.err(span, format!("`{for_what}` needs the relation `{name}`, which is {}", v.describe()))),
            None => Err(self.err(
                span,
                format!("`{for_what}` needs the relation `{name}`, which the execution does not provide"),
            )),
        }
    }

    fn base_set_named(&self, name: &str, span: Span, for_what: &str) -> EResult<Rc<BitSet>> {
        match self.global(name, span)? {
            Some(Value::Set(s)) => Ok(s),
            Some(Value::Empty) => Ok(Rc::new(self.empty_set())),
            Some(v) => Err(self.err(
                span,
                format!(
                    "`{for_what}` needs the set `{name}`, which is {}",
                    v.describe()
                ),
            )),
            None => Err(self.err(
                span,
                format!(
                    "`{for_what}` needs the set `{name}`, which the execution does not provide"
                ),
            )),
        }
    }

    /// Built-ins derived from the base names (herd's pre-defined and stdlib relations).
    fn derived(&self, name: &str, span: Span) -> EResult<Option<Value<'a>>> {
        let rel = |r: Relation| Ok(Some(Value::Rel(Rc::new(r))));
        let get = |n: &str| self.base_rel(n, span, name);
        match name {
            "emptyset" => Ok(Some(Value::Set(Rc::new(self.empty_set())))),
            "id" => rel(Relation::identity(self.n)),
            "M" => {
                let r = self.base_set_named("R", span, name)?;
                let w = self.base_set_named("W", span, name)?;
                Ok(Some(Value::Set(Rc::new(r.union(&w)))))
            }
            "fr" => rel(get("rf")?.inverse().compose(&*get("co")?)),
            "lxsx" => rel(get("rmw")?.difference(&*get("amo")?)),
            "co0" => {
                // Initial writes before other writes, non-final writes before final ones.
                let set = |n: &str| self.base_set_named(n, span, name);
                let (w, iw, fw) = (set("W")?, set("IW")?, set("FW")?);
                let first = Relation::cartesian(&iw, &w.difference(&iw));
                let last = Relation::cartesian(&w.difference(&fw), &fw);
                rel(get("loc")?.intersection(&first.union(&last)))
            }
            "po-loc" => rel(get("po")?.intersection(&*get("loc")?)),
            "ext" => rel(get("int")?.complement()),
            "rfe" | "coe" | "fre" | "rfi" | "coi" | "fri" => {
                let base = get(&name[..2])?;
                let part = get(if name.ends_with('e') { "ext" } else { "int" })?;
                rel(base.intersection(&part))
            }
            _ => Ok(None),
        }
    }

    // ----- expressions ---------------------------------------------------------------

    /// Evaluates an expression. Every arm that recurses lives in its own function so that
    /// this frame, which is on every recursion path, stays small.
    fn eval(&self, e: &'a Expr, env: &Env<'a>) -> EResult<Value<'a>> {
        let _g = self.enter(e.span)?;
        match &e.kind {
            ExprKind::Zero => Ok(Value::Empty),
            ExprKind::Universe => Ok(Value::Set(Rc::new(BitSet::full(self.n)))),
            ExprKind::Var(s) => self.lookup(env, *s, e.span),
            ExprKind::Tag(s) => self.eval_tag(*s, env, e.span),
            ExprKind::Tuple(items) => self.eval_items(items, env, true),
            ExprKind::SetLit(items) => self.eval_items(items, env, false),
            ExprKind::Unary(op, x) => self.eval_unary(*op, x, env, e.span),
            ExprKind::Op(op, items) => self.eval_op(*op, items, env, e.span),
            ExprKind::App(f, args) => self.eval_app(f, args, env),
            ExprKind::Fun(def) => Ok(Value::Closure(Rc::new(Closure {
                def,
                env: env.clone(),
                rec: None,
            }))),
            ExprKind::Let {
                rec,
                bindings,
                body,
            } => self.eval_let(*rec, bindings, body, env),
            ExprKind::Match { scrutinee, arms } => self.eval_match(scrutinee, arms, env, e.span),
            ExprKind::If { cond, then, els } => self.eval_if(cond, then, els, env),
            ExprKind::Try { body, fallback } => self.eval_try(body, fallback, env),
        }
    }

    #[inline(never)]
    fn eval_tag(&self, s: Sym, env: &Env<'a>, span: Span) -> EResult<Value<'a>> {
        match env.lookup(s) {
            Some(v) => Ok(v.clone()),
            None => Err(self.err(
                span,
                format!("undeclared tag `{}` (declare it with `enum`)", self.sym(s)),
            )),
        }
    }

    #[inline(never)]
    fn eval_items(&self, items: &'a [Expr], env: &Env<'a>, tuple: bool) -> EResult<Value<'a>> {
        let mut vs = Vec::with_capacity(items.len());
        for x in items {
            vs.push(self.eval(x, env)?);
        }
        Ok(if tuple {
            Value::Tuple(Rc::new(vs))
        } else {
            self.set_literal(vs)
        })
    }

    #[inline(never)]
    fn eval_unary(&self, op: UnOp, x: &'a Expr, env: &Env<'a>, span: Span) -> EResult<Value<'a>> {
        let v = self.eval(x, env)?;
        self.unary(op, v, span)
    }

    #[inline(never)]
    fn eval_app(&self, f: &'a Expr, args: &'a [Expr], env: &Env<'a>) -> EResult<Value<'a>> {
        let mut fv = self.eval(f, env)?;
        for a in args {
            if !matches!(fv, Value::Closure(_) | Value::Prim(_) | Value::Mapper(_)) {
                return Err(self.err(
                    f.span,
                    format!("cannot apply {}: it is not a function", fv.describe()),
                ));
            }
            let av = self.eval(a, env)?;
            fv = self.apply(fv, av, a.span)?;
        }
        Ok(fv)
    }

    #[inline(never)]
    fn eval_let(
        &self,
        rec: bool,
        bindings: &'a [Binding],
        body: &'a Expr,
        env: &Env<'a>,
    ) -> EResult<Value<'a>> {
        let env2 = self.bind_let(rec, bindings, env)?;
        self.eval(body, &env2)
    }

    #[inline(never)]
    fn eval_if(
        &self,
        cond: &'a Cond,
        then: &'a Expr,
        els: &'a Expr,
        env: &Env<'a>,
    ) -> EResult<Value<'a>> {
        let holds = match cond {
            Cond::Variant(v) => self.opts.variants.contains(v),
            Cond::Equal(a, b) => {
                let va = self.eval(a, env)?;
                let vb = self.eval(b, env)?;
                self.equal(&va, &vb)
            }
        };
        self.eval(if holds { then } else { els }, env)
    }

    #[inline(never)]
    fn eval_try(&self, body: &'a Expr, fallback: &'a Expr, env: &Env<'a>) -> EResult<Value<'a>> {
        // Inside `try`, an error is a value: sequences are evaluated in full there.
        self.trying.set(self.trying.get() + 1);
        let r = self.eval(body, env);
        self.trying.set(self.trying.get() - 1);
        match r {
            Err(err) if err.kind == ErrorKind::Eval => self.eval(fallback, env),
            r => r,
        }
    }

    #[inline(never)]
    fn eval_op(
        &self,
        op: BinOp,
        items: &'a [Expr],
        env: &Env<'a>,
        span: Span,
    ) -> EResult<Value<'a>> {
        if op == BinOp::Add {
            return self.eval_add(items, env, span);
        }
        if op == BinOp::Seq
            && items
                .iter()
                .any(|x| matches!(x.kind, ExprKind::Unary(UnOp::Identity, _)))
        {
            return self.eval_seq(items, env);
        }
        // Union, intersection and sequence are associative and difference is
        // left-associative: a left fold computes all of them.
        let (first, rest) = match items.split_first() {
            Some(x) => x,
            None => return Ok(Value::Empty),
        };
        let mut acc = self.eval(first, env)?;
        for x in rest {
            let v = self.eval(x, env)?;
            acc = self.binary(op, acc, v, x.span)?;
        }
        Ok(acc)
    }

    /// `e1 ; e2 ; ... ; en` where some `ei` is `[S]`: composing with the identity on `S`
    /// keeps the pairs whose source (before) or target (after) is in `S`, so those
    /// operands mask rows or columns instead of building and composing an identity
    /// matrix. Same values and errors as the left fold of [`Self::binary`].
    #[inline(never)]
    fn eval_seq(&self, items: &'a [Expr], env: &Env<'a>) -> EResult<Value<'a>> {
        enum Acc<'a> {
            Start,
            /// `[S]` so far (the identity on `S`, not built yet).
            Dom(Rc<BitSet>),
            Val(Value<'a>),
        }
        let mut acc = Acc::Start;
        for x in items {
            // An empty prefix makes the whole sequence empty: the rest is not evaluated
            // (`av ; (...)* ; vis` of a storage class no access uses costs nothing). Only
            // a model error in the skipped items could tell the difference (so not inside
            // `try`, where an error selects the fallback), and the empty value (`0`)
            // stands for the empty relation wherever one is expected.
            if self.trying.get() == 0 {
                match &acc {
                    Acc::Dom(d) if d.is_empty() => return Ok(Value::Empty),
                    Acc::Val(Value::Empty) => return Ok(Value::Empty),
                    Acc::Val(Value::Rel(r)) if r.is_empty() => return Ok(Value::Empty),
                    _ => {}
                }
            }
            if let ExprKind::Unary(UnOp::Identity, inner) = &x.kind {
                let s = self.as_set(self.eval(inner, env)?, x.span, "[...]")?;
                acc = match acc {
                    Acc::Start => Acc::Dom(s),
                    Acc::Dom(mut d) => {
                        Rc::make_mut(&mut d).intersect_with(&s);
                        Acc::Dom(d)
                    }
                    Acc::Val(Value::Empty) => Acc::Val(Value::Empty),
                    Acc::Val(Value::Rel(mut r)) => {
                        Rc::make_mut(&mut r).restrict_targets(&s);
                        Acc::Val(Value::Rel(r))
                    }
                    Acc::Val(v) => {
                        let id = Value::Rel(Rc::new(Relation::identity_on(&s)));
                        Acc::Val(self.binary(BinOp::Seq, v, id, x.span)?)
                    }
                };
                continue;
            }
            let v = self.eval(x, env)?;
            acc = match acc {
                Acc::Start => Acc::Val(v),
                Acc::Dom(d) => match self.promote(v) {
                    Value::Empty => Acc::Val(Value::Empty),
                    Value::Rel(mut r) => {
                        Rc::make_mut(&mut r).restrict_sources(&d);
                        Acc::Val(Value::Rel(r))
                    }
                    v => {
                        let id = Value::Rel(Rc::new(Relation::identity_on(&d)));
                        Acc::Val(self.binary(BinOp::Seq, id, v, x.span)?)
                    }
                },
                Acc::Val(a) => Acc::Val(self.binary(BinOp::Seq, a, v, x.span)?),
            };
        }
        Ok(match acc {
            Acc::Start => Value::Empty,
            Acc::Dom(d) => Value::Rel(Rc::new(Relation::identity_on(&d))),
            Acc::Val(v) => v,
        })
    }

    /// `e1 ++ (e2 ++ (... ++ en))` (right-associative).
    #[inline(never)]
    fn eval_add(&self, items: &'a [Expr], env: &Env<'a>, span: Span) -> EResult<Value<'a>> {
        let mut vs = Vec::with_capacity(items.len());
        for x in items {
            vs.push(self.eval(x, env)?);
        }
        let mut acc = vs.pop().unwrap_or(Value::Empty);
        while let Some(v) = vs.pop() {
            acc = self.add(v, acc, span)?;
        }
        Ok(acc)
    }

    #[inline(never)]
    fn eval_match(
        &self,
        scrutinee: &'a Expr,
        arms: &'a MatchArms,
        env: &Env<'a>,
        span: Span,
    ) -> EResult<Value<'a>> {
        let v = self.eval(scrutinee, env)?;
        match arms {
            MatchArms::Tags { arms, default } => {
                let Value::Tag(t) = v else {
                    return Err(self.err(
                        scrutinee.span,
                        format!("match on tags got {}", v.describe()),
                    ));
                };
                for (tag, body) in arms {
                    if *tag == t {
                        return self.eval(body, env);
                    }
                }
                match default {
                    Some(d) => self.eval(d, env),
                    None => {
                        Err(self.err(span, format!("no match clause for tag `{}`", self.sym(t))))
                    }
                }
            }
            MatchArms::Set {
                empty,
                elem,
                rest,
                nonempty,
            } => match self.split(v, scrutinee.span)? {
                None => self.eval(empty, env),
                Some((x, r)) => {
                    let env2 = env.bind(*elem, x).bind(*rest, r);
                    self.eval(nonempty, &env2)
                }
            },
        }
    }

    /// An element of a non-empty set and the remaining set.
    fn split(&self, v: Value<'a>, span: Span) -> EResult<Option<(Value<'a>, Value<'a>)>> {
        Ok(match v {
            Value::Empty => None,
            Value::Set(s) => s.first().map(|e| {
                let mut r = (*s).clone();
                r.remove(e);
                (Value::Event(e), Value::Set(Rc::new(r)))
            }),
            Value::Rel(rel) => rel.first().map(|(a, b)| {
                let mut r = (*rel).clone();
                r.remove(a, b);
                (Value::Pair(a, b), Value::Rel(Rc::new(r)))
            }),
            Value::Coll(items) => items
                .split_first()
                .map(|(x, rest)| (x.clone(), Value::Coll(Rc::new(rest.to_vec())))),
            Value::Event(e) => Some((Value::Event(e), Value::Empty)),
            Value::Pair(a, b) => Some((Value::Pair(a, b), Value::Empty)),
            other => return Err(self.err(span, format!("match on sets got {}", other.describe()))),
        })
    }

    /// The elements a `with` or `forall` ranges over.
    fn elements(&self, v: Value<'a>, span: Span) -> EResult<Vec<Value<'a>>> {
        Ok(match v {
            Value::Empty => Vec::new(),
            Value::Set(s) => s.iter().map(Value::Event).collect(),
            Value::Rel(r) => r.iter().map(|(a, b)| Value::Pair(a, b)).collect(),
            Value::Coll(items) => items.as_ref().clone(),
            Value::Event(_) | Value::Pair(..) => vec![v],
            other => {
                return Err(self.err(
                    span,
                    format!("expected a set to range over, got {}", other.describe()),
                ))
            }
        })
    }

    fn set_literal(&self, vs: Vec<Value<'a>>) -> Value<'a> {
        if vs.is_empty() {
            return Value::Empty;
        }
        if vs.iter().all(|v| matches!(v, Value::Event(_))) {
            let mut s = self.empty_set();
            for v in &vs {
                if let Value::Event(e) = v {
                    s.insert(*e);
                }
            }
            return Value::Set(Rc::new(s));
        }
        if vs.iter().all(|v| matches!(v, Value::Pair(..))) {
            let mut r = self.empty_rel();
            for v in &vs {
                if let Value::Pair(a, b) = v {
                    r.insert(*a, *b);
                }
            }
            return Value::Rel(Rc::new(r));
        }
        let mut out: Vec<Value<'a>> = Vec::with_capacity(vs.len());
        for v in vs {
            if !out.iter().any(|x| self.equal(x, &v)) {
                out.push(v);
            }
        }
        Value::Coll(Rc::new(out))
    }

    // ----- operators -----------------------------------------------------------------

    /// Promotes an event to a singleton set and a pair to a singleton relation.
    fn promote(&self, v: Value<'a>) -> Value<'a> {
        match v {
            Value::Event(e) => Value::Set(Rc::new(BitSet::from_events(self.n, [e]))),
            Value::Pair(a, b) => Value::Rel(Rc::new(Relation::from_pairs(self.n, [(a, b)]))),
            v => v,
        }
    }

    fn as_rel(&self, v: Value<'a>, span: Span, op: &str) -> EResult<Rc<Relation>> {
        match self.promote(v) {
            Value::Rel(r) => Ok(r),
            Value::Empty => Ok(Rc::new(self.empty_rel())),
            Value::Set(_) => Err(self.err(
                span,
                format!("`{op}` applies to relations, got an event set (use `[S]` for the identity on S)"),
            )),
            other => Err(self.err(span, format!("`{op}` applies to relations, got {}", other.describe()))),
        }
    }

    fn as_set(&self, v: Value<'a>, span: Span, op: &str) -> EResult<Rc<BitSet>> {
        match self.promote(v) {
            Value::Set(s) => Ok(s),
            Value::Empty => Ok(Rc::new(self.empty_set())),
            other => Err(self.err(
                span,
                format!("`{op}` expects an event set, got {}", other.describe()),
            )),
        }
    }

    fn unary(&self, op: UnOp, v: Value<'a>, span: Span) -> EResult<Value<'a>> {
        let rel = |r: Relation| Ok(Value::Rel(Rc::new(r)));
        match op {
            UnOp::Identity => Ok(Value::Rel(Rc::new(Relation::identity_on(
                &*self.as_set(v, span, "[...]")?,
            )))),
            UnOp::Complement => match self.promote(v) {
                Value::Set(s) => Ok(Value::Set(Rc::new(s.complement()))),
                Value::Rel(r) => rel(r.complement()),
                Value::Empty => rel(Relation::full(self.n)),
                other => Err(self.err(
                    span,
                    format!(
                        "`~` applies to event sets and relations, got {}",
                        other.describe()
                    ),
                )),
            },
            UnOp::Plus => match v {
                Value::Empty => Ok(Value::Empty),
                v => rel(self.as_rel(v, span, "+")?.transitive_closure()),
            },
            UnOp::Star => rel(self.as_rel(v, span, "*")?.reflexive_transitive_closure()),
            UnOp::Opt => rel(self.as_rel(v, span, "?")?.reflexive_closure()),
            UnOp::Inverse => match v {
                Value::Empty => Ok(Value::Empty),
                v => rel(self.as_rel(v, span, "^-1")?.inverse()),
            },
        }
    }

    fn binary(&self, op: BinOp, a: Value<'a>, b: Value<'a>, span: Span) -> EResult<Value<'a>> {
        let a = self.promote(a);
        let b = self.promote(b);
        let mismatch = |a: &Value<'a>, b: &Value<'a>| {
            self.err(
                span,
                format!(
                    "`{}` cannot combine {} with {}",
                    op.text(),
                    a.describe(),
                    b.describe()
                ),
            )
        };
        match op {
            BinOp::Union => Ok(match (a, b) {
                (Value::Empty, x) | (x, Value::Empty) => x,
                (Value::Set(mut x), Value::Set(y)) => {
                    Rc::make_mut(&mut x).union_with(&y);
                    Value::Set(x)
                }
                (Value::Rel(mut x), Value::Rel(y)) => {
                    Rc::make_mut(&mut x).union_with(&y);
                    Value::Rel(x)
                }
                (Value::Coll(x), Value::Coll(y)) => {
                    let mut out = x.as_ref().clone();
                    for v in y.iter() {
                        if !out.iter().any(|z| self.equal(z, v)) {
                            out.push(v.clone());
                        }
                    }
                    Value::Coll(Rc::new(out))
                }
                (a, b) => return Err(mismatch(&a, &b)),
            }),
            BinOp::Inter => Ok(match (a, b) {
                (Value::Empty, _) | (_, Value::Empty) => Value::Empty,
                (Value::Set(mut x), Value::Set(y)) => {
                    Rc::make_mut(&mut x).intersect_with(&y);
                    Value::Set(x)
                }
                (Value::Rel(x), Value::Rel(y)) => Value::Rel(Rc::new(x.intersection(&y))),
                (Value::Coll(x), Value::Coll(y)) => Value::Coll(Rc::new(
                    x.iter()
                        .filter(|v| y.iter().any(|z| self.equal(z, v)))
                        .cloned()
                        .collect(),
                )),
                (a, b) => return Err(mismatch(&a, &b)),
            }),
            BinOp::Diff => Ok(match (a, b) {
                (Value::Empty, _) => Value::Empty,
                (x, Value::Empty) => x,
                (Value::Set(mut x), Value::Set(y)) => {
                    Rc::make_mut(&mut x).difference_with(&y);
                    Value::Set(x)
                }
                (Value::Rel(x), Value::Rel(y)) => Value::Rel(Rc::new(x.difference(&y))),
                (Value::Coll(x), Value::Coll(y)) => Value::Coll(Rc::new(
                    x.iter()
                        .filter(|v| !y.iter().any(|z| self.equal(z, v)))
                        .cloned()
                        .collect(),
                )),
                (a, b) => return Err(mismatch(&a, &b)),
            }),
            BinOp::Seq => match (a, b) {
                (Value::Empty, Value::Empty | Value::Rel(_)) | (Value::Rel(_), Value::Empty) => {
                    Ok(Value::Empty)
                }
                (Value::Rel(x), Value::Rel(y)) => Ok(Value::Rel(Rc::new(x.compose(&y)))),
                (a, b) => {
                    if matches!(a, Value::Set(_)) || matches!(b, Value::Set(_)) {
                        Err(self.err(
                            span,
                            "`;` composes relations, got an event set (use `[S]` for the identity on S)",
                        ))
                    } else {
                        Err(mismatch(&a, &b))
                    }
                }
            },
            BinOp::Cartesian => {
                let x = self.as_set(a, span, "*")?;
                let y = self.as_set(b, span, "*")?;
                Ok(Value::Rel(Rc::new(Relation::cartesian(&x, &y))))
            }
            BinOp::Add => self.add(a, b, span),
        }
    }

    /// `x ++ s`: `s` with one more element.
    fn add(&self, x: Value<'a>, s: Value<'a>, span: Span) -> EResult<Value<'a>> {
        Ok(match (x, s) {
            (Value::Event(e), Value::Set(mut s)) => {
                Rc::make_mut(&mut s).insert(e);
                Value::Set(s)
            }
            (Value::Event(e), Value::Empty) => {
                Value::Set(Rc::new(BitSet::from_events(self.n, [e])))
            }
            (Value::Pair(a, b), Value::Rel(mut r)) => {
                Rc::make_mut(&mut r).insert(a, b);
                Value::Rel(r)
            }
            (Value::Pair(a, b), Value::Empty) => {
                Value::Rel(Rc::new(Relation::from_pairs(self.n, [(a, b)])))
            }
            (x, Value::Empty) => Value::Coll(Rc::new(vec![x])),
            (x, Value::Coll(items)) => {
                if items.iter().any(|z| self.equal(z, &x)) {
                    Value::Coll(items)
                } else {
                    let mut v = Vec::with_capacity(items.len() + 1);
                    v.push(x);
                    v.extend(items.iter().cloned());
                    Value::Coll(Rc::new(v))
                }
            }
            (x, s) => {
                return Err(self.err(
                    span,
                    format!(
                        "`++` adds an element to a set; cannot add {} to {}",
                        x.describe(),
                        s.describe()
                    ),
                ))
            }
        })
    }

    /// Structural equality; empty collections of any kind are equal.
    fn equal(&self, a: &Value<'a>, b: &Value<'a>) -> bool {
        fn is_empty(v: &Value<'_>) -> bool {
            match v {
                Value::Empty => true,
                Value::Set(s) => s.is_empty(),
                Value::Rel(r) => r.is_empty(),
                Value::Coll(c) => c.is_empty(),
                _ => false,
            }
        }
        if is_empty(a) || is_empty(b) {
            return is_empty(a) && is_empty(b);
        }
        match (a, b) {
            (Value::Set(x), Value::Set(y)) => x == y,
            (Value::Rel(x), Value::Rel(y)) => x == y,
            (Value::Event(x), Value::Event(y)) => x == y,
            (Value::Pair(a1, b1), Value::Pair(a2, b2)) => a1 == a2 && b1 == b2,
            (Value::Event(e), Value::Set(s)) | (Value::Set(s), Value::Event(e)) => {
                s.len() == 1 && s.contains(*e)
            }
            (Value::Pair(p, q), Value::Rel(r)) | (Value::Rel(r), Value::Pair(p, q)) => {
                r.len() == 1 && r.contains(*p, *q)
            }
            (Value::Tag(x), Value::Tag(y)) => x == y,
            (Value::Tuple(x), Value::Tuple(y)) => {
                x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| self.equal(p, q))
            }
            (Value::Coll(x), Value::Coll(y)) => {
                x.len() == y.len() && x.iter().all(|p| y.iter().any(|q| self.equal(p, q)))
            }
            (Value::Closure(x), Value::Closure(y)) => Rc::ptr_eq(x, y),
            (Value::Proc(x), Value::Proc(y)) => Rc::ptr_eq(x, y),
            (Value::Prim(x), Value::Prim(y)) => x == y,
            _ => false,
        }
    }

    fn show(&self, v: &Value<'a>) -> String {
        ShowValue(self, v).to_string()
    }

    // ----- functions -----------------------------------------------------------------

    #[inline(never)]
    fn apply(&self, f: Value<'a>, arg: Value<'a>, span: Span) -> EResult<Value<'a>> {
        match f {
            Value::Closure(c) => {
                let _g = self.enter(span)?;
                let mut env = c.env.clone();
                if let Some(group) = &c.rec {
                    env = self.bind_group(&env, group);
                }
                let env = self.bind_pat(&env, &c.def.pat, arg, span)?;
                self.eval(&c.def.body, &env)
            }
            Value::Prim(p) => self.prim(p, arg, span),
            Value::Mapper(f) => {
                let _g = self.enter(span)?;
                let mut out = Vec::new();
                for x in self.elements(arg, span)? {
                    out.push(self.apply((*f).clone(), x, span)?);
                }
                Ok(self.set_literal(out))
            }
            other => Err(self.err(
                span,
                format!("cannot apply {}: it is not a function", other.describe()),
            )),
        }
    }

    fn prim(&self, p: Prim, arg: Value<'a>, span: Span) -> EResult<Value<'a>> {
        let set = |s: BitSet| Ok(Value::Set(Rc::new(s)));
        let rel = |r: Relation| Ok(Value::Rel(Rc::new(r)));
        match p {
            Prim::Domain => match arg {
                Value::Empty => Ok(Value::Empty),
                a => set(self.as_rel(a, span, "domain")?.domain()),
            },
            Prim::Range => match arg {
                Value::Empty => Ok(Value::Empty),
                a => set(self.as_rel(a, span, "range")?.range()),
            },
            Prim::Fencerel | Prim::Ctrlcfence => {
                // fencerel(S) = (po & (_ * S)); po — ctrlcfence(S) = (ctrl & (_ * S)); po.
                let s = self.as_set(arg, span, "fencerel")?;
                let first = if p == Prim::Fencerel { "po" } else { "ctrl" };
                let po = self.base_rel("po", span, "fencerel")?;
                let r = self.base_rel(first, span, "fencerel")?;
                let to_s = r.restrict(&BitSet::full(self.n), &s);
                rel(to_s.compose(&po))
            }
            Prim::Partition => {
                // Events of S grouped by location (classes of `loc`).
                let s = self.as_set(arg, span, "classes-loc")?;
                let loc = self.base_rel("loc", span, "classes-loc")?;
                let mut seen = self.empty_set();
                let mut classes = Vec::new();
                for e in s.iter() {
                    if seen.contains(e) || !loc.contains(e, e) {
                        continue;
                    }
                    let class = loc.successor_set(e).intersection(&s);
                    seen.union_with(&class);
                    classes.push(Value::Set(Rc::new(class)));
                }
                Ok(if classes.is_empty() {
                    Value::Empty
                } else {
                    Value::Coll(Rc::new(classes))
                })
            }
            Prim::Linearisations => {
                let (s, r) = match &arg {
                    Value::Tuple(t) if t.len() == 2 => (
                        self.as_set(t[0].clone(), span, "linearisations")?,
                        self.as_rel(t[1].clone(), span, "linearisations")?,
                    ),
                    other => {
                        return Err(self.err(
                            span,
                            format!(
                                "`linearisations` expects (set, relation), got {}",
                                other.describe()
                            ),
                        ))
                    }
                };
                self.linearisations(&s, &r, span)
            }
            Prim::Cross => self.cross(arg, span),
            Prim::Tag2Events | Prim::Tag2Scope => {
                let Value::Tag(t) = arg else {
                    return Err(self.err(span, format!("expected a tag, got {}", arg.describe())));
                };
                let name = self.sym(t).trim_start_matches('\'');
                let v = self.base(name, span)?;
                match (p, v) {
                    (Prim::Tag2Events, Some(v @ Value::Set(_)))
                    | (Prim::Tag2Scope, Some(v @ Value::Rel(_))) => Ok(v),
                    _ => Err(self.err(
                        span,
                        format!(
                            "the execution has no {} for tag `'{name}`",
                            if p == Prim::Tag2Events {
                                "event set"
                            } else {
                                "scope relation"
                            }
                        ),
                    )),
                }
            }
            Prim::Toid => rel(Relation::identity_on(&*self.as_set(arg, span, "toid")?)),
            Prim::Noid => rel(self
                .as_rel(arg, span, "noid")?
                .difference(&Relation::identity(self.n))),
            Prim::Singlestep => {
                let r = self.as_rel(arg, span, "singlestep")?;
                rel(r.difference(&r.compose(&r)))
            }
            Prim::Imply | Prim::Nodetour => {
                let (name, arity) = if p == Prim::Imply {
                    ("imply", 2)
                } else {
                    ("nodetour", 3)
                };
                let items = match &arg {
                    Value::Tuple(t) if t.len() == arity => t.as_ref().clone(),
                    other => {
                        return Err(self.err(
                            span,
                            format!(
                                "`{name}` expects a tuple of {arity} values, got {}",
                                other.describe()
                            ),
                        ))
                    }
                };
                if p == Prim::Imply {
                    let a = self.unary(UnOp::Complement, items[0].clone(), span)?;
                    self.binary(BinOp::Union, a, items[1].clone(), span)
                } else {
                    let detour =
                        self.binary(BinOp::Seq, items[1].clone(), items[2].clone(), span)?;
                    self.binary(BinOp::Diff, items[0].clone(), detour, span)
                }
            }
            Prim::Map => match arg {
                f @ (Value::Closure(_) | Value::Prim(_) | Value::Mapper(_)) => {
                    Ok(Value::Mapper(Rc::new(f)))
                }
                other => Err(self.err(
                    span,
                    format!("`map` expects a function, got {}", other.describe()),
                )),
            },
            Prim::Filter(a, b) => {
                let r = self.as_rel(arg, span, "filter")?;
                let kind = |c: u8| -> EResult<Rc<BitSet>> {
                    let name = match c {
                        b'R' => "R",
                        b'W' => "W",
                        _ => "M",
                    };
                    match self.global(name, span)? {
                        Some(Value::Set(s)) => Ok(s),
                        _ => Err(self.err(span, format!("the execution provides no set `{name}`"))),
                    }
                };
                rel(r.restrict(&*kind(a)?, &*kind(b)?))
            }
        }
    }

    /// All strict total orders of `s` that contain `r` restricted to `s` (herd's
    /// `linearisations`, manual §"Sequential consistency, total order definition"):
    /// backtracking over the events with no unplaced predecessor, with an explicit stack.
    fn linearisations(&self, s: &BitSet, r: &Relation, span: Span) -> EResult<Value<'a>> {
        let events: Vec<usize> = s.iter().collect();
        let k = events.len();
        let idx: HashMap<usize, usize> = events.iter().enumerate().map(|(i, &e)| (e, i)).collect();
        let succ: Vec<Vec<usize>> = events
            .iter()
            .map(|&a| {
                r.successors(a)
                    .filter_map(|b| idx.get(&b).copied())
                    .collect()
            })
            .collect();
        let mut preds = vec![0usize; k];
        for (i, ss) in succ.iter().enumerate() {
            for &j in ss {
                if i == j {
                    return Ok(Value::Empty);
                }
                preds[j] += 1;
            }
        }
        let mut out = Vec::new();
        let mut used = vec![false; k];
        let mut order: Vec<usize> = Vec::with_capacity(k);
        // next[level]: the first candidate index still to try at that level.
        let mut next: Vec<usize> = vec![0];
        while let Some(&from) = next.last() {
            let level = order.len();
            let pick = if level == k {
                None
            } else {
                (from..k).find(|&i| !used[i] && preds[i] == 0)
            };
            if level == k {
                if out.len() >= self.opts.max_enumeration {
                    return Err(self.limit(
                        span,
                        format!(
                            "`linearisations` would build more than {} orders",
                            self.opts.max_enumeration
                        ),
                    ));
                }
                let mut rel = self.empty_rel();
                for (p, &a) in order.iter().enumerate() {
                    for &b in &order[p + 1..] {
                        rel.insert(events[a], events[b]);
                    }
                }
                out.push(Value::Rel(Rc::new(rel)));
            }
            match pick {
                Some(i) => {
                    if let Some(top) = next.last_mut() {
                        *top = i + 1;
                    }
                    used[i] = true;
                    for &j in &succ[i] {
                        preds[j] -= 1;
                    }
                    order.push(i);
                    next.push(0);
                }
                None => {
                    next.pop();
                    if let Some(i) = order.pop() {
                        used[i] = false;
                        for &j in &succ[i] {
                            preds[j] += 1;
                        }
                    }
                }
            }
        }
        Ok(if out.is_empty() {
            Value::Empty
        } else {
            Value::Coll(Rc::new(out))
        })
    }

    /// `cross({S1, ..., Sn})`: every union `e1 | ... | en` with each `ei` picked in `Si`.
    fn cross(&self, arg: Value<'a>, span: Span) -> EResult<Value<'a>> {
        let families = self.elements(arg, span)?;
        let mut acc: Vec<Value<'a>> = vec![Value::Empty];
        for fam in families {
            let choices = self.elements(fam, span)?;
            let mut next = Vec::new();
            for a in &acc {
                for c in &choices {
                    let u = self.binary(BinOp::Union, a.clone(), c.clone(), span)?;
                    if !next.iter().any(|z| self.equal(z, &u)) {
                        next.push(u);
                    }
                    if next.len() > self.opts.max_enumeration {
                        return Err(self.limit(
                            span,
                            format!(
                                "`cross` would build more than {} values",
                                self.opts.max_enumeration
                            ),
                        ));
                    }
                }
            }
            acc = next;
        }
        Ok(Value::Coll(Rc::new(acc)))
    }
}

struct ShowValue<'i, 'a, 'x>(&'i Interp<'a, 'x>, &'i Value<'a>);

impl fmt::Display for ShowValue<'_, '_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ShowValue(interp, v) = *self;
        match v {
            Value::Empty => write!(f, "{{}}"),
            Value::Set(s) => write!(f, "{s:?}"),
            Value::Rel(r) => write!(f, "{r:?}"),
            Value::Event(e) => write!(f, "{e}"),
            Value::Pair(a, b) => write!(f, "({a}, {b})"),
            Value::Tag(t) => write!(f, "{}", interp.sym(*t)),
            Value::Tuple(items) | Value::Coll(items) => {
                let (open, close) = if matches!(v, Value::Tuple(_)) {
                    ("(", ")")
                } else {
                    ("{", "}")
                };
                write!(f, "{open}")?;
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{}", ShowValue(interp, x))?;
                }
                write!(f, "{close}")
            }
            Value::Closure(_) | Value::Prim(_) | Value::Mapper(_) => write!(f, "<function>"),
            Value::Proc(_) => write!(f, "<procedure>"),
        }
    }
}
