//! The compiled-PTX cache: PTX stored under a SHA-256 of everything that decides it (the
//! source text, its path, the local headers it includes with `#include "..."`, weft's shim headers,
//! the language, the compile options and the compiler's `--version` output), so repeated
//! runs of the same kernel do not recompile.
//!
//! Location: `$WEFT_CACHE_DIR`, else `$XDG_CACHE_HOME/weft/ptx`, else `$HOME/.cache/weft/ptx`.
//! `WEFT_NO_CACHE=1` disables it. Entries are written atomically (temporary file, then
//! rename); an unwritable cache is silently skipped (compilation still works).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use sha2::{Digest, Sha256};

use crate::compiler::{CompileOptions, Compiler, Language};
use crate::headers;

/// The cache directory, or `None` when caching is off or no location is known.
pub fn dir() -> Option<PathBuf> {
    if std::env::var_os("WEFT_NO_CACHE").is_some_and(|v| !v.is_empty() && v != "0") {
        return None;
    }
    let nonempty = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    nonempty("WEFT_CACHE_DIR")
        .or_else(|| nonempty("XDG_CACHE_HOME").map(|d| d.join("weft").join("ptx")))
        .or_else(|| nonempty("HOME").map(|d| d.join(".cache").join("weft").join("ptx")))
}

/// `compiler --version` (first line), memoised per executable.
pub fn compiler_version(c: &Compiler) -> Option<String> {
    static MEMO: OnceLock<Mutex<HashMap<PathBuf, Option<String>>>> = OnceLock::new();
    let memo = MEMO.get_or_init(Default::default);
    if let Some(v) = memo.lock().ok()?.get(&c.path) {
        return v.clone();
    }
    let v = std::process::Command::new(&c.path)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    memo.lock().ok()?.insert(c.path.clone(), v.clone());
    v
}

/// The cache key of one compilation, or `None` when caching is off or the compiler's
/// version cannot be read.
pub fn key(
    c: &Compiler,
    lang: Language,
    path: &Path,
    source: &str,
    opts: &CompileOptions,
) -> Option<String> {
    dir()?;
    let version = compiler_version(c)?;
    let mut h = Sha256::new();
    let mut field = |tag: &str, bytes: &[u8]| {
        h.update(tag.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field("version", version.as_bytes());
    field("compiler", c.path.display().to_string().as_bytes());
    field("lang", format!("{lang:?}").as_bytes());
    // libclc is linked into OpenCL builds only: a CUDA key must not depend on whether it is
    // installed (a cache filled on one machine is then valid on another).
    let mut keyed = opts.clone();
    if lang == Language::Cuda {
        keyed.libclc = None;
    }
    field("opts", format!("{keyed:?}").as_bytes());
    for (name, text) in headers::ALL {
        field(name, text.as_bytes());
    }
    field("source", source.as_bytes());
    // The whole path as the compiler sees it: it is compiled into the PTX (`__FILE__` in a
    // device `assert`'s message, the `.file` table) and into the warnings, so the same text
    // at another path (a copy of the checkout) must not reuse this entry.
    field("path", path.display().to_string().as_bytes());
    // Local headers the source includes (one level; enough for kernels with helpers).
    let base = path.parent().unwrap_or(Path::new("."));
    for line in source.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix('#') {
            let rest = rest.trim_start();
            if let Some(inc) = rest.strip_prefix("include") {
                if let Some(name) = inc
                    .trim()
                    .strip_prefix('"')
                    .and_then(|s| s.split('"').next())
                {
                    if let Ok(text) = std::fs::read(base.join(name)) {
                        field(name, &text);
                    }
                }
            }
        }
    }
    Some(format!("{:x}", h.finalize()))
}

fn entry(key: &str) -> Option<PathBuf> {
    Some(dir()?.join(format!("{key}.ptx")))
}

/// The cached PTX for `key`, if any.
pub fn get(key: &str) -> Option<String> {
    std::fs::read_to_string(entry(key)?).ok()
}

/// Stores `ptx` under `key` (best effort).
pub fn put(key: &str, ptx: &str) {
    if let Some(path) = entry(key) {
        put_file(&path, ptx);
    }
}

fn warnings_entry(key: &str) -> Option<PathBuf> {
    Some(dir()?.join(format!("{key}.warn")))
}

/// The compiler's warnings stored with the PTX of `key` (empty when there were none), so
/// that a cached compilation reports what the first one printed.
pub fn get_warnings(key: &str) -> String {
    warnings_entry(key)
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_default()
}

/// Stores the compiler's warnings for `key` (best effort; nothing when there are none).
pub fn put_warnings(key: &str, warnings: &str) {
    if warnings.trim().is_empty() {
        return;
    }
    if let Some(path) = warnings_entry(key) {
        put_file(&path, warnings);
    }
}

fn put_file(path: &Path, text: &str) {
    let Some(d) = path.parent() else { return };
    if std::fs::create_dir_all(d).is_err() {
        return;
    }
    if let Ok(mut f) = tempfile::NamedTempFile::new_in(d) {
        use std::io::Write;
        if f.write_all(text.as_bytes()).is_ok() {
            let _ = f.persist(path);
        }
    }
}
