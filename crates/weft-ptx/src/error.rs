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
    /// Lowering errors of compiled PTX: the source `(file, line, col)` of the instruction
    /// (its `.loc`; col 0 when unknown), kept apart so front-ends can lead with it.
    pub source: Option<(String, u32, u32)>,
    /// How many instructions the error stands for (the same construct on one source line).
    pub occurrences: u32,
}

impl ParseError {
    /// An error at `line:col`.
    pub fn new(line: u32, col: u32, message: impl Into<String>) -> Self {
        ParseError {
            line: line.max(1),
            col: col.max(1),
            message: message.into(),
            source: None,
            occurrences: 1,
        }
    }

    /// The message with its source position and count, as one line.
    pub fn full_message(&self) -> String {
        let mut m: String = self
            .message
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        if let Some((file, line, col)) = &self.source {
            m.push_str(&format!(" (from {file}:{line}"));
            if *col > 0 {
                m.push_str(&format!(":{col}"));
            }
            m.push(')');
        }
        if self.occurrences > 1 {
            m.push_str(&format!(" [{} occurrences]", self.occurrences));
        }
        m
    }

    /// `path:line:col: message`.
    pub fn render(&self, path: &str) -> String {
        format!("{path}:{self}")
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.full_message())
    }
}

impl std::error::Error for ParseError {}
