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
//!
//! Files: this one (options, results, the stepper's state types), [`setup`] (decoding
//! launches, memory layout, cells), [`sync`] (warp collectives, launch boundaries,
//! barrier arrivals, events), [`step`] (the [`Stepper`](crate::step::Stepper)
//! implementation), [`judge`] (errors, races and the exploration entry points).

use std::hash::{Hash, Hasher};

use weft_exec::event::{Cell, TraceEvent};
use weft_ir::attrs::BarrierKind;
use weft_ir::kernel::{KOp, Kernel};
use weft_ir::{LocId, Program, Scope};
use weft_simt::mem::Region;
use weft_simt::thread::{ThreadIds, ThreadProgram, ThreadState, WarpOp};
use weft_simt::{Arg, LaunchConfig};

use crate::explore::{Counts, Stopped};
use crate::graph::{EvId, Graph, Src};
use crate::live::LoopHeads;
use crate::native::Native;

mod judge;
mod setup;
mod step;
mod sync;
mod syscall;

pub use judge::{check_kernel, check_sequence, KAcc};
pub use setup::describe;

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

    /// The same choices with every thread `t` renamed `map[t]` (the image of an execution
    /// under a thread symmetry, `crate::symmetry`).
    pub(crate) fn permuted(&self, map: &[usize]) -> WitnessGraph {
        let m = |e: EvId| (map[e.0 as usize] as u32, e.1);
        WitnessGraph {
            rf: self.rf.iter().map(|(r, w)| (m(*r), w.map(m))).collect(),
            co: self
                .co
                .iter()
                .map(|(c, ws)| (*c, ws.iter().map(|e| m(*e)).collect()))
                .collect(),
        }
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
    /// A valid construct the checker does not model (a device `printf` whose format string
    /// is not a constant): the kernel is fine, the check cannot be done (exit 3).
    Unmodelled { pos: String, what: String },
    /// The launch cannot be set up (geometry, arguments, memory too large).
    Launch(String),
}

impl std::fmt::Display for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KernelError::Unsupported { pos, what } | KernelError::Unmodelled { pos, what } => {
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
    /// The result of each device `printf` call, by pc ([`syscall::printf_results`]).
    printf: std::collections::HashMap<u32, u64>,
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
