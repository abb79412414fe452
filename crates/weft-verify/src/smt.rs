//! The SMT solver as a separate process: z3 (`z3 -in -smt2`) or cvc5, driven incrementally
//! over pipes (`push`/`check-sat`/`get-value`/`pop`), with a per-query timeout.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::Instant;

/// An error talking to the solver process; its text is the message the verifier reports.
/// (Its I/O errors are shared, so that it can be cloned with the verifier's errors.)
#[derive(Clone, Debug, thiserror::Error)]
pub enum SmtError {
    #[error("cannot run the solver `{solver}`: {source}")]
    Start {
        solver: &'static str,
        source: Arc<std::io::Error>,
    },
    /// A pipe to the solver that could not be taken (`solver stdin`, `solver stdout`).
    #[error("{0}")]
    Pipe(&'static str),
    #[error("writing to the solver: {0}")]
    Write(Arc<std::io::Error>),
    #[error("reading from the solver: {0}")]
    Read(Arc<std::io::Error>),
    #[error("the solver exited unexpectedly")]
    Exited,
    /// An answer that is none of `sat`, `unsat`, `unknown`.
    #[error("solver error: {0}")]
    Answer(String),
}

/// The symbolic execution (`exec/`) still reports its errors as text: a solver error met
/// there becomes its message.
impl From<SmtError> for String {
    fn from(e: SmtError) -> String {
        e.to_string()
    }
}

/// Which solver to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SolverKind {
    Z3,
    Cvc5,
}

impl SolverKind {
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Cvc5 => "cvc5",
        }
    }
    pub fn parse(s: &str) -> Option<SolverKind> {
        match s {
            "z3" => Some(SolverKind::Z3),
            "cvc5" => Some(SolverKind::Cvc5),
            _ => None,
        }
    }
}

/// The reason of an `unknown` answer given because the run's time limit was reached.
pub const TIME_LIMIT: &str = "time limit of the run reached";

/// One satisfiability question: is `formula` satisfiable? On sat, the values of `values`.
#[derive(Clone, Debug)]
pub struct Query {
    pub formula: String,
    pub values: Vec<String>,
}

/// The solver's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Satisfiable, with `(expression, value)` pairs.
    Sat(Vec<(String, String)>),
    Unsat,
    /// Timeout or incomplete.
    Unknown(String),
}

/// A running solver.
pub struct Solver {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The option and logic commands sent at start and after each `reset`.
    init: String,
    kind: SolverKind,
    /// The per-query timeout the solver was started with.
    timeout_ms: u64,
    /// The whole run's end (`weft verify --timeout`): past it every query is `unknown`
    /// without asking, and before it no query may run beyond it.
    deadline: Option<Instant>,
    /// The z3 timeout option last sent (to send it again only when it changes).
    sent_timeout_ms: u64,
}

impl Solver {
    /// Starts the solver with a per-query timeout in milliseconds.
    pub fn start(kind: SolverKind, timeout_ms: u64) -> Result<Solver, SmtError> {
        Solver::start_until(kind, timeout_ms, None)
    }

    /// Starts the solver with a per-query timeout and the whole run's deadline: no query
    /// runs past `deadline`, and one asked after it is answered `unknown` at once.
    pub fn start_until(
        kind: SolverKind,
        timeout_ms: u64,
        deadline: Option<Instant>,
    ) -> Result<Solver, SmtError> {
        let mut cmd = Command::new(kind.name());
        weft_cuda::child::die_with_parent(&mut cmd);
        match kind {
            SolverKind::Z3 => {
                cmd.args(["-in", "-smt2"]);
            }
            SolverKind::Cvc5 => {
                cmd.args([
                    "--lang=smt2",
                    "--incremental",
                    "--produce-models",
                    &format!("--tlimit-per={timeout_ms}"),
                ]);
            }
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| SmtError::Start {
                solver: kind.name(),
                source: Arc::new(source),
            })?;
        let stdin = child.stdin.take().ok_or(SmtError::Pipe("solver stdin"))?;
        let stdout = BufReader::new(child.stdout.take().ok_or(SmtError::Pipe("solver stdout"))?);
        let mut s = Solver {
            child,
            stdin,
            stdout,
            init: String::new(),
            kind,
            timeout_ms,
            deadline,
            sent_timeout_ms: timeout_ms,
        };
        let mut init = String::from("(set-option :print-success false)\n");
        if kind == SolverKind::Z3 {
            init.push_str("(set-option :produce-models true)\n");
            init.push_str(&format!("(set-option :timeout {timeout_ms})\n"));
        }
        init.push_str("(set-logic ALL)\n");
        s.send(&init)?;
        s.init = init;
        Ok(s)
    }

    fn send(&mut self, text: &str) -> Result<(), SmtError> {
        self.stdin
            .write_all(text.as_bytes())
            .and_then(|_| self.stdin.flush())
            .map_err(|e| SmtError::Write(Arc::new(e)))
    }

    fn read_sexp(&mut self) -> Result<String, SmtError> {
        let mut out = String::new();
        let mut depth = 0i64;
        loop {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .map_err(|e| SmtError::Read(Arc::new(e)))?;
            if n == 0 {
                return Err(SmtError::Exited);
            }
            for c in line.chars() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            out.push_str(&line);
            if depth <= 0 && !out.trim().is_empty() {
                return Ok(out.trim().to_string());
            }
        }
    }

    /// Sends declarations (no answer expected).
    pub fn declare(&mut self, decls: &str) -> Result<(), SmtError> {
        self.send(decls)
    }

    /// Asks one query inside `push`/`pop`.
    pub fn ask(&mut self, q: &Query) -> Result<Answer, SmtError> {
        self.ask_with(q, self.timeout_ms)
    }

    /// [`Solver::ask`] with z3's timeout `want_ms` (lowered to end by the deadline).
    fn ask_with(&mut self, q: &Query, want_ms: u64) -> Result<Answer, SmtError> {
        if let Some(a) = self.before_query(want_ms)? {
            return Ok(a);
        }
        self.send(&format!("(push 1)\n(assert {})\n(check-sat)\n", q.formula))?;
        let ans = self.answer(q)?;
        self.send("(pop 1)\n")?;
        Ok(ans)
    }

    /// Asks one query inside `push`/`pop` with its own timeout (z3 only; the session's
    /// timeout is set back afterwards).
    pub fn ask_within(&mut self, q: &Query, ms: u64, session_ms: u64) -> Result<Answer, SmtError> {
        if self.kind != SolverKind::Z3 {
            return self.ask(q);
        }
        let a = self.ask_with(q, ms);
        self.timeout_ms = session_ms;
        a
    }

    /// Asks one query alone: `reset`, then `decls` (everything the query needs), the
    /// assertion and `check-sat`. A solver that has seen no `push` and no earlier
    /// `check-sat` answers with its non-incremental strategy: z3 4.8.12 then bit-blasts
    /// with its `qfbv`-style tactics, measured 3-4x faster on weft's Houdini queries than
    /// the incremental core that `push`/`pop` selects (docs/perf.md).
    pub fn ask_alone(&mut self, decls: &str, q: &Query) -> Result<Answer, SmtError> {
        if self.past_deadline() {
            return Ok(Answer::Unknown(TIME_LIMIT.into()));
        }
        let init = self.init_within_deadline();
        self.send(&format!(
            "(reset)\n{init}{decls}(assert {})\n(check-sat)\n",
            q.formula
        ))?;
        self.answer(q)
    }

    /// Forgets everything (`reset`) and sends `decls`, the start of a new session of
    /// incremental queries (`ask`).
    pub fn restart(&mut self, decls: &str) -> Result<(), SmtError> {
        let init = self.init_within_deadline();
        self.send(&format!("(reset)\n{init}{decls}"))
    }

    /// True once the whole run's deadline has passed.
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Milliseconds left before the deadline (`u64::MAX` without one).
    fn left_ms(&self) -> u64 {
        match self.deadline {
            Some(d) => d.saturating_duration_since(Instant::now()).as_millis() as u64,
            None => u64::MAX,
        }
    }

    /// Before a `check-sat` in the current session: `unknown` past the deadline; otherwise
    /// lowers z3's timeout (normally `want_ms`) so that the query ends by the deadline.
    fn before_query(&mut self, want_ms: u64) -> Result<Option<Answer>, SmtError> {
        if self.past_deadline() {
            return Ok(Some(Answer::Unknown(TIME_LIMIT.into())));
        }
        let ms = want_ms.min(self.left_ms()).max(1);
        if self.kind == SolverKind::Z3 && ms != self.sent_timeout_ms {
            self.send(&format!("(set-option :timeout {ms})\n"))?;
            self.sent_timeout_ms = ms;
        }
        Ok(None)
    }

    /// The start-up commands for a `reset` session, with z3's timeout lowered to what is
    /// left before the deadline.
    fn init_within_deadline(&mut self) -> String {
        let ms = self.timeout_ms.min(self.left_ms()).max(1);
        self.sent_timeout_ms = self.timeout_ms;
        if self.kind != SolverKind::Z3 || ms == self.timeout_ms {
            return self.init.clone();
        }
        self.sent_timeout_ms = ms;
        self.init.replace(
            &format!("(set-option :timeout {})\n", self.timeout_ms),
            &format!("(set-option :timeout {ms})\n"),
        )
    }

    /// Reads the answer to a `check-sat` (and the values of `q.values` on sat).
    fn answer(&mut self, q: &Query) -> Result<Answer, SmtError> {
        let r = self.read_sexp()?;
        let ans = match r.as_str() {
            "sat" => {
                let mut vals = Vec::new();
                if !q.values.is_empty() {
                    self.send(&format!("(get-value ({}))\n", q.values.join(" ")))?;
                    let v = self.read_sexp()?;
                    vals = parse_values(&v, &q.values);
                }
                Answer::Sat(vals)
            }
            "unsat" => Answer::Unsat,
            "unknown" => {
                self.send("(get-info :reason-unknown)\n")?;
                let why = self.read_sexp().unwrap_or_default();
                Answer::Unknown(why)
            }
            other => return Err(SmtError::Answer(other.to_string())),
        };
        Ok(ans)
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        let _ = self.send("(exit)\n");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Pairs the `get-value` answer `((e1 v1) (e2 v2))` with the asked expressions.
fn parse_values(text: &str, asked: &[String]) -> Vec<(String, String)> {
    // Tokenise into top-level pairs by paren depth.
    let inner = text.trim();
    let inner = inner
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or(inner);
    let mut pairs = Vec::new();
    let mut depth = 0;
    let mut start = None;
    for (i, c) in inner.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    start = Some(i);
                }
                depth += 1;
            }
            ')' => {
                depth -= 1;
                if depth == 0 {
                    if let Some(s) = start.take() {
                        pairs.push(&inner[s + 1..i]);
                    }
                }
            }
            _ => {}
        }
    }
    asked
        .iter()
        .zip(pairs)
        .map(|(a, p)| {
            let p = p.trim();
            let v = p.strip_prefix(a.as_str()).unwrap_or(p).trim();
            (a.clone(), decode_value(v))
        })
        .collect()
}

/// `#x1f` / `#b101` / `(_ bv31 32)` / `true` as a decimal string or `true`/`false`.
pub fn decode_value(v: &str) -> String {
    let v = v.trim();
    if let Some(h) = v.strip_prefix("#x") {
        if let Ok(n) = u64::from_str_radix(h, 16) {
            return n.to_string();
        }
    }
    if let Some(b) = v.strip_prefix("#b") {
        if let Ok(n) = u64::from_str_radix(b, 2) {
            return n.to_string();
        }
    }
    if let Some(r) = v.strip_prefix("(_ bv") {
        if let Some(n) = r.split_whitespace().next() {
            return n.to_string();
        }
    }
    v.to_string()
}

/// Is the solver installed?
pub fn available(kind: SolverKind) -> bool {
    Command::new(kind.name())
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_decode() {
        assert_eq!(decode_value("#x0000001f"), "31");
        assert_eq!(decode_value("#b101"), "5");
        assert_eq!(decode_value("(_ bv7 32)"), "7");
        let v = parse_values("((a #x00000001)\n (t12 true))", &["a".into(), "t12".into()]);
        assert_eq!(v[0].1, "1");
        assert_eq!(v[1].1, "true");
    }

    /// The solver's errors keep the messages the verifier printed when they were text
    /// (`weft: ...`, exit 3), through `VerifyError` and through the execution's text errors.
    #[test]
    fn error_messages() {
        let gone = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e = SmtError::Start {
            solver: "z3",
            source: Arc::new(gone),
        };
        assert_eq!(e.to_string(), "cannot run the solver `z3`: gone");
        let e = SmtError::Answer("(error \"x\")".into());
        assert_eq!(
            crate::VerifyError::from(e.clone()).to_string(),
            "solver error: (error \"x\")"
        );
        assert_eq!(String::from(e), "solver error: (error \"x\")");
        let e = crate::VerifyError::from(SmtError::Exited);
        assert_eq!(e.to_string(), "the solver exited unexpectedly");
        assert_eq!(SmtError::Pipe("solver stdin").to_string(), "solver stdin");
    }

    #[test]
    fn z3_answers() {
        if !available(SolverKind::Z3) {
            return;
        }
        let mut s = Solver::start(SolverKind::Z3, 5000).unwrap();
        s.declare("(declare-const x (_ BitVec 8))\n").unwrap();
        let a = s
            .ask(&Query {
                formula: "(= (bvadd x #x01) #x00)".into(),
                values: vec!["x".into()],
            })
            .unwrap();
        assert_eq!(a, Answer::Sat(vec![("x".into(), "255".into())]));
        let b = s
            .ask(&Query {
                formula: "(bvult x #x00)".into(),
                values: vec![],
            })
            .unwrap();
        assert_eq!(b, Answer::Unsat);
    }

    /// `ask_alone` forgets everything before it: the second query redeclares `x` with
    /// another sort, which only parses after the `reset`, and its answer is the one
    /// derived by hand (x = 0xff is the only 8-bit x with x + 1 = 0; a 16-bit x with
    /// x + 1 = 0 is 0xffff).
    #[test]
    fn z3_alone() {
        if !available(SolverKind::Z3) {
            return;
        }
        let mut s = Solver::start(SolverKind::Z3, 5000).unwrap();
        let q8 = Query {
            formula: "(= (bvadd x #x01) #x00)".into(),
            values: vec!["x".into()],
        };
        let a = s
            .ask_alone("(declare-const x (_ BitVec 8))\n", &q8)
            .unwrap();
        assert_eq!(a, Answer::Sat(vec![("x".into(), "255".into())]));
        let q16 = Query {
            formula: "(= (bvadd x #x0001) #x0000)".into(),
            values: vec!["x".into()],
        };
        let b = s
            .ask_alone("(declare-const x (_ BitVec 16))\n", &q16)
            .unwrap();
        assert_eq!(b, Answer::Sat(vec![("x".into(), "65535".into())]));
        let c = s
            .ask_alone(
                "(declare-const x (_ BitVec 16))\n",
                &Query {
                    formula: "(bvult x #x0000)".into(),
                    values: vec![],
                },
            )
            .unwrap();
        assert_eq!(c, Answer::Unsat);
    }
}
