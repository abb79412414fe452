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

use weft_verify::confirm::RaceRun;
use weft_verify::load::{verify_file, FileOptions};
use weft_verify::text::Loc;
use weft_verify::{Options, SolverKind, VerifyError, WarpMethod};

use crate::exit::ExitCode;
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
    /// Assume that 32-bit integer additions, subtractions and multiplications do not wrap
    /// around (GPUVerify's `--math-int`). Without it, a possible error that needs a
    /// wrap-around is still reported, and said to need one.
    #[arg(long)]
    assume_no_overflow: bool,
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
    /// Instantiation of a template kernel to verify (`k<float>`; repeatable). Without it, a
    /// template kernel is verified as the file's host code launches it, else with the
    /// template's default arguments.
    #[arg(long = "template", value_name = "KERNEL<ARGS>")]
    templates: Vec<String>,
    /// Print the reports as JSON.
    #[arg(long)]
    json: bool,
    /// Re-run the launch on the SIMT emulator (`weft race`, 4 schedules) and say for each
    /// possible race whether a run shows a race between the same source lines.
    #[arg(long)]
    confirm: bool,
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
        match weft_verify::confirm::read_race_run(&text, &err) {
            RaceRun::Races(v) => return Ok(v),
            RaceRun::Unbound { name, buffer: true } => {
                extra.extend(["--buffer".to_string(), format!("{name}=1048576")])
            }
            RaceRun::Unbound { name, .. } => {
                extra.extend(["--arg".to_string(), format!("{name}=1")])
            }
            RaceRun::Failed(last) => return Err(format!("the emulator run failed: {last}")),
        }
    }
    Err("the emulator run failed: too many unbound parameters".to_string())
}

/// The hard end of `--timeout S`: the library stops building and solving at the deadline
/// and reports what it did not decide; should some step not return within 5 s after it,
/// weft exits with 3 (undecided) by itself, and its solver and compiler children, which
/// die with it, go too.
fn watchdog(t: u64) {
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(t.max(1) + 5));
        eprintln!("weft: verify: the time limit of {t} s was reached: nothing was verified");
        std::process::exit(ExitCode::Internal.code());
    });
}

/// `weft verify`.
pub fn run(a: Args) -> ExitCode {
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
    // GPUVerify's flags, as the verifier reads them from a kernel's header.
    let l = &a.launch;
    let mut flags: Vec<String> = [
        (l.equality_abstraction, "--equality-abstraction"),
        (l.adversarial_abstraction, "--adversarial-abstraction"),
        (l.only_intra_group, "--only-intra-group"),
        (a.only_inter_group, "--only-inter-group"),
        (a.no_refined_atomics, "--no-refined-atomics"),
        (a.check_overflow, "--check-overflow"),
        (a.assume_no_overflow, "--assume-no-overflow"),
        (a.no_benign_tolerance, "--no-benign-tolerance"),
        (l.check_array_bounds, "--check-array-bounds"),
        (l.no_barrier_access_checks, "--no-barrier-access-checks"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, f)| f.to_string())
    .collect();
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
        templates: a.templates.clone(),
        explain_overflow: true,
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
            match weft_cuda::Dims::parse(s) {
                Ok(d) => *slot = Some(d),
                Err(e) => {
                    eprintln!("weft: {s}: {e}");
                    return ExitCode::BadInput;
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
            return ExitCode::BadInput;
        }
        Err(e @ (VerifyError::Tool(_) | VerifyError::Solver(_))) => {
            eprintln!("weft: {e}");
            return ExitCode::Internal;
        }
    };
    let code = weft_verify::text::exit_code(&reports);
    // `--confirm`: one emulator run of the launch for all the possible races.
    let has_race = reports
        .iter()
        .any(|r| r.findings.iter().any(|f| f.kind == "race"));
    let emulated = if a.confirm && has_race {
        Some(emulator_races(&a))
    } else {
        None
    };
    let confirmation =
        |f: &weft_verify::Finding| weft_verify::text::confirmation(f, emulated.as_ref());
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
    out::print(&weft_verify::text::text(&reports, &confirmation));
    code
}
