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
use std::path::PathBuf;

use rayon::prelude::*;
use weft_sim::{SimOptions, SimResult};

use crate::exit::ExitCode;
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
    #[arg(long, value_parser = super::mc::parse_seconds)]
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

pub fn run(args: Args) -> ExitCode {
    let model = match weft_sim::models::load(&args.model) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("weft: cannot load model `{}`: {}", args.model, e.render());
            eprintln!("bundled models: {}", weft_sim::models::names().join(", "));
            return ExitCode::BadInput;
        }
    };
    let conformance = args
        .expect
        .as_ref()
        .map(|p| (p, false))
        .or(args.expect_races.as_ref().map(|p| (p, true)));
    let mut by_name = HashMap::new();
    if let Some((csv, _)) = conformance {
        match weft_sim::expect::read_expected(csv) {
            Ok(rows) => by_name = weft_sim::expect::by_name(rows),
            Err(e) => {
                eprintln!("weft: {e}");
                return ExitCode::BadInput;
            }
        }
    }
    let mut files: Vec<(PathBuf, Option<bool>)> = Vec::new();
    let mut bad = 0;
    for f in collect(&args.paths) {
        match f {
            Ok(p) => {
                if conformance.is_some() {
                    if let Some((_, v)) = weft_sim::expect::match_row(&by_name, &p) {
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
        if let Err(e) = write_graphs(dir, &results) {
            eprintln!("weft: cannot write graph: {e}");
            return ExitCode::Internal;
        }
    }
    if let Some((_, races)) = conformance {
        let judged = results.iter().map(|(path, expected, r)| {
            let r = r.as_ref().map(|(_, res)| res).map_err(|(e, _)| e);
            (path.as_path(), expected.unwrap_or(true), r)
        });
        let (text, failed) = weft_sim::expect::judge_all(judged, races);
        crate::out::print(&text);
        return if failed > 0 {
            ExitCode::Violation
        } else if bad > 0 {
            ExitCode::BadInput
        } else {
            ExitCode::Ok
        };
    }
    if args.json {
        let items = results.iter().map(|(path, _, r)| {
            (
                path.as_path(),
                r.as_ref().map(|(_, res)| res).map_err(|(e, _)| e),
            )
        });
        match weft_sim::report::json_array(items) {
            Ok(s) => crate::out::line(&s),
            Err(e) => {
                eprintln!("weft: cannot write JSON: {e}");
                return ExitCode::Internal;
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
                        let extra = weft_sim::report::notes(res, args.unroll, args.max_states);
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
        ExitCode::BadInput
    } else {
        ExitCode::Ok
    }
}

/// `--graph DIR`: the witness graphs of every simulated test.
fn write_graphs(dir: &std::path::Path, results: &[Outcome]) -> Result<(), String> {
    for (_, _, r) in results {
        if let Ok((p, res)) = r {
            weft_exec::graphs::write(
                dir,
                res.witnesses.iter().enumerate().map(|(i, g)| {
                    (
                        format!("{}-{i}.dot", weft_exec::graphs::safe_name(&p.name, "-_.+")),
                        g.as_str(),
                    )
                }),
            )?;
        }
    }
    Ok(())
}
