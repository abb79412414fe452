//! The scheduler of the SIMT machine: CTA launch into resident slots, the warp-picking loop
//! (round-robin or seeded random), barrier release, warp turns, thread exit and how a
//! warp instruction's outcome becomes a finding.

use weft_ir::attrs::MemSpace;
use weft_ir::kernel::BarRed;

use super::regop::{guard_mask, SpecialCtx};
use super::types::lanes_to_threads;
use super::{
    Finding, Frame, FrameKind, Machine, Post, Schedule, SimtError, Site, Stop, WState, BARRIERS,
    FULL, WARP,
};
use crate::alu;
use crate::decode::DOp;
use crate::sink::BranchEvent;

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

/// Whether the warp step runs its AVX2 build: the processor has AVX2, POPCNT and BMI1 and
/// `WEFT_SIMT_BASELINE` is not set (set, it runs the baseline x86-64 build, so that tests
/// can check both on one machine). Decided once per process.
#[cfg(target_arch = "x86_64")]
fn use_avx2() -> bool {
    static USE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *USE.get_or_init(|| {
        std::env::var_os("WEFT_SIMT_BASELINE").is_none()
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
    })
}

impl<'a> Machine<'a> {
    pub(super) fn site(&self, w: usize, pc: u32) -> Site {
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
            b.reset();
        }
        cta.mismatch_reported = [false; BARRIERS];
        cta.exit_reported = [false; BARRIERS];
        if let Some(t) = self.track.as_mut() {
            t.launch(slot, self.steps);
        }
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
            if self.clear_regs.len() == self.reg_bits.len() {
                warp.regs.fill(0);
            } else {
                for &r in &self.clear_regs {
                    warp.regs[r as usize * WARP..(r as usize + 1) * WARP].fill(0);
                }
            }
            warp.local.fill(0);
        }
    }

    /// The scheduler loop; `Ok(true)` when every thread completed.
    pub(super) fn schedule(&mut self) -> Result<bool, SimtError> {
        let total = self.cfg.grid_ctas();
        let mut next = 0u64;
        for slot in 0..self.ctas.len() {
            let Some(i) = self.take_cta(&mut next, total) else {
                break;
            };
            self.launch_cta(slot, i);
        }
        let mut rng = match self.opts.schedule {
            Schedule::Random(s) => Some(Rng(s)),
            Schedule::RoundRobin => None,
        };
        let nw = self.warps.len();
        let mut cursor = 0usize;
        let mut ready: Vec<usize> = Vec::with_capacity(nw);
        loop {
            if self.feed.is_some() && self.parallel_stop() {
                return Ok(false);
            }
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
                    if let Some(i) = self.take_cta(&mut next, total) {
                        self.launch_cta(slot, i);
                    }
                }
            }
            if self.steps >= self.opts.max_steps {
                self.findings.push(Finding::StepLimit { steps: self.steps });
                return Ok(false);
            }
        }
    }

    /// The next CTA to launch: in order, or from a parallel job's shared counter.
    fn take_cta(&mut self, next: &mut u64, total: u64) -> Option<u64> {
        if let (Some(f), Some(t)) = (self.feed, self.track.as_mut()) {
            return f.take(&mut t.chunk);
        }
        (*next < total).then(|| {
            *next += 1;
            *next - 1
        })
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
        if let Some(t) = self.track.as_mut() {
            t.interval(slot);
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
        // The released barrier keeps its lists' allocations for its next use.
        let mut b = b;
        b.reset();
        self.ctas[slot].bars[id] = b;
    }

    /// Runs warp `w` for up to `quantum` warp-instructions: the same code compiled for
    /// AVX2 (with POPCNT and BMI1) where the processor has them: wider lane loops, one
    /// instruction for lane counts; the results are the same.
    fn run_warp(&mut self, w: usize, quantum: u32) -> Stop {
        #[cfg(target_arch = "x86_64")]
        if use_avx2() {
            // SAFETY: the processor supports AVX2, POPCNT and BMI1 (checked by `use_avx2`),
            // the only requirement of calling a function compiled with those features.
            return unsafe { self.run_warp_avx2(w, quantum) };
        }
        self.run_warp_body(w, quantum)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1")]
    fn run_warp_avx2(&mut self, w: usize, quantum: u32) -> Stop {
        self.run_warp_body(w, quantum)
    }

    #[inline(always)]
    fn run_warp_body(&mut self, w: usize, quantum: u32) -> Stop {
        let tracing = self.trace.is_some() || self.sink.is_some();
        let mut budget = quantum;
        // What the special registers read, for the whole turn (`steps` kept current).
        let mut ctx = {
            let warp = &self.warps[w];
            SpecialCtx {
                wic: warp.warp_in_cta,
                block: self.cfg.block,
                grid: self.cfg.grid,
                cta_id: self.ctas[warp.slot].id,
                wpc: self.warps_per_cta as u32,
                slot: warp.slot,
                steps: self.steps,
            }
        };
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
            if self.code[top.pc as usize].run > 0 {
                budget = self.run_regops(w, top, budget, &mut ctx);
                continue;
            }
            budget -= 1;
            self.steps += 1;
            ctx.steps = self.steps;
            if self.uniform_branch(w, top) {
                continue;
            }
            match self.exec(w, top, &ctx) {
                None => {}
                Some(s) => return s,
            }
        }
        Stop::Yield
    }

    /// A branch that every executing lane takes or none does (unguarded, or its guard the
    /// same in all of them), done here without the general instruction step: no frame is
    /// pushed and no event is traced, exactly as [`Machine::exec`] would do it; `false`
    /// (nothing done) for any other instruction or a divergent branch.
    #[inline(always)]
    fn uniform_branch(&mut self, w: usize, top: Frame) -> bool {
        let ins = &self.code[top.pc as usize];
        let DOp::Bra { target, .. } = ins.op else {
            return false;
        };
        let warp = &mut self.warps[w];
        let mask = top.mask & warp.live;
        let em = guard_mask(ins.guard, &warp.regs, mask);
        let next = if em == mask {
            target
        } else if em == 0 {
            top.pc + 1
        } else {
            return false;
        };
        self.stats.thread_instrs += u64::from(em.count_ones());
        warp.stack.last_mut().expect("frame").pc = next;
        true
    }

    fn global_warp(&self, w: usize) -> u64 {
        let warp = &self.warps[w];
        self.ctas[warp.slot].linear * self.warps_per_cta as u64 + u64::from(warp.warp_in_cta)
    }

    pub(super) fn exit_lanes(&mut self, w: usize, em: u32) -> Option<Stop> {
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
    #[inline(always)]
    fn exec(&mut self, w: usize, top: Frame, ctx: &SpecialCtx) -> Option<Stop> {
        let post = self.exec_inner(w, top, ctx);
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
            Post::Sys(func, dst, lanes) => self.sys_call(w, top.pc, func, dst, lanes),
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

    pub(super) fn fault(&mut self, w: usize, pc: u32, lane: usize, addr: u64, what: &str) -> Stop {
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
