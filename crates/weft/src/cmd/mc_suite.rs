//! `weft mc FILE|DIR... ` with several files or a directory: the litmus tests found (as
//! `weft sim` finds them, `inputs::collect`) are model checked one after the other with the
//! same options, `--timeout` and `--max-memory` applying to each test; each prints its own
//! block (herd7's layout, then the exploration, then a blank line), and a summary line ends
//! the output: `Tests: N, no error: A, error: E, undecided: U, bad input: B`. `--json`
//! prints one array of the per-test reports, each with its `path`, and no summary line.
//!
//! Exit code: 2 when a path or test could not be read or checked, else 1 when a test has an
//! error, else 3 when a test was undecided (stopped by `--timeout`/`--max-memory`, or
//! nothing explored to its end), else 0.

use crate::exit::ExitCode;
use crate::inputs::collect;
use crate::out;

use super::mc::{check_file, load_model, Args};

/// Options that take one test or one kernel.
fn single_only(args: &Args) -> Option<&'static str> {
    if args.repair {
        Some("--repair")
    } else if args.replay.is_some() {
        Some("--replay")
    } else if !args.launch_calls.is_empty() {
        Some("--launch")
    } else if args.launches > 1 {
        Some("--launches")
    } else {
        None
    }
}

/// A kernel source (`weft mc` checks those one per call).
pub(super) fn is_kernel(p: &std::path::Path) -> bool {
    p.extension()
        .is_some_and(|e| e == "cu" || e == "cuh" || e == "cl" || e == "ptx")
}

/// Checks every litmus test under `args.paths`.
pub fn run(args: &Args) -> ExitCode {
    if let Some(o) = single_only(args) {
        eprintln!("weft: {o} takes one file; several files or a directory are litmus tests");
        return ExitCode::BadInput;
    }
    let model = match load_model(&args.model) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let (mut ok, mut error, mut undecided, mut bad) = (0usize, 0usize, 0usize, 0usize);
    let mut json = Vec::new();
    for f in collect(&args.paths) {
        let path = match f {
            Ok(p) if !is_kernel(&p) => p,
            Ok(p) => {
                eprintln!(
                    "{}: not a litmus test (kernels are checked one per call)",
                    p.display()
                );
                bad += 1;
                continue;
            }
            Err((p, m)) => {
                eprintln!("{}: {m}", p.display());
                bad += 1;
                continue;
            }
        };
        let checked = match check_file(args, &path, &model, None) {
            Ok(c) => c,
            Err(_) => {
                bad += 1;
                continue;
            }
        };
        if args.json {
            let mut v = serde_json::to_value(&checked.report).unwrap_or_default();
            if let Some(o) = v.as_object_mut() {
                o.insert("path".into(), path.display().to_string().into());
            }
            json.push(v);
        } else {
            out::print(&format!("{}\n", checked.report.text()));
        }
        match checked.finish(args) {
            ExitCode::Ok => ok += 1,
            ExitCode::Violation => error += 1,
            ExitCode::BadInput => bad += 1,
            ExitCode::Internal => undecided += 1,
        }
    }
    if args.json {
        match serde_json::to_string_pretty(&json) {
            Ok(s) => out::line(&s),
            Err(e) => {
                eprintln!("weft: cannot write JSON: {e}");
                return ExitCode::Internal;
            }
        }
    } else {
        out::line(&format!(
            "Tests: {}, no error: {ok}, error: {error}, undecided: {undecided}, bad input: {bad}",
            ok + error + undecided + bad
        ));
    }
    if bad > 0 {
        ExitCode::BadInput
    } else if error > 0 {
        ExitCode::Violation
    } else if undecided > 0 {
        ExitCode::Internal
    } else {
        ExitCode::Ok
    }
}
