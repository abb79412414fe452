//! The exit status every weft command ends with, and the failure that ends one early: one
//! definition shared by the `weft` binary and the libraries that decide a verdict (hardware
//! runs, the race session, the model checker's reports). The codes are stable and
//! documented in README: 0 success; 1 a property was violated (a disagreement, a race, a
//! forbidden outcome); 2 bad input (unreadable file, parse error, unsupported conversion);
//! 3 internal or tool error (also: undecided, a search stopped before it was complete).

use std::fmt;

/// How a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum ExitCode {
    /// 0: success, nothing found.
    #[default]
    Ok,
    /// 1: a property was violated (a race, an error, a forbidden outcome).
    Violation,
    /// 2: bad input (unreadable file, parse error, bad option value).
    BadInput,
    /// 3: internal or tool error, or an undecided search.
    Internal,
}

impl ExitCode {
    /// The process exit status.
    pub fn code(self) -> i32 {
        match self {
            ExitCode::Ok => 0,
            ExitCode::Violation => 1,
            ExitCode::BadInput => 2,
            ExitCode::Internal => 3,
        }
    }

    /// `Violation` when `found`, else `Ok`.
    pub fn violation_if(found: bool) -> ExitCode {
        if found {
            ExitCode::Violation
        } else {
            ExitCode::Ok
        }
    }
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(c: ExitCode) -> Self {
        std::process::ExitCode::from(c.code() as u8)
    }
}

/// A failure that ends a command: its exit code and a one-line message (printed by the
/// binary as `weft: MESSAGE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub code: ExitCode,
    pub message: String,
}

impl Failure {
    /// A failure with exit code `code`.
    pub fn new(code: ExitCode, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }
    /// Bad input (exit 2).
    pub fn bad_input(message: impl Into<String>) -> Failure {
        Failure::new(ExitCode::BadInput, message)
    }
    /// An internal or tool error (exit 3).
    pub fn tool(message: impl Into<String>) -> Failure {
        Failure::new(ExitCode::Internal, message)
    }
    /// The same failure with `prefix: ` before its message.
    pub fn context(self, prefix: impl fmt::Display) -> Failure {
        Failure {
            code: self.code,
            message: format!("{prefix}: {}", self.message),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_codes() {
        // README's table: 0 success, 1 violation, 2 bad input, 3 internal.
        let table = [
            (ExitCode::Ok, 0),
            (ExitCode::Violation, 1),
            (ExitCode::BadInput, 2),
            (ExitCode::Internal, 3),
        ];
        for (c, n) in table {
            assert_eq!(c.code(), n);
        }
        assert_eq!(ExitCode::violation_if(true), ExitCode::Violation);
        assert_eq!(ExitCode::violation_if(false), ExitCode::Ok);
        let f = Failure::bad_input("x").context("k<<<1,1>>>()");
        assert_eq!(
            (f.code, f.message.as_str()),
            (ExitCode::BadInput, "k<<<1,1>>>(): x")
        );
    }
}
