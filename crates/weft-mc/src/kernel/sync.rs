//! The kernel stepper's synchronisation and event helpers: warp collectives, host-ordered
//! launch boundaries, barrier arrivals, event construction and source descriptions.

use std::sync::Arc;

use weft_exec::event::{Cell, EventKind, TraceEvent};
use weft_ir::kernel::KOp;
use weft_ir::{LocId, MemAttrs, Order, Scope, Span};
use weft_simt::mem::Region;
use weft_simt::thread::WarpOp;

use super::{
    describe, hash_live, BlockedAt, Cont, KState, KernelStepper, Pending, SpinMark, WarpCall,
    BARRIERS,
};
use crate::step::{Action, ReadFix, Stepper};

impl<'k> KernelStepper<'k> {
    /// Enters a warp collective (paper 004 §2's barrier encoding, over the member lanes):
    /// a shuffle or vote first publishes this lane's value in its exchange slot (a relaxed
    /// CTA-scope write; the bank alternates with the generation, so a slot is rewritten only
    /// after every member has read it), then arrives (an acquire-release RMW on the warp's
    /// counter, lanes in lane order as for barriers) and departs when all members arrived;
    /// then it reads the slots it needs. A member that never arrives leaves the others
    /// blocked: divergence, as for barriers.
    pub(super) fn warp_enter(&self, t: usize, s: &mut KState, op: WarpOp) -> Action {
        let pc = s.th.pc;
        let lane = self.ids[t].tid % self.warp;
        let mask = match op {
            WarpOp::Sync { mask }
            | WarpOp::Shfl { mask, .. }
            | WarpOp::Vote { mask, .. }
            | WarpOp::Match { mask, .. } => mask,
        };
        let members = mask & self.warp_lanes(t);
        if members & (1 << lane) == 0 {
            return self.fault(t, pc, "warp collective by a lane not in its member mask");
        }
        let group = self.mask_group(t, mask);
        let gi = group as usize;
        if s.warp_gen.len() <= gi {
            s.warp_gen.resize(gi + 1, 0);
        }
        s.warp_gen[gi] += 1;
        let bank = s.warp_gen[gi] % 2;
        let n = u64::from(members.count_ones());
        let rank = u64::from((members & ((1u32 << lane) - 1)).count_ones());
        let gen = u64::from(s.warp_gen[gi]);
        s.warp = Some(WarpCall {
            op,
            group,
            members,
            bank,
            ballot: 0,
            todo: members,
            result: None,
            values: Vec::new(),
            expect: (gen - 1) * n + rank,
            target: gen * n,
        });
        let value = match op {
            WarpOp::Sync { .. } => return self.warp_arrive(t, s),
            WarpOp::Shfl { a, .. } => a as i64,
            WarpOp::Vote { p, .. } => i64::from(p),
            WarpOp::Match { a, .. } => a as i64,
        };
        let Some(slot) = self.warp_cell(t, group, 1 + bank * self.warp + lane) else {
            return self.fault(t, pc, "internal: no warp area");
        };
        let attrs = MemAttrs {
            order: Order::Relaxed,
            scope: Some(Scope::Cta),
            ..MemAttrs::default()
        };
        let ev = Self::event(
            s,
            EventKind::Write,
            Some(slot),
            value,
            &attrs,
            self.span(t, pc),
        );
        s.cont = Some(Cont::WarpArrive);
        Self::emit(s, ev)
    }

    /// The arrival RMW's read of the warp collective in progress.
    pub(super) fn warp_arrive(&self, t: usize, s: &mut KState) -> Action {
        let pc = s.th.pc;
        let Some((group, expect)) = s.warp.as_ref().map(|c| (c.group, c.expect)) else {
            return self.fault(t, pc, "internal: no warp collective in progress");
        };
        let Some(cell) = self.warp_cell(t, group, 0) else {
            return self.fault(t, pc, "internal: no warp area");
        };
        let attrs = Self::counter_attrs(Scope::Cta);
        let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, self.span(t, pc));
        s.pending = Some(Pending::WarpRmw { cell, expect });
        s.nevents += 1;
        Action::Await {
            ev,
            lo: expect as i64,
            hi: expect as i64,
        }
    }

    /// After the departure: the read of the next exchange slot this lane needs, or `None`
    /// when the collective is finished (its result in the lane's registers, the thread past
    /// it).
    pub(super) fn warp_exchange(&self, t: usize, s: &mut KState) -> Option<Action> {
        let pc = s.th.pc;
        let lane = self.ids[t].tid % self.warp;
        let call = s.warp.as_mut()?;
        let next = match call.op {
            WarpOp::Sync { .. } => None,
            WarpOp::Shfl { mode, a, b, c, .. } => {
                let (src, ok) = weft_simt::machine::shfl_source(mode, lane as usize, b, c);
                let src = src as u32;
                if call.result.is_some() {
                    None
                } else if ok && src != lane && call.members & (1 << src) != 0 {
                    Some(src)
                } else {
                    // Its own value: out of range, the lane itself, or a source that is not
                    // a member (undefined in PTX; the lane's own value, as the emulator).
                    call.result = Some(a);
                    None
                }
            }
            WarpOp::Vote { p, .. } => {
                if call.todo & (1 << lane) != 0 {
                    call.todo &= !(1 << lane);
                    if p {
                        call.ballot |= 1 << lane;
                    }
                }
                (call.todo != 0).then(|| call.todo.trailing_zeros())
            }
            WarpOp::Match { a, .. } => {
                if call.todo & (1 << lane) != 0 {
                    call.todo &= !(1 << lane);
                    call.values.push((lane, a));
                }
                (call.todo != 0).then(|| call.todo.trailing_zeros())
            }
        };
        if let Some(src) = next {
            let bank = call.bank;
            let Some(cell) = self.warp_cell(t, call.group, 1 + bank * self.warp + src) else {
                return Some(self.fault(t, pc, "internal: no warp area"));
            };
            let attrs = MemAttrs {
                order: Order::Relaxed,
                scope: Some(Scope::Cta),
                ..MemAttrs::default()
            };
            let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, self.span(t, pc));
            s.pending = Some(Pending::WarpSlot { lane: src });
            return Some(Self::emit(s, ev));
        }
        let call = s.warp.take()?;
        match call.op {
            WarpOp::Vote { mode, .. } => {
                let v = weft_simt::machine::vote_value(mode, call.ballot, call.members);
                self.part(t).prog.finish_warp(&mut s.th, v, true);
            }
            WarpOp::Shfl { mode, b, c, .. } => {
                let (_, ok) = weft_simt::machine::shfl_source(mode, lane as usize, b, c);
                self.part(t)
                    .prog
                    .finish_warp(&mut s.th, call.result.unwrap_or(0), ok);
            }
            WarpOp::Match { mode, bits, .. } => {
                let value = |l: usize| {
                    call.values
                        .iter()
                        .find(|(x, _)| *x as usize == l)
                        .map_or(0, |v| v.1)
                };
                let (v, p) =
                    weft_simt::machine::match_value(mode, bits, call.members, lane as usize, value);
                self.part(t).prog.finish_warp(&mut s.th, v, p);
            }
            WarpOp::Sync { .. } => self.part(t).prog.advance(&mut s.th),
        }
        None
    }

    /// The launch of thread `t`, and its index in the launch.
    pub(super) fn launch_of(&self, t: usize) -> (u32, u32) {
        let l = self.tl[t].0;
        (l, t as u32 - self.runs[l as usize].first_thread)
    }

    /// Boundary counter `l` (after launch `l`).
    pub(super) fn host_cell(&self, l: u32) -> Option<(Cell, LocId)> {
        let loc = LocId(self.host_base?);
        Some((Cell { loc, index: l }, loc))
    }

    /// The start of a thread of launch l > 0: an acquire read of boundary counter l-1 that
    /// must see every thread of launch l-1 end (the host's synchronisation between
    /// launches). `None`: nothing to wait for.
    pub(super) fn host_start(&self, t: usize, s: &mut KState) -> Option<Action> {
        let (l, _) = self.launch_of(t);
        let cell = self.host_cell(l.checked_sub(1)?)?;
        let attrs = MemAttrs {
            order: Order::Acquire,
            scope: Some(Scope::Gpu),
            ..MemAttrs::default()
        };
        let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, Span::default());
        s.pending = Some(Pending::HostWait);
        s.nevents += 1;
        let n = i64::from(self.runs[l as usize - 1].threads);
        Some(Action::Await { ev, lo: n, hi: n })
    }

    /// The end of a thread: in a launch followed by another, an acquire-release increment
    /// of the boundary counter (threads in order, as barrier arrivals: one order stands for
    /// all), then done.
    pub(super) fn host_end(&self, t: usize, s: &mut KState) -> Action {
        let (l, j) = self.launch_of(t);
        s.ended = true;
        if l as usize + 1 >= self.runs.len() {
            return Action::Done;
        }
        let Some(cell) = self.host_cell(l) else {
            return Action::Done;
        };
        let attrs = Self::counter_attrs(Scope::Gpu);
        let ev = Self::event(s, EventKind::Read, Some(cell), 0, &attrs, Span::default());
        s.pending = Some(Pending::HostEnd { cell });
        s.nevents += 1;
        Action::Await {
            ev,
            lo: i64::from(j),
            hi: i64::from(j),
        }
    }

    /// Whether thread `t`, left waiting, waits at a launch boundary.
    pub fn awaiting_host(&self, t: usize, st: &Arc<KState>) -> bool {
        let mut st = st.clone();
        matches!(self.next(t, &mut st), Action::Await { .. })
            && matches!(
                st.pending,
                Some(Pending::HostWait) | Some(Pending::HostEnd { .. })
            )
    }

    /// The barrier id reported for thread `t`'s warp collectives (after the 16 barriers).
    pub(super) fn warp_bar_id(&self, t: usize) -> u32 {
        BARRIERS + self.ids[t].tid / self.warp
    }

    /// The source position of the instruction at `pc` as an event span: its `.loc` in the
    /// kernel's own file, or (line 0: code the compiler merged from several lines; a line of
    /// an inlined header function such as `atomicAdd_block` or `barrier`) the nearest
    /// earlier one in that file, or its PTX position when the kernel has no line information.
    pub(super) fn span(&self, t: usize, pc: u32) -> Span {
        let p = self.part(t);
        let code = &p.kernel.code;
        let end = (pc as usize + 1).min(code.len());
        for i in code[..end].iter().rev() {
            if let Some(l) = i.loc.filter(|l| l.line > 0 && l.file == p.main_file) {
                return Span::new(l.line, l.col);
            }
        }
        code.get(pc as usize).map(|i| i.span).unwrap_or_default()
    }

    /// The order and scope of the memory instruction at `pc`.
    pub(super) fn attrs(&self, t: usize, pc: u32) -> MemAttrs {
        let kernel = self.part(t).kernel;
        let mut a = match kernel.code.get(pc as usize).map(|i| &i.op) {
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
            kernel.code.get(pc as usize).map(|i| &i.op),
            Some(KOp::Atom { .. })
        ) && a.order == Order::Plain
        {
            a.order = Order::Relaxed;
            a.scope.get_or_insert(Scope::Gpu);
        }
        a
    }

    pub(super) fn event(
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

    /// The attributes of a synchronisation counter's RMW (barriers, warp collectives, launch
    /// boundaries): acquire-release at `scope`.
    pub(super) fn counter_attrs(scope: Scope) -> MemAttrs {
        MemAttrs {
            order: Order::AcqRel,
            scope: Some(scope),
            ..MemAttrs::default()
        }
    }

    /// Queues the write half of a counter RMW whose read returned `value` (it increments).
    pub(super) fn counter_increment(
        s: &mut KState,
        cell: (Cell, LocId),
        value: i64,
        scope: Scope,
        span: Span,
    ) -> ReadFix {
        let attrs = Self::counter_attrs(scope);
        let mut ev = Self::event(
            s,
            EventKind::Write,
            Some(cell),
            value.wrapping_add(1),
            &attrs,
            span,
        );
        ev.rmw = true;
        s.queue.push(ev);
        ReadFix {
            rmw: true,
            attrs: None,
        }
    }

    pub(super) fn emit(s: &mut KState, ev: TraceEvent) -> Action {
        s.nevents += 1;
        if ev.kind == EventKind::Write {
            s.writes = s.writes.wrapping_add(1);
        }
        Action::Event(ev)
    }

    pub(super) fn fault(&self, t: usize, pc: u32, m: &str) -> Action {
        Action::Fault(format!(
            "{}: {m}",
            describe(self.part(t).kernel, pc as usize)
        ))
    }

    /// The thread arrives at watched point `pc` (paper 004 §4, spin loops as `assume`): when
    /// it was here before, has written nothing since, and the registers live here and its
    /// local memory are as they were then, the stretch in between changed nothing the
    /// program can observe except through the values its reads returned: an execution with
    /// it is one without it plus reads no other thread depends on. The thread blocks; only
    /// a write that lets one of those reads return something new (a revisit) moves it on.
    pub(super) fn arrive(&self, t: usize, s: &mut KState, pc: u32) -> Option<Action> {
        let hash = hash_live(&s.th, self.part(t).heads.live_at(pc));
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
    pub(super) fn load_elem(&self, t: usize, s: &mut KState, k: usize) -> Action {
        let pc = s.th.pc;
        let Some(off) = s.cur.as_ref().and_then(|a| a.elems.get(k)).map(|e| e.0) else {
            return self.fault(t, pc, "internal: no access in flight");
        };
        let region = s.cur.as_ref().map_or(Region::Global, |a| a.region);
        let Some(cell) = self.cell(t, region, off) else {
            return self.fault(t, pc, "access outside every modelled area");
        };
        let ev = Self::event(
            s,
            EventKind::Read,
            Some(cell),
            0,
            &self.attrs(t, pc),
            self.span(t, pc),
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
            Some(Pending::WarpRmw { .. }) | Some(Pending::WarpWait { .. }) => {
                Some((st.th.pc, self.warp_bar_id(t)))
            }
            _ => None,
        }
    }

    /// The thread's blocking reason, if blocked.
    pub fn blocked_at<'a>(&self, st: &'a Arc<KState>) -> Option<&'a BlockedAt> {
        st.blocked.as_ref()
    }

    /// `file:line:col` of an instruction as its events show it ([`Self::span`]), with its
    /// PTX position.
    pub fn describe(&self, t: usize, pc: u32) -> String {
        let sp = self.span(t, pc);
        let p = self.part(t);
        let f = p.kernel.file_name(p.main_file).unwrap_or("?");
        let f = f.rsplit('/').next().unwrap_or(f);
        let ptx = p
            .kernel
            .code
            .get(pc as usize)
            .map(|i| i.span.to_string())
            .unwrap_or_default();
        format!("{f}:{sp} (PTX {ptx})")
    }
}
