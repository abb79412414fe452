//! The `weft` command-line tool: one binary, one subcommand per engine (DESIGN.md "apps").
//!
//! Exit codes (stable): 0 success; 1 a property was violated (a disagreement, a race, a
//! forbidden outcome); 2 bad input (unreadable file, parse error, unsupported conversion);
//! 3 internal or tool error.

mod cmd;
mod exit;
mod inputs;
mod kernel_cmd;
mod launch;
mod out;

use clap::{Parser, Subcommand};

use exit::ExitCode;

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
    /// Compile, parse and lower a kernel; print its PTX (or --ir); exit 2 naming what is unsupported.
    Ptx(kernel_cmd::PtxArgs),
    /// Find data races in a kernel run on the SIMT emulator (BARRACUDA's analysis).
    Race(cmd::race::Args),
    /// List, show and export recorded litmus runs (the results database).
    Results(cmd::results::Args),
    /// Run litmus tests on a GPU (wgpu or CUDA): outcome histograms, checksums, results DB.
    Run(cmd::run::Args),
    /// Rank seeded random stress configurations by the weak behaviours they provoke.
    Tune(cmd::tune::Args),
    /// Run conformance tests under tuned stress; report outcomes the model forbids.
    Conform(cmd::conform::Args),
    /// Generate litmus tests from cycles of relaxations (diy7-style, GPU extensions).
    Gen(cmd::gen::Args),
    /// Serve the campaign web app and its JSON API (WebGPU litmus testing in browsers).
    Serve(cmd::serve::Args),
    /// Analyse a campaign's runs: best rates, device similarity, clusters, correlations.
    Analyze(cmd::analyze::Args),
    /// Upload recorded runs to a campaign server.
    Submit(cmd::submit::Args),
    /// Model check a litmus test: every execution once (optimal DPOR), errors with witnesses.
    Mc(cmd::mc::Args),
    /// Statically verify a CUDA/OpenCL kernel free of data races and barrier divergence.
    Verify(cmd::verify::Args),
    /// Build a whole CUDA program (nvcc-like options) against weft's CUDA runtime.
    Cc(cmd::program::CcArgs),
    /// Run a whole CUDA program with its kernels on the SIMT emulator.
    Exec(cmd::program::ExecArgs),
    /// Check a whole CUDA program's device memory accesses (compute-sanitizer's memcheck).
    Memcheck(cmd::program::MemcheckArgs),
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() {
                ExitCode::BadInput
            } else {
                ExitCode::Ok
            };
            let _ = e.print();
            std::process::exit(code.code());
        }
    };
    let code = match cli.command {
        Command::Parse(a) => cmd::parse::run(a),
        Command::Show(a) => cmd::show::run(a),
        Command::Sim(a) => cmd::sim::run(a),
        Command::RunKernel(a) => kernel_cmd::run_kernel(a),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Ptx(a) => kernel_cmd::run_ptx(a),
        Command::Race(a) => cmd::race::run(a),
        Command::Results(a) => cmd::results::run(a),
        Command::Run(a) => cmd::run::run(a),
        Command::Tune(a) => cmd::tune::run(a),
        Command::Conform(a) => cmd::conform::run(a),
        Command::Gen(a) => cmd::gen::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Analyze(a) => cmd::analyze::run(a),
        Command::Submit(a) => cmd::submit::run(a),
        Command::Mc(a) => cmd::mc::run(a),
        Command::Cc(a) => cmd::program::cc(a),
        Command::Exec(a) => cmd::program::exec(a),
        Command::Memcheck(a) => cmd::program::memcheck(a),
    };
    std::process::exit(code.code());
}
