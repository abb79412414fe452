//! Checks that need NVIDIA's tools or a GPU; each prints why it skips where they are absent
//! (as on weft's CI machines).
//!
//! - With `ptxas` on PATH: every generated kernel assembles, and optcheck answers `Kept`
//!   for the paper-000 tests at `-O3`.
//! - With a CUDA driver and a GPU: the paper-000 tests run, the checksum holds, and the
//!   atomicity tests of the Dat3M corpus (`Red-plus-location`: two `red.add` always leave
//!   2) hold on the hardware, as they must on any correct GPU.

use std::path::{Path, PathBuf};

use weft_hw_cuda::optcheck::{check_ptx, Verdict};
use weft_hw_cuda::{generate, CudaParams, CudaRunner};

fn paper000() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/paper000"),
    )
    .unwrap()
    .flatten()
    .map(|e| e.path())
    .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
    .collect();
    v.sort();
    v
}

fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()))
        .unwrap_or(false)
}

#[test]
fn ptxas_accepts_the_kernels_and_optcheck_keeps_them() {
    if !on_path("ptxas") {
        println!("skipping: ptxas is not on PATH");
        return;
    }
    let params = CudaParams::default();
    for f in paper000() {
        let p = weft_litmus::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let g = generate(&p, &params).unwrap();
        let v = check_ptx(&g.ptx, &g.expected, "sm_70");
        match v {
            Verdict::Kept => {}
            Verdict::Unavailable(why) if why.contains("cuobjdump") => {
                println!("{}: {why}", f.display())
            }
            other => panic!("{}: {other:?}", f.display()),
        }
    }
}

#[test]
fn runs_on_a_gpu_when_one_is_present() {
    let gpu = match CudaRunner::open(0) {
        Ok(g) => g,
        Err(e) => {
            println!("skipping: {e}");
            return;
        }
    };
    println!("device: {:?}", gpu.identity());
    let params = CudaParams {
        instances_per_launch: 1024,
        iterations: 2,
        ..CudaParams::default()
    };
    for f in paper000() {
        let p = weft_litmus::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let mut calls = 0;
        let run = gpu
            .run(&p, &params, &mut |done, total| {
                calls += 1;
                assert!(done <= total);
            })
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(calls, 2);
        assert_eq!(run.instances, 2048);
        assert_eq!(run.outcomes.iter().map(|(_, c)| c).sum::<u64>(), 2048);
        let weak: u64 = match weft_litmus::classify::classify(&p) {
            Ok(sc) => run
                .outcomes
                .iter()
                .filter(|(o, _)| sc.class_of(o) == weft_litmus::classify::Class::Weak)
                .map(|(_, c)| c)
                .sum(),
            Err(_) => 0,
        };
        println!(
            "{}: {} outcomes, {weak} weak, optcheck {:?}, {:?}",
            f.display(),
            run.outcomes.len(),
            run.optcheck,
            run.elapsed
        );
    }
    // Atomicity must hold on the hardware.
    let dat3m = Path::new("/work/shared/corpus/dat3m/litmus/PTX/Manual");
    for name in ["Red-plus-location_", "Atom-minus-location_"] {
        let path = dat3m.join(format!("{name}.litmus"));
        let Ok(src) = std::fs::read_to_string(&path) else {
            continue;
        };
        let p = weft_litmus::parse(&src).unwrap();
        let run = gpu.run(&p, &params, &mut |_, _| {}).unwrap();
        let cond = p.condition.as_ref().unwrap();
        for (o, c) in &run.outcomes {
            assert!(
                o.satisfies(&cond.prop),
                "{name}: {c} instances broke atomicity: {o:?}"
            );
        }
    }
}
