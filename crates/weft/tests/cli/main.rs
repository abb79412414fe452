//! The `weft` binary's end-to-end tests, one test binary (issue 25 item 6): each module is
//! one former `tests/NAME.rs` file and keeps its tests and their assertions; [`common`]
//! holds the helpers they share (the repository root, running `weft`, scratch directories).
//! Run one module with `cargo test -p weft --test cli MODULE::`, one test with `cargo test -p weft --test
//! cli MODULE::TEST`. The heavy switches still apply: `WEFT_MC_ALL`/`WEFT_MC_TIMEOUT`
//! (`mc_kernels`), `WEFT_VERIFY_ALL`/`WEFT_VERIFY_TIMEOUT` (`verify_soundness`), `WEFT_VERIFY_ALL`
//! (`verify_labelled`).

mod alu_smt;
mod campaign_cli;
mod cli;
mod common;
mod conformance;
mod cross_engine;
mod diagnostics;
mod diy_herd;
mod frontend;
mod gen_cli;
mod kernels;
mod locks_mc;
mod mc_cli;
mod mc_kernels;
mod mc_repair_kernels;
mod programs;
mod programs_scor;
mod programs_suite;
mod race_cli;
mod race_suite;
mod races;
mod results_cli;
mod run_cli;
mod run_kernel_cli;
mod run_quiet;
mod sim;
mod sim_scale;
mod verify_cli;
mod verify_labelled;
mod verify_soundness;
