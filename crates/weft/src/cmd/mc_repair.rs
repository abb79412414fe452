//! `weft mc FILE --repair`: race repair (paper 004 §4.1) for litmus tests and CUDA/OpenCL
//! kernels. Explores the program, turns every racing pair of statements into source edits (widen scopes for a
//! heterogeneous race, relaxed atomics for a data race), re-explores the edited program and
//! repeats until it is race-free; prints the edits (`file:line: old -> new`) and writes
//! `NAME.repaired.EXT` next to the input. The engines are `weft_mc::repair` (litmus) and
//! `weft_mc::repair_kernel` (kernels: each round compiles the edited source, written to a
//! temporary file next to the input so its includes resolve, through `kernel_cmd::prepare`).
//!
//! Exit codes: 0 the input is race-free (nothing written); 1 races were found (repaired and
//! written, or refused with the reason); 2 bad input; 3 internal error.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use weft_mc::kernel::{KernelOptions, KernelRace};
use weft_mc::repair::{repair_litmus, Lang, RepairError};
use weft_mc::repair_kernel::{flatten, repair_kernel, KernelRepaired};
use weft_mc::McOptions;

use crate::exit;
use crate::launch::LaunchArgs;
use crate::out;

/// The options of `weft mc` that repair uses.
pub struct Opts<'a> {
    pub model: String,
    pub unroll: u32,
    pub threads: usize,
    pub timeout: Option<Duration>,
    pub json: bool,
    /// Kernels: the launch options, the thread and memory limits.
    pub launch: &'a LaunchArgs,
    pub launches: u32,
    pub max_threads: u64,
    pub max_memory: Option<u64>,
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
    if file.extension().is_some_and(|e| e == "ptx") {
        eprintln!(
            "{}: --repair edits CUDA (.cu) and OpenCL (.cl) sources and litmus tests, not PTX",
            file.display()
        );
        return exit::BAD_INPUT;
    }
    if let Some(lang) = Lang::of_path(file) {
        return run_kernel(file, lang, o);
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
    let written = match write_repaired(file, &r) {
        Ok(w) => w,
        Err(code) => return code,
    };
    let mut s = String::new();
    if o.json {
        let after = serde_json::json!({
            "executions": r.last.counts.complete,
            "max_events": r.last.counts.max_events,
            "seconds": r.last.sim.seconds,
        });
        json_report(&mut s, &name, &r, written.as_ref(), after);
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
        outcome_line(&mut s, r.refused.as_deref(), written.as_ref());
    }
    out::print(&s);
    exit_code(r.untouched())
}

/// Writes the repaired text next to the input when there is one: its path, `None` when
/// nothing was repaired, or the exit code of a failed write.
fn write_repaired<Rd, Res>(
    file: &Path,
    r: &weft_mc::repair::Outcome<Rd, Res>,
) -> Result<Option<PathBuf>, i32>
where
    Rd: weft_mc::repair::RepairRound,
{
    if !r.changed() {
        return Ok(None);
    }
    let out_path = repaired_path(file);
    write_atomically(&out_path, &r.text).map_err(|e| {
        eprintln!("weft: {e}");
        exit::INTERNAL
    })?;
    Ok(Some(out_path))
}

/// The `--json` report of a repair loop; `after` describes the last exploration.
fn json_report<Rd, Res>(
    s: &mut String,
    name: &str,
    r: &weft_mc::repair::Outcome<Rd, Res>,
    written: Option<&PathBuf>,
    after: serde_json::Value,
) where
    Rd: weft_mc::repair::RepairRound + serde::Serialize,
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
fn outcome_line(s: &mut String, refused: Option<&str>, written: Option<&PathBuf>) {
    let _ = match (refused, written) {
        (Some(why), _) => writeln!(s, "Repair refused: {why}"),
        (None, Some(p)) => writeln!(s, "Race-free; wrote {}", p.display()),
        (None, None) => writeln!(s, "Race-free; nothing to repair"),
    };
}

/// 0 when the input was race-free as given, else 1 (races found, repaired or refused).
fn exit_code(untouched: bool) -> i32 {
    if untouched {
        exit::OK
    } else {
        exit::VIOLATION
    }
}

/// Writes `text` to `path` through a temporary file (nothing half-written).
fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp~");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot write {}: {e}", path.display())
        })
}

fn scope_name(s: Option<weft_ir::Scope>) -> &'static str {
    s.map_or("plain", |s| s.name())
}

/// A racing pair; `at`: the sides' original `file:line:col` (else their flattened lines).
fn race_line(r: &KernelRace, at: Option<&(String, String)>) -> String {
    let side = |s: &weft_mc::kernel::RaceSide, pos: Option<&String>| {
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

/// Kernel repair: flatten local includes, then explore / edit / re-compile until race-free.
fn run_kernel(file: &Path, lang: Lang, o: &Opts) -> i32 {
    let Some(model) = weft_mc::native::Native::by_name(&o.model) else {
        eprintln!(
            "weft: model {}: kernels are checked under the native models only (scoped-rc11, rc11, sc)",
            o.model
        );
        return exit::BAD_INPUT;
    };
    let src = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: cannot read: {e}", file.display());
            return exit::BAD_INPUT;
        }
    };
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let read = |name: &str| -> Option<String> {
        let p = dir.join(name);
        (!name.contains("..")).then_some(())?;
        std::fs::read_to_string(p).ok()
    };
    let name = file.display().to_string();
    let flat = match flatten(&name, &src, &read) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("weft: {e}");
            return exit::BAD_INPUT;
        }
    };
    let kopts = KernelOptions {
        unroll: o.unroll,
        model,
        stop_on_first: false,
        timeout: o.timeout,
        max_memory: o.max_memory,
        threads: o.threads,
        max_threads: o.max_threads,
        guide: None,
        launches: o.launches,
        warp_size: weft_mc::kernel::WARP,
        textual_barriers: false,
    };
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("kernel");
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("cu");
    let tmp = dir.join(format!(".{stem}.weft-repair-{}.{ext}", std::process::id()));
    let mut bad_input = false;
    let mut check = |text: &str| -> Result<weft_mc::kernel::KernelResult, String> {
        std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        let prep = crate::kernel_cmd::prepare(&tmp, o.launch);
        let _ = std::fs::remove_file(&tmp);
        let prep = prep.map_err(|(code, m)| {
            bad_input = code == exit::BAD_INPUT;
            m
        })?;
        let names: Vec<String> = prep.buffers.iter().map(|b| b.name.clone()).collect();
        weft_mc::kernel::check_kernel(
            &prep.kernel,
            prep.launch,
            &prep.args,
            &prep.buffers,
            &names,
            &kopts,
        )
        .map_err(|e| {
            bad_input = true;
            e.to_string()
        })
    };
    let r = match repair_kernel(&flat, lang, &mut check, 16) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("weft: {name}: {e}");
            return if bad_input {
                exit::BAD_INPUT
            } else {
                exit::INTERNAL
            };
        }
    };
    let written = match write_repaired(file, &r) {
        Ok(w) => w,
        Err(code) => return code,
    };
    out::print(&kernel_report(&name, &r, written.as_ref(), o.json));
    exit_code(r.untouched())
}

fn kernel_report(name: &str, r: &KernelRepaired, written: Option<&PathBuf>, json: bool) -> String {
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
