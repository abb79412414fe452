//! `weft verify`: static verification of a CUDA/OpenCL kernel (weft-verify: GPUVerify's
//! two-thread reduction with warps and atomics, paper 002). Prints `verified` or each
//! possible error with its counter-example.
//!
//! `--confirm` re-runs the launch on the SIMT emulator with BARRACUDA's race analysis (`weft
//! race`, four warp schedules) and says, for each possible race, whether a run shows a race
//! between the same two source lines (issue 15: counter-examples optionally confirmed on the
//! emulator). The run uses the command line's buffers and arguments; a parameter left
//! unbound gets a zero-filled buffer of 2^20 elements or the scalar 1 — not the solver's
//! values, so "not shown" does not refute the possible race.
//!
//! Exit codes: 0 verified (or, with `--loop-unwind`, no error within the bound); 1 a possible
//! error (race, barrier divergence, failing assertion); 2 bad input (unreadable file,
//! compile error, unsupported construct, bad launch); 3 solver missing, failing or timing
//! out (never "verified").

use std::path::PathBuf;

use weft_verify::load::{verify_file, FileOptions};
use weft_verify::{Options, SolverKind, Verdict, VerifyError, WarpMethod};

use crate::exit;
use crate::launch::LaunchArgs;
use crate::out;

#[derive(clap::Args)]
pub struct Args {
    /// The kernel: .cu or .cl (compiled with clang-19), or .ptx.
    file: PathBuf,
    /// Launch options shared by every kernel command: `--grid`/`--block` (GPUVerify's
    /// `--gridDim`/`--blockDim`, OpenCL's `--num_groups`/`--local_size`), `--kernel`, `-D`,
    /// `--loop-unwind N` (bug finding, not a proof) and GPUVerify's analysis flags
    /// (`--warp-sync=N`, `--equality-abstraction`, `--adversarial-abstraction`,
    /// `--only-intra-group`); the kernel's header lines give what the command line leaves out.
    #[command(flatten)]
    launch: LaunchArgs,
    /// Threads of a warp execute in lock-step, warps of N threads (same as `--warp-sync=N`).
    #[arg(long, value_name = "N")]
    warp_size: Option<u32>,
    /// How warps are encoded (paper 002 §3).
    #[arg(long, value_parser = ["resync", "two-pass"], default_value = "resync")]
    warp_method: String,
    /// Do not assume lock-step warps, even when the header asks for them.
    #[arg(long)]
    no_lockstep: bool,
    /// Only pairs of threads in different blocks.
    #[arg(long)]
    only_inter_group: bool,
    /// Unroll a loop at most N times before cutting it with inferred invariants.
    #[arg(long, default_value_t = 32)]
    unroll_limit: u32,
    /// Do not use the repetition-free refinement of atomic counters (paper 002 §4.2).
    #[arg(long)]
    no_refined_atomics: bool,
    /// Check that repetition-free counters cannot overflow.
    #[arg(long)]
    check_overflow: bool,
    /// Report benign races too: by default (as GPUVerify) two writes of the same value at the
    /// same offset, a write of the value the other thread read there, and a read of bytes a
    /// write left unchanged are not races.
    #[arg(long)]
    no_benign_tolerance: bool,
    /// SMT solver.
    #[arg(long, value_parser = ["z3", "cvc5"], default_value = "z3")]
    solver: String,
    /// Per-query solver timeout in seconds.
    #[arg(long, default_value_t = 30)]
    solver_timeout: u64,
    /// Time limit for the whole run in seconds (compilation, building the conditions and
    /// every solver query): past it, what was not decided is reported undecided (exit 3),
    /// never verified, and no solver process is left running.
    #[arg(long)]
    timeout: Option<u64>,
    /// Print the reports as JSON.
    #[arg(long)]
    json: bool,
    /// Re-run the launch on the SIMT emulator (`weft race`, 4 schedules) and say for each
    /// possible race whether a run shows a race between the same source lines.
    #[arg(long)]
    confirm: bool,
}

/// A source location reduced to (file name, line).
type Loc = (String, String);

/// `file:line` or `file:line:col` of a source location, reduced to the file's name and the
/// line.
fn short_loc(l: &str) -> Option<Loc> {
    let (f, r) = l.rsplit_once(':')?;
    let digits = |x: &str| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit());
    let (file, line) = match f.rsplit_once(':') {
        Some((f2, line)) if digits(line) && digits(r) => (f2, line),
        _ => (f, r),
    };
    let name = std::path::Path::new(file)
        .file_name()?
        .to_string_lossy()
        .into_owned();
    Some((name, line.to_string()))
}

/// Runs `weft race` on the same file and launch; returns the source-line pairs of the races
/// it reports, or why it could not run.
fn emulator_races(a: &Args) -> Result<Vec<(Loc, Loc)>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    // Parameters the command line leaves unbound get a default: a zero-filled buffer of
    // 2^20 elements, or the scalar 1; the emulator names them one at a time.
    let mut extra: Vec<String> = Vec::new();
    for _ in 0..32 {
        let mut cmd = std::process::Command::new(&exe);
        weft_cuda::child::die_with_parent(&mut cmd);
        cmd.arg("race")
            .arg(&a.file)
            .args(["--json", "--schedules", "4", "--timeout", "120"]);
        if let Some(g) = &a.launch.grid {
            cmd.args(["--grid", g]);
        }
        if let Some(b) = &a.launch.block {
            cmd.args(["--block", b]);
        }
        if let Some(k) = &a.launch.kernel {
            cmd.args(["--kernel", k]);
        }
        for d in &a.launch.defines {
            cmd.arg(format!("-D{d}"));
        }
        for b in &a.launch.buffers {
            cmd.args(["--buffer", b]);
        }
        for x in &a.launch.args {
            cmd.args(["--arg", x]);
        }
        cmd.args(&extra);
        let out = cmd.output().map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        if let Ok(j) = serde_json::from_str::<serde_json::Value>(text.trim()) {
            let mut v = Vec::new();
            for r in j["races"].as_array().into_iter().flatten() {
                let side = |k: &str| r[k]["line"].as_str().and_then(short_loc);
                if let (Some(x), Some(y)) = (side("first"), side("second")) {
                    v.push((x, y));
                }
            }
            return Ok(v);
        }
        let last = err.lines().last().unwrap_or("no output").to_string();
        let unbound = last
            .split_once("parameter `")
            .and_then(|(_, r)| r.split_once("` is not bound"))
            .map(|(n, r)| (n.to_string(), r.contains("--buffer")));
        match unbound {
            Some((n, true)) => extra.extend(["--buffer".to_string(), format!("{n}=1048576")]),
            Some((n, false)) => extra.extend(["--arg".to_string(), format!("{n}=1")]),
            None => return Err(format!("the emulator run failed: {last}")),
        }
    }
    Err("the emulator run failed: too many unbound parameters".to_string())
}

fn dims(s: &str) -> Result<[u32; 3], String> {
    weft_cuda::geometry::parse_dims(s)
}

/// The hard end of `--timeout S`: the library stops building and solving at the deadline
/// and reports what it did not decide; should some step not return within 5 s after it,
/// weft exits with 3 (undecided) by itself, and its solver and compiler children, which
/// die with it, go too.
fn watchdog(t: u64) {
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(t.max(1) + 5));
        eprintln!("weft: verify: the time limit of {t} s was reached: nothing was verified");
        std::process::exit(exit::INTERNAL);
    });
}

/// `weft verify`.
pub fn run(a: Args) -> i32 {
    let mut o = Options {
        warp_method: if a.warp_method == "two-pass" {
            WarpMethod::TwoPass
        } else {
            WarpMethod::Resync
        },
        solver: SolverKind::parse(&a.solver).unwrap_or(SolverKind::Z3),
        timeout_ms: a.solver_timeout.max(1) * 1000,
        deadline: a
            .timeout
            .map(|t| std::time::Instant::now() + std::time::Duration::from_secs(t.max(1))),
        unroll_limit: a.unroll_limit.max(1),
        ..Options::default()
    };
    let mut flags = Vec::new();
    if a.launch.equality_abstraction {
        flags.push("--equality-abstraction".to_string());
    }
    if a.launch.adversarial_abstraction {
        flags.push("--adversarial-abstraction".to_string());
    }
    if a.launch.only_intra_group {
        flags.push("--only-intra-group".to_string());
    }
    if a.only_inter_group {
        flags.push("--only-inter-group".to_string());
    }
    if a.no_refined_atomics {
        flags.push("--no-refined-atomics".to_string());
    }
    if a.check_overflow {
        flags.push("--check-overflow".to_string());
    }
    if a.no_benign_tolerance {
        flags.push("--no-benign-tolerance".to_string());
    }
    if a.launch.check_array_bounds {
        flags.push("--check-array-bounds".to_string());
    }
    if a.launch.no_barrier_access_checks {
        flags.push("--no-barrier-access-checks".to_string());
    }
    if let Some(n) = a.launch.unroll {
        flags.push(format!("--loop-unwind={n}"));
    }
    if a.warp_method == "two-pass" {
        flags.push("--warp-method=two-pass".to_string());
    }
    let mut fo = FileOptions {
        kernel: a.launch.kernel.clone(),
        defines: a.launch.defines.clone(),
        flags,
        report_both: true,
        ..FileOptions::default()
    };
    if let Some(w) = a.warp_size.or(a.launch.warp_sync) {
        o.warp_size = w;
        fo.lockstep = Some(true);
    }
    if a.no_lockstep {
        fo.lockstep = Some(false);
    }
    for (arg, slot) in [
        (&a.launch.grid, &mut fo.grid),
        (&a.launch.block, &mut fo.block),
    ] {
        if let Some(s) = arg {
            match dims(s) {
                Ok(d) => *slot = Some(d),
                Err(e) => {
                    eprintln!("weft: {s}: {e}");
                    return exit::BAD_INPUT;
                }
            }
        }
    }
    if let Some(t) = a.timeout {
        watchdog(t);
    }
    let reports = match verify_file(&a.file, &o, &fo) {
        Ok(r) => r,
        Err(VerifyError::Unsupported(m)) => {
            eprintln!("weft: {m}");
            return exit::BAD_INPUT;
        }
        Err(VerifyError::Tool(m)) => {
            eprintln!("weft: {m}");
            return exit::INTERNAL;
        }
    };
    let mut code = exit::OK;
    for r in &reports {
        match r.verdict {
            Verdict::Errors => code = code.max(exit::VIOLATION),
            Verdict::Unknown => code = exit::INTERNAL,
            _ => {}
        }
    }
    // `--confirm`: one emulator run of the launch for all the possible races.
    let has_race = reports
        .iter()
        .any(|r| r.findings.iter().any(|f| f.kind == "race"));
    let emulated = if a.confirm && has_race {
        Some(emulator_races(&a))
    } else {
        None
    };
    let confirmation = |f: &weft_verify::Finding| -> Option<String> {
        if f.kind != "race" {
            return None;
        }
        let races = match emulated.as_ref()? {
            Ok(r) => r,
            Err(e) => return Some(format!("not confirmed: {e}")),
        };
        let s = f.loc_s.as_deref().and_then(short_loc);
        let t = short_loc(&f.loc_t);
        let shown = races.iter().any(|(x, y)| {
            (Some(x) == s.as_ref() && Some(y) == t.as_ref())
                || (Some(y) == s.as_ref() && Some(x) == t.as_ref())
        });
        Some(if shown {
            "confirmed: the emulator shows a race between these lines".to_string()
        } else {
            "not shown by the emulator in 4 schedules of this launch (zero-filled buffers, \
             scalar arguments 1 unless given: not the counter-example's values)"
                .to_string()
        })
    };
    if a.json {
        out::line(&serde_json::to_string_pretty(&reports).unwrap_or_default());
        for r in &reports {
            for f in &r.findings {
                if let Some(c) = confirmation(f) {
                    eprintln!("weft: {}: {c}", f.message);
                }
            }
        }
        return code;
    }
    let mut s = String::new();
    for r in &reports {
        let t = r.time_ms as f64 / 1000.0;
        match r.verdict {
            Verdict::Verified => s.push_str(&format!("{}: verified ({t:.2} s)\n", r.kernel)),
            Verdict::Bounded => s.push_str(&format!(
                "{}: no error found within the loop unwinding bound (not a proof) ({t:.2} s)\n",
                r.kernel
            )),
            Verdict::Unknown => s.push_str(&format!(
                "{}: not verified: the solver could not decide {} check(s) (timeout) ({t:.2} s)\n",
                r.kernel, r.undecided
            )),
            Verdict::Errors => {
                s.push_str(&format!(
                    "{}: {} possible error(s) ({t:.2} s)\n",
                    r.kernel,
                    r.findings.len()
                ));
                for f in &r.findings {
                    s.push_str(&format!("  error: {}\n", f.message));
                    if f.pass != "all" {
                        s.push_str(&format!("    (found by the {} pass)\n", f.pass));
                    }
                    if let Some(c) = confirmation(f) {
                        s.push_str(&format!("    {c}\n"));
                    }
                }
            }
        }
        for n in &r.notes {
            s.push_str(&format!("  note: {n}\n"));
        }
    }
    out::print(&s);
    code
}
