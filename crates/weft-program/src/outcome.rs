//! What the commands that run a program (`weft exec`, `weft memcheck`, the program form of
//! `weft race`) make of a run: the options checked, the exit status (the program's own,
//! 3 when `--timeout` stopped it, the `--error-exitcode` when something was found), the
//! report printed (text or JSON) and `weft race`'s summary line. The binary prints them.

use weft_ir::exit::{ExitCode, Failure};

use crate::run::{Mode, RunOptions, RunResult};

/// The run options of the command line, checked (`--timeout` a positive number of seconds).
pub fn run_options(
    mode: Mode,
    timeout: Option<f64>,
    device: Option<String>,
    max_steps: Option<u64>,
    schedule: Option<String>,
) -> Result<RunOptions, Failure> {
    if let Some(t) = timeout {
        if !(t.is_finite() && t > 0.0) {
            return Err(Failure::bad_input(format!(
                "--timeout {t}: expected a positive number of seconds"
            )));
        }
    }
    Ok(RunOptions {
        mode: Some(mode),
        timeout,
        device,
        max_steps,
        schedule,
        ..RunOptions::default()
    })
}

impl RunResult {
    /// The exit status after a run: 3 for a timeout, the program's own otherwise; with the
    /// line saying how the program ended when it did not end normally.
    pub fn status(&self, timeout: Option<f64>) -> (i32, Option<String>) {
        let code = if self.timed_out {
            ExitCode::Internal.code()
        } else {
            self.code
        };
        (code, self.abnormal(timeout))
    }

    /// The status of a checking run (`mode` is `race` or `memcheck`): see
    /// [`RunResult::checker_code`] (3 on timeout, `error_exitcode` on a finding, the
    /// program's own code when it failed, 3 when no launch was checked to its end).
    pub fn checked_status(&self, mode: &str, found: bool, error_exitcode: i32) -> i32 {
        self.checker_code(&self.report_or_empty(mode), found, error_exitcode)
    }

    /// `weft memcheck`'s output (JSON or compute-sanitizer's layout) and whether it found
    /// an error; a run that checked nothing says so in its report.
    pub fn memcheck_output(&self, json: bool) -> (String, bool) {
        let rep = self.report_or_empty("memcheck");
        let text = if json {
            serde_json::to_string(&rep).unwrap_or_default() + "\n"
        } else {
            rep.memcheck_text()
        };
        (text, !rep.memcheck.is_empty())
    }

    /// `weft race`'s output on a program (JSON or text; a run that checked nothing says so), its summary line for stderr, and whether a race or finding was
    /// found.
    pub fn race_output(&self, json: bool) -> (String, String, bool) {
        let rep = self.report_or_empty("race");
        let text = if json {
            serde_json::to_string(&rep).unwrap_or_default() + "\n"
        } else {
            rep.race_text()
        };
        // fold from +0.0: an empty `sum` of f64 is -0.0 and printed as "-0.000 s"
        let secs = rep.launches.iter().fold(0.0_f64, |a, l| a + l.seconds);
        let warp: u64 = rep.launches.iter().map(|l| l.warp_instructions).sum();
        let summary = format!(
            "{} launches, {warp} warp-instructions, {secs:.3} s emulating and analysing, {:.3} s in all",
            rep.launches.len(),
            self.seconds
        );
        (text, summary, rep.found())
    }
}
