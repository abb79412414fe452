//! The public launch types of the SIMT machine: launch shape, schedule, options, arguments,
//! findings (with their text form), counters, outcome and errors.

use std::fmt;

use weft_ir::kernel::AnnotKind;

use crate::mem::Buffer;

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
    /// Cores to run CTAs on (1: sequential). A parallel run is validated and stands for the
    /// sequential schedule; where it cannot, the launch runs sequentially (`machine::parallel`,
    /// docs/perf.md). Default: `WEFT_JOBS`, else 1.
    pub jobs: usize,
    /// Launches estimated below this many warp-instructions (CTAs × warps per CTA × static
    /// instructions), or with a global arena over 32 bytes per estimated warp-instruction,
    /// stay sequential whatever `jobs` says: the jobs' fixed costs would outweigh the
    /// gain (0: every eligible launch with `jobs` > 1 runs in parallel). Default:
    /// `WEFT_JOBS_MIN_WORK`, else 2^15.
    pub min_parallel_work: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            schedule: Schedule::RoundRobin,
            max_resident_ctas: 32,
            quantum: 64,
            max_steps: 1 << 32,
            max_reports: 16,
            jobs: super::parallel::env_jobs(),
            min_parallel_work: super::parallel::env_min_work(),
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

pub(super) fn lanes_to_threads(warp: u32, mask: u32) -> Vec<u32> {
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
    /// A device `assert` failed (`__assertfail`): the thread stopped and the launch fails
    /// (CUDA's `cudaErrorAssert`).
    DeviceAssert {
        site: Site,
        /// The thread's index in its block (x, y, z).
        thread: [u32; 3],
        message: String,
        file: String,
        line: u32,
        function: String,
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
            Finding::DeviceAssert {
                site,
                thread: t,
                message,
                file,
                line,
                function,
            } => write!(
                f,
                "{file}:{line}: {function}: block: [{},{},{}], thread: [{},{},{}] Assertion `{message}` failed.",
                site.cta[0], site.cta[1], site.cta[2], t[0], t[1], t[2]
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
    /// Cores of a parallel run that was kept (`Options::jobs`); 0 when the launch ran on the
    /// sequential schedule.
    pub parallel_jobs: usize,
}

/// The text one device `printf` call printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Printed {
    /// Block index (x, y, z).
    pub cta: [u32; 3],
    /// Thread index in the block (x, y, z).
    pub thread: [u32; 3],
    pub text: String,
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
    /// Device `printf` output, call by call in the order the emulator executed them (warp
    /// instruction by warp instruction, lanes in increasing order).
    pub printed: Vec<Printed>,
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
