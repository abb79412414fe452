//! weft-verify: static verification of GPU kernels in the style of GPUVerify, with warps and
//! atomics (paper 002). A kernel (weft's kernel IR, lowered from the PTX clang emits) is
//! proved free of data races, barrier divergence and failing `__assert`s for every thread
//! pair and every input, by the two-thread reduction ([`exec`]) over its CFG (weft-ir's
//! [`weft_ir::analysis::KCfg`]), terms ([`term`]) printed as SMT-LIB 2 and solved by z3 or
//! cvc5 run as processes ([`smt`]).
//!
//! - [`verify`] runs one kernel: one pass, or with `--warp-method two-pass` the intra-warp
//!   and inter-warp passes of paper 002 §3.2 in parallel; checks are solved in parallel
//!   batches (rayon), one incremental solver process per batch.
//! - [`header`]: the annotation header (`__assert`, `__requires`, `__invariant`, ...).
//! - [`text`]: the reports as `weft verify` prints them, and their exit status.
//! - [`confirm`]: what a `weft race --json` run of the same launch said (`--confirm`).
//! - [`unchecked`]: what weft deliberately does not check that GPUVerify does ("not checked").

pub mod alu;
pub mod confirm;
pub mod contract;
pub mod exec;
pub mod function_wide;
pub mod header;
pub mod load;
pub mod placement;
pub mod smt;
pub mod term;
pub mod text;
pub mod unchecked;

use std::collections::BTreeMap;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;
use weft_ir::analysis::KCfg;
use weft_ir::kernel::Kernel;

use exec::{Base, CheckKind, Exec, Pairs};
use smt::{Answer, Query, Solver};
pub use smt::{SmtError, SolverKind};
use term::Printer;

/// How warps are handled (paper 002 §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarpMethod {
    /// §3.1: logs reset whenever both threads of one warp are enabled.
    Resync,
    /// §3.2: an intra-warp and an inter-warp pass, run in parallel.
    TwoPass,
}

/// Verification options.
#[derive(Clone, Debug)]
pub struct Options {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// `*` dimensions: any extent within CUDA's launch limits (the fixed value is unused).
    pub grid_any: [bool; 3],
    pub block_any: [bool; 3],
    /// Warp size (for `%laneid`, `__syncwarp` and lock-step).
    pub warp_size: u32,
    /// Threads of one warp execute in lock-step (GPUVerify's `--warp-sync`).
    pub lockstep: bool,
    pub warp_method: WarpMethod,
    /// Equality abstraction for arrays never accessed atomically (else adversarial).
    pub equality: bool,
    pub only_intra_group: bool,
    pub only_inter_group: bool,
    /// GPUVerify's `--only-warp`: only pairs of threads of one warp are checked.
    pub only_warp: bool,
    /// GPUVerify's default tolerance of benign races (off with `--no-benign-tolerance`): a
    /// write of the value the other thread wrote (or read) at the same offset and size, and
    /// a read of bytes a write left unchanged (equality abstraction), are not races.
    pub benign: bool,
    /// Bounded unwinding of loops (bug finding; the result is not a proof).
    pub loop_unwind: Option<u32>,
    /// Iterations a loop is unrolled before it is cut with invariants.
    pub unroll_limit: u32,
    /// Paper 002 §4.2's refinement for repetition-free counters.
    pub repetition_free: bool,
    pub check_overflow: bool,
    /// `--assume-no-overflow` (GPUVerify's `--math-int`): every 32-bit integer addition,
    /// subtraction, multiplication and multiply-add is assumed to give its mathematical
    /// result under the signed or the unsigned reading of its operands.
    pub assume_no_overflow: bool,
    /// `--check-array-bounds`: accesses of statically sized arrays stay inside them.
    pub check_array_bounds: bool,
    /// Source-level annotations ignored (GPUVerify's `--no-annotations`, `--only-requires`,
    /// `--invariants-as-candidates`): `__assert`s, `__requires`/`__assume`s, `__invariant`s.
    /// Ignoring an assertion or an assumption is what the flags ask; ignoring an invariant
    /// only drops a fact (sound).
    pub ignore_asserts: bool,
    pub ignore_assumes: bool,
    pub ignore_invariants: bool,
    /// `--no-barrier-access-checks` (as weft's launch description reads it): barriers are
    /// not checked for divergence.
    pub no_barrier_checks: bool,
    pub solver: SolverKind,
    /// Per-query timeout.
    pub timeout_ms: u64,
    /// Wall-clock limit for building the verification conditions of one kernel.
    pub kernel_timeout_s: u64,
    /// The whole run's end (`weft verify --timeout`): building and solving stop there, and
    /// what was not decided by then is reported undecided, never verified.
    pub deadline: Option<std::time::Instant>,
    /// The source's functions other than kernels, for the annotations' contract meaning
    /// (read from the source by [`load::verify_file`]; empty: every annotation is the kernel's).
    pub contracts: contract::Contracts,
    /// Kernel parameters (by index) known to be integers although the facts see them added
    /// to addresses: in a kernel whose pointer parameters carry PTX `.ptr` attributes
    /// (OpenCL), the 64-bit parameters without one (polybench's `long c0`). Set by
    /// [`load::verify_file`].
    pub int_params: Vec<u32>,
    /// GPUVerify's `--kernel-args=K,v1,...,vn`: for kernel `K`, its non-pointer parameters
    /// in order are assumed equal to `v1`, ..., `vn` (a structure passed by value takes its
    /// bytes from its value, little-endian; `None`: any value). Not applied when the count
    /// differs. Set from a header line by [`load::verify_file`].
    pub kernel_args: Option<(String, Vec<Option<u64>>)>,
}

impl Options {
    /// Starts the configured solver with the per-query timeout and the run's deadline.
    pub fn start_solver(&self) -> Result<Solver, SmtError> {
        Solver::start_until(self.solver, self.timeout_ms, self.deadline)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            grid: [1, 1, 1],
            block: [1, 1, 1],
            grid_any: [false; 3],
            block_any: [false; 3],
            warp_size: 32,
            lockstep: false,
            warp_method: WarpMethod::Resync,
            equality: false,
            only_intra_group: false,
            only_inter_group: false,
            only_warp: false,
            benign: true,
            loop_unwind: None,
            unroll_limit: 32,
            repetition_free: true,
            check_overflow: false,
            assume_no_overflow: false,
            check_array_bounds: false,
            ignore_asserts: false,
            ignore_assumes: false,
            ignore_invariants: false,
            no_barrier_checks: false,
            solver: SolverKind::Z3,
            timeout_ms: 30_000,
            kernel_timeout_s: 300,
            deadline: None,
            contracts: contract::Contracts::default(),
            int_params: Vec::new(),
            kernel_args: None,
        }
    }
}

/// A thread of a counter-example.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ThreadId {
    pub tid: [u64; 3],
    pub block: [u64; 3],
}

/// A possible error with its counter-example.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// `race`, `barrier-divergence`, `assert`, `invariant`, `overflow`.
    pub kind: String,
    pub message: String,
    pub array: Option<String>,
    pub access_s: Option<String>,
    pub access_t: Option<String>,
    pub loc_s: Option<String>,
    pub loc_t: String,
    pub thread_s: ThreadId,
    pub thread_t: ThreadId,
    /// Further model values (offsets in bytes).
    pub values: BTreeMap<String, String>,
    /// Which pass found it (`all`, `intra-warp`, `inter-warp`).
    pub pass: String,
}

/// The verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Verified,
    Errors,
    /// No error found, but a loop was cut by `--loop-unwind` (not a proof).
    Bounded,
    /// The solver could not decide some check (timeout): not verified.
    Unknown,
    /// No error found, but a property GPUVerify checks was deliberately not checked
    /// ([`Report::not_checked`]): not verified (exit 3).
    Incomplete,
}

/// The result for one kernel.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub kernel: String,
    pub verdict: Verdict,
    pub findings: Vec<Finding>,
    pub undecided: usize,
    pub checks: usize,
    pub notes: Vec<String>,
    /// What was deliberately not checked, each "WHAT (line N)" (`weft verify` prints "not
    /// checked: WHAT"); with no error, the verdict is [`Verdict::Incomplete`].
    pub not_checked: Vec<String>,
    pub time_ms: u128,
}

/// Why verification could not run.
#[derive(Clone, Debug, thiserror::Error)]
pub enum VerifyError {
    /// The kernel uses something weft-verify does not support, or the file is malformed
    /// (exit 2); a message pointing into the file carries its source line and caret.
    #[error("{0}")]
    Unsupported(String),
    /// The solver is missing or failed (exit 3).
    #[error("{0}")]
    Tool(String),
    /// Talking to the solver process failed while solving the checks (exit 3).
    #[error(transparent)]
    Solver(#[from] SmtError),
}

/// Source names of the kernel's parameters (index -> name), for messages.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub params: Vec<String>,
}

/// Verifies `k` under `o`.
pub fn verify(k: &Kernel, o: &Options, names: &Names) -> Result<Report, VerifyError> {
    let t0 = Instant::now();
    if !smt::available(o.solver) {
        return Err(VerifyError::Tool(format!(
            "the SMT solver `{}` is not installed (Debian package `{}`)",
            o.solver.name(),
            o.solver.name()
        )));
    }
    k.validate().map_err(VerifyError::Unsupported)?;
    let cfg = KCfg::new(k);
    if let Some(pc) = cfg.irreducible {
        return Err(VerifyError::Unsupported(format!(
            "irreducible control flow at instruction {pc} (unsupported)"
        )));
    }
    let passes: Vec<Pairs> = if o.lockstep && o.warp_method == WarpMethod::TwoPass {
        vec![Pairs::SameWarp, Pairs::OtherWarp]
    } else {
        vec![Pairs::All]
    };
    let results: Vec<Result<PassResult, VerifyError>> = passes
        .par_iter()
        .map(|&p| run_pass(k, &cfg, o, p, names))
        .collect();
    let mut findings = Vec::new();
    let mut notes = Vec::new();
    let mut undecided = 0;
    let mut checks = 0;
    let mut bounded = false;
    for r in results {
        let r = r?;
        findings.extend(r.findings);
        for n in r.notes {
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
        undecided += r.undecided;
        checks += r.checks;
        bounded |= r.bounded;
    }
    if undecided > 0 && o.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
        notes.push(format!(
            "the run's time limit (--timeout) was reached with {undecided} check(s) undecided"
        ));
    }
    let verdict = if !findings.is_empty() {
        Verdict::Errors
    } else if undecided > 0 {
        Verdict::Unknown
    } else if bounded {
        Verdict::Bounded
    } else {
        Verdict::Verified
    };
    Ok(Report {
        kernel: k.name.clone(),
        verdict,
        findings,
        undecided,
        checks,
        notes,
        not_checked: Vec::new(),
        time_ms: t0.elapsed().as_millis(),
    })
}

struct PassResult {
    findings: Vec<Finding>,
    notes: Vec<String>,
    undecided: usize,
    checks: usize,
    bounded: bool,
}

fn pass_name(p: Pairs) -> &'static str {
    match p {
        Pairs::All => "all",
        Pairs::SameWarp => "intra-warp",
        Pairs::OtherWarp => "inter-warp",
    }
}

const THREAD_VARS: [&str; 12] = [
    "tid_x_s",
    "tid_y_s",
    "tid_z_s",
    "ctaid_x_s",
    "ctaid_y_s",
    "ctaid_z_s",
    "tid_x_t",
    "tid_y_t",
    "tid_z_t",
    "ctaid_x_t",
    "ctaid_y_t",
    "ctaid_z_t",
];

fn run_pass(
    k: &Kernel,
    cfg: &KCfg,
    o: &Options,
    pairs: Pairs,
    names: &Names,
) -> Result<PassResult, VerifyError> {
    let mut ex = Exec::new(k, cfg, o, pairs).map_err(VerifyError::Unsupported)?;
    let t0 = Instant::now();
    let debug = std::env::var_os("WEFT_VERIFY_DEBUG").is_some();
    let ran = ex.run();
    if debug {
        eprintln!("exec: {:?}, {} checks", t0.elapsed(), ex.checks.len());
        let (asked, cached, waited) = ex.houdini_stats;
        eprintln!("houdini: {asked} queries asked ({waited:?} in the solver), {cached} answered from the cache");
    }
    match ran {
        Ok(()) => {}
        Err(e) if e == "budget" => {
            return Err(VerifyError::Tool(
                "the kernel is too large to verify within weft's term budget".into(),
            ))
        }
        Err(e) if e == "deadline" && o.deadline.is_some_and(|d| std::time::Instant::now() >= d) => {
            return Err(VerifyError::Tool(format!(
                "verification of `{}` stopped at the run's time limit (--timeout): not verified",
                k.name
            )))
        }
        Err(e) if e == "deadline" => {
            return Err(VerifyError::Tool(format!(
                "verification of `{}` ran out of time ({} s): not verified",
                k.name, o.kernel_timeout_s
            )))
        }
        Err(e) if e.contains("solver") => return Err(VerifyError::Tool(e)),
        Err(e) => return Err(VerifyError::Unsupported(e)),
    }
    // Print the checks (terms are not Send) and solve the batches in parallel.
    let nchecks = ex.checks.len();
    let jobs = rayon::current_num_threads().clamp(1, 4);
    let per = nchecks.div_ceil(jobs).max(1);
    let mut batches: Vec<(String, Vec<(usize, Query)>)> = Vec::new();
    for (bi, chunk) in ex.checks.chunks(per).enumerate() {
        let mut p = Printer::new();
        let mut qs = Vec::new();
        for (j, ch) in chunk.iter().enumerate() {
            let f = p.name(&ch.cond);
            let mut vals: Vec<String> = THREAD_VARS.iter().map(|s| s.to_string()).collect();
            for (_, t) in &ch.values {
                vals.push(p.name(t));
            }
            qs.push((
                bi * per + j,
                Query {
                    formula: f,
                    values: vals,
                },
            ));
        }
        // Thread-id variables are always declared.
        let mut decl = String::new();
        for v in THREAD_VARS {
            decl.push_str(&format!("(declare-const {v} (_ BitVec 32))\n"));
        }
        let body = p.take();
        let body: String = body
            .lines()
            .filter(|l| {
                !THREAD_VARS
                    .iter()
                    .any(|v| *l == format!("(declare-const {v} (_ BitVec 32))"))
            })
            .map(|l| format!("{l}\n"))
            .collect();
        decl.push_str(&body);
        if let Some(f) = std::env::var_os("WEFT_VERIFY_DUMP") {
            use std::io::Write as _;
            if let Ok(mut fh) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(f)
            {
                let _ = write!(fh, "(reset)\n{decl}");
                for (_, q) in &qs {
                    let _ = writeln!(fh, "(push 1)\n(assert {})\n(check-sat)\n(pop 1)", q.formula);
                }
            }
        }
        batches.push((decl, qs));
    }
    let answers: Vec<Result<Vec<(usize, Answer)>, SmtError>> = batches
        .into_par_iter()
        .map(|(decl, qs)| {
            let mut s = o.start_solver()?;
            s.declare(&decl)?;
            let mut out = Vec::new();
            for (i, q) in qs {
                out.push((i, ask_check(&mut s, o, &decl, &q)?));
            }
            Ok(out)
        })
        .collect();
    if debug {
        eprintln!("solve: {:?}", t0.elapsed());
    }
    let mut findings: Vec<Finding> = Vec::new();
    let mut undecided = 0;
    let mut seen = std::collections::BTreeSet::new();
    for a in answers {
        let a = a?;
        for (i, ans) in a {
            match ans {
                Answer::Unsat => {}
                Answer::Unknown(_) => undecided += 1,
                Answer::Sat(vals) => {
                    let ch = &ex.checks[i];
                    let f = finding(k, ch, &vals, names, pairs);
                    let key = (
                        f.kind.clone(),
                        f.loc_s.clone(),
                        f.loc_t.clone(),
                        f.array.clone(),
                        f.access_s.clone(),
                        f.access_t.clone(),
                    );
                    if seen.insert(key) {
                        findings.push(f);
                    }
                }
            }
        }
    }
    Ok(PassResult {
        findings,
        notes: ex.notes.clone(),
        undecided,
        checks: nchecks,
        bounded: ex.bounded,
    })
}

/// First timeout of a check in the incremental session (z3), in milliseconds.
const FIRST_TRY_MS: u64 = 2_000;

/// One check on a batch's solver session. With z3: first inside the incremental session with
/// a short timeout; a check still undecided is asked alone (`reset`, the batch's
/// declarations, the check: z3's non-incremental bit-blasting strategy, 0.8 s instead of
/// over 20 s on the five repetition-free counters of GPUVerify's `many_accesses`, though
/// slower than the incremental core on many small checks), and if that is undecided too,
/// in a fresh incremental session with the full timeout (what was asked before).
fn ask_check(s: &mut Solver, o: &Options, decl: &str, q: &Query) -> Result<Answer, SmtError> {
    if o.solver != SolverKind::Z3 || o.timeout_ms <= FIRST_TRY_MS {
        return s.ask(q);
    }
    let a = s.ask_within(q, FIRST_TRY_MS, o.timeout_ms)?;
    if !matches!(a, Answer::Unknown(_)) {
        return Ok(a);
    }
    let a = s.ask_alone(decl, q)?;
    s.restart(decl)?;
    if !matches!(a, Answer::Unknown(_)) {
        return Ok(a);
    }
    s.ask(q)
}

fn array_name(k: &Kernel, b: Base, names: &Names) -> String {
    match b {
        Base::Param(p, _) => match names.params.get(p as usize) {
            Some(n) if !n.is_empty() => n.clone(),
            _ => k
                .params
                .get(p as usize)
                .map_or(format!("param {p}"), |x| x.name.clone()),
        },
        Base::Var(v) => {
            let n = k.vars.get(v as usize).map_or("?", |x| x.name.as_str());
            demangle_var(n)
        }
    }
}

/// `_ZZ14tree_reductionPKiPiE3buf` -> `buf`.
fn demangle_var(n: &str) -> String {
    if let Some(rest) = n.strip_prefix("_ZZ") {
        if let Some(i) = rest.rfind('E') {
            let tail = &rest[i + 1..];
            let name = tail.trim_start_matches(|c: char| c.is_ascii_digit());
            if !name.is_empty() {
                return name.to_string();
            }
        }
    }
    n.to_string()
}

fn finding(
    k: &Kernel,
    ch: &exec::Check,
    vals: &[(String, String)],
    names: &Names,
    pairs: Pairs,
) -> Finding {
    let num = |i: usize| -> u64 { vals.get(i).and_then(|v| v.1.parse().ok()).unwrap_or(0) };
    let thread_s = ThreadId {
        tid: [num(0), num(1), num(2)],
        block: [num(3), num(4), num(5)],
    };
    let thread_t = ThreadId {
        tid: [num(6), num(7), num(8)],
        block: [num(9), num(10), num(11)],
    };
    let mut values = BTreeMap::new();
    for (j, (n, _)) in ch.values.iter().enumerate() {
        if let Some(v) = vals.get(12 + j) {
            values.insert(n.clone(), v.1.clone());
        }
    }
    let (kind, message, array, access_s, access_t, loc_s, loc_t) =
        describe(k, &ch.kind, &values, names, &thread_s, &thread_t);
    values.remove("s_pc");
    Finding {
        kind: kind.to_string(),
        message,
        array,
        access_s,
        access_t,
        loc_s,
        loc_t,
        thread_s,
        thread_t,
        values,
        pass: pass_name(pairs).to_string(),
    }
}

/// A finding's kind, message, array, the two accesses' kinds and the two source
/// locations, as [`finding`] fills them in.
type Described = (
    &'static str,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
);

/// A thread of a counter-example, as messages name it.
fn thread_text(t: &ThreadId) -> String {
    format!(
        "thread ({},{},{}) of block ({},{},{})",
        t.tid[0], t.tid[1], t.tid[2], t.block[0], t.block[1], t.block[2]
    )
}

/// What a failing check of kind `kind` says, with the counter-example's two threads and
/// values.
fn describe(
    k: &Kernel,
    kind: &CheckKind,
    values: &BTreeMap<String, String>,
    names: &Names,
    thread_s: &ThreadId,
    thread_t: &ThreadId,
) -> Described {
    let ts = thread_text;
    match kind {
        CheckKind::Race {
            array,
            s_kind,
            t_kind,
            t_pc,
            ..
        } => {
            let s_pc: Option<usize> = values.get("s_pc").and_then(|v| v.parse().ok());
            let loc_s = s_pc.map(|p| k.describe_pos(p));
            let loc_t = k.describe_pos(*t_pc);
            let an = array_name(k, *array, names);
            let kinds = format!("{}-{}", s_kind.name(), t_kind.name());
            let msg = format!(
                "possible {kinds} race on `{an}`: {} {} at {} (byte offset {}), {} {} at {} (byte offset {})",
                ts(thread_s),
                s_kind.name(),
                loc_s.clone().unwrap_or_else(|| "?".into()),
                values.get("s_off").cloned().unwrap_or_default(),
                ts(thread_t),
                t_kind.name(),
                loc_t,
                values.get("t_off").cloned().unwrap_or_default(),
            );
            (
                "race",
                msg,
                Some(an),
                Some(s_kind.name().to_string()),
                Some(t_kind.name().to_string()),
                loc_s,
                loc_t,
            )
        }
        CheckKind::BarrierDivergence { pc } => {
            let l = k.describe_pos(*pc);
            (
                "barrier-divergence",
                format!(
                    "barrier divergence at {l}: {} and {} do not both reach it",
                    ts(thread_s),
                    ts(thread_t)
                ),
                None,
                None,
                None,
                None,
                l,
            )
        }
        CheckKind::Assert { pc } => {
            let l = k.describe_pos(*pc);
            (
                "assert",
                format!(
                    "assertion may fail at {l} ({} / {})",
                    ts(thread_s),
                    ts(thread_t)
                ),
                None,
                None,
                None,
                None,
                l,
            )
        }
        CheckKind::Invariant { pc, entry } => {
            let l = k.describe_pos(*pc);
            (
                "invariant",
                if *entry {
                    format!("loop invariant may not hold on loop entry at {l}")
                } else {
                    format!("loop invariant may not hold at {l}")
                },
                None,
                None,
                None,
                None,
                l,
            )
        }
        CheckKind::Bounds { pc, array } => {
            let l = k.describe_pos(*pc);
            let an = array_name(k, *array, names);
            (
                "array-bounds",
                format!(
                    "possible out-of-bounds access of `{an}` at {l} ({} / {})",
                    ts(thread_s),
                    ts(thread_t)
                ),
                Some(an),
                None,
                None,
                None,
                l,
            )
        }
        CheckKind::Memory { pc, what } => {
            let l = k.describe_pos(*pc);
            (
                "memory",
                format!(
                    "possible {what} at {l} ({} / {})",
                    ts(thread_s),
                    ts(thread_t)
                ),
                None,
                None,
                None,
                None,
                l,
            )
        }
        CheckKind::Overflow { pc } => {
            let l = k.describe_pos(*pc);
            (
                "overflow",
                format!("the repetition-free counter may overflow at {l}"),
                None,
                None,
                None,
                None,
                l,
            )
        }
    }
}
