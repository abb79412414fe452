//! CTAs on several cores against one (issue 30 item 2, docs/perf.md): scripts/bench-simt.sh's
//! three kernels (tree reduction, inclusive scan, vector add) at 2^LOG2 threads, each run
//! with one job and with `JOBS` jobs, alternating, `RUNS` times; prints the best launch time
//! of each (`Stats::seconds`, as `weft run-kernel` prints it), their ratio, whether the
//! parallel run was kept, and whether the buffers and counters are identical.
//!
//! `cargo run --release -p weft-simt --example jobs -- LOG2 RUNS JOBS VADD.ptx [MODE]`:
//! LOG2 20 is the bench size; VADD.ptx is `weft ptx tests/kernels/ptx-smoke/vector_add.cu`
//! (`-` leaves vector add out); MODE `seq` or `par` runs only that one (for callgrind's
//! instruction counts); `WEFT_BENCH=NAME` runs only that kernel.

use std::path::Path;

use weft_ir::kernel::Kernel;
use weft_simt::{run, Arg, Buffer, ElemType, LaunchConfig, Options, Outcome};

fn kernel(path: &Path) -> Kernel {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let m = weft_ptx::parse(&text).expect("PTX parses");
    weft_ptx::lower_kernel(&m, None).expect("PTX lowers")
}

fn buf(name: &str, ty: ElemType, n: usize, f: impl Fn(usize) -> u64) -> Buffer {
    let mut b = Buffer::zeroed(name, ty, n);
    for i in 0..n {
        b.set_bits(i, f(i));
    }
    b
}

struct Bench {
    name: &'static str,
    kernel: Kernel,
    cfg: LaunchConfig,
    args: Vec<Arg>,
    buffers: Vec<Buffer>,
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let log2: u32 = a.first().and_then(|s| s.parse().ok()).unwrap_or(20);
    let runs: usize = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let jobs: usize = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let vadd = a.get(3).filter(|p| *p != "-");
    let mode = a.get(4).map_or("both", String::as_str);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels");
    let n = 1usize << log2;
    let g = |block: usize| [(n / block) as u32, 1, 1];
    let mut benches = vec![
        Bench {
            name: "tree_reduction",
            kernel: kernel(&root.join("tree_reduction/kernel.ptx")),
            cfg: LaunchConfig {
                grid: g(128),
                block: [128, 1, 1],
            },
            args: vec![Arg::Buffer(0), Arg::Buffer(1)],
            buffers: vec![
                buf("in", ElemType::I32, n, |i| i as u64),
                buf("out", ElemType::I32, n / 128, |_| 0),
            ],
        },
        Bench {
            name: "inclusive_scan",
            kernel: kernel(&root.join("inclusive_scan/kernel.ptx")),
            cfg: LaunchConfig {
                grid: g(256),
                block: [256, 1, 1],
            },
            args: vec![Arg::Buffer(0), Arg::Buffer(1)],
            buffers: vec![
                buf("in", ElemType::I32, n, |_| 1),
                buf("out", ElemType::I32, n, |_| 0),
            ],
        },
    ];
    if let Some(p) = vadd {
        benches.push(Bench {
            name: "vector_add",
            kernel: kernel(Path::new(p)),
            cfg: LaunchConfig {
                grid: g(256),
                block: [256, 1, 1],
            },
            args: vec![
                Arg::Buffer(0),
                Arg::Buffer(1),
                Arg::Buffer(2),
                Arg::Scalar(n as u64),
            ],
            buffers: vec![
                buf("a", ElemType::F32, n, |i| u64::from((i as f32).to_bits())),
                buf("b", ElemType::F32, n, |_| u64::from(1f32.to_bits())),
                buf("c", ElemType::F32, n, |_| 0),
            ],
        });
    }
    let only = std::env::var("WEFT_BENCH").ok();
    for b in benches
        .iter()
        .filter(|b| only.as_deref().is_none_or(|o| o == b.name))
    {
        let go = |jobs: usize| -> Outcome {
            let opts = Options {
                jobs,
                ..Options::default()
            };
            let o = run(&b.kernel, b.cfg, &b.args, b.buffers.clone(), &opts, None).unwrap();
            assert!(o.completed, "{} did not complete", b.name);
            o
        };
        let (mut t1, mut tn) = (f64::INFINITY, f64::INFINITY);
        let (mut seq, mut par) = (None, None);
        for _ in 0..runs {
            if mode != "par" {
                let o = go(1);
                t1 = t1.min(o.stats.seconds);
                seq = Some(o);
            }
            if mode != "seq" {
                let o = go(jobs);
                tn = tn.min(o.stats.seconds);
                par = Some(o);
            }
        }
        let same = match (&seq, &par) {
            (Some(s), Some(p)) => {
                let eq = s
                    .buffers
                    .iter()
                    .zip(&p.buffers)
                    .all(|(x, y)| x.data == y.data)
                    && s.stats.warp_instrs == p.stats.warp_instrs
                    && s.stats.thread_instrs == p.stats.thread_instrs;
                if eq {
                    "identical"
                } else {
                    "DIFFERENT"
                }
            }
            _ => "-",
        };
        let kept = par.as_ref().map_or(0, |p| p.stats.parallel_jobs);
        let wi = seq
            .as_ref()
            .or(par.as_ref())
            .map_or(0, |o| o.stats.warp_instrs);
        println!(
            "{}: 2^{log2} threads, {wi} warp-instructions: 1 job {:.4} s, {jobs} jobs {:.4} s ({:.2}x, parallel run {}), {same}",
            b.name,
            t1,
            tn,
            t1 / tn,
            if kept > 1 { "kept" } else { "dropped" },
        );
    }
}
