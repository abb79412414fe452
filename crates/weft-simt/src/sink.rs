//! Structured trace events (paper 003 §3.1) delivered to a [`TraceSink`] while the kernel
//! runs: the same operations as the text trace, plus what a race detector needs and the text
//! format leaves out — the instruction (`pc`, for source lines), the access width, the value
//! a store or atomic writes, the raw operation (load, store, atomic kind), and barrier
//! arrivals with their lane masks.

use weft_ir::attrs::RmwOp;

use crate::decode::TraceKind;

/// Accesses a [`SinkBatch`] holds before it hands them on (four vector elements of 32 lanes).
const BATCH: usize = 128;

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

/// One warp instruction's scalar accesses, every lane in one memory space (what the
/// per-warp memory path performs): lane `l` of `mask` is thread `tid0 + l` accessing
/// `width` bytes at `addrs[l]` (as [`AccessEvent::addr`]) with value `values[l]`.
#[derive(Clone, Copy, Debug)]
pub struct WarpAccess<'a> {
    /// Global warp index.
    pub warp: u64,
    /// Global thread index of lane 0.
    pub tid0: u64,
    pub pc: u32,
    pub op: AccessOp,
    pub kind: TraceKind,
    pub space: AccessSpace,
    pub width: u8,
    /// The lanes that accessed (in lane order).
    pub mask: u32,
    pub addrs: &'a [u64; 32],
    pub values: &'a [u64; 32],
}

impl WarpAccess<'_> {
    /// Lane `l`'s access as a single event.
    #[inline]
    pub fn event(&self, l: usize) -> AccessEvent {
        AccessEvent {
            tid: self.tid0 + l as u64,
            pc: self.pc,
            op: self.op,
            kind: self.kind,
            space: self.space,
            addr: self.addrs[l],
            width: self.width,
            value: self.values[l],
        }
    }
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
    /// Consecutive accesses in trace order (the machine delivers a warp instruction's lane
    /// accesses in one call, before the next event of any other kind; a batch may hold the
    /// accesses of more than one instruction, e.g. after a fault). The default hands them to
    /// [`TraceSink::access`] one by one.
    fn access_batch(&mut self, evs: &[AccessEvent]) {
        for ev in evs {
            self.access(ev);
        }
    }
    /// A warp instruction's lane accesses in one call (the same events as
    /// [`TraceSink::access`] on each lane of `a.mask` in lane order, which the default does).
    fn access_warp(&mut self, a: &WarpAccess<'_>) {
        let mut m = a.mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            self.access(&a.event(l));
        }
    }
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

/// The machine's side of a sink: lane accesses are gathered (an inlined push, no virtual
/// call per lane) and handed to the sink in one [`TraceSink::access_batch`] call before any
/// other event, so the sink sees the same events in the same order as lane by lane.
pub(crate) struct SinkBatch<'a> {
    sink: &'a mut dyn TraceSink,
    buf: Vec<AccessEvent>,
}

impl<'a> SinkBatch<'a> {
    pub(crate) fn new(sink: &'a mut dyn TraceSink) -> Self {
        SinkBatch {
            sink,
            buf: Vec::with_capacity(BATCH),
        }
    }

    /// Hands the gathered accesses to the sink.
    #[inline]
    pub(crate) fn flush(&mut self) {
        if !self.buf.is_empty() {
            self.sink.access_batch(&self.buf);
            self.buf.clear();
        }
    }

    #[inline(always)]
    pub(crate) fn access(&mut self, ev: &AccessEvent) {
        if self.buf.len() == BATCH {
            self.flush();
        }
        self.buf.push(*ev);
    }

    #[inline]
    pub(crate) fn access_warp(&mut self, a: &WarpAccess<'_>) {
        self.flush();
        self.sink.access_warp(a);
    }

    pub(crate) fn endi(&mut self, warp: u64, mask: u32, pc: u32) {
        self.flush();
        self.sink.endi(warp, mask, pc);
    }

    pub(crate) fn branch(&mut self, ev: BranchEvent, warp: u64, mask: u32) {
        self.flush();
        self.sink.branch(ev, warp, mask);
    }

    pub(crate) fn bar_arrive(
        &mut self,
        cta: u64,
        warp: u64,
        mask: u32,
        id: u32,
        wait: bool,
        pc: u32,
    ) {
        self.flush();
        self.sink.bar_arrive(cta, warp, mask, id, wait, pc);
    }

    pub(crate) fn bar(&mut self, cta: u64, id: u32, all: bool) {
        self.flush();
        self.sink.bar(cta, id, all);
    }
}
