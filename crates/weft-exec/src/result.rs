//! The outcome of judging a litmus program's executions under one model, as herd7 reports
//! it: reachable final states (listed, or in product form), the condition's verdict,
//! witness counts, flags, and what stopped the enumeration early. Both the simulator and
//! the model checker fill a [`SimResult`]; the herd-style spelling of terms, conditions
//! and state columns lives here too so that both print identically.

use std::collections::BTreeMap;

use weft_ir::{Condition, Program, Prop, Quantifier, Term};

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
    /// the simulator's `max_states`): pairwise disjoint and disjoint from `states`.
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
    /// Whether enumeration stopped at the simulator's `timeout` (the states are partial).
    pub timed_out: bool,
    /// Whether enumeration stopped at the simulator's `max_memory` (the states are partial).
    pub memory_limited: bool,
    /// DOT graphs of witness executions (see the simulator's `keep_witnesses`).
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

/// A set of final states in product form: every combination of one value tuple per group
/// of columns. The terms of one result are pairwise disjoint and disjoint from its
/// listed states, so their sizes add up to the number of distinct states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateTerm {
    /// Groups of column indices (into [`SimResult::columns`]) covering every column
    /// once, by first column, each with its alternative value tuples (one value per
    /// column of the group, as printed; sorted). A group of one tuple is fixed.
    pub groups: Vec<(Vec<usize>, Vec<Vec<String>>)>,
}

impl StateTerm {
    /// The number of states: the product of the groups' numbers of tuples.
    pub fn states(&self) -> u128 {
        self.groups
            .iter()
            .fold(1u128, |acc, (_, t)| acc.saturating_mul(t.len() as u128))
    }

    /// Whether the state `vals` (one value per column) is one of the term's.
    pub fn contains(&self, vals: &[String]) -> bool {
        self.groups.iter().all(|(cols, tuples)| {
            tuples
                .iter()
                .any(|t| cols.iter().zip(t).all(|(&c, v)| vals.get(c) == Some(v)))
        })
    }

    /// The printed line (docs/formats.md, "Product form"): columns in order, `c=v;` for a
    /// fixed column, `c∈{v1,v2};` for a column free on its own, and
    /// `(c1,c2)∈{(v1,v2),(v3,v4)};` at the first column of a group whose columns vary
    /// together.
    pub fn line(&self, columns: &[String]) -> String {
        let mut group_of = vec![(0usize, 0usize); columns.len()];
        for (g, (cols, _)) in self.groups.iter().enumerate() {
            for (i, &c) in cols.iter().enumerate() {
                if let Some(slot) = group_of.get_mut(c) {
                    *slot = (g, i);
                }
            }
        }
        let mut cells: Vec<String> = Vec::new();
        for (c, name) in columns.iter().enumerate() {
            let (g, i) = group_of[c];
            let Some((cols, tuples)) = self.groups.get(g) else {
                continue;
            };
            if tuples.len() == 1 {
                let v = tuples[0].get(i).map_or("?", String::as_str);
                cells.push(format!("{name}={v};"));
            } else if cols.len() == 1 {
                let vs: Vec<&str> = tuples
                    .iter()
                    .map(|t| t.first().map_or("?", String::as_str))
                    .collect();
                cells.push(format!("{name}∈{{{}}};", vs.join(",")));
            } else if i == 0 {
                let names: Vec<&str> = cols.iter().map(|&k| columns[k].as_str()).collect();
                let ts: Vec<String> = tuples
                    .iter()
                    .map(|t| format!("({})", t.join(",")))
                    .collect();
                cells.push(format!("({})∈{{{}}};", names.join(","), ts.join(",")));
            }
        }
        cells.join(" ")
    }
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
