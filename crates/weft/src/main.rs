//! The `weft` command-line tool: one binary, one subcommand per engine (DESIGN.md "apps").
//!
//! Exit codes (stable): 0 success; 1 a property was violated (a disagreement, a race, a
//! forbidden outcome); 2 bad input (unreadable file, parse error, unsupported conversion);
//! 3 internal or tool error.

mod cmd;
mod hw;
mod inputs;
mod kernel_cmd;
mod out;

use clap::{Parser, Subcommand};

/// weft: GPU concurrency toolkit — memory models, litmus tests, kernel bug finding.
#[derive(Parser)]
#[command(name = "weft", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse litmus tests (files or directories); print one line per failure and a summary.
    Parse(cmd::parse::Args),
    /// Print a litmus test in the canonical form of its format, or in another format.
    Show(cmd::show::Args),
    /// Simulate litmus tests under a .cat memory model (herd7-style output).
    Sim(cmd::sim::Args),
    /// Run a CUDA/OpenCL/PTX kernel on the SIMT emulator; print buffers and findings.
    RunKernel(kernel_cmd::RunArgs),
    /// Print the PTX a CUDA/OpenCL kernel compiles to (clang-19).
    Ptx(kernel_cmd::PtxArgs),
    /// List, show and export recorded litmus runs (the results database).
    Results(cmd::results::Args),
    /// Run litmus tests on a GPU (wgpu or CUDA): outcome histograms, checksums, results DB.
    Run(cmd::run::Args),
    /// Rank seeded random stress configurations by the weak behaviours they provoke.
    Tune(cmd::tune::Args),
    /// Run conformance tests under tuned stress; report outcomes the model forbids.
    Conform(cmd::conform::Args),
    /// Statically verify a CUDA/OpenCL kernel free of data races and barrier divergence.
    Verify(cmd::verify::Args),
}

/// Process exit codes.
pub mod exit {
    pub const OK: i32 = 0;
    pub const VIOLATION: i32 = 1;
    pub const BAD_INPUT: i32 = 2;
    pub const INTERNAL: i32 = 3;
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::BAD_INPUT
            } else {
                exit::OK
            };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    let code = match cli.command {
        Command::Parse(a) => cmd::parse::run(a),
        Command::Show(a) => cmd::show::run(a),
        Command::Sim(a) => cmd::sim::run(a),
        Command::RunKernel(a) => kernel_cmd::run_kernel(a),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Ptx(a) => kernel_cmd::run_ptx(a),
        Command::Results(a) => cmd::results::run(a),
        Command::Run(a) => cmd::run::run(a),
        Command::Tune(a) => cmd::tune::run(a),
        Command::Conform(a) => cmd::conform::run(a),
    };
    std::process::exit(code);
}
