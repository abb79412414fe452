//! Kernel-IR analyses, computed once here for every engine (the SIMT emulator's
//! reconvergence, the model checker's spin-loop liveness, the verifier's loop cuts, the race
//! detector's predicated regions, the PTX lowering's annotation dependencies), one job per
//! file:
//!
//! - `regs.rs`: the registers each instruction reads and writes ([`KOp::uses`],
//!   [`KOp::defs`], [`KInstr::uses`], [`KInstr::must_defs`]) and [`RegSet`];
//! - `cfg.rs`: basic blocks, successors and predecessors ([`KCfg`]);
//! - `dom.rs`: dominators and post-dominators, and the instruction-level immediate
//!   post-dominators SIMT reconvergence uses;
//! - `loops.rs`: natural loops, their nesting and the loop-collapsed order of a region;
//! - `liveness.rs`: register liveness;
//! - [`sync`]: the trace operation (paper 003 §3.1) of each memory instruction.
//!
//! [`KOp::uses`]: crate::kernel::KOp::uses
//! [`KOp::defs`]: crate::kernel::KOp::defs
//! [`KInstr::uses`]: crate::kernel::KInstr::uses
//! [`KInstr::must_defs`]: crate::kernel::KInstr::must_defs

mod cfg;
mod dom;
mod liveness;
mod loops;
mod regs;
pub mod sync;

#[cfg(test)]
mod tests;

pub use cfg::{Block, BlockId, EdgeCond, KCfg, LoopId, Pc};
pub use loops::Loop;
pub use regs::RegSet;
