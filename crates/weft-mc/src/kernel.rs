//! Model checking CUDA/OpenCL kernels (paper 004 §2–§4): a [`KernelStepper`] runs every
//! thread of a small grid as one stepper thread over the lowered kernel IR, through
//! `weft-simt`'s single-thread stepper ([`weft_simt::thread`]: the emulator's decoding and
//! arithmetic), so the exploration driver ([`crate::explore`]) sees kernels and litmus
//! programs alike. Global and shared accesses, atomics and fences become events with their
//! order and scope (`cta`/`gpu`/`sys`), judged natively under scoped RC11 (or RC11/SC);
//! shared memory is per block.
//!
//! Barriers follow paper 004 §2: `bar.sync` is an acquire-release RMW (CTA scope) on an
//! auxiliary location per (barrier, block), then an acquire read that must see every thread
//! of the block arrive. A thread still waiting at a barrier in an execution that cannot be
//! extended is barrier divergence; all unfinished threads stuck otherwise is a deadlock.
//! Loops are unrolled to `unroll` iterations (cut executions are counted); a loop iteration
//! that wrote nothing and came back to the loop head with the registers live there
//! ([`crate::live`]) and the local memory as they were when it started is a spin loop whose
//! reads must see a new value to exit: the thread blocks there at once (an `assume`; GenMC's
//! spin-assume), and only a revisit of those reads by a later write moves it on. Errors (paper 004 §2.1):
//! assertion violations, data races, heterogeneous races (conflicting atomics not mutually
//! in scope), barrier divergence and deadlock, each with source lines and a witness.
//! A host-ordered sequence of launches ([`check_sequence`]: different kernels of one module,
//! each with its geometry and arguments, over one buffer list) is one program: every event
//! of a launch happens before every event of the next (a device-scope counter per boundary).
//! Warps have `--warp-size` lanes (default 32); collectives of different immediate member
//! masks have their own counters.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::Instant;

use weft_exec::event::{Cell, EventKind, TraceEvent};
use weft_ir::attrs::{BarrierKind, FenceKind, MemSpace};
use weft_ir::kernel::{KOp, Kernel, Operand};
use weft_ir::{Arch, LocId, Location, MemAttrs, Order, Placement, Program, Scope, Span, Thread};
use weft_simt::mem::Region;
use weft_simt::thread::{AccessKind, Stop, ThreadIds, ThreadProgram, ThreadState, WarpOp};
use weft_simt::{Arg, Buffer, LaunchConfig};

use crate::explore::{in_pool, Counts, Explorer, Judge, Limits, Stopped};
use crate::graph::{EvId, Graph, Src, Status};
use crate::live::LoopHeads;
use crate::native::{self, Native};
use crate::step::{Action, ReadFix, Stepper};
use crate::witness;

/// `--textual-barriers`: a slot per source position of the kernel's CTA barriers without a
/// thread count (`__syncthreads`, OpenCL `barrier`), from [`BARRIERS`] on; an instruction
/// without a source position is a position of its own (paper 004 §2: threads of a block
/// must meet at the same textual barrier).
fn textual_barrier_slots(k: &Kernel) -> Vec<(u32, u32)> {
    // A barrier's key: its source position (file, line, column), or its pc without one.
    type Key = (Option<(u32, u32, u32)>, u32);
    let mut keys: Vec<Key> = Vec::new();
    let mut out = Vec::new();
    for (pc, i) in k.code.iter().enumerate() {
        let KOp::Barrier {
            kind: BarrierKind::Sync,
            count: None,
            ..
        } = &i.op
        else {
            continue;
        };
        let pos = i
            .loc
            .filter(|l| l.line != 0)
            .map(|l| (l.file, l.line, l.col));
        let key = (pos, if pos.is_some() { 0 } else { pc as u32 });
        let n = match keys.iter().position(|x| *x == key) {
            Some(n) => n,
            None => {
                keys.push(key);
                keys.len() - 1
            }
        };
        out.push((pc as u32, BARRIERS + n as u32));
    }
    out
}

/// Options of a kernel model-checking run.
#[derive(Clone, Debug)]
pub struct KernelOptions {
    /// Iterations a loop may run before the execution is cut.
    pub unroll: u32,
    pub model: Native,
    pub stop_on_first: bool,
    pub timeout: Option<std::time::Duration>,
    pub max_memory: Option<u64>,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Most GPU threads a launch may have (each is a thread of the exploration).
    pub max_threads: u64,
    /// `--replay`: explore only the execution this witness graph describes.
    pub guide: Option<WitnessGraph>,
    /// Host-ordered launches of the kernel (`--launches N`): buffers persist, every event
    /// of launch k happens before every event of launch k+1.
    pub launches: u32,
    /// Lanes per warp (`--warp-size`, 1 to 32; default [`WARP`]).
    pub warp_size: u32,
    /// `--textual-barriers`: CTA barriers (`bar.sync` without a thread count) at different
    /// source positions are different barriers, as paper 004 §2 and GPUVerify define
    /// barrier divergence (and CUDA's rule that a `__syncthreads` be reached by the whole
    /// block); by default they match by their PTX id, as the hardware matches them.
    pub textual_barriers: bool,
}

/// A witness execution's reads-from and coherence choices, by (thread, event index):
/// enough to rebuild it (`--replay`), since each thread is deterministic given the values
/// its reads return.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WitnessGraph {
    /// Per read: the read, and the write it reads from (`None`: the initial value).
    pub rf: Vec<(EvId, Option<EvId>)>,
    /// Per memory cell written: its writes in coherence order.
    pub co: Vec<(u32, Vec<(u32, u32)>)>,
}

impl WitnessGraph {
    pub(crate) fn of<S>(g: &Graph<S>) -> WitnessGraph {
        let mut w = WitnessGraph::default();
        for (t, th) in g.th.iter().enumerate() {
            for (i, n) in th.nodes.iter().enumerate() {
                if let Some(src) = n.rf {
                    let s = match src {
                        Src::Init => None,
                        Src::Ev(e) => Some(e),
                    };
                    w.rf.push(((t as u32, i as u32), s));
                }
            }
        }
        for (c, ws) in g.co.iter().enumerate() {
            if !ws.is_empty() {
                w.co.push((c as u32, ws.clone()));
            }
        }
        w
    }

    /// Whether graph `g` agrees with the witness. A read whose witness source is not in the
    /// graph yet is pending (a later write will revisit it), and events added after the
    /// first pending read may still be deleted by that revisit, so only the events added
    /// before it are compared: their sources, and the coherence order of their writes.
    /// `strict` (a finished execution): nothing may be pending.
    pub(crate) fn admits<S>(&self, g: &Graph<S>, strict: bool) -> bool {
        let rf: std::collections::HashMap<_, _> = self.rf.iter().cloned().collect();
        let present = |e: (u32, u32)| {
            g.th.get(e.0 as usize)
                .is_some_and(|t| (e.1 as usize) < t.nodes.len())
        };
        let mut horizon = u32::MAX;
        for (t, th) in g.th.iter().enumerate() {
            for (i, n) in th.nodes.iter().enumerate() {
                if n.rf.is_some() {
                    if let Some(Some(src)) = rf.get(&(t as u32, i as u32)) {
                        if !present(*src) {
                            horizon = horizon.min(n.stamp);
                        }
                    }
                }
            }
        }
        if strict && horizon != u32::MAX {
            return false;
        }
        for (t, th) in g.th.iter().enumerate() {
            for (i, n) in th.nodes.iter().enumerate() {
                if n.stamp >= horizon {
                    continue;
                }
                if let Some(src) = n.rf {
                    let s = match src {
                        Src::Init => None,
                        Src::Ev(e) => Some(e),
                    };
                    if rf.get(&(t as u32, i as u32)) != Some(&s) {
                        return false;
                    }
                }
            }
        }
        for (c, ws) in g.co.iter().enumerate() {
            let settled: Vec<&(u32, u32)> =
                ws.iter().filter(|w| g.node(**w).stamp < horizon).collect();
            if settled.is_empty() {
                continue;
            }
            let Some((_, order)) = self.co.iter().find(|(x, _)| *x as usize == c) else {
                return false;
            };
            let mut last = None;
            for w in settled {
                let Some(p) = order.iter().position(|x| x == w) else {
                    return false;
                };
                if last.is_some_and(|l| p < l) {
                    return false;
                }
                last = Some(p);
            }
        }
        true
    }
}

impl Default for KernelOptions {
    fn default() -> Self {
        KernelOptions {
            unroll: 2,
            model: Native::ScopedRc11,
            stop_on_first: false,
            timeout: None,
            max_memory: None,
            threads: 0,
            max_threads: 256,
            guide: None,
            launches: 1,
            warp_size: WARP,
            textual_barriers: false,
        }
    }
}

/// Why a kernel cannot be checked (bad input: exit 2).
#[derive(Clone, Debug)]
pub enum KernelError {
    /// An instruction the checker does not model, at its source position.
    Unsupported { pos: String, what: String },
    /// The launch cannot be set up (geometry, arguments, memory too large).
    Launch(String),
}

impl std::fmt::Display for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KernelError::Unsupported { pos, what } => {
                write!(f, "{pos}: not supported by the model checker: {what}")
            }
            KernelError::Launch(m) => write!(f, "{m}"),
        }
    }
}

/// One kind of error found, with its first witness.
#[derive(Clone, Debug, serde::Serialize)]
pub struct KernelErrorReport {
    /// `assertion`, `data-race`, `hetero-race`, `divergence`, `deadlock` or `fault`.
    pub kind: String,
    /// Source lines of the first occurrence, ascending.
    pub lines: Vec<u32>,
    /// Executions showing this kind of error.
    pub executions: u64,
    /// The threads involved (`b<block>t<thread>`): racing, failing, or blocked.
    pub threads: Vec<String>,
    /// One line describing the first occurrence.
    pub message: String,
    /// The witness: events in order of addition.
    pub witness: String,
    /// The witness as a Graphviz digraph.
    #[serde(skip)]
    pub dot: String,
    /// The witness's choices, for `--replay`.
    pub graph: WitnessGraph,
}

/// One side of a racing pair of kernel statements: its source position and how it accesses
/// memory (for repair, paper 004 §4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct RaceSide {
    pub line: u32,
    pub col: u32,
    pub write: bool,
    /// An atomic access (not plain).
    pub atomic: bool,
    /// The access's scope (atomics).
    pub scope: Option<Scope>,
}

/// A racing pair of kernel statements over every explored execution (`a` <= `b`), with the
/// narrowest scope holding the threads of every racing instance (CTA when they all share a
/// block, else device) and one pair of racing threads.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct KernelRace {
    pub a: RaceSide,
    pub b: RaceSide,
    /// Heterogeneous (both atomic, scopes not inclusive) rather than a data race.
    pub hetero: bool,
    pub need: Scope,
    /// One racing instance: the threads of `a` and `b` (`b<block>t<thread>`).
    pub threads: (String, String),
}

/// The outcome of model checking a kernel launch.
#[derive(Clone, Debug)]
pub struct KernelResult {
    pub counts: Counts,
    /// Executions ending with threads stuck (divergence, deadlock): maximal, not complete.
    pub stuck: u64,
    pub errors: Vec<KernelErrorReport>,
    /// `--replay`: complete executions that were not the witness (built on the way to it).
    pub unmatched: u64,
    pub stopped: Option<Stopped>,
    pub seconds: f64,
    /// GPU threads explored and memory cells modelled.
    pub threads: usize,
    pub cells: usize,
    /// Every racing pair of statements found (ordered by source position).
    pub races: Vec<KernelRace>,
    /// Where executions were cut (`counts.cut`): each loop's source line (its backward
    /// branch), ascending, and whether the cut came from the safety limit of a loop that
    /// terminates by itself rather than from `--unroll`.
    pub cut_sites: Vec<CutSite>,
}

/// A loop in which executions were cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CutSite {
    /// Source line of the loop's backward branch (0: no line information).
    pub line: u32,
    /// The loop terminates by itself ([`crate::bounds`]) and ran past the safety limit of
    /// iterations; otherwise it was cut at `--unroll`.
    pub self_bounded: bool,
}

impl KernelResult {
    /// No execution was explored to its end (every one was cut, blocked or faulted) and no
    /// error was found: the run verified nothing (exit 3, not "no errors").
    pub fn vacuous(&self) -> bool {
        self.errors.is_empty() && self.counts.complete - self.unmatched + self.stuck == 0
    }
}

/// Barriers per block (PTX: 16 named barriers).
const BARRIERS: u32 = 16;
/// Lanes per warp by default (PTX's `WARP_SZ`, the SIMT emulator's warp).
pub const WARP: u32 = 32;
/// Instructions a thread may run without an event before it is reported.
const STEP_BUDGET: u64 = 1 << 22;
/// Iterations of a loop that terminates by itself ([`crate::bounds`]) before the execution
/// is cut all the same (a loop of the launch's size ends long before; one that does not
/// end is cut and reported here rather than explored forever).
const SELF_BOUNDED_LIMIT: u32 = 1 << 14;
/// Most memory cells modelled.
const MAX_CELLS: usize = 1 << 16;

/// A memory area mapped to cells: one location of the synthetic program.
struct Area {
    region: Region,
    /// Block for shared memory and barriers (`u32::MAX`: global).
    block: u32,
    base: u64,
    bytes: u64,
}

/// One launch of a host-ordered sequence: a kernel, its geometry, its arguments
/// (`Arg::Buffer(i)` is buffer `i` of the sequence: every launch sees the same buffers, so a
/// buffer named by two launches is one memory), and how it is shown (`producer<<<1,2>>>`).
#[derive(Clone, Debug)]
pub struct Launch<'k> {
    pub kernel: &'k Kernel,
    pub cfg: LaunchConfig,
    pub args: Vec<Arg>,
    pub label: String,
}

/// A kernel of the sequence, decoded for its launch.
struct Part<'k> {
    prog: ThreadProgram<'k>,
    kernel: &'k Kernel,
    /// Threads per block, blocks.
    bt: u32,
    nb: u32,
    /// The `.file` index of the kernel's own source ([`main_file`]).
    main_file: u32,
    /// Loop heads and the registers live there (the spin-loop check).
    heads: LoopHeads,
    /// Per pc: a backward branch closing a loop that terminates by itself
    /// ([`crate::bounds::self_bounded`]): not cut at `--unroll`.
    bounded: Vec<bool>,
    has_warp_ops: bool,
    /// The member masks its warp collectives give as immediates, in order of first
    /// appearance: collectives of one mask have their own counter and exchange slots (group
    /// `i`), any other mask (a register) shares group `masks.len()`.
    masks: Vec<u32>,
    /// `--textual-barriers`: (pc, slot) of each CTA barrier without a thread count; the
    /// instructions of one source position share a slot (the compiler's copies of one
    /// textual barrier), slots count from [`BARRIERS`] in the block's barrier area.
    bar_slots: Vec<(u32, u32)>,
}

/// A launch of the exploration: its part, its first thread and first block (in the
/// combined numbering of every launch), its threads.
#[derive(Clone, Copy, Debug)]
struct Run {
    part: usize,
    first_thread: u32,
    first_block: u32,
    threads: u32,
}

/// The kernel stepper: one exploration thread per GPU thread of every launch.
pub struct KernelStepper<'k> {
    parts: Vec<Part<'k>>,
    runs: Vec<Run>,
    /// Per thread: its launch (index in `runs`) and its block in the combined numbering.
    tl: Vec<(u32, u32)>,
    ids: Vec<ThreadIds>,
    unroll: u32,
    /// Lanes per warp (`--warp-size`, default 32).
    warp: u32,
    /// Areas (location i of `program`), and the first barrier location (one per block).
    areas: Vec<Area>,
    bar_base: u32,
    /// Per block: its warp area ([`Self::warp_words`] words per member-mask group per warp),
    /// when its kernel has warp collectives.
    warp_loc: Vec<Option<u32>>,
    /// The launch-boundary counters (host-ordered launches).
    host_base: Option<u32>,
    /// The launches as shown to the user (`l0 = producer<<<1,2>>>, ...`), when the sequence
    /// has more than one kernel: witnesses start with it.
    pub legend: String,
    /// The synthetic program naming threads (with their placement) and locations.
    pub program: Program,
    pub cells: Vec<Cell>,
    pub init: Vec<i64>,
    /// The loops executions were cut in: (source line of the backward branch, whether the
    /// loop terminates by itself and ran past [`SELF_BOUNDED_LIMIT`]).
    cut_sites: std::sync::Mutex<std::collections::BTreeSet<(u32, bool)>>,
}

/// Why a thread is blocked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockedAt {
    /// Waiting at the barrier instruction `pc` (id `id`).
    Barrier { pc: u32, id: u32 },
    /// A spin loop at `pc` that re-read the same values; its reads since event `from`.
    Spin { pc: u32, from: usize },
}

#[derive(Clone, Debug)]
enum Cont {
    /// Emit the read of element `k` of the load at pc.
    LoadElem { k: usize },
    /// Emit the wait read of a barrier (until the counter reaches `target`).
    BarWait {
        cell: (Cell, LocId),
        target: u64,
        id: u32,
    },
    /// Emit the arrival read of the warp collective in progress.
    WarpArrive,
    /// Emit the departure read of a warp collective.
    WarpWait { cell: (Cell, LocId), target: u64 },
    /// Read the next exchange slot of the warp collective in progress (or finish it).
    WarpExchange,
}

#[derive(Clone, Debug)]
enum Pending {
    Load {
        k: usize,
    },
    Atom {
        width: usize,
    },
    BarRmw {
        cell: (Cell, LocId),
        target: u64,
        id: u32,
        arrive: bool,
        /// The counter value this thread's arrival must read (arrivals in thread order).
        expect: Option<u64>,
    },
    BarWait {
        target: u64,
        id: u32,
    },
    /// A warp collective's arrival (the counter value this lane must read).
    WarpRmw {
        cell: (Cell, LocId),
        expect: u64,
    },
    /// A warp collective's departure: every member has arrived.
    WarpWait {
        target: u64,
    },
    /// A warp collective's read of member `lane`'s exchange slot.
    WarpSlot {
        lane: u32,
    },
    /// Host-ordered launches: the start of a thread of launch l+1 (waits for launch l), and
    /// the end of a thread of launch l (its increment of boundary counter l).
    HostWait,
    HostEnd {
        cell: (Cell, LocId),
    },
}

/// A warp collective in progress (paper 004 §2's barrier encoding over the member lanes,
/// plus an exchange of the lanes' values through per-lane slots).
#[derive(Clone, Debug)]
struct WarpCall {
    op: WarpOp,
    /// The member-mask group (its counter and exchange slots).
    group: u32,
    /// The member lanes (the mask clipped to the warp's lanes).
    members: u32,
    /// The bank of exchange slots (generation parity).
    bank: u32,
    /// Vote: the ballot so far, and the members still to read.
    ballot: u32,
    todo: u32,
    /// Shuffle: the value read.
    result: Option<u64>,
    /// Match: the members' values read so far, by lane.
    values: Vec<(u32, u64)>,
    /// The counter value this lane's arrival reads, and the value all arrivals reach.
    expect: u64,
    target: u64,
}

#[derive(Clone, Debug)]
struct LoopMark {
    target: u32,
    iters: u32,
}

/// The thread's last arrival at a watched point (a branch target): its live state there and
/// its write and event counts then.
#[derive(Clone, Debug)]
struct SpinMark {
    pc: u32,
    hash: u64,
    writes: u32,
    events: usize,
}

/// A GPU thread's state in the exploration.
#[derive(Clone, Debug)]
pub struct KState {
    th: ThreadState,
    cur: Option<weft_simt::thread::Access>,
    cont: Option<Cont>,
    pending: Option<Pending>,
    queue: Vec<TraceEvent>,
    nevents: usize,
    writes: u32,
    loops: Vec<LoopMark>,
    spins: Vec<SpinMark>,
    bar_gen: Vec<(u32, u32)>,
    /// Warp collectives this lane has entered, per member-mask group.
    warp_gen: Vec<u32>,
    /// Host-ordered launches: the thread waited for the previous launch; it ended (its
    /// launch-boundary increment is made or under way).
    started: bool,
    ended: bool,
    warp: Option<WarpCall>,
    pub blocked: Option<BlockedAt>,
    /// A loop (head, back-edge pc) whose back edge was taken past the unroll bound: the
    /// execution is cut when the thread's next step is inside it again.
    over: Option<(u32, u32)>,
}

/// The thread's state as far as its future goes at loop head `pc`: the registers live there
/// and the local memory.
fn hash_live(th: &ThreadState, live: &[u32]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    th.pc.hash(&mut h);
    for r in live {
        th.regs.get(*r as usize).hash(&mut h);
    }
    th.local.hash(&mut h);
    h.finish()
}

impl<'k> KernelStepper<'k> {
    /// Sets up one kernel launch (`opts.launches` host-ordered times): decodes the kernel,
    /// lays out memory, names the cells.
    pub fn new(
        kernel: &'k Kernel,
        cfg: LaunchConfig,
        args: &[Arg],
        buffers: &[Buffer],
        names: &[String],
        opts: &KernelOptions,
    ) -> Result<Self, KernelError> {
        let one = Launch {
            kernel,
            cfg,
            args: args.to_vec(),
            label: String::new(),
        };
        Self::sequence(&[one], buffers, names, opts)
    }

    /// Sets up a host-ordered sequence of launches (repeated `opts.launches` times): every
    /// launch sees `buffers` at the same addresses, so a buffer two launches name is one
    /// memory; module variables persist too; shared memory, barriers and warp counters are
    /// fresh per launch (its blocks are different CTAs).
    pub fn sequence(
        seq: &[Launch<'k>],
        buffers: &[Buffer],
        names: &[String],
        opts: &KernelOptions,
    ) -> Result<Self, KernelError> {
        if seq.is_empty() {
            return Err(KernelError::Launch("no launch to check".into()));
        }
        let warp = opts.warp_size;
        if !(1..=32).contains(&warp) {
            return Err(KernelError::Launch(format!(
                "--warp-size {warp}: a warp has 1 to 32 lanes"
            )));
        }
        let mut parts = Vec::new();
        for l in seq {
            let prog = ThreadProgram::new(l.kernel, l.cfg, &l.args, buffers)
                .map_err(|e| KernelError::Launch(e.to_string()))?
                .with_warp_size(warp);
            if let Some((pc, what)) = prog.unsupported().first() {
                return Err(KernelError::Unsupported {
                    pos: describe(l.kernel, *pc),
                    what: what.to_string(),
                });
            }
            let (bt, nb) = (l.cfg.block_threads(), l.cfg.grid_ctas());
            if bt == 0 || nb == 0 {
                return Err(KernelError::Launch(
                    "grid and block dimensions must be at least 1".into(),
                ));
            }
            if bt * nb > opts.max_threads {
                return Err(KernelError::Launch(format!(
                    "{} threads ({nb} blocks of {bt}): the model checker explores at most {} (give a smaller --grid/--block)",
                    bt * nb,
                    opts.max_threads
                )));
            }
            let has_warp_ops = l.kernel.code.iter().any(|i| {
                matches!(
                    i.op,
                    KOp::Shfl { .. }
                        | KOp::Vote { .. }
                        | KOp::Match { .. }
                        | KOp::Barrier {
                            kind: BarrierKind::Warp,
                            ..
                        }
                )
            });
            let mut masks = Vec::new();
            for i in &l.kernel.code {
                let m = match &i.op {
                    KOp::Shfl { mask, .. } | KOp::Vote { mask, .. } | KOp::Match { mask, .. } => {
                        mask
                    }
                    KOp::Barrier {
                        kind: BarrierKind::Warp,
                        id,
                        ..
                    } => id,
                    _ => continue,
                };
                if let Operand::Imm(v) = m {
                    if !masks.contains(&(*v as u32)) {
                        masks.push(*v as u32);
                    }
                }
            }
            let bar_slots = if opts.textual_barriers {
                textual_barrier_slots(l.kernel)
            } else {
                Vec::new()
            };
            parts.push(Part {
                prog,
                kernel: l.kernel,
                bt: bt as u32,
                nb: nb as u32,
                main_file: main_file(l.kernel),
                heads: LoopHeads::of(l.kernel),
                bounded: crate::bounds::self_bounded(l.kernel),
                has_warp_ops,
                masks,
                bar_slots,
            });
        }
        // Module variables lie after the buffers at the same place for every kernel of one
        // module (module-scope variables come first, in declaration order); kernels that
        // lay them out differently cannot share them.
        let gvars = |k: &Kernel| -> Vec<(String, u64)> {
            k.vars
                .iter()
                .filter(|v| matches!(v.space, MemSpace::Global | MemSpace::Constant))
                .map(|v| (v.name.clone(), v.size))
                .collect()
        };
        for p in &parts[1..] {
            if gvars(p.kernel) != gvars(parts[0].kernel)
                || p.prog.global_init.len() != parts[0].prog.global_init.len()
            {
                return Err(KernelError::Launch(format!(
                    "kernels {} and {} declare different global variables: a sequence of launches needs kernels of one module",
                    parts[0].kernel.name, p.kernel.name
                )));
            }
        }
        let repeat = opts.launches.max(1) as usize;
        let total: u64 = seq
            .iter()
            .map(|l| l.cfg.block_threads() * l.cfg.grid_ctas())
            .sum::<u64>()
            * repeat as u64;
        if total > opts.max_threads {
            return Err(KernelError::Launch(format!(
                "{total} threads over {} launches: the model checker explores at most {} (give a smaller --grid/--block or fewer launches)",
                seq.len() * repeat,
                opts.max_threads
            )));
        }
        let nruns = seq.len() * repeat;
        let mut runs = Vec::new();
        let (mut ft, mut fb) = (0u32, 0u32);
        for i in 0..nruns {
            let part = i % seq.len();
            let (bt, nb) = (parts[part].bt, parts[part].nb);
            runs.push(Run {
                part,
                first_thread: ft,
                first_block: fb,
                threads: bt * nb,
            });
            ft += bt * nb;
            fb += nb;
        }
        let nblocks = fb;
        let mut program = Program::new(Arch::Ptx, parts[0].kernel.name.clone());
        let mut ids = Vec::new();
        let mut tl = Vec::new();
        for (li, r) in runs.iter().enumerate() {
            let cfg = seq[r.part].cfg;
            let bt = parts[r.part].bt;
            for b in 0..parts[r.part].nb {
                let cta = [
                    b % cfg.grid[0],
                    (b / cfg.grid[0]) % cfg.grid[1],
                    b / (cfg.grid[0] * cfg.grid[1]),
                ];
                let gb = r.first_block + b;
                for t in 0..bt {
                    ids.push(ThreadIds { cta, tid: t });
                    tl.push((li as u32, gb));
                    let name = if nruns > 1 {
                        format!("l{li}b{b}t{t}")
                    } else {
                        format!("b{b}t{t}")
                    };
                    let mut th = Thread::new(name);
                    th.placement = Placement::new(vec![(Scope::Cta, gb), (Scope::Gpu, 0)]);
                    program.threads.push(th);
                }
            }
        }
        // Areas: buffers, the rest of the global arena (module variables), shared memory
        // per block (per variable), barrier counters per block, warp areas per block.
        let prog0 = &parts[0].prog;
        let mut areas = Vec::new();
        let offs = &prog0.buffer_offsets;
        let arena = prog0.global_init.len() as u64;
        for (i, b) in buffers.iter().enumerate() {
            let name = names.get(i).cloned().unwrap_or_else(|| b.name.clone());
            areas.push((
                name,
                Area {
                    region: Region::Global,
                    block: u32::MAX,
                    base: offs[i],
                    bytes: b.data.len() as u64,
                },
            ));
        }
        let vars_base = offs
            .last()
            .zip(buffers.last())
            .map(|(o, b)| (o + b.data.len() as u64).div_ceil(256) * 256 + 256)
            .unwrap_or(0);
        if arena > vars_base {
            areas.push((
                "globals".to_string(),
                Area {
                    region: Region::Global,
                    block: u32::MAX,
                    base: vars_base,
                    bytes: arena - vars_base,
                },
            ));
        }
        let block_part = |gb: u32| -> &Part<'k> {
            let r = runs
                .iter()
                .rev()
                .find(|r| r.first_block <= gb)
                .unwrap_or(&runs[0]);
            &parts[r.part]
        };
        for b in 0..nblocks {
            let p = block_part(b);
            let shared = p.prog.shared_bytes();
            let (soffs, _) = p.kernel.layout(MemSpace::Shared);
            let mut covered = 0u64;
            for (i, v) in p.kernel.vars.iter().enumerate() {
                if v.space == MemSpace::Shared && v.size > 0 && soffs[i] >= covered {
                    areas.push((
                        format!("{}@b{b}", v.name),
                        Area {
                            region: Region::Shared,
                            block: b,
                            base: soffs[i],
                            bytes: v.size,
                        },
                    ));
                    covered = soffs[i] + v.size;
                }
            }
            if shared > covered {
                areas.push((
                    format!("shared@b{b}"),
                    Area {
                        region: Region::Shared,
                        block: b,
                        base: covered,
                        bytes: shared - covered,
                    },
                ));
            }
        }
        let bar_base = areas.len() as u32;
        for b in 0..nblocks {
            areas.push((
                format!("barrier@b{b}"),
                Area {
                    region: Region::Local,
                    block: b,
                    base: 0,
                    bytes: u64::from(BARRIERS + block_part(b).bar_slots.len() as u32) * 4,
                },
            ));
        }
        let mut warp_loc = Vec::new();
        for b in 0..nblocks {
            let p = block_part(b);
            if !p.has_warp_ops {
                warp_loc.push(None);
                continue;
            }
            warp_loc.push(Some(areas.len() as u32));
            let warps = u64::from(p.bt.div_ceil(warp)) * (p.masks.len() as u64 + 1);
            areas.push((
                format!("warp@b{b}"),
                Area {
                    region: Region::Local,
                    block: b,
                    base: 0,
                    bytes: warps * u64::from(1 + 2 * warp) * 4,
                },
            ));
        }
        // One counter per launch boundary: launch l's threads increment counter l as they
        // end, launch l+1's threads start once it reaches the launch's thread count.
        let host_base = (nruns > 1).then_some(areas.len() as u32);
        if nruns > 1 {
            areas.push((
                "host".to_string(),
                Area {
                    region: Region::Local,
                    block: u32::MAX,
                    base: 0,
                    bytes: (nruns as u64 - 1) * 4,
                },
            ));
        }
        let ncells: u64 = areas.iter().map(|(_, a)| a.bytes.div_ceil(4)).sum();
        if ncells as usize > MAX_CELLS {
            return Err(KernelError::Launch(format!(
                "{ncells} memory words to model (at most {MAX_CELLS}): give smaller --buffer sizes"
            )));
        }
        let mut cells = Vec::new();
        let mut init = Vec::new();
        let mut out_areas = Vec::new();
        for (i, (name, a)) in areas.into_iter().enumerate() {
            let words = a.bytes.div_ceil(4);
            for w in 0..words {
                cells.push(Cell {
                    loc: LocId(i as u32),
                    index: w as u32,
                });
                let v = if a.region == Region::Global {
                    let off = a.base + w * 4;
                    let width = (a.base + a.bytes - off).min(8) as usize;
                    prog0.global_initial(off, width)
                } else {
                    0
                };
                init.push(v as i64);
            }
            let mut l = Location::scalar(name, 0);
            l.size = words as u32;
            program.locations.push(l);
            out_areas.push(a);
        }
        let legend = if seq.len() > 1 {
            let all: Vec<String> = (0..nruns)
                .map(|i| format!("l{i} = {}", seq[i % seq.len()].label))
                .collect();
            format!("launches (host-ordered): {}\n", all.join(", "))
        } else {
            String::new()
        };
        Ok(KernelStepper {
            parts,
            runs,
            tl,
            ids,
            unroll: opts.unroll.max(1),
            warp,
            areas: out_areas,
            bar_base,
            warp_loc,
            host_base,
            legend,
            program,
            cells,
            init,
            cut_sites: Default::default(),
        })
    }

    /// The kernel thread `t` runs, decoded.
    fn part(&self, t: usize) -> &Part<'k> {
        &self.parts[self.runs[self.tl[t].0 as usize].part]
    }

    /// Thread `t`'s block in the combined numbering of every launch.
    fn block_of(&self, t: usize) -> u32 {
        self.tl[t].1
    }

    /// Words per warp in a warp area: the collective's arrival counter, then two banks (by
    /// the parity of the collective's generation) of one exchange slot per lane.
    fn warp_words(&self) -> u32 {
        1 + 2 * self.warp
    }

    /// The cell of an access by thread `t`.
    fn cell(&self, t: usize, region: Region, off: u64) -> Option<(Cell, LocId)> {
        let b = self.block_of(t);
        self.areas
            .iter()
            .enumerate()
            .find(|(_, a)| {
                a.region == region
                    && (region != Region::Shared || a.block == b)
                    && off >= a.base
                    && off < a.base + a.bytes
            })
            .map(|(i, a)| {
                let loc = LocId(i as u32);
                (
                    Cell {
                        loc,
                        index: ((off - a.base) / 4) as u32,
                    },
                    loc,
                )
            })
    }

    /// The counter of barrier `slot` (a PTX id, or from [`BARRIERS`] on a textual
    /// barrier's slot) in thread `t`'s block.
    fn bar_cell(&self, t: usize, slot: u32) -> (Cell, LocId) {
        let loc = LocId(self.bar_base + self.block_of(t));
        let index = if slot < BARRIERS || self.part(t).bar_slots.is_empty() {
            slot % BARRIERS
        } else {
            slot
        };
        (Cell { loc, index }, loc)
    }

    /// Word `word` of member-mask group `group` of thread `t`'s warp in its block's warp
    /// area.
    fn warp_cell(&self, t: usize, group: u32, word: u32) -> Option<(Cell, LocId)> {
        let groups = self.part(t).masks.len() as u32 + 1;
        let w = self.ids[t].tid / self.warp;
        let loc = LocId(self.warp_loc[self.block_of(t) as usize]?);
        Some((
            Cell {
                loc,
                index: (w * groups + group) * self.warp_words() + word,
            },
            loc,
        ))
    }

    /// The member-mask group of a collective with mask operand `mask` in thread `t`'s
    /// kernel: collectives of one mask count their arrivals apart from those of another
    /// (a half-warp `__syncwarp(0xffff)` beside full-warp collectives), as PTX matches them.
    fn mask_group(&self, t: usize, mask: u32) -> u32 {
        let m = &self.part(t).masks;
        m.iter().position(|x| *x == mask).unwrap_or(m.len()) as u32
    }

    /// The lanes of thread `t`'s warp that exist (a last, partial warp has fewer).
    fn warp_lanes(&self, t: usize) -> u32 {
        let tid = self.ids[t].tid;
        let first = tid - tid % self.warp;
        let n = (self.part(t).bt - first).min(self.warp);
        if n == 32 {
            u32::MAX
        } else {
            (1u32 << n) - 1
        }
    }

    /// Enters a warp collective (paper 004 §2's barrier encoding, over the member lanes):
    /// a shuffle or vote first publishes this lane's value in its exchange slot (a relaxed
    /// CTA-scope write; the bank alternates with the generation, so a slot is rewritten only
    /// after every member has read it), then arrives (an acquire-release RMW on the warp's
    /// counter, lanes in lane order as for barriers) and departs when all members arrived;
    /// then it reads the slots it needs. A member that never arrives leaves the others
    /// blocked: divergence, as for barriers.
    fn warp_enter(&self, t: usize, s: &mut KState, op: WarpOp) -> Action {
        let pc = s.th.pc;
        let lane = self.ids[t].tid % self.warp;
        let mask = match op {
            WarpOp::Sync { mask }
            | WarpOp::Shfl { mask, .. }
            | WarpOp::Vote { mask, .. }
            | WarpOp::Match { mask, .. } => mask,
        };
        let members = mask & self.warp_lanes(t);
        if members & (1 << lane) == 0 {
            return self.fault(t, pc, "warp collective by a lane not in its member mask");
        }
        let group = self.mask_group(t, mask);
        let gi = group as usize;
        if s.warp_gen.len() <= gi {
            s.warp_gen.resize(gi + 1, 0);
        }
        s.warp_gen[gi] += 1;
        let bank = s.warp_gen[gi] % 2;
        let n = u64::from(members.count_ones());
        let rank = u64::from((members & ((1u32 << lane) - 1)).count_ones());
        let gen = u64::from(s.warp_gen[gi]);
        s.warp = Some(WarpCall {
            op,
            group,
            members,
            bank,
            ballot: 0,
            todo: members,
            result: None,
            values: Vec::new(),
            expect: (gen - 1) * n + rank,
            target: gen * n,
        });
        let value = match op {
            WarpOp::Sync { .. } => return self.warp_arrive(t, s),
            WarpOp::Shfl { a, .. } => a as i64,
            WarpOp::Vote { p, .. } => i64::from(p),
            WarpOp::Match { a, .. } => a as i64,
        };
        let Some(slot) = self.warp_cell(t, group, 1 + bank * self.warp + lane) else {
            return self.fault(t, pc, "internal: no warp area");
        };
        let attrs = MemAttrs {
            order: Order::Relaxed,
            scope: Some(Scope::Cta),
            ..MemAttrs::default()
        };
        let ev = Self::event(
            s,
            EventKind::Write,
            Some(slot),
            value,
            &attrs,
            self.span(t, pc),
        );
        s.cont = Some(Cont::WarpArrive);
        Self::emit(s, ev)
    }

    /// The arrival RMW's read of the warp collective in progress.
    fn warp_arrive(&self, t: usize, s: &mut KState) -> Action {
        let pc = s.th.pc;
        let Some((group, expect)) = s.warp.as_ref().map(|c| (c.group, c.expect)) else {
            return self.fault(t, pc, "internal: no warp collective in progress");
        };
        let Some(cell) = self.warp_cell(t, group, 0) else {
            return self.fault(t, pc, "internal: no warp area");
        };
        let attrs = Self::counter_attrs(Scope::Cta);
        let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, self.span(t, pc));
        s.pending = Some(Pending::WarpRmw { cell, expect });
        s.nevents += 1;
        Action::Await {
            ev,
            lo: expect as i64,
            hi: expect as i64,
        }
    }

    /// After the departure: the read of the next exchange slot this lane needs, or `None`
    /// when the collective is finished (its result in the lane's registers, the thread past
    /// it).
    fn warp_exchange(&self, t: usize, s: &mut KState) -> Option<Action> {
        let pc = s.th.pc;
        let lane = self.ids[t].tid % self.warp;
        let call = s.warp.as_mut()?;
        let next = match call.op {
            WarpOp::Sync { .. } => None,
            WarpOp::Shfl { mode, a, b, c, .. } => {
                let (src, ok) = weft_simt::machine::shfl_source(mode, lane as usize, b, c);
                let src = src as u32;
                if call.result.is_some() {
                    None
                } else if ok && src != lane && call.members & (1 << src) != 0 {
                    Some(src)
                } else {
                    // Its own value: out of range, the lane itself, or a source that is not
                    // a member (undefined in PTX; the lane's own value, as the emulator).
                    call.result = Some(a);
                    None
                }
            }
            WarpOp::Vote { p, .. } => {
                if call.todo & (1 << lane) != 0 {
                    call.todo &= !(1 << lane);
                    if p {
                        call.ballot |= 1 << lane;
                    }
                }
                (call.todo != 0).then(|| call.todo.trailing_zeros())
            }
            WarpOp::Match { a, .. } => {
                if call.todo & (1 << lane) != 0 {
                    call.todo &= !(1 << lane);
                    call.values.push((lane, a));
                }
                (call.todo != 0).then(|| call.todo.trailing_zeros())
            }
        };
        if let Some(src) = next {
            let bank = call.bank;
            let Some(cell) = self.warp_cell(t, call.group, 1 + bank * self.warp + src) else {
                return Some(self.fault(t, pc, "internal: no warp area"));
            };
            let attrs = MemAttrs {
                order: Order::Relaxed,
                scope: Some(Scope::Cta),
                ..MemAttrs::default()
            };
            let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, self.span(t, pc));
            s.pending = Some(Pending::WarpSlot { lane: src });
            return Some(Self::emit(s, ev));
        }
        let call = s.warp.take()?;
        match call.op {
            WarpOp::Vote { mode, .. } => {
                let v = weft_simt::machine::vote_value(mode, call.ballot, call.members);
                self.part(t).prog.finish_warp(&mut s.th, v, true);
            }
            WarpOp::Shfl { mode, b, c, .. } => {
                let (_, ok) = weft_simt::machine::shfl_source(mode, lane as usize, b, c);
                self.part(t)
                    .prog
                    .finish_warp(&mut s.th, call.result.unwrap_or(0), ok);
            }
            WarpOp::Match { mode, bits, .. } => {
                let value = |l: usize| {
                    call.values
                        .iter()
                        .find(|(x, _)| *x as usize == l)
                        .map_or(0, |v| v.1)
                };
                let (v, p) =
                    weft_simt::machine::match_value(mode, bits, call.members, lane as usize, value);
                self.part(t).prog.finish_warp(&mut s.th, v, p);
            }
            WarpOp::Sync { .. } => self.part(t).prog.advance(&mut s.th),
        }
        None
    }

    /// The launch of thread `t`, and its index in the launch.
    fn launch_of(&self, t: usize) -> (u32, u32) {
        let l = self.tl[t].0;
        (l, t as u32 - self.runs[l as usize].first_thread)
    }

    /// Boundary counter `l` (after launch `l`).
    fn host_cell(&self, l: u32) -> Option<(Cell, LocId)> {
        let loc = LocId(self.host_base?);
        Some((Cell { loc, index: l }, loc))
    }

    /// The start of a thread of launch l > 0: an acquire read of boundary counter l-1 that
    /// must see every thread of launch l-1 end (the host's synchronisation between
    /// launches). `None`: nothing to wait for.
    fn host_start(&self, t: usize, s: &mut KState) -> Option<Action> {
        let (l, _) = self.launch_of(t);
        let cell = self.host_cell(l.checked_sub(1)?)?;
        let attrs = MemAttrs {
            order: Order::Acquire,
            scope: Some(Scope::Gpu),
            ..MemAttrs::default()
        };
        let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, Span::default());
        s.pending = Some(Pending::HostWait);
        s.nevents += 1;
        let n = i64::from(self.runs[l as usize - 1].threads);
        Some(Action::Await { ev, lo: n, hi: n })
    }

    /// The end of a thread: in a launch followed by another, an acquire-release increment
    /// of the boundary counter (threads in order, as barrier arrivals: one order stands for
    /// all), then done.
    fn host_end(&self, t: usize, s: &mut KState) -> Action {
        let (l, j) = self.launch_of(t);
        s.ended = true;
        if l as usize + 1 >= self.runs.len() {
            return Action::Done;
        }
        let Some(cell) = self.host_cell(l) else {
            return Action::Done;
        };
        let attrs = Self::counter_attrs(Scope::Gpu);
        let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, Span::default());
        s.pending = Some(Pending::HostEnd { cell });
        s.nevents += 1;
        Action::Await {
            ev,
            lo: i64::from(j),
            hi: i64::from(j),
        }
    }

    /// Whether thread `t`, left waiting, waits at a launch boundary.
    pub fn awaiting_host(&self, t: usize, st: &Arc<KState>) -> bool {
        let mut st = st.clone();
        matches!(self.next(t, &mut st), Action::Await { .. })
            && matches!(
                st.pending,
                Some(Pending::HostWait) | Some(Pending::HostEnd { .. })
            )
    }

    /// The barrier id reported for thread `t`'s warp collectives (after the 16 barriers).
    fn warp_bar_id(&self, t: usize) -> u32 {
        BARRIERS + self.ids[t].tid / self.warp
    }

    /// The source position of the instruction at `pc` as an event span: its `.loc` in the
    /// kernel's own file, or (line 0: code the compiler merged from several lines; a line of
    /// an inlined header function such as `atomicAdd_block` or `barrier`) the nearest
    /// earlier one in that file, or its PTX position when the kernel has no line information.
    fn span(&self, t: usize, pc: u32) -> Span {
        let p = self.part(t);
        let code = &p.kernel.code;
        let end = (pc as usize + 1).min(code.len());
        for i in code[..end].iter().rev() {
            if let Some(l) = i.loc.filter(|l| l.line > 0 && l.file == p.main_file) {
                return Span::new(l.line, l.col);
            }
        }
        code.get(pc as usize).map(|i| i.span).unwrap_or_default()
    }

    /// The order and scope of the memory instruction at `pc`.
    fn attrs(&self, t: usize, pc: u32) -> MemAttrs {
        let kernel = self.part(t).kernel;
        let mut a = match kernel.code.get(pc as usize).map(|i| &i.op) {
            Some(KOp::Ld { attrs, .. })
            | Some(KOp::St { attrs, .. })
            | Some(KOp::Atom { attrs, .. })
            | Some(KOp::Fence { attrs, .. }) => attrs.clone(),
            _ => MemAttrs::default(),
        };
        if a.order == Order::Plain && a.volatile {
            // PTX: volatile is relaxed at system scope.
            a.order = Order::Relaxed;
            a.scope = Some(Scope::System);
        }
        if a.order != Order::Plain && a.scope.is_none() {
            a.scope = Some(Scope::Gpu);
        }
        if matches!(
            kernel.code.get(pc as usize).map(|i| &i.op),
            Some(KOp::Atom { .. })
        ) && a.order == Order::Plain
        {
            a.order = Order::Relaxed;
            a.scope.get_or_insert(Scope::Gpu);
        }
        a
    }

    fn event(
        s: &mut KState,
        kind: EventKind,
        cell: Option<(Cell, LocId)>,
        value: i64,
        attrs: &MemAttrs,
        span: Span,
    ) -> TraceEvent {
        TraceEvent::plain(
            kind,
            cell,
            value,
            attrs,
            span,
            Vec::new(),
            s.nevents as u32,
            None,
        )
    }

    /// The attributes of a synchronisation counter's RMW (barriers, warp collectives, launch
    /// boundaries): acquire-release at `scope`.
    fn counter_attrs(scope: Scope) -> MemAttrs {
        MemAttrs {
            order: Order::AcqRel,
            scope: Some(scope),
            ..MemAttrs::default()
        }
    }

    /// Queues the write half of a counter RMW whose read returned `value` (it increments).
    fn counter_increment(
        s: &mut KState,
        cell: (Cell, LocId),
        value: i64,
        scope: Scope,
        span: Span,
    ) -> ReadFix {
        let attrs = Self::counter_attrs(scope);
        let mut ev = Self::event(
            s,
            EventKind::Write,
            Some(cell),
            value.wrapping_add(1),
            &attrs,
            span,
        );
        ev.rmw = true;
        s.queue.push(ev);
        ReadFix {
            rmw: true,
            attrs: None,
        }
    }

    fn emit(s: &mut KState, ev: TraceEvent) -> Action {
        s.nevents += 1;
        if ev.kind == EventKind::Write {
            s.writes = s.writes.wrapping_add(1);
        }
        Action::Event(ev)
    }

    fn fault(&self, t: usize, pc: u32, m: &str) -> Action {
        Action::Fault(format!(
            "{}: {m}",
            describe(self.part(t).kernel, pc as usize)
        ))
    }

    /// The thread arrives at watched point `pc` (paper 004 §4, spin loops as `assume`): when
    /// it was here before, has written nothing since, and the registers live here and its
    /// local memory are as they were then, the stretch in between changed nothing the
    /// program can observe except through the values its reads returned: an execution with
    /// it is one without it plus reads no other thread depends on. The thread blocks; only
    /// a write that lets one of those reads return something new (a revisit) moves it on.
    fn arrive(&self, t: usize, s: &mut KState, pc: u32) -> Option<Action> {
        let hash = hash_live(&s.th, self.part(t).heads.live_at(pc));
        let (writes, events) = (s.writes, s.nevents);
        match s.spins.iter_mut().find(|m| m.pc == pc) {
            Some(m) if m.writes == writes && m.hash == hash => {
                s.blocked = Some(BlockedAt::Spin { pc, from: m.events });
                Some(Action::Blocked)
            }
            Some(m) => {
                *m = SpinMark {
                    pc,
                    hash,
                    writes,
                    events,
                };
                None
            }
            None => {
                s.spins.push(SpinMark {
                    pc,
                    hash,
                    writes,
                    events,
                });
                None
            }
        }
    }

    /// The read of element `k` of the load the thread is at.
    fn load_elem(&self, t: usize, s: &mut KState, k: usize) -> Action {
        let pc = s.th.pc;
        let Some(off) = s.cur.as_ref().and_then(|a| a.elems.get(k)).map(|e| e.0) else {
            return self.fault(t, pc, "internal: no access in flight");
        };
        let region = s.cur.as_ref().map_or(Region::Global, |a| a.region);
        let Some(cell) = self.cell(t, region, off) else {
            return self.fault(t, pc, "access outside every modelled area");
        };
        let ev = Self::event(
            s,
            EventKind::Read,
            Some(cell),
            0,
            &self.attrs(t, pc),
            self.span(t, pc),
        );
        s.pending = Some(Pending::Load { k });
        Self::emit(s, ev)
    }

    /// The barrier (pc, id) thread `t`, left waiting by the driver, waits at: its next
    /// step is a barrier's arrival or departure read.
    pub fn awaiting_barrier(&self, t: usize, st: &Arc<KState>) -> Option<(u32, u32)> {
        let mut st = st.clone();
        let Action::Await { .. } = self.next(t, &mut st) else {
            return None;
        };
        match &st.pending {
            Some(Pending::BarRmw { id, .. }) | Some(Pending::BarWait { id, .. }) => {
                Some((st.th.pc, *id))
            }
            Some(Pending::WarpRmw { .. }) | Some(Pending::WarpWait { .. }) => {
                Some((st.th.pc, self.warp_bar_id(t)))
            }
            _ => None,
        }
    }

    /// The thread's blocking reason, if blocked.
    pub fn blocked_at<'a>(&self, st: &'a Arc<KState>) -> Option<&'a BlockedAt> {
        st.blocked.as_ref()
    }

    /// `file:line:col` of an instruction as its events show it ([`Self::span`]), with its
    /// PTX position.
    pub fn describe(&self, t: usize, pc: u32) -> String {
        let sp = self.span(t, pc);
        let p = self.part(t);
        let f = p.kernel.file_name(p.main_file).unwrap_or("?");
        let f = f.rsplit('/').next().unwrap_or(f);
        let ptx = p
            .kernel
            .code
            .get(pc as usize)
            .map(|i| i.span.to_string())
            .unwrap_or_default();
        format!("{f}:{sp} (PTX {ptx})")
    }
}

/// The `.file` index of the kernel's own source: the file most instructions' `.loc` name,
/// leaving out weft's own headers (written under a `weft-inc-` directory) when another
/// file has lines.
fn main_file(k: &Kernel) -> u32 {
    let mut count: BTreeMap<u32, usize> = BTreeMap::new();
    for l in k.code.iter().filter_map(|i| i.loc).filter(|l| l.line > 0) {
        *count.entry(l.file).or_default() += 1;
    }
    let ours = |f: &u32| k.file_name(*f).is_some_and(|n| n.contains("weft-inc-"));
    let best = |skip_ours: bool| {
        count
            .iter()
            .filter(|(f, _)| !(skip_ours && ours(f)))
            .max_by_key(|(f, n)| (**n, std::cmp::Reverse(**f)))
            .map(|(f, _)| *f)
    };
    best(true).or_else(|| best(false)).unwrap_or(0)
}

/// `file:line:col` of an instruction's source position (or its PTX `line:col`).
pub fn describe(k: &Kernel, pc: usize) -> String {
    let Some(i) = k.code.get(pc) else {
        return format!("pc {pc}");
    };
    match i.loc {
        Some(l) if l.line > 0 => {
            let f = k.file_name(l.file).unwrap_or("?");
            let f = f.rsplit('/').next().unwrap_or(f);
            format!("{f}:{}:{} (PTX {})", l.line, l.col, i.span)
        }
        _ => format!("PTX {}", i.span),
    }
}

impl<'k> Stepper for KernelStepper<'k> {
    type State = Arc<KState>;

    fn threads(&self) -> usize {
        self.ids.len()
    }

    fn start(&self, thread: usize) -> Arc<KState> {
        Arc::new(KState {
            th: self.part(thread).prog.start(),
            cur: None,
            cont: None,
            pending: None,
            queue: Vec::new(),
            nevents: 0,
            writes: 0,
            loops: Vec::new(),
            spins: Vec::new(),
            bar_gen: Vec::new(),
            warp_gen: Vec::new(),
            warp: None,
            started: false,
            ended: false,
            blocked: None,
            over: None,
        })
    }

    fn reg(&self, st: &Arc<KState>, reg: usize) -> i64 {
        st.th.regs.get(reg).copied().unwrap_or(0) as i64
    }

    fn spin_blocked(&self, t: usize, st: &Arc<KState>) -> bool {
        let mut st = st.clone();
        matches!(self.next(t, &mut st), Action::Blocked)
            && matches!(st.blocked, Some(BlockedAt::Spin { .. }))
    }

    fn next(&self, t: usize, st: &mut Arc<KState>) -> Action {
        let s = Arc::make_mut(st);
        if s.blocked.is_some() {
            return Action::Blocked;
        }
        if !s.queue.is_empty() {
            let ev = s.queue.remove(0);
            return Self::emit(s, ev);
        }
        if s.ended {
            return Action::Done;
        }
        if !s.started {
            s.started = true;
            if let Some(a) = self.host_start(t, s) {
                return a;
            }
        }
        let pc = s.th.pc;
        match s.cont.take() {
            Some(Cont::LoadElem { k }) => return self.load_elem(t, s, k),
            Some(Cont::BarWait { cell, target, id }) => {
                let attrs = MemAttrs {
                    order: Order::Acquire,
                    scope: Some(Scope::Cta),
                    ..MemAttrs::default()
                };
                let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, self.span(t, pc));
                s.pending = Some(Pending::BarWait { target, id });
                s.nevents += 1;
                // Exactly the last arrival's value: reading a later generation's arrival
                // only adds synchronisation, so it shows no behaviour this one does not.
                return Action::Await {
                    ev,
                    lo: target as i64,
                    hi: target as i64,
                };
            }
            Some(Cont::WarpArrive) => return self.warp_arrive(t, s),
            Some(Cont::WarpWait { cell, target }) => {
                let attrs = MemAttrs {
                    order: Order::Acquire,
                    scope: Some(Scope::Cta),
                    ..MemAttrs::default()
                };
                let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, self.span(t, pc));
                s.pending = Some(Pending::WarpWait { target });
                s.nevents += 1;
                return Action::Await {
                    ev,
                    lo: target as i64,
                    hi: target as i64,
                };
            }
            Some(Cont::WarpExchange) => {
                if let Some(a) = self.warp_exchange(t, s) {
                    return a;
                }
            }
            None => {}
        }
        // Whether the thread stands at a watched point already reported (or reached by a
        // backward branch): it is not reported again.
        let mut resume = false;
        loop {
            let heads = &self.part(t).heads.is_head;
            let stop =
                self.part(t)
                    .prog
                    .step_watch(&mut s.th, self.ids[t], STEP_BUDGET, heads, resume);
            let pc = s.th.pc;
            // (A watched point passed on the way is not where the thread goes on.)
            if let (Some((lo, hi)), false) = (s.over, matches!(stop, Stop::LoopEntry { .. })) {
                if (lo..=hi).contains(&pc) {
                    let site = (
                        self.span(t, hi).line,
                        self.part(t).bounded.get(hi as usize) == Some(&true),
                    );
                    if let Ok(mut c) = self.cut_sites.lock() {
                        c.insert(site);
                    }
                    return Action::Cut;
                }
                s.over = None;
            }
            match stop {
                Stop::Access(acc) => {
                    let attrs = self.attrs(t, pc);
                    let span = self.span(t, pc);
                    match acc.kind {
                        AccessKind::Load => {
                            s.cur = Some(acc);
                            return self.load_elem(t, s, 0);
                        }
                        AccessKind::Store => {
                            for (off, v) in &acc.elems {
                                let Some(cell) = self.cell(t, acc.region, *off) else {
                                    return self.fault(t, pc, "access outside every modelled area");
                                };
                                let ev = Self::event(
                                    s,
                                    EventKind::Write,
                                    Some(cell),
                                    *v as i64,
                                    &attrs,
                                    span,
                                );
                                s.queue.push(ev);
                            }
                            self.part(t).prog.advance(&mut s.th);
                            let ev = s.queue.remove(0);
                            return Self::emit(s, ev);
                        }
                        AccessKind::Atom { .. } => {
                            let Some(cell) = self.cell(t, acc.region, acc.elems[0].0) else {
                                return self.fault(t, pc, "access outside every modelled area");
                            };
                            let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, span);
                            s.pending = Some(Pending::Atom { width: acc.width });
                            s.cur = Some(acc);
                            return Self::emit(s, ev);
                        }
                    }
                }
                Stop::Fence => {
                    let attrs = self.attrs(t, pc);
                    let kind = match self.part(t).kernel.code.get(pc as usize).map(|i| &i.op) {
                        Some(KOp::Fence { kind, .. }) => *kind,
                        _ => FenceKind::Fence,
                    };
                    let ev = Self::event(
                        s,
                        EventKind::Fence {
                            kind,
                            spaces: Vec::new(),
                        },
                        None,
                        0,
                        &attrs,
                        self.span(t, pc),
                    );
                    self.part(t).prog.advance(&mut s.th);
                    return Self::emit(s, ev);
                }
                Stop::Barrier { id, count, arrive } => {
                    // The counter this barrier instruction uses: its id's, or under
                    // --textual-barriers its source position's (`bar_slots`).
                    let slot = self
                        .part(t)
                        .bar_slots
                        .iter()
                        .find(|(p, _)| *p == pc)
                        .map_or(id, |(_, slot)| *slot);
                    let gen = match s.bar_gen.iter_mut().find(|(i, _)| *i == slot) {
                        Some((_, g)) => {
                            *g += 1;
                            *g
                        }
                        None => {
                            s.bar_gen.push((slot, 1));
                            1
                        }
                    };
                    let n = count.unwrap_or(self.part(t).bt).max(1);
                    let target = u64::from(n) * u64::from(gen);
                    // With every thread of the block taking part, arrivals are made in thread
                    // order (thread k's RMW reads the counter k): every order of the arrival
                    // RMWs orders the same events before the departures, so one stands for all
                    // (without it a barrier of n threads would be explored n! times).
                    let expect = (count.is_none() && !arrive)
                        .then(|| target - u64::from(n) + u64::from(self.ids[t].tid));
                    let cell = self.bar_cell(t, slot);
                    let attrs = Self::counter_attrs(Scope::Cta);
                    let ev =
                        Self::event(s, EventKind::Read, Some(cell), 0, &attrs, self.span(t, pc));
                    s.pending = Some(Pending::BarRmw {
                        cell,
                        target,
                        id,
                        arrive,
                        expect,
                    });
                    return match expect {
                        Some(e) => {
                            s.nevents += 1;
                            Action::Await {
                                ev,
                                lo: e as i64,
                                hi: e as i64,
                            }
                        }
                        None => Self::emit(s, ev),
                    };
                }
                Stop::Warp(op) => return self.warp_enter(t, s, op),
                Stop::AssertFailed(_) => return Action::AssertFailed(self.span(t, pc)),
                Stop::LoopEntry { pc: head } => {
                    resume = true;
                    if let Some(a) = self.arrive(t, s, head) {
                        return a;
                    }
                }
                Stop::BackEdge { target, from } => {
                    resume = true;
                    if let Some(a) = self.arrive(t, s, target) {
                        return a;
                    }
                    let bound = if self.part(t).bounded.get(from as usize) == Some(&true) {
                        SELF_BOUNDED_LIMIT
                    } else {
                        self.unroll
                    };
                    match s.loops.iter_mut().find(|m| m.target == target) {
                        None => {
                            if 2 > bound {
                                s.over = Some((target, from));
                            }
                            s.loops.push(LoopMark { target, iters: 2 });
                        }
                        Some(m) => {
                            m.iters += 1;
                            if m.iters > bound {
                                // Past the bound: the execution is cut if the thread goes
                                // on in the loop, not if this back edge leads to its exit
                                // (a loop latch laid out before the body).
                                s.over = Some((target, from));
                            }
                        }
                    }
                }
                Stop::Exit => return self.host_end(t, s),
                Stop::Fault { addr, what } => {
                    return self.fault(t, pc, &format!("{what} (address {addr:#x})"))
                }
                Stop::Unsupported(what) => return self.fault(t, pc, what),
                Stop::StepLimit => {
                    return self.fault(
                        t,
                        pc,
                        &format!("{STEP_BUDGET} instructions without a memory event"),
                    )
                }
            }
        }
    }

    fn feed(&self, t: usize, st: &mut Arc<KState>, value: i64) -> ReadFix {
        let s = Arc::make_mut(st);
        let pc = s.th.pc;
        match s.pending.take() {
            None => ReadFix::default(),
            Some(Pending::Load { k }) => {
                self.part(t).prog.set_load(&mut s.th, k, value as u64);
                let n = s.cur.as_ref().map_or(0, |a| a.elems.len());
                if k + 1 < n {
                    s.cont = Some(Cont::LoadElem { k: k + 1 });
                } else {
                    s.cur = None;
                    self.part(t).prog.advance(&mut s.th);
                }
                ReadFix::default()
            }
            Some(Pending::Atom { width }) => {
                let old = weft_simt::alu::trunc(value as u64, (width * 8) as u16);
                let Some(acc) = s.cur.take() else {
                    return ReadFix::default();
                };
                let AccessKind::Atom { op, ty, a, b } = acc.kind else {
                    return ReadFix::default();
                };
                let new = ThreadProgram::atom_new(op, ty, old, a, b);
                self.part(t).prog.set_atom(&mut s.th, old);
                if let Some(v) = new {
                    if let Some(cell) = self.cell(t, acc.region, acc.elems[0].0) {
                        let mut ev = Self::event(
                            s,
                            EventKind::Write,
                            Some(cell),
                            v as i64,
                            &self.attrs(t, pc),
                            self.span(t, pc),
                        );
                        ev.rmw = true;
                        // An RMW writing back the value it read (`atomicAdd(p, 0)`, `atomicOr(p,
                        // 0)`) changes nothing a spin loop could wait for: the spin check does
                        // not count it as a write (`emit` counts it back).
                        if v == old {
                            s.writes = s.writes.wrapping_sub(1);
                        }
                        s.queue.push(ev);
                    }
                }
                self.part(t).prog.advance(&mut s.th);
                ReadFix {
                    rmw: new.is_some(),
                    attrs: None,
                }
            }
            Some(Pending::BarRmw {
                cell,
                target,
                id,
                arrive,
                expect,
            }) => {
                if expect.is_some_and(|e| e != value as u64) {
                    // Not this thread's turn in this execution (or a thread before it never
                    // arrives: barrier divergence when nothing else can come).
                    s.blocked = Some(BlockedAt::Barrier { pc, id });
                    return ReadFix::default();
                }
                let fix = Self::counter_increment(s, cell, value, Scope::Cta, self.span(t, pc));
                if arrive {
                    self.part(t).prog.advance(&mut s.th);
                } else {
                    s.cont = Some(Cont::BarWait { cell, target, id });
                }
                fix
            }
            Some(Pending::WarpRmw { cell, expect }) => {
                if value as u64 != expect {
                    s.blocked = Some(BlockedAt::Barrier {
                        pc,
                        id: self.warp_bar_id(t),
                    });
                    return ReadFix::default();
                }
                let fix = Self::counter_increment(s, cell, value, Scope::Cta, self.span(t, pc));
                let target = s.warp.as_ref().map_or(0, |c| c.target);
                s.cont = Some(Cont::WarpWait { cell, target });
                fix
            }
            Some(Pending::WarpWait { target }) => {
                if (value as u64) >= target {
                    s.cont = Some(Cont::WarpExchange);
                } else {
                    s.blocked = Some(BlockedAt::Barrier {
                        pc,
                        id: self.warp_bar_id(t),
                    });
                }
                ReadFix::default()
            }
            Some(Pending::HostWait) => ReadFix::default(),
            Some(Pending::HostEnd { cell }) => {
                Self::counter_increment(s, cell, value, Scope::Gpu, Span::default())
            }
            Some(Pending::WarpSlot { lane }) => {
                if let Some(call) = s.warp.as_mut() {
                    call.todo &= !(1 << lane);
                    if value & 1 == 1 {
                        call.ballot |= 1 << lane;
                    }
                    call.result = Some(value as u64);
                    call.values.push((lane, value as u64));
                }
                s.cont = Some(Cont::WarpExchange);
                ReadFix::default()
            }
            Some(Pending::BarWait { target, id }) => {
                if (value as u64) >= target {
                    self.part(t).prog.advance(&mut s.th);
                } else {
                    s.blocked = Some(BlockedAt::Barrier { pc, id });
                }
                ReadFix::default()
            }
        }
    }
}

/// A racing statement pair: both sides' (line, col), heterogeneous.
type RaceKey = ((u32, u32), (u32, u32), bool);

/// Accumulated per subtree.
#[derive(Default)]
pub struct KAcc {
    errors: BTreeMap<String, KernelErrorReport>,
    /// Racing statement pairs, by the sides' (line, col) and heterogeneous (the read and
    /// the write of one RMW are one statement).
    races: BTreeMap<RaceKey, KernelRace>,
    stuck: u64,
    /// `--replay`: finished executions that are not the witness's.
    unmatched: u64,
}

struct KernelJudge<'a, 'k> {
    ks: &'a KernelStepper<'k>,
    model: Native,
    stop_on_first: bool,
    guide: Option<&'a WitnessGraph>,
}

impl KernelJudge<'_, '_> {
    fn record(
        &self,
        acc: &mut KAcc,
        g: &Graph<Arc<KState>>,
        kind: &str,
        mut lines: Vec<u32>,
        threads: Vec<String>,
        message: String,
    ) {
        if let Some(e) = acc.errors.get_mut(kind) {
            e.executions += 1;
            return;
        }
        lines.sort_unstable();
        lines.dedup();
        let p = &self.ks.program;
        acc.errors.insert(
            kind.to_string(),
            KernelErrorReport {
                kind: kind.to_string(),
                lines,
                executions: 1,
                threads,
                message,
                witness: format!(
                    "{}{}",
                    self.ks.legend,
                    witness::interleaving(p, g, &self.ks.init)
                ),
                dot: witness::dot(p, g, &self.ks.init, 0),
                graph: WitnessGraph::of(g),
            },
        );
    }

    fn name(&self, t: usize) -> String {
        self.ks.program.threads[t].name.clone()
    }

    /// Adds the racing events `a`, `b` to the racing statement pairs.
    fn note_race(&self, acc: &mut KAcc, g: &Graph<Arc<KState>>, a: EvId, b: EvId, hetero: bool) {
        let side = |e: EvId| {
            let n = g.node(e);
            let at = &n.ev.attrs;
            RaceSide {
                line: n.ev.span.line,
                col: n.ev.span.col,
                write: n.is_write(),
                atomic: at.order != Order::Plain,
                scope: (at.order != Order::Plain).then_some(at.scope.unwrap_or(Scope::Gpu)),
            }
        };
        let need = if self.ks.block_of(a.0 as usize) == self.ks.block_of(b.0 as usize) {
            Scope::Cta
        } else {
            Scope::Gpu
        };
        let (mut sa, mut sb) = (side(a), side(b));
        let (mut ta, mut tb) = (a.0, b.0);
        if (sb.line, sb.col) < (sa.line, sa.col) {
            std::mem::swap(&mut sa, &mut sb);
            std::mem::swap(&mut ta, &mut tb);
        }
        let e = acc
            .races
            .entry(((sa.line, sa.col), (sb.line, sb.col), hetero))
            .or_insert_with(|| KernelRace {
                a: sa,
                b: sb,
                hetero,
                need,
                threads: (self.name(ta as usize), self.name(tb as usize)),
            });
        if need == Scope::Gpu && e.need != Scope::Gpu {
            e.need = Scope::Gpu;
            e.threads = (self.name(ta as usize), self.name(tb as usize));
        }
    }

    /// Assertion failures and races of a maximal execution.
    fn judge(&self, g: &Graph<Arc<KState>>, acc: &mut KAcc) {
        for (t, th) in g.th.iter().enumerate() {
            if let Status::AssertFailed(sp) = &th.status {
                self.record(
                    acc,
                    g,
                    "assertion",
                    vec![sp.line],
                    vec![self.name(t)],
                    format!("assertion violated by {} at line {}", self.name(t), sp.line),
                );
                break;
            }
        }
        let v = native::check(self.model, &self.ks.program, g, self.ks.cells.len(), true);
        for &(a, b, hetero) in &v.race_pairs {
            self.note_race(acc, g, a, b, hetero);
        }
        let mut race = |kind: &str, pair: Option<((u32, u32), (u32, u32))>, what: &str| {
            if let Some((a, b)) = pair {
                let (na, nb) = (g.node(a), g.node(b));
                let lines = vec![na.ev.span.line, nb.ev.span.line];
                let desc = |n: &crate::graph::Node, t: u32| {
                    format!(
                        "{} by {} at line {}",
                        if n.is_write() { "write" } else { "read" },
                        self.name(t as usize),
                        n.ev.span.line
                    )
                };
                let msg = format!("{what}: {} and {}", desc(na, a.0), desc(nb, b.0));
                self.record(
                    acc,
                    g,
                    kind,
                    lines,
                    vec![self.name(a.0 as usize), self.name(b.0 as usize)],
                    msg,
                );
            }
        };
        race(
            "data-race",
            v.data_race_pair,
            "conflicting accesses not ordered by happens-before, one not atomic",
        );
        race(
            "hetero-race",
            v.hetero_race_pair,
            "conflicting atomics not ordered by happens-before and not mutually in scope",
        );
    }

    /// Whether every read of thread `t` from event `from` on is stuck: every write after
    /// its source in coherence order writes the same value (it can read nothing new).
    fn stuck_reads(&self, g: &Graph<Arc<KState>>, t: usize, from: usize) -> bool {
        g.th[t].nodes.iter().skip(from).all(|n| {
            let Some(src) = n.rf else {
                return true;
            };
            let co = &g.co[n.cell as usize];
            let after = match src {
                Src::Init => 0,
                Src::Ev(e) => match co.iter().position(|x| *x == e) {
                    Some(i) => i + 1,
                    None => return false,
                },
            };
            co[after..].iter().all(|w| g.node(*w).value == n.value)
        })
    }
}

impl Judge<Arc<KState>> for KernelJudge<'_, '_> {
    type Acc = KAcc;

    fn consistent(&self, g: &mut Graph<Arc<KState>>) -> bool {
        if self.guide.is_some_and(|w| !w.admits(g, false)) {
            return false;
        }
        native::check_incremental(self.model, &self.ks.program, g, self.ks.cells.len())
    }

    fn complete(&self, g: &Graph<Arc<KState>>, acc: &mut KAcc) {
        if self.guide.is_some_and(|w| !w.admits(g, true)) {
            acc.unmatched += 1;
            return;
        }
        self.judge(g, acc);
    }

    fn blocked(&self, g: &Graph<Arc<KState>>, acc: &mut KAcc) {
        if self.guide.is_some_and(|w| !w.admits(g, true)) {
            return;
        }
        let mut at_barrier = Vec::new();
        let mut spinning = Vec::new();
        for (t, th) in g.th.iter().enumerate() {
            if th.status != Status::Blocked {
                continue;
            }
            let waiting = self.ks.awaiting_barrier(t, &th.state);
            let stuck = match &th.state.blocked {
                None if waiting.is_some() => {
                    // Waiting for arrivals no thread can make any more.
                    let (pc, id) = waiting.unwrap_or_default();
                    at_barrier.push((t, pc, id));
                    true
                }
                Some(BlockedAt::Barrier { pc, id }) => {
                    let n = th.nodes.len();
                    if !self.stuck_reads(g, t, n.saturating_sub(1)) {
                        return;
                    }
                    at_barrier.push((t, *pc, *id));
                    true
                }
                Some(BlockedAt::Spin { pc, from }) => {
                    if !self.stuck_reads(g, t, *from) {
                        return;
                    }
                    spinning.push((t, *pc));
                    true
                }
                // Waiting at a launch boundary for a thread that is stuck itself.
                None => self.ks.awaiting_host(t, &th.state),
            };
            if !stuck {
                return;
            }
        }
        // A maximal execution: no blocked thread can read anything new.
        acc.stuck += 1;
        self.judge(g, acc);
        let names = |v: &[usize]| v.iter().map(|t| self.name(*t)).collect::<Vec<_>>();
        if let Some(&(_, pc, id)) = at_barrier.first() {
            let blocked: Vec<usize> = at_barrier.iter().map(|x| x.0).collect();
            let t0 = at_barrier[0].0;
            let line = self.ks.span(t0, pc).line;
            let msg = if id >= BARRIERS {
                format!(
                    "warp divergence: {} blocked at a warp collective of warp {} ({}) that member lanes of the warp never reach",
                    names(&blocked).join(", "),
                    id - BARRIERS,
                    self.ks.describe(t0, pc)
                )
            } else {
                // Threads waiting at different instructions (different textual barriers
                // under --textual-barriers) are listed per instruction.
                let mut by_pc: Vec<(u32, Vec<usize>)> = Vec::new();
                for &(t, p, _) in &at_barrier {
                    match by_pc.iter_mut().find(|(q, _)| *q == p) {
                        Some((_, v)) => v.push(t),
                        None => by_pc.push((p, vec![t])),
                    }
                }
                if by_pc.len() == 1 {
                    format!(
                        "barrier divergence: {} blocked at barrier {id} ({}) while the other threads of the block never reach it",
                        names(&blocked).join(", "),
                        self.ks.describe(t0, pc)
                    )
                } else {
                    let groups: Vec<String> = by_pc
                        .iter()
                        .map(|(p, ts)| {
                            format!(
                                "{} at {}",
                                names(ts).join(", "),
                                self.ks.describe(ts[0], *p)
                            )
                        })
                        .collect();
                    format!(
                        "barrier divergence: threads of a block blocked at different barriers: {}",
                        groups.join("; ")
                    )
                }
            };
            self.record(acc, g, "divergence", vec![line], names(&blocked), msg);
        } else if !spinning.is_empty() {
            let blocked: Vec<usize> = spinning.iter().map(|x| x.0).collect();
            let lines = spinning
                .iter()
                .map(|x| self.ks.span(x.0, x.1).line)
                .collect();
            let msg = format!(
                "deadlock: {} spin forever ({}): no write they wait for can come",
                names(&blocked).join(", "),
                spinning
                    .iter()
                    .map(|x| self.ks.describe(x.0, x.1))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            self.record(acc, g, "deadlock", lines, names(&blocked), msg);
        }
    }

    fn merge(&self, a: &mut KAcc, b: KAcc) {
        a.stuck += b.stuck;
        for (k, r) in b.races {
            match a.races.get_mut(&k) {
                Some(x) if r.need == Scope::Gpu && x.need != Scope::Gpu => *x = r,
                Some(_) => {}
                None => {
                    a.races.insert(k, r);
                }
            }
        }
        a.unmatched += b.unmatched;
        for (k, e) in b.errors {
            match a.errors.get_mut(&k) {
                Some(x) => x.executions += e.executions,
                None => {
                    a.errors.insert(k, e);
                }
            }
        }
    }

    fn satisfied(&self, acc: &KAcc) -> bool {
        self.stop_on_first && !acc.errors.is_empty()
    }

    /// Kernels are judged under the native models (RC11, scoped RC11, SC), whose
    /// Atomicity holds for every RMW.
    fn atomic_rmws(&self) -> bool {
        true
    }
}

/// Explores every execution of a kernel launch under `opts.model` and reports the errors.
pub fn check_kernel(
    kernel: &Kernel,
    cfg: LaunchConfig,
    args: &[Arg],
    buffers: &[Buffer],
    names: &[String],
    opts: &KernelOptions,
) -> Result<KernelResult, KernelError> {
    let one = Launch {
        kernel,
        cfg,
        args: args.to_vec(),
        label: String::new(),
    };
    check_sequence(&[one], buffers, names, opts)
}

/// Explores every execution of a host-ordered sequence of launches (repeated
/// `opts.launches` times; every event of a launch happens before every event of the next)
/// under `opts.model` and reports the errors.
pub fn check_sequence(
    seq: &[Launch<'_>],
    buffers: &[Buffer],
    names: &[String],
    opts: &KernelOptions,
) -> Result<KernelResult, KernelError> {
    let start = Instant::now();
    let ks = KernelStepper::sequence(seq, buffers, names, opts)?;
    let judge = KernelJudge {
        ks: &ks,
        model: opts.model,
        stop_on_first: opts.stop_on_first,
        guide: opts.guide.as_ref(),
    };
    let limits = Limits {
        deadline: opts.timeout.map(|d| start + d),
        max_memory: opts.max_memory,
        ..Limits::default()
    };
    let ex = Explorer::new(&ks, &judge, ks.cells.clone(), ks.init.clone(), limits);
    let out = in_pool(opts.threads, || ex.run()).map_err(KernelError::Launch)?;
    let mut errors: Vec<KernelErrorReport> = out.acc.errors.into_values().collect();
    if out.counts.faults > 0 {
        errors.push(KernelErrorReport {
            kind: "fault".into(),
            lines: Vec::new(),
            executions: out.counts.faults,
            threads: Vec::new(),
            message: out.counts.fault_message.clone().unwrap_or_default(),
            witness: String::new(),
            dot: String::new(),
            graph: WitnessGraph::default(),
        });
    }
    let rank = |k: &str| match k {
        "assertion" => 0,
        "data-race" => 1,
        "hetero-race" => 2,
        "divergence" => 3,
        "deadlock" => 4,
        _ => 5,
    };
    errors.sort_by_key(|e| rank(&e.kind));
    Ok(KernelResult {
        counts: out.counts,
        stuck: out.acc.stuck,
        unmatched: out.acc.unmatched,
        errors,
        stopped: out.stopped,
        seconds: start.elapsed().as_secs_f64(),
        threads: ks.ids.len(),
        cells: ks.cells.len(),
        races: out.acc.races.into_values().collect(),
        cut_sites: ks
            .cut_sites
            .lock()
            .map(|c| {
                c.iter()
                    .map(|&(line, self_bounded)| CutSite { line, self_bounded })
                    .collect()
            })
            .unwrap_or_default(),
    })
}
