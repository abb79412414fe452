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
