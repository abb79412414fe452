//! What tracing, race analysis and parallel CTAs cost on the SIMT emulator's bench kernels
//! (docs/perf.md, issue 30): each kernel run plain, with the text trace written to a file,
//! with the race detector attached, and with its CTAs on `--jobs N` cores; the best of
//! `RUNS` wall-clock times of the run itself (no process start, no PTX parsing).
//!
//! `cargo run --release -p weft-race --example overhead -- [SCALE] [RUNS] [JOBS] [VADD.ptx]
//! [MODE]`: grids are scripts/bench-simt.sh's divided by SCALE (default 16); vector add needs
//! its PTX (`weft cc`'s or clang's output for tests/kernels/ptx-smoke/vector_add.cu; `-`
//! leaves it out); MODE `plain`, `trace`, `race` or `jobs` runs only that one (for
//! callgrind's instruction counts; the others print as 0); `WEFT_BENCH=NAME` runs only
//! that kernel; `WEFT_MATMUL=matmul.ptx` adds tests/programs/matmul's kernel
//! (`WEFT_MATMUL_N`^3, default 64^3).

#[path = "../../weft-simt/examples/bench_kernels/mod.rs"]
mod bench_kernels;

use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use bench_kernels::{benches, buf, kernel, Bench};
use weft_race::clocks::{Compressed, Geometry};
use weft_race::detector::{Definition, Detector};
use weft_simt::{run, run_with_sink, Arg, ElemType, LaunchConfig, Options};

fn best(on: bool, runs: usize, mut f: impl FnMut() -> f64) -> f64 {
    if !on {
        return 0.0;
    }
    (0..runs).map(|_| f()).fold(f64::INFINITY, f64::min)
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let scale: u32 = a.first().and_then(|s| s.parse().ok()).unwrap_or(16);
    let runs: usize = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let jobs: usize = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let mode = a.get(4).map_or("all", String::as_str);
    let on = |m: &str| mode == "all" || mode == m;
    let n = (1usize << 20) / scale as usize;
    let vadd = a.get(3).filter(|p| p.as_str() != "-");
    let mut benches = benches(n, vadd.map(Path::new));
    // The tiled matrix product of tests/programs/matmul (its PTX: `weft ptx
    // tests/programs/matmul/matmul.cu`), N x N x N with N = `WEFT_MATMUL_N` (default 64):
    // every shared word read by the 8 threads of a tile row or column (concurrent reads).
    if let Ok(p) = std::env::var("WEFT_MATMUL") {
        let n: usize = std::env::var("WEFT_MATMUL_N")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(64);
        let f = |i: usize, k: usize| u64::from((((i * k) % 5) as f32 - 2.0).to_bits());
        benches.push(Bench {
            name: "matmul",
            kernel: kernel(Path::new(&p)),
            cfg: LaunchConfig {
                grid: [n as u32 / 8, n as u32 / 8, 1],
                block: [8, 8, 1],
            },
            args: vec![
                Arg::Buffer(0),
                Arg::Buffer(1),
                Arg::Buffer(2),
                Arg::Scalar(n as u64),
                Arg::Scalar(n as u64),
                Arg::Scalar(n as u64),
            ],
            buffers: vec![
                buf("A", ElemType::F32, n * n, |i| f(i, 7)),
                buf("B", ElemType::F32, n * n, |i| f(i, 3)),
                buf("C", ElemType::F32, n * n, |_| 0),
            ],
        });
    }
    let trace_path =
        std::env::temp_dir().join(format!("weft-overhead-{}.trace", std::process::id()));
    println!("kernel\tthreads\twarp-instrs\tplain s\ttrace s\ttrace x\trace s\trace x\tjobs {jobs} s\tspeed-up");
    let only = std::env::var("WEFT_BENCH").ok();
    for b in benches
        .iter()
        .filter(|b| only.as_deref().is_none_or(|o| o == b.name))
    {
        let opts = Options {
            jobs: 1,
            ..Options::default()
        };
        let mut instrs = 0;
        let plain = best(on("plain"), runs, || {
            let t = Instant::now();
            let o = run(&b.kernel, b.cfg, &b.args, b.buffers.clone(), &opts, None).unwrap();
            instrs = o.stats.warp_instrs;
            t.elapsed().as_secs_f64()
        });
        let traced = best(on("trace"), runs, || {
            let f = std::fs::File::create(&trace_path).unwrap();
            let mut w = BufWriter::with_capacity(1 << 16, f);
            let t = Instant::now();
            let o = run(
                &b.kernel,
                b.cfg,
                &b.args,
                b.buffers.clone(),
                &opts,
                Some(&mut w),
            );
            w.flush().unwrap();
            let s = t.elapsed().as_secs_f64();
            assert!(o.unwrap().completed);
            s
        });
        let raced = best(on("race"), runs, || {
            let geo = Geometry {
                block_threads: b.cfg.block_threads() as u32,
                ctas: b.cfg.grid_ctas() as u32,
            };
            let t = Instant::now();
            let mut det: Detector<Compressed> =
                Detector::new(&b.kernel, geo, Definition::Barracuda);
            let o = run_with_sink(
                &b.kernel,
                b.cfg,
                &b.args,
                b.buffers.clone(),
                &opts,
                None,
                Some(&mut det),
            )
            .unwrap();
            assert!(o.completed);
            t.elapsed().as_secs_f64()
        });
        let popts = Options {
            jobs,
            ..Options::default()
        };
        let par = best(on("jobs"), runs, || {
            let t = Instant::now();
            let o = run(&b.kernel, b.cfg, &b.args, b.buffers.clone(), &popts, None).unwrap();
            assert_eq!(
                o.stats.parallel_jobs, jobs,
                "{}: the parallel run was kept",
                b.name
            );
            t.elapsed().as_secs_f64()
        });
        println!(
            "{}\t{}\t{instrs}\t{plain:.3}\t{traced:.3}\t{:.2}\t{raced:.3}\t{:.2}\t{par:.3}\t{:.2}",
            b.name,
            b.cfg.grid_ctas() * b.cfg.block_threads(),
            traced / plain,
            raced / plain,
            plain / par
        );
    }
    let _ = std::fs::remove_file(&trace_path);
}
