//! End-to-end tests of the campaign commands on loopback: `weft tune` records native runs
//! (lavapipe), `weft serve` starts on 127.0.0.1 with a fresh database, `weft submit`
//! uploads the runs once (a second upload stores nothing), and `weft analyze` finds the
//! device and its rates in the server's database; bad arguments give exit code 2.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use crate::common::{scratch_in, text, weft_xdg as weft};

fn scratch(name: &str) -> PathBuf {
    scratch_in("campaign_cli", name)
}

/// `weft serve` on an ephemeral loopback port; its base URL.
struct Serve(Child, String);

impl Serve {
    fn start(db: &Path) -> Serve {
        let mut c = Command::new(env!("CARGO_BIN_EXE_weft"))
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--db",
                db.to_str().unwrap(),
            ])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(c.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        Serve(c, url)
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn tune_submit_and_analyze() {
    let dir = scratch("e2e");
    let local = dir.join("local.db");
    let o = weft(&[
        "tune",
        "tests/corpus/gpuharbor/MP.json",
        "tests/corpus/gpuharbor/MP-CO.json",
        "--configs",
        "3",
        "--iterations",
        "2",
        "--limits",
        "8,64",
        "--db",
        local.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let server_db = dir.join("server.db");
    let s = Serve::start(&server_db);
    let o = weft(&["submit", "--server", &s.1, "--db", local.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("6 runs stored"),
        "{}",
        text(&o.stdout)
    );
    // Again: the same idempotency key, nothing stored twice.
    let o = weft(&["submit", "--server", &s.1, "--db", local.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        text(&o.stdout).contains("6 runs already stored"),
        "{}",
        text(&o.stdout)
    );
    let o = weft(&["analyze", "--db", server_db.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["runs"], 6);
    assert_eq!(r["devices"].as_array().unwrap().len(), 1);
    assert_eq!(r["devices"][0]["backend"], "wgpu");
    assert_eq!(r["tests"], serde_json::json!(["MP", "MP-CO"]));
    // Three configurations of seed rbjnMzXroA: MP's vector has 3 dimensions and MP pairs
    // with MP-CO over 3 configurations.
    assert_eq!(r["similarity"]["seed"], "rbjnMzXroA");
    assert_eq!(r["similarity"]["dimensions"].as_array().unwrap().len(), 3);
    assert_eq!(r["correlations"][0]["n"], 3);
    // CSV export.
    let csv = dir.join("csv");
    let o = weft(&[
        "analyze",
        "--db",
        server_db.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let best = std::fs::read_to_string(csv.join("best_rates.csv")).unwrap();
    assert_eq!(best.lines().count(), 3, "{best}");
}

#[test]
fn bad_arguments_exit_2() {
    let dir = scratch("bad");
    for args in [
        vec!["serve", "--listen", "nonsense"],
        vec![
            "serve",
            "--db",
            "postgres://nobody@127.0.0.1:1/x",
            "--listen",
            "127.0.0.1:0",
        ],
        vec!["analyze", "--db", "/nonexistent/weft.db"],
        vec!["analyze", "--db", "/nonexistent/weft.db", "--pair", "MP"],
        vec!["submit", "--server", "ftp://127.0.0.1:1"],
    ] {
        let mut a = args.clone();
        let db = dir.join("x.db");
        if args[0] == "serve" && !args.contains(&"--db") {
            a.extend(["--db", db.to_str().unwrap()]);
        }
        let o = weft(&a);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).starts_with("weft: "),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}
