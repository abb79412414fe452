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

use crate::exit;
use crate::out;

/// A kernel file turned into PTX, with what its source says.
pub struct Loaded {
    /// The PTX text.
    pub ptx: String,
    /// The CUDA/OpenCL source (`None` for `.ptx` input).
    pub source: Option<String>,
    /// Geometry from the GPUVerify-style header, if any.
    pub header_launch: Option<weft_cuda::LaunchConfig>,
}

/// Reads `path`: `.ptx` as is, `.cu`/`.cuh`/`.cl` compiled with clang-19 (with line tables,
/// so findings name source lines).
pub fn load(path: &Path) -> Result<Loaded, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext == "ptx" {
        // A sibling kernel.cu / kernel.cl names the parameters and gives the geometry.
        let sibling = ["cu", "cl"]
            .iter()
            .map(|e| path.with_extension(e))
            .find(|p| p.is_file())
            .and_then(|p| std::fs::read_to_string(p).ok());
        let header_launch = sibling
            .as_deref()
            .and_then(|s| weft_cuda::parse_header(s).ok())
            .and_then(|h| h.launch);
        return Ok(Loaded {
            ptx: text,
            source: sibling,
            header_launch,
        });
    }
    let header = weft_cuda::parse_header(&text).map_err(|e| format!("{}:{e}", path.display()))?;
    let opts = weft_cuda::CompileOptions {
        extra_args: vec!["-gline-tables-only".into()],
        ..weft_cuda::CompileOptions::default()
    };
    let k = weft_cuda::compile_kernel_file(path, &opts)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Loaded {
        ptx: k.ptx.ptx,
        source: Some(text),
        header_launch: header.launch,
    })
}

#[derive(clap::Args)]
pub struct PtxArgs {
    /// A .cu, .cuh or .cl kernel file (a .ptx file is printed as is).
    file: PathBuf,
}

/// `weft ptx FILE`.
pub fn run_ptx(args: PtxArgs) -> i32 {
    match load(&args.file) {
        Ok(l) => {
            out::print(&l.ptx);
            exit::OK
        }
        Err(e) => {
            eprintln!("weft: {e}");
            exit::BAD_INPUT
        }
    }
}

#[derive(clap::Args)]
pub struct RunArgs {
    /// The kernel: .cu, .cuh, .cl (compiled with clang-19) or .ptx.
    file: PathBuf,
    /// Which kernel of the module (PTX or source name); needed when there are several.
    #[arg(long)]
    kernel: Option<String>,
    /// CTAs per grid: X[,Y[,Z]] (default: the file's `//--gridDim=` header).
    #[arg(long)]
    grid: Option<String>,
    /// Threads per CTA: X[,Y[,Z]] (default: the file's `//--blockDim=` header).
    #[arg(long)]
    block: Option<String>,
    /// A scalar argument NAME=VALUE (NAME: source name, param_N or N).
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    args: Vec<String>,
    /// A buffer argument NAME=COUNT[xTYPE][:INIT], INIT = zero | iota | N | list:a,b,.. | rand:SEED[:MAX].
    #[arg(long = "buffer", value_name = "NAME=COUNT[xTYPE][:INIT]")]
    buffers: Vec<String>,
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
}

fn dims(s: &str) -> Result<[u32; 3], String> {
    weft_cuda::geometry::parse_dims(s)
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

fn run_inner(a: RunArgs) -> Result<i32, (i32, String)> {
    let bad = |m: String| (exit::BAD_INPUT, m);
    let loaded = load(&a.file).map_err(bad)?;
    let module = weft_ptx::parse(&loaded.ptx).map_err(|e| {
        bad(format!(
            "{} (PTX of {}): {e}",
            "parse error",
            a.file.display()
        ))
    })?;
    let kernel = weft_ptx::lower_kernel(&module, a.kernel.as_deref())
        .map_err(|e| bad(format!("{} (PTX): {e}", a.file.display())))?;
    let launch = match (&a.grid, &a.block, loaded.header_launch) {
        (g, b, h) if g.is_some() || b.is_some() || h.is_some() => {
            let hg = h.map(|h| h.grid).unwrap_or([1, 1, 1]);
            let hb = h.map(|h| h.block).unwrap_or([1, 1, 1]);
            let grid = match g {
                Some(s) => dims(s).map_err(|e| bad(format!("--grid {s}: {e}")))?,
                None => hg,
            };
            let block = match b {
                Some(s) => dims(s).map_err(|e| bad(format!("--block {s}: {e}")))?,
                None => hb,
            };
            LaunchConfig { grid, block }
        }
        _ => return Err(bad(
            "no launch geometry: give --grid and --block (or a //--gridDim= --blockDim= header)"
                .into(),
        )),
    };
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
    let specs: Vec<BufferSpec> = a
        .buffers
        .iter()
        .map(|s| parse_buffer_spec(s))
        .collect::<Result<_, _>>()
        .map_err(|e| bad(format!("--buffer {e}")))?;
    let scalars: Vec<(String, String)> = a
        .args
        .iter()
        .map(|s| {
            s.split_once('=')
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| bad(format!("--arg {s}: expected NAME=VALUE")))
        })
        .collect::<Result<_, _>>()?;
    let src_params = loaded.source.as_deref().and_then(|s| {
        let short = demangle(&kernel.name);
        source_params(s, short)
    });
    let (args, buffers) = bind(&kernel, src_params.as_deref(), &specs, &scalars).map_err(bad)?;
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
    let s = &outcome.stats;
    if a.json {
        let bufs: serde_json::Map<String, serde_json::Value> = outcome
            .buffers
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
            "completed": outcome.completed,
            "buffers": bufs,
            "findings": outcome.findings.iter().map(|f| f.to_string()).collect::<Vec<_>>(),
            "warp_instructions": s.warp_instrs,
        });
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
        for b in &outcome.buffers {
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
        for f in &outcome.findings {
            text.push_str(&format!("{f}\n"));
        }
        if !outcome.completed && outcome.findings.is_empty() {
            text.push_str("the launch did not complete\n");
        }
        if a.trace.as_ref().is_some_and(|p| p.as_os_str() == "-") {
            eprint!("{text}");
        } else {
            out::print(&text);
        }
    }
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

/// `_Z6kernelPi` → `kernel`.
fn demangle(name: &str) -> &str {
    weft_cuda::compiler::demangle_simple(name)
}
