//! What `weft mc` prints: the report of a litmus test's exploration ([`LitmusReport`]) and
//! of a kernel's ([`KernelReport`]), each a serialisable type whose JSON (`weft mc --json`,
//! keys in sorted order, pretty-printed) and text (herd7's layout, then the exploration)
//! are rendered here, with the verdict ([`verdict`]). Built from a [`McResult`] or a
//! [`KernelResult`] and the options that shaped the run.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;
use weft_ir::exit::ExitCode;
use weft_ir::Quantifier;

use crate::kernel::{KernelErrorReport, KernelOptions, KernelResult, WitnessGraph, WARP};
use crate::{McResult, Stopped};

/// The exit status of an exploration: 1 when an error was found, 3 when none was found but
/// the exploration was stopped by `--timeout`/`--max-memory` (undecided: a partial search is
/// no proof that the program is error-free), 0 when every execution was explored.
pub fn verdict(found: bool, stopped: Option<&Stopped>) -> ExitCode {
    match (found, stopped) {
        (true, _) => ExitCode::Violation,
        (false, Some(Stopped::Timeout | Stopped::Memory)) => ExitCode::Internal,
        _ => ExitCode::Ok,
    }
}

/// `Stopped: ...` for an exploration stopped early (nothing when it was not).
fn stopped_line(o: &mut String, stopped: Option<&Stopped>) {
    let _ = match stopped {
        Some(Stopped::Timeout) => writeln!(o, "Stopped: timeout (counts are partial)"),
        Some(Stopped::Memory) => writeln!(o, "Stopped: memory limit (counts are partial)"),
        Some(Stopped::FirstError) => writeln!(o, "Stopped: first error"),
        None => Ok(()),
    };
}

/// `Wall time: S s, peak memory: M MB`.
fn wall_line(o: &mut String, seconds: f64, peak: Option<u64>) {
    let _ = writeln!(
        o,
        "Wall time: {seconds:.3} s, peak memory: {}",
        peak.map(|b| format!("{:.1} MB", b as f64 / 1e6))
            .unwrap_or_else(|| "unknown".into())
    );
}

/// Serialises `v` with its keys sorted, pretty-printed.
fn pretty_sorted<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or_default()
}

/// One final state of a litmus test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StateRow {
    pub executions: u64,
    pub satisfies: bool,
    pub values: Vec<String>,
}

/// Errors of one kind, and how many executions show them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorCount {
    pub executions: u64,
    pub kind: String,
}

/// Execution counts of a litmus test's exploration.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LitmusExecutions {
    pub blocked: u64,
    pub consistent: u64,
    pub cut: u64,
    pub duplicates: u64,
    pub explored: u64,
    pub faults: u64,
    pub filtered: u64,
    pub graphs: u64,
    pub hung: u64,
    pub max_events: usize,
    pub rejected: u64,
    pub revisits: u64,
    /// `--rf` mode only: consistent reads-from classes.
    pub rf_classes: Option<u64>,
    /// Every execution was cut at `--unroll` and no error was found: nothing is verified
    /// (exit 3, not "no errors").
    pub vacuous: bool,
}

/// The report of `weft mc` on a litmus test. Fields are in the order of the JSON's keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LitmusReport {
    pub checker: &'static str,
    pub columns: Vec<String>,
    /// Under a model without No-Thin-Air: the dependency edges on a potential (po ∪ rf)
    /// cycle, whose executions are not built (the result may miss them).
    pub dependency_cycles: Vec<String>,
    pub errors: Vec<ErrorCount>,
    pub executions: LitmusExecutions,
    pub flags: BTreeMap<String, u64>,
    /// `rf` or `rf+co`.
    pub mode: &'static str,
    pub model: String,
    pub negative: u64,
    pub peak_rss_bytes: Option<u64>,
    pub positive: u64,
    /// The `--replay` file.
    pub replay: Option<String>,
    pub seconds: f64,
    pub states: Vec<StateRow>,
    pub stopped: Option<Stopped>,
    /// The thread symmetry used: one execution built per orbit, states expanded.
    pub symmetry: Option<String>,
    pub test: String,
    pub undefined_by: BTreeMap<String, u64>,
    pub validated: bool,
    pub witness: Option<String>,
    pub witness_graph: Option<WitnessGraph>,
    /// herd7's layout of the states and verdict (text only).
    #[serde(skip)]
    pub herd: String,
    /// Complete executions built, the guide's unmatched ones included (text only).
    #[serde(skip)]
    pub complete: u64,
    /// The first error's fault message (text only).
    #[serde(skip)]
    pub fault_message: Option<String>,
    /// The `--unroll` bound (text only).
    #[serde(skip)]
    pub unroll: u32,
    /// The distinct final states (listed and in product form), as a decimal.
    pub state_count: String,
    /// The states past `--max-states`, one product term per line (docs/formats.md,
    /// "Product form"); empty when every state is listed.
    pub terms: Vec<String>,
}

/// The errors of a litmus test's exploration, by kind: failed assertions, flags, undefined
/// behaviour, a violated `~exists`/`forall` condition.
pub fn litmus_errors(r: &McResult) -> Vec<ErrorCount> {
    let s = &r.sim;
    let mut out = Vec::new();
    let mut push = |kind: &str, executions: u64| {
        out.push(ErrorCount {
            executions,
            kind: kind.to_string(),
        })
    };
    if s.assert_failed > 0 {
        push("assertion", s.assert_failed);
    }
    for (f, n) in s.flags.iter().chain(&s.undefined_by) {
        push(f, *n);
    }
    match s.condition.as_ref().map(|c| c.quantifier) {
        Some(Quantifier::NotExists) if s.positive > 0 => push("condition", s.positive),
        Some(Quantifier::Forall) if s.negative > 0 => push("condition", s.negative),
        _ => {}
    }
    out
}

impl LitmusReport {
    /// The report of `r` (of program `p`, checked under `model`; `rf`: reads-from mode;
    /// `replay`: the witness file re-run; `peak`: peak resident memory).
    pub fn new(
        r: &McResult,
        p: &weft_ir::Program,
        model: &str,
        rf: bool,
        replay: Option<String>,
        peak: Option<u64>,
        unroll: u32,
    ) -> LitmusReport {
        let c = &r.counts;
        let errors = litmus_errors(r);
        let vacuous = errors.is_empty() && c.complete == r.unmatched && r.hung == 0 && c.cut > 0;
        let name = |l: u32| p.loc(weft_ir::LocId(l)).name.clone();
        LitmusReport {
            checker: r.checker,
            columns: r.sim.columns.clone(),
            dependency_cycles: r.dep_cycles.iter().map(|c| c.text(&name)).collect(),
            errors,
            executions: LitmusExecutions {
                blocked: c.blocked,
                consistent: r.sim.consistent,
                cut: c.cut,
                duplicates: c.duplicates,
                explored: c.complete - r.unmatched,
                faults: c.faults,
                filtered: r.sim.filtered,
                graphs: c.graphs,
                hung: r.hung,
                max_events: c.max_events,
                rejected: r.rejected,
                revisits: c.revisits,
                rf_classes: rf.then_some(r.rf_classes),
                vacuous,
            },
            flags: r.sim.flags.clone(),
            mode: if rf { "rf" } else { "rf+co" },
            model: model.to_string(),
            negative: r.sim.negative,
            peak_rss_bytes: peak,
            positive: r.sim.positive,
            replay,
            seconds: r.sim.seconds,
            states: r
                .sim
                .states
                .iter()
                .map(|(k, v)| StateRow {
                    executions: v.executions,
                    satisfies: v.satisfies,
                    values: k.clone(),
                })
                .collect(),
            stopped: r.stopped,
            symmetry: r.symmetry.clone(),
            test: r.sim.name.clone(),
            undefined_by: r.sim.undefined_by.clone(),
            validated: r.sim.validated,
            witness: r.witness_text.clone(),
            witness_graph: r.witness_graph.clone(),
            herd: r.sim.herd_text(p),
            complete: c.complete,
            fault_message: c.fault_message.clone(),
            unroll,
            state_count: r.sim.state_count().to_string(),
            terms: r.sim.terms.iter().map(|t| t.line(&r.sim.columns)).collect(),
        }
    }

    /// `weft mc --json`: the report pretty-printed, keys sorted, and a newline.
    pub fn to_json(&self) -> String {
        format!("{}\n", pretty_sorted(self))
    }

    /// 1 on an error, 3 when stopped early without one, when nothing was explored to its
    /// end, or when no error was found but executions may be missing (a dependency cycle
    /// the explorer does not build under a model without No-Thin-Air: "no errors" and an
    /// unobserved outcome are then not established), else 0.
    pub fn exit_code(&self) -> ExitCode {
        if (self.executions.vacuous || !self.dependency_cycles.is_empty())
            && self.errors.is_empty()
            && self.stopped.is_none()
        {
            return ExitCode::Internal;
        }
        verdict(!self.errors.is_empty(), self.stopped.as_ref())
    }

    /// herd7's layout, then the exploration's counts, errors, witness and time.
    pub fn text(&self) -> String {
        let x = &self.executions;
        let mut o = self.herd.clone();
        if !self.terms.is_empty() {
            let _ = writeln!(
                o,
                "Products {} {} lines list the states in product form (more than --max-states; `c∈{{a,b}}`: any of the values, every combination)",
                self.test,
                self.terms.len()
            );
        }
        if let Some(f) = &self.replay {
            let _ = writeln!(o, "Replay: the witness in {f}");
        }
        let _ = writeln!(o,
            "Executions explored: {} (consistent {}, rejected by the model {}), blocked: {}, cut: {}, faulting: {}, hung at barriers: {}, duplicates: {}",
            x.explored, x.consistent, x.rejected, x.blocked, x.cut, x.faults, x.hung, x.duplicates
        );
        let _ = writeln!(
            o,
            "Graphs: {} (revisits {}, max events {}), checker: {}, mode: {}",
            x.graphs, x.revisits, x.max_events, self.checker, self.mode
        );
        if let Some(s) = &self.symmetry {
            let _ = writeln!(o, "Symmetry: {s}");
        }
        if let Some(classes) = x.rf_classes {
            let _ = writeln!(
                o,
                "Reads-from classes: {} explored, {classes} consistent",
                self.complete
            );
        }
        if !self.dependency_cycles.is_empty() {
            let _ = writeln!(
                o,
                "Note: {} has no No-Thin-Air axiom, and executions whose (po ∪ rf) cycle passes through a dependency are not built (the values their reads would guess do not settle); these dependencies lie on potential cycles, so the result may miss executions:",
                self.model
            );
            for c in &self.dependency_cycles {
                let _ = writeln!(o, "  {c}");
            }
        }
        if x.vacuous {
            let _ = writeln!(
                o,
                "Errors: none found, but every execution was cut at --unroll {} (nothing is verified: raise --unroll)",
                self.unroll
            );
        } else if self.errors.is_empty() && !self.dependency_cycles.is_empty() {
            let _ = writeln!(
                o,
                "Errors: none found among the executions built (some may be missing: see the note)"
            );
        } else if self.errors.is_empty() {
            let _ = writeln!(o, "Errors: none");
            if let (Some(w), Some(_)) = (&self.witness, &self.replay) {
                let _ = writeln!(o, "Witness (events in order of addition):");
                let _ = write!(o, "{w}");
            }
        } else {
            for e in &self.errors {
                let _ = writeln!(o, "Error {}: {} executions", e.kind, e.executions);
            }
            if let Some(w) = &self.witness {
                let _ = writeln!(o, "Witness (events in order of addition):");
                let _ = write!(o, "{w}");
            }
        }
        if let Some(m) = &self.fault_message {
            let _ = writeln!(o, "Fault: {m}");
        }
        stopped_line(&mut o, self.stopped.as_ref());
        wall_line(&mut o, self.seconds, self.peak_rss_bytes);
        o
    }
}

/// The report of `weft mc` on a kernel (one launch, N launches, or a launch sequence).
/// Fields are in the order of the JSON's keys.
#[derive(Clone, Debug, Serialize)]
pub struct KernelReport {
    pub block: [u32; 3],
    /// Executions ending in a blocked state.
    pub blocked: u64,
    pub cells: usize,
    pub complete: u64,
    pub cut: u64,
    /// The loops executions were cut in, with their source lines.
    pub cut_sites: Vec<crate::kernel::CutSite>,
    pub errors: Vec<KernelErrorReport>,
    pub executions: u64,
    pub faults: u64,
    pub file: String,
    pub graphs: u64,
    pub grid: [u32; 3],
    pub kernel: String,
    /// Labels of a `--launch` sequence (empty for one kernel's launch options).
    pub launch_sequence: Vec<String>,
    pub launches: u32,
    pub max_events: usize,
    pub model: String,
    pub peak_rss_bytes: Option<u64>,
    /// With `--replay`: the kind of the error whose witness was re-run.
    pub replay: Option<String>,
    pub revisits: u64,
    pub seconds: f64,
    pub stale_await_reads: u64,
    pub stopped: Option<Stopped>,
    pub stuck: u64,
    pub textual_barriers: bool,
    pub threads: usize,
    pub unroll: u32,
    /// No execution was explored to its end and no error was found: nothing is verified
    /// (exit 3, not "no errors").
    pub vacuous: bool,
    pub warp_size: u32,
    /// The `--replay` file (text only).
    #[serde(skip)]
    pub replay_file: Option<String>,
    /// Kernels in the launch sequence (1 without one; text only).
    #[serde(skip)]
    pub kernels: usize,
}

/// What a kernel exploration was: the file, the first launch's kernel and geometry, the
/// sequence's labels and kernels, the options and the model's name.
pub struct KernelRun<'a> {
    pub file: String,
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub labels: Vec<String>,
    pub kernels: usize,
    pub opts: &'a KernelOptions,
    pub model: String,
    /// With `--replay`: the error kind and the file.
    pub replay: Option<(String, String)>,
}

impl KernelReport {
    /// The report of `r` for the run `run`; `peak`: peak resident memory.
    pub fn new(r: &KernelResult, run: KernelRun, peak: Option<u64>) -> KernelReport {
        let c = &r.counts;
        let complete = c.complete - r.unmatched;
        let (replay, replay_file) = match run.replay {
            Some((k, f)) => (Some(k), Some(f)),
            None => (None, None),
        };
        KernelReport {
            block: run.block,
            cells: r.cells,
            complete,
            cut: c.cut,
            cut_sites: r.cut_sites.clone(),
            errors: r.errors.clone(),
            executions: complete + r.stuck,
            faults: c.faults,
            file: run.file,
            graphs: c.graphs,
            grid: run.grid,
            kernel: run.kernel,
            launch_sequence: run.labels,
            launches: run.opts.launches,
            max_events: c.max_events,
            model: run.model,
            peak_rss_bytes: peak,
            replay,
            revisits: c.revisits,
            seconds: r.seconds,
            stale_await_reads: c.stale,
            stopped: r.stopped,
            stuck: r.stuck,
            textual_barriers: run.opts.textual_barriers,
            threads: r.threads,
            unroll: run.opts.unroll,
            vacuous: r.vacuous(),
            warp_size: run.opts.warp_size,
            blocked: c.blocked,
            replay_file,
            kernels: run.kernels,
        }
    }

    /// `weft mc --json`: the report pretty-printed, keys sorted, and a newline.
    pub fn to_json(&self) -> String {
        format!("{}\n", pretty_sorted(self))
    }

    /// 1 on an error, 3 when stopped early without one or when nothing was explored to
    /// its end, else 0.
    pub fn exit_code(&self) -> ExitCode {
        if self.vacuous && self.stopped.is_none() {
            return ExitCode::Internal;
        }
        verdict(!self.errors.is_empty(), self.stopped.as_ref())
    }

    /// The launch, the exploration's counts, each error with its witness, and the time.
    pub fn text(&self) -> String {
        let mut o = String::new();
        self.header(&mut o);
        let _ = writeln!(
            o,
            "Executions explored: {} (complete {}, ending with threads stuck {}), blocked: {}, cut: {}, faulting: {}",
            self.executions, self.complete, self.stuck, self.blocked, self.cut, self.faults
        );
        let _ = writeln!(
            o,
            "Graphs: {} (revisits {}, max events {}), memory words modelled: {}",
            self.graphs, self.revisits, self.max_events, self.cells
        );
        if self.vacuous {
            let _ = writeln!(
                o,
                "Errors: none found, but no execution was explored to its end (nothing is verified: {} cut, {} blocked, {} faulting)",
                self.cut, self.blocked, self.faults
            );
        } else if self.errors.is_empty() {
            let _ = writeln!(o, "Errors: none");
        }
        for e in &self.errors {
            error_text(&mut o, e);
        }
        if self.cut > 0 {
            let _ = writeln!(
                o,
                "Bounded: {} executions cut at --unroll {} (errors beyond the bound are not searched)",
                self.cut, self.unroll
            );
            for c in &self.cut_sites {
                let _ = writeln!(
                    o,
                    "  cut in the loop at line {}{}",
                    c.line,
                    if c.self_bounded {
                        " (it ends by itself, but ran past the safety limit of iterations)"
                    } else {
                        " (its exit reads memory: raise --unroll to search further)"
                    }
                );
            }
        }
        stopped_line(&mut o, self.stopped.as_ref());
        wall_line(&mut o, self.seconds, self.peak_rss_bytes);
        o
    }

    /// The lines before the counts: the launch or sequence, the options that differ from
    /// the defaults, the replay.
    fn header(&self, o: &mut String) {
        let (g, b) = (self.grid, self.block);
        if !self.launch_sequence.is_empty() {
            let _ = writeln!(
                o,
                "Launch sequence (host-ordered; threads l<launch>b<block>t<thread>): {}: {} threads, model {}, unroll {}",
                self.launch_sequence
                    .iter()
                    .enumerate()
                    .map(|(i, l)| format!("l{i} = {l}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                self.threads,
                self.model,
                self.unroll
            );
        } else {
            let _ = writeln!(
                o,
                "Kernel {} on grid {}x{}x{}, block {}x{}x{}: {} threads, model {}, unroll {}",
                self.kernel,
                g[0],
                g[1],
                g[2],
                b[0],
                b[1],
                b[2],
                self.threads,
                self.model,
                self.unroll
            );
        }
        if self.warp_size != WARP {
            let _ = writeln!(o, "Warp size: {} lanes", self.warp_size);
        }
        if self.textual_barriers {
            let _ = writeln!(
                o,
                "Barriers: told apart by source position (--textual-barriers)"
            );
        }
        if self.launches > 1 {
            let _ = writeln!(
                o,
                "Host-ordered launches: {} (threads l<launch>b<block>t<thread>; each launch happens before the next)",
                self.launches as usize * self.kernels
            );
        }
        if let (Some(kind), Some(f)) = (&self.replay, &self.replay_file) {
            let _ = writeln!(o, "Replay: the witness of the first error ({kind}) in {f}");
        }
    }
}

/// One error of a kernel: kind, lines, count, message and witness.
fn error_text(o: &mut String, e: &KernelErrorReport) {
    let lines: Vec<String> = e.lines.iter().map(|l| l.to_string()).collect();
    let _ = writeln!(
        o,
        "Error {}{}: {} executions",
        e.kind,
        if lines.is_empty() {
            String::new()
        } else {
            format!(
                " at line{} {}",
                if lines.len() > 1 { "s" } else { "" },
                lines.join(", ")
            )
        },
        e.executions
    );
    let _ = writeln!(o, "  {}", e.message);
    if !e.witness.is_empty() {
        let _ = writeln!(
            o,
            "  Witness (events in order of addition; thread#event line:col):"
        );
        for l in e.witness.lines() {
            let _ = writeln!(o, "    {l}");
        }
    }
}

/// The witness graph of a litmus test's `weft mc --json` output (`witness_graph`), for
/// `--replay`.
pub fn litmus_replay_guide(json: &str) -> Result<WitnessGraph, String> {
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    if v["witness_graph"].is_null() {
        return Err("no witness to replay (the file has no `witness_graph`: not a `weft mc --json` output of a litmus test, or no execution witnessed anything)".into());
    }
    serde_json::from_value(v["witness_graph"].clone())
        .map_err(|x| format!("`witness_graph` is not a witness graph: {x}"))
}

/// The first error of a kernel's `weft mc --json` output, for `--replay`: its kind, its
/// witness graph, and the launch sequence it was found in (empty: one kernel's launch).
pub type KernelGuide = (String, WitnessGraph, Vec<String>);

/// `Err` when a witness found in the launch sequence `was` is replayed in `now`.
pub fn same_launches(was: &[String], now: &[String]) -> Result<(), String> {
    if was == now {
        return Ok(());
    }
    Err(format!(
        "the witness is of the launches [{}], not [{}]: give the same --launch options",
        was.join("; "),
        now.join("; ")
    ))
}

/// Reads a [`KernelGuide`] from a kernel's `weft mc --json` output.
pub fn kernel_replay_guide(json: &str) -> Result<KernelGuide, String> {
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let e = v["errors"]
        .as_array()
        .and_then(|a| a.first())
        .ok_or("no error to replay (the file has no `errors`)")?;
    let g = serde_json::from_value(e["graph"].clone())
        .map_err(|x| format!("the first error has no witness graph: {x}"))?;
    let seq = v["launch_sequence"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    Ok((e["kind"].as_str().unwrap_or("?").to_string(), g, seq))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Counts;

    fn result() -> KernelResult {
        KernelResult {
            counts: Counts {
                complete: 5,
                blocked: 1,
                cut: 2,
                graphs: 9,
                revisits: 3,
                max_events: 12,
                ..Counts::default()
            },
            stuck: 1,
            errors: vec![KernelErrorReport {
                kind: "data-race".into(),
                lines: vec![4, 7],
                executions: 2,
                threads: vec!["b0t0".into(), "b0t1".into()],
                message: "m".into(),
                witness: "e1\ne2".into(),
                dot: String::new(),
                graph: WitnessGraph::default(),
            }],
            unmatched: 0,
            stopped: None,
            seconds: 0.5,
            threads: 2,
            cells: 3,
            races: Vec::new(),
            cut_sites: Vec::new(),
        }
    }

    fn report() -> KernelReport {
        let opts = KernelOptions::default();
        let run = KernelRun {
            file: "k.cu".into(),
            kernel: "k".into(),
            grid: [1, 1, 1],
            block: [2, 1, 1],
            labels: Vec::new(),
            kernels: 1,
            opts: &opts,
            model: "scoped-rc11".into(),
            replay: None,
        };
        KernelReport::new(&result(), run, Some(2_000_000))
    }

    #[test]
    fn kernel_report_text() {
        let unroll = KernelOptions::default().unroll;
        let expected = format!(
            "Kernel k on grid 1x1x1, block 2x1x1: 2 threads, model scoped-rc11, unroll {unroll}\n\
             Executions explored: 6 (complete 5, ending with threads stuck 1), blocked: 1, cut: 2, faulting: 0\n\
             Graphs: 9 (revisits 3, max events 12), memory words modelled: 3\n\
             Error data-race at lines 4, 7: 2 executions\n\
             \x20 m\n\
             \x20 Witness (events in order of addition; thread#event line:col):\n\
             \x20   e1\n\
             \x20   e2\n\
             Bounded: 2 executions cut at --unroll {unroll} (errors beyond the bound are not searched)\n\
             Wall time: 0.500 s, peak memory: 2.0 MB\n"
        );
        let r = report();
        assert_eq!(r.text(), expected);
        assert_eq!(r.exit_code(), ExitCode::Violation);
    }

    #[test]
    fn kernel_report_json_keys_sorted() {
        let j = report().to_json();
        let keys: Vec<&str> = j
            .lines()
            .filter(|l| l.starts_with("  \"") && !l.starts_with("   "))
            .map(|l| l.trim().split('"').nth(1).unwrap())
            .collect();
        assert_eq!(
            keys,
            [
                "block",
                "blocked",
                "cells",
                "complete",
                "cut",
                "cut_sites",
                "errors",
                "executions",
                "faults",
                "file",
                "graphs",
                "grid",
                "kernel",
                "launch_sequence",
                "launches",
                "max_events",
                "model",
                "peak_rss_bytes",
                "replay",
                "revisits",
                "seconds",
                "stale_await_reads",
                "stopped",
                "stuck",
                "textual_barriers",
                "threads",
                "unroll",
                "vacuous",
                "warp_size"
            ]
        );
        assert!(j.ends_with("}\n"));
        let (_, g, seq) = kernel_replay_guide(&j).unwrap();
        assert_eq!(g, WitnessGraph::default());
        assert!(seq.is_empty());
    }

    #[test]
    fn verdicts_and_replay_checks() {
        assert_eq!(verdict(true, None), ExitCode::Violation);
        assert_eq!(verdict(false, Some(&Stopped::Timeout)), ExitCode::Internal);
        assert_eq!(verdict(false, Some(&Stopped::Memory)), ExitCode::Internal);
        assert_eq!(verdict(false, Some(&Stopped::FirstError)), ExitCode::Ok);
        assert_eq!(verdict(false, None), ExitCode::Ok);
        let a = vec!["k<<<1,1>>>()".to_string()];
        assert!(same_launches(&a, &a).is_ok());
        assert_eq!(
            same_launches(&a, &[]).unwrap_err(),
            "the witness is of the launches [k<<<1,1>>>()], not []: give the same --launch options"
        );
        assert!(kernel_replay_guide("{}").is_err());
        assert!(litmus_replay_guide("{\"witness_graph\": null}").is_err());
        assert!(litmus_replay_guide("not json").is_err());
    }
}
