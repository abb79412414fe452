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

mod bench_kernels;

use std::path::Path;

use bench_kernels::benches;
use weft_simt::{run, Options, Outcome};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let log2: u32 = a.first().and_then(|s| s.parse().ok()).unwrap_or(20);
    let runs: usize = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let jobs: usize = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let vadd = a.get(3).filter(|p| *p != "-");
    let mode = a.get(4).map_or("both", String::as_str);
    let n = 1usize << log2;
    let benches = benches(n, vadd.map(Path::new));
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
