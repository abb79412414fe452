//! `weft results [--db PATH] [list|show ID|export]`: read the results database that
//! hardware runs record into (`weft-store`; default `$XDG_DATA_HOME/weft/results.db`).
//!
//! - `list` (the default): one line per run, oldest first, filtered by `--test`/`--device`
//!   (substrings), `--backend`/`--kind` (exact), `--since` (a date or time prefix) and
//!   `--limit N` (the most recent N); `--json` prints the summaries.
//! - `show ID`: the run's identity and its outcome histogram; `--json` prints the record.
//! - `export --format csv|json [-o FILE]`: every matching run in full, to stdout or to FILE
//!   (written to a temporary file beside it and renamed, so FILE is never half-written).
//!
//! These commands only read: a missing database is reported, never created. Exit codes: 0
//! success; 2 bad input (no database, an unknown run id, a database from a newer weft,
//! a file that is not a results database, a bad filter); 3 a database or output error.

use std::io::Write;
use std::path::{Path, PathBuf};

use weft_store::{Filter, RunRecord, RunSummary, Store, StoreError};

use crate::{exit, out};

#[derive(clap::Args)]
pub struct Args {
    /// The results database (default: $XDG_DATA_HOME/weft/results.db, i.e.
    /// ~/.local/share/weft/results.db).
    #[arg(long, global = true, value_name = "PATH")]
    db: Option<PathBuf>,
    #[command(subcommand)]
    action: Option<Action>,
    #[command(flatten)]
    list: ListArgs,
}

#[derive(clap::Subcommand)]
enum Action {
    /// List runs, oldest first (the default action).
    List(ListArgs),
    /// Show one run: device, test, stress configuration and the outcome histogram.
    Show(ShowArgs),
    /// Export runs in full: CSV (one row per run and outcome) or JSON (an array of runs).
    Export(ExportArgs),
}

#[derive(clap::Args, Default)]
struct FilterArgs {
    /// Only tests whose name contains this.
    #[arg(long, value_name = "TEXT")]
    test: Option<String>,
    /// Only devices whose name contains this.
    #[arg(long, value_name = "TEXT")]
    device: Option<String>,
    /// Only this backend (wgpu, cuda).
    #[arg(long)]
    backend: Option<String>,
    /// Only this kind of run (run, tune, conform).
    #[arg(long)]
    kind: Option<String>,
    /// Only runs started at or after this UTC date or time (2025-03-01, 2025-03-01T12:00).
    #[arg(long, value_name = "WHEN")]
    since: Option<String>,
    /// Only the most recent N runs.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
}

impl FilterArgs {
    fn filter(&self) -> Filter {
        Filter {
            test: self.test.clone(),
            device: self.device.clone(),
            backend: self.backend.clone(),
            kind: self.kind.clone(),
            since: self.since.clone(),
            limit: self.limit,
        }
    }
}

#[derive(clap::Args, Default)]
struct ListArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// Print the run summaries as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct ShowArgs {
    /// The run's id (the first column of `weft results list`).
    id: i64,
    /// Print the full run record as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ExportFormat {
    Csv,
    Json,
}

#[derive(clap::Args)]
struct ExportArgs {
    /// Output format.
    #[arg(long, value_enum)]
    format: ExportFormat,
    /// Write to this file instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    filter: FilterArgs,
}

/// Reports `e` on stderr and gives the exit code for it.
fn fail(e: &StoreError) -> i32 {
    match e {
        StoreError::Missing { path } => {
            eprintln!(
                "weft: no results database at {} (nothing has been recorded there yet; \
                 give another with --db PATH)",
                path.display()
            );
            exit::BAD_INPUT
        }
        StoreError::Path { .. }
        | StoreError::NotWeft { .. }
        | StoreError::SchemaTooNew { .. }
        | StoreError::NoDefaultPath
        | StoreError::Invalid(_) => {
            eprintln!("weft: {e}");
            exit::BAD_INPUT
        }
        _ => {
            eprintln!("weft: {e}");
            exit::INTERNAL
        }
    }
}

pub fn run(args: Args) -> i32 {
    // clap's `args_conflicts_with_subcommands` would also refuse `--db PATH show 3`.
    if args.action.is_some() && (args.list.json || args.list.filter.filter() != Filter::default()) {
        eprintln!("weft: list options go after `list` (or leave the subcommand out)");
        return exit::BAD_INPUT;
    }
    let path = match args.db.clone().map(Ok).unwrap_or_else(Store::default_path) {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let store = match Store::open_existing(&path) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let result = match args.action {
        None => list(&store, &args.list),
        Some(Action::List(l)) => list(&store, &l),
        Some(Action::Show(s)) => show(&store, &s),
        Some(Action::Export(x)) => export(&store, &x),
    };
    match result {
        Ok(code) => code,
        Err(e) => fail(&e),
    }
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, StoreError> {
    Ok(serde_json::to_string_pretty(v)?)
}

/// `1234` ms as `1.234s`.
fn duration(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

/// Left-aligned text columns, right-aligned numeric ones, two spaces apart.
fn table(header: &[&str], numeric: &[bool], rows: &[Vec<String>]) -> String {
    let mut width: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = String::new();
    let head: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for r in std::iter::once(&head).chain(rows) {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if numeric[i] {
                    format!("{c:>w$}", w = width[i])
                } else {
                    format!("{c:<w$}", w = width[i])
                }
            })
            .collect();
        s.push_str(cells.join("  ").trim_end());
        s.push('\n');
    }
    s
}

fn list(store: &Store, args: &ListArgs) -> Result<i32, StoreError> {
    let runs = store.runs(&args.filter.filter())?;
    if args.json {
        out::line(&to_json(&runs)?);
        return Ok(exit::OK);
    }
    if runs.is_empty() {
        eprintln!("no runs match in {}", store.path().display());
        return Ok(exit::OK);
    }
    let header = [
        "id",
        "when",
        "kind",
        "backend",
        "device",
        "test",
        "stress",
        "seed",
        "instances",
        "seq",
        "interleaved",
        "weak",
        "forbidden",
        "duration",
    ];
    let numeric = [
        true, false, false, false, false, false, false, true, true, true, true, true, true, true,
    ];
    let rows: Vec<Vec<String>> = runs.iter().map(summary_row).collect();
    out::print(&table(&header, &numeric, &rows));
    Ok(exit::OK)
}

fn summary_row(s: &RunSummary) -> Vec<String> {
    vec![
        s.id.to_string(),
        s.started_at.clone(),
        s.kind.clone(),
        s.backend.clone(),
        s.device.clone(),
        s.test.clone(),
        s.stress_name.clone(),
        s.seed.to_string(),
        s.instances.to_string(),
        s.seq.to_string(),
        s.interleaved.to_string(),
        s.weak.to_string(),
        if s.model.is_some() {
            s.forbidden.to_string()
        } else {
            "-".into()
        },
        duration(s.duration_ms),
    ]
}

fn show(store: &Store, args: &ShowArgs) -> Result<i32, StoreError> {
    let Some(run) = store.run(args.id)? else {
        eprintln!(
            "weft: no run with id {} in {}",
            args.id,
            store.path().display()
        );
        return Ok(exit::BAD_INPUT);
    };
    if args.json {
        let stored = weft_store::StoredRun { id: args.id, run };
        out::line(&to_json(&stored)?);
    } else {
        out::print(&render_run(args.id, &run));
    }
    Ok(exit::OK)
}

/// The human form of one run: identity lines, then the histogram.
fn render_run(id: i64, r: &RunRecord) -> String {
    let d = &r.device;
    let t = &r.test;
    let mut s = format!("run {id} ({})", r.kind);
    if let Some(l) = &r.label {
        s.push_str(&format!(": {l}"));
    }
    s.push('\n');
    let mut field = |k: &str, v: String| s.push_str(&format!("{k:<10}{v}\n"));
    field(
        "started",
        format!("{}, took {}", r.started_at, duration(r.duration_ms)),
    );
    field(
        "device",
        format!(
            "{} ({}; vendor {}; driver {}; {})",
            d.name, d.backend, d.vendor, d.driver, d.api
        ),
    );
    let empty = d.extra.is_null() || d.extra.as_object().is_some_and(|m| m.is_empty());
    if !empty {
        field("", weft_store::canonical_json(&d.extra));
    }
    field(
        "test",
        format!("{} ({}, {}, sha256 {})", t.name, t.format, t.path, t.digest),
    );
    field(
        "stress",
        format!(
            "{} {}",
            r.stress_name,
            weft_store::canonical_json(&r.stress_config)
        ),
    );
    field(
        "seed",
        format!(
            "{} ({} iterations, {} instances)",
            r.seed, r.iterations, r.instances
        ),
    );
    field("model", r.model.clone().unwrap_or_else(|| "-".into()));
    field("weft", r.weft_version.clone());
    s.push('\n');
    let total: u64 = r.outcomes.iter().map(|o| o.count).sum();
    let mut rows: Vec<Vec<String>> = r
        .outcomes
        .iter()
        .map(|o| {
            vec![
                o.outcome.clone(),
                o.class.clone(),
                o.model_verdict.clone().unwrap_or_else(|| "-".into()),
                o.count.to_string(),
                percent(o.count, total),
            ]
        })
        .collect();
    rows.push(vec![
        "total".into(),
        String::new(),
        String::new(),
        total.to_string(),
        percent(total, total),
    ]);
    s.push_str(&table(
        &["outcome", "class", "verdict", "count", "%"],
        &[false, false, false, true, true],
        &rows,
    ));
    s
}

/// `part` as a percentage of `total`, two decimals (`-` when nothing was counted).
fn percent(part: u64, total: u64) -> String {
    if total == 0 {
        "-".into()
    } else {
        format!("{:.2}", part as f64 * 100.0 / total as f64)
    }
}

fn export(store: &Store, args: &ExportArgs) -> Result<i32, StoreError> {
    let filter = args.filter.filter();
    let write = |w: &mut dyn Write| match args.format {
        ExportFormat::Csv => store.export_csv(&filter, w),
        ExportFormat::Json => store.export_json(&filter, w),
    };
    match &args.output {
        None => {
            let mut buf = Vec::new();
            write(&mut buf)?;
            out::print(&String::from_utf8_lossy(&buf));
        }
        Some(file) => write_atomically(file, write)?,
    }
    Ok(exit::OK)
}

/// Writes `file` through a temporary file in the same directory, renamed over `file` only
/// once everything was written and synced; on any error the temporary file is removed.
fn write_atomically(
    file: &Path,
    write: impl Fn(&mut dyn Write) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let path_err = |m: String| StoreError::Path {
        path: file.to_path_buf(),
        message: m,
    };
    if file.is_dir() {
        return Err(path_err("is a directory".into()));
    }
    let dir = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = file
        .file_name()
        .ok_or_else(|| path_err("is not a file name".into()))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let f = std::fs::File::create(&tmp)
            .map_err(|e| path_err(format!("cannot create {}: {e}", tmp.display())))?;
        let mut w = std::io::BufWriter::new(f);
        write(&mut w)?;
        let f = w
            .into_inner()
            .map_err(|e| path_err(format!("cannot write: {}", e.error())))?;
        f.sync_all()
            .map_err(|e| path_err(format!("cannot write: {e}")))?;
        std::fs::rename(&tmp, file).map_err(|e| path_err(format!("cannot write: {e}")))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
