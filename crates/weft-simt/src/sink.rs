//! Structured trace events (paper 003 §3.1) delivered to a [`TraceSink`] while the kernel
//! runs: the same operations as the text trace, plus what a race detector needs and the text
//! format leaves out — the instruction (`pc`, for source lines), the access width, the value
//! a store or atomic writes, the raw operation (load, store, atomic kind), and barrier
//! arrivals with their lane masks.

use weft_ir::attrs::RmwOp;

use crate::decode::TraceKind;

/// The memory space of a traced access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessSpace {
    /// Global memory; the address is the generic address.
    Global,
    /// Shared memory of the CTA with this linear index; the address is the offset.
    Shared(u64),
    /// Local memory of the accessing thread; the address is the offset.
    Local,
}

/// What the instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessOp {
    Load,
    Store,
    /// `atom`/`red` with its operation.
    Atomic(RmwOp),
}

/// One thread's access (one element of a vector access).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessEvent {
    /// Global linear thread index.
    pub tid: u64,
    /// Instruction index in the kernel.
    pub pc: u32,
    pub op: AccessOp,
    /// The emulator's own classification (the text trace's operation name).
    pub kind: TraceKind,
    pub space: AccessSpace,
    pub addr: u64,
    /// Bytes accessed.
    pub width: u8,
    /// For stores: the value written; for atomics: the value the location holds afterwards;
    /// for loads: the value read.
    pub value: u64,
}

/// Warp-level control events (paper 003 §3.1 `if`/`else`/`fi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchEvent {
    /// The warp diverged; the mask holds the lanes of the first (taken) path.
    If,
    /// The first path finished; the mask holds the lanes of the second path.
    Else,
    /// The paths reconverged; the mask is the reconverged active mask.
    Fi,
}

/// Receives the events of a run in trace order.
pub trait TraceSink {
    /// A thread's memory access; the accesses of one warp instruction are consecutive and
    /// followed by [`TraceSink::endi`].
    fn access(&mut self, ev: &AccessEvent);
    /// Global warp `warp` finished memory instruction `pc` with active lanes `mask`.
    fn endi(&mut self, warp: u64, mask: u32, pc: u32);
    /// A divergent branch, a path switch or a reconvergence of global warp `warp`.
    fn branch(&mut self, ev: BranchEvent, warp: u64, mask: u32);
    /// Lanes `mask` of global warp `warp` (CTA `cta`) arrived at barrier `id` at `pc`;
    /// `wait` is false for `bar.arrive` (the lanes go on without waiting).
    fn bar_arrive(&mut self, cta: u64, warp: u64, mask: u32, id: u32, wait: bool, pc: u32);
    /// Barrier `id` of CTA `cta` completed: every arrival since the last completion
    /// synchronises with the waiting lanes. `all`: the barrier had no thread count, so every
    /// thread of the CTA that had not exited took part.
    fn bar(&mut self, cta: u64, id: u32, all: bool);
}
