//! End-to-end tests of `weft run`, `weft tune` and `weft conform` on the machine's wgpu
//! adapter (Mesa's lavapipe in CI): the GPUHarbor corpus and the paper-000 tests WGSL can
//! express run with their checksums, land in the results database and come back through
//! `weft results export`; WGSL refusals, bad stress files, unknown presets, missing devices
//! and a missing CUDA driver give their documented exit codes; tuning draws the published
//! configuration 0 of GPUHarbor's campaign seed (/work/shared/notes/gpuharbor-facts.md);
//! conformance on coherence tests passes under the WebGPU model; a model that forbids the
//! observed outcomes makes `weft run` exit 1.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{repo as root, scratch_in, stderr, stdout, weft_xdg as weft};

/// A fresh directory for one test under cargo's per-target temporary directory.
fn scratch(name: &str) -> PathBuf {
    scratch_in("run_cli", name)
}

fn json(o: &Output) -> Value {
    serde_json::from_str(&stdout(o))
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\nstderr:\n{}", stdout(o), stderr(o)))
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// The GPUHarbor tests of the corpus (every `.json` that is not metadata).
fn gpuharbor_tests() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join("tests/corpus/gpuharbor"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && !n.ends_with(".meta.json"))
        .map(|n| n.trim_end_matches(".json").to_string())
        .collect();
    v.sort();
    v
}

fn db_export(db: &Path) -> Vec<Value> {
    let o = weft(&[
        "results",
        "export",
        "--format",
        "json",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    json(&o).as_array().unwrap().clone()
}

fn count_sum(run: &Value) -> u64 {
    run["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["count"].as_u64().unwrap())
        .sum()
}

#[test]
fn every_gpuharbor_test_runs_with_checksums_and_is_recorded() {
    let dir = scratch("gpuharbor");
    let db = dir.join("r.db");
    let o = weft(&[
        "run",
        "tests/corpus/gpuharbor",
        "--stress",
        "none",
        "--iterations",
        "1",
        "--seed",
        "7",
        "-m",
        "webgpu",
        "--db",
        db.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["seed"], 7);
    assert_eq!(j["backend"], "wgpu");
    let tests = j["tests"].as_array().unwrap();
    let names: Vec<&str> = tests.iter().map(|t| t["test"].as_str().unwrap()).collect();
    assert_eq!(names.len(), gpuharbor_tests().len());
    for t in tests {
        assert_eq!(t["status"], "ok", "{t}");
        // `none`: 2 testing workgroups of 256, one dispatch.
        assert_eq!(t["instances"], 512, "{t}");
        assert!(t["checksum"].as_str().unwrap().starts_with("ok"), "{t}");
        assert_eq!(t["forbidden"], 0, "{t}");
        assert_eq!(t["model"], "webgpu");
        assert_eq!(count_sum(t), 512);
        assert!(t["run_id"].as_i64().is_some());
    }
    let runs = db_export(&db);
    assert_eq!(runs.len(), tests.len());
    for r in &runs {
        assert_eq!(r["kind"], "run");
        assert_eq!(r["stress_name"], "none");
        assert_eq!(r["seed"], 7);
        assert_eq!(r["model"], "webgpu");
        assert_eq!(r["device"]["backend"], "wgpu");
        assert_eq!(r["stress_config"]["workgroupSize"], 256);
        assert_eq!(r["instances"], 512);
        assert_eq!(count_sum(r), r["instances"].as_u64().unwrap());
        assert!(r["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["model_verdict"] == "allowed"));
    }
}

/// crates/weft-hw-wgpu/tests/data/expected.tsv: which paper-000 tests WGSL expresses.
fn paper000_expected() -> Vec<(String, bool, String)> {
    let text = std::fs::read_to_string(root().join("crates/weft-hw-wgpu/tests/data/expected.tsv"))
        .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1] == "runs",
                f.get(2).unwrap_or(&"").to_string(),
            )
        })
        .collect()
}

#[test]
fn paper000_tests_run_or_are_refused_as_written_down() {
    let expected = paper000_expected();
    assert_eq!(expected.len(), 19);
    let o = weft(&[
        "run",
        "tests/corpus/paper000",
        "--stress",
        "none",
        "--iterations",
        "1",
        "-m",
        "ptx-v7.5",
        "--no-db",
        "--json",
    ]);
    // Refusals found in a directory are reported and skipped.
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let j = json(&o);
    for (name, runs, reason) in &expected {
        let t = j["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["test"] == name.as_str())
            .unwrap_or_else(|| panic!("{name} missing"));
        if *runs {
            assert_eq!(t["status"], "ok", "{t}");
            assert_eq!(count_sum(t), t["instances"].as_u64().unwrap());
            assert_eq!(t["forbidden"], 0, "{t}");
        } else {
            assert_eq!(t["status"], "refused", "{t}");
            assert!(
                t["message"].as_str().unwrap().contains(reason.as_str()),
                "{t}"
            );
        }
    }
    // Named directly, a test WGSL cannot express is bad input, with the reason.
    let o = weft(&[
        "run",
        "tests/corpus/paper000/mp-L1+membar.gl.litmus",
        "--no-db",
        "--iterations",
        "1",
    ]);
    assert_eq!(code(&o), 2);
    let e = stderr(&o);
    assert!(
        e.contains("tests/corpus/paper000/mp-L1+membar.gl.litmus: refused")
            && e.contains("seq_cst gpu-scope fence"),
        "{e}"
    );
}

#[test]
fn bad_stress_files_presets_and_devices_are_bad_input() {
    for (file, at) in [
        (
            "tests/stress/bad-range.json",
            "tests/stress/bad-range.json:3:3: workgroupSize",
        ),
        (
            "tests/stress/bad-syntax.json",
            "tests/stress/bad-syntax.json:3:23:",
        ),
        (
            "tests/stress/bad-field.json",
            "tests/stress/bad-field.json:3:16: unknown field `workgroupSze`",
        ),
    ] {
        let o = weft(&[
            "run",
            "tests/corpus/gpuharbor/MP.json",
            "--stress",
            file,
            "--no-db",
        ]);
        assert_eq!(code(&o), 2, "{file}");
        assert!(stderr(&o).contains(at), "{file}: {}", stderr(&o));
    }
    let o = weft(&[
        "run",
        "tests/corpus/gpuharbor/MP.json",
        "--stress",
        "heavy",
        "--no-db",
    ]);
    assert_eq!(code(&o), 2);
    let e = stderr(&o);
    assert!(e.contains("unknown stress preset `heavy`"), "{e}");
    for p in [
        "none",
        "basic",
        "interleave",
        "stress",
        "gpuharbor",
        "paper000",
    ] {
        assert!(e.contains(&format!("  {p} ")), "{p}: {e}");
    }
    let o = weft(&[
        "run",
        "tests/corpus/gpuharbor/MP.json",
        "--device",
        "99",
        "--no-db",
    ]);
    assert_eq!(code(&o), 2);
    let e = stderr(&o);
    assert!(
        e.contains("no wgpu device 99") && e.contains("--device 0:"),
        "{e}"
    );
    // A small stress file runs.
    let o = weft(&[
        "run",
        "tests/corpus/gpuharbor/SB.json",
        "--stress",
        "tests/stress/small.json",
        "--iterations",
        "2",
        "--no-db",
        "--json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json(&o)["tests"][0]["instances"], 2 * 4 * 64);
    // Unparsable test: bad input.
    let o = weft(&["run", "tests/stress/small.json", "--no-db"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

#[test]
fn cuda_without_a_driver_is_a_tool_error() {
    if weft_hw_cuda::runner::driver_present() {
        eprintln!("a CUDA driver is installed: skipping the no-driver check");
        return;
    }
    let o = weft(&[
        "run",
        "tests/corpus/gpuharbor/MP.json",
        "--backend",
        "cuda",
        "--no-db",
    ]);
    assert_eq!(code(&o), 3);
    assert!(stderr(&o).contains("no CUDA driver"), "{}", stderr(&o));
    let o = weft(&["run", "--list-devices"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("wgpu adapters") && stdout(&o).contains("CUDA devices: none"));
}

/// Configuration 0 of seed rbjnMzXroA as published (gpuharbor-facts.md "Test vector").
fn assert_published_config0(c: &Value, small_limits: bool) {
    assert_eq!(c["workgroupSize"], 92);
    assert_eq!(c["stressLineSize"], 512);
    assert_eq!(c["stressTargetLines"], 14);
    assert_eq!(c["memStride"], 7);
    assert_eq!(c["shufflePct"], 27);
    assert_eq!(c["barrierPct"], 32);
    assert_eq!(c["memStressPct"], 5);
    assert_eq!(c["preStressPct"], 95);
    assert_eq!(c["memStressIterations"], 926);
    assert_eq!(c["preStressIterations"], 110);
    if small_limits {
        assert_eq!(c["testingWorkgroups"], 14);
        assert_eq!(c["maxWorkgroups"], 15);
    }
}

#[test]
fn tune_draws_the_published_configurations_and_ranks_them() {
    let o = weft(&[
        "tune",
        "x",
        "--configs",
        "3",
        "--seed",
        "rbjnMzXroA",
        "--list-configs",
        "--json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let desktop = json(&o);
    assert_published_config0(&desktop[0]["config"], false);
    assert_eq!(desktop.as_array().unwrap().len(), 3);

    let dir = scratch("tune");
    let db = dir.join("r.db");
    let args = [
        "tune",
        "tests/corpus/gpuharbor/MP.json",
        "tests/corpus/gpuharbor/SB.json",
        "--configs",
        "3",
        "--seed",
        "rbjnMzXroA",
        "--limits",
        "16,256",
        "--iterations",
        "1",
        "--db",
        db.to_str().unwrap(),
        "--json",
    ];
    let a = weft(&args);
    assert_eq!(code(&a), 0, "{}", stderr(&a));
    let b = weft(&args);
    let (ja, jb) = (json(&a), json(&b));
    assert_eq!(ja["configs"], jb["configs"]);
    assert_published_config0(&ja["configs"][0]["config"], true);
    assert_eq!(ja["configs"][0]["stress_name"], "tune:rbjnMzXroA#0");
    // Every configuration is ranked, per test and overall.
    assert_eq!(ja["overall"].as_array().unwrap().len(), 3);
    assert_eq!(ja["tests"][0]["ranking"].as_array().unwrap().len(), 3);
    let runs = db_export(&db);
    assert_eq!(runs.len(), 2 * 2 * 3);
    for r in &runs {
        assert_eq!(r["kind"], "tune");
        assert!(r["stress_name"]
            .as_str()
            .unwrap()
            .starts_with("tune:rbjnMzXroA#"));
        assert_eq!(count_sum(r), r["instances"].as_u64().unwrap());
    }
    let k0 = runs
        .iter()
        .find(|r| r["stress_name"] == "tune:rbjnMzXroA#0")
        .unwrap();
    assert_eq!(k0["instances"], 14 * 92);
    assert_published_config0(&k0["stress_config"], true);

    // Text output names the configurations and the ranking.
    let t = weft(&[
        "tune",
        "x",
        "--configs",
        "2",
        "--seed",
        "rbjnMzXroA",
        "--limits",
        "16,256",
        "--list-configs",
    ]);
    assert!(stdout(&t).contains("#0  testingWorkgroups 14 (of 15), workgroupSize 92"));
    let bad = weft(&["tune", "x", "--limits", "huge", "--list-configs"]);
    assert_eq!(code(&bad), 2);
}

#[test]
fn conform_passes_on_coherence_tests_and_records_runs() {
    let dir = scratch("conform");
    let db = dir.join("r.db");
    let o = weft(&[
        "conform",
        "tests/corpus/gpuharbor/CoRR.json",
        "tests/corpus/gpuharbor/MP-CO.json",
        "--tune-with",
        "tests/corpus/gpuharbor/MP.json",
        "--configs",
        "2",
        "--limits",
        "16,256",
        "--iterations",
        "1",
        "--db",
        db.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["model"], "webgpu");
    assert_eq!(j["failures"], 0);
    let runs = j["runs"].as_array().unwrap();
    assert!(runs.iter().any(|r| r["test"] == "CoRR"));
    assert!(runs.iter().any(|r| r["test"] == "MP-CO"));
    assert!(runs.iter().all(|r| r["forbidden"] == 0));
    let stored = db_export(&db);
    assert_eq!(stored.iter().filter(|r| r["kind"] == "tune").count(), 2);
    assert_eq!(
        stored.iter().filter(|r| r["kind"] == "conform").count(),
        runs.len()
    );
    assert!(stored
        .iter()
        .filter(|r| r["kind"] == "conform")
        .all(|r| r["model"] == "webgpu"));
    // With --stress the tuning step is skipped.
    let o = weft(&[
        "conform",
        "tests/corpus/gpuharbor/CoWW.json",
        "--stress",
        "none",
        "--iterations",
        "1",
        "--no-db",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("1 runs, 0 with outcomes webgpu forbids"));
}

/// A model that forbids every execution with a read from a write (`empty rf`) forbids
/// every outcome MP can show: `weft run -m` must report a conformance failure (exit 1),
/// and the verdicts reach the database.
#[test]
fn an_outcome_the_model_forbids_is_a_failure() {
    let dir = scratch("forbid");
    let model = dir.join("no-rf.cat");
    std::fs::write(&model, "\"no reads from writes\"\nempty rf as no-rf\n").unwrap();
    let db = dir.join("r.db");
    let o = weft(&[
        "run",
        "tests/corpus/gpuharbor/MP.json",
        "--stress",
        "none",
        "--iterations",
        "1",
        "-m",
        model.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stdout(&o).contains("FAIL"), "{}", stdout(&o));
    let runs = db_export(&db);
    assert!(runs[0]["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|o| o["model_verdict"] == "forbidden"));
}
