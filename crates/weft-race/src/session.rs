//! A race session (`weft race`): a prepared launch run under one or more warp schedules,
//! every run's trace checked by the [`Detector`], and the runs' races, barrier findings and
//! statistics merged into one serialisable [`RaceReport`] with its verdict.
//!
//! Where a run's trace comes from is a [`TraceSource`]: the SIMT emulator's structured trace
//! ([`Emulator`]), or — in `weft-instrument`, which builds on this crate — the device-side
//! queue of instrumented PTX run on the emulator or a GPU. What a finding means is decided
//! here: a barrier mismatch between `bar.arrive` and `bar.sync` is producer/consumer
//! pairing, not divergence ([`is_arrive_pairing`]); any race, kept finding or incomplete
//! launch is a violation.

use std::time::Instant;

use serde::Serialize;
use weft_ir::exit::{ExitCode, Failure};
use weft_ir::kernel::Kernel;
use weft_simt::{Arg, Buffer, Finding, LaunchConfig, Options, Outcome, Schedule, SimtError};

use crate::clocks::{Clocks as _, Compressed, Geometry};
use crate::detector::{Definition, Detector};
use crate::report::{Race, Report};

/// How a session runs: the schedules, the race definition and the emulator's limits.
#[derive(Clone, Debug)]
pub struct SessionOptions {
    /// One run per schedule, in order.
    pub schedules: Vec<Schedule>,
    pub definition: Definition,
    /// CTAs resident at once.
    pub resident: usize,
    /// Warp-instructions per scheduling quantum.
    pub quantum: u32,
    /// Warp-instructions per run before it stops (a livelock finding).
    pub max_steps: u64,
}

/// The schedules `--schedule FIRST --schedules N` names: FIRST (`rr` or a seed), then seeds
/// 1, 2, ... after `rr`, or S+1, S+2, ... after a seed S.
pub fn schedules(first: &str, n: u32) -> Result<Vec<Schedule>, String> {
    let base = if first == "rr" {
        None
    } else {
        Some(
            first
                .parse::<u64>()
                .map_err(|_| format!("--schedule {first}: expected `rr` or a seed"))?,
        )
    };
    Ok((0..u64::from(n.max(1)))
        .map(|i| match base {
            None if i == 0 => Schedule::RoundRobin,
            None => Schedule::Random(i),
            Some(s) => Schedule::Random(s.wrapping_add(i)),
        })
        .collect())
}

/// A launch of at most this many threads is checked, by default, under
/// [`SMALL_LAUNCH_SCHEDULES`] schedules: the first (round-robin unless named) always starts
/// block 0's warp 0, and a race that needs another block or warp to win a lock or a flag
/// first is only seen in another order. Larger launches run one schedule (their cost is
/// unchanged).
pub const SMALL_LAUNCH_THREADS: u64 = 256;

/// Schedules of a small launch by default: the first, then three seeds.
pub const SMALL_LAUNCH_SCHEDULES: u32 = 4;

/// The default number of schedules for a launch of `threads` threads.
pub fn default_schedules(threads: u64) -> u32 {
    if threads <= SMALL_LAUNCH_THREADS {
        SMALL_LAUNCH_SCHEDULES
    } else {
        1
    }
}

/// The runs to check: `asked` (`--schedules`), else one on a GPU (its hardware schedules
/// the warps) and [`default_schedules`] on the emulator.
pub fn schedule_count(asked: Option<u32>, on_gpu: bool, launch: LaunchConfig) -> u32 {
    asked.unwrap_or_else(|| match on_gpu {
        true => 1,
        false => default_schedules(threads(launch)),
    })
}

/// Where the trace of each run comes from.
pub trait TraceSource {
    /// `emulator`, `instrumented-ptx`, `instrumented-ptx-cuda` (the report's `trace`).
    fn name(&self) -> &'static str;
    /// Runs the launch once under `opts`, feeding its trace to `det`; barrier findings that
    /// no emulator watched (a GPU run) go to `findings` in the emulator's words.
    fn run(
        &mut self,
        opts: &Options,
        det: &mut Detector<Compressed>,
        findings: &mut Vec<String>,
    ) -> Result<Outcome, Failure>;
    /// Kernel time of each GPU launch, in milliseconds (none on the emulator).
    fn gpu_kernel_ms(&self) -> Vec<f64> {
        Vec::new()
    }
}

/// The SIMT emulator's trace of the launch itself.
pub struct Emulator<'a> {
    pub kernel: &'a Kernel,
    pub launch: LaunchConfig,
    pub args: &'a [Arg],
    pub buffers: &'a [Buffer],
    /// The kernel file, named in decode errors.
    pub file: &'a str,
}

/// An emulator error as a failure: bad input, with the file for a decode error.
pub fn simt_failure(file: &str, e: SimtError) -> Failure {
    match e {
        SimtError::Decode { pos, message } => {
            Failure::bad_input(format!("{file}: {pos}: {message}"))
        }
        e => Failure::bad_input(e.to_string()),
    }
}

impl TraceSource for Emulator<'_> {
    fn name(&self) -> &'static str {
        "emulator"
    }
    fn run(
        &mut self,
        opts: &Options,
        det: &mut Detector<Compressed>,
        _findings: &mut Vec<String>,
    ) -> Result<Outcome, Failure> {
        weft_simt::run_with_sink(
            self.kernel,
            self.launch,
            self.args,
            self.buffers.to_vec(),
            opts,
            None,
            Some(det),
        )
        .map_err(|e| simt_failure(self.file, e))
    }
}

/// Counts over the runs of a session.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SessionStats {
    pub accesses: u64,
    /// Largest clock state of a run, bytes.
    pub clock_bytes: usize,
    pub events: u64,
    pub formats: ClockFormats,
    /// Seconds emulating and analysing (the emulator's own clock).
    pub run_seconds: f64,
    /// Wall-clock seconds of the whole session.
    pub seconds: f64,
    /// Largest shadow memory of a run, bytes.
    pub shadow_bytes: usize,
    pub warp_instructions: u64,
}

/// Warp clocks stored in each compressed format, summed over the runs (paper 003 §4.3.1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ClockFormats {
    pub converged: u64,
    pub diverged: u64,
    pub nested_diverged: u64,
    pub sparse_vc: u64,
}

/// What a session found. Fields are in the order of `weft race --json`'s keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RaceReport {
    pub block: [u32; 3],
    /// Whether every run completed.
    pub completed: bool,
    pub definition: &'static str,
    /// Barrier divergence, deadlocks, faults (distinct messages, first run first).
    pub findings: Vec<String>,
    pub gpu_kernel_ms: Vec<f64>,
    pub grid: [u32; 3],
    pub kernel: String,
    /// Races grouped by source-line pair ([`Report::by_lines`]).
    pub races: Vec<Race>,
    /// Distinct races beyond the report's cap.
    pub races_dropped: u64,
    /// `rr` or the seed of each run.
    pub schedules: Vec<String>,
    pub stats: SessionStats,
    /// Where the trace came from ([`TraceSource::name`]).
    pub trace: &'static str,
}

/// A "met at barrier N from different instructions" finding where one side is `bar.arrive`:
/// producer/consumer named barriers pair `bar.arrive` with `bar.sync` by design (PTX ISA,
/// `bar.arrive`), so this is not barrier divergence.
pub fn is_arrive_pairing(kernel: &Kernel, f: &Finding) -> bool {
    let Finding::BarrierMismatch { positions, .. } = f else {
        return false;
    };
    let arrive = kernel.arrive_positions();
    positions.len() == 2 && positions.iter().any(|p| arrive.contains(p))
}

/// Threads in a launch.
pub fn threads(launch: LaunchConfig) -> u64 {
    launch.grid_ctas() * launch.block_threads()
}

/// Bad input when `launch` is too large to analyse (thread ids are 32-bit).
pub fn check_launch(launch: LaunchConfig) -> Result<(), Failure> {
    let threads = threads(launch);
    if launch.grid_ctas() > u64::from(u32::MAX / 1024) || threads > u64::from(u32::MAX) {
        return Err(Failure::bad_input(format!(
            "{threads} threads: at most 2^32 for race analysis"
        )));
    }
    Ok(())
}

/// Runs the session: one run of `source` per schedule of `opts`, each checked for races.
/// Bad input when the launch is too large to analyse.
pub fn run(
    kernel: &Kernel,
    launch: LaunchConfig,
    opts: &SessionOptions,
    source: &mut dyn TraceSource,
) -> Result<RaceReport, Failure> {
    check_launch(launch)?;
    let geo = Geometry {
        block_threads: launch.block_threads() as u32,
        ctas: launch.grid_ctas() as u32,
    };
    let mut report = Report::default();
    let mut findings: Vec<String> = Vec::new();
    let mut completed = true;
    let mut stats = SessionStats::default();
    let start = Instant::now();
    for s in &opts.schedules {
        let o = Options {
            schedule: *s,
            max_resident_ctas: opts.resident.max(1),
            quantum: opts.quantum.max(1),
            max_steps: opts.max_steps,
            ..Options::default()
        };
        let mut det: Detector<Compressed> = Detector::new(kernel, geo, opts.definition);
        let outcome = source.run(&o, &mut det, &mut findings)?;
        completed &= outcome.completed;
        for f in &outcome.findings {
            if is_arrive_pairing(kernel, f) {
                continue;
            }
            let f = f.to_string();
            if !findings.contains(&f) {
                findings.push(f);
            }
        }
        stats.events += det.events;
        stats.accesses += det.accesses;
        stats.warp_instructions += outcome.stats.warp_instrs;
        stats.run_seconds += outcome.stats.seconds;
        let (c, sh) = det.bytes();
        stats.clock_bytes = stats.clock_bytes.max(c);
        stats.shadow_bytes = stats.shadow_bytes.max(sh);
        let f = det.clocks.format_counts();
        stats.formats.converged += f[0];
        stats.formats.diverged += f[1];
        stats.formats.nested_diverged += f[2];
        stats.formats.sparse_vc += f[3];
        report.merge(det.finish());
    }
    stats.seconds = start.elapsed().as_secs_f64();
    report.resolve(|pc| kernel.describe_pos(pc as usize));
    Ok(RaceReport {
        block: launch.block,
        completed,
        definition: opts.definition.name(),
        findings,
        gpu_kernel_ms: source.gpu_kernel_ms(),
        grid: launch.grid,
        kernel: kernel.name.clone(),
        races: report.by_lines(),
        races_dropped: report.dropped,
        schedules: opts
            .schedules
            .iter()
            .map(|s| match s {
                Schedule::RoundRobin => "rr".to_string(),
                Schedule::Random(x) => x.to_string(),
            })
            .collect(),
        stats,
        trace: source.name(),
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl RaceReport {
    /// 1 when a race or finding was reported or a run did not complete, else 0.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::violation_if(
            !(self.races.is_empty() && self.findings.is_empty() && self.completed),
        )
    }

    fn threads(&self) -> u64 {
        threads(LaunchConfig {
            grid: self.grid,
            block: self.block,
        })
    }

    /// The report as one line of JSON, keys in sorted order (`weft race --json`).
    pub fn to_json(&self) -> String {
        serde_json::to_value(self)
            .map(|v| v.to_string())
            .unwrap_or_default()
    }

    /// The report as text: the launch, each race with its two sides, the findings, a count.
    pub fn text(&self) -> String {
        let (g, b) = (self.grid, self.block);
        let mut t = format!(
            "kernel {}: grid {}x{}x{}, block {}x{}x{}, {} threads; definition {}; schedules {}\n",
            self.kernel,
            g[0],
            g[1],
            g[2],
            b[0],
            b[1],
            b[2],
            self.threads(),
            self.definition,
            self.schedules.join(",")
        );
        for (i, r) in self.races.iter().enumerate() {
            t.push_str(&format!(
                "race {}: {} ({}, {} memory)\n  {} ({}, thread {}) vs {} ({}, thread {})\n  address 0x{:x}, first at trace event {}, {} instance{}\n",
                i + 1,
                r.kind.name(),
                r.class.name(),
                r.space,
                r.first.line,
                r.first.access,
                r.first.thread,
                r.second.line,
                r.second.access,
                r.second.thread,
                r.address,
                r.event,
                r.count,
                plural(r.count as usize)
            ));
        }
        if self.races_dropped > 0 {
            t.push_str(&format!("{} more races not listed\n", self.races_dropped));
        }
        for f in &self.findings {
            t.push_str(&format!("{f}\n"));
        }
        if !self.completed && self.findings.is_empty() {
            t.push_str("the launch did not complete: the analysis covers only part of it\n");
        }
        t.push_str(&format!(
            "{} race{}, {} finding{}\n",
            self.races.len(),
            plural(self.races.len()),
            self.findings.len(),
            plural(self.findings.len())
        ));
        t
    }

    /// The statistics line printed after the report (without the `weft: ` prefix).
    pub fn stats_line(&self) -> String {
        let s = &self.stats;
        format!(
            "{} warp-instructions, {} events, {} accesses checked in {:.3} s ({:.3} s emulating and analysing); analysis state {} B clocks + {} B shadow ({:.1} B/thread)",
            s.warp_instructions,
            s.events,
            s.accesses,
            s.seconds,
            s.run_seconds,
            s.clock_bytes,
            s.shadow_bytes,
            (s.clock_bytes + s.shadow_bytes) as f64 / self.threads().max(1) as f64
        )
    }
}
