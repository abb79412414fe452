//! End-to-end tests of `weft results`: databases are filled through the `weft-store` API
//! with records built here, then the binary's `list`, `show` and `export` output is checked
//! against those records; read-only commands never create a database, and report a
//! missing one with exit code 2.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;
use weft_store::{DeviceRecord, OutcomeRecord, RunRecord, Store, StoredRun, TestRecord};

use crate::common::{scratch_in, stderr, stdout, weft};

/// A fresh directory for one test under cargo's per-target temporary directory.
fn scratch(name: &str) -> PathBuf {
    scratch_in("results_cli", name)
}

fn outcome(o: &str, class: &str, verdict: Option<&str>, count: u64) -> OutcomeRecord {
    OutcomeRecord {
        outcome: o.into(),
        class: class.into(),
        model_verdict: verdict.map(String::from),
        count,
    }
}

fn record(test: &str, device: &str, backend: &str, kind: &str, day: u32) -> RunRecord {
    RunRecord {
        kind: kind.into(),
        label: Some(format!("label {day}")),
        started_at: format!("2025-04-{day:02}T08:30:00Z"),
        duration_ms: 2500 + day as u64,
        device: DeviceRecord {
            backend: backend.into(),
            name: device.into(),
            vendor: "Vendor".into(),
            driver: "driver 9.1".into(),
            api: "Vulkan 1.3".into(),
            architecture: String::new(),
            browser: String::new(),
            os: String::new(),
            extra: json!({"subgroup_size": 32}),
        },
        test: TestRecord {
            name: test.into(),
            path: format!("tests/{test}.litmus"),
            format: "ptx".into(),
            digest: "ab".repeat(32),
        },
        stress_name: "default".into(),
        stress_config: json!({"memory_stress": true, "workgroups": 8}),
        seed: 40 + day as u64,
        iterations: 10,
        instances: 200,
        model: Some("ptx-v7.5".into()),
        weft_version: "0.1.0".into(),
        outcomes: vec![
            outcome("0:r0=0; 1:r1=0", "seq", Some("allowed"), 120),
            outcome(
                "0:r0=1; 1:r1=1",
                "interleaved",
                Some("allowed"),
                50 + day as u64,
            ),
            outcome("0:r0=1; 1:r1=0", "weak", Some("forbidden"), 30 - day as u64),
        ],
    }
}

/// A database with three runs; returns its path and the runs with their ids.
fn fill(dir: &Path) -> (PathBuf, Vec<(i64, RunRecord)>) {
    let db = dir.join("results.db");
    let mut store = Store::open(&db).unwrap();
    let mut runs = vec![
        record("MP", "NVIDIA H100", "cuda", "run", 1),
        record("SB", "llvmpipe (LLVM 19)", "wgpu", "tune", 2),
        record("MP+fences", "llvmpipe (LLVM 19)", "wgpu", "run", 3),
    ];
    // An outcome text that needs CSV quoting.
    runs[2].outcomes[0].outcome = "x=1, \"y\"=2".into();
    let with_ids = runs
        .into_iter()
        .map(|r| (store.record(&r).unwrap(), r))
        .collect();
    (db, with_ids)
}

#[test]
fn list_shows_one_line_per_run_with_class_counts() {
    let dir = scratch("list");
    let (db, runs) = fill(&dir);
    let db = db.to_str().unwrap();
    let o = weft(&["results", "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + runs.len(), "{text}");
    for h in [
        "id",
        "when",
        "device",
        "test",
        "stress",
        "seq",
        "weak",
        "forbidden",
    ] {
        assert!(lines[0].split_whitespace().any(|w| w == h), "{}", lines[0]);
    }
    for (line, (id, r)) in lines[1..].iter().zip(&runs) {
        assert_eq!(
            line.split_whitespace().next(),
            Some(id.to_string().as_str())
        );
        for want in [
            r.started_at.clone(),
            r.kind.clone(),
            r.device.backend.clone(),
            r.device.name.clone(),
            r.test.name.clone(),
            r.stress_name.clone(),
        ] {
            assert!(line.contains(&want), "`{want}` not in `{line}`");
        }
        let tail: Vec<&str> = line.split_whitespace().rev().take(7).collect();
        let want = [
            format!("{}.{:03}s", r.duration_ms / 1000, r.duration_ms % 1000),
            r.outcomes[2].count.to_string(), // forbidden: the weak outcome
            r.outcomes[2].count.to_string(),
            r.outcomes[1].count.to_string(),
            r.outcomes[0].count.to_string(),
            r.instances.to_string(),
            r.seed.to_string(),
        ];
        assert_eq!(tail, want, "{line}");
    }

    // Filters, through the `list` subcommand and with --db after it.
    let o = weft(&[
        "results",
        "list",
        "--backend",
        "wgpu",
        "--test",
        "MP",
        "--db",
        db,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.lines().nth(1).unwrap().contains("MP+fences"));

    // JSON summaries.
    let o = weft(&["results", "--db", db, "--kind", "tune", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 1);
    assert_eq!(arr[0]["id"], runs[1].0);
    assert_eq!(arr[0]["test"], "SB");
    assert_eq!(arr[0]["weak"], runs[1].1.outcomes[2].count);

    let o = weft(&["results", "--db", db, "--since", "2025-04-02", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let ids: Vec<i64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [runs[1].0, runs[2].0]);
    let o = weft(&["results", "--db", db, "--since", "yesterday"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("yesterday"), "{}", stderr(&o));

    let o = weft(&["results", "--db", db, "--limit", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["id"], runs[2].0);
}

#[test]
fn show_prints_identity_and_histogram_with_percentages() {
    let dir = scratch("show");
    let (db, runs) = fill(&dir);
    let db = db.to_str().unwrap();
    let (id, r) = &runs[0];
    let o = weft(&["results", "show", &id.to_string(), "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    for want in [
        &r.device.name,
        &r.device.driver,
        &r.test.name,
        &r.test.digest,
        &r.stress_name,
        &r.started_at,
    ] {
        assert!(text.contains(want.as_str()), "`{want}` not in:\n{text}");
    }
    let total: u64 = r.outcomes.iter().map(|o| o.count).sum();
    for oc in &r.outcomes {
        let line = text
            .lines()
            .find(|l| l.starts_with(&oc.outcome))
            .unwrap_or_else(|| panic!("no line for {}:\n{text}", oc.outcome));
        let cells: Vec<&str> = line[oc.outcome.len()..].split_whitespace().collect();
        let pct = format!("{:.2}", oc.count as f64 * 100.0 / total as f64);
        assert_eq!(
            cells,
            [
                oc.class.as_str(),
                oc.model_verdict.as_deref().unwrap(),
                &oc.count.to_string(),
                &pct
            ]
        );
    }

    let o = weft(&["results", "--db", db, "show", &id.to_string(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let back: StoredRun = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(back.id, *id);
    assert_eq!(&back.run, r);

    let o = weft(&["results", "show", "9999", "--db", db]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("9999"), "{}", stderr(&o));
}

#[test]
fn export_writes_csv_and_json_to_stdout_or_a_file() {
    let dir = scratch("export");
    let (db, runs) = fill(&dir);
    let db = db.to_str().unwrap();

    let o = weft(&["results", "export", "--format", "json", "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let back: Vec<StoredRun> = serde_json::from_slice(&o.stdout).unwrap();
    let want: Vec<StoredRun> = runs
        .iter()
        .map(|(id, run)| StoredRun {
            id: *id,
            run: run.clone(),
        })
        .collect();
    assert_eq!(back, want);

    let file = dir.join("out/x.csv");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let o = weft(&[
        "results",
        "export",
        "--format",
        "csv",
        "-o",
        file.to_str().unwrap(),
        "--device",
        "llvmpipe",
        "--db",
        db,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("run_id,started_at,kind,"),
        "{}",
        lines[0]
    );
    assert_eq!(lines.len(), 1 + 3 + 3, "{text}");
    let (id, r) = &runs[2];
    // The outcome with a comma and quotes is one quoted field.
    let row = format!(
        "\"x=1, \"\"y\"\"=2\",{},{},{}",
        r.outcomes[0].class,
        r.outcomes[0].model_verdict.as_deref().unwrap(),
        r.outcomes[0].count
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("{id},")) && l.ends_with(&row)),
        "no row ending `{row}`:\n{text}"
    );
    // Nothing but the file is left in its directory.
    let names: Vec<_> = std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["x.csv"]);

    // A file that cannot be written: exit 2, no temporary file left behind.
    let o = weft(&[
        "results",
        "export",
        "--format",
        "csv",
        "-o",
        dir.join("out").to_str().unwrap(),
        "--db",
        db,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("out"), "{}", stderr(&o));
}

#[test]
fn a_missing_database_is_reported_and_not_created() {
    let dir = scratch("missing");
    let db = dir.join("none.db");
    for args in [
        vec!["results", "--db", db.to_str().unwrap()],
        vec!["results", "show", "1", "--db", db.to_str().unwrap()],
        vec![
            "results",
            "export",
            "--format",
            "csv",
            "--db",
            db.to_str().unwrap(),
        ],
    ] {
        let o = weft(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("none.db"), "{}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
    assert!(!db.exists());

    // The default location follows XDG_DATA_HOME.
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["results"])
        .env("XDG_DATA_HOME", &dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let want = dir.join("weft/results.db");
    assert!(
        stderr(&o).contains(want.to_str().unwrap()),
        "{}",
        stderr(&o)
    );
    assert!(!want.exists());

    // And finds a database there.
    let (_, runs) = fill(&dir.join("weft"));
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["results", "--json"])
        .env("XDG_DATA_HOME", &dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), runs.len());
}
