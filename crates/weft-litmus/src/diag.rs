//! Parse diagnostics: one error with a 1-based line and column, printed as
//! `file:line:col: message` by the CLI.

use weft_ir::{IrError, Span};

/// An error in a litmus file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl ParseError {
    pub fn new(line: u32, col: u32, message: impl Into<String>) -> Self {
        ParseError {
            line,
            col,
            message: message.into(),
        }
    }

    pub fn at(span: Span, message: impl Into<String>) -> Self {
        ParseError::new(span.line.max(1), span.col.max(1), message)
    }

    /// `path:line:col: message`, on one line.
    pub fn render(&self, path: &str) -> String {
        format!(
            "{path}:{}:{}: {}",
            self.line,
            self.col,
            one_line(&self.message)
        )
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, one_line(&self.message))
    }
}

impl std::error::Error for ParseError {}

impl From<IrError> for ParseError {
    fn from(e: IrError) -> Self {
        ParseError::at(e.span, e.message)
    }
}

/// Keeps messages on one line and short enough to read even when they quote a huge token.
pub fn one_line(s: &str) -> String {
    let flat: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.chars().count() > 200 {
        let mut t: String = flat.chars().take(197).collect();
        t.push_str("...");
        t
    } else {
        flat
    }
}

/// Quotes offending source text for a message, shortened if long.
pub fn quote(s: &str) -> String {
    let t: String = s.chars().take(40).collect();
    if t.len() < s.len() {
        format!("`{t}...`")
    } else {
        format!("`{t}`")
    }
}

/// Decodes a file's bytes as UTF-8, pointing at the first invalid byte.
pub fn decode(bytes: &[u8]) -> Result<&str, ParseError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() as u32 + 1;
        let col = good.iter().rev().take_while(|b| **b != b'\n').count() as u32 + 1;
        ParseError::new(line, col, "not a text file: invalid UTF-8")
    })
}
