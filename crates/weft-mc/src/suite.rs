//! `weft mc` over several litmus tests: the tally of the tests' verdicts, the summary line
//! that ends the text output (`Tests: N, no error: A, error: E, undecided: U, bad input: B`),
//! the JSON array of the per-test reports (each with its `path`), and the suite's exit
//! code: 2 when a test could not be read or checked, else 1 when one has an error, else 3
//! when one was undecided, else 0.

use std::path::Path;

use weft_ir::exit::ExitCode;

use crate::report::LitmusReport;

/// The verdicts of the tests checked so far, and their JSON reports.
#[derive(Clone, Debug, Default)]
pub struct SuiteTally {
    pub ok: usize,
    pub error: usize,
    pub undecided: usize,
    pub bad: usize,
    json: Vec<serde_json::Value>,
}

impl SuiteTally {
    /// Counts one test by its exit code.
    pub fn count(&mut self, code: ExitCode) {
        match code {
            ExitCode::Ok => self.ok += 1,
            ExitCode::Violation => self.error += 1,
            ExitCode::BadInput => self.bad += 1,
            ExitCode::Internal => self.undecided += 1,
        }
    }

    /// Keeps the JSON report of the test at `path` (with its `path`).
    pub fn push_json(&mut self, path: &Path, report: &LitmusReport) {
        let mut v = serde_json::to_value(report).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            o.insert("path".into(), path.display().to_string().into());
        }
        self.json.push(v);
    }

    /// The JSON array of the kept reports, pretty-printed.
    pub fn json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(&self.json)
    }

    /// The summary line of the text output.
    pub fn summary(&self) -> String {
        format!(
            "Tests: {}, no error: {}, error: {}, undecided: {}, bad input: {}",
            self.ok + self.error + self.undecided + self.bad,
            self.ok,
            self.error,
            self.undecided,
            self.bad
        )
    }

    /// The suite's exit code.
    pub fn exit_code(&self) -> ExitCode {
        if self.bad > 0 {
            ExitCode::BadInput
        } else if self.error > 0 {
            ExitCode::Violation
        } else if self.undecided > 0 {
            ExitCode::Internal
        } else {
            ExitCode::Ok
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_outranks_errors_which_outrank_undecided() {
        let mut t = SuiteTally::default();
        assert_eq!(t.exit_code(), ExitCode::Ok);
        t.count(ExitCode::Internal);
        assert_eq!(t.exit_code(), ExitCode::Internal);
        t.count(ExitCode::Violation);
        assert_eq!(t.exit_code(), ExitCode::Violation);
        t.count(ExitCode::BadInput);
        t.count(ExitCode::Ok);
        assert_eq!(t.exit_code(), ExitCode::BadInput);
        assert_eq!(
            t.summary(),
            "Tests: 4, no error: 1, error: 1, undecided: 1, bad input: 1"
        );
    }
}
