//! End-to-end runs through wgpu (Mesa's lavapipe here and on CI; any Vulkan/Metal/DX12
//! adapter elsewhere). Skipped, saying why, where wgpu finds no adapter at all.
//!
//! What must hold on any conforming device (lavapipe is a CPU: weak outcomes may or may
//! not appear): the checksum (the runner enforces it: GPU class counts = instances =
//! host histogram, class by class); coherence conformance tests never show their weak
//! outcome (tests/corpus/gpuharbor/*.meta.json: `webgpu_model: forbidden`); RMWs are
//! atomic; a workgroup barrier between threads of one workgroup synchronises them.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use weft_hw_wgpu::lower::CUT_VALUE;
use weft_hw_wgpu::{adapters, WgpuError, WgpuParams, WgpuRun, WgpuRunner};
use weft_litmus::classify::{classify, Class};
use weft_stress::StressConfig;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn runner() -> Option<&'static WgpuRunner> {
    static R: OnceLock<Option<WgpuRunner>> = OnceLock::new();
    R.get_or_init(|| match WgpuRunner::open(None) {
        Ok(r) => Some(r),
        Err(e) => {
            eprintln!("skipping: {e}");
            None
        }
    })
    .as_ref()
}

fn parse(path: &Path) -> weft_ir::Program {
    let src = std::fs::read_to_string(path).unwrap();
    weft_litmus::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn stressed() -> StressConfig {
    StressConfig {
        testing_workgroups: 4,
        max_workgroups: 6,
        workgroup_size: 32,
        shuffle_pct: 50,
        barrier_pct: 100,
        mem_stress_pct: 100,
        mem_stress_iterations: 32,
        pre_stress_pct: 100,
        pre_stress_iterations: 8,
        mem_stride: 2,
        mem_stress_store_first_pct: 50,
        mem_stress_store_second_pct: 50,
        bank_conflicts: true,
        ..StressConfig::default()
    }
}

fn run_test(r: &WgpuRunner, p: &weft_ir::Program, stress: StressConfig) -> WgpuRun {
    let params = WgpuParams {
        iterations: 3,
        stress,
        seed: 1,
    };
    let mut calls = 0;
    let run = r
        .run(p, &params, &mut |done, total| {
            calls += 1;
            assert!(done <= total);
        })
        .unwrap_or_else(|e| panic!("{}: {e}", p.name));
    assert_eq!(calls, 3);
    let per = params.stress.testing_workgroups as u64 * params.stress.workgroup_size as u64;
    assert_eq!(run.instances, 3 * per);
    assert_eq!(
        run.outcomes.iter().map(|(_, n)| n).sum::<u64>(),
        run.instances
    );
    // The GPU's classes are the host's classes (the runner checks too).
    let c = classify(p).unwrap();
    let mut host = [0u64; 3];
    for (o, n) in &run.outcomes {
        host[c.class_of(o) as usize] += n;
    }
    assert_eq!(host, run.gpu_class_counts, "{}", p.name);
    run
}

fn weak(p: &weft_ir::Program, run: &WgpuRun) -> u64 {
    let c = classify(p).unwrap();
    run.outcomes
        .iter()
        .filter(|(o, _)| c.class_of(o) == Class::Weak)
        .map(|(_, n)| n)
        .sum()
}

#[test]
fn every_gpuharbor_test_runs_with_the_checksum_holding() {
    let Some(r) = runner() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/corpus/gpuharbor"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let s = p.to_string_lossy();
            s.ends_with(".json") && !s.ends_with(".meta.json")
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 22);
    let mut coherence = 0;
    for f in &files {
        let p = parse(f);
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f.with_extension("meta.json")).unwrap())
                .unwrap();
        let run = run_test(r, &p, stressed());
        let forbidden = meta["webgpu_model"] == "forbidden";
        let name = meta["test"].as_str().unwrap();
        if forbidden && (name.starts_with("Co") || name.starts_with("MP-CO")) {
            coherence += 1;
            assert_eq!(
                weak(&p, &run),
                0,
                "{name}: coherence violated: {:?}",
                run.outcomes
            );
        }
    }
    assert_eq!(coherence, 10);
}

#[test]
fn runnable_paper000_tests_run() {
    let Some(r) = runner() else { return };
    for name in ["SB", "cas-sl", "coRR", "dlb-lb", "mp-volatile"] {
        let p = parse(&root().join(format!("tests/corpus/paper000/{name}.litmus")));
        let run = run_test(r, &p, stressed());
        assert!(!run.strengthened.is_empty(), "{name}");
        if name == "coRR" {
            assert_eq!(
                weak(&p, &run),
                0,
                "coRR on relaxed atomics: {:?}",
                run.outcomes
            );
        }
    }
}

#[test]
fn rmw_atomicity_and_three_threads() {
    let Some(r) = runner() else { return };
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    // Three atomic adds: never a lost update (its "weak" behaviour is x = 1 or 2).
    let p = parse(&data.join("RMW-add3.json"));
    let run = run_test(r, &p, stressed());
    assert_eq!(weak(&p, &run), 0, "{:?}", run.outcomes);
    for (o, _) in &run.outcomes {
        assert_eq!(o.mem[0][0], 3);
        let mut old: Vec<i64> = o.regs.iter().map(|t| t[0]).collect();
        old.sort();
        assert_eq!(old, [0, 1, 2]);
    }
    // WRC spans three workgroups: every instance gets all three threads.
    let p = parse(&data.join("WRC.json"));
    run_test(r, &p, stressed());
}

#[test]
fn a_workgroup_barrier_synchronises_one_workgroup() {
    let Some(r) = runner() else { return };
    let p =
        parse(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/MP-workgroup-barrier.json"));
    let run = run_test(
        r,
        &p,
        StressConfig {
            testing_workgroups: 2,
            ..stressed()
        },
    );
    assert_eq!(weak(&p, &run), 0, "{:?}", run.outcomes);
    // The read of x after the barrier always sees 1.
    assert!(run.outcomes.iter().all(|(o, _)| o.regs[1][1] == 1));
}

#[test]
fn refused_tests_and_bad_devices_are_errors() {
    let n = adapters().len();
    match WgpuRunner::open(Some(n + 3)) {
        Err(WgpuError::BadDevice { index, available }) => {
            assert_eq!((index, available), (n + 3, n))
        }
        Err(WgpuError::NoAdapter(_)) if n == 0 => {}
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("device {} opened", n + 3),
    }
    let Some(r) = runner() else { return };
    let p = parse(&root().join("tests/corpus/paper000/mp-L1+membar.gl.litmus"));
    match r.run(&p, &WgpuParams::default(), &mut |_, _| {}) {
        Err(WgpuError::Codegen(e)) => assert!(e.message.contains("gpu-scope fence"), "{e}"),
        other => panic!(
            "expected a codegen error, got {:?}",
            other.map(|r| r.instances)
        ),
    }
    let big = StressConfig {
        workgroup_size: 1024,
        ..StressConfig::default()
    };
    if r.limits().max_compute_invocations_per_workgroup < 1024 {
        let mp = parse(&root().join("tests/corpus/gpuharbor/MP.json"));
        let params = WgpuParams {
            stress: big,
            ..WgpuParams::default()
        };
        assert!(matches!(
            r.run(&mp, &params, &mut |_, _| {}),
            Err(WgpuError::BadParams(_))
        ));
    }
}

/// The counter `x`'s final value in an outcome (the last location of the lock programs).
fn counter(p: &weft_ir::Program, o: &weft_litmus::classify::Outcome) -> i64 {
    let x = p.locations.iter().position(|l| l.name == "x").unwrap();
    o.mem[x][0]
}

#[test]
fn the_unfenced_spin_locks_run_as_bounded_loops() {
    // tests/corpus/locks (paper 001 §5.3): the unfenced TAS, TTAS and CAS locks and the
    // no-lock baseline run; every instance either increments twice (x == 2), loses an
    // increment (x == 1: a failing iteration, possible on a real GPU), or has a thread cut
    // at the spin cap (registers = CUT_VALUE). The fenced locks are refused: WGSL has no
    // acquire/release fences.
    let Some(r) = runner() else { return };
    for name in ["TAS-UF", "TTAS-UF", "CAS-UF", "no-lock"] {
        let p = parse(&root().join(format!("tests/corpus/locks/{name}.litmus")));
        let run = run_test(r, &p, stressed());
        for (o, n) in &run.outcomes {
            let cut = o.regs.iter().flatten().any(|v| *v == CUT_VALUE as i64);
            let x = counter(&p, o);
            assert!(cut || x == 1 || x == 2, "{name}: {n} × x = {x}");
            // The lock is free at the end of every completed instance.
            if !cut && name != "no-lock" {
                assert_eq!(o.mem[0][0], 0, "{name}: lock held at the end");
            }
        }
    }
    for name in ["TAS-F", "TTAS-F", "CAS-F"] {
        let p = parse(&root().join(format!("tests/corpus/locks/{name}.litmus")));
        match r.run(&p, &WgpuParams::default(), &mut |_, _| {}) {
            Err(WgpuError::Codegen(e)) => {
                assert!(e.message.contains("acquire gpu-scope fence"), "{e}")
            }
            other => panic!(
                "{name}: expected a codegen error, got {:?}",
                other.map(|r| r.instances)
            ),
        }
    }
}

#[test]
fn a_spin_that_never_ends_is_cut_and_counted() {
    // P1 waits for a flag nobody sets: every instance's P1 is cut at the spin cap and
    // reports CUT_VALUE in its registers; P0 completes.
    let Some(r) = runner() else { return };
    let src = "VULKAN spin-forever\n{\nf=0; y=0;\n}\n P0@sg 0,wg 0, qf 0      | P1@sg 0,wg 1, qf 0      ;\n st.atom.dv.sc0 y, 1      | LC00:                   ;\n                           | ld.atom.dv.sc0 r0, f    ;\n                           | beq r0, 0, LC00         ;\nexists (P1:r0 == 1)\n";
    let p = weft_litmus::parse(src).unwrap();
    let params = WgpuParams {
        iterations: 1,
        stress: StressConfig {
            testing_workgroups: 2,
            max_workgroups: 2,
            workgroup_size: 4,
            ..StressConfig::default()
        },
        seed: 3,
    };
    let run = r.run(&p, &params, &mut |_, _| {}).unwrap();
    assert_eq!(run.instances, 8);
    let cut: u64 = run
        .outcomes
        .iter()
        .filter(|(o, _)| o.regs[1][0] == CUT_VALUE as i64)
        .map(|(_, n)| n)
        .sum();
    assert_eq!(cut, 8, "{:?}", run.outcomes);
}
