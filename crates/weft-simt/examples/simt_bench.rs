//! A profiling harness for the SIMT emulator without the CLI: runs one of the three kernels
//! of `scripts/bench-simt.sh` (tree reduction, inclusive scan, vector add) from its PTX on a
//! grid of the given size and prints warp-instructions, seconds, the rate and a digest of
//! each output buffer (so that a change to the emulator can be checked for identical
//! results). Meant for `valgrind --tool=callgrind` and `perf`, where the CLI's PTX front
//! end and buffer parsing would blur the profile.
//!
//! Besides the emulator's own (wall-clock) rate it prints the rate over the process's
//! on-CPU time, which is what to compare on a shared, loaded machine.
//!
//! Usage: `simt_bench tree|scan|vadd PTX GRID [REPEAT [TRACE_FILE]]` (tree: 128 threads a
//! block, scan and vadd: 256); with a trace file the event trace is written to it.

use weft_simt::{run, Arg, Buffer, ElemType, LaunchConfig, Options};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 4 {
        eprintln!("usage: simt_bench tree|scan|vadd PTX GRID [REPEAT [TRACE_FILE]]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&a[2]).expect("read the PTX");
    let module = weft_ptx::parse(&text).expect("parse the PTX");
    let kernel = weft_ptx::lower_kernel(&module, None).expect("lower the kernel");
    let grid: u32 = a[3].parse().expect("GRID");
    let repeat: u32 = a.get(4).map_or(1, |r| r.parse().expect("REPEAT"));
    let trace_path = a.get(5);
    let block: u32 = if a[1] == "tree" { 128 } else { 256 };
    let n = (grid * block) as usize;
    let iota = |name: &str, elem: ElemType| {
        let mut b = Buffer::zeroed(name, elem, n);
        for i in 0..n {
            let v = if elem.is_float() {
                elem.encode_float(i as f64)
            } else {
                i as u64
            };
            b.set_bits(i, v);
        }
        b
    };
    let ones = |name: &str, elem: ElemType| {
        let mut b = Buffer::zeroed(name, elem, n);
        for i in 0..n {
            b.set_bits(i, elem.encode_int(1));
        }
        b
    };
    let (buffers, args) = match a[1].as_str() {
        "tree" => (
            vec![
                iota("in", ElemType::I32),
                Buffer::zeroed("out", ElemType::I32, grid as usize),
            ],
            vec![Arg::Buffer(0), Arg::Buffer(1)],
        ),
        "scan" => (
            vec![
                ones("in", ElemType::I32),
                Buffer::zeroed("out", ElemType::I32, n),
            ],
            vec![Arg::Buffer(0), Arg::Buffer(1)],
        ),
        "vadd" => (
            vec![
                iota("a", ElemType::F32),
                ones("b", ElemType::F32),
                Buffer::zeroed("c", ElemType::F32, n),
            ],
            vec![
                Arg::Buffer(0),
                Arg::Buffer(1),
                Arg::Buffer(2),
                Arg::Scalar(n as u64),
            ],
        ),
        k => panic!("unknown kernel {k}"),
    };
    let cfg = LaunchConfig {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
    };
    for _ in 0..repeat {
        let mut file = trace_path.map(|p| {
            std::io::BufWriter::new(std::fs::File::create(p).expect("create the trace file"))
        });
        let trace = file.as_mut().map(|f| f as &mut dyn std::io::Write);
        let cpu0 = cpu_seconds();
        let out = run(
            &kernel,
            cfg,
            &args,
            buffers.clone(),
            &Options::default(),
            trace,
        )
        .expect("run the kernel");
        drop(file);
        let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
        let s = &out.stats;
        let digests: Vec<String> = out
            .buffers
            .iter()
            .map(|b| format!("{}={:016x}", b.name, b.digest()))
            .collect();
        println!(
            "{} grid {grid}: {} warp-instructions, {} thread-instructions, {:.4} s, {:.1} M warp-instr/s, on-CPU {}, findings {}, completed {}, {}",
            a[1],
            s.warp_instrs,
            s.thread_instrs,
            s.seconds,
            s.warp_instrs as f64 / s.seconds / 1e6,
            cpu.map_or("unknown".to_string(), |c| format!(
                "{c:.4} s ({:.1} M warp-instr/s)",
                s.warp_instrs as f64 / c / 1e6
            )),
            out.findings.len(),
            out.completed,
            digests.join(" ")
        );
    }
}

/// Seconds this process has run on a CPU (Linux `/proc/self/schedstat`), which a loaded
/// machine does not inflate the way it inflates wall-clock time; it includes the launch's
/// set-up and copy-back, which the emulator's own timer leaves out.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}
