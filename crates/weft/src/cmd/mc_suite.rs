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
    let mut tally = weft_mc::suite::SuiteTally::default();
    for f in collect(&args.paths) {
        let path = match f {
            Ok(p) if !is_kernel(&p) => p,
            Ok(p) => {
                eprintln!(
                    "{}: not a litmus test (kernels are checked one per call)",
                    p.display()
                );
                tally.bad += 1;
                continue;
            }
            Err((p, m)) => {
                eprintln!("{}: {m}", p.display());
                tally.bad += 1;
                continue;
            }
        };
        let Ok(checked) = check_file(args, &path, &model, None) else {
            tally.bad += 1;
            continue;
        };
        if args.json {
            tally.push_json(&path, &checked.report);
        } else {
            out::print(&format!("{}\n", checked.report.text()));
        }
        tally.count(checked.finish(args));
    }
    if !args.json {
        out::line(&tally.summary());
    } else if let Err(e) = tally.json().map(|s| out::line(&s)) {
        eprintln!("weft: cannot write JSON: {e}");
        return ExitCode::Internal;
    }
    tally.exit_code()
}
