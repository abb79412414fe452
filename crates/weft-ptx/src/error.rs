//! Parse errors: a 1-based `line:col` and a one-line message naming the offending text.

use std::fmt;

/// An error found while lexing or parsing PTX.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// What went wrong, on one line.
    pub message: String,
}

impl ParseError {
    /// An error at `line:col`.
    pub fn new(line: u32, col: u32, message: impl Into<String>) -> Self {
        ParseError {
            line: line.max(1),
            col: col.max(1),
            message: message.into(),
        }
    }

    /// `path:line:col: message`.
    pub fn render(&self, path: &str) -> String {
        format!("{path}:{self}")
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msg: String = self
            .message
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        write!(f, "{}:{}: {}", self.line, self.col, msg)
    }
}

impl std::error::Error for ParseError {}
