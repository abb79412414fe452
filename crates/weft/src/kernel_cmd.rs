//! `weft run-kernel` and `weft ptx`: run a CUDA/OpenCL/PTX kernel on the SIMT emulator
//! (weft-simt) and print its buffers and findings; print the PTX a source compiles to.
//!
//! Exit codes: 0 the kernel ran to completion without findings; 1 barrier divergence,
//! deadlock, livelock (step limit), memory fault or trap; 2 bad input (unreadable file,
//! compile/parse/lowering error, bad launch options); 3 internal error (trace not writable).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use weft_cuda::bind::Prepared;
use weft_simt::{LaunchConfig, Options};

use crate::exit::{ExitCode, Failure};
use crate::launch::LaunchArgs;
use crate::out;
use weft_hw_cuda::emulated as cuda_kernel;

/// Where a kernel command runs the kernel.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KernelBackend {
    /// weft's SIMT emulator (no GPU needed).
    #[default]
    Emu,
    /// An NVIDIA GPU through the CUDA driver (`libcuda.so.1`), PTX JIT-compiled by the driver.
    Cuda,
}

#[derive(clap::Args)]
pub struct PtxArgs {
    /// A .cu, .cuh, .cl or .ptx kernel file.
    file: PathBuf,
    /// Print the lowered kernel IR instead of the PTX.
    #[arg(long)]
    ir: bool,
    #[command(flatten)]
    launch: LaunchArgs,
}

/// Prints notes and warnings for the user (`weft: ` before each) to stderr.
pub fn print_note(n: &str) {
    eprintln!("weft: {n}");
}

/// Loads `file` with the shared launch options and binds its arguments
/// (`weft_cuda::bind::prepare`), printing its notes.
pub fn prepare(file: &Path, launch_args: &LaunchArgs) -> Result<Prepared, Failure> {
    let cli = launch_args.spec().map_err(Failure::bad_input)?;
    weft_cuda::bind::prepare(file, &cli, &mut print_note)
}

/// `weft ptx FILE`: compile, parse and lower every kernel (or `--kernel`); print the PTX
/// (or `--ir`). Exit 2 naming each unsupported construct once.
pub fn run_ptx(args: PtxArgs) -> ExitCode {
    crate::exit::finish(ptx_inner(args))
}

fn ptx_inner(args: PtxArgs) -> Result<ExitCode, Failure> {
    let cli = args.launch.spec().map_err(Failure::bad_input)?;
    match weft_cuda::bind::listing(&args.file, &cli, args.ir, &mut print_note)? {
        Some(text) => out::print(&text),
        None => return Ok(ExitCode::BadInput),
    }
    Ok(ExitCode::Ok)
}

#[derive(clap::Args)]
pub struct RunArgs {
    /// The kernel: .cu, .cuh, .cl (compiled with clang-19) or .ptx.
    file: PathBuf,
    #[command(flatten)]
    launch: LaunchArgs,
    /// Warp schedule: `rr` (round-robin) or a seed for a random interleaving.
    #[arg(long, default_value = "rr")]
    schedule: String,
    /// Stream the paper-003 event trace to FILE (`-` for stdout).
    #[arg(long)]
    trace: Option<PathBuf>,
    /// CTAs resident at once.
    #[arg(long, default_value_t = 32)]
    resident: usize,
    /// Cores to emulate CTAs on; a parallel run that cannot stand for the sequential
    /// schedule runs again sequentially (docs/perf.md). Default: WEFT_JOBS, else 1.
    #[arg(long)]
    jobs: Option<usize>,
    /// Warp-instructions per scheduling quantum.
    #[arg(long, default_value_t = 64)]
    quantum: u32,
    /// Stop (exit 1) after this many warp-instructions.
    #[arg(long, default_value_t = 1u64 << 32)]
    max_steps: u64,
    /// Print every element of big buffers instead of a digest.
    #[arg(long)]
    full: bool,
    /// Print the result as JSON (all elements).
    #[arg(long)]
    json: bool,
    /// Where the kernel runs: `emu` (weft's SIMT emulator) or `cuda` (an NVIDIA GPU: the
    /// driver JIT-compiles the same PTX; needs libcuda.so.1).
    #[arg(long, value_enum, default_value_t = KernelBackend::Emu)]
    backend: KernelBackend,
    /// CUDA device ordinal (with --backend cuda).
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// With --backend cuda: launch N more times on fresh copies of the inputs and print the
    /// median kernel time (CUDA events).
    #[arg(long, default_value_t = 0)]
    repeat: u32,
}

/// `weft run-kernel`.
pub fn run_kernel(a: RunArgs) -> ExitCode {
    crate::exit::finish(run_inner(a))
}

fn run_inner(a: RunArgs) -> Result<ExitCode, Failure> {
    let bad = Failure::bad_input;
    let schedule = weft_race::session::schedules(&a.schedule, 1).map_err(bad)?[0];
    let Prepared {
        kernel,
        launch,
        args,
        buffers,
        module,
        local_params,
    } = prepare(&a.file, &a.launch)?;
    if a.backend == KernelBackend::Cuda {
        if a.trace.is_some() {
            return Err(bad("--trace needs --backend emu".into()));
        }
        let gpu = cuda_kernel::open(a.device)?;
        let id = gpu.identity();
        let run = cuda_kernel::launch(
            &gpu,
            &kernel,
            &module.ptx,
            launch,
            &args,
            &buffers,
            local_params,
            a.repeat,
        )?;
        let out: Vec<weft_simt::Buffer> = buffers
            .into_iter()
            .zip(&run.buffers)
            .map(|(b, d)| weft_simt::Buffer {
                data: d.clone(),
                ..b
            })
            .collect();
        print_result(&a, &kernel, launch, &out, &[], true, run.summary_json(&id));
        eprintln!("weft: {}", run.timing_text(&id));
        return Ok(ExitCode::Ok);
    }
    let opts = Options {
        schedule,
        max_resident_ctas: a.resident.max(1),
        quantum: a.quantum.max(1),
        max_steps: a.max_steps,
        jobs: a.jobs.unwrap_or_else(|| Options::default().jobs).max(1),
        ..Options::default()
    };
    let sink: Option<Box<dyn Write>> = match &a.trace {
        None => None,
        Some(p) if p.as_os_str() == "-" => Some(Box::new(std::io::stdout())),
        Some(p) => Some(Box::new(File::create(p).map_err(|e| {
            Failure::bad_input(format!("--trace {}: {e}", p.display()))
        })?)),
    };
    let mut trace_out = sink.map(|w| BufWriter::with_capacity(1 << 16, w));
    let outcome = weft_simt::run(
        &kernel,
        launch,
        &args,
        buffers,
        &opts,
        trace_out.as_mut().map(|b| b as &mut dyn Write),
    )
    .map_err(|e| match e {
        weft_simt::SimtError::Io(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Failure::new(ExitCode::Ok, String::new())
        }
        weft_simt::SimtError::Io(e) => Failure::tool(format!("writing the trace: {e}")),
        e => weft_race::session::simt_failure(&a.file.display().to_string(), e),
    })?;
    drop(trace_out);
    let code = ExitCode::violation_if(!(outcome.findings.is_empty() && outcome.completed));
    let findings: Vec<String> = outcome.findings.iter().map(|f| f.to_string()).collect();
    let s = &outcome.stats;
    // Device printf output, call by call in execution order, before the report.
    let printed: Vec<&str> = outcome.printed.iter().map(|p| p.text.as_str()).collect();
    if !a.json && !printed.is_empty() {
        if a.trace.as_ref().is_some_and(|p| p.as_os_str() == "-") {
            eprint!("{}", printed.concat());
        } else {
            out::print(&printed.concat());
        }
    }
    print_result(
        &a,
        &kernel,
        launch,
        &outcome.buffers,
        &findings,
        outcome.completed,
        serde_json::json!({ "warp_instructions": s.warp_instrs, "printf": printed }),
    );
    eprintln!("weft: {}", weft_simt::report::stats_line(s));
    Ok(code)
}

/// Prints a run's buffers and findings (text or JSON), for either backend.
fn print_result(
    a: &RunArgs,
    kernel: &weft_ir::kernel::Kernel,
    launch: LaunchConfig,
    buffers: &[weft_simt::Buffer],
    findings: &[String],
    completed: bool,
    extra: serde_json::Value,
) {
    let r = weft_simt::report::RunReport {
        kernel: &kernel.name,
        launch,
        buffers,
        findings,
        completed,
    };
    if a.json {
        out::line(&r.to_json(extra));
    } else if a.trace.as_ref().is_some_and(|p| p.as_os_str() == "-") {
        eprint!("{}", r.text(a.full));
    } else {
        out::print(&r.text(a.full));
    }
}
