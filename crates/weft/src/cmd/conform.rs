//! `weft conform [TEST|DIR...] [--tune-with TESTS] [--configs N] [--seed STR]
//! [--iterations N] [--stress PRESET|FILE] [-m MODEL] [--limits ..] [--backend B]
//! [--device N] [--db PATH | --no-db] [--json]`: GPUHarbor's conformance step (paper 001
//! §3.3, §5.1). Without `--stress`, first tunes (as `weft tune`) with the weak-behaviour
//! tests (`--tune-with`, default: the tests whose `.meta.json` role is `mutant` in
//! tests/corpus/gpuharbor: MP, LB, SB, S, R, 2+2W), then runs each conformance test
//! (default: role `conformance` there) under the overall best configuration and under the
//! best configuration of its paired tuning test (the tuning test whose name is the
//! conformance test's name up to its first `-`: MP-CO and MP-barrier pair with MP). Every
//! observed outcome is judged under the model (default `webgpu` for wgpu, `ptx-v7.5` for
//! cuda); an outcome it forbids is a conformance failure. Runs are recorded with kind
//! `tune` and `conform`.
//!
//! Exit codes: 0 no forbidden outcome; 1 a forbidden outcome was observed; 2 bad input;
//! 3 a tool or driver error.

use std::path::PathBuf;

use super::tune::DeviceArgs;
use crate::exit::ExitCode;
use weft_hw::tune::{parse_limits, summary, tune};
use weft_hw::{self as hw, Backend, Device, Failure, Recorder, Status};

#[derive(clap::Args)]
pub struct Args {
    /// Conformance tests (default: role `conformance` in tests/corpus/gpuharbor).
    paths: Vec<PathBuf>,
    /// Weak-behaviour tests to tune with (default: role `mutant` in tests/corpus/gpuharbor).
    #[arg(long, num_args = 1..)]
    tune_with: Vec<PathBuf>,
    /// Random stress configurations to tune over.
    #[arg(long, default_value_t = 5)]
    configs: usize,
    /// Seed string of the configuration generator.
    #[arg(long, default_value = "rbjnMzXroA")]
    seed: String,
    /// Dispatches per run (tuning and conformance).
    #[arg(long, default_value_t = 10)]
    iterations: u32,
    /// Skip tuning and run every conformance test under this preset or stress file.
    #[arg(long)]
    stress: Option<String>,
    /// Model judging the outcomes (default: webgpu for wgpu, ptx-v7.5 for cuda).
    #[arg(short = 'm', long = "model")]
    model: Option<String>,
    /// Limits of the tuning configurations: desktop, mobile or L,Ls.
    #[arg(long, default_value = "desktop")]
    limits: String,
    #[command(flatten)]
    dev: DeviceArgs,
}

pub fn run(args: Args) -> ExitCode {
    crate::exit::finish(go(args))
}

fn go(args: Args) -> Result<ExitCode, Failure> {
    if args.iterations == 0 || args.configs == 0 {
        return Err(Failure::bad_input(
            "--iterations and --configs must be at least 1",
        ));
    }
    let model_name = args.model.clone().unwrap_or_else(|| {
        match args.dev.backend {
            Backend::Wgpu => "webgpu",
            Backend::Cuda => "ptx-v7.5",
        }
        .to_string()
    });
    let model = hw::load_model(&model_name)?;
    let explicit_stress = match &args.stress {
        Some(s) => Some(hw::resolve_stress(s)?),
        None => None,
    };
    let limits = parse_limits(&args.limits)?;
    let paths = if args.paths.is_empty() {
        hw::corpus_tests("conformance")?
    } else {
        args.paths.clone()
    };
    let mut status = Status::default();
    let tests = weft_hw::run::load_tests(&paths, &mut status);
    if tests.is_empty() {
        return Err(Failure::bad_input("no conformance test to run"));
    }
    let dev = Device::open(args.dev.backend, args.dev.device)?;
    let mut rec = Recorder::open(args.dev.db.as_deref(), args.dev.no_db)?;
    let text = !args.dev.json;
    if text {
        crate::out::line(&format!("device   {}", dev.describe()));
        crate::out::line(&format!("model    {model_name}"));
    }

    // Which configurations each conformance test runs under: (stress name, config, seed).
    let mut plans: Vec<Vec<weft_hw::conform::Plan>> = Vec::new();
    let mut tuning_json = serde_json::Value::Null;
    match (&explicit_stress, &args.stress) {
        (Some(cfg), Some(name)) => {
            let seed = hw::clock_seed();
            if text {
                crate::out::line(&format!("stress   {name}, seed {seed}\n"));
            }
            for _ in &tests {
                plans.push(vec![(name.clone(), cfg.clone(), seed)]);
            }
        }
        _ => {
            let tune_paths = if args.tune_with.is_empty() {
                hw::corpus_tests("mutant")?
            } else {
                args.tune_with.clone()
            };
            let tune_tests = weft_hw::run::load_tests(&tune_paths, &mut status);
            if tune_tests.is_empty() {
                return Err(Failure::bad_input("no tuning test (give --tune-with)"));
            }
            let configs = weft_stress::configs(&args.seed, args.configs, limits);
            if text {
                crate::out::line(&format!(
                    "tuning   {} tests × {} configurations (seed {}, limits {}) × {} iterations",
                    tune_tests.len(),
                    configs.len(),
                    args.seed,
                    args.limits,
                    args.iterations
                ));
                for (k, c) in configs.iter().enumerate() {
                    crate::out::line(&format!("  #{k}  {}", summary(c)));
                }
            }
            let tu = tune(
                &dev,
                tune_tests,
                &args.seed,
                configs,
                args.iterations,
                &mut rec,
                &mut |m| {
                    if text || !m.starts_with('#') {
                        eprintln!("{m}");
                    }
                },
                &mut status,
            );
            let overall = tu.ranking(None).first().map(|s| s.config);
            if text {
                crate::out::line("");
                crate::out::print(&weft_hw::tune::ranking_text(&tu));
                crate::out::line("");
            }
            tuning_json = weft_hw::tune::tuning_json(&tu);
            let Some(best) = overall else {
                return Err(Failure {
                    code: status.code().max(ExitCode::BadInput),
                    message: "tuning ran nothing: no configuration to conform with".into(),
                });
            };
            plans = weft_hw::conform::plans(&tu, best, &tests, &args.seed);
        }
    }

    let (lines, ran) = weft_hw::conform::run_plans(
        &dev,
        &tests,
        &plans,
        args.iterations,
        (&model_name, &model, weft_sim::simulate_default),
        &mut rec,
        &mut |m: &str| {
            if text {
                crate::out::line(m)
            }
        },
        &mut status,
    );
    if ran == 0 {
        status.bad = true;
    }
    let failures = weft_hw::conform::failures(&lines);
    if text {
        crate::out::print(&weft_hw::conform::summary_text(&lines, &model_name));
    } else {
        let rows = weft_hw::conform::summary_rows(&lines);
        let doc = serde_json::json!({
            "device": dev.record(),
            "model": model_name,
            "tuning": tuning_json,
            "runs": rows,
            "failures": failures,
        });
        crate::out::line(&serde_json::to_string_pretty(&doc).unwrap_or_default());
    }
    Ok(status.code())
}
