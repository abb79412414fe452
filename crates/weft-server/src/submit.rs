//! Result submissions: the JSON a browser (or `weft submit`) uploads, its validation, and
//! its conversion into the results database's runs.
//!
//! Nothing the client says about classes is trusted: the server regenerates the test's
//! layout for the submitted stress configuration (the same `weft_hw_wgpu::generate` the
//! browser's shaders came from), decodes every raw result row into an outcome, classifies
//! it against the test's SC outcomes and judges it under the bundled `webgpu` model (as
//! `weft run -m webgpu` does: a conformance test's forbidden outcome is a violation). Paper 001 §4's checksum rule: the
//! counts must add up to exactly iterations × testingWorkgroups × workgroupSize, and the
//! result shader's own seq/interleaved/weak counts must equal the server's.

use std::collections::HashMap;

use serde::Deserialize;
use sha2::{Digest, Sha256};
use weft_litmus::classify::Class;
use weft_store::{DeviceRecord, OutcomeRecord, RunRecord, TestRecord};
use weft_stress::StressConfig;

use crate::catalog::Catalog;

/// Bounds on one submission (the body size is bounded by the router).
pub const MAX_RUNS: usize = 4096;
pub const MAX_ROWS_PER_RUN: usize = 4096;
pub const MAX_TEXT: usize = 200;
/// Most dispatches one submitted run may claim.
pub const MAX_ITERATIONS: u64 = 1 << 20;
/// Longest duration one run may claim (a week, in milliseconds).
pub const MAX_DURATION_MS: u64 = 7 * 24 * 3600 * 1000;
/// Most instances one CUDA launch runs (`weft-hw-cuda`'s `instances_per_launch`).
pub const MAX_CUDA_INSTANCES_PER_LAUNCH: u64 = 1 << 22;
/// Earliest start time a run may claim (before WebGPU and before weft).
pub const EARLIEST: &str = "2020-01-01T00:00:00Z";

/// The device as the client describes it.
#[derive(Clone, Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct DeviceIn {
    /// `webgpu` (a browser), `wgpu` or `cuda` (native runs through `weft submit`).
    pub backend: String,
    pub vendor: String,
    #[serde(default)]
    pub architecture: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub driver: String,
    #[serde(default)]
    pub api: String,
    #[serde(default)]
    pub browser: String,
    #[serde(default)]
    pub os: String,
}

/// One raw result row and how many instances produced it.
#[derive(Clone, Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct RowIn {
    pub values: Vec<i32>,
    pub count: u64,
}

/// One outcome already decoded by a native run (`weft submit`): its canonical text.
#[derive(Clone, Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct OutcomeIn {
    pub outcome: String,
    pub count: u64,
}

/// One run of one test.
#[derive(Clone, Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct RunIn {
    /// `run`, `tune` or `conform`.
    pub kind: String,
    pub test: String,
    /// The test's SHA-256 when the client knows it (must match the served test).
    #[serde(default)]
    #[ts(optional)]
    pub digest: Option<String>,
    pub stress_name: String,
    #[ts(type = "Record<string, unknown>")]
    pub stress: serde_json::Value,
    /// A number, or its decimal text (what the web app sends: JavaScript numbers lose
    /// seeds above 2^53).
    #[ts(type = "string | number")]
    pub seed: SeedIn,
    pub iterations: u64,
    pub duration_ms: u64,
    /// Raw result rows (browsers) ...
    #[serde(default)]
    #[ts(optional)]
    pub rows: Option<Vec<RowIn>>,
    /// ... or decoded outcomes (native runs).
    #[serde(default)]
    #[ts(optional)]
    pub outcomes: Option<Vec<OutcomeIn>>,
    /// The result shader's seq / interleaved / weak counts (browsers).
    #[serde(default)]
    #[ts(optional)]
    pub class_counts: Option<[u64; 3]>,
    /// Instances run (native runs; browsers: derived from the stress).
    #[serde(default)]
    #[ts(optional)]
    pub instances: Option<u64>,
    #[serde(default)]
    #[ts(optional)]
    pub started_at: Option<String>,
}

/// A whole submission.
#[derive(Clone, Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct SubmissionIn {
    /// Chosen by the client, 8 to 64 characters of `[A-Za-z0-9_-]`.
    pub idempotency_key: String,
    pub device: DeviceIn,
    #[serde(default)]
    #[ts(optional)]
    pub contact: Option<String>,
    pub runs: Vec<RunIn>,
}

/// A run's seed as a submission gives it ([`seed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedIn(pub u64);

impl<'de> Deserialize<'de> for SeedIn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SeedIn, D::Error> {
        seed(d).map(SeedIn)
    }
}

/// A seed given as a JSON number or as a string of decimal digits.
pub fn seed<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Seed {
        Number(u64),
        Text(String),
    }
    match Seed::deserialize(d)? {
        Seed::Number(n) => Ok(n),
        Seed::Text(t)
            if !t.is_empty() && t.len() <= 20 && t.bytes().all(|b| b.is_ascii_digit()) =>
        {
            t.parse()
                .map_err(|_| serde::de::Error::custom("seed: a number below 2^64"))
        }
        Seed::Text(_) => Err(serde::de::Error::custom(
            "seed: a number, or its decimal digits as a string",
        )),
    }
}

/// Why a submission was refused (the HTTP status is chosen by the caller).
#[derive(Debug)]
pub struct Rejection(pub String);

fn reject<T>(m: impl Into<String>) -> Result<T, Rejection> {
    Err(Rejection(m.into()))
}

/// Characters that change how text around them is displayed without being visible:
/// Unicode's bidirectional embeddings, overrides, isolates and marks, zero-width
/// characters and the byte order mark. A device called "Radeon \u{202e}XTR 0909" would
/// read as "Radeon 9090 RTX" in the public legend.
pub fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{2069}' | '\u{feff}' | '\u{00ad}' | '\u{180e}')
}

fn short_text(what: &str, s: &str) -> Result<(), Rejection> {
    if s.len() > MAX_TEXT || s.chars().any(|c| c.is_control()) {
        return reject(format!(
            "{what}: at most {MAX_TEXT} bytes without control characters"
        ));
    }
    if s.chars().any(is_invisible_format) {
        return reject(format!(
            "{what}: bidirectional, zero-width and other invisible formatting characters are refused"
        ));
    }
    Ok(())
}

/// A device field as stored: trimmed, runs of white space made one space.
pub fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Longest device field once normalised, in characters.
pub const MAX_DEVICE_CHARS: usize = 100;

fn class_index(c: Class) -> usize {
    match c {
        Class::Seq => 0,
        Class::Interleaved => 1,
        Class::Weak => 2,
    }
}

/// Validates a submission and turns it into runs; `received_at` stamps runs without
/// their own start time. Returns the runs and the submission's content digest.
pub fn validate(
    cat: &Catalog,
    s: &SubmissionIn,
    received_at: &str,
) -> Result<(Vec<RunRecord>, String), Rejection> {
    let k = &s.idempotency_key;
    if !(8..=64).contains(&k.len())
        || !k
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return reject("idempotency_key: 8 to 64 characters of A-Z a-z 0-9 - _");
    }
    let d = &s.device;
    if !["webgpu", "wgpu", "cuda"].contains(&d.backend.as_str()) {
        return reject("device.backend: webgpu, wgpu or cuda");
    }
    let mut fields = Vec::new();
    for (what, v) in [
        ("device.vendor", &d.vendor),
        ("device.architecture", &d.architecture),
        ("device.name", &d.name),
        ("device.driver", &d.driver),
        ("device.api", &d.api),
        ("device.browser", &d.browser),
        ("device.os", &d.os),
    ] {
        short_text(what, v)?;
        let n = normalise(v);
        if n.chars().count() > MAX_DEVICE_CHARS {
            return reject(format!("{what}: at most {MAX_DEVICE_CHARS} characters"));
        }
        fields.push(n);
    }
    let [vendor, architecture, name, driver, api, browser, os]: [String; 7] =
        fields.try_into().expect("seven fields");
    if vendor.is_empty() {
        return reject("device.vendor is empty");
    }
    if let Some(c) = &s.contact {
        short_text("contact", c)?;
    }
    if s.runs.is_empty() || s.runs.len() > MAX_RUNS {
        return reject(format!("runs: 1 to {MAX_RUNS} per submission"));
    }
    let device = DeviceRecord {
        backend: d.backend.clone(),
        name: if name.is_empty() {
            format!("{vendor} {architecture}").trim().to_string()
        } else {
            name
        },
        vendor,
        driver,
        api: if api.is_empty() && d.backend == "webgpu" {
            "WebGPU".into()
        } else {
            api
        },
        architecture,
        browser,
        os,
        extra: serde_json::json!({}),
    };
    let mut out = Vec::new();
    for (i, r) in s.runs.iter().enumerate() {
        let at = |m: String| Rejection(format!("runs[{i}] ({}): {m}", r.test));
        out.push(run(cat, r, &device, received_at).map_err(|e| at(e.0))?);
    }
    let canonical = serde_json::json!({
        "device": device,
        "contact": s.contact,
        "runs": out.iter().map(|r| serde_json::json!({
            "kind": r.kind, "test": r.test.name, "stress": r.stress_config, "seed": r.seed,
            "iterations": r.iterations, "outcomes": r.outcomes, "duration_ms": r.duration_ms,
        })).collect::<Vec<_>>(),
    });
    let digest: String = Sha256::digest(canonical.to_string().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((out, digest))
}

fn run(
    cat: &Catalog,
    r: &RunIn,
    device: &DeviceRecord,
    received_at: &str,
) -> Result<RunRecord, Rejection> {
    if !weft_store::KINDS.contains(&r.kind.as_str()) {
        return reject("kind: run, tune or conform");
    }
    let Some(e) = cat.get(&r.test) else {
        return reject("no such test in this campaign");
    };
    if let Some(dg) = &r.digest {
        if dg != &e.digest {
            return reject("digest differs from the served test's");
        }
    }
    short_text("stress_name", &r.stress_name)?;
    let cfg = StressConfig::from_json(&r.stress.to_string(), None)
        .map_err(|e| Rejection(format!("stress: {e}")))?;
    if r.iterations == 0 || r.iterations > MAX_ITERATIONS {
        return reject(format!("iterations: 1..={}", MAX_ITERATIONS));
    }
    // Every integer fits the databases' signed 64-bit columns, and a duration is sane.
    if r.seed.0 > i64::MAX as u64 {
        return reject(format!("seed: at most {}", i64::MAX));
    }
    if r.duration_ms > MAX_DURATION_MS {
        return reject(format!("duration_ms: at most {MAX_DURATION_MS} (a week)"));
    }
    let started_at = started_at(r, received_at)?;
    let g = weft_hw_wgpu::generate(&e.program, &cfg)
        .map_err(|err| Rejection(format!("this test cannot run under that stress: {err}")))?;
    let ran = if cfg.aliased_memory {
        weft_hw_wgpu::lower::alias_all(&e.program).map_err(|e| Rejection(e.to_string()))?
    } else {
        e.program.clone()
    };
    let per_dispatch = cfg.instances_per_dispatch();
    let expected = per_dispatch
        .checked_mul(r.iterations)
        .ok_or_else(|| Rejection("instances overflow".into()))?;
    let judge = if cfg.aliased_memory {
        e.judge_aliased.as_ref()
    } else {
        e.judge.as_ref()
    };
    let cx = Decoding {
        g: &g,
        ran: &ran,
        judge,
        per_dispatch,
        expected,
    };
    let (outcomes, instances) = match (&r.rows, &r.outcomes) {
        (Some(rows), None) => cx.rows(r, rows)?,
        (None, Some(_)) if device.backend == "webgpu" => {
            // A browser's results are checked against its result shader's counts: the
            // decoded-outcomes path of native runs is not open to it.
            return reject("a webgpu run gives rows with class_counts, not outcomes");
        }
        (None, Some(list)) => cx.listed(r, list, device)?,
        _ => return reject("give either rows (with class_counts) or outcomes"),
    };
    Ok(RunRecord {
        kind: r.kind.clone(),
        label: None,
        started_at,
        duration_ms: r.duration_ms,
        device: device.clone(),
        test: TestRecord {
            name: e.name.clone(),
            path: format!("tests/corpus/gpuharbor/{}", e.file),
            format: e.program.arch.name().to_ascii_lowercase(),
            digest: e.digest.clone(),
        },
        stress_name: r.stress_name.clone(),
        stress_config: serde_json::to_value(&cfg).unwrap_or_default(),
        seed: r.seed.0,
        iterations: r.iterations,
        instances,
        model: judge.map(|_| crate::catalog::MODEL.to_string()),
        weft_version: env!("CARGO_PKG_VERSION").to_string(),
        outcomes,
    })
}

/// When the run started: the client's timestamp if it is sane, else the time received.
fn started_at(r: &RunIn, received_at: &str) -> Result<String, Rejection> {
    Ok(match &r.started_at {
        Some(t) if weft_store::is_timestamp(t) => {
            // Fixed-width UTC timestamps order as text.
            let latest = weft_store::timestamp_utc(
                std::time::SystemTime::now() + std::time::Duration::from_secs(24 * 3600),
            );
            if t.as_str() < EARLIEST || t.as_str() > latest.as_str() {
                return reject(format!(
                    "started_at: between {EARLIEST} and a day after the server's clock"
                ));
            }
            t.clone()
        }
        Some(_) => return reject("started_at: YYYY-MM-DDTHH:MM:SSZ"),
        None => received_at.to_string(),
    })
}

/// What a run's results are decoded and checked against: the test's regenerated layout and
/// SC classification, the program as run (aliased when the stress asks), the judge, and the
/// instance count the iterations promise.
struct Decoding<'a> {
    g: &'a weft_hw_wgpu::Generated,
    ran: &'a weft_ir::Program,
    judge: Option<&'a weft_hw::judge::Judge>,
    per_dispatch: u64,
    expected: u64,
}

impl Decoding<'_> {
    fn verdict_of(&self, cells: &HashMap<String, String>) -> Option<String> {
        self.judge.and_then(|j| j.verdict_cells(cells).stored())
    }

    /// A browser's or wgpu run's raw rows with the result shader's class counts: the
    /// outcomes and the instance count (paper 001 §4's checksums).
    fn rows(&self, r: &RunIn, rows: &[RowIn]) -> Result<(Vec<OutcomeRecord>, u64), Rejection> {
        let (g, ran, expected, per_dispatch) = (self.g, self.ran, self.expected, self.per_dispatch);
        let mut outcomes: Vec<OutcomeRecord> = Vec::new();
        if rows.is_empty() || rows.len() > MAX_ROWS_PER_RUN {
            return reject(format!("rows: 1 to {MAX_ROWS_PER_RUN}"));
        }
        let Some(cc) = r.class_counts else {
            return reject("class_counts (the result shader's) are required with rows");
        };
        let mut by_text: HashMap<String, usize> = HashMap::new();
        let mut host = [0u64; 3];
        let mut total = 0u64;
        for row in rows {
            if row.values.len() != g.layout.row_words as usize {
                return reject(format!(
                    "a row has {} words; this test's rows have {}",
                    row.values.len(),
                    g.layout.row_words
                ));
            }
            if row.count == 0 {
                return reject("a row with count 0");
            }
            let o = weft_hw_wgpu::runner::decode(&g.layout, &row.values);
            let c = g.classification.class_of(&o);
            host[class_index(c)] += row.count;
            total = total
                .checked_add(row.count)
                .ok_or_else(|| Rejection("counts overflow".into()))?;
            let text = weft_hw::judge::outcome_text(ran, &o);
            let cells: HashMap<String, String> =
                weft_hw::judge::outcome_cells(ran, &o).into_iter().collect();
            match by_text.get(&text) {
                Some(&j) => {
                    return reject(format!("outcome `{}` given twice", outcomes[j].outcome))
                }
                None => {
                    by_text.insert(text.clone(), outcomes.len());
                    outcomes.push(OutcomeRecord {
                        outcome: text,
                        class: c.name().to_string(),
                        model_verdict: self.verdict_of(&cells),
                        count: row.count,
                    });
                }
            }
        }
        if total != expected {
            return reject(format!(
                "checksum: the counts add up to {total}, but {} iterations × {per_dispatch} instances = {expected}",
                r.iterations
            ));
        }
        if cc != host {
            return reject(format!(
                "checksum: the result shader counted {cc:?} (seq, interleaved, weak) but the rows classify as {host:?}"
            ));
        }
        Ok((outcomes, expected))
    }

    /// A native run's decoded outcomes: the outcomes and the instance count.
    fn listed(
        &self,
        r: &RunIn,
        list: &[OutcomeIn],
        device: &DeviceRecord,
    ) -> Result<(Vec<OutcomeRecord>, u64), Rejection> {
        let (g, ran, expected, per_dispatch) = (self.g, self.ran, self.expected, self.per_dispatch);
        let mut outcomes: Vec<OutcomeRecord> = Vec::new();
        if list.is_empty() || list.len() > MAX_ROWS_PER_RUN {
            return reject(format!("outcomes: 1 to {MAX_ROWS_PER_RUN}"));
        }
        // Native runs: outcome texts over every column, classed by the SC outcomes.
        let columns: Vec<String> = weft_hw::judge::all_columns(ran)
            .iter()
            .map(|t| weft_sim::sim::term_text(ran, t))
            .collect();
        let sc: HashMap<String, Class> = g
            .classification
            .outcomes()
            .map(|(o, c)| (weft_hw::judge::outcome_text(ran, o), c))
            .collect();
        let mut total = 0u64;
        for o in list {
            let cols: Vec<&str> = o
                .outcome
                .split("; ")
                .map(|cell| cell.split('=').next().unwrap_or(""))
                .collect();
            if cols != columns.iter().map(String::as_str).collect::<Vec<_>>()
                || o.outcome
                    .split("; ")
                    .any(|c| !matches!(c.split_once('='), Some((_, v)) if !v.is_empty()))
            {
                return reject(format!(
                    "outcome `{}` does not give exactly the columns {}",
                    o.outcome,
                    columns.join(", ")
                ));
            }
            if o.count == 0 || outcomes.iter().any(|x| x.outcome == o.outcome) {
                return reject(format!("outcome `{}`: zero or repeated", o.outcome));
            }
            let c = sc.get(&o.outcome).copied().unwrap_or(Class::Weak);
            let cells: HashMap<String, String> = o
                .outcome
                .split("; ")
                .filter_map(|cell| cell.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            total = total
                .checked_add(o.count)
                .ok_or_else(|| Rejection("counts overflow".into()))?;
            outcomes.push(OutcomeRecord {
                outcome: o.outcome.clone(),
                class: c.name().to_string(),
                model_verdict: self.verdict_of(&cells),
                count: o.count,
            });
        }
        let n = r.instances.unwrap_or(total);
        if device.backend == "cuda" {
            // CUDA instances may spend their spin budget without an outcome, so the
            // outcomes may add up to fewer than the instances; those are given, and
            // no more than the launches can hold.
            let Some(n) = r.instances else {
                return reject("instances: required for a cuda run");
            };
            let most = r.iterations * MAX_CUDA_INSTANCES_PER_LAUNCH;
            if n == 0 || n > most {
                return reject(format!(
                    "instances: 1..={most} ({} launches of at most {MAX_CUDA_INSTANCES_PER_LAUNCH})",
                    r.iterations
                ));
            }
            if total > n || total == 0 {
                return reject(format!("checksum: {total} outcomes for {n} instances"));
            }
        } else if total != expected || n != expected {
            return reject(format!(
                "checksum: the counts add up to {total} (instances {n}), but {} iterations × {per_dispatch} instances = {expected}",
                r.iterations
            ));
        }
        Ok((outcomes, n))
    }
}
