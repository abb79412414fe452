//! Errors of the `.cat` front-end and interpreter: one type, [`CatError`], carrying the
//! file, line and column of the offending text, a message naming it, and the source line
//! for a caret display (DESIGN.md "Errors: user input never panics ... file:line:col").

use std::fmt;

/// What stage rejected the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A character or token the lexer does not accept.
    Lex,
    /// Text that does not follow the cat grammar.
    Parse,
    /// An `include` that cannot be resolved or that closes a cycle.
    Include,
    /// A run-time error of the model: unknown identifier, type mismatch, failed match...
    Eval,
    /// A resource limit was hit: nesting depth, fixpoint iterations, enumeration size.
    Limit,
    /// The execution supplied by the caller is inconsistent (wrong set or relation size).
    Execution,
}

/// A position in a model source file (1-based line and column, columns in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file name as given to the parser or returned by the include resolver.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub col: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// An error with its position in the model text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.headline())]
pub struct CatError {
    /// The stage that failed.
    pub kind: ErrorKind,
    /// A one-line description naming the offending text.
    pub message: String,
    /// Where in the model the error is, when it has a place.
    pub location: Option<Location>,
    /// The source line holding the error, for [`CatError::render`].
    pub source_line: Option<String>,
}

impl CatError {
    /// An error without position.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        CatError {
            kind,
            message: message.into(),
            location: None,
            source_line: None,
        }
    }

    /// The 1-based line, if the error has a position.
    pub fn line(&self) -> Option<usize> {
        self.location.as_ref().map(|l| l.line)
    }

    /// The 1-based column, if the error has a position.
    pub fn col(&self) -> Option<usize> {
        self.location.as_ref().map(|l| l.col)
    }

    /// `file:line:col: message`, or the message alone without a position.
    fn headline(&self) -> String {
        match &self.location {
            Some(loc) => format!("{loc}: {}", self.message),
            None => self.message.clone(),
        }
    }

    /// The error as weft's one diagnostic type: message, file, line, column and the source
    /// line it points into.
    pub fn diagnostic(&self) -> weft_diag::Diagnostic {
        match &self.location {
            Some(loc) => {
                let d = weft_diag::Diagnostic::new(
                    u32::try_from(loc.line).unwrap_or(u32::MAX),
                    u32::try_from(loc.col).unwrap_or(u32::MAX),
                    self.message.clone(),
                )
                .with_file(loc.file.clone());
                match &self.source_line {
                    Some(l) => d.with_source_line(l.clone()),
                    None => d,
                }
            }
            None => weft_diag::Diagnostic::error(self.message.clone()),
        }
    }

    /// A multi-line rendering: `file:line:col: message`, then the source line and a caret
    /// under the column (plain text, no colour).
    pub fn render(&self) -> String {
        let mut out = self.to_string();
        let snippet = self.diagnostic().snippet(None, false);
        let snippet = snippet.trim_end();
        if !snippet.is_empty() {
            out.push('\n');
            out.push_str(snippet);
        }
        out
    }
}

/// One source text of a model (the main file or an included one), with its line table.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name errors report.
    pub name: String,
    /// The full text.
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Records a file and indexes its line starts.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        SourceFile {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The location of byte offset `pos` (clamped to the text).
    pub fn location(&self, pos: usize) -> Location {
        let pos = pos.min(self.text.len());
        let line = match self.line_starts.binary_search(&pos) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let mut p = pos;
        while !self.text.is_char_boundary(p) {
            p -= 1;
        }
        let col = self.text[start..p].chars().count() + 1;
        Location {
            file: self.name.clone(),
            line: line + 1,
            col,
        }
    }

    /// The text of 1-based line `line`, without its newline.
    pub fn line_text(&self, line: usize) -> Option<&str> {
        let start = *self.line_starts.get(line.checked_sub(1)?)?;
        let rest = &self.text[start..];
        Some(rest.split('\n').next().unwrap_or("").trim_end_matches('\r'))
    }

    /// An error at byte offset `pos` of this file.
    pub fn error(&self, kind: ErrorKind, pos: usize, message: impl Into<String>) -> CatError {
        let loc = self.location(pos);
        let source_line = self.line_text(loc.line).map(str::to_string);
        CatError {
            kind,
            message: message.into(),
            location: Some(loc),
            source_line,
        }
    }
}
