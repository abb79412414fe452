//! weft's one diagnostic type, [`Diagnostic`]: a severity, a one-line message, the place it
//! points at (file, 1-based line and column, caret width), secondary labels, notes and help,
//! and the two ways weft prints it: one line (`file:line:col: message`, what `weft parse`
//! and the tests rely on) and a report with the source line and a caret under the column.
//!
//! Every parser (litmus dialects, `.cat` models, PTX, CUDA headers and launch options) and
//! the verifier build this type, so the binary renders all of them the same way. The
//! snippet is drawn by `codespan-reporting` (ASCII borders; colour only when the stream is a
//! terminal and `NO_COLOR` is unset, so test and CI output stays plain and stable).

mod render;

pub use render::{color_for, stderr_color, stdout_color};

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Severity {
    /// The input is rejected.
    #[default]
    Error,
    /// The input is accepted but something is suspicious.
    Warning,
    /// Extra information.
    Note,
}

/// A 1-based line and column, the position every weft front-end reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
}

impl From<(u32, u32)> for Pos {
    fn from((line, col): (u32, u32)) -> Self {
        Pos { line, col }
    }
}

/// A secondary place in the same file, with what it has to do with the error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
    /// Width of the underline in characters (0 is drawn as 1).
    pub len: u32,
    /// What this place is.
    pub message: String,
}

/// One problem found in user input: where it is and what is wrong. Its parts are the
/// fields of [`Parts`], reached through `Deref` (`d.line`, `d.message`); they are boxed so
/// that a `Result<_, Diagnostic>` stays one pointer wide in the deep recursion of parsers.
#[derive(Clone, Debug, Default, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.display_line())]
pub struct Diagnostic {
    parts: Box<Parts>,
}

/// The parts of a [`Diagnostic`]. `line == 0` means it has no position (e.g. a missing
/// section of a file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parts {
    /// How serious it is.
    pub severity: Severity,
    /// What went wrong, naming the offending text (kept to one line when printed).
    pub message: String,
    /// The file the position is in, when the producer knows it (callers that read the file
    /// pass its name when rendering instead).
    pub file: Option<String>,
    /// 1-based line of the primary position (0: none).
    pub line: u32,
    /// 1-based column in characters (0: none).
    pub col: u32,
    /// Width of the caret in characters (0 is drawn as 1).
    pub len: u32,
    /// The text of `line`, for producers that have it at hand while the renderer will not
    /// (included files, headers); the renderer prefers the full source it is given.
    pub source_line: Option<String>,
    /// Other places in the same file.
    pub labels: Vec<Label>,
    /// Notes printed after the snippet.
    pub notes: Vec<String>,
    /// A suggestion printed after the notes.
    pub help: Option<String>,
    /// For generated code (PTX compiled from CUDA): the `(file, line, col)` of the user's
    /// source this error stands for (col 0 when unknown), appended to the message.
    pub origin: Option<(String, u32, u32)>,
    /// How many places the error stands for (the same construct repeated on one line).
    pub occurrences: u32,
}

impl Default for Parts {
    fn default() -> Self {
        Parts {
            severity: Severity::Error,
            message: String::new(),
            file: None,
            line: 0,
            col: 0,
            len: 0,
            source_line: None,
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
            origin: None,
            occurrences: 1,
        }
    }
}

impl std::ops::Deref for Diagnostic {
    type Target = Parts;
    fn deref(&self) -> &Parts {
        &self.parts
    }
}

impl std::ops::DerefMut for Diagnostic {
    fn deref_mut(&mut self) -> &mut Parts {
        &mut self.parts
    }
}

impl Diagnostic {
    /// An error at 1-based `line:col` (0s are raised to 1: a parser's error always has a
    /// place).
    pub fn new(line: u32, col: u32, message: impl Into<String>) -> Self {
        Diagnostic {
            parts: Box::new(Parts {
                line: line.max(1),
                col: col.max(1),
                message: message.into(),
                ..Parts::default()
            }),
        }
    }

    /// An error at a position (a front-end's span).
    pub fn at(pos: impl Into<Pos>, message: impl Into<String>) -> Self {
        let p = pos.into();
        Diagnostic::new(p.line, p.col, message)
    }

    /// An error without a position.
    pub fn error(message: impl Into<String>) -> Self {
        Diagnostic {
            parts: Box::new(Parts {
                message: message.into(),
                ..Parts::default()
            }),
        }
    }

    /// An error at byte range `range` of `text` (clamped to the text), with the caret as wide
    /// as the range.
    pub fn at_bytes(text: &str, range: std::ops::Range<usize>, message: impl Into<String>) -> Self {
        let (line, col) = line_col(text, range.start);
        let end = range.end.max(range.start).min(text.len());
        let start = range.start.min(end);
        let len = text
            .get(start..end)
            .map_or(0, |s| s.chars().take_while(|c| *c != '\n').count());
        Diagnostic::new(line, col, message).with_len(len as u32)
    }

    /// Sets the caret width in characters.
    pub fn with_len(mut self, len: u32) -> Self {
        self.len = len;
        self
    }

    /// Sets the file the position is in.
    pub fn with_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// Records the text of the error's line, for rendering without the file.
    pub fn with_source_line(mut self, text: impl Into<String>) -> Self {
        self.source_line = Some(text.into());
        self
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, line: u32, col: u32, len: u32, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            line,
            col,
            len,
            message: message.into(),
        });
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Whether the diagnostic points at a place.
    pub fn has_position(&self) -> bool {
        self.line > 0
    }

    /// The message on one line, with its origin and occurrence count, as the one-line forms
    /// print it (control characters become spaces; over 200 characters are shortened).
    pub fn full_message(&self) -> String {
        let mut m = one_line(&self.message);
        if let Some((file, line, col)) = &self.origin {
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

    /// `[file:]line:col: message` (or the message alone without a position): the
    /// `Display` form.
    fn display_line(&self) -> String {
        let mut out = String::new();
        if let Some(f) = &self.file {
            out.push_str(f);
            out.push(':');
        }
        if self.has_position() {
            out.push_str(&format!("{}:{}: ", self.line, self.col));
        } else if self.file.is_some() {
            out.push(' ');
        }
        out.push_str(&self.full_message());
        out
    }

    /// `path:line:col: message` on one line (`path: message` without a position); `path`
    /// replaces the diagnostic's own file name.
    pub fn render(&self, path: &str) -> String {
        if self.has_position() {
            format!("{path}:{}:{}: {}", self.line, self.col, self.full_message())
        } else {
            format!("{path}: {}", self.full_message())
        }
    }

    /// The full report: `error: message`, ` --> file:line:col`, the source line with a
    /// caret under the column, labels, notes and help. `path` names the file when the
    /// diagnostic has none; `source` is the file's text when the caller has it.
    pub fn report(&self, path: Option<&str>, source: Option<&str>, color: bool) -> String {
        render::report(self, path, source, color)
    }

    /// Only the snippet part of [`Diagnostic::report`] (the source line, caret, notes), for
    /// printing under a one-line form; empty when there is no source line to show.
    pub fn snippet(&self, source: Option<&str>, color: bool) -> String {
        render::snippet(self, source, color)
    }
}

/// 1-based line and character column of byte offset `pos` in `text` (clamped to the text).
pub fn line_col(text: &str, pos: usize) -> (u32, u32) {
    let mut p = pos.min(text.len());
    while !text.is_char_boundary(p) {
        p -= 1;
    }
    let before = &text[..p];
    let line = before.bytes().filter(|b| *b == b'\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[start..].chars().count() + 1;
    (line as u32, col as u32)
}

/// Keeps a message on one line and short enough to read even when it quotes a huge token:
/// control characters become spaces, and past 200 characters it is cut to 197 and `...`.
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
