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

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::Instant;

use weft_ir::attrs::{FenceKind, MemSpace};
use weft_ir::kernel::{KOp, Kernel};
use weft_ir::{Arch, LocId, Location, MemAttrs, Order, Placement, Program, Scope, Span, Thread};
use weft_sim::traces::{Cell, EventKind, TraceEvent};
use weft_simt::mem::Region;
use weft_simt::thread::{AccessKind, Stop, ThreadIds, ThreadProgram, ThreadState};
use weft_simt::{Arg, Buffer, LaunchConfig};

use crate::explore::{in_pool, Counts, Explorer, Judge, Limits, Stopped};
use crate::graph::{EvId, Graph, Src, Status};
use crate::live::LoopHeads;
use crate::native::{self, Native};
use crate::step::{Action, ReadFix, Stepper};
use crate::witness;

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
}

/// Barriers per block (PTX: 16 named barriers).
const BARRIERS: u32 = 16;
/// Instructions a thread may run without an event before it is reported.
const STEP_BUDGET: u64 = 1 << 22;
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

/// The kernel stepper: one exploration thread per GPU thread of the launch.
pub struct KernelStepper<'k> {
    prog: ThreadProgram<'k>,
    kernel: &'k Kernel,
    ids: Vec<ThreadIds>,
    block_threads: u32,
    unroll: u32,
    /// Areas (location i of `program`), and the first barrier location.
    areas: Vec<Area>,
    bar_base: u32,
    nblocks: u32,
    /// The synthetic program naming threads (with their placement) and locations.
    pub program: Program,
    pub cells: Vec<Cell>,
    pub init: Vec<i64>,
    /// The `.file` index of the kernel's own source ([`main_file`]).
    main_file: u32,
    /// Loop heads and the registers live there (the spin-loop check).
    heads: LoopHeads,
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
    /// Sets up the launch: decodes the kernel, lays out memory, names the cells.
    pub fn new(
        kernel: &'k Kernel,
        cfg: LaunchConfig,
        args: &[Arg],
        buffers: &[Buffer],
        names: &[String],
        opts: &KernelOptions,
    ) -> Result<Self, KernelError> {
        let prog = ThreadProgram::new(kernel, cfg, args, buffers)
            .map_err(|e| KernelError::Launch(e.to_string()))?;
        if let Some((pc, what)) = prog.unsupported().first() {
            return Err(KernelError::Unsupported {
                pos: describe(kernel, *pc),
                what: what.to_string(),
            });
        }
        let bt = cfg.block_threads();
        let nb = cfg.grid_ctas();
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
        let (bt, nb) = (bt as u32, nb as u32);
        let mut program = Program::new(Arch::Ptx, kernel.name.clone());
        let mut ids = Vec::new();
        for b in 0..nb {
            let cta = [
                b % cfg.grid[0],
                (b / cfg.grid[0]) % cfg.grid[1],
                b / (cfg.grid[0] * cfg.grid[1]),
            ];
            for t in 0..bt {
                ids.push(ThreadIds { cta, tid: t });
                let mut th = Thread::new(format!("b{b}t{t}"));
                th.placement = Placement::new(vec![(Scope::Cta, b), (Scope::Gpu, 0)]);
                program.threads.push(th);
            }
        }
        // Areas: buffers, the rest of the global arena (module variables), shared memory
        // per block (per variable), barrier counters per block.
        let mut areas = Vec::new();
        let offs = &prog.buffer_offsets;
        let arena = prog.global_init.len() as u64;
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
        let shared = prog.shared_bytes();
        let (soffs, _) = kernel.layout(MemSpace::Shared);
        for b in 0..nb {
            let mut covered = 0u64;
            for (i, v) in kernel.vars.iter().enumerate() {
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
        for b in 0..nb {
            areas.push((
                format!("barrier@b{b}"),
                Area {
                    region: Region::Local,
                    block: b,
                    base: 0,
                    bytes: u64::from(BARRIERS) * 4,
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
                    prog.global_initial(off, width)
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
        Ok(KernelStepper {
            prog,
            kernel,
            ids,
            block_threads: bt,
            unroll: opts.unroll.max(1),
            areas: out_areas,
            bar_base,
            nblocks: nb,
            program,
            cells,
            init,
            main_file: main_file(kernel),
            heads: LoopHeads::of(kernel),
        })
    }

    /// The cell of an access by thread `t`.
    fn cell(&self, t: usize, region: Region, off: u64) -> Option<(Cell, LocId)> {
        let b = (t as u32) / self.block_threads;
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

    fn bar_cell(&self, t: usize, id: u32) -> (Cell, LocId) {
        let b = (t as u32) / self.block_threads;
        let loc = LocId(self.bar_base + b.min(self.nblocks - 1));
        (
            Cell {
                loc,
                index: id % BARRIERS,
            },
            loc,
        )
    }

    /// The source position of the instruction at `pc` as an event span: its `.loc` in the
    /// kernel's own file, or (line 0: code the compiler merged from several lines; a line of
    /// an inlined header function such as `atomicAdd_block` or `barrier`) the nearest
    /// earlier one in that file, or its PTX position when the kernel has no line information.
    fn span(&self, pc: u32) -> Span {
        let code = &self.kernel.code;
        let end = (pc as usize + 1).min(code.len());
        for i in code[..end].iter().rev() {
            if let Some(l) = i.loc.filter(|l| l.line > 0 && l.file == self.main_file) {
                return Span::new(l.line, l.col);
            }
        }
        code.get(pc as usize).map(|i| i.span).unwrap_or_default()
    }

    /// The order and scope of the memory instruction at `pc`.
    fn attrs(&self, pc: u32) -> MemAttrs {
        let mut a = match self.kernel.code.get(pc as usize).map(|i| &i.op) {
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
            self.kernel.code.get(pc as usize).map(|i| &i.op),
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

    fn emit(s: &mut KState, ev: TraceEvent) -> Action {
        s.nevents += 1;
        if ev.kind == EventKind::Write {
            s.writes = s.writes.wrapping_add(1);
        }
        Action::Event(ev)
    }

    fn fault(&self, pc: u32, m: &str) -> Action {
        Action::Fault(format!("{}: {m}", describe(self.kernel, pc as usize)))
    }

    /// The thread arrives at watched point `pc` (paper 004 §4, spin loops as `assume`): when
    /// it was here before, has written nothing since, and the registers live here and its
    /// local memory are as they were then, the stretch in between changed nothing the
    /// program can observe except through the values its reads returned: an execution with
    /// it is one without it plus reads no other thread depends on. The thread blocks; only
    /// a write that lets one of those reads return something new (a revisit) moves it on.
    fn arrive(&self, s: &mut KState, pc: u32) -> Option<Action> {
        let hash = hash_live(&s.th, self.heads.live_at(pc));
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
            return self.fault(pc, "internal: no access in flight");
        };
        let region = s.cur.as_ref().map_or(Region::Global, |a| a.region);
        let Some(cell) = self.cell(t, region, off) else {
            return self.fault(pc, "access outside every modelled area");
        };
        let ev = Self::event(
            s,
            EventKind::Read,
            Some(cell),
            0,
            &self.attrs(pc),
            self.span(pc),
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
            _ => None,
        }
    }

    /// Number of GPU threads per block.
    pub fn block_threads(&self) -> u32 {
        self.block_threads
    }

    /// The thread's blocking reason, if blocked.
    pub fn blocked_at<'a>(&self, st: &'a Arc<KState>) -> Option<&'a BlockedAt> {
        st.blocked.as_ref()
    }

    /// `file:line:col` of an instruction as its events show it ([`Self::span`]), with its
    /// PTX position.
    pub fn describe(&self, pc: u32) -> String {
        let sp = self.span(pc);
        let f = self.kernel.file_name(self.main_file).unwrap_or("?");
        let f = f.rsplit('/').next().unwrap_or(f);
        let ptx = self
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

    fn start(&self, _thread: usize) -> Arc<KState> {
        Arc::new(KState {
            th: self.prog.start(),
            cur: None,
            cont: None,
            pending: None,
            queue: Vec::new(),
            nevents: 0,
            writes: 0,
            loops: Vec::new(),
            spins: Vec::new(),
            bar_gen: Vec::new(),
            blocked: None,
            over: None,
        })
    }

    fn reg(&self, st: &Arc<KState>, reg: usize) -> i64 {
        st.th.regs.get(reg).copied().unwrap_or(0) as i64
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
        let pc = s.th.pc;
        match s.cont.take() {
            Some(Cont::LoadElem { k }) => return self.load_elem(t, s, k),
            Some(Cont::BarWait { cell, target, id }) => {
                let attrs = MemAttrs {
                    order: Order::Acquire,
                    scope: Some(Scope::Cta),
                    ..MemAttrs::default()
                };
                let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, self.span(pc));
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
            None => {}
        }
        // Whether the thread stands at a watched point already reported (or reached by a
        // backward branch): it is not reported again.
        let mut resume = false;
        loop {
            let heads = &self.heads.is_head;
            let stop = self
                .prog
                .step_watch(&mut s.th, self.ids[t], STEP_BUDGET, heads, resume);
            let pc = s.th.pc;
            // (A watched point passed on the way is not where the thread goes on.)
            if let (Some((lo, hi)), false) = (s.over, matches!(stop, Stop::LoopEntry { .. })) {
                if (lo..=hi).contains(&pc) {
                    return Action::Cut;
                }
                s.over = None;
            }
            match stop {
                Stop::Access(acc) => {
                    let attrs = self.attrs(pc);
                    let span = self.span(pc);
                    match acc.kind {
                        AccessKind::Load => {
                            s.cur = Some(acc);
                            return self.load_elem(t, s, 0);
                        }
                        AccessKind::Store => {
                            for (off, v) in &acc.elems {
                                let Some(cell) = self.cell(t, acc.region, *off) else {
                                    return self.fault(pc, "access outside every modelled area");
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
                            self.prog.advance(&mut s.th);
                            let ev = s.queue.remove(0);
                            return Self::emit(s, ev);
                        }
                        AccessKind::Atom { .. } => {
                            let Some(cell) = self.cell(t, acc.region, acc.elems[0].0) else {
                                return self.fault(pc, "access outside every modelled area");
                            };
                            let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, span);
                            s.pending = Some(Pending::Atom { width: acc.width });
                            s.cur = Some(acc);
                            return Self::emit(s, ev);
                        }
                    }
                }
                Stop::Fence => {
                    let attrs = self.attrs(pc);
                    let kind = match self.kernel.code.get(pc as usize).map(|i| &i.op) {
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
                        self.span(pc),
                    );
                    self.prog.advance(&mut s.th);
                    return Self::emit(s, ev);
                }
                Stop::Barrier { id, count, arrive } => {
                    let gen = match s.bar_gen.iter_mut().find(|(i, _)| *i == id) {
                        Some((_, g)) => {
                            *g += 1;
                            *g
                        }
                        None => {
                            s.bar_gen.push((id, 1));
                            1
                        }
                    };
                    let n = count.unwrap_or(self.block_threads).max(1);
                    let target = u64::from(n) * u64::from(gen);
                    // With every thread of the block taking part, arrivals are made in thread
                    // order (thread k's RMW reads the counter k): every order of the arrival
                    // RMWs orders the same events before the departures, so one stands for all
                    // (without it a barrier of n threads would be explored n! times).
                    let expect = (count.is_none() && !arrive)
                        .then(|| target - u64::from(n) + u64::from(self.ids[t].tid));
                    let cell = self.bar_cell(t, id);
                    let attrs = MemAttrs {
                        order: Order::AcqRel,
                        scope: Some(Scope::Cta),
                        ..MemAttrs::default()
                    };
                    let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, self.span(pc));
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
                Stop::AssertFailed(_) => return Action::AssertFailed(self.span(pc)),
                Stop::LoopEntry { pc: head } => {
                    resume = true;
                    if let Some(a) = self.arrive(s, head) {
                        return a;
                    }
                }
                Stop::BackEdge { target, from } => {
                    resume = true;
                    if let Some(a) = self.arrive(s, target) {
                        return a;
                    }
                    match s.loops.iter_mut().find(|m| m.target == target) {
                        None => {
                            if 2 > self.unroll {
                                s.over = Some((target, from));
                            }
                            s.loops.push(LoopMark { target, iters: 2 });
                        }
                        Some(m) => {
                            m.iters += 1;
                            if m.iters > self.unroll {
                                // Past the bound: the execution is cut if the thread goes
                                // on in the loop, not if this back edge leads to its exit
                                // (a loop latch laid out before the body).
                                s.over = Some((target, from));
                            }
                        }
                    }
                }
                Stop::Exit => return Action::Done,
                Stop::Fault { addr, what } => {
                    return self.fault(pc, &format!("{what} (address {addr:#x})"))
                }
                Stop::Unsupported(what) => return self.fault(pc, what),
                Stop::StepLimit => {
                    return self.fault(
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
                self.prog.set_load(&mut s.th, k, value as u64);
                let n = s.cur.as_ref().map_or(0, |a| a.elems.len());
                if k + 1 < n {
                    s.cont = Some(Cont::LoadElem { k: k + 1 });
                } else {
                    s.cur = None;
                    self.prog.advance(&mut s.th);
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
                self.prog.set_atom(&mut s.th, old);
                if let Some(v) = new {
                    if let Some(cell) = self.cell(t, acc.region, acc.elems[0].0) {
                        let mut ev = Self::event(
                            s,
                            EventKind::Write,
                            Some(cell),
                            v as i64,
                            &self.attrs(pc),
                            self.span(pc),
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
                self.prog.advance(&mut s.th);
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
                let attrs = MemAttrs {
                    order: Order::AcqRel,
                    scope: Some(Scope::Cta),
                    ..MemAttrs::default()
                };
                let mut ev = Self::event(
                    s,
                    EventKind::Write,
                    Some(cell),
                    value.wrapping_add(1),
                    &attrs,
                    self.span(pc),
                );
                ev.rmw = true;
                s.queue.push(ev);
                if arrive {
                    self.prog.advance(&mut s.th);
                } else {
                    s.cont = Some(Cont::BarWait { cell, target, id });
                }
                ReadFix {
                    rmw: true,
                    attrs: None,
                }
            }
            Some(Pending::BarWait { target, id }) => {
                if (value as u64) >= target {
                    self.prog.advance(&mut s.th);
                } else {
                    s.blocked = Some(BlockedAt::Barrier { pc, id });
                }
                ReadFix::default()
            }
        }
    }
}

/// Accumulated per subtree.
#[derive(Default)]
pub struct KAcc {
    errors: BTreeMap<String, KernelErrorReport>,
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
                witness: witness::interleaving(p, g, &self.ks.init),
                dot: witness::dot(p, g, &self.ks.init, 0),
                graph: WitnessGraph::of(g),
            },
        );
    }

    fn name(&self, t: usize) -> String {
        self.ks.program.threads[t].name.clone()
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
                None => false,
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
            let line = self.ks.span(pc).line;
            let msg = format!(
                "barrier divergence: {} blocked at barrier {id} ({}) while the other threads of the block never reach it",
                names(&blocked).join(", "),
                self.ks.describe(pc)
            );
            self.record(acc, g, "divergence", vec![line], names(&blocked), msg);
        } else if !spinning.is_empty() {
            let blocked: Vec<usize> = spinning.iter().map(|x| x.0).collect();
            let lines = spinning.iter().map(|x| self.ks.span(x.1).line).collect();
            let msg = format!(
                "deadlock: {} spin forever ({}): no write they wait for can come",
                names(&blocked).join(", "),
                spinning
                    .iter()
                    .map(|x| self.ks.describe(x.1))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            self.record(acc, g, "deadlock", lines, names(&blocked), msg);
        }
    }

    fn merge(&self, a: &mut KAcc, b: KAcc) {
        a.stuck += b.stuck;
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
    let start = Instant::now();
    let ks = KernelStepper::new(kernel, cfg, args, buffers, names, opts)?;
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
    })
}
