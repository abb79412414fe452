//! `weft tune TEST|DIR... [--configs N] [--seed STR] [--iterations N] [--backend B]
//! [--device N] [--limits desktop|mobile|L,Ls] [--db PATH | --no-db] [--json]
//! [--list-configs]`: GPUHarbor's tuning (paper 001 §3.3). Draws N stress configurations
//! from the seeded Park-Miller generator (`weft_stress::configs`: same seed and limits,
//! same configurations, on any device), runs every given weak-behaviour test under each,
//! and ranks the configurations by weak behaviours per second (GPUHarbor's criterion), then
//! per instance, per test and overall. Each run is recorded with kind `tune` and stress
//! name `tune:<seed>#<k>`.
//!
//! Exit codes: 0 success; 2 bad input (bad tests, limits or device; no run succeeded);
//! 3 a tool or driver error.

use std::path::PathBuf;

use crate::exit::ExitCode;
use weft_hw::tune::{configs_text, parse_limits, ranking_text, tune, tuning_json};
use weft_hw::{Backend, Device, Failure, Recorder, Status};

#[derive(clap::Args)]
pub struct Args {
    /// Weak-behaviour (tuning) tests: files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Number of random stress configurations.
    #[arg(long, default_value_t = 10)]
    configs: usize,
    /// Seed string of the configuration generator (GPUHarbor's public campaign used
    /// rbjnMzXroA).
    #[arg(long, default_value = "rbjnMzXroA")]
    seed: String,
    /// Dispatches per test and configuration.
    #[arg(long, default_value_t = 10)]
    iterations: u32,
    #[command(flatten)]
    dev: DeviceArgs,
    /// Device limits bounding the configurations: desktop (1024 workgroups of up to 256),
    /// mobile (32 of 32), or `L,Ls`.
    #[arg(long, default_value = "desktop")]
    limits: String,
    /// Only print the configurations (no device needed).
    #[arg(long)]
    list_configs: bool,
}

/// Device and output options shared by `weft tune` and `weft conform`.
#[derive(clap::Args, Clone)]
pub struct DeviceArgs {
    /// Backend: wgpu or cuda.
    #[arg(long, value_enum, default_value_t = Backend::Wgpu)]
    pub backend: Backend,
    /// Device index (see `weft run --list-devices`).
    #[arg(long)]
    pub device: Option<usize>,
    /// Results database (default ~/.local/share/weft/results.db).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Do not record the runs.
    #[arg(long, conflicts_with = "db")]
    pub no_db: bool,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> ExitCode {
    crate::exit::finish(go(args))
}

fn go(args: Args) -> Result<ExitCode, Failure> {
    let limits = parse_limits(&args.limits)?;
    if args.iterations == 0 || args.configs == 0 {
        return Err(Failure::bad_input(
            "--iterations and --configs must be at least 1",
        ));
    }
    let configs = weft_stress::configs(&args.seed, args.configs, limits);
    if args.list_configs {
        if args.dev.json {
            let v = weft_hw::tune::configs_json(&args.seed, &configs);
            crate::out::line(&serde_json::to_string_pretty(&v).unwrap_or_default());
        } else {
            crate::out::print(&configs_text(&args.seed, limits, &configs));
        }
        return Ok(ExitCode::Ok);
    }
    let mut status = Status::default();
    let tests = weft_hw::run::load_tests(&args.paths, &mut status);
    if tests.is_empty() {
        return Err(Failure::bad_input("no test to tune with"));
    }
    let dev = Device::open(args.dev.backend, args.dev.device)?;
    let mut rec = Recorder::open(args.dev.db.as_deref(), args.dev.no_db)?;
    if !args.dev.json {
        crate::out::line(&format!("device   {}", dev.describe()));
        crate::out::line(&format!(
            "tuning   {} tests × {} configurations × {} iterations",
            tests.len(),
            configs.len(),
            args.iterations
        ));
        crate::out::print(&configs_text(&args.seed, limits, &configs));
        crate::out::line("");
    }
    let tu = tune(
        &dev,
        tests,
        &args.seed,
        configs,
        args.iterations,
        &mut rec,
        &mut |m| {
            if !args.dev.json || m.starts_with("weft:") || !m.starts_with('#') {
                eprintln!("{m}");
            }
        },
        &mut status,
    );
    if tu.cells.iter().flatten().all(|c| c.is_none()) {
        eprintln!("weft: no run succeeded");
        status.bad = true;
    }
    if args.dev.json {
        let mut j = tuning_json(&tu);
        j["device"] = serde_json::to_value(dev.record()).unwrap_or_default();
        crate::out::line(&serde_json::to_string_pretty(&j).unwrap_or_default());
    } else {
        crate::out::print(&ranking_text(&tu));
    }
    Ok(status.code())
}
