//! API tests of the campaign server on loopback (127.0.0.1, an ephemeral port, bounded
//! request counts): the shaders it serves are `weft run`'s byte for byte; malformed,
//! oversized and inconsistent submissions are refused with 4xx and store nothing; a retried
//! submission is stored once; a burst from one client is rate-limited; 100 concurrent
//! clients are all stored exactly once. Every test runs on SQLite, and on PostgreSQL too
//! when `WEFT_TEST_POSTGRES` names a server (scripts/test-postgres.sh starts one; each test
//! gets a fresh database there).

use std::net::SocketAddr;
use std::path::Path;
use std::sync::mpsc;

use serde_json::{json, Value};
use weft_server::{Db, Settings};

struct Server {
    base: String,
    db: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

/// Which database a test server uses.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Backend {
    Sqlite,
    Postgres,
}

/// A fresh PostgreSQL database on the `WEFT_TEST_POSTGRES` server, named after the test.
async fn fresh_pg(name: &str) -> String {
    let url = std::env::var("WEFT_TEST_POSTGRES").unwrap();
    let (c, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    let db = format!("weft_{name}_{}", std::process::id());
    c.batch_execute(&format!("DROP DATABASE IF EXISTS {db}"))
        .await
        .unwrap();
    c.batch_execute(&format!("CREATE DATABASE {db}"))
        .await
        .unwrap();
    let base = url.rsplit_once('/').unwrap().0;
    format!("{base}/{db}")
}

fn start(settings: Settings, backend: Backend, name: &str) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("campaign.db");
    let path = db.clone();
    let name = name.to_string();
    let (tx, rx) = mpsc::channel::<SocketAddr>();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(4)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let d = match backend {
                Backend::Sqlite => Db::open_sqlite(path).unwrap(),
                Backend::Postgres => Db::open_postgres(&fresh_pg(&name).await).await.unwrap(),
            };
            let state = weft_server::state(d, &settings).unwrap();
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(l.local_addr().unwrap()).unwrap();
            weft_server::serve(l, state).await.unwrap();
        });
    });
    let addr = rx.recv().unwrap();
    Server {
        base: format!("http://{addr}"),
        db,
        _dir: dir,
    }
}

/// Runs a test on SQLite, and on PostgreSQL when `WEFT_TEST_POSTGRES` is set.
macro_rules! on_both {
    ($($name:ident),*) => {
        $(mod $name {
            #[test]
            fn sqlite() {
                super::$name(super::Backend::Sqlite)
            }
            #[test]
            fn postgres() {
                if std::env::var("WEFT_TEST_POSTGRES").is_ok() {
                    super::$name(super::Backend::Postgres)
                } else {
                    eprintln!("skipped: WEFT_TEST_POSTGRES is not set (scripts/test-postgres.sh sets it)");
                }
            }
        })*
    };
}

on_both!(
    served_shaders_and_plans_are_weft_runs_byte_for_byte,
    a_valid_submission_is_classified_by_the_server_and_stored_once,
    malformed_oversized_and_inconsistent_submissions_store_nothing,
    a_burst_from_one_client_is_rate_limited,
    a_hundred_concurrent_clients_are_all_stored_once,
    configs_and_queries
);

fn call(base: &str, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    let url = format!("{base}{path}");
    let req = ureq::request(method, &url).set("content-type", "application/json");
    let r = match body {
        Some(b) => req.send_string(b),
        None => req.call(),
    };
    let resp = match r {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{url}: {e}"),
    };
    let status = resp.status();
    let text = resp.into_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn post(s: &Server, path: &str, body: &Value) -> (u16, Value) {
    call(&s.base, "POST", path, Some(&body.to_string()))
}

fn get(s: &Server, path: &str) -> Value {
    let (st, v) = call(&s.base, "GET", path, None);
    assert_eq!(st, 200, "{path}: {v}");
    v
}

fn counts(s: &Server) -> (u64, u64) {
    let h = get(s, "/api/health");
    (
        h["runs"].as_u64().unwrap(),
        h["submissions"].as_u64().unwrap(),
    )
}

fn basic() -> Value {
    serde_json::to_value(weft_stress::Preset::from_name("basic").unwrap().config()).unwrap()
}

/// A browser-style run of MP under the basic preset (2 × 256 = 512 instances per
/// dispatch): rows are `[1:r0, 1:r1, x, y]` (the column order the spec reports). By hand:
/// r0=0,r1=0 and r0=1,r1=1 are sequential, r0=0,r1=1 interleaved, r0=1,r1=0 weak (paper
/// 001 Fig. 1a); final memory x=1, y=1 in every outcome.
fn mp_run(iterations: u64, weak: u64) -> Value {
    let n = 512 * iterations;
    json!({
        "kind": "run", "test": "MP", "stress_name": "basic", "stress": basic(),
        "seed": 1, "iterations": iterations, "duration_ms": 100,
        "rows": if weak > 0 {
            json!([{"values": [0, 0, 1, 1], "count": n - weak - 10},
                   {"values": [0, 1, 1, 1], "count": 10},
                   {"values": [1, 0, 1, 1], "count": weak}])
        } else {
            json!([{"values": [1, 1, 1, 1], "count": n}])
        },
        "class_counts": if weak > 0 { json!([n - weak - 10, 10, weak]) } else { json!([n, 0, 0]) },
    })
}

fn submission(key: &str, runs: Vec<Value>) -> Value {
    json!({
        "idempotency_key": key,
        "device": {"backend": "webgpu", "vendor": "acme", "architecture": "rdna9",
                   "browser": "Chrome 131", "os": "Linux"},
        "runs": runs,
    })
}

fn served_shaders_and_plans_are_weft_runs_byte_for_byte(b: Backend) {
    const NAME: &str = "ssapawrbfb";
    let s = start(Settings::default(), b, NAME);
    let corpora = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
    let tests = get(&s, "/api/tests");
    // 22 tests of tests/corpus/gpuharbor, 38 of tests/corpus/gpuharbor-mutants (32 mutants,
    // 6 coherence conformance tests: listed in its `@all`), 4 in both (MP, LB, S, MP-CO).
    assert_eq!(tests.as_array().unwrap().len(), 22 + 38 - 4);
    let tuning: Vec<&str> = tests
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["tuning"] == true)
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    let listed = std::fs::read_to_string(corpora.join("gpuharbor-mutants/@all")).unwrap();
    let mut expected: Vec<&str> = listed
        .lines()
        .filter(|l| l.contains("# mutant "))
        .map(|l| l.split(".json").next().unwrap())
        .collect();
    expected.sort();
    assert_eq!(expected.len(), 32);
    assert_eq!(tuning, expected, "the API lists the 32 tuning mutants");
    let target = |n: &str| {
        tests.as_array().unwrap().iter().find(|t| t["name"] == n).unwrap()["target"].clone()
    };
    assert_eq!(target("CoRR-mutant"), "interleaved");
    assert_eq!(target("MP-barrier1"), "weak");
    let tune0 = weft_stress::configs(
        "rbjnMzXroA",
        3,
        weft_stress::Limits {
            max_workgroups: 64,
            max_workgroup_size: 64,
        },
    );
    let mut checked = 0;
    for t in tests.as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        // The program `weft run tests/corpus/CORPUS/NAME.json` parses.
        let dir = t["corpus"].as_str().unwrap();
        let bytes = std::fs::read(corpora.join(dir).join(format!("{name}.json"))).unwrap();
        let program = weft_litmus::parse_bytes(&bytes).unwrap();
        for (stress, cfg, seed) in [
            (
                json!({"preset": "basic"}),
                weft_stress::Preset::from_name("basic").unwrap().config(),
                5u64,
            ),
            (
                json!({"tune_seed": "rbjnMzXroA", "index": 2, "limits": "64,64"}),
                tune0[2].clone(),
                77,
            ),
        ] {
            let (st, spec) = post(
                &s,
                "/api/spec",
                &json!({"test": name, "stress": stress, "seed": seed, "iterations": 3}),
            );
            // What WgpuRunner::run executes for this program and stress.
            let native = weft_hw_wgpu::generate(&program, &cfg);
            match native {
                Ok(g) => {
                    assert_eq!(st, 200, "{name}: {spec}");
                    assert_eq!(spec["test_wgsl"].as_str().unwrap(), g.test_wgsl, "{name}");
                    assert_eq!(
                        spec["result_wgsl"].as_str().unwrap(),
                        g.result_wgsl,
                        "{name}"
                    );
                    assert_eq!(spec["layout"]["table"], json!(g.layout.table));
                    let mut rng = weft_hw_wgpu::HostRng::new(seed);
                    for p in spec["plans"].as_array().unwrap() {
                        let pl = weft_hw_wgpu::plan(&cfg, &mut rng);
                        assert_eq!(p["shuffle"], json!(pl.shuffle));
                        assert_eq!(p["lines"], json!(pl.lines));
                        assert_eq!(p["workgroups"], json!(pl.workgroups));
                    }
                    checked += 1;
                }
                Err(_) => assert_eq!(st, 422, "{name}: the server refuses what weft run refuses"),
            }
        }
    }
    assert!(checked >= 100, "{checked}");
    // The digest is the file's SHA-256, as `weft run` records it.
    let mp = get(&s, "/api/tests/MP");
    assert_eq!(mp["role"], "mutant");
    assert_eq!(mp["pairs"], json!(["MP-CO", "MP-barrier"]));
    // A generated mutant pairs with the conformance test its meta names.
    let m = get(&s, "/api/tests/CoWR-RMW-mutant");
    assert_eq!(m["pairs"], json!(["CoWR-RMW"]));
    let c = get(&s, "/api/tests/LB-CO");
    assert_eq!(c["role"], "conformance");
    assert_eq!(c["pairs"], json!(["LB", "LB-CO-tuning"]));
}

fn a_valid_submission_is_classified_by_the_server_and_stored_once(b: Backend) {
    const NAME: &str = "avsicbtsaso";
    let s = start(Settings::default(), b, NAME);
    let body = submission("key-valid-0001", vec![mp_run(2, 3)]);
    let (st, v) = post(&s, "/api/submissions", &body);
    assert_eq!(st, 201, "{v}");
    assert_eq!(v["stored"], true);
    let id = v["runs"][0].as_i64().unwrap();
    let r = get(&s, &format!("/api/runs/{id}"));
    let outcomes = r["run"]["outcomes"].as_array().unwrap();
    let find = |text: &str| {
        outcomes
            .iter()
            .find(|o| o["outcome"] == text)
            .unwrap()
            .clone()
    };
    assert_eq!(find("1:r0=1; 1:r1=0; x=1; y=1")["class"], "weak");
    assert_eq!(find("1:r0=1; 1:r1=0; x=1; y=1")["count"], 3);
    assert_eq!(find("1:r0=0; 1:r1=1; x=1; y=1")["class"], "interleaved");
    assert_eq!(find("1:r0=0; 1:r1=0; x=1; y=1")["class"], "seq");
    // Judged under the bundled webgpu model: MP's weak outcome is allowed (relaxed atomics
    // only guarantee coherence; paper 001 Fig. 1a).
    assert_eq!(r["run"]["model"], "webgpu");
    assert_eq!(find("1:r0=1; 1:r1=0; x=1; y=1")["model_verdict"], "allowed");
    assert_eq!(r["run"]["instances"], 1024);
    assert_eq!(r["run"]["device"]["browser"], "Chrome 131");
    assert_eq!(r["run"]["device"]["architecture"], "rdna9");
    // A retry (same key, same content) stores nothing new and answers with the same ids.
    let (st2, v2) = post(&s, "/api/submissions", &body);
    assert_eq!(st2, 200, "{v2}");
    assert_eq!(
        (v2["stored"].clone(), v2["runs"].clone()),
        (json!(false), v["runs"].clone())
    );
    assert_eq!(counts(&s), (1, 1));
    // MP-CO (x := 1; x := 2 || r0 := x; r1 := x): reading 2 then 1 breaks coherence, which
    // WebGPU's model forbids (paper 001 Fig. 1b): stored as weak and forbidden.
    let co = json!({
        "kind": "conform", "test": "MP-CO", "stress_name": "basic", "stress": basic(),
        "seed": 2, "iterations": 1, "duration_ms": 50,
        "rows": [{"values": [0, 0, 2], "count": 509}, {"values": [2, 1, 2], "count": 3}],
        "class_counts": [509, 0, 3],
    });
    let (st, v) = post(
        &s,
        "/api/submissions",
        &submission("key-valid-0002", vec![co]),
    );
    assert_eq!(st, 201, "{v}");
    let r = get(&s, &format!("/api/runs/{}", v["runs"][0]));
    let o = &r["run"]["outcomes"];
    let bad = o
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["outcome"] == "1:r0=2; 1:r1=1; x=2")
        .unwrap();
    assert_eq!(
        (bad["class"].clone(), bad["model_verdict"].clone()),
        (json!("weak"), json!("forbidden"))
    );
    let runs = get(&s, "/api/runs?test=MP-CO");
    assert_eq!(runs[0]["forbidden"], 3);
    assert_eq!(counts(&s), (2, 2));
    // The same key with other content is a conflict.
    let (st3, _) = post(
        &s,
        "/api/submissions",
        &submission("key-valid-0001", vec![mp_run(1, 0)]),
    );
    assert_eq!(st3, 409);
    assert_eq!(counts(&s), (2, 2));
}

fn malformed_oversized_and_inconsistent_submissions_store_nothing(b: Backend) {
    const NAME: &str = "moaissn";
    let s = start(Settings::default(), b, NAME);
    let good = || submission("key-bad-000001", vec![mp_run(1, 2)]);
    let mut cases: Vec<(&str, String, u16)> = vec![
        ("not JSON", "{\"idempotency_key\": ".into(), 400),
        ("wrong type", json!({"idempotency_key": 5}).to_string(), 400),
    ];
    let mut unknown = good();
    unknown["surprise"] = json!(1);
    cases.push(("unknown field", unknown.to_string(), 400));
    let mut v = good();
    v["runs"][0]["rows"][0]["count"] = json!(1);
    cases.push((
        "counts do not add up to iterations × instances",
        v.to_string(),
        422,
    ));
    let mut v = good();
    v["runs"][0]["class_counts"] = json!([502, 8, 2]);
    cases.push((
        "result shader counts disagree with the rows",
        v.to_string(),
        422,
    ));
    let mut v = good();
    v["runs"][0]["rows"][0]["values"] = json!([0, 0, 1]);
    cases.push(("row of the wrong width", v.to_string(), 422));
    let mut v = good();
    v["runs"][0]["test"] = json!("NoSuchTest");
    cases.push(("unknown test", v.to_string(), 422));
    let mut v = good();
    v["idempotency_key"] = json!("short");
    cases.push(("bad key", v.to_string(), 422));
    let mut v = good();
    v["device"]["vendor"] = json!("x".repeat(500));
    cases.push(("oversized field", v.to_string(), 422));
    let mut v = good();
    v["runs"] = json!([]);
    cases.push(("no runs", v.to_string(), 422));
    let mut v = good();
    v["runs"][0]["stress"]["workgroupSize"] = json!(0);
    cases.push(("invalid stress", v.to_string(), 422));
    let mut v = good();
    v["runs"] = json!([mp_run(1, 2), {"kind": "run"}]);
    cases.push(("one bad run among good ones", v.to_string(), 400));
    let mut v = good();
    v["runs"] = json!([mp_run(1, 2), mp_run(1, 2)]);
    v["runs"][1]["iterations"] = json!(3);
    cases.push((
        "second run inconsistent (nothing of the first stored)",
        v.to_string(),
        422,
    ));
    for (what, body, want) in cases {
        let (st, v) = call(&s.base, "POST", "/api/submissions", Some(&body));
        assert_eq!(st, want, "{what}: {v}");
        assert!(v["error"].is_string() || st == 413, "{what}: {v}");
    }
    // Over the 8 MiB body limit: refused from its Content-Length, before the body is read
    // (sent by hand: a client still writing the body may see the connection close).
    {
        use std::io::{Read, Write};
        let addr = s.base.trim_start_matches("http://");
        let mut c = std::net::TcpStream::connect(addr).unwrap();
        c.set_read_timeout(Some(std::time::Duration::from_secs(20)))
            .unwrap();
        write!(
            c,
            "POST /api/submissions HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{{\"idempotency_key\":\"",
            9 << 20
        )
        .unwrap();
        let mut answer = String::new();
        let _ = c.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    }
    assert_eq!(counts(&s), (0, 0));
    // And the good one is accepted.
    assert_eq!(post(&s, "/api/submissions", &good()).0, 201);
    assert_eq!(counts(&s), (1, 1));
}

fn a_burst_from_one_client_is_rate_limited(b: Backend) {
    const NAME: &str = "abfocirl";
    let s = start(
        Settings {
            submissions_per_minute: 5,
            burst: 5,
            ..Default::default()
        },
        b,
        NAME,
    );
    let mut status = Vec::new();
    for i in 0..12 {
        let (st, _) = post(
            &s,
            "/api/submissions",
            &submission(&format!("burst-key-{i:04}"), vec![mp_run(1, 0)]),
        );
        status.push(st);
    }
    assert_eq!(&status[..5], &[201; 5]);
    assert!(status[5..].iter().all(|&s| s == 429), "{status:?}");
    assert_eq!(counts(&s), (5, 5));
}

fn a_hundred_concurrent_clients_are_all_stored_once(b: Backend) {
    const NAME: &str = "ahccaaso";
    // Every client is 127.0.0.1 here, so the per-address limit is raised above the 200
    // requests (with the default burst of 120, the retries of the last clients are refused).
    let s = start(
        Settings {
            submissions_per_minute: 60,
            burst: 400,
            ..Default::default()
        },
        b,
        NAME,
    );
    let base = s.base.clone();
    let t0 = std::time::Instant::now();
    let handles: Vec<_> = (0..100)
        .map(|i| {
            let base = base.clone();
            std::thread::spawn(move || {
                let body =
                    submission(&format!("client-{i:04}-key"), vec![mp_run(1, i % 7)]).to_string();
                // Each client sends its upload twice (a retry after a lost answer).
                let a = call(&base, "POST", "/api/submissions", Some(&body));
                let b = call(&base, "POST", "/api/submissions", Some(&body));
                (a.0, b.0, a.1["runs"].clone() == b.1["runs"])
            })
        })
        .collect();
    let mut created = 0;
    for h in handles {
        let (a, b, same) = h.join().unwrap();
        assert!(a == 201 && b == 200 && same, "{a} {b} {same}");
        created += 1;
    }
    assert_eq!(created, 100);
    eprintln!(
        "{b:?}: 100 clients × 2 uploads (512-instance MP runs) in {:.3} s",
        t0.elapsed().as_secs_f64()
    );
    assert_eq!(counts(&s), (100, 100));
    // The database agrees, read directly.
    if b == Backend::Sqlite {
        let store = weft_store::Store::open_existing(&s.db).unwrap();
        assert_eq!(store.submissions().unwrap().len(), 100);
    }
    assert_eq!(get(&s, "/api/submissions").as_array().unwrap().len(), 100);
}

fn configs_and_queries(b: Backend) {
    const NAME: &str = "caq";
    let s = start(Settings::default(), b, NAME);
    // gpuharbor-facts.md: configuration 0 of seed rbjnMzXroA (desktop limits) has
    // workgroupSize 92, stressLineSize 512, stressTargetLines 14, memStride 7.
    let c = get(&s, "/api/configs?seed=rbjnMzXroA&n=2&limits=desktop");
    let c0 = &c[0]["config"];
    assert_eq!(
        (
            c0["workgroupSize"].clone(),
            c0["stressLineSize"].clone(),
            c0["stressTargetLines"].clone(),
            c0["memStride"].clone()
        ),
        (json!(92), json!(512), json!(14), json!(7))
    );
    assert_eq!(c[1]["stress_name"], "tune:rbjnMzXroA#1");
    assert_eq!(call(&s.base, "GET", "/api/configs?n=0", None).0, 400);
    assert_eq!(call(&s.base, "GET", "/api/tests/Nope", None).0, 404);
    assert_eq!(call(&s.base, "GET", "/api/runs/99", None).0, 404);
    assert_eq!(call(&s.base, "GET", "/api/nope", None).0, 404);
    let (st, _) = call(
        &s.base,
        "POST",
        "/api/spec",
        Some(
            &json!({"test": "MP", "stress": {"preset": "basic"}, "seed": 1, "iterations": 0})
                .to_string(),
        ),
    );
    assert_eq!(st, 422);
    // Nothing can be deleted or edited.
    assert_eq!(call(&s.base, "DELETE", "/api/submissions", None).0, 405);
    let html = call(&s.base, "GET", "/", None).1;
    assert!(html.as_str().unwrap().contains("weft campaign"));
}

#[test]
fn oversized_specs_and_spec_bursts_are_refused() {
    let s = start(
        Settings {
            specs_per_minute: 3,
            ..Default::default()
        },
        Backend::Sqlite,
        "spec",
    );
    // The stress preset dispatches up to 1024 workgroups: 10 000 iterations would plan
    // 10 240 000 entries, over the 2 097 152 one spec may carry.
    let big = json!({"test": "MP", "stress": {"preset": "stress"}, "seed": 1, "iterations": 10000});
    let (st, v) = post(&s, "/api/spec", &big);
    assert_eq!(st, 422, "{v}");
    assert!(v["error"].as_str().unwrap().contains("from"), "{v}");
    let small = json!({"test": "MP", "stress": {"preset": "basic"}, "seed": 1, "iterations": 1});
    let status: Vec<u16> = (0..4).map(|_| post(&s, "/api/spec", &small).0).collect();
    // The oversized request counted too: two more pass, then the limit.
    assert_eq!(status, [200, 200, 429, 429]);
}
