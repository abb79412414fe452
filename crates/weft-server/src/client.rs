//! The client side of submissions (`weft submit`): turns runs recorded by `weft run`,
//! `tune` and `conform` into campaign submissions (one per device, decoded outcomes rather
//! than raw rows) and uploads them over HTTP with a stable idempotency key, so uploading
//! the same runs again stores nothing new.

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use sha2::{Digest, Sha256};
use weft_ir::exit::{ExitCode, Failure};
use weft_store::StoredRun;

/// A submission ready to send: the device it covers, its runs' ids and its JSON.
pub struct Outgoing {
    pub device: String,
    pub run_ids: Vec<i64>,
    pub body: serde_json::Value,
}

/// Groups `runs` by device into submissions (at most `batch` runs each). The key of a
/// submission is derived from `origin` (e.g. the database path) and its run ids.
pub fn submissions(runs: &[StoredRun], origin: &str, batch: usize) -> Vec<Outgoing> {
    let mut by_dev: BTreeMap<String, Vec<&StoredRun>> = BTreeMap::new();
    for r in runs {
        let d = &r.run.device;
        let key = serde_json::to_string(&(
            &d.backend,
            &d.name,
            &d.vendor,
            &d.driver,
            &d.api,
            &d.architecture,
            &d.os,
        ))
        .unwrap_or_default();
        by_dev.entry(key).or_default().push(r);
    }
    let mut out = Vec::new();
    for (_, rs) in by_dev {
        for chunk in rs.chunks(batch.max(1)) {
            let d = &chunk[0].run.device;
            let ids: Vec<i64> = chunk.iter().map(|r| r.id).collect();
            let mut h = Sha256::new();
            h.update(origin.as_bytes());
            for id in &ids {
                h.update(id.to_le_bytes());
            }
            let key: String = h.finalize()[..16]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            let runs: Vec<serde_json::Value> = chunk
                .iter()
                .map(|r| {
                    let r = &r.run;
                    let mut stress = r.stress_config.clone();
                    if let serde_json::Value::Object(m) = &mut stress {
                        m.remove("cuda");
                    }
                    serde_json::json!({
                        "kind": r.kind,
                        "test": r.test.name,
                        "digest": r.test.digest,
                        "stress_name": r.stress_name,
                        "stress": stress,
                        "seed": r.seed,
                        "iterations": r.iterations,
                        "duration_ms": r.duration_ms,
                        "instances": r.instances,
                        "started_at": r.started_at,
                        "outcomes": r.outcomes.iter().map(|o| serde_json::json!({
                            "outcome": o.outcome, "count": o.count,
                        })).collect::<Vec<_>>(),
                    })
                })
                .collect();
            out.push(Outgoing {
                device: format!("{} ({} {})", d.name, d.backend, d.api),
                run_ids: ids,
                body: serde_json::json!({
                    "idempotency_key": format!("weft-{key}"),
                    "device": {
                        "backend": d.backend, "vendor": d.vendor, "architecture": d.architecture,
                        "name": d.name, "driver": d.driver, "api": d.api, "os": d.os,
                    },
                    "runs": runs,
                }),
            });
        }
    }
    out
}

/// The server's answer to one request.
pub struct Reply {
    pub status: u16,
    pub body: serde_json::Value,
}

/// A JSON request to `base` + `path` (plain HTTP); `Err` when no answer came.
pub fn request(base: &str, path: &str, body: Option<&serde_json::Value>) -> Result<Reply, String> {
    let url = format!("{}{}", base.trim_end_matches('/'), path);
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(120))
        .build();
    let r = match body {
        Some(b) => agent.post(&url).send_json(b.clone()),
        None => agent.get(&url).call(),
    };
    let resp = match r {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => return Err(format!("{url}: {e}")),
    };
    let status = resp.status();
    let text = resp.into_string().map_err(|e| format!("{url}: {e}"))?;
    let body = serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text));
    Ok(Reply { status, body })
}

/// The campaign's tests, `(name, digest)`, as the server at `server` lists them; only runs
/// of those are submitted.
pub fn campaign_tests(server: &str) -> Result<HashSet<(String, String)>, Failure> {
    let tests = match request(server, "/api/tests", None) {
        Ok(r) if r.status == 200 => r.body,
        Ok(r) => {
            return Err(Failure::tool(format!(
                "{server}/api/tests answered {}: {}",
                r.status, r.body
            )))
        }
        Err(e) => return Err(Failure::tool(format!("cannot reach the server: {e}"))),
    };
    let field = |t: &serde_json::Value, k: &str| t[k].as_str().unwrap_or("").to_string();
    Ok(tests
        .as_array()
        .map(|a| {
            a.iter()
                .map(|t| (field(t, "name"), field(t, "digest")))
                .collect()
        })
        .unwrap_or_default())
}

/// Sends one submission to `server`: the line saying it was stored (or already stored),
/// a refusal (exit 1) or no answer (exit 3).
pub fn send(server: &str, s: &Outgoing) -> Result<String, Failure> {
    match request(server, "/api/submissions", Some(&s.body)) {
        Ok(r) if r.status == 201 || r.status == 200 => Ok(format!(
            "{}: {} runs {} (submission {})",
            s.device,
            s.run_ids.len(),
            if r.status == 201 {
                "stored"
            } else {
                "already stored"
            },
            r.body["submission"]
        )),
        Ok(r) => Err(Failure::new(
            ExitCode::Violation,
            format!(
                "{}: refused ({}): {}",
                s.device,
                r.status,
                r.body["error"].as_str().unwrap_or(&r.body.to_string())
            ),
        )),
        Err(e) => Err(Failure::tool(e)),
    }
}
