//! `weft race KERNEL`: runs a CUDA/OpenCL/PTX kernel on the SIMT emulator under one or more
//! warp schedules and checks every run with the BARRACUDA race analysis (weft-race, paper
//! 003); prints the races grouped by source-line pair, plus the emulator's barrier findings.
//!
//! Exit codes: 0 no race and no finding; 1 a race, barrier divergence, deadlock, livelock or
//! memory fault; 2 bad input (file, compile/parse/lowering error, unsupported instruction,
//! launch options); 3 internal error, instrumentation queue overflow, `--timeout` reached.

use std::path::PathBuf;
use std::time::Instant;

use weft_race::{Clocks as _, Compressed, Definition, Detector, Geometry, Report};
use weft_simt::{Options, Schedule};

use crate::cuda_kernel::{self, KernelBackend};
use crate::exit;
use crate::kernel_cmd::{prepare, Prepared};
use crate::launch::LaunchArgs;
use crate::out;

#[derive(clap::Args)]
pub struct Args {
    /// The kernel: .cu, .cuh, .cl (compiled with clang-19) or .ptx.
    file: PathBuf,
    /// Launch options shared by every kernel command (grid, block, buffers, args, -D, ...).
    #[command(flatten)]
    launch: LaunchArgs,
    /// First warp schedule: `rr` (round-robin) or a seed.
    #[arg(long, default_value = "rr")]
    schedule: String,
    /// Runs to check: the first schedule, then seeds 1, 2, ... (after a seed S: S+1, ...).
    #[arg(long, default_value_t = 1)]
    schedules: u32,
    /// Race definition: `barracuda` (paper 003) or `scoped` (lock-step warps with scoped
    /// RC11's mutual scope inclusion for synchronisation and atomics).
    #[arg(long, default_value = "barracuda")]
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
pub fn run(a: Args) -> i32 {
    if let Some(t) = a.timeout {
        if !(t.is_finite() && t > 0.0) {
            eprintln!("weft: --timeout {t}: expected a positive number of seconds");
            return exit::BAD_INPUT;
        }
        // Watchdog: the emulator and the analysis run to completion or until this fires;
        // nothing has been printed to stdout before the report, so nothing is half-written.
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs_f64(t));
            eprintln!("weft: --timeout: the analysis did not finish in {t} s; no report");
            std::process::exit(exit::INTERNAL);
        });
    }
    match inner(a) {
        Ok(c) => c,
        Err((c, m)) => {
            eprintln!("weft: {m}");
            c
        }
    }
}

fn schedules(first: &str, n: u32) -> Result<Vec<Schedule>, String> {
    let base = if first == "rr" {
        None
    } else {
        Some(
            first
                .parse::<u64>()
                .map_err(|_| format!("--schedule {first}: expected `rr` or a seed"))?,
        )
    };
    let mut v = Vec::new();
    for i in 0..u64::from(n.max(1)) {
        v.push(match base {
            None if i == 0 => Schedule::RoundRobin,
            None => Schedule::Random(i),
            Some(s) => Schedule::Random(s.wrapping_add(i)),
        });
    }
    Ok(v)
}

fn inner(mut a: Args) -> Result<i32, (i32, String)> {
    if a.backend == KernelBackend::Cuda {
        a.instrumented = true;
    }
    let bad = |m: String| (exit::BAD_INPUT, m);
    let def = Definition::parse(&a.definition).ok_or_else(|| {
        bad(format!(
            "--definition {}: expected `barracuda` or `scoped`",
            a.definition
        ))
    })?;
    let Prepared {
        kernel,
        launch,
        args,
        buffers,
        module,
        local_params,
    } = prepare(&a.file, &a.launch)?;
    let threads = launch.grid_ctas() * launch.block_threads();
    if launch.grid_ctas() > u64::from(u32::MAX / 1024) || threads > u64::from(u32::MAX) {
        return Err(bad(format!(
            "{threads} threads: at most 2^32 for race analysis"
        )));
    }
    let scheds = schedules(&a.schedule, a.schedules).map_err(bad)?;
    let geo = Geometry {
        block_threads: launch.block_threads() as u32,
        ctas: launch.grid_ctas() as u32,
    };
    let instrumented = if a.instrumented {
        let inst =
            weft_instrument::instrument(&module.ptx, &weft_instrument::Options { prune: false })
                .map_err(|e| bad(format!("{}: cannot instrument: {e}", a.file.display())))?;
        let pruned =
            weft_instrument::instrument(&module.ptx, &weft_instrument::Options { prune: true })
                .map_err(|e| bad(format!("{}: cannot instrument: {e}", a.file.display())))?;
        let st = pruned.stats;
        eprintln!(
            "weft: instrumented {} of {} instructions ({} after pruning), {} control-flow logging points",
            st.instrumented, st.instructions, st.instrumented_pruned, st.control_points
        );
        let m = weft_ptx::parse(&inst.ptx)
            .map_err(|e| (exit::INTERNAL, format!("instrumented PTX: {e}")))?;
        let ik = weft_ptx::lower_kernel(&m, None)
            .map_err(|e| (exit::INTERNAL, format!("instrumented PTX: {e}")))?;
        Some((ik, inst.sites, inst.ptx))
    } else {
        None
    };
    let gpu = match a.backend {
        KernelBackend::Cuda => Some(cuda_kernel::open(a.device)?),
        KernelBackend::Emu => None,
    };
    let mut gpu_kernel_ms: Vec<f64> = Vec::new();
    let mut report = Report::default();
    let mut findings: Vec<String> = Vec::new();
    let mut completed = true;
    let (mut events, mut accesses, mut warp_instrs) = (0u64, 0u64, 0u64);
    let mut run_secs = 0f64;
    let (mut clock_bytes, mut shadow_bytes) = (0usize, 0usize);
    let mut formats = [0u64; 4];
    let start = Instant::now();
    for s in &scheds {
        let opts = Options {
            schedule: *s,
            max_resident_ctas: a.resident.max(1),
            quantum: a.quantum.max(1),
            max_steps: a.max_steps,
            ..Options::default()
        };
        let mut det: Detector<Compressed> = Detector::new(&kernel, geo, def);
        let sim_err = |e| match e {
            weft_simt::SimtError::Decode { pos, message } => {
                bad(format!("{}: {pos}: {message}", a.file.display()))
            }
            e => bad(e.to_string()),
        };
        let outcome = if let Some((ik, sites, iptx)) = &instrumented {
            let mut q = weft_simt::Buffer::zeroed("__wq_queue", weft_simt::ElemType::U8, 0);
            q.data = weft_instrument::queue_buffer(a.queues, a.queue_records);
            let mut iargs = args.clone();
            iargs.push(weft_simt::Arg::Buffer(buffers.len()));
            let mut ibufs = buffers.clone();
            ibufs.push(q);
            let (o, queue) = match &gpu {
                Some(g) => {
                    let r =
                        cuda_kernel::launch(g, ik, iptx, launch, &iargs, &ibufs, local_params, 0)?;
                    gpu_kernel_ms.push(r.median_kernel_time().as_secs_f64() * 1e3);
                    let mut bufs = r.buffers;
                    let queue = bufs.pop().unwrap_or_default();
                    let o = weft_simt::Outcome {
                        buffers: Vec::new(),
                        findings: Vec::new(),
                        completed: true,
                        stats: weft_simt::Stats::default(),
                    };
                    (o, queue)
                }
                None => {
                    let mut o =
                        weft_simt::run(ik, launch, &iargs, ibufs, &opts, None).map_err(sim_err)?;
                    let queue = o.buffers.pop().expect("queue buffer").data;
                    (o, queue)
                }
            };
            let mut bf = Vec::new();
            weft_instrument::decode_with_findings(
                &queue,
                sites,
                geo.block_threads,
                geo.ctas,
                &mut det,
                &mut bf,
            )
            .map_err(|e| (exit::INTERNAL, format!("instrumentation queue: {e}")))?;
            // On the GPU no emulator watched the barriers: the decoder's findings stand in.
            if gpu.is_some() {
                for f in &bf {
                    let f = barrier_finding_text(&kernel, launch, f);
                    if !findings.contains(&f) {
                        findings.push(f);
                    }
                }
            }
            o
        } else {
            weft_simt::run_with_sink(
                &kernel,
                launch,
                &args,
                buffers.clone(),
                &opts,
                None,
                Some(&mut det),
            )
            .map_err(sim_err)?
        };
        completed &= outcome.completed;
        for f in &outcome.findings {
            if is_arrive_pairing(&kernel, f) {
                continue;
            }
            let f = f.to_string();
            if !findings.contains(&f) {
                findings.push(f);
            }
        }
        events += det.events;
        accesses += det.accesses;
        warp_instrs += outcome.stats.warp_instrs;
        run_secs += outcome.stats.seconds;
        let (c, sh) = det.bytes();
        clock_bytes = clock_bytes.max(c);
        shadow_bytes = shadow_bytes.max(sh);
        let f = det.clocks.format_counts();
        for i in 0..4 {
            formats[i] += f[i];
        }
        report.merge(det.finish());
    }
    let secs = start.elapsed().as_secs_f64();
    if let (Some(g), false) = (&gpu, gpu_kernel_ms.is_empty()) {
        let id = g.identity();
        eprintln!(
            "weft: instrumented kernel ran on {} ({}): {} launch{}, kernel time {} ms",
            id.name,
            id.arch(),
            gpu_kernel_ms.len(),
            if gpu_kernel_ms.len() == 1 { "" } else { "es" },
            gpu_kernel_ms
                .iter()
                .map(|t| format!("{t:.3}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    report.resolve(|pc| kernel.describe_pos(pc as usize));
    let races = report.by_lines();
    let code = if races.is_empty() && findings.is_empty() && completed {
        exit::OK
    } else {
        exit::VIOLATION
    };
    let sched_names: Vec<String> = scheds
        .iter()
        .map(|s| match s {
            Schedule::RoundRobin => "rr".to_string(),
            Schedule::Random(x) => x.to_string(),
        })
        .collect();
    if a.json {
        let j = serde_json::json!({
            "kernel": kernel.name,
            "grid": launch.grid,
            "block": launch.block,
            "definition": def.name(),
            "trace": match (a.instrumented, a.backend) {
                (true, KernelBackend::Cuda) => "instrumented-ptx-cuda",
                (true, KernelBackend::Emu) => "instrumented-ptx",
                _ => "emulator",
            },
            "gpu_kernel_ms": gpu_kernel_ms,
            "schedules": sched_names,
            "completed": completed,
            "races": races,
            "races_dropped": report.dropped,
            "findings": findings,
            "stats": {
                "events": events,
                "accesses": accesses,
                "warp_instructions": warp_instrs,
                "clock_bytes": clock_bytes,
                "shadow_bytes": shadow_bytes,
                "formats": {"converged": formats[0], "diverged": formats[1], "nested_diverged": formats[2], "sparse_vc": formats[3]},
                "seconds": secs,
                "run_seconds": run_secs,
            }
        });
        out::line(&j.to_string());
    } else {
        let mut t = format!(
            "kernel {}: grid {}x{}x{}, block {}x{}x{}, {} threads; definition {}; schedules {}\n",
            kernel.name,
            launch.grid[0],
            launch.grid[1],
            launch.grid[2],
            launch.block[0],
            launch.block[1],
            launch.block[2],
            threads,
            def.name(),
            sched_names.join(",")
        );
        for (i, r) in races.iter().enumerate() {
            t.push_str(&format!(
                "race {}: {} ({}, {} memory)\n  {} ({}, thread {}) vs {} ({}, thread {})\n  address 0x{:x}, first at trace event {}, {} instance{}\n",
                i + 1,
                r.kind.name(),
                r.class.name(),
                r.space,
                r.first.line,
                r.first.access,
                r.first.thread,
                r.second.line,
                r.second.access,
                r.second.thread,
                r.address,
                r.event,
                r.count,
                if r.count == 1 { "" } else { "s" }
            ));
        }
        if report.dropped > 0 {
            t.push_str(&format!("{} more races not listed\n", report.dropped));
        }
        for f in &findings {
            t.push_str(&format!("{f}\n"));
        }
        if !completed && findings.is_empty() {
            t.push_str("the launch did not complete: the analysis covers only part of it\n");
        }
        t.push_str(&format!(
            "{} race{}, {} finding{}\n",
            races.len(),
            if races.len() == 1 { "" } else { "s" },
            findings.len(),
            if findings.len() == 1 { "" } else { "s" }
        ));
        out::print(&t);
    }
    eprintln!(
        "weft: {} warp-instructions, {} events, {} accesses checked in {:.3} s ({:.3} s emulating and analysing); analysis state {} B clocks + {} B shadow ({:.1} B/thread)",
        warp_instrs,
        events,
        accesses,
        secs,
        run_secs,
        clock_bytes,
        shadow_bytes,
        (clock_bytes + shadow_bytes) as f64 / threads.max(1) as f64
    );
    Ok(code)
}

/// A "met at barrier N from different instructions" finding where one side is `bar.arrive`:
/// producer/consumer named barriers pair `bar.arrive` with `bar.sync` by design (PTX ISA,
/// `bar.arrive`), so this is not barrier divergence.
fn is_arrive_pairing(kernel: &weft_ir::kernel::Kernel, f: &weft_simt::Finding) -> bool {
    let weft_simt::Finding::BarrierMismatch { positions, .. } = f else {
        return false;
    };
    let arrive = kernel.arrive_positions();
    positions.len() == 2 && positions.iter().any(|p| arrive.contains(p))
}

/// A decoder barrier finding in the emulator's words (`weft_simt::Finding`'s messages).
fn barrier_finding_text(
    kernel: &weft_ir::kernel::Kernel,
    launch: weft_simt::LaunchConfig,
    f: &weft_instrument::BarrierFinding,
) -> String {
    use weft_instrument::BarrierFinding as B;
    let cta = |c: u32| {
        let (gx, gy) = (launch.grid[0].max(1), launch.grid[1].max(1));
        format!("({},{},{})", c % gx, (c / gx) % gy, c / (gx * gy))
    };
    let threads = |warp: u32, mask: u32| {
        let mut parts = Vec::new();
        let mut l = 0;
        while l < 32 {
            if mask >> l & 1 == 1 {
                let start = l;
                while l + 1 < 32 && mask >> (l + 1) & 1 == 1 {
                    l += 1;
                }
                let (a, b) = (warp * 32 + start, warp * 32 + l);
                parts.push(if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                });
            }
            l += 1;
        }
        parts.join(",")
    };
    match f {
        B::PartialWarp {
            pc,
            cta: c,
            warp,
            reached,
            missing,
        } => format!(
            "barrier divergence at {}: CTA {} warp {warp}: threads {} reached the barrier, threads {} of the same warp did not",
            kernel.describe_pos(*pc as usize),
            cta(*c),
            threads(*warp, *reached),
            threads(*warp, *missing)
        ),
        B::DifferentInstructions { cta: c, id, pcs } => format!(
            "barrier divergence: CTA {} met at barrier {id} from different instructions: {}",
            cta(*c),
            pcs.iter()
                .map(|p| kernel.describe_pos(*p as usize))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        B::ExitedThreads {
            pc,
            cta: c,
            id,
            exited,
        } => format!(
            "barrier divergence at {}: CTA {} passed barrier {id} while {exited} threads had exited without reaching it",
            kernel.describe_pos(*pc as usize),
            cta(*c)
        ),
    }
}
