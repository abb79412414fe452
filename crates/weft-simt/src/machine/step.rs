//! One warp instruction of the SIMT machine for the lanes that execute it: loads, stores and
//! atomics (lane by lane, traced), barriers, warp syncs, branches (pushing the
//! reconvergence stack), exit, trap, shuffles, votes, matches and assertions;
//! register-only instructions go to `regop`.

use weft_ir::attrs::MemSpace;
use weft_ir::kernel::SpecialReg;

use super::collective::{match_value, member_gap, shfl_source, vote_value};
use super::fastmem::{self, Mems};
use super::regop::{exec_alu, guard_mask, rv, SpecialCtx};
use super::trace::{access_event, emit_access, emit_endi_at, emit_lanes, emit_to, Lanes, Loc};
use super::{Frame, FrameKind, Machine, Post, Stop, WState, BARRIERS, FULL, WARP};
use crate::alu;
use crate::decode::{DAddr, DOp, Src, TraceKind};
use crate::mem::{self, resolve_generic, Region, GLOBAL_BASE};
use crate::sink::{AccessOp, BranchEvent};

impl<'a> Machine<'a> {
    /// Runs the instruction at `top.pc` for the lanes of `top.mask` that its guard lets
    /// through: register-only ones here, the others by family.
    #[inline(always)]
    pub(super) fn exec_inner(&mut self, w: usize, top: Frame, ctx: &SpecialCtx) -> Post {
        let pc = top.pc;
        let ins = &self.code[pc as usize];
        let warp = &mut self.warps[w];
        let mask = top.mask & warp.live;
        let em = guard_mask(ins.guard, &warp.regs, mask);
        self.stats.thread_instrs += u64::from(em.count_ones());
        let sp = |s: SpecialReg, lane: usize| -> u64 { ctx.get(s, lane) };
        if ins.run > 0 && exec_alu::<WARP, _>(&ins.op, &mut warp.regs, em, &sp) {
            warp.stack.last_mut().expect("frame").pc = pc + 1;
            return Post::None;
        }
        match ins.op {
            DOp::Ld { .. } => self.exec_ld(w, top, em),
            DOp::St { .. } => self.exec_st(w, top, em, ctx),
            DOp::Atom { .. } => self.exec_atom(w, top, em, ctx),
            DOp::Shfl { .. }
            | DOp::Vote { .. }
            | DOp::Match { .. }
            | DOp::Activemask { .. }
            | DOp::Assert { .. } => self.exec_collective(w, top, em, ctx),
            _ => self.exec_control(w, top, em, ctx),
        }
    }

    /// The per-warp fast path of a load (`fastmem`), its events traced after it; `false`
    /// (nothing done) when it does not apply.
    #[inline(always)]
    fn ld_fast(&mut self, w: usize, top: Frame, em: u32) -> bool {
        let pc = top.pc;
        let tracing = self.trace.is_some() || self.sink.is_some();
        let Machine {
            code,
            warps,
            ctas,
            global,
            param,
            reg_bits,
            block_threads,
            trace,
            sink,
            io_error,
            stats,
            warps_per_cta,
            track,
            ..
        } = self;
        let (block_threads, warps_per_cta) = (*block_threads, *warps_per_cta);
        let ins = &code[pc as usize];
        let warp = &mut warps[w];
        let slot = warp.slot;
        let cta = &mut ctas[slot];
        let wic = warp.warp_in_cta;
        let wpc = warps_per_cta as u32;
        let regs = &mut warp.regs;
        let next = pc + 1;
        let DOp::Ld {
            space,
            width,
            sext,
            dst,
            addr,
            trace: tk,
        } = &ins.op
        else {
            unreachable!("exec_ld on another instruction");
        };
        let width = *width as usize;
        // The per-warp fast path; a traced access's events are emitted after it
        // (`trace::emit_lanes`; a parallel job's access record it keeps itself).
        let traced = tracing && *tk != TraceKind::None;
        if let [Some(d)] = &dst[..] {
            let bits = reg_bits[*d as usize];
            // The lanes' addresses before the load (it may overwrite their register).
            let pre = traced.then(|| lane_addrs(regs, *addr));
            let mems = Mems {
                global: &mut global[..],
                shared: &mut cta.shared[..],
                param: &param[..],
            };
            let rec = track.as_mut().map(|t| (t, cta.linear, slot, wic));
            if em != 0
                && (!traced || width * 8 <= bits as usize)
                && fastmem::load(*space, width, *sext, *d, bits, *addr, regs, em, &mems, rec)
            {
                if let Some(addrs) = pre {
                    let r = &regs[*d as usize * WARP..(*d as usize + 1) * WARP];
                    let w8 = (width * 8) as u16;
                    let mut vals: [u64; WARP] = r.try_into().expect("register");
                    if *sext {
                        for v in &mut vals {
                            *v = alu::sext(*v, w8) as u64;
                        }
                    }
                    let gw = cta.linear * u64::from(wpc) + u64::from(wic);
                    let lanes = Lanes {
                        space: *space,
                        addrs: &addrs,
                        vals: &vals,
                        em,
                        cta: cta.linear,
                        gt_base: cta.linear * u64::from(block_threads) + u64::from(wic) * 32,
                        gw,
                        pc,
                        op: AccessOp::Load,
                        kind: *tk,
                        width,
                    };
                    emit_lanes(trace, io_error, stats, sink, &lanes);
                }
                warp.stack.last_mut().expect("frame").pc = next;
                return true;
            }
        }
        false
    }

    /// A load: the per-warp fast path, else lane by lane (traced, faults reported).
    #[inline(always)]
    fn exec_ld(&mut self, w: usize, top: Frame, em: u32) -> Post {
        if self.ld_fast(w, top, em) {
            return Post::None;
        }
        let pc = top.pc;
        let tracing = self.trace.is_some() || self.sink.is_some();
        let Machine {
            code,
            warps,
            ctas,
            global,
            param,
            reg_bits,
            layout,
            block_threads,
            trace,
            sink,
            io_error,
            stats,
            warps_per_cta,
            track,
            ..
        } = self;
        let (block_threads, warps_per_cta) = (*block_threads, *warps_per_cta);
        let ins = &code[pc as usize];
        let warp = &mut warps[w];
        let slot = warp.slot;
        let cta = &mut ctas[slot];
        let wic = warp.warp_in_cta;
        let wpc = warps_per_cta as u32;
        let regs = &mut warp.regs;
        let next = pc + 1;
        macro_rules! set {
            ($r:expr, $l:expr, $v:expr) => {
                regs[$r as usize * WARP + $l] = $v
            };
        }
        let DOp::Ld {
            space,
            width,
            sext,
            dst,
            addr,
            trace: tk,
        } = &ins.op
        else {
            unreachable!("exec_ld on another instruction");
        };
        let width = *width as usize;
        let local_bytes = layout.local_bytes as usize;
        let gt_base = cta.linear * u64::from(block_threads) + u64::from(wic) * 32;
        let mut fault = None;
        for_lanes!(em, l, {
            let base = lane_addr(regs, *addr, l);
            let vbytes = width * dst.len();
            if misaligned(*space, base, vbytes) {
                if let (true, Some(sk)) = (tracing && *tk != TraceKind::None, sink.as_mut()) {
                    let ev = misaligned_event(*space, base, cta.linear, gt_base + l as u64);
                    sk.access(&ev(pc, AccessOp::Load, *tk, vbytes as u8, 0));
                }
                fault = Some((l, base, "misaligned load"));
                break;
            }
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
                    // The sink sees the access that faults (memcheck names it).
                    let traced = tracing && *tk != TraceKind::None;
                    if let (true, Some(sk)) = (traced, sink.as_mut()) {
                        let (t, op) = (gt_base + l as u64, AccessOp::Load);
                        let w = width as u8;
                        let ev = access_event(region, off, a, cta.linear, t, pc, op, *tk, w, 0);
                        sk.access(&ev);
                    }
                    fault = Some((l, a, "out-of-bounds load"));
                    break;
                };
                if let Some(tr) = track.as_mut() {
                    tr.access(region, off, width, cta.linear, slot, wic, true, false);
                }
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
                    emit_access(trace, io_error, stats, tk.name(), gt_base + l as u64, &loc);
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
            emit_endi_at(trace, io_error, stats, sink, gw, em, pc);
        }
        warp.stack.last_mut().expect("frame").pc = next;
        Post::None
    }

    /// The per-warp fast path of a store (`fastmem`), its events traced after it; `false`
    /// (nothing done) when it does not apply.
    #[inline(always)]
    fn st_fast(&mut self, w: usize, top: Frame, em: u32, ctx: &SpecialCtx) -> bool {
        let pc = top.pc;
        let tracing = self.trace.is_some() || self.sink.is_some();
        let Machine {
            code,
            warps,
            ctas,
            global,
            param,
            block_threads,
            trace,
            sink,
            io_error,
            stats,
            warps_per_cta,
            track,
            ..
        } = self;
        let (block_threads, warps_per_cta) = (*block_threads, *warps_per_cta);
        let ins = &code[pc as usize];
        let warp = &mut warps[w];
        let slot = warp.slot;
        let cta = &mut ctas[slot];
        let wic = warp.warp_in_cta;
        let wpc = warps_per_cta as u32;
        let regs = &mut warp.regs;
        let next = pc + 1;
        let DOp::St {
            space,
            width,
            src,
            addr,
            trace: tk,
        } = &ins.op
        else {
            unreachable!("exec_st on another instruction");
        };
        let width = *width as usize;
        if let ([s], true) = (&src[..], em != 0) {
            let vals: [u64; WARP] = match *s {
                Src::R(r) => regs[r as usize * WARP..(r as usize + 1) * WARP]
                    .try_into()
                    .expect("register"),
                Src::I(v) => [v; WARP],
                Src::S(x) => std::array::from_fn(|l| ctx.get(x, l)),
            };
            let mut mems = Mems {
                global: &mut global[..],
                shared: &mut cta.shared[..],
                param: &param[..],
            };
            let rec = track.as_mut().map(|t| (t, cta.linear, slot, wic));
            if fastmem::store(*space, width, *addr, regs, &vals, em, &mut mems, rec) {
                if tracing {
                    let w8 = (width * 8) as u16;
                    let lanes = Lanes {
                        space: *space,
                        addrs: &lane_addrs(regs, *addr),
                        vals: &vals.map(|v| alu::trunc(v, w8)),
                        em,
                        cta: cta.linear,
                        gt_base: cta.linear * u64::from(block_threads) + u64::from(wic) * 32,
                        gw: cta.linear * u64::from(wpc) + u64::from(wic),
                        pc,
                        op: AccessOp::Store,
                        kind: *tk,
                        width,
                    };
                    emit_lanes(trace, io_error, stats, sink, &lanes);
                }
                warp.stack.last_mut().expect("frame").pc = next;
                return true;
            }
        }
        false
    }

    /// A store: the per-warp fast path, else lane by lane (traced, faults reported).
    #[inline(always)]
    fn exec_st(&mut self, w: usize, top: Frame, em: u32, ctx: &SpecialCtx) -> Post {
        if self.st_fast(w, top, em, ctx) {
            return Post::None;
        }
        let pc = top.pc;
        let tracing = self.trace.is_some() || self.sink.is_some();
        let Machine {
            code,
            warps,
            ctas,
            global,
            layout,
            block_threads,
            trace,
            sink,
            io_error,
            stats,
            warps_per_cta,
            track,
            ..
        } = self;
        let (block_threads, warps_per_cta) = (*block_threads, *warps_per_cta);
        let ins = &code[pc as usize];
        let warp = &mut warps[w];
        let slot = warp.slot;
        let cta = &mut ctas[slot];
        let wic = warp.warp_in_cta;
        let wpc = warps_per_cta as u32;
        let sp = |s: SpecialReg, lane: usize| -> u64 { ctx.get(s, lane) };
        let regs = &mut warp.regs;
        let next = pc + 1;
        let DOp::St {
            space,
            width,
            src,
            addr,
            trace: tk,
        } = &ins.op
        else {
            unreachable!("exec_st on another instruction");
        };
        let width = *width as usize;
        let local_bytes = layout.local_bytes as usize;
        let gt_base = cta.linear * u64::from(block_threads) + u64::from(wic) * 32;
        let mut fault = None;
        for_lanes!(em, l, {
            let base = lane_addr(regs, *addr, l);
            let vbytes = width * src.len();
            if misaligned(*space, base, vbytes) {
                if let (true, Some(sk)) = (tracing, sink.as_mut()) {
                    let ev = misaligned_event(*space, base, cta.linear, gt_base + l as u64);
                    sk.access(&ev(pc, AccessOp::Store, *tk, vbytes as u8, 0));
                }
                fault = Some((l, base, "misaligned store"));
                break;
            }
            for (k, s) in src.iter().enumerate() {
                let a = base.wrapping_add((k * width) as u64);
                let v = rv(regs, *s, l, &sp);
                let routed = route(*space, a);
                let ok = match routed {
                    Some((Region::Global, off)) => {
                        mem::write(global, off, width, v).then_some((Region::Global, off))
                    }
                    Some((Region::Shared, off)) => {
                        mem::write(&mut cta.shared, off, width, v).then_some((Region::Shared, off))
                    }
                    Some((Region::Local, off)) => {
                        let lm = &mut warp.local[l * local_bytes..(l + 1) * local_bytes];
                        mem::write(lm, off, width, v).then_some((Region::Local, off))
                    }
                    _ => None,
                };
                let Some((region, off)) = ok else {
                    if let (true, Some(sk), Some((region, off))) = (tracing, sink.as_mut(), routed)
                    {
                        let (t, op) = (gt_base + l as u64, AccessOp::Store);
                        let w = width as u8;
                        let ev = access_event(region, off, a, cta.linear, t, pc, op, *tk, w, v);
                        sk.access(&ev);
                    }
                    fault = Some((l, a, "out-of-bounds or invalid store"));
                    break;
                };
                if let Some(tr) = track.as_mut() {
                    tr.access(region, off, width, cta.linear, slot, wic, false, true);
                }
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
                    emit_access(trace, io_error, stats, tk.name(), gt_base + l as u64, &loc);
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
            emit_endi_at(trace, io_error, stats, sink, gw, em, pc);
        }
        warp.stack.last_mut().expect("frame").pc = next;
        Post::None
    }

    /// An atomic, lane by lane in lane order.
    #[inline(always)]
    fn exec_atom(&mut self, w: usize, top: Frame, em: u32, ctx: &SpecialCtx) -> Post {
        let pc = top.pc;
        let tracing = self.trace.is_some() || self.sink.is_some();
        let Machine {
            code,
            warps,
            ctas,
            global,
            block_threads,
            trace,
            sink,
            io_error,
            stats,
            warps_per_cta,
            track,
            ..
        } = self;
        let (block_threads, warps_per_cta) = (*block_threads, *warps_per_cta);
        let ins = &code[pc as usize];
        let warp = &mut warps[w];
        let slot = warp.slot;
        let cta = &mut ctas[slot];
        let wic = warp.warp_in_cta;
        let wpc = warps_per_cta as u32;
        let sp = |s: SpecialReg, lane: usize| -> u64 { ctx.get(s, lane) };
        let regs = &mut warp.regs;
        let next = pc + 1;
        macro_rules! set {
            ($r:expr, $l:expr, $v:expr) => {
                regs[$r as usize * WARP + $l] = $v
            };
        }
        let DOp::Atom {
            op,
            space,
            ty,
            dst,
            addr,
            a,
            b,
            trace: tk,
        } = &ins.op
        else {
            unreachable!("exec_atom on another instruction");
        };
        let width = (ty.bits / 8) as usize;
        let gt_base = cta.linear * u64::from(block_threads) + u64::from(wic) * 32;
        let mut fault = None;
        // Lanes in order: atomics of one warp instruction are serialised by lane.
        for_lanes!(em, l, {
            let ad = lane_addr(regs, *addr, l);
            if misaligned(*space, ad, width) {
                if let (true, Some(sk)) = (tracing, sink.as_mut()) {
                    let ev = misaligned_event(*space, ad, cta.linear, gt_base + l as u64);
                    sk.access(&ev(pc, AccessOp::Atomic(*op), *tk, width as u8, 0));
                }
                fault = Some((l, ad, "misaligned atomic"));
                break;
            }
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
                if let (true, Some(sk)) = (tracing, sink.as_mut()) {
                    let (t, o) = (gt_base + l as u64, AccessOp::Atomic(*op));
                    let w = width as u8;
                    let ev = access_event(region, off, ad, cta.linear, t, pc, o, *tk, w, 0);
                    sk.access(&ev);
                }
                fault = Some((l, ad, "out-of-bounds atomic"));
                break;
            };
            if let Some(tr) = track.as_mut() {
                tr.access(region, off, width, cta.linear, slot, wic, true, true);
            }
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
            emit_endi_at(trace, io_error, stats, sink, gw, em, pc);
        }
        warp.stack.last_mut().expect("frame").pc = next;
        Post::None
    }

    /// Fences, barriers, warp syncs, branches, exit, trap and system calls (and any other
    /// instruction the families above do not take: nothing is done but the pc advanced).
    #[inline(always)]
    fn exec_control(&mut self, w: usize, top: Frame, em: u32, ctx: &SpecialCtx) -> Post {
        let pc = top.pc;
        let tracing = self.trace.is_some() || self.sink.is_some();
        let Machine {
            code,
            warps,
            ctas,
            trace,
            sink,
            io_error,
            stats,
            warps_per_cta,
            ..
        } = self;
        let warps_per_cta = *warps_per_cta;
        let ins = &code[pc as usize];
        let warp = &mut warps[w];
        let mask = top.mask & warp.live;
        let slot = warp.slot;
        let cta = &mut ctas[slot];
        let wic = warp.warp_in_cta;
        let wpc = warps_per_cta as u32;
        let sp = |s: SpecialReg, lane: usize| -> u64 { ctx.get(s, lane) };
        let regs = &mut warp.regs;
        let mut next = pc + 1;
        match &ins.op {
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
            DOp::Sys { func, dst, args } if em != 0 => {
                let mut lanes = Vec::new();
                for_lanes!(em, l, {
                    lanes.push((l, args.iter().map(|a| rv(regs, *a, l, &sp)).collect()));
                });
                warp.stack.last_mut().expect("frame").pc = next;
                return Post::Sys(*func, *dst, lanes);
            }
            _ => {}
        }
        warp.stack.last_mut().expect("frame").pc = next;
        Post::None
    }

    /// Shuffles, votes, matches, `activemask` and checked assertions.
    #[inline(always)]
    fn exec_collective(&mut self, w: usize, top: Frame, em: u32, ctx: &SpecialCtx) -> Post {
        let pc = top.pc;
        let Machine { code, warps, .. } = self;
        let ins = &code[pc as usize];
        let warp = &mut warps[w];
        let mask = top.mask & warp.live;
        let sp = |s: SpecialReg, lane: usize| -> u64 { ctx.get(s, lane) };
        let regs = &mut warp.regs;
        let next = pc + 1;
        // Member lanes of a `.sync` warp operation that are not executing it.
        let mut sync_div = 0u32;
        macro_rules! set {
            ($r:expr, $l:expr, $v:expr) => {
                regs[$r as usize * WARP + $l] = $v
            };
        }
        match &ins.op {
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
}

fn warp_local(local: &[u8], lb: usize, lane: usize) -> &[u8] {
    &local[lane * lb..(lane + 1) * lb]
}

/// Every lane's address (lanes not executing included: they are not used).
#[inline(always)]
fn lane_addrs(regs: &[u64], a: DAddr) -> [u64; WARP] {
    let mut out = [a.off as u64; WARP];
    if let Some(r) = a.base {
        let b: &[u64; WARP] = regs[r as usize * WARP..(r as usize + 1) * WARP]
            .try_into()
            .expect("register");
        for l in 0..WARP {
            out[l] = b[l].wrapping_add(a.off as u64);
        }
    }
    out
}

#[inline(always)]
fn lane_addr(regs: &[u64], a: DAddr, lane: usize) -> u64 {
    match a.base {
        Some(r) => regs[r as usize * WARP + lane].wrapping_add(a.off as u64),
        None => a.off as u64,
    }
}

/// Whether an access of `bytes` bytes (a vector's whole size) at `a` is misaligned: on a
/// GPU such a global, shared or local access faults (`cudaErrorMisalignedAddress`). The
/// param space, laid out by the compiler, is not checked.
#[inline(always)]
pub(crate) fn misaligned(space: MemSpace, a: u64, bytes: usize) -> bool {
    space != MemSpace::Param && bytes > 1 && !a.is_multiple_of(bytes as u64)
}

/// The event of a misaligned access at `a` (what the sink sees before the fault), its
/// region as routed (an address that routes nowhere counts as global).
fn misaligned_event(
    space: MemSpace,
    a: u64,
    cta: u64,
    tid: u64,
) -> impl Fn(u32, AccessOp, TraceKind, u8, u64) -> crate::sink::AccessEvent {
    let (region, off) = route(space, a).unwrap_or((Region::Global, a));
    move |pc, op, tk, w, v| access_event(region, off, a, cta, tid, pc, op, tk, w, v)
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
