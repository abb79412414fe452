//! `weft run TEST|DIR... [--backend wgpu|cuda] [--device N] [--iterations N]
//! [--stress PRESET|FILE] [--seed S] [-m MODEL] [--db PATH | --no-db] [--json]
//! [--list-devices]`: runs litmus tests on a GPU (issue 5, deliverable 3) and prints, per
//! test, the histogram of outcomes (each classified sequential / interleaved / weak and,
//! with `-m`, allowed / forbidden by the model), the instance total and checksum, the rate,
//! and the backend's notes (WGSL strengthenings, CUDA optcheck). Every run is recorded in
//! the results database (kind `run`).
//!
//! Exit codes: 0 success; 1 an outcome the model forbids was observed; 2 bad input (a test
//! that does not parse, a test named directly that the backend cannot express, a bad
//! stress file or preset, a missing device, or no test at all could run); 3 a tool or
//! driver error (no CUDA driver, a failed checksum, a database error). Tests found in a
//! directory that the backend refuses are reported as refused and skipped.

use std::path::PathBuf;

use crate::exit::ExitCode;
use weft_hw::{self as hw, Backend, Device, Recorder, Status};

#[derive(clap::Args)]
pub struct Args {
    /// Litmus files or directories (searched recursively for *.litmus and *.json).
    #[arg(required_unless_present = "list_devices")]
    paths: Vec<PathBuf>,
    /// Backend: wgpu (WGSL on Vulkan/Metal/DX12, lavapipe without a GPU) or cuda (PTX).
    #[arg(long, value_enum, default_value_t = Backend::Wgpu)]
    backend: Backend,
    /// Device index (see --list-devices); default: the best wgpu adapter, CUDA device 0.
    #[arg(long)]
    device: Option<usize>,
    /// Dispatches (wgpu) or launches (cuda); each runs testingWorkgroups × workgroupSize
    /// instances.
    #[arg(long, default_value_t = 100)]
    iterations: u32,
    /// Stress: a preset (none, basic, interleave, stress, gpuharbor, paper000) or a JSON
    /// stress file.
    #[arg(long, default_value = "basic")]
    stress: String,
    /// Seed of every per-dispatch random choice (default: from the clock, printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Judge outcomes under this model (a bundled name or a .cat path).
    #[arg(short = 'm', long = "model")]
    model: Option<String>,
    /// Results database (default ~/.local/share/weft/results.db).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Do not record the runs.
    #[arg(long, conflicts_with = "db")]
    no_db: bool,
    /// Label stored with every run.
    #[arg(long)]
    label: Option<String>,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
    /// List the wgpu adapters and CUDA devices, and exit.
    #[arg(long)]
    list_devices: bool,
}

pub fn run(args: Args) -> ExitCode {
    if args.list_devices {
        crate::out::print(&hw::list_devices(None));
        return ExitCode::Ok;
    }
    crate::exit::finish(go(args))
}

fn go(args: Args) -> Result<ExitCode, hw::Failure> {
    if args.iterations == 0 {
        return Err(hw::Failure::bad_input("--iterations must be at least 1"));
    }
    let stress = hw::resolve_stress(&args.stress)?;
    let model = match &args.model {
        Some(m) => Some((m.clone(), hw::load_model(m)?)),
        None => None,
    };
    let mut status = Status::default();
    let tests = hw::run::load_tests(&args.paths, &mut status);
    for t in &tests {
        let shape = weft_stress::TestShape::of(&t.program);
        stress
            .check_test(&t.program.name, shape)
            .map_err(|e| hw::Failure::bad_input(e.report()))?;
    }
    let dev = Device::open(args.backend, args.device)?;
    let mut rec = Recorder::open(args.db.as_deref(), args.no_db)?;
    let seed = args.seed.unwrap_or_else(hw::clock_seed);
    if !args.json {
        crate::out::line(&format!("device   {}", dev.describe()));
        crate::out::line(&format!(
            "stress   {} ({} × {} instances per dispatch), {} iterations, seed {seed}",
            args.stress, stress.testing_workgroups, stress.workgroup_size, args.iterations
        ));
        if let Some(p) = rec.path() {
            crate::out::line(&format!("results  {}", p.display()));
        }
        crate::out::line("");
    }
    let plan = hw::run::RunPlan {
        stress_name: &args.stress,
        stress: &stress,
        iterations: args.iterations,
        seed,
        model: model.as_ref().map(|(n, m)| {
            (
                n.as_str(),
                m,
                weft_sim::simulate_default as weft_hw::judge::Simulate,
            )
        }),
        label: args.label.clone(),
        json: args.json,
    };
    let hw::run::RunOutcome { items, ran } = hw::run::run_tests(
        &dev,
        &tests,
        &plan,
        &mut rec,
        &mut crate::out::line,
        &mut status,
    );
    if ran == 0 {
        if !tests.is_empty() {
            eprintln!("weft: no test could run");
        }
        status.bad = true;
    }
    if args.json {
        let doc = serde_json::json!({
            "device": dev.record(),
            "backend": dev.backend().name(),
            "stress_name": args.stress,
            "stress": stress,
            "seed": seed,
            "iterations": args.iterations,
            "model": args.model,
            "tests": items,
        });
        crate::out::line(&serde_json::to_string_pretty(&doc).unwrap_or_default());
    }
    Ok(status.code())
}
