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

use std::path::{Path, PathBuf};
use std::time::Duration;

use weft_mc::kernel::KernelOptions;
use weft_mc::repair::{repair_litmus, Lang, RepairError};
use weft_mc::repair_kernel::{flatten, repair_kernel};
use weft_mc::repair_report;
use weft_mc::McOptions;

use crate::exit::ExitCode;
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

pub fn run(file: &Path, o: &Opts) -> ExitCode {
    if file.extension().is_some_and(|e| e == "ptx") {
        eprintln!(
            "{}: --repair edits CUDA (.cu) and OpenCL (.cl) sources and litmus tests, not PTX",
            file.display()
        );
        return ExitCode::BadInput;
    }
    if let Some(lang) = Lang::of_path(file) {
        return run_kernel(file, lang, o);
    }
    let src = match repair_report::read_litmus(file) {
        Ok(s) => s,
        Err(m) => {
            eprintln!("{m}");
            return ExitCode::BadInput;
        }
    };
    let model = match weft_sim::models::load(&o.model) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("weft: model {}: {}", o.model, e.render());
            return ExitCode::BadInput;
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
            return ExitCode::BadInput;
        }
        Err(e) => {
            eprintln!("weft: {name}: {e}");
            return ExitCode::Internal;
        }
    };
    let written = match write_repaired(file, &r) {
        Ok(w) => w,
        Err(code) => return code,
    };
    out::print(&repair_report::litmus_report(
        &name,
        &r,
        written.as_deref(),
        o.json,
    ));
    ExitCode::violation_if(!r.untouched())
}

/// Writes the repaired text next to the input when there is one: its path, `None` when
/// nothing was repaired, or the exit code of a failed write.
fn write_repaired<Rd, Res>(
    file: &Path,
    r: &weft_mc::repair::Outcome<Rd, Res>,
) -> Result<Option<PathBuf>, ExitCode>
where
    Rd: weft_mc::repair::RepairRound,
{
    repair_report::write_repaired(file, r).map_err(|e| {
        eprintln!("weft: {e}");
        ExitCode::Internal
    })
}

/// Kernel repair: flatten local includes, then explore / edit / re-compile until race-free.
fn run_kernel(file: &Path, lang: Lang, o: &Opts) -> ExitCode {
    let Some(model) = weft_mc::native::Native::by_name(&o.model) else {
        eprintln!(
            "weft: model {}: kernels are checked under the native models only (scoped-rc11, rc11, sc)",
            o.model
        );
        return ExitCode::BadInput;
    };
    let src = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: cannot read: {e}", file.display());
            return ExitCode::BadInput;
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
            return ExitCode::BadInput;
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
        let prep = prep.map_err(|f| {
            bad_input = f.code == ExitCode::BadInput;
            f.message
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
                ExitCode::BadInput
            } else {
                ExitCode::Internal
            };
        }
    };
    let written = match write_repaired(file, &r) {
        Ok(w) => w,
        Err(code) => return code,
    };
    out::print(&repair_report::kernel_report(
        &name,
        &r,
        written.as_deref(),
        o.json,
    ));
    ExitCode::violation_if(!r.untouched())
}
