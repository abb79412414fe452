//! The kernel stepper's [`Stepper`] implementation: starting threads, running each to its
//! next event through `weft-simt`'s single-thread stepper, feeding read values back.

use std::sync::Arc;

use weft_exec::event::EventKind;
use weft_ir::attrs::FenceKind;
use weft_ir::kernel::{KOp, SysFunc};
use weft_ir::{MemAttrs, Order, Scope, Span};
use weft_simt::thread::{Access, AccessKind, Stop, ThreadProgram};

use super::{
    BlockedAt, Cont, KState, KernelStepper, LoopMark, Pending, SELF_BOUNDED_LIMIT, STEP_BUDGET,
};
use crate::step::{Action, ReadFix, Stepper};

impl<'k> KernelStepper<'k> {
    /// Goes on with what the thread's last event left to do (`cont`): the next element of a
    /// load, a barrier's or warp collective's wait, a warp arrival or exchange.
    fn resume_cont(&self, t: usize, s: &mut KState, pc: u32) -> Option<Action> {
        match s.cont.take() {
            Some(Cont::LoadElem { k }) => Some(self.load_elem(t, s, k)),
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
                Some(Action::Await {
                    ev,
                    lo: target as i64,
                    hi: target as i64,
                })
            }
            Some(Cont::WarpArrive) => Some(self.warp_arrive(t, s)),
            Some(Cont::WarpWait { cell, target }) => {
                let attrs = MemAttrs {
                    order: Order::Acquire,
                    scope: Some(Scope::Cta),
                    ..MemAttrs::default()
                };
                let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, self.span(t, pc));
                s.pending = Some(Pending::WarpWait { target });
                s.nevents += 1;
                Some(Action::Await {
                    ev,
                    lo: target as i64,
                    hi: target as i64,
                })
            }
            Some(Cont::WarpExchange) => self.warp_exchange(t, s),
            None => None,
        }
    }

    /// A load, store or atomic access: its first event.
    fn access(&self, t: usize, s: &mut KState, pc: u32, acc: Access) -> Action {
        let attrs = self.attrs(t, pc);
        let span = self.span(t, pc);
        match acc.kind {
            AccessKind::Load => {
                s.cur = Some(acc);
                self.load_elem(t, s, 0)
            }
            AccessKind::Store => {
                for (off, v) in &acc.elems {
                    let Some(cell) = self.cell(t, acc.region, *off) else {
                        return self.fault(t, pc, "access outside every modelled area");
                    };
                    let ev = Self::event(s, EventKind::Write, Some(cell), *v as i64, &attrs, span);
                    s.queue.push(ev);
                }
                self.part(t).prog.advance(&mut s.th);
                let ev = s.queue.remove(0);
                Self::emit(s, ev)
            }
            AccessKind::Atom { .. } => {
                let Some(cell) = self.cell(t, acc.region, acc.elems[0].0) else {
                    return self.fault(t, pc, "access outside every modelled area");
                };
                let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, span);
                s.pending = Some(Pending::Atom { width: acc.width });
                s.cur = Some(acc);
                Self::emit(s, ev)
            }
        }
    }

    /// A fence: its event.
    fn fence(&self, t: usize, s: &mut KState, pc: u32) -> Action {
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
        Self::emit(s, ev)
    }

    /// A CTA barrier's arrival: the read of its counter's RMW.
    fn barrier(
        &self,
        t: usize,
        s: &mut KState,
        pc: u32,
        id: u32,
        count: Option<u32>,
        arrive: bool,
    ) -> Action {
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
        let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, self.span(t, pc));
        s.pending = Some(Pending::BarRmw {
            cell,
            target,
            id,
            arrive,
            expect,
        });
        match expect {
            Some(e) => {
                s.nevents += 1;
                Action::Await {
                    ev,
                    lo: e as i64,
                    hi: e as i64,
                }
            }
            None => Self::emit(s, ev),
        }
    }

    /// Counts an iteration of the loop a back edge closes; past its bound the execution is
    /// to be cut where the thread goes on in the loop.
    fn count_iteration(&self, t: usize, s: &mut KState, target: u32, from: u32) {
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

    /// A system call the single-thread stepper leaves to its caller: a failed assert, or a
    /// device printf (its result set, the thread advanced: `None`); a fault otherwise.
    fn syscall(&self, t: usize, s: &mut KState, pc: u32, what: &'static str) -> Option<Action> {
        match &self.part(t).kernel.code[pc as usize].op {
            // docs/mc.md, "Device printf and assert" (kernel/syscall.rs).
            KOp::SysCall {
                func: SysFunc::AssertFail,
                ..
            } => Some(Action::AssertFailed(self.span(t, pc))),
            KOp::SysCall {
                func: SysFunc::Vprintf,
                dst,
                ..
            } => {
                let Some(&n) = self.part(t).printf.get(&pc) else {
                    return Some(self.fault(t, pc, what));
                };
                if let Some(r) = dst {
                    if let Some(x) = s.th.regs.get_mut(r.0 as usize) {
                        *x = n;
                    }
                }
                self.part(t).prog.advance(&mut s.th);
                None
            }
            _ => Some(self.fault(t, pc, what)),
        }
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
        if let Some(a) = self.resume_cont(t, s, pc) {
            return a;
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
                Stop::Access(acc) => return self.access(t, s, pc, acc),
                Stop::Fence => return self.fence(t, s, pc),
                Stop::Barrier { id, count, arrive } => {
                    return self.barrier(t, s, pc, id, count, arrive)
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
                    self.count_iteration(t, s, target, from);
                }
                Stop::Exit => return self.host_end(t, s),
                Stop::Fault { addr, what } => {
                    return self.fault(t, pc, &format!("{what} (address {addr:#x})"))
                }
                Stop::Unsupported(what) => {
                    if let Some(a) = self.syscall(t, s, pc, what) {
                        return a;
                    }
                    resume = false;
                }
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
