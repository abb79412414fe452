//! `weft gen`: litmus tests from cycles of relaxations, diy7-style (one cycle on stdout, or
//! an enumeration into a directory with an `@all` index), in any weft format, optionally
//! labelled allowed/forbidden by a model on the fly (docs/gen.md).

use std::path::PathBuf;

use weft_gen::command;
use weft_gen::suite::default_model;

use crate::exit::{ExitCode, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// One cycle, edges separated by spaces (`"PodWR Fre PodWR Fre"`); the test goes to
    /// stdout.
    #[arg(long, conflicts_with_all = ["relax", "safe"])]
    cycle: Option<String>,
    /// Relaxed edges (comma-separated), as diy7's -relax.
    #[arg(long)]
    relax: Option<String>,
    /// Safe edges (comma-separated), as diy7's -safe.
    #[arg(long)]
    safe: Option<String>,
    /// Largest number of edges in a cycle (diy7 -size).
    #[arg(long, default_value_t = 6)]
    size: usize,
    /// Largest number of threads (diy7 -nprocs).
    #[arg(long, default_value_t = 4)]
    nprocs: usize,
    /// Most tests an enumeration may produce (exit 2 beyond).
    #[arg(long, default_value_t = 100_000)]
    max_tests: usize,
    /// Give up an enumeration after this many seconds (exit 3).
    #[arg(long)]
    timeout: Option<u64>,
    /// Most accesses per thread (diy7 -ins).
    #[arg(long, default_value_t = 4)]
    ins: usize,
    /// Mix relaxations in one cycle (diy7 -mix true).
    #[arg(long)]
    mix: bool,
    /// With mixing, at most N kinds of relaxed edges per cycle (diy7 -maxrelax; implies --mix).
    #[arg(long)]
    max_relax: Option<usize>,
    /// Output directory of an enumeration (one file per test, plus `@all`).
    #[arg(short = 'o', long)]
    out: Option<PathBuf>,
    /// Output format: c (default), ptx, gpu_ptx, vulkan, opencl or json (WebGPU).
    #[arg(long, default_value = "c")]
    format: String,
    /// Scope of atomic accesses and fences without a scope qualifier: cta, gpu or sys.
    #[arg(long, default_value = "gpu")]
    scope: String,
    /// Simulate every test under this model and label it allowed/forbidden.
    #[arg(long)]
    check: bool,
    /// Model for --check (bundled name or .cat path).
    #[arg(short = 'm', long)]
    model: Option<String>,
    /// MC-Mutants: read GPUHarbor's conformance tests (weft names, JSON) from this
    /// directory and write its 32 tuning mutants and the coherence conformance tests into
    /// -o DIR, each with a .meta.json (pairing, operator, target, webgpu verdict).
    #[arg(long, conflicts_with_all = ["cycle", "relax", "safe"])]
    mutants: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    match inner(&args) {
        Ok(code) => code,
        Err(f) => {
            eprintln!("weft gen: {}", f.message);
            f.code
        }
    }
}

fn inner(args: &Args) -> Result<ExitCode, Failure> {
    let format = command::format(&args.format)?;
    let opts = command::build_options(&args.scope)?;
    let model = if args.check {
        let name = args
            .model
            .clone()
            .unwrap_or_else(|| default_model(format).into());
        Some(weft_sim::models::load(&name).map_err(|e| {
            Failure::bad_input(format!("cannot load model `{name}`: {}", e.render()))
        })?)
    } else {
        None
    };
    if let Some(src) = &args.mutants {
        let model = weft_sim::models::load("webgpu")
            .map_err(|e| Failure::tool(format!("cannot load the webgpu model: {}", e.render())))?;
        let load = |name: &str| crate::inputs::load(&src.join(format!("{name}.json"))).ok();
        let msg = command::write_mutants(src, args.out.as_deref(), &load, &|p| verdict(p, &model))?;
        crate::out::line(&msg);
        return Ok(ExitCode::Ok);
    }
    if let Some(text) = &args.cycle {
        let (name, p, text) =
            weft_gen::suite::one(text, format, &opts).map_err(Failure::bad_input)?;
        crate::out::print(&text);
        if !text.ends_with('\n') {
            crate::out::line("");
        }
        if let Some(m) = &model {
            let v = verdict(&p, m)
                .map_err(|e| Failure::tool(format!("{name}: simulation failed: {e}")))?;
            eprintln!("{name}: {v}");
        }
        return Ok(ExitCode::Ok);
    }
    let e = command::Enumeration {
        relax: args.relax.clone(),
        safe: args.safe.clone(),
        size: args.size,
        nprocs: args.nprocs,
        max_tests: args.max_tests,
        timeout: args.timeout,
        ins: args.ins,
        mix: args.mix,
        max_relax: args.max_relax,
    };
    let label = |p: &weft_ir::Program| match &model {
        Some(m) => verdict(p, m).map(|v| v == "allowed"),
        None => Ok(false),
    };
    let labeller = model.as_ref().map(|_| &label as &weft_gen::suite::Labeller);
    let msg = command::write_enumeration(&e, args.out.as_deref(), format, &opts, labeller)?;
    crate::out::line(&msg);
    Ok(ExitCode::Ok)
}

/// Whether the cycle's outcome (the condition) is reachable under the model.
fn verdict(p: &weft_ir::Program, m: &weft_cat::Model) -> Result<&'static str, String> {
    let opts = weft_sim::SimOptions {
        stop_at_verdict: Some(weft_sim::StopAt::Condition),
        timeout: Some(std::time::Duration::from_secs(60)),
        ..weft_sim::SimOptions::default()
    };
    let r = weft_sim::simulate(p, m, &opts).map_err(|e| e.to_string())?;
    Ok(if r.validated { "allowed" } else { "forbidden" })
}
