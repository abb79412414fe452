//! `weft analyze [--db PATH] [--seed S] [--clusters K] [--pair MUTANT,CONFORMANCE]...
//! [--json | --csv DIR]`: paper 001 §4-5's analyses of a campaign's runs
//! (crates/weft-analyze): best weak rate per device and test with vendor mean/median,
//! cosine similarity between devices with vendor statistics and the nearest known
//! device, k-means with the elbow method, mutant/conformance correlations with p-values,
//! testing time per device, and the lock case study (§5.3 Table 5: failing instances per
//! device and lock test).
//!
//! The analysis is `weft_analyze::campaign::report` under the server's catalog, the
//! same as `GET /api/analyses` computes.
//!
//! Exit codes: 0 success; 2 bad input (no such database, a bad or unknown pair); 3 a
//! database error.

use std::path::PathBuf;

use crate::exit::ExitCode;
use weft_analyze::Query;

#[derive(clap::Args)]
pub struct Args {
    /// Results or campaign database (default ~/.local/share/weft/results.db).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Tuning seed whose configurations make the device vectors (default: the seed with
    /// the most runs).
    #[arg(long)]
    seed: Option<String>,
    /// Number of k-means clusters (default: the elbow).
    #[arg(long)]
    clusters: Option<usize>,
    /// A (mutant, conformance test) pair to correlate, e.g. MP,MP-CO (repeatable; both
    /// must be tests of the campaign's catalog; default every pair of the catalog).
    #[arg(long)]
    pair: Vec<String>,
    /// Print the report as JSON.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Write the tables as CSV files into this directory.
    #[arg(long)]
    csv: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    let (_, runs) = match weft_store::read_runs(args.db.clone(), &weft_store::Filter::default()) {
        Ok(r) => r,
        Err((bad, m)) => return crate::exit::report_db(bad, &m),
    };
    // The campaign's catalog (the tests embedded in the server, their roles and pairs
    // from the metadata): the same analysis as `/api/analyses`.
    let catalog = weft_server::catalog::analysis_catalog();
    let query = Query {
        seed: args.seed.clone(),
        clusters: args.clusters,
        pairs: args.pair.clone(),
    };
    let report = match weft_analyze::campaign::report(&runs, &catalog, &query) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("weft: --{e}");
            return ExitCode::BadInput;
        }
    };
    if let Some(dir) = &args.csv {
        let (written, error) = weft_analyze::write_csv(dir, &report);
        for p in written {
            crate::out::line(&p.display().to_string());
        }
        if let Some(e) = error {
            eprintln!("weft: {e}");
            return ExitCode::BadInput;
        }
        return ExitCode::Ok;
    }
    if args.json {
        crate::out::line(&serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        crate::out::print(&weft_analyze::text::text(&report));
    }
    ExitCode::Ok
}
