//! `weft mc FILE --repair`: race repair (paper 004 §4.1) for litmus tests. Explores the
//! program, turns every racing pair of statements into source edits (widen scopes for a
//! heterogeneous race, relaxed atomics for a data race), re-explores the edited program and
//! repeats until it is race-free; prints the edits (`file:line: old -> new`) and writes
//! `NAME.repaired.EXT` next to the input. The engine is `weft_mc::repair`.
//!
//! Exit codes: 0 the input is race-free (nothing written); 1 races were found (repaired and
//! written, or refused with the reason); 2 bad input; 3 internal error.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use weft_mc::repair::{repair_litmus, RepairError};
use weft_mc::McOptions;

use crate::exit;
use crate::out;

/// The options of `weft mc` that repair uses.
pub struct Opts {
    pub model: String,
    pub unroll: u32,
    pub threads: usize,
    pub timeout: Option<Duration>,
    pub json: bool,
}

/// `dir/NAME.repaired.EXT` for `dir/NAME.EXT`.
pub fn repaired_path(file: &Path) -> PathBuf {
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("out");
    let name = match file.extension().and_then(|e| e.to_str()) {
        Some(e) => format!("{stem}.repaired.{e}"),
        None => format!("{stem}.repaired"),
    };
    file.with_file_name(name)
}

pub fn run(file: &Path, o: &Opts) -> i32 {
    if file
        .extension()
        .is_some_and(|e| e == "cu" || e == "cl" || e == "ptx")
    {
        eprintln!(
            "{}: --repair repairs litmus tests; kernel repair needs the kernel explorer's racing lines (not wired yet)",
            file.display()
        );
        return exit::BAD_INPUT;
    }
    let src = match std::fs::read(file) {
        Ok(b) => match String::from_utf8(b) {
            Ok(s) => s,
            Err(_) => {
                eprintln!("{}: not UTF-8 text", file.display());
                return exit::BAD_INPUT;
            }
        },
        Err(e) => {
            eprintln!("{}: cannot read: {e}", file.display());
            return exit::BAD_INPUT;
        }
    };
    let model = match weft_sim::models::load(&o.model) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("weft: model {}: {}", o.model, e.render());
            return exit::BAD_INPUT;
        }
    };
    let name = file.display().to_string();
    let parse = |s: &str| weft_litmus::parse(s).map_err(|e| e.render(&name));
    let opts = McOptions {
        unroll: o.unroll,
        threads: o.threads,
        timeout: o.timeout,
        ..McOptions::default()
    };
    let r = match repair_litmus(&name, &src, &parse, &o.model, &model, &opts, 16) {
        Ok(r) => r,
        Err(RepairError::Parse(m)) => {
            eprintln!("{m}");
            return exit::BAD_INPUT;
        }
        Err(e) => {
            eprintln!("weft: {name}: {e}");
            return exit::INTERNAL;
        }
    };
    let out_path = repaired_path(file);
    let changed = !r.rounds.is_empty() && r.race_free;
    if changed {
        // Write to a temporary name first: nothing half-written.
        let tmp = out_path.with_extension("tmp~");
        if let Err(e) = std::fs::write(&tmp, &r.text).and_then(|_| std::fs::rename(&tmp, &out_path))
        {
            eprintln!("weft: cannot write {}: {e}", out_path.display());
            let _ = std::fs::remove_file(&tmp);
            return exit::INTERNAL;
        }
    }
    let mut s = String::new();
    if o.json {
        let v = serde_json::json!({
            "file": name,
            "rounds": r.rounds,
            "races": r.races(),
            "lines_changed": r.lines_changed(),
            "race_free": r.race_free,
            "refused": r.refused,
            "repaired_file": if changed { Some(out_path.display().to_string()) } else { None },
            "after": {
                "executions": r.last.counts.complete,
                "max_events": r.last.counts.max_events,
                "seconds": r.last.sim.seconds,
            },
        });
        let _ = writeln!(
            s,
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        );
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
        if let Some(why) = &r.refused {
            let _ = writeln!(s, "Repair refused: {why}");
        } else if changed {
            let _ = writeln!(s, "Race-free; wrote {}", out_path.display());
        } else {
            let _ = writeln!(s, "Race-free; nothing to repair");
        }
    }
    out::print(&s);
    if r.rounds.is_empty() && r.race_free {
        exit::OK
    } else {
        exit::VIOLATION
    }
}
