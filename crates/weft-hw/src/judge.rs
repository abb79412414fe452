//! Judging hardware outcomes against a `.cat` model (issue 5, deliverable 3): the model's
//! allowed final states come from the simulator, which the caller lends ([`Simulate`]:
//! the binary passes `weft_sim::simulate_default`, so that this crate depends on no
//! engine), run on a copy of the
//! test that observes **every register of every thread and every cell of every location**,
//! i.e. exactly the columns a hardware `Outcome` reports (`weft_litmus::classify::Outcome`).
//! An observed outcome is *allowed* when its full state is one of the simulated states and
//! *forbidden* otherwise. When the simulation is incomplete (cut loops, unconverged value
//! domains, the candidate limit, undefined executions) an outcome outside the simulated set
//! gets no verdict rather than a false "forbidden".

use std::collections::{HashMap, HashSet};

use weft_exec::result::term_text;
use weft_exec::SimResult;
use weft_ir::{LocId, Program, Reg, Term};
use weft_litmus::classify::{address_value, Outcome};

/// The simulator a caller lends to compute a model's allowed final states of a program
/// (`weft_sim::simulate_default`); an error is the reason it could not.
pub type Simulate = fn(&Program, &weft_cat::Model) -> Result<SimResult, String>;

/// Every column a hardware outcome reports: each register of each thread (by thread, in
/// declaration order), then each cell of each location.
pub fn all_columns(p: &Program) -> Vec<Term> {
    let mut out = Vec::new();
    for (ti, th) in p.threads.iter().enumerate() {
        for ri in 0..th.regs.len() {
            out.push(Term::Reg {
                thread: ti,
                reg: Reg(ri as u32),
            });
        }
    }
    for (li, l) in p.locations.iter().enumerate() {
        for index in 0..l.size.max(1) {
            out.push(Term::Mem {
                loc: LocId(li as u32),
                index,
            });
        }
    }
    out
}

/// herd's spelling of a value: a location's name for an address (`x`, `x+1`), else the
/// integer. The same text the simulator gives its states.
pub fn value_text(p: &Program, v: i64) -> String {
    for (li, l) in p.locations.iter().enumerate() {
        for i in 0..l.size.max(1) {
            if v == address_value(LocId(li as u32), i) {
                return if i == 0 {
                    l.name.clone()
                } else {
                    format!("{}+{i}", l.name)
                };
            }
        }
    }
    v.to_string()
}

/// `(column, value)` texts of an outcome over [`all_columns`].
pub fn outcome_cells(p: &Program, o: &Outcome) -> Vec<(String, String)> {
    all_columns(p)
        .iter()
        .map(|t| (term_text(p, t), value_text(p, o.value(t))))
        .collect()
}

/// The canonical text of an outcome, as stored in the results database:
/// `1:r0=1; 1:r1=0; x=1; y=1` (every register, then every location).
pub fn outcome_text(p: &Program, o: &Outcome) -> String {
    outcome_cells(p, o)
        .iter()
        .map(|(c, v)| format!("{c}={v}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A model's verdict on one observed outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Allowed,
    Forbidden,
    /// The simulation was incomplete and the outcome is not among its states.
    Unknown,
}

impl Verdict {
    /// `allowed`, `forbidden`, or `?`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Forbidden => "forbidden",
            Verdict::Unknown => "?",
        }
    }

    /// The verdict as the results database stores it (none for `Unknown`).
    pub fn stored(self) -> Option<String> {
        match self {
            Verdict::Unknown => None,
            v => Some(v.name().to_string()),
        }
    }
}

/// The final states a model allows for one program, over every column.
pub struct Judge {
    pub model: String,
    /// The simulator's columns (texts), in its order.
    columns: Vec<String>,
    allowed: HashSet<Vec<String>>,
    /// Whether every allowed state is known (else outcomes outside the set are `Unknown`).
    pub complete: bool,
    /// Why the set is incomplete.
    pub note: Option<String>,
}

impl Judge {
    /// Simulates `p` under `model` with `simulate`, observing every column.
    pub fn new(
        p: &Program,
        model_name: &str,
        model: &weft_cat::Model,
        simulate: Simulate,
    ) -> Result<Judge, String> {
        let mut q = p.clone();
        q.observed = all_columns(p);
        let r = simulate(&q, model)?;
        Ok(Judge::from_result(model_name, &r))
    }

    /// Builds a judge from a finished simulation.
    pub fn from_result(model_name: &str, r: &SimResult) -> Judge {
        let mut why = Vec::new();
        if r.cut_traces > 0 {
            why.push("loops cut by the unroll bound");
        }
        if r.fault_traces > 0 {
            why.push("faulting traces");
        }
        if !r.converged {
            why.push("value domains did not converge");
        }
        if r.truncated {
            why.push("candidate limit reached");
        }
        if r.stopped_at_verdict {
            why.push("enumeration stopped early");
        }
        if r.undefined > 0 {
            why.push("the model leaves some executions undefined");
        }
        Judge {
            model: model_name.to_string(),
            columns: r.columns.clone(),
            allowed: r.states.keys().cloned().collect(),
            complete: why.is_empty(),
            note: if why.is_empty() {
                None
            } else {
                Some(why.join(", "))
            },
        }
    }

    /// Builds a judge from explicit states over `columns` (for tests).
    #[cfg(test)]
    pub fn from_states(model_name: &str, columns: &[&str], states: &[&[&str]]) -> Judge {
        Judge {
            model: model_name.to_string(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            allowed: states
                .iter()
                .map(|s| s.iter().map(|v| v.to_string()).collect())
                .collect(),
            complete: true,
            note: None,
        }
    }

    /// The model's verdict on an observed outcome of `p` (the program that ran).
    pub fn verdict(&self, p: &Program, o: &Outcome) -> Verdict {
        let cells: HashMap<String, String> = outcome_cells(p, o).into_iter().collect();
        self.verdict_cells(&cells)
    }

    /// The verdict on an outcome given as `column -> value` texts (as [`outcome_text`]
    /// writes them).
    pub fn verdict_cells(&self, cells: &HashMap<String, String>) -> Verdict {
        let key: Option<Vec<String>> = self.columns.iter().map(|c| cells.get(c).cloned()).collect();
        match key {
            Some(k) if self.allowed.contains(&k) => Verdict::Allowed,
            Some(_) if self.complete => Verdict::Forbidden,
            _ => Verdict::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mp() -> Program {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/corpus/gpuharbor/MP.json"
        );
        weft_litmus::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// MP's outcome with thread 1 reading `r0` from y and `r1` from x.
    fn mp_outcome(r0: i64, r1: i64) -> Outcome {
        Outcome {
            regs: vec![vec![], vec![r0, r1]],
            mem: vec![vec![1], vec![1]],
        }
    }

    #[test]
    fn outcome_text_names_every_register_and_location() {
        let p = mp();
        assert_eq!(
            outcome_text(&p, &mp_outcome(1, 0)),
            "1:r0=1; 1:r1=0; x=1; y=1"
        );
    }

    #[test]
    fn incomplete_sets_give_no_forbidden_verdict() {
        let p = mp();
        let mut j = Judge::from_states("m", &["1:r0", "1:r1", "x", "y"], &[&["0", "0", "1", "1"]]);
        assert_eq!(j.verdict(&p, &mp_outcome(0, 0)), Verdict::Allowed);
        assert_eq!(j.verdict(&p, &mp_outcome(1, 0)), Verdict::Forbidden);
        j.complete = false;
        assert_eq!(j.verdict(&p, &mp_outcome(1, 0)), Verdict::Unknown);
        // A column the outcome lacks cannot be judged.
        let k = Judge::from_states("m", &["2:r9"], &[&["0"]]);
        assert_eq!(k.verdict(&p, &mp_outcome(0, 0)), Verdict::Unknown);
    }
}
