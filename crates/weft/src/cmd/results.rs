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
use std::path::PathBuf;

use weft_store::{Filter, Store, StoreError};

use crate::exit::ExitCode;
use crate::out;

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
fn fail(e: &StoreError) -> ExitCode {
    let (bad_input, message) = weft_store::render::describe_error(e);
    crate::exit::report_db(bad_input, &message)
}

pub fn run(args: Args) -> ExitCode {
    // clap's `args_conflicts_with_subcommands` would also refuse `--db PATH show 3`.
    if args.action.is_some() && (args.list.json || args.list.filter.filter() != Filter::default()) {
        eprintln!("weft: list options go after `list` (or leave the subcommand out)");
        return ExitCode::BadInput;
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

fn list(store: &Store, args: &ListArgs) -> Result<ExitCode, StoreError> {
    let runs = store.runs(&args.filter.filter())?;
    if args.json {
        out::line(&to_json(&runs)?);
        return Ok(ExitCode::Ok);
    }
    if runs.is_empty() {
        eprintln!("no runs match in {}", store.path().display());
        return Ok(ExitCode::Ok);
    }
    out::print(&weft_store::render::runs_table(&runs));
    Ok(ExitCode::Ok)
}

fn show(store: &Store, args: &ShowArgs) -> Result<ExitCode, StoreError> {
    let Some(run) = store.run(args.id)? else {
        eprintln!(
            "weft: no run with id {} in {}",
            args.id,
            store.path().display()
        );
        return Ok(ExitCode::BadInput);
    };
    if args.json {
        let stored = weft_store::StoredRun { id: args.id, run };
        out::line(&to_json(&stored)?);
    } else {
        out::print(&weft_store::render::run_text(args.id, &run));
    }
    Ok(ExitCode::Ok)
}

fn export(store: &Store, args: &ExportArgs) -> Result<ExitCode, StoreError> {
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
        Some(file) => weft_store::render::write_atomically(file, write)?,
    }
    Ok(ExitCode::Ok)
}
