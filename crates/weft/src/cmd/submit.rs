//! `weft submit --server URL [--db PATH] [--test T] [--kind K] [--since D] [--dry-run]`:
//! uploads runs recorded by `weft run`/`tune`/`conform` to a campaign server (`weft
//! serve`), so that native runs (Vulkan, CUDA) join the browsers' data. Only runs of the
//! campaign's tests (same name and source digest) are sent, one submission per device;
//! each submission's idempotency key comes from the database path and its run ids, so
//! submitting again stores nothing twice. Plain HTTP.
//!
//! Exit codes: 0 every submission stored (or already stored); 1 the server refused a
//! submission; 2 bad input (no database, a bad URL); 3 the server could not be reached.

use crate::exit::ExitCode;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The campaign server, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    server: String,
    /// Results database (default ~/.local/share/weft/results.db).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Only runs of tests whose name contains this.
    #[arg(long)]
    test: Option<String>,
    /// Only runs of this kind (run, tune, conform).
    #[arg(long)]
    kind: Option<String>,
    /// Only runs started at or after this timestamp (or prefix, 2025-03-01).
    #[arg(long)]
    since: Option<String>,
    /// Runs per submission.
    #[arg(long, default_value_t = 500)]
    batch: usize,
    /// Print what would be sent, send nothing.
    #[arg(long)]
    dry_run: bool,
}

pub fn run(args: Args) -> ExitCode {
    if !args.server.starts_with("http://") {
        eprintln!(
            "weft: --server `{}`: expected http://HOST:PORT",
            args.server
        );
        return ExitCode::BadInput;
    }
    let filter = weft_store::Filter {
        test: args.test.clone(),
        kind: args.kind.clone(),
        since: args.since.clone(),
        ..Default::default()
    };
    let (path, runs) = match weft_store::read_runs(args.db.clone(), &filter) {
        Ok(r) => r,
        Err((bad, m)) => return crate::exit::report_db(bad, &m),
    };
    // The campaign's tests: only runs of those (same name and digest) are sent.
    let known = match weft_server::client::campaign_tests(&args.server) {
        Ok(k) => k,
        Err(f) => return crate::exit::report(&f),
    };
    let (keep, skip): (Vec<_>, Vec<_>) = runs
        .into_iter()
        .partition(|r| known.contains(&(r.run.test.name.clone(), r.run.test.digest.clone())));
    if !skip.is_empty() {
        eprintln!(
            "weft: {} runs skipped: their tests are not this campaign's (same name and source)",
            skip.len()
        );
    }
    let origin = std::fs::canonicalize(&path)
        .unwrap_or(path.clone())
        .display()
        .to_string();
    let subs = weft_server::client::submissions(&keep, &origin, args.batch);
    let mut code = ExitCode::Ok;
    for s in &subs {
        if args.dry_run {
            crate::out::line(&serde_json::to_string_pretty(&s.body).unwrap_or_default());
            continue;
        }
        match weft_server::client::send(&args.server, s) {
            Ok(line) => crate::out::line(&line),
            Err(f) if f.code == ExitCode::Violation => {
                eprintln!("weft: {}", f.message);
                code = ExitCode::Violation;
            }
            Err(f) => return crate::exit::report(&f),
        }
    }
    if subs.is_empty() {
        eprintln!("weft: nothing to submit");
    }
    code
}
