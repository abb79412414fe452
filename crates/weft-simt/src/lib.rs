//! weft-simt: a SIMT emulator for weft kernels (issue 4; paper 003 §2–3.1, paper 002 §2).
//!
//! A [`weft_ir::kernel::Kernel`] (lowered from PTX by `weft-ptx`) runs on a grid of CTAs:
//! warps of 32 lanes execute in lock-step; a divergent branch pushes both paths on the warp's
//! reconvergence stack and the warp reconverges at the branch's immediate post-dominator
//! ([`weft_ir::analysis::KCfg::instr_ipdoms`]); each CTA has its own shared memory and 16
//! named barriers; global memory holds typed buffers; atomics are executed lane by lane
//! within a warp instruction. Barrier divergence (a warp reaching `bar.sync` with only some of its live threads, or threads of a
//! CTA meeting at a barrier from different instructions) is reported with thread indices and
//! source lines; a state where no warp can move is a deadlock; a step limit catches livelocks.
//! The scheduler interleaves warps of all resident CTAs round-robin or in a seeded random
//! order ([`Schedule`]). The event trace of paper 003 §3.1 is streamed to any
//! [`std::io::Write`] while the kernel runs, never accumulated.
//!
//! - [`decode`]: the compact pre-decoded instruction form;
//! - [`alu`]: typed lane arithmetic;
//! - [`mem`]: buffers, state spaces and generic addresses;
//! - [`machine`]: warps, CTAs, barriers, the scheduler and the trace;
//! - [`printf`]: device `printf` formatting over emulated memory;
//! - [`report`]: what `weft run-kernel` prints after a launch (text or JSON);
//! - [`sink`]: the structured trace events a race detector consumes;
//! - [`thread`]: one thread stepped alone to its next memory or synchronisation event (the
//!   model checker's view of a kernel).
//!
//! Semantics, trace format and limits: `docs/simt.md`.

pub mod alu;
pub mod decode;
pub mod machine;
pub mod mem;
pub mod printf;
pub mod report;
pub mod sink;
pub mod spec;
pub mod thread;

pub use machine::{
    run, Arg, Finding, LaunchConfig, Options, Outcome, Printed, Schedule, SimtError, Site, Stats,
};
pub use machine::{run_in_arena, run_with_sink};
pub use mem::{Buffer, ElemType, Value};
pub use sink::{AccessEvent, AccessOp, AccessSpace, BranchEvent, TraceSink, WarpAccess};
