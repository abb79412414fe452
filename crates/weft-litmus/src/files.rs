//! Finding and reading litmus files: files given directly, and the litmus files under
//! directories (`*.litmus`, and `*.json` except `*.meta.json` metadata), in sorted order;
//! reading one with a size limit and parsing it, keeping the text for error snippets. The
//! commands that take litmus paths (`weft parse`, `sim`, `mc`, `show`, `run`, `gen`) use it.

use std::path::{Path, PathBuf};

use weft_ir::Program;

use crate::ParseError;

/// Files larger than this are refused rather than read into memory.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Whether a file found while walking a directory is a litmus test.
pub fn is_litmus_file(p: &Path) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.ends_with(".litmus") || (name.ends_with(".json") && !name.ends_with(".meta.json"))
}

/// Expands the command-line paths into the list of files to process. Directories are
/// walked recursively; an unreadable path is reported as an error for that path.
pub fn collect(paths: &[PathBuf]) -> Vec<Result<PathBuf, (PathBuf, String)>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = walkdir::WalkDir::new(p)
                .follow_links(true)
                .into_iter()
                .filter_map(|e| match e {
                    Ok(e) => Some(e),
                    Err(err) => {
                        out.push(Err((p.clone(), format!("cannot read directory: {err}"))));
                        None
                    }
                })
                .filter(|e| e.file_type().is_file() && is_litmus_file(e.path()))
                .map(|e| e.into_path())
                .collect();
            found.sort();
            out.extend(found.into_iter().map(Ok));
        } else if p.exists() {
            out.push(Ok(p.clone()));
        } else {
            out.push(Err((p.clone(), "no such file or directory".to_string())));
        }
    }
    out
}

/// Why a file could not be turned into a program.
pub enum LoadError {
    /// The file could not be read (message only).
    Io(String),
    /// The file was read but is not a valid litmus test; `text` is what was read (for the
    /// snippet under the error).
    Parse { error: ParseError, text: String },
}

impl LoadError {
    /// `path: message` or `path:line:col: message`, on one line.
    pub fn render(&self, path: &Path) -> String {
        let p = path.display().to_string();
        match self {
            LoadError::Io(m) => format!("{p}: {m}"),
            LoadError::Parse { error, .. } => error.render(&p),
        }
    }

    /// [`LoadError::render`]'s line, then the source line with a caret under the column:
    /// what commands that check many files print per failure.
    pub fn render_with_snippet(&self, path: &Path, color: bool) -> String {
        let mut out = self.render(path);
        if let LoadError::Parse { error, text } = self {
            let snippet = error.snippet(Some(text), color);
            let snippet = snippet.trim_end();
            if !snippet.is_empty() {
                out.push('\n');
                out.push_str(snippet);
            }
        }
        out
    }

    /// The full report of a command that reads one file: `error: message`,
    /// ` --> path:line:col`, the source line and a caret (an I/O error stays one line).
    pub fn report(&self, path: &Path, color: bool) -> String {
        let p = path.display().to_string();
        match self {
            LoadError::Io(m) => format!("{p}: {m}"),
            LoadError::Parse { error, text } => error
                .report(Some(&p), Some(text), color)
                .trim_end()
                .to_string(),
        }
    }
}

/// Reads and parses one litmus file.
pub fn load(path: &Path) -> Result<Program, LoadError> {
    let meta = std::fs::metadata(path).map_err(|e| LoadError::Io(format!("cannot read: {e}")))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(LoadError::Io(format!(
            "file too large ({} bytes; limit {MAX_FILE_BYTES})",
            meta.len()
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| LoadError::Io(format!("cannot read: {e}")))?;
    crate::parse_bytes(&bytes).map_err(|error| LoadError::Parse {
        error,
        // Bytes that are not text are not drawn under the error.
        text: String::from_utf8(bytes).unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn litmus_file_names() {
        // The rule of the module doc: `.litmus`, and `.json` unless it is `.meta.json`.
        assert!(is_litmus_file(Path::new("d/MP.litmus")));
        assert!(is_litmus_file(Path::new("d/mp.json")));
        assert!(!is_litmus_file(Path::new("d/mp.meta.json")));
        assert!(!is_litmus_file(Path::new("d/README.md")));
    }

    #[test]
    fn missing_path_is_reported_not_skipped() {
        let r = collect(&[PathBuf::from("/nonexistent/weft/file.litmus")]);
        assert_eq!(r.len(), 1);
        assert!(matches!(&r[0], Err((_, m)) if m == "no such file or directory"));
    }
}
