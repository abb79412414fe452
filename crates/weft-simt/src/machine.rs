//! The SIMT machine: a grid of CTAs, each a set of 32-lane warps executing in lock-step with a
//! reconvergence stack (reconverging at the immediate post-dominator of each divergent branch),
//! per-CTA shared memory and barriers, a bounded set of resident CTAs, and a seeded scheduler
//! that interleaves warps of all resident CTAs. Paper 003 §2 (execution model) and §3.1
//! (trace operations: rd, wr, atm, endi, if/else/fi, bar, acq/rel/ar at block or global
//! scope) define what is emulated and what is traced.

use std::fmt;
use std::io::Write;
use std::time::Instant;

use weft_ir::attrs::{MemSpace, TypeKind};
use weft_ir::kernel::{
    AnnotKind, BarRed, KBoolOp, KCmp, Kernel, MatchMode, QueryKind, ShflMode, SpecialReg, VoteMode,
};

use crate::alu;
use crate::decode::{decode, DAddr, DInstr, DOp, DecodeError, FastBin, Layout, Src, TraceKind};
use crate::mem::{self, resolve_generic, Buffer, Region, GLOBAL_BASE};
use crate::sink::{AccessEvent, AccessOp, AccessSpace, BranchEvent, TraceSink};

/// Lanes per warp.
pub const WARP: usize = 32;
const FULL: u32 = u32::MAX;
/// Named barriers per CTA (PTX ISA: 16).
pub const BARRIERS: usize = 16;

/// A launch shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// CTAs per grid, x/y/z.
    pub grid: [u32; 3],
    /// Threads per CTA, x/y/z.
    pub block: [u32; 3],
}

impl LaunchConfig {
    /// Threads per CTA.
    pub fn block_threads(&self) -> u64 {
        self.block.iter().map(|&d| u64::from(d)).product()
    }
    /// CTAs in the grid.
    pub fn grid_ctas(&self) -> u64 {
        self.grid.iter().map(|&d| u64::from(d)).product()
    }
}

/// How warps are interleaved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Round-robin over resident warps, each running up to the quantum.
    RoundRobin,
    /// A seeded pseudo-random warp and a random quantum (1..=quantum) at each step.
    Random(u64),
}

/// Emulator options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Warp interleaving.
    pub schedule: Schedule,
    /// CTAs resident at once (a CTA's slot is reused when it finishes).
    pub max_resident_ctas: usize,
    /// Warp-instructions a warp runs before the scheduler switches.
    pub quantum: u32,
    /// Stop with a [`Finding::StepLimit`] after this many warp-instructions.
    pub max_steps: u64,
    /// At most this many divergence findings are recorded (the rest are counted).
    pub max_reports: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            schedule: Schedule::RoundRobin,
            max_resident_ctas: 32,
            quantum: 64,
            max_steps: 1 << 32,
            max_reports: 16,
        }
    }
}

/// A kernel argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A scalar, as the bit pattern of the parameter's type.
    Scalar(u64),
    /// A pointer to buffer `i` of the launch.
    Buffer(usize),
    /// The bytes of an aggregate passed by value (a C struct or array parameter, PTX
    /// `.param .align N .b8 name[SIZE]`), laid out as the source declares it.
    Bytes(Vec<u8>),
}

/// Where a finding happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// CTA index (x, y, z).
    pub cta: [u32; 3],
    /// Warp index in the CTA.
    pub warp: u32,
    /// Source position (`file:line`) or PTX position.
    pub pos: String,
    /// Instruction index.
    pub pc: u32,
}

fn lanes_to_threads(warp: u32, mask: u32) -> Vec<u32> {
    (0..32)
        .filter(|l| mask >> l & 1 == 1)
        .map(|l| warp * 32 + l)
        .collect()
}

fn fmt_threads(v: &[u32]) -> String {
    // Ranges: 0-15,17
    let mut out = String::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        if !out.is_empty() {
            out.push(',');
        }
        if j > i {
            out.push_str(&format!("{}-{}", v[i], v[j]));
        } else {
            out.push_str(&v[i].to_string());
        }
        i = j + 1;
    }
    out
}

/// A property violation found while running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A warp reached a CTA barrier with only some of its live threads active.
    BarrierDivergence {
        site: Site,
        /// Threads (linear index in the CTA) that arrived.
        arrived: Vec<u32>,
        /// Live threads of the same warp that did not.
        missing: Vec<u32>,
    },
    /// Threads of one CTA met at barrier `id` from different instructions.
    BarrierMismatch {
        cta: [u32; 3],
        id: u32,
        positions: Vec<String>,
    },
    /// A CTA barrier completed although some threads of the CTA had exited without reaching
    /// it (exited threads no longer count, so the others were released).
    BarrierExited {
        cta: [u32; 3],
        id: u32,
        pos: String,
        /// Threads (linear index in the CTA) that exited before the barrier.
        exited: Vec<u32>,
    },
    /// `bar.warp.sync`/`__syncwarp`, `shfl.sync` or `vote.sync` with member lanes not active.
    WarpSyncDivergence { site: Site, missing: Vec<u32> },
    /// No warp can make progress: every resident warp waits at a barrier.
    Deadlock { blocked: Vec<(Site, u32, Vec<u32>)> },
    /// The step limit was reached (a livelock, e.g. an intra-warp spin lock, or just a long
    /// run).
    StepLimit { steps: u64 },
    /// An access outside every buffer or memory.
    MemoryFault {
        site: Site,
        thread: u32,
        addr: u64,
        what: String,
    },
    /// `trap` was executed.
    Trap { site: Site, threads: Vec<u32> },
    /// A checked annotation (`__assert`, `__invariant`) was false (reported once per
    /// instruction, with the threads of the first failing warp).
    AssertionFailed {
        site: Site,
        kind: AnnotKind,
        threads: Vec<u32>,
    },
    /// More divergence findings than `max_reports` (count of the unrecorded ones).
    Suppressed { count: u64 },
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cta = |c: &[u32; 3]| format!("({},{},{})", c[0], c[1], c[2]);
        match self {
            Finding::BarrierDivergence { site, arrived, missing } => write!(
                f,
                "barrier divergence at {}: CTA {} warp {}: threads {} reached the barrier, threads {} of the same warp did not",
                site.pos,
                cta(&site.cta),
                site.warp,
                fmt_threads(arrived),
                fmt_threads(missing)
            ),
            Finding::BarrierMismatch { cta: c, id, positions } => write!(
                f,
                "barrier divergence: CTA {} met at barrier {id} from different instructions: {}",
                cta(c),
                positions.join(", ")
            ),
            Finding::BarrierExited { cta: c, id, pos, exited } => write!(
                f,
                "barrier divergence at {pos}: CTA {} passed barrier {id} while threads {} had exited without reaching it",
                cta(c),
                fmt_threads(exited)
            ),
            Finding::WarpSyncDivergence { site, missing } => write!(
                f,
                "warp-sync divergence at {}: CTA {} warp {}: member threads {} not active",
                site.pos,
                cta(&site.cta),
                site.warp,
                fmt_threads(missing)
            ),
            Finding::Deadlock { blocked } => {
                write!(f, "deadlock: no warp can make progress;")?;
                for (i, (s, id, th)) in blocked.iter().enumerate() {
                    if i == 8 {
                        write!(f, " ... ({} more)", blocked.len() - 8)?;
                        break;
                    }
                    write!(
                        f,
                        " CTA {} warp {} threads {} wait at barrier {id} ({});",
                        cta(&s.cta),
                        s.warp,
                        fmt_threads(th),
                        s.pos
                    )?;
                }
                Ok(())
            }
            Finding::StepLimit { steps } => write!(
                f,
                "no termination after {steps} warp-instructions (livelock or step limit too low)"
            ),
            Finding::MemoryFault { site, thread, addr, what } => write!(
                f,
                "memory fault at {}: CTA {} thread {thread}: {what} at address 0x{addr:x}",
                site.pos,
                cta(&site.cta)
            ),
            Finding::Trap { site, threads } => write!(
                f,
                "trap at {}: CTA {} threads {}",
                site.pos,
                cta(&site.cta),
                fmt_threads(threads)
            ),
            Finding::AssertionFailed { site, kind, threads } => write!(
                f,
                "{} failed at {}: CTA {} threads {}",
                match kind {
                    AnnotKind::Invariant | AnnotKind::GlobalInvariant => "loop invariant",
                    _ => "assertion",
                },
                site.pos,
                cta(&site.cta),
                fmt_threads(threads)
            ),
            Finding::Suppressed { count } => write!(f, "{count} further divergence findings not shown"),
        }
    }
}

/// Counters of a run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Warp-instructions executed (one per issued warp instruction, any active mask).
    pub warp_instrs: u64,
    /// Thread-instructions (sum of active lanes).
    pub thread_instrs: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Trace events written.
    pub trace_events: u64,
}

/// The result of a launch.
#[derive(Debug)]
pub struct Outcome {
    /// The buffers after the run.
    pub buffers: Vec<Buffer>,
    /// Findings, in order.
    pub findings: Vec<Finding>,
    /// Whether every thread ran to completion.
    pub completed: bool,
    /// Counters.
    pub stats: Stats,
}

/// Errors that stop a launch before or outside the kernel's own behaviour.
#[derive(Debug, thiserror::Error)]
pub enum SimtError {
    /// Bad launch: geometry, argument count, ...
    #[error("bad launch: {0}")]
    Launch(String),
    /// An instruction the emulator cannot run (`pos` is the kernel position).
    #[error("{pos}: {message}")]
    Decode { pos: String, message: String },
    /// Writing the trace failed.
    #[error("writing the trace: {0}")]
    Io(std::io::Error),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FrameKind {
    Base,
    Then,
    Else,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    pc: u32,
    rpc: u32,
    mask: u32,
    kind: FrameKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WState {
    Ready,
    Blocked,
    Done,
}

struct Warp {
    slot: usize,
    warp_in_cta: u32,
    live: u32,
    state: WState,
    stack: Vec<Frame>,
    regs: Vec<u64>,
    local: Vec<u8>,
}

#[derive(Default, Clone)]
struct BarState {
    arrived: u32,
    waiting: Vec<(usize, u32)>,
    pcs: Vec<u32>,
    expected: Option<u32>,
    popc: u32,
    all: bool,
    any: bool,
}

struct Cta {
    active: bool,
    linear: u64,
    id: [u32; 3],
    shared: Vec<u8>,
    live_threads: u32,
    warps_done: u32,
    bars: Vec<BarState>,
    mismatch_reported: [bool; BARRIERS],
    exit_reported: [bool; BARRIERS],
}

/// splitmix64: a small seeded generator for the random schedule.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// What `exec_inner` asks `exec` to do once its borrows end.
enum Post {
    None,
    Stop(Stop),
    Exit(u32),
    Fault(usize, u64, &'static str),
    BarDiv { em: u32, live: u32, stop: Stop },
    WarpSyncDiv(u32),
    Trap(u32),
    Assert(u32, AnnotKind),
}

enum Stop {
    /// Quantum used up or warp blocked/done.
    Yield,
    /// Barrier arrival in slot/id.
    Barrier(usize, usize),
    /// Threads exited (barrier expectations may now be met).
    Exited(usize),
    /// Fatal finding: stop the launch.
    Fatal(Finding),
}

/// One launch in progress.
struct Machine<'a> {
    kernel: &'a Kernel,
    code: Vec<DInstr>,
    reg_bits: Vec<u16>,
    cfg: LaunchConfig,
    opts: Options,
    warps_per_cta: usize,
    block_threads: u32,
    global: Vec<u8>,
    param: Vec<u8>,
    layout: Layout,
    warps: Vec<Warp>,
    ctas: Vec<Cta>,
    findings: Vec<Finding>,
    suppressed: u64,
    /// Instructions whose assertion failure was reported already.
    failed_asserts: Vec<u32>,
    stats: Stats,
    trace: Option<&'a mut dyn Write>,
    sink: Option<&'a mut dyn TraceSink>,
    io_error: Option<std::io::Error>,
    steps: u64,
}

/// The memory of a launch before it runs: each buffer's offset in the global arena, the
/// variable layout, the global arena (buffers, then module variables with their initial
/// bytes) and the param space with the arguments written in.
pub(crate) struct Arena {
    pub offsets: Vec<u64>,
    pub layout: Layout,
    pub global: Vec<u8>,
    pub param: Vec<u8>,
}

/// Lays out the memory of a launch of `kernel` with `args` over `buffers`.
pub(crate) fn lay_out(
    kernel: &Kernel,
    args: &[Arg],
    buffers: &[Buffer],
) -> Result<Arena, SimtError> {
    // Global arena: buffers (256-byte aligned), then module variables.
    let mut offsets = Vec::with_capacity(buffers.len());
    let mut off = 0u64;
    for b in buffers {
        offsets.push(off);
        off = (off + b.data.len() as u64).div_ceil(256) * 256 + 256;
    }
    let layout = Layout::new(kernel, off);
    // Memory the emulator would have to allocate for declarations alone.
    const MIB: u64 = 1 << 20;
    if layout.shared_bytes > 4 * MIB
        || layout.local_bytes > MIB
        || layout.global_var_bytes > 1024 * MIB
    {
        return Err(SimtError::Launch(format!(
            "the kernel declares {} bytes of shared, {} of local and {} of global/constant memory (limits: 4 MiB, 1 MiB, 1 GiB)",
            layout.shared_bytes, layout.local_bytes, layout.global_var_bytes
        )));
    }
    let mut global = vec![0u8; (off + layout.global_var_bytes) as usize];
    for (b, &o) in buffers.iter().zip(&offsets) {
        global[o as usize..o as usize + b.data.len()].copy_from_slice(&b.data);
    }
    for (i, v) in kernel.vars.iter().enumerate() {
        if matches!(v.space, MemSpace::Global | MemSpace::Constant) && !v.init.is_empty() {
            let o = (layout.var_addr[i] - GLOBAL_BASE) as usize;
            let n = v.init.len().min(v.size as usize);
            global[o..o + n].copy_from_slice(&v.init[..n]);
        }
    }
    let mut param = vec![0u8; kernel.param_bytes as usize];
    for (i, (p, a)) in kernel.params.iter().zip(args).enumerate() {
        let v = match a {
            Arg::Scalar(v) => *v,
            Arg::Bytes(bytes) => {
                if bytes.len() > p.size as usize {
                    return Err(SimtError::Launch(format!(
                        "argument {i} has {} bytes; the parameter has {}",
                        bytes.len(),
                        p.size
                    )));
                }
                let o = p.offset as usize;
                param[o..o + bytes.len()].copy_from_slice(bytes);
                continue;
            }
            &Arg::Buffer(b) => {
                let o = *offsets.get(b).ok_or_else(|| {
                    SimtError::Launch(format!(
                        "argument {i} names buffer {b}, which does not exist"
                    ))
                })?;
                GLOBAL_BASE + o
            }
        };
        let w = (p.size as usize).min(8);
        mem::write(&mut param, u64::from(p.offset), w, v);
    }
    Ok(Arena {
        offsets,
        layout,
        global,
        param,
    })
}

/// Runs `kernel` on `cfg` with `args` (one per kernel parameter) over `buffers`, writing the
/// event trace to `trace` when given.
pub fn run<'a>(
    kernel: &'a Kernel,
    cfg: LaunchConfig,
    args: &[Arg],
    buffers: Vec<Buffer>,
    opts: &Options,
    trace: Option<&'a mut dyn Write>,
) -> Result<Outcome, SimtError> {
    run_with_sink(kernel, cfg, args, buffers, opts, trace, None)
}

/// [`run`], also delivering structured events to `sink` when given (a race detector).
pub fn run_with_sink<'a>(
    kernel: &'a Kernel,
    cfg: LaunchConfig,
    args: &[Arg],
    buffers: Vec<Buffer>,
    opts: &Options,
    trace: Option<&'a mut dyn Write>,
    sink: Option<&'a mut dyn TraceSink>,
) -> Result<Outcome, SimtError> {
    kernel.validate().map_err(SimtError::Launch)?;
    if cfg.grid.contains(&0) || cfg.block.contains(&0) {
        return Err(SimtError::Launch(
            "grid and block dimensions must be at least 1".into(),
        ));
    }
    let bt = cfg.block_threads();
    if bt > 1024 {
        return Err(SimtError::Launch(format!(
            "{bt} threads per block (at most 1024)"
        )));
    }
    if let Some(r) = kernel.reqntid {
        if r != cfg.block {
            return Err(SimtError::Launch(format!(
                "the kernel requires block {}x{}x{} (.reqntid)",
                r[0], r[1], r[2]
            )));
        }
    }
    if args.len() != kernel.params.len() {
        return Err(SimtError::Launch(format!(
            "the kernel takes {} parameters, {} arguments given",
            kernel.params.len(),
            args.len()
        )));
    }
    let Arena {
        offsets,
        layout,
        global,
        param,
    } = lay_out(kernel, args, &buffers)?;
    let code = decode(kernel, &layout).map_err(|e: DecodeError| SimtError::Decode {
        pos: kernel.describe_pos(e.pc),
        message: e.message,
    })?;
    let warps_per_cta = (bt as usize).div_ceil(WARP);
    let resident = (opts.max_resident_ctas.max(1) as u64).min(cfg.grid_ctas()) as usize;
    let nregs = kernel.regs.len();
    let mut m = Machine {
        kernel,
        code,
        reg_bits: kernel.regs.iter().map(|r| r.ty.bits).collect(),
        cfg,
        opts: opts.clone(),
        warps_per_cta,
        block_threads: bt as u32,
        global,
        param,
        warps: Vec::with_capacity(resident * warps_per_cta),
        ctas: Vec::with_capacity(resident),
        findings: Vec::new(),
        suppressed: 0,
        failed_asserts: Vec::new(),
        stats: Stats::default(),
        trace,
        sink,
        io_error: None,
        steps: 0,
        layout,
    };
    for slot in 0..resident {
        m.ctas.push(Cta {
            active: false,
            linear: 0,
            id: [0; 3],
            shared: vec![0; m.layout.shared_bytes as usize],
            live_threads: 0,
            warps_done: 0,
            bars: vec![BarState::default(); BARRIERS],
            mismatch_reported: [false; BARRIERS],
            exit_reported: [false; BARRIERS],
        });
        for w in 0..warps_per_cta {
            m.warps.push(Warp {
                slot,
                warp_in_cta: w as u32,
                live: 0,
                state: WState::Done,
                stack: Vec::with_capacity(8),
                regs: vec![0; nregs * WARP],
                local: vec![0; m.layout.local_bytes as usize * WARP],
            });
        }
    }
    let start = Instant::now();
    let completed = m.schedule()?;
    m.stats.seconds = start.elapsed().as_secs_f64();
    if let Some(e) = m.io_error.take() {
        return Err(SimtError::Io(e));
    }
    if let Some(t) = m.trace.as_mut() {
        t.flush().map_err(SimtError::Io)?;
    }
    if m.suppressed > 0 {
        m.findings.push(Finding::Suppressed {
            count: m.suppressed,
        });
    }
    let mut buffers = buffers;
    for (b, &o) in buffers.iter_mut().zip(&offsets) {
        let n = b.data.len();
        b.data
            .copy_from_slice(&m.global[o as usize..o as usize + n]);
    }
    m.stats.warp_instrs = m.steps;
    Ok(Outcome {
        buffers,
        findings: m.findings,
        completed,
        stats: m.stats,
    })
}

macro_rules! for_lanes {
    ($mask:expr, $l:ident, $body:block) => {{
        let m__: u32 = $mask;
        if m__ == FULL {
            for $l in 0..WARP $body
        } else {
            let mut mm__ = m__;
            while mm__ != 0 {
                let $l = mm__.trailing_zeros() as usize;
                mm__ &= mm__ - 1;
                $body
            }
        }
    }};
}

#[inline(always)]
/// The value of a specification query for one thread, paired with itself (the emulator
/// runs concrete threads: the other thread of GPUVerify's pair is the thread itself, every
/// executing thread is enabled, and no access history is kept, so `__read`/`__write` are
/// false). Annotations that depend on the non-thread-local ones are not checked (decode).
fn query_value(kind: QueryKind, bits: u16, a: &[u64]) -> u64 {
    let arg = |i: usize| a.get(i).copied().unwrap_or(0);
    let v = match kind {
        QueryKind::Enabled | QueryKind::DominatorEnabled | QueryKind::SameGroup => 1,
        QueryKind::UniformInt | QueryKind::AtMostOne => 1,
        QueryKind::DistinctInt => 0,
        QueryKind::OtherInt | QueryKind::OtherPtr | QueryKind::OldInt | QueryKind::All => arg(0),
        QueryKind::Read | QueryKind::Write | QueryKind::Atomic => 0,
        QueryKind::AtomicHasTakenValue | QueryKind::Havoc => 0,
        QueryKind::ReadOffset | QueryKind::WriteOffset | QueryKind::ReturnVal => 0,
        QueryKind::PtrBase => arg(0),
        QueryKind::PtrOffset => 0,
        QueryKind::NoOverflowAdd => {
            let (x, y) = (arg(0) as u32 as i32, arg(1) as u32 as i32);
            u64::from(x.checked_add(y).is_some())
        }
        QueryKind::NoOverflowAddUnsigned => {
            u64::from((arg(0) as u32).checked_add(arg(1) as u32).is_some())
        }
        QueryKind::Uf => {
            // A fixed function of (id, arguments): splitmix64 of their bits, as a small
            // double (the UF's return value is converted by the caller).
            let mut h = 0x9e37_79b9_7f4a_7c15u64;
            for x in a {
                h = (h ^ x).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                h ^= h >> 31;
            }
            ((h % 1024) as f64).to_bits()
        }
    };
    alu::trunc(v, bits)
}

fn rv(regs: &[u64], s: Src, lane: usize, sp: &dyn Fn(SpecialReg, usize) -> u64) -> u64 {
    rv_s::<WARP>(regs, s, lane, sp)
}

/// Operand `s` of `lane` in a register file of `S` lanes per register.
pub(crate) fn rv_s<const S: usize>(
    regs: &[u64],
    s: Src,
    lane: usize,
    sp: &dyn Fn(SpecialReg, usize) -> u64,
) -> u64 {
    match s {
        Src::R(r) => regs[r as usize * S + lane],
        Src::I(v) => v,
        Src::S(x) => sp(x, lane),
    }
}

/// `shfl.sync` (PTX ISA §9.7.8.6): the lane `lane` reads from, given its lane operand `b`
/// and its packed clamp/segment operand `c`, and whether that lane is in range (otherwise
/// the lane keeps its own value and its predicate is false).
pub fn shfl_source(mode: ShflMode, lane: usize, b: u64, c: u64) -> (usize, bool) {
    let bv = (b & 0x1f) as usize;
    let clamp = (c & 0x1f) as usize;
    let seg = ((c >> 8) & 0x1f) as usize;
    let max_lane = (lane & seg) | (clamp & !seg);
    let min_lane = lane & seg;
    let (j, ok) = match mode {
        ShflMode::Up => {
            let j = lane as isize - bv as isize;
            (j, j >= max_lane as isize)
        }
        ShflMode::Down => {
            let j = (lane + bv) as isize;
            (j, j <= max_lane as isize)
        }
        ShflMode::Bfly => {
            let j = (lane ^ bv) as isize;
            (j, j <= max_lane as isize)
        }
        ShflMode::Idx => {
            let j = (min_lane | (bv & !seg)) as isize;
            (j, j <= max_lane as isize)
        }
    };
    if ok {
        (j as usize, true)
    } else {
        (lane, false)
    }
}

/// `match.sync` (PTX ISA, `__match_any_sync`/`__match_all_sync`): lane `lane`'s
/// result and predicate given every member lane's value (`value(l)`, compared on `bits`
/// bits): `.any` gives the members whose value equals this lane's; `.all` gives the member
/// mask and true when every member has the same value, else 0 and false.
pub fn match_value(
    mode: MatchMode,
    bits: u16,
    members: u32,
    lane: usize,
    value: impl Fn(usize) -> u64,
) -> (u64, bool) {
    let cut = |v: u64| if bits >= 64 { v } else { v & 0xffff_ffff };
    let mine = cut(value(lane));
    let same = (0..WARP)
        .filter(|&l| members & (1 << l) != 0 && cut(value(l)) == mine)
        .fold(0u32, |m, l| m | 1 << l);
    match mode {
        MatchMode::Any => (u64::from(same), true),
        MatchMode::All if same == members => (u64::from(members), true),
        MatchMode::All => (0, false),
    }
}

/// `vote.sync` (PTX ISA §9.7.8.7): the result given the ballot of the voting lanes
/// (`members`: the lanes taking part).
pub fn vote_value(mode: VoteMode, ballot: u32, members: u32) -> u64 {
    match mode {
        VoteMode::Ballot => u64::from(ballot),
        VoteMode::All => u64::from(ballot == members),
        VoteMode::Any => u64::from(ballot != 0),
        VoteMode::Uni => u64::from(ballot == members || ballot == 0),
    }
}

impl<'a> Machine<'a> {
    fn site(&self, w: usize, pc: u32) -> Site {
        let warp = &self.warps[w];
        Site {
            cta: self.ctas[warp.slot].id,
            warp: warp.warp_in_cta,
            pos: self.kernel.describe_pos(pc as usize),
            pc,
        }
    }

    fn report(&mut self, f: Finding) {
        if self.findings.len() < self.opts.max_reports {
            self.findings.push(f);
        } else {
            self.suppressed += 1;
        }
    }

    fn launch_cta(&mut self, slot: usize, linear: u64) {
        let g = self.cfg.grid;
        let id = [
            (linear % u64::from(g[0])) as u32,
            ((linear / u64::from(g[0])) % u64::from(g[1])) as u32,
            (linear / (u64::from(g[0]) * u64::from(g[1]))) as u32,
        ];
        let kernel = self.kernel;
        let (sh_off, _) = kernel.layout(MemSpace::Shared);
        let cta = &mut self.ctas[slot];
        cta.active = true;
        cta.linear = linear;
        cta.id = id;
        cta.shared.fill(0);
        for (i, v) in kernel.vars.iter().enumerate() {
            if v.space == MemSpace::Shared && !v.init.is_empty() {
                let o = sh_off[i] as usize;
                let n = v.init.len().min(v.size as usize);
                cta.shared[o..o + n].copy_from_slice(&v.init[..n]);
            }
        }
        cta.live_threads = self.block_threads;
        cta.warps_done = 0;
        for b in cta.bars.iter_mut() {
            *b = BarState::default();
        }
        cta.mismatch_reported = [false; BARRIERS];
        cta.exit_reported = [false; BARRIERS];
        let bt = self.block_threads as usize;
        for w in 0..self.warps_per_cta {
            let lanes = (bt - w * WARP).min(WARP);
            let live = if lanes == WARP {
                FULL
            } else {
                (1u32 << lanes) - 1
            };
            let warp = &mut self.warps[slot * self.warps_per_cta + w];
            warp.live = live;
            warp.state = WState::Ready;
            warp.stack.clear();
            warp.stack.push(Frame {
                pc: 0,
                rpc: u32::MAX,
                mask: live,
                kind: FrameKind::Base,
            });
            warp.regs.fill(0);
            warp.local.fill(0);
        }
    }

    /// The scheduler loop; `Ok(true)` when every thread completed.
    fn schedule(&mut self) -> Result<bool, SimtError> {
        let total = self.cfg.grid_ctas();
        let mut next = 0u64;
        for slot in 0..self.ctas.len() {
            self.launch_cta(slot, next);
            next += 1;
        }
        let mut rng = match self.opts.schedule {
            Schedule::Random(s) => Some(Rng(s)),
            Schedule::RoundRobin => None,
        };
        let nw = self.warps.len();
        let mut cursor = 0usize;
        let mut ready: Vec<usize> = Vec::with_capacity(nw);
        loop {
            // Pick a warp.
            let (w, quantum) = if let Some(r) = rng.as_mut() {
                ready.clear();
                ready.extend((0..nw).filter(|&i| self.warps[i].state == WState::Ready));
                if ready.is_empty() {
                    None
                } else {
                    let w = ready[(r.next() % ready.len() as u64) as usize];
                    Some((
                        w,
                        1 + (r.next() % u64::from(self.opts.quantum.max(1))) as u32,
                    ))
                }
            } else {
                let mut found = None;
                for k in 0..nw {
                    let i = (cursor + k) % nw;
                    if self.warps[i].state == WState::Ready {
                        found = Some(i);
                        break;
                    }
                }
                found.map(|i| {
                    cursor = (i + 1) % nw;
                    (i, self.opts.quantum.max(1))
                })
            }
            .map_or((usize::MAX, 0), |x| x);
            if w == usize::MAX {
                if self.ctas.iter().all(|c| !c.active) {
                    return Ok(true);
                }
                let mut blocked = Vec::new();
                for (slot, c) in self.ctas.iter().enumerate() {
                    if !c.active {
                        continue;
                    }
                    for (id, b) in c.bars.iter().enumerate() {
                        for &(wi, mask) in &b.waiting {
                            let pc = self.warps[wi].stack.last().map_or(0, |f| f.pc);
                            let site = self.site(wi, pc);
                            let _ = slot;
                            blocked.push((
                                site,
                                id as u32,
                                lanes_to_threads(self.warps[wi].warp_in_cta, mask),
                            ));
                        }
                    }
                }
                self.findings.push(Finding::Deadlock { blocked });
                return Ok(false);
            }
            let stop = self.run_warp(w, quantum);
            if self.io_error.is_some() {
                return Ok(false);
            }
            let slot = self.warps[w].slot;
            match stop {
                Stop::Yield => {}
                Stop::Barrier(s, id) => self.check_barrier(s, id),
                Stop::Exited(s) => {
                    for id in 0..BARRIERS {
                        if !self.ctas[s].bars[id].waiting.is_empty()
                            || self.ctas[s].bars[id].arrived > 0
                        {
                            self.check_barrier(s, id);
                        }
                    }
                }
                Stop::Fatal(f) => {
                    self.findings.push(f);
                    return Ok(false);
                }
            }
            if self.warps[w].state == WState::Done {
                let c = &mut self.ctas[slot];
                c.warps_done += 1;
                if c.warps_done as usize == self.warps_per_cta {
                    c.active = false;
                    if next < total {
                        self.launch_cta(slot, next);
                        next += 1;
                    }
                }
            }
            if self.steps >= self.opts.max_steps {
                self.findings.push(Finding::StepLimit { steps: self.steps });
                return Ok(false);
            }
        }
    }

    fn check_barrier(&mut self, slot: usize, id: usize) {
        let cta = &self.ctas[slot];
        let b = &cta.bars[id];
        let expected = b.expected.unwrap_or(cta.live_threads);
        if b.arrived == 0 || b.arrived < expected {
            return;
        }
        let b = std::mem::take(&mut self.ctas[slot].bars[id]);
        if b.pcs.len() > 1 && !self.ctas[slot].mismatch_reported[id] {
            self.ctas[slot].mismatch_reported[id] = true;
            let positions = b
                .pcs
                .iter()
                .map(|&pc| self.kernel.describe_pos(pc as usize))
                .collect();
            let cta = self.ctas[slot].id;
            self.report(Finding::BarrierMismatch {
                cta,
                id: id as u32,
                positions,
            });
        }
        if b.expected.is_none()
            && b.arrived < self.block_threads
            && !self.ctas[slot].exit_reported[id]
        {
            self.ctas[slot].exit_reported[id] = true;
            let wpc = self.warps_per_cta;
            let bt = self.block_threads as usize;
            let mut exited = Vec::new();
            for k in 0..wpc {
                let lanes = (bt - k * WARP).min(WARP);
                let all = if lanes == WARP {
                    FULL
                } else {
                    (1u32 << lanes) - 1
                };
                let warp = &self.warps[slot * wpc + k];
                exited.extend(lanes_to_threads(k as u32, all & !warp.live));
            }
            let pos = self
                .kernel
                .describe_pos(b.pcs.first().copied().unwrap_or(0) as usize);
            let cta = self.ctas[slot].id;
            self.report(Finding::BarrierExited {
                cta,
                id: id as u32,
                pos,
                exited,
            });
        }
        if self.trace.is_some() {
            let linear = self.ctas[slot].linear;
            self.emit(format_args!("bar {linear}\n"));
        }
        if let Some(sk) = self.sink.as_mut() {
            sk.bar(self.ctas[slot].linear, id as u32, b.expected.is_none());
        }
        for &(wi, mask) in &b.waiting {
            let warp = &mut self.warps[wi];
            let top = warp.stack.last_mut().expect("blocked warp has a frame");
            let pc = top.pc as usize;
            top.pc += 1;
            warp.state = WState::Ready;
            if let DOp::Bar {
                red: Some((op, dst, _, _)),
                ..
            } = &self.code[pc].op
            {
                let v = match op {
                    BarRed::Popc => u64::from(b.popc),
                    BarRed::And => u64::from(b.all),
                    BarRed::Or => u64::from(b.any),
                };
                let bits = self.reg_bits[*dst as usize];
                for_lanes!(mask, l, {
                    warp.regs[*dst as usize * WARP + l] = alu::trunc(v, bits);
                });
            }
        }
    }

    fn emit(&mut self, args: fmt::Arguments<'_>) {
        if let Some(t) = self.trace.as_mut() {
            if self.io_error.is_none() {
                if let Err(e) = t.write_fmt(args) {
                    self.io_error = Some(e);
                }
                self.stats.trace_events += 1;
            }
        }
    }

    /// Runs warp `w` for up to `quantum` warp-instructions.
    fn run_warp(&mut self, w: usize, quantum: u32) -> Stop {
        let tracing = self.trace.is_some() || self.sink.is_some();
        let mut budget = quantum;
        while budget > 0 {
            // Pop finished frames.
            let warp = &mut self.warps[w];
            let Some(top) = warp.stack.last().copied() else {
                warp.state = WState::Done;
                return Stop::Yield;
            };
            if top.pc == top.rpc || top.mask & warp.live == 0 {
                warp.stack.pop();
                if warp.stack.is_empty() {
                    warp.state = WState::Done;
                    return Stop::Yield;
                }
                if tracing {
                    let nt = *warp.stack.last().expect("nonempty");
                    let gw = self.global_warp(w);
                    if let Some(sk) = self.sink.as_mut() {
                        let m = nt.mask & self.warps[w].live;
                        match (top.kind, nt.kind) {
                            (FrameKind::Then, FrameKind::Else) => {
                                sk.branch(BranchEvent::Else, gw, m)
                            }
                            (FrameKind::Else, _) => sk.branch(BranchEvent::Fi, gw, m),
                            _ => {}
                        }
                    }
                    match (top.kind, nt.kind) {
                        (FrameKind::Then, FrameKind::Else) => self.emit(format_args!(
                            "else {gw} {:08x}\n",
                            nt.mask & self.warps[w].live
                        )),
                        (FrameKind::Else, _) => self.emit(format_args!(
                            "fi {gw} {:08x}\n",
                            nt.mask & self.warps[w].live
                        )),
                        _ => {}
                    }
                }
                continue;
            }
            if top.pc as usize >= self.code.len() {
                // Falling off the end: the active threads exit.
                let stop = self.exit_lanes(w, top.mask);
                if let Some(s) = stop {
                    return s;
                }
                continue;
            }
            budget -= 1;
            self.steps += 1;
            match self.exec(w, top) {
                None => {}
                Some(s) => return s,
            }
        }
        Stop::Yield
    }

    fn global_warp(&self, w: usize) -> u64 {
        let warp = &self.warps[w];
        self.ctas[warp.slot].linear * self.warps_per_cta as u64 + u64::from(warp.warp_in_cta)
    }

    fn exit_lanes(&mut self, w: usize, em: u32) -> Option<Stop> {
        let warp = &mut self.warps[w];
        let em = em & warp.live;
        warp.live &= !em;
        for f in warp.stack.iter_mut() {
            f.mask &= !em;
        }
        let slot = warp.slot;
        let n = em.count_ones();
        if warp.live == 0 {
            warp.state = WState::Done;
            warp.stack.clear();
        }
        self.ctas[slot].live_threads -= n;
        Some(Stop::Exited(slot))
    }

    /// Executes the instruction at the top frame's pc; `Some` ends the warp's turn.
    fn exec(&mut self, w: usize, top: Frame) -> Option<Stop> {
        let post = self.exec_inner(w, top);
        match post {
            Post::None => None,
            Post::Stop(s) => Some(s),
            Post::Exit(em) => self.exit_lanes(w, em),
            Post::Fault(l, a, what) => Some(self.fault(w, top.pc, l, a, what)),
            Post::BarDiv { em, live, stop } => {
                let site = self.site(w, top.pc);
                let wic = self.warps[w].warp_in_cta;
                self.report(Finding::BarrierDivergence {
                    site,
                    arrived: lanes_to_threads(wic, em),
                    missing: lanes_to_threads(wic, live & !em),
                });
                Some(stop)
            }
            Post::WarpSyncDiv(missing) => {
                let site = self.site(w, top.pc);
                let wic = self.warps[w].warp_in_cta;
                self.report(Finding::WarpSyncDivergence {
                    site,
                    missing: lanes_to_threads(wic, missing),
                });
                None
            }
            Post::Assert(failed, kind) => {
                if !self.failed_asserts.contains(&top.pc) {
                    self.failed_asserts.push(top.pc);
                    let site = self.site(w, top.pc);
                    let wic = self.warps[w].warp_in_cta;
                    self.report(Finding::AssertionFailed {
                        site,
                        kind,
                        threads: lanes_to_threads(wic, failed),
                    });
                }
                None
            }
            Post::Trap(em) => {
                let site = self.site(w, top.pc);
                let wic = self.warps[w].warp_in_cta;
                Some(Stop::Fatal(Finding::Trap {
                    site,
                    threads: lanes_to_threads(wic, em),
                }))
            }
        }
    }

    fn exec_inner(&mut self, w: usize, top: Frame) -> Post {
        let pc = top.pc;
        let tracing = self.trace.is_some() || self.sink.is_some();
        let Machine {
            code,
            warps,
            ctas,
            global,
            param,
            cfg,
            reg_bits,
            layout,
            block_threads,
            trace,
            sink,
            io_error,
            stats,
            warps_per_cta,
            steps,
            ..
        } = self;
        let (block_threads, warps_per_cta, steps) = (*block_threads, *warps_per_cta, *steps);
        let ins = &code[pc as usize];
        let warp = &mut warps[w];
        let mask = top.mask & warp.live;
        let em = match ins.guard {
            None => mask,
            Some((r, neg)) => {
                let base = r as usize * WARP;
                let mut pm = 0u32;
                for_lanes!(mask, l, {
                    if (warp.regs[base + l] & 1 == 1) != neg {
                        pm |= 1 << l;
                    }
                });
                pm
            }
        };
        stats.thread_instrs += u64::from(em.count_ones());
        let slot = warp.slot;
        let cta = &mut ctas[slot];
        let wic = warp.warp_in_cta;
        let block = cfg.block;
        let grid = cfg.grid;
        let cta_id = cta.id;
        let wpc = warps_per_cta as u32;
        let sp = move |s: SpecialReg, lane: usize| -> u64 {
            let t = wic * 32 + lane as u32;
            match s {
                SpecialReg::Tid(0) => u64::from(t % block[0]),
                SpecialReg::Tid(1) => u64::from((t / block[0]) % block[1]),
                SpecialReg::Tid(_) => u64::from(t / (block[0] * block[1])),
                SpecialReg::Ntid(d) => u64::from(block[d.min(2) as usize]),
                SpecialReg::Ctaid(d) => u64::from(cta_id[d.min(2) as usize]),
                SpecialReg::Nctaid(d) => u64::from(grid[d.min(2) as usize]),
                SpecialReg::Laneid => lane as u64,
                SpecialReg::Warpid => u64::from(wic),
                SpecialReg::Nwarpid => u64::from(wpc),
                SpecialReg::LanemaskEq => 1u64 << lane,
                SpecialReg::LanemaskLe => ((1u64 << (lane + 1)) - 1) & 0xffff_ffff,
                SpecialReg::LanemaskLt => (1u64 << lane) - 1,
                SpecialReg::LanemaskGe => (!((1u64 << lane) - 1)) & 0xffff_ffff,
                SpecialReg::LanemaskGt => (!((1u64 << (lane + 1)) - 1)) & 0xffff_ffff,
                SpecialReg::Smid => slot as u64,
                SpecialReg::Nsmid => 1,
                SpecialReg::Gridid => 0,
                SpecialReg::Clock => steps,
            }
        };
        let regs = &mut warp.regs;
        let mut next = pc + 1;
        // Member lanes of a `.sync` warp operation that are not executing it.
        let mut sync_div = 0u32;
        macro_rules! set {
            ($r:expr, $l:expr, $v:expr) => {
                regs[$r as usize * WARP + $l] = $v
            };
        }
        if exec_alu::<WARP>(&ins.op, regs, em, &sp) {
            warp.stack.last_mut().expect("frame").pc = next;
            return Post::None;
        }
        match &ins.op {
            DOp::Ld {
                space,
                width,
                sext,
                dst,
                addr,
                trace: tk,
            } => {
                let width = *width as usize;
                let local_bytes = layout.local_bytes as usize;
                let gt_base = cta.linear * u64::from(block_threads) + u64::from(wic) * 32;
                let mut fault = None;
                for_lanes!(em, l, {
                    let base = lane_addr(regs, *addr, l);
                    for (k, d) in dst.iter().enumerate() {
                        let a = base.wrapping_add((k * width) as u64);
                        let Some((region, off)) = route(*space, a) else {
                            fault = Some((l, a, "load from an invalid address"));
                            break;
                        };
                        let m: &[u8] = match region {
                            Region::Global => global,
                            Region::Shared => &cta.shared,
                            Region::Local => warp_local(&warp.local, local_bytes, l),
                            Region::Param => param,
                        };
                        let Some(mut v) = mem::read(m, off, width) else {
                            fault = Some((l, a, "out-of-bounds load"));
                            break;
                        };
                        if let Some(d) = d {
                            if *sext {
                                v = alu::sext(v, (width * 8) as u16) as u64;
                            }
                            set!(*d, l, alu::trunc(v, reg_bits[*d as usize]));
                        }
                        if tracing && *tk != TraceKind::None {
                            if let Some(sk) = sink.as_mut() {
                                sk.access(&access_event(
                                    region,
                                    off,
                                    a,
                                    cta.linear,
                                    gt_base + l as u64,
                                    pc,
                                    AccessOp::Load,
                                    *tk,
                                    width as u8,
                                    v,
                                ));
                            }
                            let loc = Loc(region, off, a, cta.linear, gt_base + l as u64);
                            emit_access(
                                trace,
                                io_error,
                                stats,
                                tk.name(),
                                gt_base + l as u64,
                                &loc,
                            );
                        }
                    }
                    if fault.is_some() {
                        break;
                    }
                });
                if let Some((l, a, what)) = fault {
                    return Post::Fault(l, a, what);
                }
                if tracing && *tk != TraceKind::None && em != 0 {
                    let gw = cta.linear * u64::from(wpc) + u64::from(wic);
                    if let Some(sk) = sink.as_mut() {
                        sk.endi(gw, em, pc);
                    }
                    emit_warp(trace, io_error, stats, "endi", gw, em);
                }
            }
            DOp::St {
                space,
                width,
                src,
                addr,
                trace: tk,
            } => {
                let width = *width as usize;
                let local_bytes = layout.local_bytes as usize;
                let gt_base = cta.linear * u64::from(block_threads) + u64::from(wic) * 32;
                let mut fault = None;
                for_lanes!(em, l, {
                    let base = lane_addr(regs, *addr, l);
                    for (k, s) in src.iter().enumerate() {
                        let a = base.wrapping_add((k * width) as u64);
                        let v = rv(regs, *s, l, &sp);
                        let ok = match route(*space, a) {
                            Some((Region::Global, off)) => {
                                mem::write(global, off, width, v).then_some((Region::Global, off))
                            }
                            Some((Region::Shared, off)) => {
                                mem::write(&mut cta.shared, off, width, v)
                                    .then_some((Region::Shared, off))
                            }
                            Some((Region::Local, off)) => {
                                let lm = &mut warp.local[l * local_bytes..(l + 1) * local_bytes];
                                mem::write(lm, off, width, v).then_some((Region::Local, off))
                            }
                            _ => None,
                        };
                        let Some((region, off)) = ok else {
                            fault = Some((l, a, "out-of-bounds or invalid store"));
                            break;
                        };
                        if tracing {
                            if let Some(sk) = sink.as_mut() {
                                sk.access(&access_event(
                                    region,
                                    off,
                                    a,
                                    cta.linear,
                                    gt_base + l as u64,
                                    pc,
                                    AccessOp::Store,
                                    *tk,
                                    width as u8,
                                    alu::trunc(v, (width * 8) as u16),
                                ));
                            }
                            let loc = Loc(region, off, a, cta.linear, gt_base + l as u64);
                            emit_access(
                                trace,
                                io_error,
                                stats,
                                tk.name(),
                                gt_base + l as u64,
                                &loc,
                            );
                        }
                    }
                    if fault.is_some() {
                        break;
                    }
                });
                if let Some((l, a, what)) = fault {
                    return Post::Fault(l, a, what);
                }
                if tracing && em != 0 {
                    let gw = cta.linear * u64::from(wpc) + u64::from(wic);
                    if let Some(sk) = sink.as_mut() {
                        sk.endi(gw, em, pc);
                    }
                    emit_warp(trace, io_error, stats, "endi", gw, em);
                }
            }
            DOp::Atom {
                op,
                space,
                ty,
                dst,
                addr,
                a,
                b,
                trace: tk,
            } => {
                let width = (ty.bits / 8) as usize;
                let gt_base = cta.linear * u64::from(block_threads) + u64::from(wic) * 32;
                let mut fault = None;
                // Lanes in order: atomics of one warp instruction are serialised by lane.
                for_lanes!(em, l, {
                    let ad = lane_addr(regs, *addr, l);
                    let (x, y) = (rv(regs, *a, l, &sp), b.map_or(0, |b| rv(regs, b, l, &sp)));
                    let (m, region, off): (&mut [u8], Region, u64) = match route(*space, ad) {
                        Some((Region::Global, off)) => (&mut global[..], Region::Global, off),
                        Some((Region::Shared, off)) => (&mut cta.shared[..], Region::Shared, off),
                        _ => {
                            fault = Some((l, ad, "atomic on an invalid address"));
                            break;
                        }
                    };
                    let Some(old) = mem::read(m, off, width) else {
                        fault = Some((l, ad, "out-of-bounds atomic"));
                        break;
                    };
                    let after = op.apply_typed(*ty, old, x, y);
                    if let Some(new) = after {
                        mem::write(m, off, width, new);
                    }
                    if let Some(d) = dst {
                        set!(*d, l, old);
                    }
                    if tracing {
                        if let Some(sk) = sink.as_mut() {
                            sk.access(&access_event(
                                region,
                                off,
                                ad,
                                cta.linear,
                                gt_base + l as u64,
                                pc,
                                AccessOp::Atomic(*op),
                                *tk,
                                width as u8,
                                after.unwrap_or(old),
                            ));
                        }
                        let loc = Loc(region, off, ad, cta.linear, gt_base + l as u64);
                        emit_access(trace, io_error, stats, tk.name(), gt_base + l as u64, &loc);
                    }
                });
                if let Some((l, a, what)) = fault {
                    return Post::Fault(l, a, what);
                }
                if tracing && em != 0 {
                    let gw = cta.linear * u64::from(wpc) + u64::from(wic);
                    if let Some(sk) = sink.as_mut() {
                        sk.endi(gw, em, pc);
                    }
                    emit_warp(trace, io_error, stats, "endi", gw, em);
                }
            }
            DOp::Fence | DOp::Nop => {}
            DOp::Bar {
                id,
                count,
                arrive,
                red,
            } => {
                if em == 0 {
                    warp.stack.last_mut().expect("frame").pc = next;
                    return Post::None;
                }
                let l0 = em.trailing_zeros() as usize;
                let bid = (rv(regs, *id, l0, &sp) as usize) % BARRIERS;
                let cnt = count.map(|c| rv(regs, c, l0, &sp) as u32);
                let bs = &mut cta.bars[bid];
                bs.arrived += em.count_ones();
                if bs.arrived == em.count_ones() {
                    bs.all = true;
                }
                if let Some(c) = cnt {
                    bs.expected = Some(c);
                }
                if let Some((_, _, p, neg)) = red {
                    for_lanes!(em, l, {
                        let q = (rv(regs, *p, l, &sp) & 1 == 1) != *neg;
                        bs.popc += u32::from(q);
                        bs.all &= q;
                        bs.any |= q;
                    });
                }
                if !bs.pcs.contains(&pc) {
                    bs.pcs.push(pc);
                }
                if let Some(sk) = sink.as_mut() {
                    let gw = cta.linear * u64::from(wpc) + u64::from(wic);
                    sk.bar_arrive(cta.linear, gw, em, bid as u32, !*arrive, pc);
                }
                let live = warp.live;
                if *arrive {
                    warp.stack.last_mut().expect("frame").pc = next;
                } else {
                    bs.waiting.push((w, em));
                    warp.state = WState::Blocked;
                }
                let stop = Stop::Barrier(slot, bid);
                if em != live && !*arrive {
                    return Post::BarDiv { em, live, stop };
                }
                return Post::Stop(stop);
            }
            DOp::WarpSync { mask: m } if em != 0 => {
                let l0 = em.trailing_zeros() as usize;
                let members = rv(regs, *m, l0, &sp) as u32 & warp.live;
                if members & !em != 0 {
                    warp.stack.last_mut().expect("frame").pc = next;
                    return Post::WarpSyncDiv(members & !em);
                }
            }
            DOp::Bra { target, rpc } => {
                let taken = em;
                let not = mask & !em;
                if ins.guard.is_none() || not == 0 {
                    next = *target;
                } else if taken != 0 {
                    // Divergence: the current frame becomes the join at the reconvergence point.
                    let gw = cta.linear * u64::from(wpc) + u64::from(wic);
                    let st = &mut warp.stack;
                    // The current frame waits at the reconvergence point; it keeps its kind so
                    // that the enclosing branch's else/fi events stay right.
                    st.last_mut().expect("frame").pc = *rpc;
                    st.push(Frame {
                        pc: pc + 1,
                        rpc: *rpc,
                        mask: not,
                        kind: FrameKind::Else,
                    });
                    st.push(Frame {
                        pc: *target,
                        rpc: *rpc,
                        mask: taken,
                        kind: FrameKind::Then,
                    });
                    if let Some(sk) = sink.as_mut() {
                        sk.branch(BranchEvent::If, gw, taken);
                    }
                    if tracing {
                        emit_to(
                            trace,
                            io_error,
                            stats,
                            format_args!("if {gw} {taken:08x}\n"),
                        );
                    }
                    return Post::None;
                }
            }
            DOp::Exit => {
                if em == 0 {
                    warp.stack.last_mut().expect("frame").pc = next;
                    return Post::None;
                }
                // Lanes not exiting continue after the instruction.
                warp.stack.last_mut().expect("frame").pc = next;
                return Post::Exit(em);
            }
            DOp::Trap if em != 0 => return Post::Trap(em),
            DOp::Shfl {
                mode,
                dst,
                dst_pred,
                a,
                b,
                c,
                mask,
            } => {
                sync_div = member_gap(regs, *mask, em, warp.live, &sp);
                let mut vals = [0u64; WARP];
                let mut oks = [false; WARP];
                for_lanes!(em, l, {
                    let bv = rv(regs, *b, l, &sp);
                    let cv = rv(regs, *c, l, &sp);
                    let (src_lane, ok) = shfl_source(*mode, l, bv, cv);
                    vals[l] = rv(regs, *a, src_lane.min(WARP - 1), &sp);
                    oks[l] = ok;
                });
                for_lanes!(em, l, {
                    set!(*dst, l, vals[l] & 0xffff_ffff);
                    if let Some(p) = dst_pred {
                        set!(*p, l, u64::from(oks[l]));
                    }
                });
            }
            DOp::Vote {
                mode,
                dst,
                p,
                neg,
                mask,
            } => {
                sync_div = member_gap(regs, *mask, em, warp.live, &sp);
                let mut ballot = 0u32;
                for_lanes!(em, l, {
                    if (rv(regs, *p, l, &sp) & 1 == 1) != *neg {
                        ballot |= 1 << l;
                    }
                });
                let v = vote_value(*mode, ballot, em);
                for_lanes!(em, l, {
                    set!(*dst, l, v);
                });
            }
            DOp::Match {
                mode,
                bits,
                dst,
                dst_pred,
                a,
                mask,
            } => {
                sync_div = member_gap(regs, *mask, em, warp.live, &sp);
                let on = |l: usize| em & (1 << l) != 0;
                let vals: [u64; WARP] =
                    std::array::from_fn(|l| if on(l) { rv(regs, *a, l, &sp) } else { 0 });
                let out: [(u64, bool); WARP] = std::array::from_fn(|l| {
                    if on(l) {
                        match_value(*mode, *bits, em, l, |k| vals[k])
                    } else {
                        (0, false)
                    }
                });
                for_lanes!(em, l, {
                    set!(*dst, l, out[l].0);
                    if let Some(p) = dst_pred {
                        set!(*p, l, u64::from(out[l].1));
                    }
                });
            }
            DOp::Activemask { dst } => {
                for_lanes!(em, l, {
                    set!(*dst, l, u64::from(mask));
                });
            }
            DOp::Assert { kind, cond } => {
                let mut failed = 0u32;
                for_lanes!(em, l, {
                    if rv(regs, *cond, l, &sp) == 0 {
                        failed |= 1 << l;
                    }
                });
                if failed != 0 {
                    warp.stack.last_mut().expect("frame").pc = next;
                    return Post::Assert(failed, *kind);
                }
            }
            _ => {}
        }
        warp.stack.last_mut().expect("frame").pc = next;
        if sync_div != 0 {
            return Post::WarpSyncDiv(sync_div);
        }
        Post::None
    }

    fn fault(&mut self, w: usize, pc: u32, lane: usize, addr: u64, what: &str) -> Stop {
        let site = self.site(w, pc);
        let thread = self.warps[w].warp_in_cta * 32 + lane as u32;
        Stop::Fatal(Finding::MemoryFault {
            site,
            thread,
            addr,
            what: what.to_string(),
        })
    }
}

/// Executes a register-only instruction (moves, arithmetic, comparisons, conversions, bit
/// operations, specification queries) for the lanes of `em` over a register file holding `S`
/// lanes per register (`S` = [`WARP`] for the warp emulator, 1 for a single thread, see
/// [`crate::thread`]); `false` when `op` is not such an instruction (nothing is changed).
pub(crate) fn exec_alu<const S: usize>(
    op: &DOp,
    regs: &mut [u64],
    em: u32,
    sp: &dyn Fn(SpecialReg, usize) -> u64,
) -> bool {
    macro_rules! set {
        ($r:expr, $l:expr, $v:expr) => {
            regs[$r as usize * S + $l] = $v
        };
    }
    match op {
        DOp::Mov { dst, src, bits } => {
            let (dst, src, bits) = (*dst, *src, *bits);
            for_lanes!(em, l, {
                let v = rv_s::<S>(regs, src, l, &sp);
                set!(dst, l, alu::trunc(v, bits));
            });
        }
        DOp::Un { f, dst, a, bits } => {
            let (f, dst, a, bits) = (*f, *dst, *a, *bits);
            for_lanes!(em, l, {
                let v = f(rv_s::<S>(regs, a, l, &sp));
                set!(dst, l, alu::trunc(v, bits));
            });
        }
        DOp::BinFast { op, dst, a, b } => {
            let (dst, a, b) = (*dst as usize, *a, *b);
            macro_rules! go {
                ($f:expr) => {
                    bin_loop_s::<S, _>(regs, em, dst, a, b, &sp, $f)
                };
            }
            match op {
                FastBin::Add32 => {
                    go!(|x: u64, y: u64| (x as u32).wrapping_add(y as u32) as u64)
                }
                FastBin::Add64 => go!(|x: u64, y: u64| x.wrapping_add(y)),
                FastBin::Sub32 => {
                    go!(|x: u64, y: u64| (x as u32).wrapping_sub(y as u32) as u64)
                }
                FastBin::Sub64 => go!(|x: u64, y: u64| x.wrapping_sub(y)),
                FastBin::Mul32 => {
                    go!(|x: u64, y: u64| (x as u32).wrapping_mul(y as u32) as u64)
                }
                FastBin::Mul64 => go!(|x: u64, y: u64| x.wrapping_mul(y)),
                FastBin::And => go!(|x: u64, y: u64| x & y),
                FastBin::Or => go!(|x: u64, y: u64| x | y),
                FastBin::Xor => go!(|x: u64, y: u64| x ^ y),
                FastBin::Shl32 => go!(|x: u64, y: u64| if y as u32 >= 32 {
                    0
                } else {
                    ((x as u32) << (y as u32)) as u64
                }),
                FastBin::Shl64 => {
                    go!(|x: u64, y: u64| if y as u32 >= 64 { 0 } else { x << (y as u32) })
                }
                FastBin::ShrU32 => go!(|x: u64, y: u64| if y as u32 >= 32 {
                    0
                } else {
                    ((x as u32) >> (y as u32)) as u64
                }),
                FastBin::ShrS32 => {
                    go!(|x: u64, y: u64| ((x as u32 as i32) >> (y as u32).min(31)) as u32 as u64)
                }
                FastBin::ShrU64 => {
                    go!(|x: u64, y: u64| if y as u32 >= 64 { 0 } else { x >> (y as u32) })
                }
                FastBin::ShrS64 => {
                    go!(|x: u64, y: u64| ((x as i64) >> (y as u32).min(63)) as u64)
                }
                FastBin::WideU32 => go!(|x: u64, y: u64| (x as u32 as u64) * (y as u32 as u64)),
                FastBin::WideS32 => go!(|x: u64, y: u64| ((x as u32 as i32 as i64)
                    * (y as u32 as i32 as i64))
                    as u64),
                FastBin::MinS32 => {
                    go!(|x: u64, y: u64| (x as u32 as i32).min(y as u32 as i32) as u32 as u64)
                }
                FastBin::MaxS32 => {
                    go!(|x: u64, y: u64| (x as u32 as i32).max(y as u32 as i32) as u32 as u64)
                }
                FastBin::MinU32 => go!(|x: u64, y: u64| (x as u32).min(y as u32) as u64),
                FastBin::MaxU32 => go!(|x: u64, y: u64| (x as u32).max(y as u32) as u64),
            }
        }
        DOp::SetpFast { cmp, dst, a, b } => {
            let (dst, a, b) = (*dst as usize, *a, *b);
            macro_rules! by_class {
                    ($op:tt) => {
                        match cmp.class {
                            0 => go!(|x: u64, y: u64| u64::from((x as u32 as i32) $op (y as u32 as i32))),
                            1 => go!(|x: u64, y: u64| u64::from((x as u32) $op (y as u32))),
                            2 => go!(|x: u64, y: u64| u64::from((x as i64) $op (y as i64))),
                            _ => go!(|x: u64, y: u64| u64::from(x $op y)),
                        }
                    };
                }
            macro_rules! go {
                ($f:expr) => {
                    bin_loop_s::<S, _>(regs, em, dst, a, b, &sp, $f)
                };
            }
            match cmp.cmp {
                KCmp::Eq => by_class!(==),
                KCmp::Ne => by_class!(!=),
                KCmp::Lt => by_class!(<),
                KCmp::Le => by_class!(<=),
                KCmp::Gt => by_class!(>),
                _ => by_class!(>=),
            }
        }
        DOp::Bin { f, dst, a, b, bits } => {
            let (f, dst, a, b, bits) = (*f, *dst, *a, *b, *bits);
            for_lanes!(em, l, {
                let v = f(rv_s::<S>(regs, a, l, &sp), rv_s::<S>(regs, b, l, &sp));
                set!(dst, l, alu::trunc(v, bits));
            });
        }
        DOp::Mad {
            mul,
            add,
            dst,
            a,
            b,
            c,
            fused_float,
        } => {
            let (mul, add, dst, a, b, c, ff) = (*mul, *add, *dst, *a, *b, *c, *fused_float);
            for_lanes!(em, l, {
                let (x, y, z) = (
                    rv_s::<S>(regs, a, l, &sp),
                    rv_s::<S>(regs, b, l, &sp),
                    rv_s::<S>(regs, c, l, &sp),
                );
                let v = match ff {
                    Some(32) => f32::from_bits(x as u32)
                        .mul_add(f32::from_bits(y as u32), f32::from_bits(z as u32))
                        .to_bits() as u64,
                    Some(_) => f64::from_bits(x)
                        .mul_add(f64::from_bits(y), f64::from_bits(z))
                        .to_bits(),
                    None => add(mul(x, y), z),
                };
                set!(dst, l, v);
            });
        }
        DOp::Setp {
            f,
            dst,
            dst2,
            a,
            b,
            combine,
        } => {
            let (f, dst, dst2, a, b, combine) = (*f, *dst, *dst2, *a, *b, *combine);
            for_lanes!(em, l, {
                let mut r = f(rv_s::<S>(regs, a, l, &sp), rv_s::<S>(regs, b, l, &sp));
                let mut r2 = !r;
                if let Some((op, p, neg)) = combine {
                    let q = (rv_s::<S>(regs, p, l, &sp) & 1 == 1) != neg;
                    let comb = |x: bool| match op {
                        KBoolOp::And => x && q,
                        KBoolOp::Or => x || q,
                        KBoolOp::Xor => x ^ q,
                    };
                    r = comb(r);
                    r2 = comb(r2);
                }
                set!(dst, l, u64::from(r));
                if let Some(d2) = dst2 {
                    set!(d2, l, u64::from(r2));
                }
            });
        }
        DOp::Selp { dst, a, b, p } => {
            let (dst, a, b, p) = (*dst, *a, *b, *p);
            for_lanes!(em, l, {
                let v = if rv_s::<S>(regs, p, l, &sp) & 1 == 1 {
                    rv_s::<S>(regs, a, l, &sp)
                } else {
                    rv_s::<S>(regs, b, l, &sp)
                };
                set!(dst, l, v);
            });
        }
        DOp::Cvt {
            dst,
            src,
            dst_ty,
            src_ty,
            rounding,
            integral,
            sat,
        } => {
            for_lanes!(em, l, {
                let v = alu::convert(
                    rv_s::<S>(regs, *src, l, &sp),
                    *dst_ty,
                    *src_ty,
                    *rounding,
                    *integral,
                    *sat,
                );
                set!(*dst, l, v);
            });
        }
        DOp::Cvta { dst, src, add } => {
            for_lanes!(em, l, {
                let v = rv_s::<S>(regs, *src, l, &sp).wrapping_add(*add as u64);
                set!(*dst, l, v);
            });
        }
        DOp::Bfe {
            dst,
            a,
            pos,
            len,
            ty,
        } => {
            let bits = u32::from(ty.bits);
            for_lanes!(em, l, {
                let x = rv_s::<S>(regs, *a, l, &sp);
                let p = (rv_s::<S>(regs, *pos, l, &sp) & 0xff) as u32;
                let n = (rv_s::<S>(regs, *len, l, &sp) & 0xff) as u32;
                let v = if n == 0 || p >= bits {
                    if ty.kind == TypeKind::Signed && n != 0 && (x >> (bits - 1)) & 1 == 1 {
                        u64::MAX
                    } else {
                        0
                    }
                } else {
                    let n = n.min(bits - p);
                    let field = (x >> p) & if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
                    if ty.kind == TypeKind::Signed {
                        alu::sext(field, n as u16) as u64
                    } else {
                        field
                    }
                };
                set!(*dst, l, alu::trunc(v, ty.bits));
            });
        }
        DOp::Bfi {
            dst,
            a,
            b,
            pos,
            len,
            bits,
        } => {
            for_lanes!(em, l, {
                let (x, y) = (rv_s::<S>(regs, *a, l, &sp), rv_s::<S>(regs, *b, l, &sp));
                let p = (rv_s::<S>(regs, *pos, l, &sp) & 0xff) as u32;
                let n = (rv_s::<S>(regs, *len, l, &sp) & 0xff) as u32;
                let v = if n == 0 || p >= u32::from(*bits) {
                    y
                } else {
                    let n = n.min(u32::from(*bits) - p);
                    let m = (if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }) << p;
                    (y & !m) | ((x << p) & m)
                };
                set!(*dst, l, alu::trunc(v, *bits));
            });
        }
        DOp::Shf {
            left,
            wrap,
            dst,
            a,
            b,
            c,
        } => {
            for_lanes!(em, l, {
                let pair = ((rv_s::<S>(regs, *b, l, &sp) & 0xffff_ffff) << 32)
                    | (rv_s::<S>(regs, *a, l, &sp) & 0xffff_ffff);
                let n = rv_s::<S>(regs, *c, l, &sp) as u32;
                let n = if *wrap { n & 31 } else { n.min(32) };
                let v = if *left {
                    (pair << n) >> 32
                } else {
                    (pair >> n) & 0xffff_ffff
                };
                set!(*dst, l, v & 0xffff_ffff);
            });
        }
        DOp::Prmt { dst, a, b, sel } => {
            for_lanes!(em, l, {
                let bytes = ((rv_s::<S>(regs, *b, l, &sp) & 0xffff_ffff) << 32)
                    | (rv_s::<S>(regs, *a, l, &sp) & 0xffff_ffff);
                let s = rv_s::<S>(regs, *sel, l, &sp);
                let mut v = 0u64;
                for i in 0..4 {
                    let n = (s >> (4 * i)) & 0xf;
                    let byte = (bytes >> ((n & 7) * 8)) & 0xff;
                    let byte = if n & 8 != 0 {
                        if byte & 0x80 != 0 {
                            0xff
                        } else {
                            0
                        }
                    } else {
                        byte
                    };
                    v |= byte << (8 * i);
                }
                set!(*dst, l, v);
            });
        }
        DOp::Query {
            kind,
            dst,
            bits,
            args,
        } => {
            for_lanes!(em, l, {
                let a: Vec<u64> = args.iter().map(|x| rv_s::<S>(regs, *x, l, &sp)).collect();
                let v = query_value(*kind, *bits, &a);
                set!(*dst, l, v);
            });
        }
        _ => return false,
    }
    true
}

fn warp_local(local: &[u8], lb: usize, lane: usize) -> &[u8] {
    &local[lane * lb..(lane + 1) * lb]
}

/// Live lanes named in the member mask of a `shfl.sync`/`vote.sync` that are not active.
fn member_gap(
    regs: &[u64],
    mask: Src,
    em: u32,
    live: u32,
    sp: &dyn Fn(SpecialReg, usize) -> u64,
) -> u32 {
    if em == 0 {
        return 0;
    }
    let l0 = em.trailing_zeros() as usize;
    (rv(regs, mask, l0, sp) as u32) & live & !em
}

/// All 32 lanes of operand `s` (registers exist for every lane, active or not).
#[inline(always)]
fn lanes_of<const S: usize>(
    regs: &[u64],
    s: Src,
    sp: &dyn Fn(SpecialReg, usize) -> u64,
) -> [u64; WARP] {
    match s {
        Src::R(r) => {
            let mut out = [0u64; WARP];
            out[..S].copy_from_slice(&regs[r as usize * S..r as usize * S + S]);
            out
        }
        Src::I(v) => [v; WARP],
        Src::S(x) => std::array::from_fn(|l| sp(x, l)),
    }
}

/// `dst = f(a, b)` on the lanes of `em`, monomorphised per operation.
#[inline(always)]
fn bin_loop_s<const S: usize, F: Fn(u64, u64) -> u64>(
    regs: &mut [u64],
    em: u32,
    dst: usize,
    a: Src,
    b: Src,
    sp: &dyn Fn(SpecialReg, usize) -> u64,
    f: F,
) {
    let av = lanes_of::<S>(regs, a, sp);
    let bv = lanes_of::<S>(regs, b, sp);
    let d: &mut [u64] = &mut regs[dst * S..dst * S + S];
    if em == FULL && S == WARP {
        for l in 0..WARP {
            d[l] = f(av[l], bv[l]);
        }
    } else {
        let mut m = em;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            d[l] = f(av[l], bv[l]);
        }
    }
}

#[inline(always)]
fn lane_addr(regs: &[u64], a: DAddr, lane: usize) -> u64 {
    match a.base {
        Some(r) => regs[r as usize * WARP + lane].wrapping_add(a.off as u64),
        None => a.off as u64,
    }
}

#[inline(always)]
pub(crate) fn route(space: MemSpace, a: u64) -> Option<(Region, u64)> {
    match space {
        MemSpace::Global | MemSpace::Constant => {
            a.checked_sub(GLOBAL_BASE).map(|o| (Region::Global, o))
        }
        MemSpace::Shared => Some((Region::Shared, a)),
        MemSpace::Local => Some((Region::Local, a)),
        MemSpace::Param => Some((Region::Param, a)),
        MemSpace::Generic => resolve_generic(a),
    }
}

/// A traced location: `g:0xADDR` (global, by generic address), `s<cta>:0xOFF` (shared of
/// CTA `cta`), `l<thread>:0xOFF` (local), `p:0xOFF` (param).
struct Loc(Region, u64, u64, u64, u64);

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Region::Global => write!(f, "g:0x{:x}", self.2),
            Region::Shared => write!(f, "s{}:0x{:x}", self.3, self.1),
            Region::Local => write!(f, "l{}:0x{:x}", self.4, self.1),
            Region::Param => write!(f, "p:0x{:x}", self.1),
        }
    }
}

/// The structured form of one traced access.
#[allow(clippy::too_many_arguments)]
#[inline]
fn access_event(
    region: Region,
    off: u64,
    generic: u64,
    cta: u64,
    tid: u64,
    pc: u32,
    op: AccessOp,
    kind: TraceKind,
    width: u8,
    value: u64,
) -> AccessEvent {
    let (space, addr) = match region {
        Region::Global => (AccessSpace::Global, generic),
        Region::Shared => (AccessSpace::Shared(cta), off),
        Region::Local | Region::Param => (AccessSpace::Local, off),
    };
    AccessEvent {
        tid,
        pc,
        op,
        kind,
        space,
        addr,
        width,
        value,
    }
}

/// Appends the decimal digits of `v`.
#[inline]
fn push_dec(buf: &mut [u8; 96], len: &mut usize, v: u64) {
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    let mut x = v;
    loop {
        i -= 1;
        tmp[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    let n = tmp.len() - i;
    buf[*len..*len + n].copy_from_slice(&tmp[i..]);
    *len += n;
}

/// Appends the lower-case hex digits of `v` (at least `min` digits).
#[inline]
fn push_hex(buf: &mut [u8; 96], len: &mut usize, v: u64, min: usize) {
    const D: &[u8; 16] = b"0123456789abcdef";
    let digits = (((64 - v.leading_zeros()) as usize).div_ceil(4))
        .max(min)
        .max(1);
    for k in (0..digits).rev() {
        buf[*len] = D[((v >> (4 * k)) & 0xf) as usize];
        *len += 1;
    }
}

#[inline]
fn push_str(buf: &mut [u8; 96], len: &mut usize, s: &str) {
    buf[*len..*len + s.len()].copy_from_slice(s.as_bytes());
    *len += s.len();
}

/// Writes `NAME T LOC\n` (the `Display` of [`Loc`], without the formatting machinery: the
/// per-thread events are most of a trace).
fn emit_access(
    trace: &mut Option<&mut dyn Write>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    name: &str,
    t: u64,
    loc: &Loc,
) {
    let Some(out) = trace.as_mut() else { return };
    if io_error.is_some() {
        return;
    }
    let mut buf = [0u8; 96];
    let mut n = 0;
    push_str(&mut buf, &mut n, name);
    push_str(&mut buf, &mut n, " ");
    push_dec(&mut buf, &mut n, t);
    match loc.0 {
        Region::Global => {
            push_str(&mut buf, &mut n, " g:0x");
            push_hex(&mut buf, &mut n, loc.2, 1);
        }
        Region::Shared => {
            push_str(&mut buf, &mut n, " s");
            push_dec(&mut buf, &mut n, loc.3);
            push_str(&mut buf, &mut n, ":0x");
            push_hex(&mut buf, &mut n, loc.1, 1);
        }
        Region::Local => {
            push_str(&mut buf, &mut n, " l");
            push_dec(&mut buf, &mut n, loc.4);
            push_str(&mut buf, &mut n, ":0x");
            push_hex(&mut buf, &mut n, loc.1, 1);
        }
        Region::Param => {
            push_str(&mut buf, &mut n, " p:0x");
            push_hex(&mut buf, &mut n, loc.1, 1);
        }
    }
    push_str(&mut buf, &mut n, "\n");
    if let Err(e) = out.write_all(&buf[..n]) {
        *io_error = Some(e);
    }
    stats.trace_events += 1;
}

/// Writes `NAME W MASK\n` with the mask as 8 hex digits.
fn emit_warp(
    trace: &mut Option<&mut dyn Write>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    name: &str,
    w: u64,
    mask: u32,
) {
    let Some(out) = trace.as_mut() else { return };
    if io_error.is_some() {
        return;
    }
    let mut buf = [0u8; 96];
    let mut n = 0;
    push_str(&mut buf, &mut n, name);
    push_str(&mut buf, &mut n, " ");
    push_dec(&mut buf, &mut n, w);
    push_str(&mut buf, &mut n, " ");
    push_hex(&mut buf, &mut n, u64::from(mask), 8);
    push_str(&mut buf, &mut n, "\n");
    if let Err(e) = out.write_all(&buf[..n]) {
        *io_error = Some(e);
    }
    stats.trace_events += 1;
}

fn emit_to(
    trace: &mut Option<&mut dyn Write>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    args: fmt::Arguments<'_>,
) {
    if let Some(t) = trace.as_mut() {
        if io_error.is_none() {
            if let Err(e) = t.write_fmt(args) {
                *io_error = Some(e);
            }
            stats.trace_events += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn match_sync_values() {
        // Hand-derived from PTX's match.sync: lanes 0..3 hold 7, 9, 7, 7 (members 0..3).
        let v = [7u64, 9, 7, 7];
        let m = |mode, lane, members| super::match_value(mode, 32, members, lane, |l| v[l]);
        assert_eq!(m(MatchMode::Any, 0, 0xf), (0b1101, true));
        assert_eq!(m(MatchMode::Any, 1, 0xf), (0b0010, true));
        assert_eq!(m(MatchMode::All, 2, 0xf), (0, false));
        // Without lane 1 every member holds 7.
        assert_eq!(m(MatchMode::All, 2, 0b1101), (0b1101, true));
        // .b32 compares the low 32 bits only; .b64 all of them.
        let w = [1u64 << 32 | 5, 5];
        let b = |bits| super::match_value(MatchMode::All, bits, 0b11, 0, |l| w[l]);
        assert_eq!(b(32), (0b11, true));
        assert_eq!(b(64), (0, false));
    }

    use super::*;

    #[test]
    fn fast_event_encoding_matches_display() {
        for loc in [
            Loc(Region::Global, 0, 0x1_0000_0abc, 3, 7),
            Loc(Region::Shared, 0x1f0, 0, 12, 7),
            Loc(Region::Local, 0, 0, 1, 123_456),
            Loc(Region::Param, 8, 0, 0, 0),
        ] {
            let mut out: Vec<u8> = Vec::new();
            let mut tr: Option<&mut dyn Write> = Some(&mut out);
            let (mut err, mut st) = (None, Stats::default());
            emit_access(&mut tr, &mut err, &mut st, "relGlb", 1_048_575, &loc);
            emit_warp(&mut tr, &mut err, &mut st, "endi", 32767, 0x0000_ffff);
            let want = format!("relGlb 1048575 {loc}\nendi 32767 0000ffff\n");
            assert_eq!(String::from_utf8(out).unwrap(), want);
            assert_eq!(st.trace_events, 2);
        }
    }
}
