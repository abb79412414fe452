//! Witness graphs written to disk (`--graph DIR` of `weft sim` and `weft mc`): each DOT
//! text as `DIR/NAME.dot`, and `NAME.svg` beside it when graphviz's `dot` is installed (its
//! absence is not an error).

use std::path::Path;

/// `name` with every character outside ASCII letters, digits and `keep` replaced by `_`.
pub fn safe_name(name: &str, keep: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || keep.contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes each `(file name, DOT text)` into `dir` (created if need be), with its SVG.
pub fn write<'a>(
    dir: &Path,
    files: impl IntoIterator<Item = (String, &'a str)>,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (name, dot) in files {
        let f = dir.join(name);
        std::fs::write(&f, dot).map_err(|e| format!("{}: {e}", f.display()))?;
        let _ = std::process::Command::new("dot")
            .arg("-Tsvg")
            .arg(&f)
            .arg("-o")
            .arg(f.with_extension("svg"))
            .stderr(std::process::Stdio::null())
            .status();
    }
    Ok(())
}
