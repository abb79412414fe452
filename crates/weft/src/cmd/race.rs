//! `weft race KERNEL`: runs a CUDA/OpenCL/PTX kernel on the SIMT emulator under one or more
//! warp schedules and checks every run with the BARRACUDA race analysis (weft-race, paper
//! 003); prints the races grouped by source-line pair, plus the emulator's barrier findings.
//! The session itself is `weft_race::session` (instrumented traces: `weft_race::instrumented`).
//!
//! Exit codes: 0 no race and no finding; 1 a race, barrier divergence, deadlock, livelock or
//! memory fault; 2 bad input (file, compile/parse/lowering error, unsupported instruction,
//! launch options); 3 internal error, instrumentation queue overflow, `--timeout` reached.

use std::path::PathBuf;

use weft_cuda::bind::Prepared;
use weft_race::instrumented::{GpuLauncher, InstrumentedTrace};
use weft_race::session::{self, Emulator, SessionOptions};
use weft_race::Definition;

use crate::exit::{ExitCode, Failure};
use crate::kernel_cmd::prepare;
use crate::kernel_cmd::KernelBackend;
use crate::launch::LaunchArgs;
use crate::out;
use weft_hw_cuda::emulated as cuda_kernel;

#[derive(clap::Args)]
pub struct Args {
    /// The kernel: .cu, .cuh, .cl (compiled with clang-19) or .ptx. A .cu file with a `main`
    /// and no geometry (--grid or header) is run as a whole program.
    file: Option<PathBuf>,
    /// A whole program and its arguments: `weft race [options] -- ./app ARGS...`, or
    /// `weft race app.cu -- ARGS...` (docs/programs.md).
    #[arg(last = true)]
    program: Vec<String>,
    /// Whole programs: exit code when a race or finding was reported (the program's own
    /// otherwise).
    #[arg(long, default_value_t = 1)]
    error_exitcode: i32,
    /// Launch options shared by every kernel command (grid, block, buffers, args, -D, ...).
    #[command(flatten)]
    launch: LaunchArgs,
    /// First warp schedule: `rr` (round-robin) or a seed.
    #[arg(long, default_value = "rr")]
    schedule: String,
    /// Runs to check: the first schedule, then seeds 1, 2, ... (after a seed S: S+1, ...).
    /// Default: 4 for a launch of at most 256 threads (for a whole program, on a copy of
    /// device memory: the program sees the first run's), else 1; 1 with --backend cuda.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    schedules: Option<u32>,
    /// Race definition: `scoped` (default: lock-step warps with scoped RC11's mutual scope
    /// inclusion for synchronisation and atomics, so a block-scoped atomic or fence used
    /// between blocks is reported) or `barracuda` (paper 003's original definition).
    #[arg(long, default_value = "scoped")]
    definition: String,
    /// CTAs resident at once.
    #[arg(long, default_value_t = 32)]
    resident: usize,
    /// Warp-instructions per scheduling quantum.
    #[arg(long, default_value_t = 64)]
    quantum: u32,
    /// Stop (exit 1) after this many warp-instructions per run.
    #[arg(long, default_value_t = 1u64 << 32)]
    max_steps: u64,
    /// Get the trace from instrumented PTX (paper 003 §4.1-4.2): the kernel is rewritten to
    /// log its operations into a device-side queue, run, and the queue decoded.
    #[arg(long)]
    instrumented: bool,
    /// With --instrumented: capacity of each queue in records (an overflow is an error, exit 3).
    #[arg(long, default_value_t = 1 << 14)]
    queue_records: u32,
    /// With --instrumented: number of queues (CTA c logs into queue c % N).
    #[arg(long, default_value_t = 4)]
    queues: u32,
    /// Where the instrumented kernel runs: `emu` (the SIMT emulator) or `cuda` (an NVIDIA
    /// GPU, as BARRACUDA does; implies --instrumented; each schedule is one more launch).
    #[arg(long, value_enum, default_value_t = KernelBackend::Emu)]
    backend: KernelBackend,
    /// CUDA device ordinal (with --backend cuda).
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// Give up after this many seconds (exit 3, no report: the analysis is incomplete).
    #[arg(long)]
    timeout: Option<f64>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// `weft race`.
pub fn run(a: Args) -> ExitCode {
    if let Some(words) = program_words(&a) {
        let r = crate::cmd::program::RunArgs {
            timeout: a.timeout,
            device: None,
            max_steps: Some(a.max_steps),
            schedule: Some(a.schedule.clone()),
            include: a.launch.include_dirs.clone(),
            define: a.launch.defines.clone(),
        };
        let how = (a.definition.as_str(), a.schedules);
        return crate::cmd::program::race(&words, &r, how, a.json, a.error_exitcode);
    }
    let Some(file) = a.file.clone() else {
        eprintln!("weft: race: expected a kernel file or `-- ./app ARGS...`");
        return ExitCode::BadInput;
    };
    run_kernel(a, file)
}

/// The program and its arguments when `a` names a whole program: words after `--`, or a
/// `.cu` file with a `main` and no launch geometry.
fn program_words(a: &Args) -> Option<Vec<String>> {
    let mut words: Vec<String> = a.file.iter().map(|f| f.display().to_string()).collect();
    if !a.program.is_empty() {
        if !words.is_empty() {
            words.push("--".into());
        }
        words.extend(a.program.iter().cloned());
        return Some(words);
    }
    let f = a.file.as_ref()?;
    let cu = f.extension().is_some_and(|e| e == "cu");
    (cu && a.launch.grid.is_none()
        && a.launch.block.is_none()
        && !weft_program::has_header_geometry(f)
        && weft_program::has_main(f))
    .then_some(words)
}

fn run_kernel(a: Args, file: PathBuf) -> ExitCode {
    if let Some(t) = a.timeout {
        if !(t.is_finite() && t > 0.0) {
            eprintln!("weft: --timeout {t}: expected a positive number of seconds");
            return ExitCode::BadInput;
        }
        // Watchdog: the emulator and the analysis run to completion or until this fires;
        // nothing has been printed to stdout before the report, so nothing is half-written.
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs_f64(t));
            eprintln!("weft: --timeout: the analysis did not finish in {t} s; no report");
            std::process::exit(ExitCode::Internal.code());
        });
    }
    crate::exit::finish(inner(a, file))
}

fn inner(mut a: Args, file_path: PathBuf) -> Result<ExitCode, Failure> {
    if a.backend == KernelBackend::Cuda {
        a.instrumented = true;
    }
    let definition = Definition::parse(&a.definition).ok_or_else(|| {
        Failure::bad_input(format!(
            "--definition {}: expected `barracuda` or `scoped`",
            a.definition
        ))
    })?;
    let p = prepare(&file_path, &a.launch)?;
    session::check_launch(p.launch)?;
    let gpu = matches!(a.backend, KernelBackend::Cuda);
    let count = session::schedule_count(a.schedules, gpu, p.launch);
    let opts = SessionOptions {
        schedules: session::schedules(&a.schedule, count).map_err(Failure::bad_input)?,
        definition,
        resident: a.resident,
        quantum: a.quantum,
        max_steps: a.max_steps,
    };
    let file = file_path.display().to_string();
    let report = if a.instrumented {
        let inst = weft_race::instrumented::prepare(&p.module.ptx, &file)?;
        let st = &inst.stats;
        eprintln!(
            "weft: instrumented {} of {} instructions ({} after pruning), {} control-flow logging points",
            st.instrumented, st.instructions, st.instrumented_pruned, st.control_points
        );
        let gpu = match a.backend {
            KernelBackend::Cuda => Some(cuda_kernel::open(a.device)?),
            KernelBackend::Emu => None,
        };
        let launcher = gpu.as_ref().map(|g| gpu_launcher(g, &p));
        let mut source = InstrumentedTrace::new(
            &inst,
            &p.kernel,
            p.launch,
            &p.args,
            &p.buffers,
            a.queues,
            a.queue_records,
            &file,
            launcher,
        );
        let report = session::run(&p.kernel, p.launch, &opts, &mut source)?;
        if let (Some(g), false) = (&gpu, report.gpu_kernel_ms.is_empty()) {
            let id = g.identity();
            let ms = &report.gpu_kernel_ms;
            eprintln!(
                "weft: {}",
                weft_race::instrumented::gpu_line(&id.name, &id.arch(), ms)
            );
        }
        report
    } else {
        let mut source = Emulator {
            kernel: &p.kernel,
            launch: p.launch,
            args: &p.args,
            buffers: &p.buffers,
            file: &file,
        };
        session::run(&p.kernel, p.launch, &opts, &mut source)?
    };
    if a.json {
        out::line(&report.to_json());
    } else {
        out::print(&report.text());
    }
    eprintln!("weft: {}", report.stats_line());
    Ok(report.exit_code())
}

/// Launches the instrumented kernel of `p` on `gpu` (`--backend cuda`).
fn gpu_launcher<'a>(gpu: &'a weft_hw_cuda::CudaRunner, p: &'a Prepared) -> Box<GpuLauncher<'a>> {
    Box::new(
        move |k: &weft_ir::kernel::Kernel,
              ptx: &str,
              args: &[weft_simt::Arg],
              bufs: &[weft_simt::Buffer]| {
            let r = cuda_kernel::launch(gpu, k, ptx, p.launch, args, bufs, p.local_params, 0)?;
            let ms = r.median_kernel_time().as_secs_f64() * 1e3;
            Ok((r.buffers, ms))
        },
    )
}
