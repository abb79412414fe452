//! Code generation without a GPU: every GPUHarbor corpus test generates under every
//! preset and naga validates both shaders; the paper-000 tests generate or are refused as
//! tests/data/expected.tsv says; per-dispatch choices are a pure function of the seed.

use std::path::{Path, PathBuf};

use weft_hw_wgpu::{generate, plan, validate_wgsl, HostRng};
use weft_stress::{Preset, StressConfig};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn parse(path: &Path) -> weft_ir::Program {
    let src = std::fs::read_to_string(path).unwrap();
    weft_litmus::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn corpus(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == ext) && !p.to_string_lossy().ends_with(".meta.json")
        })
        .collect();
    v.sort();
    v
}

fn small() -> StressConfig {
    StressConfig {
        testing_workgroups: 4,
        max_workgroups: 8,
        workgroup_size: 32,
        shuffle_pct: 100,
        barrier_pct: 100,
        mem_stress_pct: 100,
        pre_stress_pct: 100,
        mem_stride: 3,
        bank_conflicts: true,
        ..StressConfig::default()
    }
}

#[test]
fn every_gpuharbor_test_generates_valid_wgsl_under_every_preset() {
    let files = corpus("tests/corpus/gpuharbor", "json");
    assert_eq!(files.len(), 22);
    let mut configs: Vec<StressConfig> =
        Preset::all().into_iter().map(|(p, _)| p.config()).collect();
    configs.push(small());
    configs.push(StressConfig {
        aliased_memory: true,
        permute_second: 1,
        ..small()
    });
    for f in &files {
        let p = parse(f);
        for cfg in &configs {
            let g = generate(&p, cfg).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            validate_wgsl(&g.test_wgsl)
                .unwrap_or_else(|e| panic!("{} test shader: {e}\n{}", f.display(), g.test_wgsl));
            validate_wgsl(&g.result_wgsl).unwrap_or_else(|e| {
                panic!("{} result shader: {e}\n{}", f.display(), g.result_wgsl)
            });
            // GPUHarbor's checksum unit: testingWorkgroups × workgroupSize per dispatch.
            assert_eq!(
                g.layout.instances,
                cfg.testing_workgroups as u64 * cfg.workgroup_size as u64
            );
        }
    }
}

#[test]
fn paper000_tests_generate_or_are_refused_as_expected() {
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/expected.tsv"),
    )
    .unwrap();
    let files = corpus("tests/corpus/paper000", "litmus");
    assert_eq!(files.len(), 19);
    let mut seen = 0;
    for line in expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let path = root().join(format!("tests/corpus/paper000/{}.litmus", cols[0]));
        let p = parse(&path);
        let r = generate(&p, &small());
        match cols[1] {
            "runs" => {
                let g = r.unwrap_or_else(|e| panic!("{}: {e}", cols[0]));
                validate_wgsl(&g.test_wgsl).unwrap();
                validate_wgsl(&g.result_wgsl).unwrap();
                // Weak PTX accesses become relaxed atomics: always recorded.
                assert!(!g.strengthened.is_empty(), "{}", cols[0]);
            }
            "refused" => {
                let e = r.err().unwrap_or_else(|| panic!("{} generated", cols[0]));
                assert!(
                    e.message.contains(cols[2]),
                    "{}: {} does not mention {:?}",
                    cols[0],
                    e.message,
                    cols[2]
                );
            }
            v => panic!("bad verdict {v}"),
        }
        seen += 1;
    }
    assert_eq!(seen, 19);
}

#[test]
fn our_own_tests_generate() {
    for name in ["WRC", "MP-workgroup-barrier", "RMW-add3"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/{name}.json"));
        let g = generate(&parse(&path), &small()).unwrap_or_else(|e| panic!("{name}: {e}"));
        validate_wgsl(&g.test_wgsl).unwrap_or_else(|e| panic!("{name}: {e}\n{}", g.test_wgsl));
        validate_wgsl(&g.result_wgsl).unwrap();
    }
}

#[test]
fn refusals_name_what_cannot_be_expressed() {
    let wrc = parse(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/WRC.json"));
    // Three workgroups are needed, two given.
    let e = generate(
        &wrc,
        &StressConfig {
            testing_workgroups: 2,
            ..small()
        },
    )
    .unwrap_err();
    assert!(e.message.contains("3 different workgroups"), "{e}");
    // An acquire load: WGSL atomics are relaxed only.
    let src = r#"{"testName": "acq", "threads": [{"actions": [
        {"action": "read", "memoryLocation": "x", "variable": "r0", "memoryOrder": "acquire"}]}]}"#;
    let e = generate(&weft_litmus::parse(src).unwrap(), &small()).unwrap_err();
    assert!(
        e.message.contains("thread T0 instruction 1") && e.message.contains("relaxed only"),
        "{e}"
    );
    // A bad configuration is refused with the field named.
    let e = generate(
        &wrc,
        &StressConfig {
            barrier_pct: 200,
            ..small()
        },
    )
    .unwrap_err();
    assert!(e.message.contains("barrierPct"), "{e}");
}

#[test]
fn same_seed_same_dispatch_choices() {
    let cfg = Preset::Stress.config();
    let draw = |seed| {
        let mut r = HostRng::new(seed);
        (0..5).map(|_| plan(&cfg, &mut r)).collect::<Vec<_>>()
    };
    let a = draw(7);
    assert_eq!(a, draw(7));
    assert_ne!(a, draw(8));
    for p in &a {
        // [testingWorkgroups, maxWorkgroups), a permutation of the workgroup ids.
        assert!(p.workgroups >= 512 && p.workgroups < 1024);
        let mut s = p.shuffle.clone();
        s.sort();
        assert_eq!(s, (0..p.workgroups).collect::<Vec<_>>());
        assert!(p.barrier && p.mem_stress && p.pre_stress);
        assert_eq!(p.lines.len(), p.workgroups as usize);
        assert!(p
            .lines
            .iter()
            .all(|l| l % cfg.stress_line_size == 0 && *l < cfg.scratch_memory_size));
    }
    let none = Preset::None.config();
    let p = plan(&none, &mut HostRng::new(1));
    assert_eq!(p.workgroups, 2);
    assert_eq!(p.shuffle, vec![0, 1]);
    assert!(!p.barrier && !p.mem_stress && !p.pre_stress);
}
