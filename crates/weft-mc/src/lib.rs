//! weft-mc: a stateless model checker that explores every execution of a program exactly
//! once (paper 004, GPUMC: TruSt-style exploration-optimal DPOR under scoped RC11, with the
//! GPU `.cat` models as consistency oracles).
//!
//! Modules: [`step`] (the stepping interface between driver and programs, and the litmus
//! stepper), [`graph`] (execution graphs), [`explore`] (the parallel DPOR driver),
//! [`native`] (RC11/scoped-RC11/SC consistency), [`litmus`] (judging litmus programs:
//! states, verdicts, flags, the `.cat` oracle), [`witness`] (DOT and interleavings),
//! [`mem`] (resident-set accounting), [`kernel`] (CUDA/OpenCL kernels: the kernel stepper,
//! barriers, divergence, deadlock, races with source lines), [`live`] (register liveness at
//! loop heads, for the spin-loop check), [`bounds`] (loops that terminate by themselves,
//! run to their end instead of cut at `--unroll`), [`repair`] (race repair, paper
//! 004 §4.1), [`repair_kernel`] (the repair loop over kernel sources), [`report`] (what
//! `weft mc` prints: serialisable reports, their text and verdict), [`repair_report`] (what
//! `weft mc --repair` prints), [`suite`] (the tally of `weft mc` over several tests), [`states`] (final states in a compact table, product
//! form past `max_states`), [`thinair`] (potential (po ∪ rf) cycles through a
//! dependency: the per-test note where they are not built), [`speculate`] (building them
//! by guessing values later writes justify), [`symmetry`]
//! (interchangeable threads: one execution per orbit, states expanded).
//!
//! Executions are explored over rf and co; under models with No-Thin-Air every graph is
//! (po ∪ rf)-acyclic by construction (paper 004 Fig. 3); under the others (`ptx-v7.5`,
//! `vulkan`, `opencl`, user models) load buffering is built by revisits through
//! independent events and by value speculation through dependencies (docs/mc.md,
//! "Dependency cycles").

pub mod bounds;
pub mod explore;
pub mod graph;
pub mod kernel;
pub mod litmus;
pub mod live;
pub mod mem;
pub mod native;
pub mod repair;
pub mod repair_kernel;
pub mod repair_report;
pub mod report;
pub mod speculate;
pub mod states;
pub mod step;
pub mod suite;
pub mod symmetry;
pub mod thinair;
pub mod witness;

pub use explore::{Counts, Stopped};
pub use litmus::{check_litmus, McError, McOptions, McResult, RaceSite};
