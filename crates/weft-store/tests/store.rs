//! Behaviour of the results database on temporary files: records come back exactly as
//! built here, shared rows are deduplicated, filters select what they say, exports parse
//! back to the records (CSV quoting included), schemas migrate from an empty file and a
//! newer schema is refused, bad paths give errors naming them, and two handles on one file
//! write concurrently.

use std::collections::BTreeSet;
use std::path::Path;

use rusqlite::Connection;
use serde_json::json;
use weft_store::schema::{
    BOOTSTRAP_SQL, POSTGRES_SQL, SCHEMA_V1_SQL, SCHEMA_V2_SQL, SCHEMA_VERSION,
};
use weft_store::{
    DeviceRecord, Filter, OutcomeRecord, RunRecord, Store, StoreError, StoredRun, TestRecord,
};

fn device(name: &str, backend: &str) -> DeviceRecord {
    DeviceRecord {
        backend: backend.into(),
        name: name.into(),
        vendor: "ACME".into(),
        driver: "acme 1.2.3".into(),
        api: if backend == "cuda" {
            "sm_90"
        } else {
            "Vulkan 1.3"
        }
        .into(),
        architecture: String::new(),
        browser: String::new(),
        os: String::new(),
        extra: json!({"max_workgroup_size": 1024, "pci": "0000:01:00.0"}),
    }
}

fn test(name: &str) -> TestRecord {
    TestRecord {
        name: name.into(),
        path: format!("tests/corpus/{name}.litmus"),
        format: "gpu_ptx".into(),
        digest: format!("{:064x}", name.len()),
    }
}

fn outcome(o: &str, class: &str, verdict: Option<&str>, count: u64) -> OutcomeRecord {
    OutcomeRecord {
        outcome: o.into(),
        class: class.into(),
        model_verdict: verdict.map(String::from),
        count,
    }
}

fn run(test_name: &str, dev: DeviceRecord, stress: &str, seed: u64, day: u32) -> RunRecord {
    RunRecord {
        kind: "run".into(),
        label: None,
        started_at: format!("2025-03-{day:02}T10:00:00Z"),
        duration_ms: 1234,
        device: dev,
        test: test(test_name),
        stress_name: stress.into(),
        stress_config: json!({"preset": stress, "memory_stress": true, "scratch": [1, 2, 3]}),
        seed,
        iterations: 100,
        instances: 1000,
        model: Some("ptx-v7.5".into()),
        weft_version: "0.1.0".into(),
        outcomes: vec![
            outcome("0:r0=0; 1:r1=0", "seq", Some("allowed"), 400),
            outcome("0:r0=1; 1:r1=1", "interleaved", Some("allowed"), 590),
            outcome("0:r0=1; 1:r1=0", "weak", Some("forbidden"), 10),
        ],
    }
}

fn count(db: &Path, table: &str) -> i64 {
    Connection::open(db)
        .unwrap()
        .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

#[test]
fn runs_round_trip_exactly_and_shared_rows_are_deduplicated() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("nested/dir/results.db");
    let mut store = Store::open(&db).unwrap();
    let mut a = run("MP", device("GPU A", "wgpu"), "default", 1, 1);
    a.label = Some("nightly, \"quoted\"".into());
    a.seed = u64::MAX; // above i64::MAX: stored as the same bits
    let b = run("MP", device("GPU A", "wgpu"), "default", 2, 2);
    let mut c = run("SB", device("GPU B", "cuda"), "tune#3", 3, 3);
    c.kind = "tune".into();
    c.model = None;
    c.outcomes = vec![outcome("x=1", "weak", None, 5)];
    // The same config built with its keys in another order is the same config.
    let mut d = run("SB", device("GPU B", "cuda"), "default", 4, 4);
    d.stress_config = json!({"scratch": [1, 2, 3], "memory_stress": true, "preset": "default"});
    d.outcomes.clear();
    // A different driver version is a different device.
    let mut e = run("MP", device("GPU A", "wgpu"), "default", 5, 5);
    e.device.driver = "acme 1.2.4".into();
    e.device.extra = json!(null);

    let runs = [a, b, c, d, e];
    let ids: Vec<i64> = runs.iter().map(|r| store.record(r).unwrap()).collect();
    assert_eq!(ids.iter().collect::<BTreeSet<_>>().len(), 5);
    for (id, r) in ids.iter().zip(&runs) {
        assert_eq!(store.run(*id).unwrap().as_ref(), Some(r));
    }
    assert_eq!(store.run(9999).unwrap(), None);
    drop(store);
    assert_eq!(count(&db, "devices"), 3);
    assert_eq!(count(&db, "tests"), 2);
    assert_eq!(count(&db, "stress_configs"), 2);
    assert_eq!(count(&db, "runs"), 5);
    assert_eq!(count(&db, "outcomes"), 3 + 3 + 1 + 3);
    // Reopening finds everything.
    let store = Store::open(&db).unwrap();
    assert_eq!(store.run(ids[2]).unwrap().as_ref(), Some(&runs[2]));
}

fn populated() -> (tempfile::TempDir, Store, Vec<(i64, RunRecord)>) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path().join("r.db")).unwrap();
    let mut runs = vec![
        run("MP", device("NVIDIA H100", "cuda"), "default", 10, 1),
        run("MP-relacq", device("NVIDIA H100", "cuda"), "tune#1", 11, 2),
        run("SB", device("llvmpipe", "wgpu"), "default", 12, 3),
        run("MP", device("llvmpipe", "wgpu"), "tune#1", 13, 4),
    ];
    runs[1].kind = "tune".into();
    runs[3].kind = "tune".into();
    runs[3].outcomes[2].count = 50;
    runs[3].outcomes[1].count = 550;
    let with_ids = runs
        .into_iter()
        .map(|r| (store.record(&r).unwrap(), r))
        .collect();
    (dir, store, with_ids)
}

fn ids_of(store: &Store, f: Filter) -> Vec<i64> {
    store.runs(&f).unwrap().iter().map(|s| s.id).collect()
}

#[test]
fn filters_select_by_test_device_backend_kind_since_and_limit() {
    let (_dir, store, runs) = populated();
    let id = |i: usize| runs[i].0;
    assert_eq!(
        ids_of(&store, Filter::default()),
        vec![id(0), id(1), id(2), id(3)]
    );
    let f = |test: Option<&str>, device: Option<&str>| Filter {
        test: test.map(String::from),
        device: device.map(String::from),
        ..Filter::default()
    };
    assert_eq!(
        ids_of(&store, f(Some("MP"), None)),
        vec![id(0), id(1), id(3)]
    );
    assert_eq!(ids_of(&store, f(Some("relacq"), None)), vec![id(1)]);
    assert_eq!(ids_of(&store, f(Some("%"), None)), Vec::<i64>::new());
    assert_eq!(ids_of(&store, f(None, Some("H100"))), vec![id(0), id(1)]);
    assert_eq!(ids_of(&store, f(Some("MP"), Some("llvmpipe"))), vec![id(3)]);
    let backend = Filter {
        backend: Some("wgpu".into()),
        ..Filter::default()
    };
    assert_eq!(ids_of(&store, backend), vec![id(2), id(3)]);
    let kind = Filter {
        kind: Some("tune".into()),
        ..Filter::default()
    };
    assert_eq!(ids_of(&store, kind), vec![id(1), id(3)]);
    let since = Filter {
        since: Some("2025-03-03".into()),
        ..Filter::default()
    };
    assert_eq!(ids_of(&store, since), vec![id(2), id(3)]);
    let limit = Filter {
        limit: Some(2),
        ..Filter::default()
    };
    assert_eq!(ids_of(&store, limit), vec![id(2), id(3)]);
    let bad = Filter {
        since: Some("March".into()),
        ..Filter::default()
    };
    assert!(matches!(store.runs(&bad), Err(StoreError::Invalid(_))));
}

#[test]
fn summaries_count_per_class_and_weak_rates_rank_configurations() {
    let (_dir, store, runs) = populated();
    let all = store.runs(&Filter::default()).unwrap();
    for (s, (id, r)) in all.iter().zip(&runs) {
        assert_eq!(s.id, *id);
        assert_eq!(s.test, r.test.name);
        assert_eq!(s.device, r.device.name);
        assert_eq!(s.backend, r.device.backend);
        assert_eq!(s.kind, r.kind);
        assert_eq!(s.started_at, r.started_at);
        assert_eq!(s.seed, r.seed);
        assert_eq!(s.instances, r.instances);
        assert_eq!(s.duration_ms, r.duration_ms);
        let sum = |class: &str| -> u64 {
            r.outcomes
                .iter()
                .filter(|o| o.class == class)
                .map(|o| o.count)
                .sum()
        };
        assert_eq!(
            (s.seq, s.interleaved, s.weak),
            (sum("seq"), sum("interleaved"), sum("weak"))
        );
        assert_eq!(s.forbidden, sum("weak")); // weak outcomes are the forbidden ones here
    }
    let rates = store
        .weak_rates(&Filter {
            test: Some("MP".into()),
            ..Filter::default()
        })
        .unwrap();
    let got: Vec<(&str, &str, u64, u64, u64)> = rates
        .iter()
        .map(|w| {
            (
                w.test.as_str(),
                w.stress_name.as_str(),
                w.runs,
                w.instances,
                w.weak,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("MP", "tune#1", 1, 1000, 50),
            ("MP", "default", 1, 1000, 10),
            ("MP-relacq", "tune#1", 1, 1000, 10),
        ]
    );
    assert_eq!(rates[0].rate(), 0.05);
}

/// A minimal RFC 4180 reader (fields may be quoted; `""` is a quote inside quotes), so
/// that the test does not trust the writer's own crate to read back what it wrote.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                _ => field.push(c),
            }
        } else {
            match c {
                '"' => quoted = true,
                ',' => row.push(std::mem::take(&mut field)),
                '\n' => {
                    row.push(std::mem::take(&mut field));
                    rows.push(std::mem::take(&mut row));
                }
                '\r' => {}
                _ => field.push(c),
            }
        }
    }
    assert!(field.is_empty() && row.is_empty(), "CSV ends mid-row");
    rows
}

#[test]
fn csv_export_has_one_quoted_row_per_run_and_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path().join("r.db")).unwrap();
    let mut r = run(
        "MP, \"weird\" name",
        device("GPU, \"X\"", "wgpu"),
        "a,b",
        7,
        9,
    );
    r.outcomes = vec![
        outcome("0:r0=1; 1:r1=0; x=1", "weak", Some("forbidden"), 3),
        outcome("a=\"1,2\"\nline", "seq", None, 4),
    ];
    let mut empty = run("SB", device("GPU", "cuda"), "default", 8, 10);
    empty.outcomes.clear();
    let id = store.record(&r).unwrap();
    let id2 = store.record(&empty).unwrap();
    let mut buf = Vec::new();
    store.export_csv(&Filter::default(), &mut buf).unwrap();
    let rows = parse_csv(&String::from_utf8(buf).unwrap());
    let header: Vec<&str> = rows[0].iter().map(String::as_str).collect();
    assert_eq!(header[0], "run_id");
    assert_eq!(
        &header[header.len() - 4..],
        ["outcome", "class", "model_verdict", "count"]
    );
    assert_eq!(rows.len(), 1 + 2 + 1);
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for (row, o) in rows[1..3].iter().zip(&r.outcomes) {
        assert_eq!(row.len(), header.len());
        assert_eq!(row[col("run_id")], id.to_string());
        assert_eq!(row[col("test")], r.test.name);
        assert_eq!(row[col("device")], r.device.name);
        assert_eq!(row[col("stress_name")], r.stress_name);
        assert_eq!(row[col("seed")], "7");
        assert_eq!(row[col("outcome")], o.outcome);
        assert_eq!(row[col("class")], o.class);
        assert_eq!(
            row[col("model_verdict")],
            o.model_verdict.clone().unwrap_or_default()
        );
        assert_eq!(row[col("count")], o.count.to_string());
        let config: serde_json::Value = serde_json::from_str(&row[col("stress_config")]).unwrap();
        assert_eq!(config, r.stress_config);
    }
    assert_eq!(rows[3][col("run_id")], id2.to_string());
    assert_eq!(rows[3][col("outcome")], "");
    assert_eq!(rows[3][col("count")], "");
}

#[test]
fn json_export_parses_back_to_the_recorded_runs() {
    let (_dir, store, runs) = populated();
    let mut buf = Vec::new();
    let f = Filter {
        kind: Some("tune".into()),
        ..Filter::default()
    };
    store.export_json(&f, &mut buf).unwrap();
    let back: Vec<StoredRun> = serde_json::from_slice(&buf).unwrap();
    let want: Vec<StoredRun> = runs
        .iter()
        .filter(|(_, r)| r.kind == "tune")
        .map(|(id, r)| StoredRun {
            id: *id,
            run: r.clone(),
        })
        .collect();
    assert_eq!(back, want);
    // Fields are named as in the records.
    let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
    assert_eq!(v[0]["test"]["name"], "MP-relacq");
    assert_eq!(v[0]["id"], runs[1].0);
}

#[test]
fn migrates_an_empty_file_and_refuses_a_newer_schema() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("empty.db");
    std::fs::write(&db, b"").unwrap();
    let mut store = Store::open(&db).unwrap();
    store
        .record(&run("MP", device("G", "wgpu"), "default", 1, 1))
        .unwrap();
    drop(store);
    let version: i64 = Connection::open(&db)
        .unwrap()
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    // Reopening does not migrate again (one version row, data kept).
    let store = Store::open_existing(&db).unwrap();
    assert_eq!(store.runs(&Filter::default()).unwrap().len(), 1);
    drop(store);
    assert_eq!(count(&db, "schema_version"), 1);

    Connection::open(&db)
        .unwrap()
        .execute(
            "UPDATE schema_version SET version = ?1",
            [SCHEMA_VERSION + 1],
        )
        .unwrap();
    for r in [Store::open(&db).err(), Store::open_existing(&db).err()] {
        match r {
            Some(e @ StoreError::SchemaTooNew { found, known, .. }) => {
                assert_eq!((found, known), (SCHEMA_VERSION + 1, SCHEMA_VERSION));
                let msg = e.to_string();
                assert!(msg.contains("empty.db") && msg.contains("newer"), "{msg}");
            }
            other => panic!("want SchemaTooNew, got {other:?}"),
        }
    }
}

#[test]
fn foreign_files_and_bad_paths_give_errors_naming_the_path() {
    let dir = tempfile::tempdir().unwrap();
    // A directory.
    let e = Store::open(dir.path()).err().unwrap();
    assert!(matches!(e, StoreError::Path { .. }));
    assert!(e.to_string().contains(&dir.path().display().to_string()));
    // A parent that is a file (fails even for root, unlike permission bits).
    let file = dir.path().join("plain");
    std::fs::write(&file, "not a directory").unwrap();
    let db = file.join("sub/results.db");
    let e = Store::open(&db).err().unwrap();
    assert!(matches!(e, StoreError::Path { .. }), "{e:?}");
    assert!(e.to_string().contains("results.db"), "{e}");
    // A text file.
    let e = Store::open(&file).err().unwrap();
    assert!(matches!(e, StoreError::NotWeft { .. }), "{e:?}");
    // Another application's SQLite database.
    let other = dir.path().join("other.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x INTEGER);")
        .unwrap();
    let e = Store::open(&other).err().unwrap();
    assert!(matches!(e, StoreError::NotWeft { .. }), "{e:?}");
    // Reading never creates.
    let missing = dir.path().join("missing.db");
    assert!(matches!(
        Store::open_existing(&missing),
        Err(StoreError::Missing { .. })
    ));
    assert!(!missing.exists());
}

#[test]
fn invalid_records_are_refused_and_store_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let mut store = Store::open(&db).unwrap();
    let good = run("MP", device("G", "wgpu"), "default", 1, 1);
    let mut bad_time = good.clone();
    bad_time.started_at = "2025-03-01 10:00".into();
    let mut bad_class = good.clone();
    bad_class.outcomes[0].class = "strange".into();
    let mut dup = good.clone();
    dup.outcomes.push(dup.outcomes[0].clone());
    let mut bad_kind = good.clone();
    bad_kind.kind = "walk".into();
    let mut huge = good.clone();
    huge.outcomes[2].count = u64::MAX; // fails after earlier rows were inserted
    for r in [bad_time, bad_class, dup, bad_kind, huge] {
        assert!(matches!(store.record(&r), Err(StoreError::Invalid(_))));
    }
    drop(store);
    assert_eq!(count(&db, "runs"), 0);
    assert_eq!(count(&db, "outcomes"), 0);
}

#[test]
fn two_handles_on_one_file_write_concurrently() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("shared.db");
    let per_thread = 25;
    let handles: Vec<_> = (0..2)
        .map(|t| {
            let db = db.clone();
            std::thread::spawn(move || {
                let mut store = Store::open(&db).unwrap();
                for i in 0..per_thread {
                    let r = run(&format!("T{t}"), device("G", "wgpu"), "default", i, 1);
                    store.record(&r).unwrap();
                    // Reads interleave with the other handle's writes.
                    store.runs(&Filter::default()).unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let store = Store::open_existing(&db).unwrap();
    for t in 0..2 {
        let f = Filter {
            test: Some(format!("T{t}")),
            ..Filter::default()
        };
        let seeds: Vec<u64> = store.runs(&f).unwrap().iter().map(|s| s.seed).collect();
        assert_eq!(seeds, (0..per_thread).collect::<Vec<_>>());
    }
    drop(store);
    assert_eq!(count(&db, "devices"), 1);
}

/// `(table, column lines)` of every `CREATE TABLE` in `sql`, with SQLite's rowid-alias
/// primary key and PostgreSQL's identity primary key written the same way.
fn tables(sql: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut cur: Option<(String, Vec<String>)> = None;
    for line in sql.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("CREATE TABLE ") {
            let name = rest
                .trim_end_matches(" (")
                .trim_start_matches("IF NOT EXISTS ");
            cur = Some((name.to_string(), Vec::new()));
        } else if line.starts_with(");") {
            out.extend(cur.take());
        } else if let Some((_, cols)) = cur.as_mut() {
            let l = line
                .trim_end_matches(',')
                .replace("INTEGER PRIMARY KEY", "<id>")
                .replace(
                    "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
                    "<id>",
                );
            cols.push(l);
        }
    }
    out
}

#[test]
fn postgres_ddl_declares_the_same_model_in_portable_types() {
    // The PostgreSQL file declares the schema SQLite has after every migration: the same
    // tables, and per table the same columns with the same types and NOT NULL-ness.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("schema.db");
    drop(Store::open(&db).unwrap());
    let conn = Connection::open(&db).unwrap();
    let pg = tables(POSTGRES_SQL);
    let names: Vec<&str> = pg.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "schema_version",
            "devices",
            "tests",
            "stress_configs",
            "submissions",
            "runs",
            "outcomes"
        ]
    );
    for (table, cols) in &pg {
        let mut stmt = conn
            .prepare(&format!(
                "SELECT name, type, \"notnull\", pk FROM pragma_table_info('{table}')"
            ))
            .unwrap();
        let live: Vec<String> = stmt
            .query_map([], |r| {
                let (n, t, nn, pk): (String, String, i64, i64) =
                    (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
                Ok(if pk == 1 {
                    format!("{n} <id>")
                } else if nn == 1 {
                    format!("{n} {t} NOT NULL")
                } else {
                    format!("{n} {t}")
                })
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let declared: Vec<String> = cols
            .iter()
            .filter(|c| !c.starts_with("UNIQUE"))
            .map(|c| {
                let w: Vec<&str> = c.split_whitespace().collect();
                let nn = c.contains("NOT NULL");
                if w[1] == "<id>" {
                    format!("{} <id>", w[0])
                } else if nn {
                    format!("{} {} NOT NULL", w[0], w[1])
                } else {
                    format!("{} {}", w[0], w[1])
                }
            })
            .collect();
        assert_eq!(live, declared, "{table}");
    }
    let sqlite = tables(&format!("{BOOTSTRAP_SQL}{SCHEMA_V1_SQL}{SCHEMA_V2_SQL}"));
    let index_lines = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("CREATE INDEX"))
            .map(String::from)
            .collect()
    };
    assert_eq!(
        index_lines(&format!("{SCHEMA_V1_SQL}{SCHEMA_V2_SQL}")),
        index_lines(POSTGRES_SQL)
    );
    // Only portable column types; no SQLite-only clauses.
    for (_, cols) in &sqlite {
        for c in cols.iter().filter(|c| !c.starts_with("UNIQUE")) {
            let ty = c.split_whitespace().nth(1).unwrap();
            assert!(["<id>", "INTEGER", "BIGINT", "TEXT"].contains(&ty), "{c}");
        }
    }
    for word in [
        "AUTOINCREMENT",
        "WITHOUT ROWID",
        "STRICT",
        "PRAGMA",
        "DATETIME",
    ] {
        assert!(!SCHEMA_V1_SQL.contains(word), "{word}");
        assert!(!SCHEMA_V2_SQL.contains(word), "{word}");
    }
}

#[test]
fn migrates_a_version_1_database_keeping_its_runs() {
    // A database written by schema 1 (the v1 DDL, one run) opens under schema 2: the
    // devices gain empty architecture/browser/OS, ids and runs are kept.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v1.db");
    {
        let c = Connection::open(&db).unwrap();
        c.execute_batch(BOOTSTRAP_SQL).unwrap();
        c.execute_batch(SCHEMA_V1_SQL).unwrap();
        c.execute_batch("INSERT INTO schema_version (version) VALUES (1);")
            .unwrap();
        c.execute_batch(
            "INSERT INTO devices (id, backend, name, vendor, driver, api) VALUES (7, 'wgpu', 'G', 'V', 'd', 'Vulkan');
             INSERT INTO tests (id, name, format, digest) VALUES (1, 'MP', 'c', 'ab');
             INSERT INTO stress_configs (id, config) VALUES (1, '{}');
             INSERT INTO runs (id, kind, started_at, duration_ms, device_id, device_extra, test_id, test_path, stress_name, stress_config_id, seed, iterations, instances, weft_version)
               VALUES (3, 'run', '2025-01-01T00:00:00Z', 5, 7, '{}', 1, 'MP.litmus', 'basic', 1, 9, 1, 2, '0.1.0');
             INSERT INTO outcomes (run_id, position, outcome, class, count) VALUES (3, 0, 'x=1', 'seq', 2);",
        )
        .unwrap();
    }
    let store = Store::open(&db).unwrap();
    let r = store.run(3).unwrap().unwrap();
    assert_eq!(r.device.name, "G");
    assert_eq!(
        (r.device.architecture.as_str(), r.device.browser.as_str()),
        ("", "")
    );
    assert_eq!(r.outcomes[0].count, 2);
    drop(store);
    let c = Connection::open(&db).unwrap();
    let v: i64 = c
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, 2);
    let id: i64 = c
        .query_row("SELECT id FROM devices", [], |r| r.get(0))
        .unwrap();
    assert_eq!(id, 7);
}

#[test]
fn a_submission_is_stored_once_under_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path().join("s.db")).unwrap();
    let sub = weft_store::Submission {
        idempotency_key: "k1".into(),
        client: "127.0.0.1".into(),
        received_at: "2025-05-01T00:00:00Z".into(),
        digest: "d1".into(),
        contact: None,
    };
    let runs = vec![
        run("MP", device("G", "wgpu"), "basic", 1, 1),
        run("SB", device("G", "wgpu"), "basic", 2, 1),
    ];
    let (id, ids, fresh) = store.record_submission(&sub, &runs).unwrap();
    assert!(fresh);
    assert_eq!(ids.len(), 2);
    let (id2, ids2, fresh2) = store.record_submission(&sub, &runs).unwrap();
    assert_eq!((id2, ids2, fresh2), (id, ids.clone(), false));
    // The same key with other content is refused, nothing stored.
    let other = weft_store::Submission {
        digest: "d2".into(),
        ..sub.clone()
    };
    assert!(matches!(
        store.record_submission(&other, &runs[..1]),
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(store.counts().unwrap(), (2, 1));
    assert_eq!(store.submission_run_ids(id).unwrap(), ids);
    assert_eq!(store.submissions().unwrap()[0].runs, 2);
}
