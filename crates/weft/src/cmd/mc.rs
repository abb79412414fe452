//! `weft mc FILE|DIR... [-m MODEL] [--unroll N] [--threads N] [--stop-on-first] [--json]
//! [--graph DIR] [--timeout S] [--max-memory SIZE] [--cat] [--rf]`: model checks a litmus test
//! with the stateless model checker (`weft-mc`) and prints herd7's layout (the same block
//! `weft sim` prints, so the two diff), then the exploration: executions explored,
//! blocked, cut, rejected by the model, errors by kind, wall time, peak memory.
//! A `.cu`/`.cl`/`.ptx` FILE is a kernel, loaded through `kernel_cmd::prepare` with the shared
//! launch options (`--grid`, `--block`, `--buffer`, `--arg`, `-D`, `--kernel`, `--unroll`) and
//! checked by `weft_mc::kernel` (default model scoped-rc11): errors by kind with source lines
//! and witnesses; `--launches N` explores N host-ordered launches of the kernel, `--launch
//! 'k<<<g,b>>>(args)'` (repeated) a host-ordered sequence of different kernels sharing the
//! `--buffer`s they name (`weft_cuda::bind::prepare_sequence`), `--warp-size N` sets the lanes per
//! warp, and
//! `--repair` repairs races in litmus tests and kernels (cmd/mc_repair.rs).
//! Several files or a directory (litmus tests, found as `weft sim` finds them,
//! `inputs::collect`) are checked one after the other, each with its own `--timeout` and
//! `--max-memory`, each printing its block, then a summary line (cmd/mc_suite.rs).
//! `--max-states N` (default 100,000): past N distinct final states, a litmus test's states
//! are printed in product form (`weft_mc::states`), as `weft sim` prints them.
//!
//! Exit codes: 0 no error; 1 an error was found (a failed assertion, a race flag, a
//! `~exists`/`forall` condition violated; for kernels also barrier divergence, deadlock, a
//! memory fault); 2 bad input (unreadable or unparsable file, unknown model, bad option value,
//! an unsupported kernel instruction named by file:line:col); 3 internal error (the model
//! failed to evaluate).

use std::path::{Path, PathBuf};
use std::time::Duration;

use weft_mc::report::{self, KernelReport, KernelRun, LitmusReport};
use weft_mc::{check_litmus, McOptions};

use crate::exit::{ExitCode, Failure};
use crate::inputs::load;
use crate::launch::LaunchArgs;
use crate::out;

#[derive(clap::Args)]
pub struct Args {
    /// A litmus test (any format weft parses) or a .cu/.cl/.ptx kernel; several litmus
    /// tests or directories (searched recursively for *.litmus and *.json) are checked one
    /// after the other, each with its own --timeout and --max-memory.
    #[arg(required = true, value_name = "FILE|DIR")]
    pub(super) paths: Vec<PathBuf>,
    /// Model: sc, rc11, scoped-rc11 (native checks) or any bundled/path .cat model
    /// (ptx-v7.5, vulkan, opencl, ...), used as the consistency oracle.
    #[arg(short = 'm', long = "model", default_value = "scoped-rc11")]
    pub(super) model: String,
    /// Worker threads (default: one per core); results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub(super) threads: usize,
    /// Stop at the first error (assertion, race, condition violation).
    #[arg(long)]
    pub(super) stop_on_first: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub(super) json: bool,
    /// Write witness executions as DOT (and SVG when graphviz is installed) here.
    #[arg(long)]
    pub(super) graph: Option<PathBuf>,
    /// Seconds before the exploration stops (with the partial counts).
    #[arg(long, value_parser = parse_seconds)]
    pub(super) timeout: Option<Duration>,
    /// Resident-memory limit (`512M`, `2G`, bytes); past it the exploration stops.
    #[arg(long, value_parser = weft_mc::mem::parse_size)]
    pub(super) max_memory: Option<u64>,
    /// Most distinct final states listed one per line: past it, they are printed in product
    /// form (`0:r1∈{0,1};`, exact counts; a `Products` line says so), as `weft sim` does.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub(super) max_states: u64,
    /// Judge with the .cat model even where a native check exists.
    #[arg(long)]
    pub(super) cat: bool,
    /// Reads-from mode (paper 004 §4.4): explore reads-from classes; the coherence
    /// orders of each are derived at its end (same states and verdict).
    #[arg(long)]
    pub(super) rf: bool,
    /// Kernels: most GPU threads a launch may have (each is a thread of the exploration).
    #[arg(long, default_value_t = 256, value_name = "N")]
    pub(super) max_threads: u64,
    /// Kernels: N host-ordered launches of the kernel (a host loop unrolled N times):
    /// buffers persist, every event of launch k happens before every event of launch k+1.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub(super) launches: u32,
    /// Kernels: a launch of a host-ordered sequence, as CUDA writes it:
    /// `KERNEL<<<GRID, BLOCK>>>(ARG, ...)` (GRID/BLOCK: `N`, `dim3(X,Y,Z)`); an argument
    /// naming a `--buffer` passes that buffer (one memory for every launch), any other is a
    /// scalar value. Repeat in host order; every event of a launch happens before every
    /// event of the next (with `--launches N` the whole sequence runs N times).
    #[arg(long = "launch", value_name = "KERNEL<<<GRID,BLOCK>>>(ARGS)")]
    pub(super) launch_calls: Vec<String>,
    /// Kernels: lanes per warp for the warp collectives, `%laneid` and `%warpid` (PTX's
    /// `WARP_SZ` is 32).
    #[arg(long = "warp-size", default_value_t = weft_mc::kernel::WARP, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=32))]
    pub(super) warp_size: u32,
    /// Kernels: `__syncthreads` (CTA barriers without a thread count) at different source
    /// positions are different barriers, so a block whose threads wait at two of them is
    /// barrier divergence (paper 004 §2's and GPUVerify's definition, CUDA's rule that the
    /// whole block reach the same `__syncthreads`); by default barriers match by PTX id, as
    /// the hardware (sm_70 and later) matches them.
    #[arg(long = "textual-barriers")]
    pub(super) textual_barriers: bool,
    /// Re-run the witness in FILE (a `weft mc --json` output of the same test, or of the same
    /// kernel and launch): the first error's execution (a litmus test without an error: the
    /// first execution witnessing its condition) is the only one explored and judged again.
    #[arg(long, value_name = "FILE")]
    pub(super) replay: Option<PathBuf>,
    /// Kernel launch options (`--unroll N`: times a loop body may be entered before an
    /// execution is cut, default 2; cuts are reported).
    #[command(flatten)]
    pub(super) launch: LaunchArgs,
    /// Repair races (paper 004 §4.1): explore, edit, repeat until race-free; prints the
    /// edits and writes NAME.repaired.EXT next to the input (see cmd/mc_repair.rs).
    #[arg(long)]
    pub(super) repair: bool,
}

/// `--timeout S`: a positive number of seconds (also `weft sim`'s).
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() && v < 1e9 => Ok(Duration::from_secs_f64(v)),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

pub fn run(args: Args) -> ExitCode {
    if args.paths.len() > 1 || args.paths[0].is_dir() {
        return super::mc_suite::run(&args);
    }
    let file = args.paths[0].clone();
    let kernel = super::mc_suite::is_kernel(&file);
    if (args.launches > 1
        || !args.launch_calls.is_empty()
        || args.warp_size != 32
        || args.textual_barriers)
        && !kernel
    {
        eprintln!(
            "weft: --launches, --launch, --warp-size and --textual-barriers apply to kernels (.cu/.cl/.ptx), not litmus tests"
        );
        return ExitCode::BadInput;
    }
    if args.repair && (!args.launch_calls.is_empty() || args.warp_size != 32) {
        eprintln!("weft: --repair takes one kernel's launch options (not --launch or --warp-size)");
        return ExitCode::BadInput;
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
        return super::mc_repair::run(&file, &o);
    }
    if kernel {
        return run_kernel(&args, &file);
    }
    if args.replay.is_some() && args.rf {
        eprintln!("weft: --replay re-runs an rf+co witness: it does not combine with --rf");
        return ExitCode::BadInput;
    }
    let guide = match read_guide(args.replay.as_deref(), report::litmus_replay_guide) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let model = match load_model(&args.model) {
        Ok(m) => m,
        Err(code) => return code,
    };
    match check_file(&args, &file, &model, guide) {
        Ok(c) => {
            out::print(&if args.json {
                c.report.to_json()
            } else {
                c.report.text()
            });
            c.finish(&args)
        }
        Err(code) => code,
    }
}

/// The `.cat` model named by `-m` (bundled or a path), or bad input.
pub(super) fn load_model(name: &str) -> Result<weft_cat::Model, ExitCode> {
    weft_sim::models::load(name).map_err(|e| {
        eprintln!("weft: model {name}: {}", e.render());
        ExitCode::BadInput
    })
}

/// One litmus test checked: its report, its witness graphs and name (for `--graph`).
pub(super) struct Checked {
    pub report: LitmusReport,
    witnesses: Vec<String>,
    name: String,
}

impl Checked {
    /// Writes the witness graphs (`--graph`) and gives the test's exit code.
    pub(super) fn finish(&self, args: &Args) -> ExitCode {
        if let Some(dir) = &args.graph {
            if let Err(e) = weft_exec::graphs::write(
                dir,
                self.witnesses.iter().enumerate().map(|(i, d)| {
                    (
                        format!(
                            "{}-mc-{i}.dot",
                            weft_exec::graphs::safe_name(&self.name, "-_")
                        ),
                        d.as_str(),
                    )
                }),
            ) {
                eprintln!("weft: cannot write graph: {e}");
                return ExitCode::Internal;
            }
        }
        self.report.exit_code()
    }
}

/// Reads and model checks one litmus test with the options of `args` (errors are printed
/// to stderr and returned as their exit code).
pub(super) fn check_file(
    args: &Args,
    file: &Path,
    model: &weft_cat::Model,
    guide: Option<weft_mc::kernel::WitnessGraph>,
) -> Result<Checked, ExitCode> {
    let p = match load(file) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}", e.report(file, weft_diag::stderr_color()));
            return Err(ExitCode::BadInput);
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
        guide,
        max_states: Some(args.max_states),
        symmetry: true,
    };
    let r = match check_litmus(&p, &args.model, model, &opts) {
        Ok(r) => r,
        Err(weft_mc::McError::Program(s, m)) => {
            eprintln!("{}:{s}: {m}", file.display());
            return Err(ExitCode::BadInput);
        }
        Err(e) => {
            eprintln!("weft: {}: {e}", file.display());
            return Err(ExitCode::Internal);
        }
    };
    let report = LitmusReport::new(
        &r,
        &p,
        &args.model,
        args.rf,
        args.replay.as_ref().map(|f| f.display().to_string()),
        weft_mc::mem::peak_rss_bytes(),
        opts.unroll,
    );
    Ok(Checked {
        report,
        witnesses: r.sim.witnesses,
        name: p.name,
    })
}

/// `--replay FILE` read by `read` (none without the option); a bad file is bad input.
fn read_guide<T>(
    file: Option<&Path>,
    read: fn(&str) -> Result<T, String>,
) -> Result<Option<T>, ExitCode> {
    let Some(f) = file else { return Ok(None) };
    let text = std::fs::read_to_string(f).map_err(|e| e.to_string());
    text.and_then(|t| read(&t)).map(Some).map_err(|m| {
        eprintln!("weft: --replay {}: {m}", f.display());
        ExitCode::BadInput
    })
}

/// The launch (`--launch` absent) or host-ordered launch sequence of `weft mc KERNEL`.
fn prepare_launches(args: &Args, file: &Path) -> Result<weft_cuda::bind::PreparedSeq, Failure> {
    let calls = args
        .launch_calls
        .iter()
        .map(|c| weft_cuda::bind::LaunchCall::parse(c))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::bad_input)?;
    if calls.is_empty() {
        return crate::kernel_cmd::prepare(file, &args.launch).map(Into::into);
    }
    let base = args
        .launch
        .spec()
        .map_err(|m| Failure::bad_input(m).context(calls[0].label()))?;
    weft_cuda::bind::prepare_sequence(file, &base, &calls, &mut crate::kernel_cmd::print_note)
}

/// `weft mc KERNEL`: prepares the launch and explores it.
fn run_kernel(args: &Args, file: &Path) -> ExitCode {
    let Some(model) = weft_mc::native::Native::by_name(&args.model) else {
        eprintln!(
            "weft: model {}: kernels are checked under the native models only (scoped-rc11, rc11, sc)",
            args.model
        );
        return ExitCode::BadInput;
    };
    if args.rf || args.cat {
        eprintln!("weft: --rf and --cat apply to litmus tests only");
        return ExitCode::BadInput;
    }
    let guide = match read_guide(args.replay.as_deref(), report::kernel_replay_guide) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let seq = match prepare_launches(args, file) {
        Ok(s) => s,
        Err(f) => return crate::exit::report(&f),
    };
    if let Some((_, _, was)) = &guide {
        if let Err(m) = report::same_launches(was, &seq.labels) {
            eprintln!("weft: --replay: {m}");
            return ExitCode::BadInput;
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
            eprintln!("{}: {e}", file.display());
            return ExitCode::BadInput;
        }
        Err(e @ weft_mc::kernel::KernelError::Unmodelled { .. }) => {
            eprintln!("{}: {e}", file.display());
            return ExitCode::Internal;
        }
        Err(e) => {
            eprintln!("weft: {}: {e}", file.display());
            return ExitCode::BadInput;
        }
    };
    let kname = seq.kernels[0].name.clone();
    let run = KernelRun {
        file: file.display().to_string(),
        kernel: kname.clone(),
        grid: seq.launches[0].grid,
        block: seq.launches[0].block,
        labels: seq.labels.clone(),
        kernels: seq.kernels.len(),
        opts: &opts,
        model: args.model.clone(),
        replay: guide
            .as_ref()
            .zip(args.replay.as_ref())
            .map(|(g, f)| (g.0.clone(), f.display().to_string())),
    };
    let report = KernelReport::new(&r, run, weft_mc::mem::peak_rss_bytes());
    out::print(&if args.json {
        report.to_json()
    } else {
        report.text()
    });
    if let Some(dir) = &args.graph {
        if let Err(e) = weft_exec::graphs::write(
            dir,
            r.errors.iter().filter(|e| !e.dot.is_empty()).map(|e| {
                (
                    format!(
                        "{}-{}.dot",
                        weft_exec::graphs::safe_name(&kname, "_"),
                        e.kind
                    ),
                    e.dot.as_str(),
                )
            }),
        ) {
            eprintln!("weft: cannot write graph: {e}");
            return ExitCode::Internal;
        }
    }
    report.exit_code()
}
