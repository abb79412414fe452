//! Source positions carried by IR nodes so engines can point back at the input.

use serde::{Deserialize, Serialize};

/// A 1-based line and column in the file a node was parsed from (0:0 when synthesised).
///
/// Spans are provenance, not content: any two spans compare equal, so that two programs
/// that differ only in layout (for example a test and its pretty-printed form) are equal IR.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct Span {
    pub line: u32,
    pub col: u32,
}

impl Span {
    pub fn new(line: u32, col: u32) -> Self {
        Span { line, col }
    }
}

impl PartialEq for Span {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Span {}

impl std::hash::Hash for Span {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl From<Span> for weft_diag::Pos {
    fn from(s: Span) -> Self {
        weft_diag::Pos {
            line: s.line,
            col: s.col,
        }
    }
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}
