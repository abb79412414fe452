//! `weft sim -m MODEL FILE|DIR... [--json] [--unroll N] [--graph DIR]`: simulate litmus
//! tests under a `.cat` model (a bundled name or a path) and print one block per test in
//! herd7's layout; `--expect CSV` / `--expect-races CSV` compare the verdicts with
//! Dat3M-style `path,1|0` files instead (rows matched to tests by path suffix; tests
//! without a row are skipped), printing each disagreement and `N passed, M failed`.
//!
//! `--timeout S` and `--max-memory SIZE` (default 4G of resident memory) bound each test;
//! a test stopped by either prints `Timeout` / `MemoryLimit` and its partial states.
//! Past `--max-states N` (default 100,000) distinct final states, those of settled
//! subtrees are printed in product form (docs/formats.md, "Product form"; a `Products`
//! note line says so) instead of one line per state; the counts stay exact.
//!
//! Exit codes: 0 success; 1 a disagreement in conformance mode; 2 bad input (unreadable
//! or unparsable test, unknown model, a test the simulator cannot run).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use weft_sim::{SimOptions, SimResult};

use crate::exit;
use crate::inputs::{collect, load};

/// One test: its path, its expected verdict (conformance mode), and the result (an error:
/// its one-line form and, for a parse error, the snippet printed under it on stderr).
type Outcome = (
    PathBuf,
    Option<bool>,
    Result<(weft_ir::Program, SimResult), (String, String)>,
);

#[derive(clap::Args)]
pub struct Args {
    /// Model: a bundled name (sc, tso, rc11, scoped-rc11, ptx-asplos15, webgpu) or a path
    /// to a .cat file.
    #[arg(short = 'm', long = "model", required = true)]
    model: String,
    /// Litmus files or directories (searched recursively for *.litmus and *.json).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
    /// Times a loop body may be entered before a trace is cut (cut traces are reported).
    #[arg(long, default_value_t = 2)]
    unroll: u32,
    /// Write each witness execution as DOT (and SVG when graphviz is installed) here.
    #[arg(long)]
    graph: Option<PathBuf>,
    /// Conformance mode: expected verdicts, one `path,1|0` per line (1 = condition holds).
    #[arg(long, conflicts_with = "expect_races")]
    expect: Option<PathBuf>,
    /// Conformance mode for races: `path,1|0` (1 = no data race flagged).
    #[arg(long)]
    expect_races: Option<PathBuf>,
    /// Most candidate executions per test.
    #[arg(long, default_value_t = 50_000_000)]
    max_candidates: u64,
    /// Seconds per test before its enumeration stops (reported as `Timeout`; in
    /// conformance mode an undecided verdict then counts as a failure).
    #[arg(long, value_parser = parse_seconds)]
    timeout: Option<std::time::Duration>,
    /// Most resident memory of the process (e.g. 4G, 512M): past it a test's enumeration
    /// stops (reported as `MemoryLimit`, with the states found so far).
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = weft_sim::memory::parse_size)]
    max_memory: u64,
    /// Most distinct final states printed one per line: past it, the states of settled
    /// subtrees are printed in product form (`0:r1∈{0,1};`, exact counts; a `Products`
    /// line says so).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    max_states: u64,
}

fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() && v < 1e9 => Ok(std::time::Duration::from_secs_f64(v)),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

/// Reads a Dat3M expected-verdict file: `path,1|0` lines, `//` comments.
fn read_expected(path: &Path) -> Result<Vec<(String, bool)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with("//") || l.starts_with('#') {
            continue;
        }
        let Some((p, v)) = l.rsplit_once(',') else {
            return Err(format!("{}:{}: expected `path,1|0`", path.display(), i + 1));
        };
        let v = match v.trim() {
            "1" => true,
            "0" => false,
            other => {
                return Err(format!(
                    "{}:{}: verdict `{other}` is not 1 or 0",
                    path.display(),
                    i + 1
                ))
            }
        };
        rows.push((p.trim().trim_start_matches("./").to_string(), v));
    }
    Ok(rows)
}

/// The row whose path is the longest suffix of `test` (on a `/` boundary).
fn match_row<'a>(
    by_name: &'a HashMap<String, Vec<(String, bool)>>,
    test: &Path,
) -> Option<&'a (String, bool)> {
    let name = test.file_name()?.to_str()?;
    let full = test.to_string_lossy().replace('\\', "/");
    by_name
        .get(name)?
        .iter()
        .filter(|(p, _)| {
            full == *p || full.ends_with(&format!("/{p}")) || p.ends_with(&format!("/{full}"))
        })
        .max_by_key(|(p, _)| p.len())
}

fn result_json(path: &Path, r: &SimResult) -> serde_json::Value {
    let states: Vec<serde_json::Value> = r
        .states
        .iter()
        .map(|(vals, info)| {
            let m: serde_json::Map<String, serde_json::Value> = r
                .columns
                .iter()
                .zip(vals)
                .map(|(c, v)| (c.clone(), serde_json::Value::String(v.clone())))
                .collect();
            serde_json::json!({
                "values": m,
                "executions": info.executions,
                "satisfies": info.satisfies,
            })
        })
        .collect();
    // Exact counts past u64 are written as strings.
    let big = |n: u128| match u64::try_from(n) {
        Ok(v) => serde_json::json!(v),
        Err(_) => serde_json::json!(n.to_string()),
    };
    let terms: Vec<serde_json::Value> = r
        .terms
        .iter()
        .map(|t| {
            let groups: Vec<serde_json::Value> = t
                .groups
                .iter()
                .map(|(cols, tuples)| {
                    let names: Vec<&str> = cols
                        .iter()
                        .filter_map(|&c| r.columns.get(c).map(String::as_str))
                        .collect();
                    serde_json::json!({ "columns": names, "values": tuples })
                })
                .collect();
            serde_json::json!({ "groups": groups, "states": big(t.states()) })
        })
        .collect();
    serde_json::json!({
        "path": path,
        "name": r.name,
        "kind": r.kind(),
        "states": states,
        "state_count": big(r.state_count()),
        "terms": terms,
        "validated": r.validated,
        "positive": r.positive,
        "negative": r.negative,
        "observation": r.observation(),
        "flags": r.flags,
        "candidates": r.candidates,
        "pruned": r.pruned,
        "filtered": r.filtered,
        "consistent": r.consistent,
        "undefined": r.undefined,
        "undefined_by": r.undefined_by,
        "assert_failed": r.assert_failed,
        "cut_traces": r.cut_traces,
        "fault_traces": r.fault_traces,
        "hung": r.hung_skeletons,
        "hang": r.hang_message,
        "converged": r.converged,
        "truncated": r.truncated,
        "stopped_at_verdict": r.stopped_at_verdict,
        "timed_out": r.timed_out,
        "memory_limit": r.memory_limited,
        "seconds": r.seconds,
    })
}

/// Notes herd has no line for: incomplete enumeration, undefined executions.
fn extra_lines(r: &SimResult, unroll: u32, max_states: u64) -> String {
    let mut s = String::new();
    if !r.terms.is_empty() {
        let in_terms = r
            .terms
            .iter()
            .fold(0u128, |acc, t| acc.saturating_add(t.states()));
        s += &format!(
            "Products {} {} lines list {in_terms} of the {} states in product form (more than --max-states {max_states}; `c∈{{a,b}}`: any of the values, every combination)\n",
            r.name,
            r.terms.len(),
            r.state_count()
        );
    }
    if r.cut_traces > 0 {
        s += &format!(
            "Cut {} {} thread traces cut by the unroll bound ({unroll})\n",
            r.name, r.cut_traces
        );
    }
    if r.fault_traces > 0 {
        s += &format!(
            "Faults {} {} ({})\n",
            r.name,
            r.fault_traces,
            r.fault_message.clone().unwrap_or_default()
        );
    }
    if r.hung_skeletons > 0 {
        s += &format!(
            "Hang {} {} trace combinations never pass their barriers ({})\n",
            r.name,
            r.hung_skeletons,
            r.hang_message.clone().unwrap_or_default()
        );
    }
    if !r.converged {
        s += &format!("Incomplete {} value domains did not converge\n", r.name);
    }
    if r.truncated {
        s += &format!("Incomplete {} candidate limit reached\n", r.name);
    }
    if r.stopped_at_verdict {
        s += &format!("Partial {} stopped once the verdict was known\n", r.name);
    }
    if r.timed_out {
        s += &format!(
            "Timeout {} stopped after {:.1} s: the states are incomplete\n",
            r.name, r.seconds
        );
    }
    if r.memory_limited {
        s += &format!(
            "MemoryLimit {} stopped after {:.1} s at the memory limit: the states are incomplete\n",
            r.name, r.seconds
        );
    }
    if r.undefined > 0 {
        s += &format!("Undefined {} {}\n", r.name, r.undefined);
    }
    s
}

fn write_graphs(dir: &Path, name: &str, r: &SimResult) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.+".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    for (i, g) in r.witnesses.iter().enumerate() {
        let f = dir.join(format!("{safe}-{i}.dot"));
        std::fs::write(&f, g).map_err(|e| format!("{}: {e}", f.display()))?;
        // SVG when graphviz is installed; its absence is not an error.
        let _ = std::process::Command::new("dot")
            .arg("-Tsvg")
            .arg(&f)
            .arg("-o")
            .arg(f.with_extension("svg"))
            .stderr(std::process::Stdio::null())
            .status();
    }
    Ok(())
}

pub fn run(args: Args) -> i32 {
    let model = match weft_sim::models::load(&args.model) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("weft: cannot load model `{}`: {}", args.model, e.render());
            eprintln!("bundled models: {}", weft_sim::models::names().join(", "));
            return exit::BAD_INPUT;
        }
    };
    let conformance = args
        .expect
        .as_ref()
        .map(|p| (p, false))
        .or(args.expect_races.as_ref().map(|p| (p, true)));
    let mut by_name: HashMap<String, Vec<(String, bool)>> = HashMap::new();
    if let Some((csv, _)) = conformance {
        match read_expected(csv) {
            Ok(rows) => {
                for (p, v) in rows {
                    let name = p.rsplit('/').next().unwrap_or(&p).to_string();
                    by_name.entry(name).or_default().push((p, v));
                }
            }
            Err(e) => {
                eprintln!("weft: {e}");
                return exit::BAD_INPUT;
            }
        }
    }
    let mut files: Vec<(PathBuf, Option<bool>)> = Vec::new();
    let mut bad = 0;
    for f in collect(&args.paths) {
        match f {
            Ok(p) => {
                if conformance.is_some() {
                    if let Some((_, v)) = match_row(&by_name, &p) {
                        files.push((p, Some(*v)));
                    }
                } else {
                    files.push((p, None));
                }
            }
            Err((p, m)) => {
                eprintln!("{}: {m}", p.display());
                bad += 1;
            }
        }
    }
    let opts = SimOptions {
        limits: weft_sim::traces::Limits {
            unroll: args.unroll,
            ..Default::default()
        },
        max_candidates: args.max_candidates,
        timeout: args.timeout,
        max_memory: Some(args.max_memory),
        max_states: Some(args.max_states),
        keep_witnesses: if args.graph.is_some() { 8 } else { 0 },
        // Conformance mode needs verdicts, not state lists: stop once they are known.
        stop_at_verdict: if args.expect.is_some() {
            Some(weft_sim::StopAt::Condition)
        } else if args.expect_races.is_some() {
            Some(weft_sim::StopAt::Race)
        } else {
            None
        },
        ..SimOptions::default()
    };
    let results: Vec<Outcome> = files
        .into_par_iter()
        .map(|(path, expected)| {
            let r = match load(&path) {
                Ok(p) => weft_sim::simulate(&p, &model, &opts)
                    .map(|r| (p, r))
                    .map_err(|e| (format!("{}: {e}", path.display()), String::new())),
                Err(e) => Err((
                    e.render(&path),
                    e.render_with_snippet(&path, weft_diag::stderr_color()),
                )),
            };
            (path, expected, r)
        })
        .collect();
    if let Some(dir) = &args.graph {
        for (_, _, r) in &results {
            if let Ok((p, res)) = r {
                if let Err(e) = write_graphs(dir, &p.name, res) {
                    eprintln!("weft: cannot write graph: {e}");
                    return exit::INTERNAL;
                }
            }
        }
    }
    if let Some((_, races)) = conformance {
        let (mut passed, mut failed) = (0, 0);
        let verdict = |b: bool| if b { 1 } else { 0 };
        for (path, expected, r) in &results {
            let expected = expected.unwrap_or(true);
            match r {
                Ok((_, res)) => {
                    let got = if races { !res.racy() } else { res.validated };
                    if (res.timed_out || res.memory_limited) && !res.stopped_at_verdict {
                        failed += 1;
                        crate::out::line(&format!(
                            "{}: expected {}, {} after {:.1} s without a verdict",
                            path.display(),
                            verdict(expected),
                            if res.timed_out {
                                "timed out"
                            } else {
                                "stopped at the memory limit"
                            },
                            res.seconds
                        ));
                    } else if got == expected {
                        passed += 1;
                    } else {
                        failed += 1;
                        crate::out::line(&format!(
                            "{}: expected {}, got {} ({} {}, positive {}, negative {}{})",
                            path.display(),
                            verdict(expected),
                            verdict(got),
                            res.kind(),
                            if res.validated { "Ok" } else { "No" },
                            res.positive,
                            res.negative,
                            if res.flags.is_empty() {
                                String::new()
                            } else {
                                format!(
                                    ", flags {}",
                                    res.flags.keys().cloned().collect::<Vec<_>>().join(" ")
                                )
                            }
                        ));
                    }
                }
                Err((e, _)) => {
                    failed += 1;
                    crate::out::line(&format!("{e} (expected {})", verdict(expected)));
                }
            }
        }
        crate::out::line(&format!("{passed} passed, {failed} failed"));
        return if failed > 0 {
            exit::VIOLATION
        } else if bad > 0 {
            exit::BAD_INPUT
        } else {
            exit::OK
        };
    }
    if args.json {
        let items: Vec<serde_json::Value> = results
            .iter()
            .map(|(path, _, r)| match r {
                Ok((_, res)) => result_json(path, res),
                Err((e, _)) => serde_json::json!({ "path": path, "error": e }),
            })
            .collect();
        match serde_json::to_string_pretty(&items) {
            Ok(s) => crate::out::line(&s),
            Err(e) => {
                eprintln!("weft: cannot write JSON: {e}");
                return exit::INTERNAL;
            }
        }
    }
    for (_, _, r) in &results {
        match r {
            Ok((p, res)) => {
                if !args.json {
                    // Streamed: a result with millions of states is never copied whole.
                    crate::out::write_with(|w| {
                        res.herd_write(p, w)?;
                        let extra = extra_lines(res, args.unroll, args.max_states);
                        writeln!(w, "{extra}")
                    });
                }
            }
            Err((e, with_snippet)) => {
                eprintln!(
                    "{}",
                    if with_snippet.is_empty() {
                        e
                    } else {
                        with_snippet
                    }
                );
                bad += 1;
            }
        }
    }
    if bad > 0 {
        exit::BAD_INPUT
    } else {
        exit::OK
    }
}
