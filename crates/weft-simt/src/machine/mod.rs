//! The SIMT machine: a grid of CTAs, each a set of 32-lane warps executing in lock-step with a
//! reconvergence stack (reconverging at the immediate post-dominator of each divergent branch),
//! per-CTA shared memory and barriers, a bounded set of resident CTAs, and a seeded scheduler
//! that interleaves warps of all resident CTAs. Paper 003 §2 (execution model) and §3.1
//! (trace operations: rd, wr, atm, endi, if/else/fi, bar, acq/rel/ar at block or global
//! scope) define what is emulated and what is traced.
//!
//! This file owns the launch: the machine's state (warps, CTAs, barriers), the memory
//! layout of a launch and [`run`]/[`run_with_sink`]. The rest, one job a file:
//! - `types`: the public launch types, findings and counters;
//! - `sched`: the scheduler, CTA launch, barrier release, warp turns and findings;
//! - `step`: one warp instruction (memory, atomics, barriers, branches, collectives);
//! - `regop`: register-only instructions over a register file of any lane count;
//! - `shape`: per-shape handlers of the hottest register-only instructions, resolved once;
//! - `lanefn`: the lane functions of the fast register-only operations;
//! - `collective`: `shfl.sync`/`vote.sync`/`match.sync` lane semantics;
//! - `cow`: the global arena's storage (heap, or shared memory parallel jobs view);
//! - `fastmem`: untraced scalar loads and stores routed per warp rather than per lane;
//! - `trace`: the text trace and the structured access events.

use std::io::Write;
use std::time::Instant;

use weft_ir::attrs::MemSpace;
use weft_ir::kernel::{AnnotKind, Kernel, SysFunc};

use crate::decode::{decode, DInstr, DecodeError, Layout};
use crate::mem::{self, Buffer, GLOBAL_BASE};
use crate::sink::{SinkBatch, TraceSink};

/// Runs `$body` with `$l` bound to each lane set in `$mask` (all 32 when full).
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

mod collective;
mod cow;
mod fastmem;
mod lanefn;
mod parallel;
mod regop;
mod sched;
mod shape;
mod step;
mod sys;
mod trace;
mod types;

pub use collective::{match_value, shfl_source, vote_value};
pub(crate) use regop::{exec_alu, rv_s};
pub(crate) use step::{misaligned, route};
pub use types::{
    Arg, Finding, LaunchConfig, Options, Outcome, Printed, Schedule, SimtError, Site, Stats,
};

/// Lanes per warp.
pub const WARP: usize = 32;
const FULL: u32 = u32::MAX;
/// Named barriers per CTA (PTX ISA: 16).
pub const BARRIERS: usize = 16;

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

impl BarState {
    /// The state of a barrier nobody has arrived at, keeping the lists' allocations.
    fn reset(&mut self) {
        let (mut waiting, mut pcs) = (
            std::mem::take(&mut self.waiting),
            std::mem::take(&mut self.pcs),
        );
        waiting.clear();
        pcs.clear();
        *self = BarState {
            waiting,
            pcs,
            ..BarState::default()
        };
    }
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

/// What `exec_inner` asks `exec` to do once its borrows end.
enum Post {
    None,
    Stop(Stop),
    Exit(u32),
    Fault(usize, u64, &'static str),
    BarDiv {
        em: u32,
        live: u32,
        stop: Stop,
    },
    WarpSyncDiv(u32),
    Trap(u32),
    Assert(u32, AnnotKind),
    /// A system call: its function, result register and each executing lane's argument
    /// values.
    Sys(SysFunc, Option<u32>, Vec<(usize, Vec<u64>)>),
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
    /// Each instruction's per-shape handler ([`shape::resolve`]), parallel to `code`.
    shapes: Vec<shape::Shaped>,
    /// Registers cleared when a CTA is launched ([`crate::decode::regs_to_clear`]).
    clear_regs: Vec<u32>,
    reg_bits: Vec<u16>,
    cfg: LaunchConfig,
    opts: Options,
    warps_per_cta: usize,
    block_threads: u32,
    global: cow::Global,
    param: Vec<u8>,
    layout: Layout,
    warps: Vec<Warp>,
    ctas: Vec<Cta>,
    findings: Vec<Finding>,
    suppressed: u64,
    /// Instructions whose assertion failure was reported already.
    failed_asserts: Vec<u32>,
    /// Device `printf` output so far.
    printed: Vec<Printed>,
    stats: Stats,
    trace: trace::TraceOut<'a>,
    /// The structured sink, lane accesses gathered per warp instruction.
    sink: Option<SinkBatch<'a>>,
    io_error: Option<std::io::Error>,
    steps: u64,
    /// A parallel job's CTA counter (`parallel`); `None` in a sequential run.
    feed: Option<&'a parallel::Feed>,
    /// A parallel job's access record.
    track: Option<parallel::Track>,
}

/// The memory of a launch before it runs: each buffer's offset in the global arena, the
/// variable layout, the global arena (buffers, then module variables with their initial
/// bytes) and the param space with the arguments written in.
pub(crate) struct Arena<G = Vec<u8>> {
    pub offsets: Vec<u64>,
    pub layout: Layout,
    pub global: G,
    pub param: Vec<u8>,
}

/// Lays out the memory of a launch of `kernel` with `args` over `buffers`.
pub(crate) fn lay_out(
    kernel: &Kernel,
    args: &[Arg],
    buffers: &[Buffer],
) -> Result<Arena, SimtError> {
    lay_out_in(kernel, args, buffers, |n| vec![0u8; n])
}

/// [`lay_out`], the global arena allocated (zeroed) by `alloc`.
fn lay_out_in<G: std::ops::DerefMut<Target = [u8]>>(
    kernel: &Kernel,
    args: &[Arg],
    buffers: &[Buffer],
    alloc: impl FnOnce(usize) -> G,
) -> Result<Arena<G>, SimtError> {
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
    let mut global = alloc((off + layout.global_var_bytes) as usize);
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
    // With jobs asked for, an arena that parallel jobs can view without copying it.
    let shareable = opts.jobs > 1 && trace.is_none() && sink.is_none();
    let alloc = |n| {
        if shareable {
            cow::Global::shareable(n)
        } else {
            cow::Global::from(vec![0u8; n])
        }
    };
    let Arena {
        offsets,
        layout,
        global,
        param,
    } = lay_out_in(kernel, args, &buffers, alloc)?;
    let mut global = global;
    // The arena as laid out, again: a parallel run may work in place in `global` and
    // restore it from here when it is dropped (`parallel`).
    let rebuild = || lay_out_in(kernel, args, &buffers, alloc).map(|a| a.global);
    let (findings, completed, stats, printed) = execute(
        kernel,
        cfg,
        layout,
        &mut global,
        param,
        opts,
        trace,
        sink,
        Some(&rebuild),
    )?;
    let mut buffers = buffers;
    for (b, &o) in buffers.iter_mut().zip(&offsets) {
        let n = b.data.len();
        b.data.copy_from_slice(&global[o as usize..o as usize + n]);
    }
    Ok(Outcome {
        buffers,
        findings,
        completed,
        stats,
        printed,
    })
}

/// Runs `kernel` over a global arena the caller owns (a whole program's device memory,
/// `weft-cudart`): `layout` gives module variables their addresses in it (and the shared
/// memory size, dynamic shared memory included), `param` holds the argument bytes. The
/// arena is left in `global` whatever happens; the outcome has no buffers.
#[allow(clippy::too_many_arguments)]
pub fn run_in_arena<'a>(
    kernel: &'a Kernel,
    cfg: LaunchConfig,
    layout: Layout,
    global: &mut Vec<u8>,
    param: Vec<u8>,
    opts: &Options,
    sink: Option<&'a mut dyn TraceSink>,
) -> Result<Outcome, SimtError> {
    kernel.validate().map_err(SimtError::Launch)?;
    if cfg.grid.contains(&0) || cfg.block.contains(&0) || cfg.block_threads() > 1024 {
        return Err(SimtError::Launch(
            "grid and block dimensions must be 1..=1024 threads per block".into(),
        ));
    }
    let mut arena = cow::Global::from(std::mem::take(global));
    let run = execute(
        kernel, cfg, layout, &mut arena, param, opts, None, sink, None,
    );
    *global = arena.into_vec();
    let (findings, completed, stats, printed) = run?;
    Ok(Outcome {
        buffers: Vec::new(),
        findings,
        completed,
        stats,
        printed,
    })
}

/// The arena as it was before the launch, laid out again (`parallel`'s in-place job).
type Rebuild<'r> = &'r dyn Fn() -> Result<cow::Global, SimtError>;

/// Decodes and runs a launch whose memory is laid out; the global arena is borrowed for the
/// run and put back in `global` (also on error). `rebuild`, when given, lays the arena out
/// again as it was: a parallel run may then use `global` in place.
#[allow(clippy::too_many_arguments)]
fn execute<'a>(
    kernel: &'a Kernel,
    cfg: LaunchConfig,
    layout: Layout,
    global: &mut cow::Global,
    param: Vec<u8>,
    opts: &Options,
    trace: Option<&'a mut dyn Write>,
    sink: Option<&'a mut dyn TraceSink>,
    rebuild: Option<Rebuild<'_>>,
) -> Result<(Vec<Finding>, bool, Stats, Vec<Printed>), SimtError> {
    let mut code = decode(kernel, &layout).map_err(|e: DecodeError| SimtError::Decode {
        pos: kernel.describe_pos(e.pc),
        message: e.message,
    })?;
    let reg_bits: Vec<u16> = kernel.regs.iter().map(|r| r.ty.bits).collect();
    crate::decode::fold_param_loads(&mut code, &param, &reg_bits);
    // CTAs on several cores first (their machines are the jobs'; none is built here).
    if trace.is_none() && sink.is_none() {
        let launch = parallel::Launch {
            kernel,
            code: &code,
            cfg,
            layout: &layout,
            param: &param,
            opts,
        };
        if let Some(stats) = launch.try_parallel(global, rebuild)? {
            return Ok((Vec::new(), true, stats, Vec::new()));
        }
    }
    let mut m = Machine::new(
        kernel,
        code,
        cfg,
        layout,
        std::mem::take(global),
        param,
        opts,
        trace,
        sink,
    );
    let start = Instant::now();
    let completed = m.schedule();
    if let Some(sk) = m.sink.as_mut() {
        sk.flush();
    }
    *global = std::mem::take(&mut m.global);
    let completed = completed?;
    m.stats.seconds = start.elapsed().as_secs_f64();
    if let Some(e) = m.io_error.take() {
        return Err(SimtError::Io(e));
    }
    m.trace.finish().map_err(SimtError::Io)?;
    if m.suppressed > 0 {
        m.findings.push(Finding::Suppressed {
            count: m.suppressed,
        });
    }
    m.stats.warp_instrs = m.steps;
    Ok((m.findings, completed, m.stats, m.printed))
}

impl<'a> Machine<'a> {
    /// A machine for the launch, its resident CTA slots empty.
    #[allow(clippy::too_many_arguments)]
    fn new(
        kernel: &'a Kernel,
        code: Vec<DInstr>,
        cfg: LaunchConfig,
        layout: Layout,
        global: cow::Global,
        param: Vec<u8>,
        opts: &Options,
        trace: Option<&'a mut dyn Write>,
        sink: Option<&'a mut dyn TraceSink>,
    ) -> Self {
        let bt = cfg.block_threads();
        let warps_per_cta = (bt as usize).div_ceil(WARP);
        let resident = (opts.max_resident_ctas.max(1) as u64).min(cfg.grid_ctas()) as usize;
        let nregs = kernel.regs.len();
        let mut m = Machine {
            kernel,
            shapes: shape::resolve(&code),
            code,
            clear_regs: crate::decode::regs_to_clear(kernel),
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
            printed: Vec::new(),
            stats: Stats::default(),
            trace: trace::TraceOut::new(trace),
            sink: sink.map(SinkBatch::new),
            io_error: None,
            steps: 0,
            layout,
            feed: None,
            track: None,
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
        m
    }
}
