//! Drawing a [`Diagnostic`] as a report with a source snippet, through codespan-reporting:
//! the source view over the caller's text (or the one line the diagnostic carries), ASCII
//! borders, and ANSI colour only when asked for (see [`color_for`]).

use std::io::{IsTerminal, Write};
use std::ops::Range;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::{self, Chars, Config, GeneralWriteResult, WriteStyle};

use crate::{Diagnostic, Severity};

/// Whether to colour output going to a stream: only on a terminal, and never when the
/// `NO_COLOR` environment variable is set to anything non-empty.
pub fn color_for(is_terminal: bool) -> bool {
    is_terminal && !matches!(std::env::var_os("NO_COLOR"), Some(v) if !v.is_empty())
}

/// [`color_for`] standard output.
pub fn stdout_color() -> bool {
    color_for(std::io::stdout().is_terminal())
}

/// [`color_for`] standard error.
pub fn stderr_color() -> bool {
    color_for(std::io::stderr().is_terminal())
}

/// The text the renderer reads: a whole file, or a single line standing at `first_line`.
struct View<'a> {
    name: String,
    text: &'a str,
    /// 0-based index of the text's first line in the file.
    first_line: usize,
    starts: Vec<usize>,
    /// The primary position's byte offset and the column to print for it (the parser's own
    /// column, which may lie past the end of the line).
    pin: Option<(usize, usize)>,
}

impl<'a> View<'a> {
    fn new(name: String, text: &'a str, first_line: usize) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        View {
            name,
            text,
            first_line,
            starts,
            pin: None,
        }
    }

    /// The byte range of `len` characters from 1-based `line:col` (clamped to the line's
    /// text); `None` when the line is not in the view.
    fn range(&self, line: u32, col: u32, len: u32) -> Option<Range<usize>> {
        let local = (line as usize)
            .checked_sub(1)?
            .checked_sub(self.first_line)?;
        let start = *self.starts.get(local)?;
        let end = self
            .starts
            .get(local + 1)
            .map_or(self.text.len(), |e| e - 1);
        let content = self.text[start..end].trim_end_matches('\r');
        let mut idx = content.char_indices().map(|(i, _)| i);
        let skip = (col as usize).saturating_sub(1);
        let from = idx.nth(skip).unwrap_or(content.len());
        let width = len.max(1) as usize;
        let to = content[from..]
            .char_indices()
            .nth(width)
            .map_or(content.len(), |(i, _)| from + i);
        Some(start + from..start + to)
    }
}

impl<'a> Files<'a> for View<'_> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, _: ()) -> Result<&'a str, FilesError> {
        Ok(&self.name)
    }

    fn source(&'a self, _: ()) -> Result<&'a str, FilesError> {
        Ok(self.text)
    }

    fn line_index(&'a self, _: (), byte_index: usize) -> Result<usize, FilesError> {
        let local = match self.starts.binary_search(&byte_index) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        Ok(self.first_line + local)
    }

    fn line_range(&'a self, _: (), line_index: usize) -> Result<Range<usize>, FilesError> {
        let local = line_index
            .checked_sub(self.first_line)
            .ok_or(FilesError::LineTooLarge {
                given: line_index,
                max: self.first_line + self.starts.len(),
            })?;
        let start = *self.starts.get(local).ok_or(FilesError::LineTooLarge {
            given: line_index,
            max: self.first_line + self.starts.len(),
        })?;
        let end = self
            .starts
            .get(local + 1)
            .copied()
            .unwrap_or(self.text.len());
        Ok(start..end)
    }

    fn column_number(
        &'a self,
        id: (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, FilesError> {
        if let Some((b, col)) = self.pin {
            if b == byte_index {
                return Ok(col);
            }
        }
        let range = self.line_range(id, line_index)?;
        Ok(codespan_reporting::files::column_index(self.text, range, byte_index) + 1)
    }
}

fn config() -> Config {
    Config {
        chars: Chars::ascii(),
        ..Config::default()
    }
}

fn severity(s: Severity) -> cs::Severity {
    match s {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    }
}

fn header_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// The view to draw `d` over: the caller's whole text, else the line the diagnostic carries.
fn view<'a>(d: &'a Diagnostic, name: String, source: Option<&'a str>) -> Option<View<'a>> {
    if !d.has_position() {
        return None;
    }
    let mut v = match (source, d.source_line.as_deref()) {
        (Some(text), _) => View::new(name, text, 0),
        (None, Some(line)) => View::new(name, line, d.line as usize - 1),
        (None, None) => return None,
    };
    let primary = v.range(d.line, d.col, d.len)?;
    // A line too long to read (a 10 MB token) or holding control characters (a binary
    // file) is not drawn.
    let local = d.line as usize - 1 - v.first_line;
    let end = v.starts.get(local + 1).copied().unwrap_or(v.text.len());
    let line = &v.text[v.starts[local]..end];
    if line.len() > MAX_LINE_BYTES
        || line
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\t' | '\r' | '\n'))
    {
        return None;
    }
    v.pin = Some((primary.start, d.col as usize));
    Some(v)
}

/// Lines longer than this are not drawn under an error.
const MAX_LINE_BYTES: usize = 1000;

fn notes(d: &Diagnostic) -> Vec<String> {
    let mut notes = d.notes.clone();
    if let Some(h) = &d.help {
        notes.push(format!("help: {h}"));
    }
    notes
}

/// The full report (see [`Diagnostic::report`]).
pub(crate) fn report(
    d: &Diagnostic,
    path: Option<&str>,
    source: Option<&str>,
    color: bool,
) -> String {
    let name = d
        .file
        .as_deref()
        .or(path)
        .map(str::to_string)
        .unwrap_or_else(|| "<input>".to_string());
    let Some(v) = view(d, name.clone(), source) else {
        return plain_report(d, &name, color);
    };
    let Some(primary) = v.range(d.line, d.col, d.len) else {
        return plain_report(d, &name, color);
    };
    let mut labels = vec![cs::Label::primary((), primary)];
    for l in &d.labels {
        if let Some(r) = v.range(l.line, l.col, l.len) {
            labels.push(cs::Label::secondary((), r).with_message(one(&l.message)));
        }
    }
    let diag = cs::Diagnostic::new(severity(d.severity))
        .with_message(d.full_message())
        .with_labels(labels)
        .with_notes(notes(d));
    let mut buf = Vec::new();
    let ok = if color {
        term::emit_to_write_style(&mut Ansi(&mut buf), &config(), &v, &diag)
    } else {
        term::emit_to_io_write(&mut buf, &config(), &v, &diag)
    };
    match ok {
        Ok(()) => String::from_utf8_lossy(&buf).into_owned(),
        Err(_) => plain_report(d, &name, color),
    }
}

/// The snippet part of the report: its lines after the ` --> file:line:col` line.
pub(crate) fn snippet(d: &Diagnostic, source: Option<&str>, color: bool) -> String {
    if view(d, String::new(), source).is_none() {
        return String::new();
    }
    let full = report(d, Some(""), source, color);
    let mut lines = full.split_inclusive('\n');
    for l in lines.by_ref() {
        if strip_ansi(l).trim_start().starts_with("-->") {
            break;
        }
    }
    lines.collect()
}

/// `s` without ANSI colour sequences.
fn strip_ansi(s: &str) -> String {
    let mut plain = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

/// A report without a snippet: header, position and notes.
fn plain_report(d: &Diagnostic, name: &str, color: bool) -> String {
    let (on, bold, blue, off) = if color {
        (sev_color(d.severity), "\x1b[1m", "\x1b[1;34m", "\x1b[0m")
    } else {
        ("", "", "", "")
    };
    let mut out = format!(
        "{on}{}{off}{bold}: {}{off}\n",
        header_word(d.severity),
        d.full_message()
    );
    if d.has_position() {
        out.push_str(&format!("  {blue}-->{off} {name}:{}:{}\n", d.line, d.col));
    } else if name != "<input>" {
        out.push_str(&format!("  {blue}-->{off} {name}\n"));
    }
    for n in notes(d) {
        out.push_str(&format!("  {blue}={off} {}\n", one(&n)));
    }
    out
}

fn one(s: &str) -> String {
    crate::one_line(s)
}

fn sev_color(s: Severity) -> &'static str {
    match s {
        Severity::Error => "\x1b[1;31m",
        Severity::Warning => "\x1b[1;33m",
        Severity::Note => "\x1b[1;32m",
    }
}

/// ANSI colours for a terminal: severity colours for the header and the primary caret,
/// bold blue for the gutter and secondary labels.
struct Ansi<W>(W);

impl<W: Write> Write for Ansi<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl<W: Write> WriteStyle for Ansi<W> {
    fn set_header(&mut self, s: cs::Severity) -> GeneralWriteResult {
        let code = match s {
            cs::Severity::Bug | cs::Severity::Error => "\x1b[1;31m",
            cs::Severity::Warning => "\x1b[1;33m",
            cs::Severity::Note | cs::Severity::Help => "\x1b[1;32m",
        };
        self.0.write_all(code.as_bytes())
    }

    fn set_header_message(&mut self) -> GeneralWriteResult {
        self.0.write_all(b"\x1b[1m")
    }

    fn set_line_number(&mut self) -> GeneralWriteResult {
        self.0.write_all(b"\x1b[1;34m")
    }

    fn set_note_bullet(&mut self) -> GeneralWriteResult {
        self.0.write_all(b"\x1b[1;34m")
    }

    fn set_source_border(&mut self) -> GeneralWriteResult {
        self.0.write_all(b"\x1b[1;34m")
    }

    fn set_label(&mut self, s: cs::Severity, style: cs::LabelStyle) -> GeneralWriteResult {
        match style {
            cs::LabelStyle::Primary => self.set_header(s),
            cs::LabelStyle::Secondary => self.0.write_all(b"\x1b[1;34m"),
        }
    }

    fn reset(&mut self) -> GeneralWriteResult {
        self.0.write_all(b"\x1b[0m")
    }
}
