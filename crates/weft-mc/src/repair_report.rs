//! What `weft mc --repair` prints: the rounds of a repair loop (paper 004 §4.1) — racing
//! pairs and source edits — the totals and the outcome, as text or JSON, for litmus tests
//! ([`litmus_report`]) and kernels ([`kernel_report`]); and where the repaired file goes
//! ([`repaired_path`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::kernel::KernelRace;
use crate::repair::{Outcome, RepairRound, Repaired};
use crate::repair_kernel::KernelRepaired;

/// `dir/NAME.repaired.EXT` for `dir/NAME.EXT`.
pub fn repaired_path(file: &Path) -> PathBuf {
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("out");
    let name = match file.extension().and_then(|e| e.to_str()) {
        Some(e) => format!("{stem}.repaired.{e}"),
        None => format!("{stem}.repaired"),
    };
    file.with_file_name(name)
}

/// The report of a litmus test's repair (`weft mc --repair`): each round's races and edits,
/// the totals and the outcome; `--json`: one pretty-printed object.
pub fn litmus_report(name: &str, r: &Repaired, written: Option<&Path>, json: bool) -> String {
    let mut s = String::new();
    if json {
        let after = serde_json::json!({
            "executions": r.last.counts.complete,
            "max_events": r.last.counts.max_events,
            "seconds": r.last.sim.seconds,
        });
        json_report(&mut s, name, r, written, after);
    } else {
        for (i, round) in r.rounds.iter().enumerate() {
            let _ = writeln!(
                s,
                "Round {}: {} executions, {} racing pairs",
                i + 1,
                round.executions,
                round.races.len()
            );
            for x in &round.races {
                let _ = writeln!(
                    s,
                    "  {} race: P{} {}:{} <-> P{} {}:{}",
                    if x.hetero { "heterogeneous" } else { "data" },
                    x.a.0,
                    x.a.1,
                    x.a.2,
                    x.b.0,
                    x.b.1,
                    x.b.2
                );
            }
            for e in &round.edits {
                let _ = writeln!(s, "  edit {e}");
            }
        }
        let _ = writeln!(
            s,
            "Races: {} (lines changed: {}), after repair: {} executions, max events {}",
            r.races(),
            r.lines_changed(),
            r.last.counts.complete,
            r.last.counts.max_events
        );
        outcome_line(&mut s, r.refused.as_deref(), written);
    }
    s
}

/// The `--json` report of a repair loop; `after` describes the last exploration.
fn json_report<Rd, Res>(
    s: &mut String,
    name: &str,
    r: &crate::repair::Outcome<Rd, Res>,
    written: Option<&Path>,
    after: serde_json::Value,
) where
    Rd: crate::repair::RepairRound + serde::Serialize,
{
    let v = serde_json::json!({
        "file": name,
        "rounds": r.rounds,
        "races": r.races(),
        "lines_changed": r.lines_changed(),
        "race_free": r.race_free,
        "refused": r.refused,
        "repaired_file": written.map(|p| p.display().to_string()),
        "after": after,
    });
    let _ = writeln!(
        s,
        "{}",
        serde_json::to_string_pretty(&v).unwrap_or_default()
    );
}

/// The last line of a repair report: refused (with the reason), written, or nothing to do.
fn outcome_line(s: &mut String, refused: Option<&str>, written: Option<&Path>) {
    let _ = match (refused, written) {
        (Some(why), _) => writeln!(s, "Repair refused: {why}"),
        (None, Some(p)) => writeln!(s, "Race-free; wrote {}", p.display()),
        (None, None) => writeln!(s, "Race-free; nothing to repair"),
    };
}

fn scope_name(s: Option<weft_ir::Scope>) -> &'static str {
    s.map_or("plain", |s| s.name())
}

/// A racing pair; `at`: the sides' original `file:line:col` (else their flattened lines).
fn race_line(r: &KernelRace, at: Option<&(String, String)>) -> String {
    let side = |s: &crate::kernel::RaceSide, pos: Option<&String>| {
        format!(
            "{} {} ({})",
            if s.write { "write" } else { "read" },
            pos.cloned()
                .unwrap_or_else(|| format!("line {}:{}", s.line, s.col)),
            if s.atomic {
                scope_name(s.scope)
            } else {
                "plain"
            }
        )
    };
    format!(
        "{} race: {} <-> {} (threads {}, {}; needs scope {})",
        if r.hetero { "heterogeneous" } else { "data" },
        side(&r.a, at.map(|x| &x.0)),
        side(&r.b, at.map(|x| &x.1)),
        r.threads.0,
        r.threads.1,
        r.need.name()
    )
}

/// The report of a kernel's repair: each round's racing statement pairs and edits, the
/// races left, the totals, other errors and the outcome; `--json`: one object.
pub fn kernel_report(name: &str, r: &KernelRepaired, written: Option<&Path>, json: bool) -> String {
    let mut s = String::new();
    let after_exec = r.last.counts.complete + r.last.stuck;
    if json {
        let after = serde_json::json!({
            "executions": after_exec,
            "blocked": r.last.counts.blocked,
            "cut": r.last.counts.cut,
            "max_events": r.last.counts.max_events,
            "seconds": r.last.seconds,
            "errors": r.last.errors.iter().map(|e| e.kind.clone()).collect::<Vec<_>>(),
        });
        json_report(&mut s, name, r, written, after);
        return s;
    }
    for (i, round) in r.rounds.iter().enumerate() {
        let _ = writeln!(
            s,
            "Round {}: {} executions, {} racing statement pairs",
            i + 1,
            round.executions,
            round.races.len()
        );
        for (i, x) in round.races.iter().enumerate() {
            let _ = writeln!(s, "  {}", race_line(x, round.sites.get(i)));
        }
        for e in &round.edits {
            let _ = writeln!(s, "  edit {e}");
        }
    }
    if !r.race_free {
        for x in &r.last.races {
            let _ = writeln!(s, "  left: {}", race_line(x, None));
        }
    }
    let _ = writeln!(
        s,
        "Races: {} (lines changed: {}), after repair: {} executions (blocked {}, cut {}), max events {}",
        r.races(),
        r.lines_changed(),
        after_exec,
        r.last.counts.blocked,
        r.last.counts.cut,
        r.last.counts.max_events
    );
    let other: Vec<&str> = r
        .last
        .errors
        .iter()
        .map(|e| e.kind.as_str())
        .filter(|k| !k.contains("race"))
        .collect();
    if !other.is_empty() {
        let _ = writeln!(s, "Other errors (not repaired): {}", other.join(", "));
    }
    outcome_line(&mut s, r.refused.as_deref(), written);
    s
}

/// Writes the repaired text of `r` to [`repaired_path`] of `file` when the repair changed
/// something (through a temporary file: nothing half-written): the path written, `None`
/// when nothing was repaired.
pub fn write_repaired<Rd, Res>(file: &Path, r: &Outcome<Rd, Res>) -> Result<Option<PathBuf>, String>
where
    Rd: RepairRound,
{
    if !r.changed() {
        return Ok(None);
    }
    let out_path = repaired_path(file);
    let tmp = out_path.with_extension("tmp~");
    std::fs::write(&tmp, &r.text)
        .and_then(|_| std::fs::rename(&tmp, &out_path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot write {}: {e}", out_path.display())
        })?;
    Ok(Some(out_path))
}

/// The text of the litmus test `file` to repair (`FILE: cannot read: ...`, `FILE: not
/// UTF-8 text`).
pub fn read_litmus(file: &Path) -> Result<String, String> {
    let b = std::fs::read(file).map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    String::from_utf8(b).map_err(|_| format!("{}: not UTF-8 text", file.display()))
}
