//! Records as a person reads them (`weft results`): a table of run summaries, one run's
//! identity lines and outcome histogram; and an export written to a file atomically.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::{canonical_json, RunRecord, RunSummary, StoreError};

/// What to tell the user about `e`, and whether it is bad input (a missing or foreign
/// database, a bad path or filter) rather than a failure of the database itself.
pub fn describe_error(e: &StoreError) -> (bool, String) {
    match e {
        StoreError::Missing { path } => (
            true,
            format!(
                "no results database at {} (nothing has been recorded there yet; \
                 give another with --db PATH)",
                path.display()
            ),
        ),
        StoreError::Path { .. }
        | StoreError::NotWeft { .. }
        | StoreError::SchemaTooNew { .. }
        | StoreError::NoDefaultPath
        | StoreError::Invalid(_) => (true, e.to_string()),
        _ => (false, e.to_string()),
    }
}

/// `1234` ms as `1.234s`.
fn duration(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

/// Left-aligned text columns, right-aligned numeric ones, two spaces apart.
pub fn table(header: &[&str], numeric: &[bool], rows: &[Vec<String>]) -> String {
    let mut width: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = String::new();
    let head: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for r in std::iter::once(&head).chain(rows) {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if numeric[i] {
                    format!("{c:>w$}", w = width[i])
                } else {
                    format!("{c:<w$}", w = width[i])
                }
            })
            .collect();
        s.push_str(cells.join("  ").trim_end());
        s.push('\n');
    }
    s
}

/// The runs as a table, one line per run (`-` as forbidden when no model judged it).
pub fn runs_table(runs: &[RunSummary]) -> String {
    let header = [
        "id",
        "when",
        "kind",
        "backend",
        "device",
        "test",
        "stress",
        "seed",
        "instances",
        "seq",
        "interleaved",
        "weak",
        "forbidden",
        "duration",
    ];
    let numeric = [
        true, false, false, false, false, false, false, true, true, true, true, true, true, true,
    ];
    let rows: Vec<Vec<String>> = runs.iter().map(summary_row).collect();
    table(&header, &numeric, &rows)
}

fn summary_row(s: &RunSummary) -> Vec<String> {
    vec![
        s.id.to_string(),
        s.started_at.clone(),
        s.kind.clone(),
        s.backend.clone(),
        s.device.clone(),
        s.test.clone(),
        s.stress_name.clone(),
        s.seed.to_string(),
        s.instances.to_string(),
        s.seq.to_string(),
        s.interleaved.to_string(),
        s.weak.to_string(),
        if s.model.is_some() {
            s.forbidden.to_string()
        } else {
            "-".into()
        },
        duration(s.duration_ms),
    ]
}

/// The human form of one run: identity lines, then the histogram.
pub fn run_text(id: i64, r: &RunRecord) -> String {
    let d = &r.device;
    let t = &r.test;
    let mut s = format!("run {id} ({})", r.kind);
    if let Some(l) = &r.label {
        s.push_str(&format!(": {l}"));
    }
    s.push('\n');
    let mut field = |k: &str, v: String| s.push_str(&format!("{k:<10}{v}\n"));
    field(
        "started",
        format!("{}, took {}", r.started_at, duration(r.duration_ms)),
    );
    field(
        "device",
        format!(
            "{} ({}; vendor {}; driver {}; {})",
            d.name, d.backend, d.vendor, d.driver, d.api
        ),
    );
    let empty = d.extra.is_null() || d.extra.as_object().is_some_and(|m| m.is_empty());
    if !empty {
        field("", canonical_json(&d.extra));
    }
    field(
        "test",
        format!("{} ({}, {}, sha256 {})", t.name, t.format, t.path, t.digest),
    );
    field(
        "stress",
        format!("{} {}", r.stress_name, canonical_json(&r.stress_config)),
    );
    field(
        "seed",
        format!(
            "{} ({} iterations, {} instances)",
            r.seed, r.iterations, r.instances
        ),
    );
    field("model", r.model.clone().unwrap_or_else(|| "-".into()));
    field("weft", r.weft_version.clone());
    s.push('\n');
    let total: u64 = r.outcomes.iter().map(|o| o.count).sum();
    let mut rows: Vec<Vec<String>> = r
        .outcomes
        .iter()
        .map(|o| {
            vec![
                o.outcome.clone(),
                o.class.clone(),
                o.model_verdict.clone().unwrap_or_else(|| "-".into()),
                o.count.to_string(),
                percent(o.count, total),
            ]
        })
        .collect();
    rows.push(vec![
        "total".into(),
        String::new(),
        String::new(),
        total.to_string(),
        percent(total, total),
    ]);
    s.push_str(&table(
        &["outcome", "class", "verdict", "count", "%"],
        &[false, false, false, true, true],
        &rows,
    ));
    s
}

/// `part` as a percentage of `total`, two decimals (`-` when nothing was counted).
fn percent(part: u64, total: u64) -> String {
    if total == 0 {
        "-".into()
    } else {
        format!("{:.2}", part as f64 * 100.0 / total as f64)
    }
}

/// Writes `file` through a temporary file in the same directory, renamed over `file` only
/// once everything was written and synced; on any error the temporary file is removed.
pub fn write_atomically(
    file: &Path,
    write: impl Fn(&mut dyn Write) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let path_err = |m: String| StoreError::Path {
        path: file.to_path_buf(),
        message: m,
    };
    if file.is_dir() {
        return Err(path_err("is a directory".into()));
    }
    let dir = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = file
        .file_name()
        .ok_or_else(|| path_err("is not a file name".into()))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let f = std::fs::File::create(&tmp)
            .map_err(|e| path_err(format!("cannot create {}: {e}", tmp.display())))?;
        let mut w = std::io::BufWriter::new(f);
        write(&mut w)?;
        let f = w
            .into_inner()
            .map_err(|e| path_err(format!("cannot write: {}", e.error())))?;
        f.sync_all()
            .map_err(|e| path_err(format!("cannot write: {e}")))?;
        std::fs::rename(&tmp, file).map_err(|e| path_err(format!("cannot write: {e}")))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
