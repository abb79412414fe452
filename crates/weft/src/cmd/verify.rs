//! `weft verify`: static verification of a CUDA/OpenCL kernel (weft-verify: GPUVerify's
//! two-thread reduction with warps and atomics, paper 002). Prints `verified` or each
//! possible error with its counter-example.
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
    /// SMT solver.
    #[arg(long, value_parser = ["z3", "cvc5"], default_value = "z3")]
    solver: String,
    /// Per-query solver timeout in seconds.
    #[arg(long, default_value_t = 30)]
    timeout: u64,
    /// Print the reports as JSON.
    #[arg(long)]
    json: bool,
}

fn dims(s: &str) -> Result<[u32; 3], String> {
    weft_cuda::geometry::parse_dims(s)
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
        timeout_ms: a.timeout.max(1) * 1000,
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
    if a.json {
        out::line(&serde_json::to_string_pretty(&reports).unwrap_or_default());
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
