//! Runs one litmus test through wgpu and prints its histogram, the way the CLI will:
//! `cargo run -p weft-hw-wgpu --example run -- FILE [--preset P | --stress FILE]
//! [--iterations N] [--seed S] [--device I] [--wgsl] [--adapters]`.

use std::process::ExitCode;

use weft_hw_wgpu::{adapters, generate, WgpuParams, WgpuRunner};
use weft_litmus::classify::Class;
use weft_stress::{Preset, StressConfig};

fn main() -> ExitCode {
    match real_main() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn real_main() -> Result<ExitCode, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut file = None;
    let mut stress = Preset::Basic.config();
    let mut iterations = 10u32;
    let mut seed = 0u64;
    let mut device = None;
    let mut show_wgsl = false;
    let mut i = 0;
    let value = |i: usize| args.get(i + 1).cloned().ok_or("missing value".to_string());
    while i < args.len() {
        match args[i].as_str() {
            "--preset" | "--stress" => {
                stress = StressConfig::resolve(&value(i)?).map_err(|e| e.to_string())?;
                i += 1;
            }
            "--iterations" => {
                iterations = value(i)?
                    .parse()
                    .map_err(|e| format!("--iterations: {e}"))?;
                i += 1;
            }
            "--seed" => {
                seed = value(i)?.parse().map_err(|e| format!("--seed: {e}"))?;
                i += 1;
            }
            "--device" => {
                device = Some(value(i)?.parse().map_err(|e| format!("--device: {e}"))?);
                i += 1;
            }
            "--wgsl" => show_wgsl = true,
            "--adapters" => {
                for a in adapters() {
                    println!(
                        "{}: {} ({}, {}, vendor {:#x}, {})",
                        a.index, a.name, a.device_type, a.backend, a.vendor, a.driver
                    );
                }
                return Ok(ExitCode::SUCCESS);
            }
            "--presets" => {
                for (p, d) in Preset::all() {
                    println!("{:<11} {d}", p.name());
                }
                return Ok(ExitCode::SUCCESS);
            }
            f => file = Some(f.to_string()),
        }
        i += 1;
    }
    let file = file.ok_or("usage: run FILE [--preset P] [--iterations N] [--seed S]")?;
    let src = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
    let p = weft_litmus::parse(&src).map_err(|e| format!("{file}: {e}"))?;
    if show_wgsl {
        let g = generate(&p, &stress).map_err(|e| e.to_string())?;
        println!("{}\n{}", g.test_wgsl, g.result_wgsl);
        return Ok(ExitCode::SUCCESS);
    }
    let runner = WgpuRunner::open(device).map_err(|e| e.to_string())?;
    let id = runner.identity();
    eprintln!(
        "device {}: {} ({}, {})",
        id.index, id.name, id.backend, id.driver
    );
    let params = WgpuParams {
        iterations,
        stress,
        seed,
    };
    let run = runner
        .run(&p, &params, &mut |done, total| {
            eprint!("\r{done}/{total} instances");
        })
        .map_err(|e| e.to_string())?;
    eprintln!();
    let class = weft_litmus::classify::classify(&p).map_err(|e| e.to_string())?;
    println!("Test {} on {}", p.name, id.name);
    for (o, n) in &run.outcomes {
        let c = class.class_of(o);
        println!("{n:>12} {:<12} regs {:?} mem {:?}", c.name(), o.regs, o.mem);
    }
    let [s, il, w] = run.gpu_class_counts;
    println!(
        "seq {s}, interleaved {il}, weak {w}; {} instances in {:.2?} ({:.0} instances/s)",
        run.instances,
        run.elapsed,
        run.instances as f64 / run.elapsed.as_secs_f64()
    );
    for n in &run.strengthened {
        println!("strengthened: {n}");
    }
    Ok(
        if run
            .outcomes
            .iter()
            .any(|(o, _)| class.class_of(o) == Class::Weak)
        {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        },
    )
}
