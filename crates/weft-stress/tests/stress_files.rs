//! Stress files nobody tuned for weft: GPUHarbor's per-test `numMemLocations` and
//! `numOutputs` are accepted and checked, mismatches point at the field; every
//! `fuzz/regressions/stress-*` input (what the `stress` fuzz target once tripped on) loads
//! or fails cleanly, and what loads writes back to the same configuration.

use std::path::Path;

use weft_stress::{StressConfig, TestShape};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn gpuharbor_fields_are_accepted_and_checked() {
    // gpuharbor-facts.md: the runner's defaults carry numMemLocations 2, numOutputs 2
    // (message passing: x and y; r0 and r1).
    let text = r#"{"testingWorkgroups": 2, "numMemLocations": 2,
  "numOutputs": 2}"#;
    let cfg = StressConfig::from_json(text, Some(Path::new("mp.json"))).unwrap();
    assert_eq!(cfg.num_mem_locations, Some(2));
    let mp = TestShape {
        mem_locations: 2,
        outputs: 2,
    };
    cfg.check_test("MP", mp).unwrap();
    // CoRR-style test with one location: the file's numMemLocations is wrong for it.
    let one = TestShape {
        mem_locations: 1,
        outputs: 2,
    };
    let e = cfg.check_test("CoRR", one).unwrap_err();
    assert_eq!((e.line, e.col), (1, 26), "{e}");
    assert!(
        e.to_string()
            .starts_with("mp.json:1:26: `numMemLocations` is 2"),
        "{e}"
    );
    let three = TestShape {
        mem_locations: 2,
        outputs: 3,
    };
    let e = cfg.check_test("X", three).unwrap_err();
    assert_eq!((e.line, e.col), (2, 3), "{e}");
    assert!(e.message.contains("numOutputs"), "{e}");
    // Without the fields nothing is checked.
    StressConfig::default().check_test("X", one).unwrap();
}

#[test]
fn shapes_of_corpus_tests() {
    // By hand: MP reads r0, r1 (2 outputs) of x, y; 2+2W reads nothing but reports the
    // final x and y its condition names (2 outputs); IRIW's readers read 4 registers.
    for (file, locs, outs) in [
        ("tests/corpus/gpuharbor/MP.json", 2, 2),
        ("tests/corpus/gpuharbor/2+2W.json", 2, 2),
        ("tests/corpus/c/SB.litmus", 2, 2),
        ("tests/corpus/c/IRIW.litmus", 2, 4),
    ] {
        let bytes = std::fs::read(root().join(file)).unwrap();
        let p = weft_litmus::parse_bytes(&bytes).unwrap();
        let s = TestShape::of(&p);
        assert_eq!((s.mem_locations, s.outputs), (locs, outs), "{file}");
    }
}

#[test]
fn fuzz_regressions_load_or_fail_cleanly() {
    let dir = root().join("fuzz/regressions");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.starts_with("stress-") {
            continue;
        }
        n += 1;
        let bytes = std::fs::read(e.path()).unwrap();
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        if let Ok(cfg) = StressConfig::from_json(text, None) {
            cfg.validate().unwrap();
            let back = serde_json::to_string(&cfg).unwrap();
            assert_eq!(StressConfig::from_json(&back, None).unwrap(), cfg, "{name}");
        }
    }
    println!("{n} stress regressions replayed");
}
