//! A kernel launch: the configuration checked as CUDA checks it (error codes for zero or too
//! large dimensions and too much shared memory), the argument bytes placed at the PTX
//! parameters' offsets, module variables and dynamic shared memory laid out, managed memory
//! copied in and out, and the kernel run on the SIMT emulator — with BARRACUDA's detector
//! (race mode, under one or more schedules: extra ones on a copy of device memory) or the
//! memory checker (memcheck mode) listening to its trace.

use std::sync::Arc;

use weft_ir::kernel::Kernel;
use weft_ir::MemSpace;
use weft_race::{Compressed, Detector, Geometry};
use weft_simt::decode::Layout;
use weft_simt::{Finding, LaunchConfig, Options, Outcome, Schedule, SimtError, TraceSink};

use crate::config::{self, Mode};
use crate::errors::{self, CudaError};
use crate::memcheck::Memcheck;
use crate::report::{LaunchRecord, MemError, ProgramRace, RaceSide};
use crate::runtime::{fatal, CallConfig, Runtime};

/// Where the argument bytes come from.
pub enum ArgSource<'a> {
    /// `cudaLaunchKernel`: one pointer per parameter.
    Pointers(*const *const libc::c_void),
    /// `cudaSetupArgument`: bytes at the host's offsets (which equal the PTX offsets).
    Bytes(&'a [u8]),
}

impl Runtime {
    fn kernel_of(&self, stub: usize) -> Result<Arc<Kernel>, CudaError> {
        let (m, name) = self
            .functions
            .get(&stub)
            .ok_or(errors::INVALID_DEVICE_FUNCTION)?;
        if let Some(f) = self.modules[*m].unimplemented.first() {
            let what = format!("the device function {f}");
            fatal(&format!(
                "{} calls {what}, which weft's emulator does not implement (launch of {name})",
                self.modules[*m].source
            ));
        }
        match self.modules[*m].kernels.get(name) {
            Some(Ok(k)) => Ok(k.clone()),
            Some(Err(e)) => fatal(&format!(
                "kernel {name} of {} uses what weft's emulator does not support: {e}",
                self.modules[*m].source
            )),
            None => Err(errors::INVALID_DEVICE_FUNCTION),
        }
    }

    fn check_config(&self, k: &Kernel, c: &CallConfig) -> CudaError {
        let d = &self.config.device;
        let (g, b) = (c.grid, c.block);
        let threads: u64 = b.iter().map(|&x| u64::from(x)).product();
        if g.contains(&0)
            || b.contains(&0)
            || threads > u64::from(d.max_threads_per_block)
            || b[0] > 1024
            || b[1] > 1024
            || b[2] > 64
            || g[1] > 65535
            || g[2] > 65535
            || g[0] > i32::MAX as u32
        {
            return errors::INVALID_CONFIGURATION;
        }
        let (_, static_shared) = k.layout(MemSpace::Shared);
        if static_shared + c.shared > d.shared_per_block {
            return errors::INVALID_VALUE;
        }
        errors::SUCCESS
    }

    /// The layout of a launch: module variables at their addresses, dynamic shared memory
    /// after the static shared variables.
    fn layout(&self, module: usize, k: &Kernel, dynamic_shared: u64) -> Layout {
        let mut l = Layout::new(k, 0);
        let vars = &self.modules[module].vars;
        let mut end = 0u64;
        for (i, v) in k.vars.iter().enumerate() {
            match v.space {
                MemSpace::Global | MemSpace::Constant => {
                    if let Some(&(addr, _)) = vars.get(&v.name) {
                        l.var_addr[i] = addr;
                    }
                }
                MemSpace::Shared if v.size > 0 => end = end.max(l.var_addr[i] + v.size),
                _ => {}
            }
        }
        let dyn_at = end.div_ceil(16) * 16;
        for (i, v) in k.vars.iter().enumerate() {
            if v.space == MemSpace::Shared && v.size == 0 {
                l.var_addr[i] = dyn_at;
            }
        }
        l.shared_bytes = dyn_at + dynamic_shared;
        l.global_var_bytes = 0;
        l
    }

    /// Launches the kernel whose host stub is `stub`.
    pub fn launch(&mut self, stub: usize, c: CallConfig, args: ArgSource<'_>) -> CudaError {
        if self.sticky != errors::SUCCESS {
            return self.ret(self.sticky);
        }
        let k = match self.kernel_of(stub) {
            Ok(k) => k,
            Err(e) => return self.ret(e),
        };
        let e = self.check_config(&k, &c);
        if e != errors::SUCCESS {
            return self.ret(e);
        }
        let mut param = vec![0u8; k.param_bytes as usize];
        match args {
            ArgSource::Pointers(p) => {
                for (i, kp) in k.params.iter().enumerate() {
                    // SAFETY: clang passes one pointer per kernel parameter, each to a value
                    // of the parameter's type (its size in the PTX).
                    unsafe {
                        let a = *p.add(i) as *const u8;
                        let src = std::slice::from_raw_parts(a, kp.size as usize);
                        let o = kp.offset as usize;
                        param[o..o + kp.size as usize].copy_from_slice(src);
                    }
                }
            }
            ArgSource::Bytes(b) => {
                let n = b.len().min(param.len());
                param[..n].copy_from_slice(&b[..n]);
            }
        }
        let module = self.functions[&stub].0;
        let layout = self.layout(module, &k, c.shared);
        let shared_bytes = layout.shared_bytes;
        let cfg = LaunchConfig {
            grid: c.grid,
            block: c.block,
        };
        let opts = Options {
            schedule: self.config.schedule,
            max_steps: self.config.max_steps,
            max_resident_ctas: (self.config.device.sms as usize * 2).max(1),
            ..Options::default()
        };
        let index = self.report.launches.len();
        if !self.report.begun {
            // A program that dies during its first launch is told apart from one that
            // never launched (the report is otherwise written after each launch).
            self.report.begun = true;
            self.write_report();
        }
        self.memory.managed_to_device();
        self.managed_vars_to_device();
        let mut arena = std::mem::take(&mut self.memory.arena);
        let mut allocs = std::mem::take(&mut self.memory.allocs);
        let mut races = None;
        let mut schedules = Vec::new();
        let mut memerrs = Vec::new();
        let result = match self.config.mode {
            Mode::Exec => weft_simt::run_in_arena(&k, cfg, layout, &mut arena, param, &opts, None),
            Mode::Race => {
                let (r, rs, names) =
                    self.run_raced(&k, cfg, module, c.shared, &mut arena, param, &opts);
                races = Some(rs);
                schedules = names;
                r
            }
            Mode::Memcheck => {
                let mut mc = Memcheck::new(
                    &k,
                    cfg,
                    index,
                    &mut allocs,
                    shared_bytes,
                    self.config.initcheck,
                );
                let r = weft_simt::run_in_arena(
                    &k,
                    cfg,
                    layout,
                    &mut arena,
                    param,
                    &opts,
                    Some(&mut mc as &mut dyn TraceSink),
                );
                memerrs = mc.errors;
                r
            }
        };
        self.memory.arena = arena;
        self.memory.allocs = allocs;
        self.memory.managed_to_host();
        self.managed_vars_to_host();
        let outcome = match result {
            Ok(o) => o,
            Err(e) => fatal(&format!("launch of {}: {e}", k.name)),
        };
        print_device_output(&outcome);
        self.clock_ns += outcome.stats.warp_instrs as f64 / f64::from(self.config.device.sms);
        let err = launch_error(&outcome);
        self.record(index, &k, c, &outcome, err, (races, schedules), memerrs);
        if err != errors::SUCCESS {
            self.sticky = err;
            self.last_error = err;
        }
        errors::SUCCESS
    }

    /// A launch in race mode: run under its first schedule on `arena` (the memory the
    /// program goes on with; its printf output is the launch's), then, when that run
    /// completed, under each further schedule of [`config::race_schedules`] on a copy of the
    /// memory as it was before the launch, whose output and findings are dropped: only the
    /// races it shows that the first did not (by kind, space and line pair) are added. An
    /// extra run is cut after 64 times the first run's warp-instructions (at least 2^20):
    /// a schedule under which a spin loop starves its partner shows the races of its prefix
    /// only. Returns the first run's result, the races, and the schedules analysed.
    #[allow(clippy::too_many_arguments)]
    fn run_raced(
        &self,
        k: &Kernel,
        cfg: LaunchConfig,
        module: usize,
        dynamic_shared: u64,
        arena: &mut Vec<u8>,
        param: Vec<u8>,
        opts: &Options,
    ) -> (
        Result<Outcome, SimtError>,
        Vec<weft_race::Race>,
        Vec<String>,
    ) {
        let geo = Geometry {
            block_threads: cfg.block_threads() as u32,
            ctas: cfg.grid_ctas() as u32,
        };
        let threads = cfg.block_threads() * cfg.grid_ctas();
        let scheds = config::race_schedules(opts.schedule, self.config.schedules, threads);
        let before = (scheds.len() > 1).then(|| (arena.clone(), param.clone()));
        let run = |arena: &mut Vec<u8>, param: Vec<u8>, o: &Options| {
            let mut det: Detector<Compressed> = Detector::new(k, geo, self.config.definition);
            let layout = self.layout(module, k, dynamic_shared);
            let sink = Some(&mut det as &mut dyn TraceSink);
            let r = weft_simt::run_in_arena(k, cfg, layout, arena, param, o, sink);
            let mut rep = det.finish();
            rep.resolve(|pc| k.describe_pos(pc as usize));
            (r, rep.by_lines())
        };
        let (first, mut races) = run(arena, param, opts);
        let mut names = vec![schedule_name(opts.schedule)];
        let steps = match (&first, &before) {
            (Ok(o), Some(_)) if o.completed => o.stats.warp_instrs,
            _ => return (first, races, names),
        };
        let (mem, par) = before.expect("copies");
        for &s in &scheds[1..] {
            let o = Options {
                schedule: s,
                max_steps: opts.max_steps.min(steps.saturating_mul(64).max(1 << 20)),
                ..opts.clone()
            };
            let (r, extra) = run(&mut mem.clone(), par.clone(), &o);
            let mut name = schedule_name(s);
            if !r.as_ref().is_ok_and(|x| x.completed) {
                name.push_str(" (did not complete)");
            }
            names.push(name);
            for x in extra {
                let known = races.iter().any(|r| {
                    r.kind == x.kind
                        && r.space == x.space
                        && r.first.line == x.first.line
                        && r.second.line == x.second.line
                });
                if !known {
                    races.push(x);
                }
            }
        }
        (first, races, names)
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        index: usize,
        k: &Kernel,
        c: CallConfig,
        o: &Outcome,
        err: CudaError,
        (races, schedules): (Option<Vec<weft_race::Race>>, Vec<String>),
        memerrs: Vec<MemError>,
    ) {
        let findings: Vec<String> = o.findings.iter().map(|f| f.to_string()).collect();
        for (f, text) in o.findings.iter().zip(&findings) {
            if let Finding::DeviceAssert { .. } = f {
                // CUDA's own message, as a GPU's runtime prints it on stderr.
                eprintln!("{text}");
            } else if self.config.mode == Mode::Exec {
                eprintln!("weft: kernel {} (launch {index}): {text}", k.name);
            }
        }
        if self.config.mode == Mode::Memcheck {
            for f in &o.findings {
                if let Finding::MemoryFault { site, .. } = f {
                    // The faulting access already named by memcheck (its line): one error.
                    if memerrs.iter().any(|e| e.at == site.pos) {
                        continue;
                    }
                    self.report.memcheck.push(MemError {
                        what: "Invalid memory access (the emulator stopped the launch)".into(),
                        detail: vec![f.to_string()],
                        kind: "fault".into(),
                        at: k.name.clone(),
                        launch: Some(index),
                        count: 1,
                    });
                }
            }
        }
        self.report.memcheck.extend(memerrs);
        self.report.launches.push(LaunchRecord {
            index,
            kernel: k.name.clone(),
            grid: c.grid,
            block: c.block,
            shared: c.shared,
            error: errors::name(err).into(),
            completed: o.completed,
            findings: if self.config.mode == Mode::Memcheck {
                Vec::new()
            } else {
                findings
            },
            warp_instructions: o.stats.warp_instrs,
            seconds: o.stats.seconds,
            schedules,
        });
        if let Some(rs) = races {
            let rs = rs
                .into_iter()
                .map(|r| ProgramRace {
                    kind: r.kind.name().into(),
                    class: r.class.name().into(),
                    space: r.space.into(),
                    first: RaceSide {
                        line: r.first.line,
                        access: r.first.access.into(),
                        thread: r.first.thread,
                    },
                    second: RaceSide {
                        line: r.second.line,
                        access: r.second.access.into(),
                        thread: r.second.thread,
                    },
                    address: r.address,
                    count: r.count,
                    launch: index,
                    launches: 1,
                })
                .collect();
            self.report.add_races(index, rs);
        }
        self.write_report();
    }
}

/// `rr` or the seed.
fn schedule_name(s: Schedule) -> String {
    match s {
        Schedule::RoundRobin => "rr".into(),
        Schedule::Random(x) => x.to_string(),
    }
}

/// The CUDA error a launch ends with.
fn launch_error(o: &Outcome) -> CudaError {
    for f in &o.findings {
        match f {
            // A misaligned access is its own error on a GPU (the emulator names it so).
            Finding::MemoryFault { what, .. } if what.starts_with("misaligned") => {
                return errors::MISALIGNED_ADDRESS
            }
            Finding::MemoryFault { .. } => return errors::ILLEGAL_ADDRESS,
            Finding::Trap { .. } => return errors::LAUNCH_FAILURE,
            Finding::AssertionFailed { .. } | Finding::DeviceAssert { .. } => {
                return errors::ASSERT
            }
            Finding::Deadlock { .. } | Finding::StepLimit { .. } => return errors::LAUNCH_TIMEOUT,
            _ => {}
        }
    }
    if o.completed {
        errors::SUCCESS
    } else {
        errors::LAUNCH_FAILURE
    }
}

extern "C" {
    /// The C library's `stdout` stream (glibc).
    static mut stdout: *mut libc::FILE;
}

/// Writes a launch's device `printf` output on the program's C `stdout` (through the C
/// stream, so that it lands in order with the host's own `printf` output), in the order the
/// emulator executed the calls.
fn print_device_output(o: &Outcome) {
    for p in &o.printed {
        if p.text.is_empty() {
            continue;
        }
        // SAFETY: `stdout` is the C library's stream, valid for the whole program; the
        // buffer is a live byte slice of the given length.
        unsafe {
            libc::fwrite(p.text.as_ptr().cast(), 1, p.text.len(), stdout);
        }
    }
}
