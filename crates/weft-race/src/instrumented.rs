//! Instrumented PTX (`weft-instrument`) as a race session's trace source ([`TraceSource`]):
//! the kernel's PTX is rewritten to log into a device-side queue ([`prepare`]), each run
//! launches it — on the SIMT emulator, or through a GPU launcher the caller supplies — with
//! the queue as one more buffer argument, and the queue is decoded into the detector.
//! On a GPU no emulator watches the barriers: the decoder's barrier findings stand in, in
//! the emulator's words ([`barrier_finding_text`]).

use crate::session::{simt_failure, TraceSource};
use crate::{Compressed, Detector};
use weft_ir::exit::Failure;
use weft_ir::kernel::Kernel;
use weft_simt::{Arg, Buffer, ElemType, LaunchConfig, Options, Outcome, Stats};

use weft_instrument::{decode_with_findings, instrument, queue_buffer, BarrierFinding, Site};

/// A kernel's PTX rewritten to log its operations, lowered for the emulator.
pub struct InstrumentedKernel {
    /// The lowered instrumented kernel (its last parameter is the queue).
    pub kernel: Kernel,
    /// What each logging site records.
    pub sites: Vec<Site>,
    /// The instrumented PTX (what a GPU runs).
    pub ptx: String,
    /// Counts of the pruned instrumentation (paper 003 Fig. 9), for the user.
    pub stats: weft_instrument::Stats,
}

/// Instruments `ptx` (the module of `file`) without pruning, and counts what pruning would
/// leave. Bad input when the PTX cannot be instrumented.
pub fn prepare(ptx: &str, file: &str) -> Result<InstrumentedKernel, Failure> {
    let cannot = |e: String| Failure::bad_input(format!("{file}: cannot instrument: {e}"));
    let inst = instrument(ptx, &weft_instrument::Options { prune: false }).map_err(cannot)?;
    let pruned = instrument(ptx, &weft_instrument::Options { prune: true }).map_err(cannot)?;
    let lowered = |e: String| Failure::tool(format!("instrumented PTX: {e}"));
    let m = weft_ptx::parse(&inst.ptx).map_err(|e| lowered(e.to_string()))?;
    let kernel = weft_ptx::lower_kernel(&m, None).map_err(|e| lowered(e.to_string()))?;
    Ok(InstrumentedKernel {
        kernel,
        sites: inst.sites,
        ptx: inst.ptx,
        stats: pruned.stats,
    })
}

/// Launches an instrumented kernel on a GPU: (kernel, PTX, arguments, buffers) → the
/// buffers' contents after the launch and the kernel time in milliseconds.
pub type GpuLauncher<'a> =
    dyn FnMut(&Kernel, &str, &[Arg], &[Buffer]) -> Result<(Vec<Vec<u8>>, f64), Failure> + 'a;

/// The trace of each run read back from the instrumentation queue.
pub struct InstrumentedTrace<'a> {
    pub inst: &'a InstrumentedKernel,
    /// The kernel as compiled (its positions name findings).
    pub kernel: &'a Kernel,
    pub launch: LaunchConfig,
    pub args: &'a [Arg],
    pub buffers: &'a [Buffer],
    /// Number of queues, and records per queue (an overflow is an error).
    pub queues: u32,
    pub queue_records: u32,
    /// The kernel file, named in errors.
    pub file: &'a str,
    /// Where the kernel runs: a GPU, or the emulator when `None`.
    pub gpu: Option<Box<GpuLauncher<'a>>>,
    gpu_ms: Vec<f64>,
}

impl<'a> InstrumentedTrace<'a> {
    /// A source with the launch's arguments and buffers; `gpu: None` runs on the emulator.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        inst: &'a InstrumentedKernel,
        kernel: &'a Kernel,
        launch: LaunchConfig,
        args: &'a [Arg],
        buffers: &'a [Buffer],
        queues: u32,
        queue_records: u32,
        file: &'a str,
        gpu: Option<Box<GpuLauncher<'a>>>,
    ) -> Self {
        InstrumentedTrace {
            inst,
            kernel,
            launch,
            args,
            buffers,
            queues,
            queue_records,
            file,
            gpu,
            gpu_ms: Vec::new(),
        }
    }

    /// One launch with the queue appended; the outcome and the queue's contents.
    fn launch(&mut self, opts: &Options) -> Result<(Outcome, Vec<u8>), Failure> {
        let mut q = Buffer::zeroed("__wq_queue", ElemType::U8, 0);
        q.data = queue_buffer(self.queues, self.queue_records);
        let mut iargs = self.args.to_vec();
        iargs.push(Arg::Buffer(self.buffers.len()));
        let mut ibufs = self.buffers.to_vec();
        ibufs.push(q);
        let ik = &self.inst.kernel;
        if let Some(g) = self.gpu.as_mut() {
            let (mut bufs, ms) = g(ik, &self.inst.ptx, &iargs, &ibufs)?;
            self.gpu_ms.push(ms);
            let queue = bufs.pop().unwrap_or_default();
            let o = Outcome {
                buffers: Vec::new(),
                findings: Vec::new(),
                completed: true,
                stats: Stats::default(),
                printed: Vec::new(),
            };
            return Ok((o, queue));
        }
        let mut o = weft_simt::run(ik, self.launch, &iargs, ibufs, opts, None)
            .map_err(|e| simt_failure(self.file, e))?;
        let queue = o.buffers.pop().map(|b| b.data).unwrap_or_default();
        Ok((o, queue))
    }
}

impl TraceSource for InstrumentedTrace<'_> {
    fn name(&self) -> &'static str {
        if self.gpu.is_some() {
            "instrumented-ptx-cuda"
        } else {
            "instrumented-ptx"
        }
    }

    fn run(
        &mut self,
        opts: &Options,
        det: &mut Detector<Compressed>,
        findings: &mut Vec<String>,
    ) -> Result<Outcome, Failure> {
        let (o, queue) = self.launch(opts)?;
        let mut bf = Vec::new();
        let (block_threads, ctas) = (
            self.launch.block_threads() as u32,
            self.launch.grid_ctas() as u32,
        );
        decode_with_findings(&queue, &self.inst.sites, block_threads, ctas, det, &mut bf)
            .map_err(|e| Failure::tool(format!("instrumentation queue: {e}")))?;
        if self.gpu.is_some() {
            for f in &bf {
                let f = barrier_finding_text(self.kernel, self.launch, f);
                if !findings.contains(&f) {
                    findings.push(f);
                }
            }
        }
        Ok(o)
    }

    fn gpu_kernel_ms(&self) -> Vec<f64> {
        self.gpu_ms.clone()
    }
}

/// `instrumented kernel ran on DEVICE (ARCH): N launches, kernel time T1, T2 ms`.
pub fn gpu_line(device: &str, arch: &str, ms: &[f64]) -> String {
    format!(
        "instrumented kernel ran on {device} ({arch}): {} launch{}, kernel time {} ms",
        ms.len(),
        if ms.len() == 1 { "" } else { "es" },
        ms.iter()
            .map(|t| format!("{t:.3}"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Thread indices of the lanes of `mask` in warp `warp`, as ranges (`0-3,8`).
fn lane_ranges(warp: u32, mask: u32) -> String {
    let mut parts = Vec::new();
    let mut l = 0;
    while l < 32 {
        if mask >> l & 1 == 1 {
            let start = l;
            while l + 1 < 32 && mask >> (l + 1) & 1 == 1 {
                l += 1;
            }
            let (a, b) = (warp * 32 + start, warp * 32 + l);
            parts.push(if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            });
        }
        l += 1;
    }
    parts.join(",")
}

/// A decoder barrier finding in the emulator's words (`weft_simt::Finding`'s messages).
pub fn barrier_finding_text(kernel: &Kernel, launch: LaunchConfig, f: &BarrierFinding) -> String {
    use BarrierFinding as B;
    let cta = |c: u32| {
        let (gx, gy) = (launch.grid[0].max(1), launch.grid[1].max(1));
        format!("({},{},{})", c % gx, (c / gx) % gy, c / (gx * gy))
    };
    match f {
        B::PartialWarp {
            pc,
            cta: c,
            warp,
            reached,
            missing,
        } => format!(
            "barrier divergence at {}: CTA {} warp {warp}: threads {} reached the barrier, threads {} of the same warp did not",
            kernel.describe_pos(*pc as usize),
            cta(*c),
            lane_ranges(*warp, *reached),
            lane_ranges(*warp, *missing)
        ),
        B::DifferentInstructions { cta: c, id, pcs } => format!(
            "barrier divergence: CTA {} met at barrier {id} from different instructions: {}",
            cta(*c),
            pcs.iter()
                .map(|p| kernel.describe_pos(*p as usize))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        B::ExitedThreads {
            pc,
            cta: c,
            id,
            exited,
        } => format!(
            "barrier divergence at {}: CTA {} passed barrier {id} while {exited} threads had exited without reaching it",
            kernel.describe_pos(*pc as usize),
            cta(*c)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_ranges_name_threads() {
        assert_eq!(lane_ranges(0, 0b1111), "0-3");
        assert_eq!(lane_ranges(1, 0b1_0000_0101), "32,34,40");
        assert_eq!(lane_ranges(0, u32::MAX), "0-31");
        assert_eq!(lane_ranges(2, 0), "");
    }

    #[test]
    fn gpu_line_counts_launches() {
        assert_eq!(
            gpu_line("H200", "sm_90", &[0.5, 0.25]),
            "instrumented kernel ran on H200 (sm_90): 2 launches, kernel time 0.500, 0.250 ms"
        );
        assert_eq!(
            gpu_line("H200", "sm_90", &[1.0]),
            "instrumented kernel ran on H200 (sm_90): 1 launch, kernel time 1.000 ms"
        );
    }
}
