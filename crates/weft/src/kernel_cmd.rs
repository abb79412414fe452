//! `weft run-kernel` and `weft ptx`: run a CUDA/OpenCL/PTX kernel on the SIMT emulator
//! (weft-simt) and print its buffers and findings; print the PTX a source compiles to.
//!
//! Exit codes: 0 the kernel ran to completion without findings; 1 barrier divergence,
//! deadlock, livelock (step limit), memory fault or trap; 2 bad input (unreadable file,
//! compile/parse/lowering error, bad launch options); 3 internal error (trace not writable).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use weft_simt::spec::{bind, parse_buffer_spec, source_params, BufferSpec};
use weft_simt::{LaunchConfig, Options, Schedule};

use crate::cuda_kernel::{self, KernelBackend};
use crate::exit;
use crate::launch::LaunchArgs;
use crate::out;

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

/// Prints the launch description's notes (ignored flags, `*` dimensions) to stderr.
fn print_notes(m: &weft_cuda::FrontModule) {
    for n in m.spec.notes() {
        eprintln!("weft: {n}");
    }
    if !m.external_functions.is_empty() {
        eprintln!(
            "weft: note: {} declared without a body: calls have no effect on memory and return arbitrary values (GPUVerify's meaning)",
            m.external_functions.join(", ")
        );
    }
}

/// `weft ptx FILE`: compile, parse and lower every kernel (or `--kernel`); print the PTX
/// (or `--ir`). Exit 2 naming each unsupported construct once.
pub fn run_ptx(args: PtxArgs) -> i32 {
    let cli = match args.launch.spec() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("weft: {e}");
            return exit::BAD_INPUT;
        }
    };
    let m = match weft_cuda::load_module(&args.file, &cli) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("weft: {}", e.report());
            return e.exit_code();
        }
    };
    print_notes(&m);
    if m.without_line_tables {
        eprintln!(
            "weft: note: clang crashed compiling with line tables; compiled without (findings name PTX lines)"
        );
    }
    let names: Vec<String> = match &m.spec.kernel {
        Some(k) => vec![k.clone()],
        None => m.module.kernels().map(|k| k.name.clone()).collect(),
    };
    if names.is_empty() {
        eprintln!(
            "weft: {}: the module defines no kernel (no `__global__`/`__kernel` function)",
            args.file.display()
        );
        return exit::BAD_INPUT;
    }
    let mut failed = false;
    let mut ir = String::new();
    for n in &names {
        match weft_cuda::frontend::lower(&m, Some(n)) {
            Ok(k) => {
                if args.ir {
                    ir.push_str(&weft_ptx::irprint::print_kernel(&k));
                }
            }
            Err(e) => {
                eprintln!("weft: {e}");
                failed = true;
            }
        }
    }
    if failed {
        return exit::BAD_INPUT;
    }
    if args.ir {
        out::print(&ir);
    } else {
        out::print(&m.ptx);
    }
    exit::OK
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
pub fn run_kernel(a: RunArgs) -> i32 {
    match run_inner(a) {
        Ok(code) => code,
        Err((code, msg)) => {
            eprintln!("weft: {msg}");
            code
        }
    }
}

/// A kernel ready to launch on the emulator: compiled, lowered, with its geometry, its
/// arguments bound and its `__local` parameters given work-group memory. Every kernel command
/// (run-kernel, race, and the other engines) prepares a launch through this one function.
pub struct Prepared {
    pub kernel: weft_ir::kernel::Kernel,
    pub launch: LaunchConfig,
    pub args: Vec<weft_simt::Arg>,
    pub buffers: Vec<weft_simt::Buffer>,
    pub module: weft_cuda::FrontModule,
    /// OpenCL `__local` pointer parameters given work-group memory (emulator only).
    pub local_params: usize,
}

/// Loads `file` with the shared launch options and binds its arguments (exit code, message
/// on failure).
pub fn prepare(file: &Path, launch_args: &LaunchArgs) -> Result<Prepared, (i32, String)> {
    let bad = |m: String| (exit::BAD_INPUT, m);
    let cli = launch_args.spec().map_err(bad)?;
    let fk = weft_cuda::load_kernel(file, &cli).map_err(|e| (e.exit_code(), e.report()))?;
    print_notes(&fk.module);
    let spec = fk.module.spec.clone();
    let mut kernel = fk.kernel;
    let launch = match fk.launch {
        Some(l) => LaunchConfig {
            grid: l.grid,
            block: l.block,
        },
        None => return Err(bad(
            "no launch geometry: give --grid and --block (or a //--gridDim= --blockDim= header)"
                .into(),
        )),
    };
    let src_params = fk.module.source.as_deref().and_then(|s| {
        let short = demangle(&kernel.name);
        source_params(s, short)
    });
    let source_names: Vec<String> = src_params
        .as_ref()
        .map(|v| v.iter().map(|p| p.name.clone()).collect())
        .unwrap_or_default();
    let mut specs: Vec<BufferSpec> = spec
        .buffers
        .iter()
        .map(|s| parse_buffer_spec(s))
        .collect::<Result<_, _>>()
        .map_err(|e| bad(format!("--buffer {e}")))?;
    // `__local` pointer parameters: a `--buffer` naming one gives its size.
    let mut module = fk.module;
    let local_idx = local_param_indices(&module, &kernel);
    let ptx_names: Vec<String> = kernel.params.iter().map(|p| p.name.clone()).collect();
    let names_of = |i: usize| -> Vec<String> {
        let mut v = vec![ptx_names[i].clone(), format!("param_{i}"), i.to_string()];
        if let Some(n) = source_names.get(i) {
            v.push(n.clone());
        }
        v
    };
    let mut extra_locals = Vec::new();
    specs.retain(
        |b| match local_idx.iter().find(|&&i| names_of(i).contains(&b.name)) {
            Some(&i) => {
                let elem = b
                    .elem
                    .or_else(|| {
                        src_params
                            .as_ref()
                            .and_then(|s| s.get(i))
                            .and_then(|p| p.elem)
                    })
                    .map_or(4, |e| e.size() as u64);
                extra_locals.push((b.name.clone(), (b.count as u64 * elem).max(1)));
                false
            }
            None => true,
        },
    );
    module.spec.locals.extend(extra_locals);
    let locals = weft_cuda::frontend::attach_locals(
        &module,
        &mut kernel,
        &source_names,
        Some(&weft_cuda::LaunchConfig {
            grid: launch.grid,
            block: launch.block,
        }),
    );
    let mut scalars: Vec<(String, String)> = spec.args.clone();
    for l in &locals {
        if l.defaulted {
            eprintln!(
                "weft: warning: __local parameter `{}` gets {} bytes per work-group (give --local {}=SIZE)",
                l.name, l.bytes, l.name
            );
        }
        scalars.push((format!("param_{}", l.param), l.offset.to_string()));
    }
    // GPUVerify's --kernel-args: values of the scalar parameters in order (`*`: left free).
    if !spec.positional_args.is_empty() {
        let scalar_params: Vec<usize> = (0..kernel.params.len())
            .filter(|&i| {
                !local_idx.contains(&i)
                    && src_params
                        .as_ref()
                        .and_then(|s| s.get(i))
                        .map_or(kernel.params[i].ty.bits != 64, |p| !p.pointer)
            })
            .collect();
        for (v, &i) in spec.positional_args.iter().zip(&scalar_params) {
            let bound = names_of(i)
                .iter()
                .any(|n| scalars.iter().any(|(s, _)| s == n));
            if v != "*" && !bound {
                scalars.push((format!("param_{i}"), v.clone()));
            }
        }
    }
    let (args, buffers) = bind(&kernel, src_params.as_deref(), &specs, &scalars).map_err(bad)?;
    Ok(Prepared {
        kernel,
        launch,
        args,
        buffers,
        module,
        local_params: locals.len(),
    })
}

/// A host-ordered sequence of launches ready for the model checker (`weft mc --launch`):
/// per launch its kernel, geometry, arguments (`Arg::Buffer(i)`: buffer `i` of `buffers`)
/// and label; the buffers are the `--buffer`s the launches name, each one memory for all.
pub struct PreparedSeq {
    pub kernels: Vec<weft_ir::kernel::Kernel>,
    pub launches: Vec<LaunchConfig>,
    pub args: Vec<Vec<weft_simt::Arg>>,
    pub labels: Vec<String>,
    pub buffers: Vec<weft_simt::Buffer>,
}

/// Prepares each `kernel<<<grid, block>>>(args)` of `calls` through [`prepare`] (so the
/// source is compiled once, then taken from the compiler cache, and every launch binds its
/// arguments as `run-kernel` does): an argument naming a `--buffer` of `base` binds that
/// buffer, any other is a scalar value of its parameter.
pub fn prepare_sequence(
    file: &Path,
    base: &LaunchArgs,
    calls: &[crate::launch::LaunchCall],
) -> Result<PreparedSeq, (i32, String)> {
    let bad = |m: String| (exit::BAD_INPUT, m);
    if base.grid.is_some()
        || base.block.is_some()
        || base.global_size.is_some()
        || base.kernel.is_some()
        || base.kernel_args.is_some()
        || !base.args.is_empty()
    {
        return Err(bad(
            "with --launch, give each launch's kernel, grid, block and arguments in its --launch (not --kernel/--grid/--block/--arg)".into(),
        ));
    }
    // The declared buffers: name, and the rest of the option (`COUNT[xTYPE][:INIT]`).
    let mut decl: Vec<(String, String)> = Vec::new();
    for b in &base.buffers {
        parse_buffer_spec(b).map_err(|e| bad(format!("--buffer {e}")))?;
        let (name, rest) = b.split_once('=').unwrap_or((b, ""));
        if decl.iter().any(|(n, _)| n == name) {
            return Err(bad(format!("--buffer {name} is given twice")));
        }
        decl.push((name.to_string(), rest.to_string()));
    }
    let mut seq = PreparedSeq {
        kernels: Vec::new(),
        launches: Vec::new(),
        args: Vec::new(),
        labels: Vec::new(),
        buffers: Vec::new(),
    };
    // Per declared buffer: its index in `seq.buffers` once a launch binds it.
    let mut slot: Vec<Option<usize>> = vec![None; decl.len()];
    for c in calls {
        let mut la = base.clone();
        la.kernel = Some(c.kernel.clone());
        la.grid = Some(c.grid.clone());
        la.block = Some(c.block.clone());
        la.buffers.clear();
        // The declared buffer each bound buffer comes from, in binding order.
        let mut bound = Vec::new();
        for (i, a) in c.args.iter().enumerate() {
            match decl.iter().position(|(n, _)| n == a) {
                Some(d) => {
                    la.buffers.push(format!("{i}={}", decl[d].1));
                    bound.push(d);
                }
                None => la.args.push(format!("{i}={a}")),
            }
        }
        let p = prepare(file, &la).map_err(|(code, m)| (code, format!("{}: {m}", c.label())))?;
        if p.kernel.params.len() != c.args.len() {
            return Err(bad(format!(
                "--launch {}: {} takes {} arguments, {} given",
                c.label(),
                c.kernel,
                p.kernel.params.len(),
                c.args.len()
            )));
        }
        if p.local_params > 0 || p.buffers.len() != bound.len() {
            return Err(bad(format!(
                "--launch {}: OpenCL __local parameters are not supported in a launch sequence",
                c.label()
            )));
        }
        let mut args = p.args.clone();
        for a in &mut args {
            if let weft_simt::Arg::Buffer(j) = a {
                let d = bound[*j];
                let mut b = p.buffers[*j].clone();
                b.name = decl[d].0.clone();
                let k = match slot[d] {
                    Some(k) => {
                        let first = &seq.buffers[k];
                        if first.data.len() != b.data.len() {
                            return Err(bad(format!(
                                "--launch {}: buffer {} is {} bytes here but {} in an earlier launch (give its type: --buffer {}=COUNTxTYPE)",
                                c.label(),
                                b.name,
                                b.data.len(),
                                first.data.len(),
                                b.name
                            )));
                        }
                        k
                    }
                    None => {
                        seq.buffers.push(b);
                        slot[d] = Some(seq.buffers.len() - 1);
                        seq.buffers.len() - 1
                    }
                };
                *a = weft_simt::Arg::Buffer(k);
            }
        }
        seq.kernels.push(p.kernel);
        seq.launches.push(p.launch);
        seq.args.push(args);
        seq.labels.push(c.label());
    }
    if let Some(d) = slot.iter().position(|s| s.is_none()) {
        return Err(bad(format!(
            "--buffer {} is passed to no --launch",
            decl[d].0
        )));
    }
    Ok(seq)
}

fn run_inner(a: RunArgs) -> Result<i32, (i32, String)> {
    let bad = |m: String| (exit::BAD_INPUT, m);
    let schedule = if a.schedule == "rr" {
        Schedule::RoundRobin
    } else {
        Schedule::Random(a.schedule.parse().map_err(|_| {
            bad(format!(
                "--schedule {}: expected `rr` or a seed",
                a.schedule
            ))
        })?)
    };
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
            .zip(run.buffers.iter())
            .map(|(mut b, d)| {
                b.data = d.clone();
                b
            })
            .collect();
        let kernel_ms = run.median_kernel_time().as_secs_f64() * 1e3;
        let extra = serde_json::json!({
            "backend": "cuda",
            "device": id.name,
            "arch": id.arch(),
            "driver": id.driver_version,
            "jit_ms": run.load_time.as_secs_f64() * 1e3,
            "kernel_ms": kernel_ms,
            "kernel_ms_all": run.kernel_times.iter().map(|t| t.as_secs_f64() * 1e3).collect::<Vec<_>>(),
        });
        print_result(&a, &kernel, launch, &out, &[], true, extra);
        eprintln!(
            "weft: ran on {} ({}, driver {}): JIT {:.1} ms, kernel {:.3} ms (median of {} launches)",
            id.name,
            id.arch(),
            id.driver_version,
            run.load_time.as_secs_f64() * 1e3,
            kernel_ms,
            run.kernel_times.len()
        );
        return Ok(exit::OK);
    }
    let opts = Options {
        schedule,
        max_resident_ctas: a.resident.max(1),
        quantum: a.quantum.max(1),
        max_steps: a.max_steps,
        ..Options::default()
    };
    let mut trace_out: Option<Box<dyn Write>> = match &a.trace {
        None => None,
        Some(p) if p.as_os_str() == "-" => Some(Box::new(BufWriter::with_capacity(
            1 << 16,
            std::io::stdout(),
        ))),
        Some(p) => Some(Box::new(BufWriter::with_capacity(
            1 << 16,
            File::create(p)
                .map_err(|e| (exit::BAD_INPUT, format!("--trace {}: {e}", p.display())))?,
        ))),
    };
    let outcome = weft_simt::run(
        &kernel,
        launch,
        &args,
        buffers,
        &opts,
        trace_out.as_mut().map(|b| &mut **b as &mut dyn Write),
    )
    .map_err(|e| match e {
        weft_simt::SimtError::Io(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            (exit::OK, String::new())
        }
        weft_simt::SimtError::Io(e) => (exit::INTERNAL, format!("writing the trace: {e}")),
        weft_simt::SimtError::Decode { pos, message } => {
            bad(format!("{}: {pos}: {message}", a.file.display()))
        }
        e => bad(e.to_string()),
    })?;
    drop(trace_out);
    let code = if outcome.findings.is_empty() && outcome.completed {
        exit::OK
    } else {
        exit::VIOLATION
    };
    let findings: Vec<String> = outcome.findings.iter().map(|f| f.to_string()).collect();
    let s = &outcome.stats;
    print_result(
        &a,
        &kernel,
        launch,
        &outcome.buffers,
        &findings,
        outcome.completed,
        serde_json::json!({ "warp_instructions": s.warp_instrs }),
    );
    let rate = if s.seconds > 0.0 {
        s.warp_instrs as f64 / s.seconds
    } else {
        0.0
    };
    eprintln!(
        "weft: {} warp-instructions, {} thread-instructions, {} trace events in {:.3} s ({:.1} M warp-instr/s)",
        s.warp_instrs,
        s.thread_instrs,
        s.trace_events,
        s.seconds,
        rate / 1e6
    );
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
    if a.json {
        let bufs: serde_json::Map<String, serde_json::Value> = buffers
            .iter()
            .map(|b| {
                let vals: Vec<serde_json::Value> = b
                    .values()
                    .into_iter()
                    .map(|v| match v {
                        weft_simt::Value::Int(i) => serde_json::json!(i as i64),
                        weft_simt::Value::Float(f) => serde_json::json!(f),
                    })
                    .collect();
                (b.name.clone(), serde_json::Value::Array(vals))
            })
            .collect();
        let j = serde_json::json!({
            "kernel": kernel.name,
            "grid": launch.grid,
            "block": launch.block,
            "completed": completed,
            "buffers": bufs,
            "findings": findings,
        });
        let mut j = j;
        if let (Some(m), serde_json::Value::Object(x)) = (j.as_object_mut(), extra) {
            m.extend(x);
        }
        out::line(&j.to_string());
    } else {
        let mut text = format!(
            "kernel {}: grid {}x{}x{}, block {}x{}x{}, {} threads\n",
            kernel.name,
            launch.grid[0],
            launch.grid[1],
            launch.grid[2],
            launch.block[0],
            launch.block[1],
            launch.block[2],
            launch.grid_ctas() * launch.block_threads()
        );
        for b in buffers {
            if b.len() <= 64 || a.full {
                let vals: Vec<String> = b.values().iter().map(|v| v.to_string()).collect();
                text.push_str(&format!(
                    "{} ({} x {}): {}\n",
                    b.name,
                    b.elem.name(),
                    b.len(),
                    vals.join(" ")
                ));
            } else {
                let sum: f64 = b
                    .values()
                    .iter()
                    .map(|v| match v {
                        weft_simt::Value::Int(i) => *i as f64,
                        weft_simt::Value::Float(f) => *f,
                    })
                    .sum();
                text.push_str(&format!(
                    "{} ({} x {}): digest fnv1a64=0x{:016x} sum={sum}\n",
                    b.name,
                    b.elem.name(),
                    b.len(),
                    b.digest()
                ));
            }
        }
        for f in findings {
            text.push_str(&format!("{f}\n"));
        }
        if !completed && findings.is_empty() {
            text.push_str("the launch did not complete\n");
        }
        if a.trace.as_ref().is_some_and(|p| p.as_os_str() == "-") {
            eprint!("{text}");
        } else {
            out::print(&text);
        }
    }
}

/// Indices of the `__local` (`.ptr .shared`) pointer parameters of `kernel`.
fn local_param_indices(m: &weft_cuda::FrontModule, kernel: &weft_ir::kernel::Kernel) -> Vec<usize> {
    m.module
        .function(&kernel.name)
        .map(|f| {
            f.params
                .iter()
                .enumerate()
                .filter(|(_, p)| {
                    p.ptr.as_ref().and_then(|a| a.space).is_some_and(|s| {
                        matches!(
                            s,
                            weft_ptx::ast::StateSpace::Shared
                                | weft_ptx::ast::StateSpace::SharedCta
                        )
                    })
                })
                .map(|(i, _)| i)
                .collect()
        })
        .unwrap_or_default()
}

/// `_Z6kernelPi` → `kernel`.
fn demangle(name: &str) -> &str {
    weft_cuda::compiler::demangle_simple(name)
}
