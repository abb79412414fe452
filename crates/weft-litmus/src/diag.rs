//! Parse diagnostics: every litmus parser reports a [`weft_diag::Diagnostic`] (here named
//! [`ParseError`]) with a 1-based line and column, printed as `file:line:col: message` by
//! `weft parse` and with the source line and a caret elsewhere; plus the helpers the parsers
//! share to quote offending text and to reject bytes that are not UTF-8.

pub use weft_diag::one_line;
/// An error in a litmus file: weft's one diagnostic type.
pub use weft_diag::Diagnostic as ParseError;

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
