//! `weft parse FILE|DIR... [--json]`: parse every test, print one `file:line:col: message`
//! line per failure (with the source line and a caret under it) and a final
//! `N passed, M failed`; exit 0 only if all parse (2 otherwise).

use std::path::PathBuf;

use rayon::prelude::*;

use crate::exit::ExitCode;
use crate::inputs::{collect, load, LoadError};

#[derive(clap::Args)]
pub struct Args {
    /// Litmus files or directories (searched recursively for *.litmus and *.json).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print the parsed IR of every test as JSON on stdout (the summary goes to stderr).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> ExitCode {
    let files = collect(&args.paths);
    let results: Vec<(PathBuf, Result<weft_ir::Program, LoadError>)> = files
        .into_par_iter()
        .map(|f| match f {
            Ok(path) => {
                let r = load(&path);
                (path, r)
            }
            Err((path, msg)) => (path, Err(LoadError::Io(msg))),
        })
        .collect();
    let failed = results.iter().filter(|(_, r)| r.is_err()).count();
    let passed = results.len() - failed;
    if args.json {
        let items: Vec<serde_json::Value> = results
            .iter()
            .map(|(path, r)| match r {
                Ok(p) => serde_json::json!({ "path": path, "program": p }),
                Err(e) => serde_json::json!({ "path": path, "error": e.render(path) }),
            })
            .collect();
        match serde_json::to_string_pretty(&items) {
            Ok(s) => crate::out::line(&s),
            Err(e) => {
                eprintln!("weft: cannot write JSON: {e}");
                return ExitCode::Internal;
            }
        }
        let color = weft_diag::stderr_color();
        for (path, r) in &results {
            if let Err(e) = r {
                eprintln!("{}", e.render_with_snippet(path, color));
            }
        }
        eprintln!("{passed} passed, {failed} failed");
    } else {
        let color = weft_diag::stdout_color();
        for (path, r) in &results {
            if let Err(e) = r {
                crate::out::line(&e.render_with_snippet(path, color));
            }
        }
        crate::out::line(&format!("{passed} passed, {failed} failed"));
    }
    if failed == 0 {
        ExitCode::Ok
    } else {
        ExitCode::BadInput
    }
}
