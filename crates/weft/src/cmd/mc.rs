//! `weft mc FILE [-m MODEL] [--unroll N] [--threads N] [--stop-on-first] [--json]
//! [--graph DIR] [--timeout S] [--max-memory SIZE] [--cat] [--rf]`: model checks a litmus test
//! with the stateless model checker (`weft-mc`) and prints herd7's layout (the same block
//! `weft sim` prints, so the two diff), then the exploration: executions explored,
//! blocked, cut, rejected by the model, errors by kind, wall time, peak memory.
//! A `.cu`/`.cl`/`.ptx` FILE is a kernel, loaded through `kernel_cmd::prepare` with the shared
//! launch options (`--grid`, `--block`, `--buffer`, `--arg`, `-D`, `--kernel`, `--unroll`) and
//! checked by `weft_mc::kernel` (default model scoped-rc11): errors by kind with source lines
//! and witnesses; `--launches N` explores N host-ordered launches of the kernel, `--launch
//! 'k<<<g,b>>>(args)'` (repeated) a host-ordered sequence of different kernels sharing the
//! `--buffer`s they name (`kernel_cmd::prepare_sequence`), `--warp-size N` sets the lanes per
//! warp, and
//! `--repair` repairs races in litmus tests and kernels (cmd/mc_repair.rs).
//!
//! Exit codes: 0 no error; 1 an error was found (a failed assertion, a race flag, a
//! `~exists`/`forall` condition violated; for kernels also barrier divergence, deadlock, a
//! memory fault); 2 bad input (unreadable or unparsable file, unknown model, bad option value,
//! an unsupported kernel instruction named by file:line:col); 3 internal error (the model
//! failed to evaluate).

use std::path::{Path, PathBuf};
use std::time::Duration;

use weft_ir::Quantifier;
use weft_mc::{check_litmus, McOptions, McResult, Stopped};

use std::fmt::Write as _;

use crate::exit;
use crate::inputs::load;
use crate::launch::LaunchArgs;
use crate::out;

#[derive(clap::Args)]
pub struct Args {
    /// A litmus test (any format weft parses) or a .cu/.cl/.ptx kernel.
    file: PathBuf,
    /// Model: sc, rc11, scoped-rc11 (native checks) or any bundled/path .cat model
    /// (ptx-v7.5, vulkan, opencl, ...), used as the consistency oracle.
    #[arg(short = 'm', long = "model", default_value = "scoped-rc11")]
    model: String,
    /// Worker threads (default: one per core); results do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Stop at the first error (assertion, race, condition violation).
    #[arg(long)]
    stop_on_first: bool,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Write witness executions as DOT (and SVG when graphviz is installed) here.
    #[arg(long)]
    graph: Option<PathBuf>,
    /// Seconds before the exploration stops (with the partial counts).
    #[arg(long, value_parser = parse_seconds)]
    timeout: Option<Duration>,
    /// Resident-memory limit (`512M`, `2G`, bytes); past it the exploration stops.
    #[arg(long, value_parser = parse_size)]
    max_memory: Option<u64>,
    /// Judge with the .cat model even where a native check exists.
    #[arg(long)]
    cat: bool,
    /// Reads-from mode (paper 004 §4.4): explore reads-from classes; the coherence
    /// orders of each are derived at its end (same states and verdict).
    #[arg(long)]
    rf: bool,
    /// Kernels: most GPU threads a launch may have (each is a thread of the exploration).
    #[arg(long, default_value_t = 256, value_name = "N")]
    max_threads: u64,
    /// Kernels: N host-ordered launches of the kernel (a host loop unrolled N times):
    /// buffers persist, every event of launch k happens before every event of launch k+1.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    launches: u32,
    /// Kernels: a launch of a host-ordered sequence, as CUDA writes it:
    /// `KERNEL<<<GRID, BLOCK>>>(ARG, ...)` (GRID/BLOCK: `N`, `dim3(X,Y,Z)`); an argument
    /// naming a `--buffer` passes that buffer (one memory for every launch), any other is a
    /// scalar value. Repeat in host order; every event of a launch happens before every
    /// event of the next (with `--launches N` the whole sequence runs N times).
    #[arg(long = "launch", value_name = "KERNEL<<<GRID,BLOCK>>>(ARGS)")]
    launch_calls: Vec<String>,
    /// Kernels: lanes per warp for the warp collectives, `%laneid` and `%warpid` (PTX's
    /// `WARP_SZ` is 32).
    #[arg(long = "warp-size", default_value_t = weft_mc::kernel::WARP, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=32))]
    warp_size: u32,
    /// Kernels: `__syncthreads` (CTA barriers without a thread count) at different source
    /// positions are different barriers, so a block whose threads wait at two of them is
    /// barrier divergence (paper 004 §2's and GPUVerify's definition, CUDA's rule that the
    /// whole block reach the same `__syncthreads`); by default barriers match by PTX id, as
    /// the hardware (sm_70 and later) matches them.
    #[arg(long = "textual-barriers")]
    textual_barriers: bool,
    /// Re-run the witness in FILE (a `weft mc --json` output of the same test, or of the same
    /// kernel and launch): the first error's execution (a litmus test without an error: the
    /// first execution witnessing its condition) is the only one explored and judged again.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// Kernel launch options (`--unroll N`: times a loop body may be entered before an
    /// execution is cut, default 2; cuts are reported).
    #[command(flatten)]
    launch: LaunchArgs,
    /// Repair races (paper 004 §4.1): explore, edit, repeat until race-free; prints the
    /// edits and writes NAME.repaired.EXT next to the input (see cmd/mc_repair.rs).
    #[arg(long)]
    repair: bool,
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() && v < 1e9 => Ok(Duration::from_secs_f64(v)),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, mul) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M') => (&t[..t.len() - 1], 1 << 20),
        Some('G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    match num.trim().parse::<u64>() {
        Ok(v) if v > 0 => v
            .checked_mul(mul)
            .ok_or_else(|| format!("`{s}` is too large")),
        _ => Err(format!("`{s}` is not a size (e.g. 512M, 2G)")),
    }
}

/// The errors found, by kind.
fn errors(r: &McResult) -> Vec<(String, u64)> {
    let s = &r.sim;
    let mut out = Vec::new();
    if s.assert_failed > 0 {
        out.push(("assertion".to_string(), s.assert_failed));
    }
    for (f, n) in s.flags.iter().chain(&s.undefined_by) {
        out.push((f.clone(), *n));
    }
    match s.condition.as_ref().map(|c| c.quantifier) {
        Some(Quantifier::NotExists) if s.positive > 0 => {
            out.push(("condition".into(), s.positive));
        }
        Some(Quantifier::Forall) if s.negative > 0 => out.push(("condition".into(), s.negative)),
        _ => {}
    }
    out
}

fn write_graphs(dir: &Path, name: &str, r: &McResult) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    for (i, d) in r.sim.witnesses.iter().enumerate() {
        let f = dir.join(format!("{safe}-mc-{i}.dot"));
        std::fs::write(&f, d).map_err(|e| format!("{}: {e}", f.display()))?;
        let _ = std::process::Command::new("dot")
            .arg("-Tsvg")
            .arg(&f)
            .arg("-o")
            .arg(f.with_extension("svg"))
            .stderr(std::process::Stdio::null())
            .status();
    }
    Ok(())
}

pub fn run(args: Args) -> i32 {
    let kernel = args
        .file
        .extension()
        .is_some_and(|e| e == "cu" || e == "cuh" || e == "cl" || e == "ptx");
    if (args.launches > 1
        || !args.launch_calls.is_empty()
        || args.warp_size != 32
        || args.textual_barriers)
        && !kernel
    {
        eprintln!(
            "weft: --launches, --launch, --warp-size and --textual-barriers apply to kernels (.cu/.cl/.ptx), not litmus tests"
        );
        return exit::BAD_INPUT;
    }
    if args.repair && (!args.launch_calls.is_empty() || args.warp_size != 32) {
        eprintln!("weft: --repair takes one kernel's launch options (not --launch or --warp-size)");
        return exit::BAD_INPUT;
    }
    if args.repair {
        let o = super::mc_repair::Opts {
            model: args.model.clone(),
            unroll: args.launch.unroll.unwrap_or(2),
            threads: args.threads,
            timeout: args.timeout,
            json: args.json,
            launch: &args.launch,
            launches: args.launches,
            max_threads: args.max_threads,
            max_memory: args.max_memory,
        };
        return super::mc_repair::run(&args.file, &o);
    }
    if kernel {
        return run_kernel(&args);
    }
    if args.replay.is_some() && args.rf {
        eprintln!("weft: --replay re-runs an rf+co witness: it does not combine with --rf");
        return exit::BAD_INPUT;
    }
    let guide = match read_guide(args.replay.as_deref(), litmus_replay_guide) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let p = match load(&args.file) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}", e.report(&args.file, weft_diag::stderr_color()));
            return exit::BAD_INPUT;
        }
    };
    let model = match weft_sim::models::load(&args.model) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("weft: model {}: {}", args.model, e.render());
            return exit::BAD_INPUT;
        }
    };
    let opts = McOptions {
        unroll: args.launch.unroll.unwrap_or(2),
        stop_on_first: args.stop_on_first,
        timeout: args.timeout,
        max_memory: args.max_memory,
        keep_witnesses: if args.graph.is_some() { 8 } else { 1 },
        force_cat: args.cat,
        threads: args.threads,
        rf_mode: args.rf,
        guide: guide.clone(),
    };
    let r = match check_litmus(&p, &args.model, &model, &opts) {
        Ok(r) => r,
        Err(weft_mc::McError::Program(s, m)) => {
            eprintln!("{}:{s}: {m}", args.file.display());
            return exit::BAD_INPUT;
        }
        Err(e) => {
            eprintln!("weft: {}: {e}", args.file.display());
            return exit::INTERNAL;
        }
    };
    let peak = weft_mc::mem::peak_rss_bytes();
    let errs = errors(&r);
    let mut o = String::new();
    if args.json {
        let v = serde_json::json!({
            "test": r.sim.name,
            "model": args.model,
            "checker": r.checker,
            "columns": r.sim.columns,
            "states": r.sim.states.iter().map(|(k, v)| serde_json::json!({
                "values": k, "executions": v.executions, "satisfies": v.satisfies,
            })).collect::<Vec<_>>(),
            "validated": r.sim.validated,
            "positive": r.sim.positive,
            "negative": r.sim.negative,
            "flags": r.sim.flags,
            "undefined_by": r.sim.undefined_by,
            "replay": args.replay.as_ref().map(|f| f.display().to_string()),
            "executions": {
                "explored": r.counts.complete - r.unmatched,
                "consistent": r.sim.consistent,
                "rejected": r.rejected,
                "blocked": r.counts.blocked,
                "cut": r.counts.cut,
                "faults": r.counts.faults,
                "hung": r.hung,
                "filtered": r.sim.filtered,
                "graphs": r.counts.graphs,
                "revisits": r.counts.revisits,
                "max_events": r.counts.max_events,
                "duplicates": r.counts.duplicates,
                "rf_classes": if args.rf { Some(r.rf_classes) } else { None },
            },
            "mode": if args.rf { "rf" } else { "rf+co" },
            "errors": errs.iter().map(|(k, n)| serde_json::json!({"kind": k, "executions": n})).collect::<Vec<_>>(),
            "witness": r.witness_text,
            "witness_graph": r.witness_graph,
            "stopped": r.stopped,
            "seconds": r.sim.seconds,
            "peak_rss_bytes": peak,
        });
        let _ = writeln!(
            o,
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        );
    } else {
        let _ = write!(o, "{}", r.sim.herd_text(&p));
        if let Some(f) = &args.replay {
            let _ = writeln!(o, "Replay: the witness in {}", f.display());
        }
        let _ = writeln!(o,
            "Executions explored: {} (consistent {}, rejected by the model {}), blocked: {}, cut: {}, faulting: {}, hung at barriers: {}, duplicates: {}",
            r.counts.complete - r.unmatched,
            r.sim.consistent,
            r.rejected,
            r.counts.blocked,
            r.counts.cut,
            r.counts.faults,
            r.hung,
            r.counts.duplicates
        );
        let _ = writeln!(
            o,
            "Graphs: {} (revisits {}, max events {}), checker: {}, mode: {}",
            r.counts.graphs,
            r.counts.revisits,
            r.counts.max_events,
            r.checker,
            if args.rf { "rf" } else { "rf+co" }
        );
        if args.rf {
            let _ = writeln!(
                o,
                "Reads-from classes: {} explored, {} consistent",
                r.counts.complete, r.rf_classes
            );
        }
        if errs.is_empty() {
            let _ = writeln!(o, "Errors: none");
            if let (Some(w), Some(_)) = (&r.witness_text, &args.replay) {
                let _ = writeln!(o, "Witness (events in order of addition):");
                let _ = write!(o, "{w}");
            }
        } else {
            for (k, n) in &errs {
                let _ = writeln!(o, "Error {k}: {n} executions");
            }
            if let Some(w) = &r.witness_text {
                let _ = writeln!(o, "Witness (events in order of addition):");
                let _ = write!(o, "{w}");
            }
        }
        if let Some(m) = &r.counts.fault_message {
            let _ = writeln!(o, "Fault: {m}");
        }
        match r.stopped {
            Some(Stopped::Timeout) => {
                let _ = writeln!(o, "Stopped: timeout (counts are partial)");
            }
            Some(Stopped::Memory) => {
                let _ = writeln!(o, "Stopped: memory limit (counts are partial)");
            }
            Some(Stopped::FirstError) => {
                let _ = writeln!(o, "Stopped: first error");
            }
            None => {}
        }
        let _ = writeln!(
            o,
            "Wall time: {:.3} s, peak memory: {}",
            r.sim.seconds,
            peak.map(|b| format!("{:.1} MB", b as f64 / 1e6))
                .unwrap_or_else(|| "unknown".into())
        );
    }
    out::print(&o);
    if let Some(dir) = &args.graph {
        if let Err(e) = write_graphs(dir, &p.name, &r) {
            eprintln!("weft: cannot write graph: {e}");
            return exit::INTERNAL;
        }
    }
    verdict_exit(!errs.is_empty(), r.stopped.as_ref())
}

/// `--replay FILE` read by `read` (none without the option); a bad file is bad input.
fn read_guide<T>(
    file: Option<&Path>,
    read: fn(&Path) -> Result<T, String>,
) -> Result<Option<T>, i32> {
    let Some(f) = file else { return Ok(None) };
    read(f).map(Some).map_err(|m| {
        eprintln!("weft: --replay {}: {m}", f.display());
        exit::BAD_INPUT
    })
}

/// The witness graph of a litmus test's `weft mc --json` output (`witness_graph`).
fn litmus_replay_guide(f: &Path) -> Result<weft_mc::kernel::WitnessGraph, String> {
    let text = std::fs::read_to_string(f).map_err(|e| e.to_string())?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    if v["witness_graph"].is_null() {
        return Err("no witness to replay (the file has no `witness_graph`: not a `weft mc --json` output of a litmus test, or no execution witnessed anything)".into());
    }
    serde_json::from_value(v["witness_graph"].clone())
        .map_err(|x| format!("`witness_graph` is not a witness graph: {x}"))
}

/// The witness graph of the first error of a `weft mc --json` output, with its kind and
/// the launch sequence it was found in (empty: one kernel's launch options).
type KernelGuide = (String, weft_mc::kernel::WitnessGraph, Vec<String>);

fn replay_guide(f: &Path) -> Result<KernelGuide, String> {
    let text = std::fs::read_to_string(f).map_err(|e| e.to_string())?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
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

/// `weft mc KERNEL`: prepares the launch and explores it.
fn run_kernel(args: &Args) -> i32 {
    let Some(model) = weft_mc::native::Native::by_name(&args.model) else {
        eprintln!(
            "weft: model {}: kernels are checked under the native models only (scoped-rc11, rc11, sc)",
            args.model
        );
        return exit::BAD_INPUT;
    };
    if args.rf || args.cat {
        eprintln!("weft: --rf and --cat apply to litmus tests only");
        return exit::BAD_INPUT;
    }
    let guide = match read_guide(args.replay.as_deref(), replay_guide) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let calls = match args
        .launch_calls
        .iter()
        .map(|c| crate::launch::LaunchCall::parse(c))
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(c) => c,
        Err(m) => {
            eprintln!("weft: {m}");
            return exit::BAD_INPUT;
        }
    };
    let seq = if calls.is_empty() {
        match crate::kernel_cmd::prepare(&args.file, &args.launch) {
            Ok(p) => crate::kernel_cmd::PreparedSeq {
                kernels: vec![p.kernel],
                launches: vec![p.launch],
                args: vec![p.args],
                labels: Vec::new(),
                buffers: p.buffers,
            },
            Err((code, m)) => {
                eprintln!("weft: {m}");
                return code;
            }
        }
    } else {
        match crate::kernel_cmd::prepare_sequence(&args.file, &args.launch, &calls) {
            Ok(s) => s,
            Err((code, m)) => {
                eprintln!("weft: {m}");
                return code;
            }
        }
    };
    if let Some((_, _, was)) = &guide {
        if *was != seq.labels {
            eprintln!(
                "weft: --replay: the witness is of the launches [{}], not [{}]: give the same --launch options",
                was.join("; "),
                seq.labels.join("; ")
            );
            return exit::BAD_INPUT;
        }
    }
    let opts = weft_mc::kernel::KernelOptions {
        unroll: args.launch.unroll.unwrap_or(2),
        model,
        stop_on_first: args.stop_on_first,
        timeout: args.timeout,
        max_memory: args.max_memory,
        threads: args.threads,
        guide: guide.as_ref().map(|g| g.1.clone()),
        max_threads: args.max_threads,
        launches: args.launches,
        warp_size: args.warp_size,
        textual_barriers: args.textual_barriers,
    };
    let names: Vec<String> = seq.buffers.iter().map(|b| b.name.clone()).collect();
    let launches: Vec<weft_mc::kernel::Launch> = seq
        .kernels
        .iter()
        .zip(&seq.launches)
        .zip(&seq.args)
        .enumerate()
        .map(|(i, ((k, l), a))| weft_mc::kernel::Launch {
            kernel: k,
            cfg: *l,
            args: a.clone(),
            label: seq.labels.get(i).cloned().unwrap_or_default(),
        })
        .collect();
    let r = match weft_mc::kernel::check_sequence(&launches, &seq.buffers, &names, &opts) {
        Ok(r) => r,
        Err(e @ weft_mc::kernel::KernelError::Unsupported { .. }) => {
            eprintln!("{}: {e}", args.file.display());
            return exit::BAD_INPUT;
        }
        Err(e) => {
            eprintln!("weft: {}: {e}", args.file.display());
            return exit::BAD_INPUT;
        }
    };
    let peak = weft_mc::mem::peak_rss_bytes();
    let (g, b) = (seq.launches[0].grid, seq.launches[0].block);
    let kname = seq.kernels[0].name.clone();
    let mut o = String::new();
    let explored = r.counts.complete - r.unmatched + r.stuck;
    if args.json {
        let v = serde_json::json!({
            "file": args.file.display().to_string(),
            "kernel": kname,
            "launch_sequence": seq.labels,
            "warp_size": opts.warp_size,
            "textual_barriers": opts.textual_barriers,
            "model": args.model,
            "grid": g,
            "block": b,
            "threads": r.threads,
            "launches": opts.launches,
            "cells": r.cells,
            "unroll": opts.unroll,
            "errors": r.errors,
            "replay": guide.as_ref().map(|g| g.0.clone()),
            "executions": explored,
            "complete": r.counts.complete - r.unmatched,
            "stuck": r.stuck,
            "blocked": r.counts.blocked,
            "stale_await_reads": r.counts.stale,
            "cut": r.counts.cut,
            "faults": r.counts.faults,
            "graphs": r.counts.graphs,
            "revisits": r.counts.revisits,
            "max_events": r.counts.max_events,
            "stopped": r.stopped,
            "seconds": r.seconds,
            "peak_rss_bytes": peak,
        });
        let _ = writeln!(
            o,
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        );
    } else {
        if !seq.labels.is_empty() {
            let _ = writeln!(
                o,
                "Launch sequence (host-ordered; threads l<launch>b<block>t<thread>): {}: {} threads, model {}, unroll {}",
                seq.labels
                    .iter()
                    .enumerate()
                    .map(|(i, l)| format!("l{i} = {l}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                r.threads,
                args.model,
                opts.unroll
            );
        } else {
            let _ = writeln!(
                o,
                "Kernel {} on grid {}x{}x{}, block {}x{}x{}: {} threads, model {}, unroll {}",
                kname, g[0], g[1], g[2], b[0], b[1], b[2], r.threads, args.model, opts.unroll
            );
        }
        if opts.warp_size != weft_mc::kernel::WARP {
            let _ = writeln!(o, "Warp size: {} lanes", opts.warp_size);
        }
        if opts.textual_barriers {
            let _ = writeln!(
                o,
                "Barriers: told apart by source position (--textual-barriers)"
            );
        }
        if opts.launches > 1 {
            let _ = writeln!(
                o,
                "Host-ordered launches: {} (threads l<launch>b<block>t<thread>; each launch happens before the next)",
                opts.launches as usize * seq.kernels.len()
            );
        }
        if let (Some((kind, _, _)), Some(f)) = (&guide, &args.replay) {
            let _ = writeln!(
                o,
                "Replay: the witness of the first error ({kind}) in {}",
                f.display()
            );
        }
        let _ = writeln!(
            o,
            "Executions explored: {explored} (complete {}, ending with threads stuck {}), blocked: {}, cut: {}, faulting: {}",
            r.counts.complete - r.unmatched, r.stuck, r.counts.blocked, r.counts.cut, r.counts.faults
        );
        let _ = writeln!(
            o,
            "Graphs: {} (revisits {}, max events {}), memory words modelled: {}",
            r.counts.graphs, r.counts.revisits, r.counts.max_events, r.cells
        );
        if r.errors.is_empty() {
            let _ = writeln!(o, "Errors: none");
        }
        for e in &r.errors {
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
        if r.counts.cut > 0 {
            let _ = writeln!(
                o,
                "Bounded: {} executions cut at --unroll {} (errors beyond the bound are not searched)",
                r.counts.cut, opts.unroll
            );
        }
        match r.stopped {
            Some(Stopped::Timeout) => {
                let _ = writeln!(o, "Stopped: timeout (counts are partial)");
            }
            Some(Stopped::Memory) => {
                let _ = writeln!(o, "Stopped: memory limit (counts are partial)");
            }
            Some(Stopped::FirstError) => {
                let _ = writeln!(o, "Stopped: first error");
            }
            None => {}
        }
        let _ = writeln!(
            o,
            "Wall time: {:.3} s, peak memory: {}",
            r.seconds,
            peak.map(|b| format!("{:.1} MB", b as f64 / 1e6))
                .unwrap_or_else(|| "unknown".into())
        );
    }
    out::print(&o);
    if let Some(dir) = &args.graph {
        if let Err(e) = write_kernel_graphs(dir, &kname, &r) {
            eprintln!("weft: cannot write graph: {e}");
            return exit::INTERNAL;
        }
    }
    verdict_exit(!r.errors.is_empty(), r.stopped.as_ref())
}

fn write_kernel_graphs(
    dir: &Path,
    name: &str,
    r: &weft_mc::kernel::KernelResult,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    for e in r.errors.iter().filter(|e| !e.dot.is_empty()) {
        let f = dir.join(format!("{safe}-{}.dot", e.kind));
        std::fs::write(&f, &e.dot).map_err(|x| format!("{}: {x}", f.display()))?;
        let _ = std::process::Command::new("dot")
            .arg("-Tsvg")
            .arg(&f)
            .arg("-o")
            .arg(f.with_extension("svg"))
            .stderr(std::process::Stdio::null())
            .status();
    }
    Ok(())
}

/// The exit status of an exploration: 1 when an error was found, 3 when none was found but
/// the exploration was stopped by `--timeout`/`--max-memory` (undecided: a partial search is
/// no proof that the program is error-free), 0 when every execution was explored.
fn verdict_exit(found: bool, stopped: Option<&Stopped>) -> i32 {
    match (found, stopped) {
        (true, _) => exit::VIOLATION,
        (false, Some(Stopped::Timeout | Stopped::Memory)) => exit::INTERNAL,
        _ => exit::OK,
    }
}
