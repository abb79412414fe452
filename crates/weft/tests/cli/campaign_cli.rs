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

/// A GET on loopback: the status and the body.
fn get(base: &str, path: &str) -> (u16, Vec<u8>) {
    use std::io::{Read, Write};
    let addr = base.trim_start_matches("http://");
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    write!(
        c,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut buf = Vec::new();
    c.read_to_end(&mut buf).unwrap();
    let at = buf.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&buf[..at]).into_owned();
    assert!(!head.to_ascii_lowercase().contains("chunked"), "{head}");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, buf[at + 4..].to_vec())
}

fn get_json(base: &str, path: &str) -> Value {
    let (status, body) = get(base, path);
    assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&body));
    serde_json::from_slice(&body).unwrap()
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
    // One analysis (issue 29 item 11): `/api/analyses` on the same database is the same
    // report, figure for figure, and so with a pair and a seed asked for.
    assert_eq!(get_json(&s.1, "/api/analyses"), r);
    let o = weft(&[
        "analyze",
        "--db",
        server_db.to_str().unwrap(),
        "--json",
        "--pair",
        "MP,MP-CO",
        "--seed",
        "rbjnMzXroA",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let one: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(one["correlations"].as_array().unwrap().len(), 1);
    assert_eq!(
        get_json(&s.1, "/api/analyses?pair=MP,MP-CO&seed=rbjnMzXroA"),
        one
    );
    // A pair naming no test of the catalog, or reversed, is an error on both.
    for pair in ["MP,NOPE", "MP-CO,MP", "MP-barrier1,MP"] {
        let o = weft(&[
            "analyze",
            "--db",
            server_db.to_str().unwrap(),
            "--pair",
            pair,
        ]);
        assert_eq!(o.status.code(), Some(2), "{pair}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).starts_with("weft: --pair"),
            "{}",
            text(&o.stderr)
        );
        let (status, _) = get(&s.1, &format!("/api/analyses?pair={pair}"));
        assert_eq!(status, 400, "{pair}");
    }
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
