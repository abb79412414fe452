//! One thread of a kernel stepped on its own until its next memory or synchronisation event,
//! for engines that schedule threads themselves (the model checker, `weft-mc`). It reuses
//! the warp emulator's decoding ([`crate::decode`]), memory layout and register arithmetic
//! ([`crate::machine`]'s `exec_alu` over a one-lane register file): registers, local memory
//! and the param space are private to the thread and handled here; global and shared
//! accesses, fences, barriers, warp collectives (`shfl`/`vote`/`match`/`bar.warp.sync`, with this
//! lane's operands), failed assertions, backward branches and the thread's end are handed to
//! the caller, which gives loads their values and then calls
//! [`ThreadProgram::advance`].

use weft_ir::attrs::{DataType, RmwOp};
use weft_ir::kernel::{AnnotKind, Kernel, MatchMode, ShflMode, SpecialReg, VoteMode};

use crate::decode::{decode, DInstr, DOp, Layout, Src};
use crate::machine::{exec_alu, lay_out, misaligned, route, rv_s, Arg, LaunchConfig, SimtError};
use crate::mem::{self, Buffer, Region};

/// A kernel decoded and laid out for single-thread stepping.
pub struct ThreadProgram<'k> {
    pub kernel: &'k Kernel,
    code: Vec<DInstr>,
    reg_bits: Vec<u16>,
    layout: Layout,
    param: Vec<u8>,
    cfg: LaunchConfig,
    /// Byte offset of each buffer in the global arena.
    pub buffer_offsets: Vec<u64>,
    /// The global arena before the launch (buffers, then module variables).
    pub global_init: Vec<u8>,
    /// Lanes per warp (`%laneid`, `%warpid`, `__activemask`): [`crate::machine::WARP`]
    /// unless [`ThreadProgram::with_warp_size`] says otherwise.
    warp: u32,
}

/// Where a thread is and what it holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ThreadState {
    /// The instruction the thread is at (for a returned [`Stop`], the instruction that
    /// stopped it).
    pub pc: u32,
    pub regs: Vec<u64>,
    pub local: Vec<u8>,
}

/// A thread's coordinates: its CTA and its linear index in the CTA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadIds {
    pub cta: [u32; 3],
    pub tid: u32,
}

/// What a global or shared access does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    /// A load; the caller gives each element's value with [`ThreadProgram::set_load`].
    Load,
    /// A store of each element's value.
    Store,
    /// An atomic read-modify-write with its operands; the caller computes the new value with
    /// [`ThreadProgram::atom_new`] and gives the old one with [`ThreadProgram::set_atom`].
    Atom {
        op: RmwOp,
        ty: DataType,
        a: u64,
        b: u64,
    },
}

/// A global or shared access of the instruction at the thread's pc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    pub kind: AccessKind,
    /// `Global` (offset in the global arena) or `Shared` (offset in the CTA's shared memory).
    pub region: Region,
    /// Per element: offset and, for a store, the value (truncated to `width` bytes).
    pub elems: Vec<(u64, u64)>,
    /// Bytes per element.
    pub width: usize,
}

/// A warp collective as one lane sees it (`mask`: the member mask operand, unclipped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpOp {
    /// `bar.warp.sync` / `__syncwarp(mask)`.
    Sync { mask: u32 },
    /// `shfl.sync`: this lane's value `a`, lane operand `b`, clamp/segment operand `c`
    /// (the source lane is [`crate::machine::shfl_source`]'s).
    Shfl {
        mode: ShflMode,
        mask: u32,
        a: u64,
        b: u64,
        c: u64,
    },
    /// `vote.sync`: this lane's predicate (negation applied); the result is
    /// [`crate::machine::vote_value`] of the members' ballot.
    Vote { mode: VoteMode, mask: u32, p: bool },
    /// `match.sync`: this lane's value `a`; the result is [`crate::machine::match_value`]
    /// over the members' values.
    Match {
        mode: MatchMode,
        bits: u16,
        mask: u32,
        a: u64,
    },
}

/// Why [`ThreadProgram::step`] returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    Access(Access),
    /// `membar`/`fence` (its order and scope are the kernel instruction's).
    Fence,
    /// `bar.sync`/`bar.arrive` with its barrier id and optional thread count.
    Barrier {
        id: u32,
        count: Option<u32>,
        arrive: bool,
    },
    /// A checked annotation (`__assert`) is false here.
    AssertFailed(AnnotKind),
    /// A backward branch (at `from`) was taken: the thread is now at the loop head `target`.
    BackEdge {
        target: u32,
        from: u32,
    },
    /// [`ThreadProgram::step_watch`] only: the thread arrived at a watched loop head `pc`
    /// other than by a backward branch (it enters the loop); `pc` is not yet executed.
    LoopEntry {
        pc: u32,
    },
    /// The thread ended.
    Exit,
    /// An invalid or out-of-bounds access, or `trap`.
    Fault {
        addr: u64,
        what: &'static str,
    },
    /// A warp-level collective (`bar.warp.sync`, `shfl.sync`, `vote.sync`) with this lane's
    /// operands: the caller synchronises the member lanes, exchanges their values, and
    /// finishes it with [`ThreadProgram::finish_warp`].
    Warp(WarpOp),
    /// An instruction a single thread cannot execute alone (`bar.red`).
    Unsupported(&'static str),
    /// `budget` instructions ran without an event.
    StepLimit,
}

impl<'k> ThreadProgram<'k> {
    /// Decodes `kernel` and lays out the launch's memory (the same layout as [`crate::run`]).
    pub fn new(
        kernel: &'k Kernel,
        cfg: LaunchConfig,
        args: &[Arg],
        buffers: &[Buffer],
    ) -> Result<Self, SimtError> {
        kernel.validate().map_err(SimtError::Launch)?;
        if args.len() != kernel.params.len() {
            return Err(SimtError::Launch(format!(
                "the kernel takes {} parameters, {} arguments given",
                kernel.params.len(),
                args.len()
            )));
        }
        let arena = lay_out(kernel, args, buffers)?;
        let code = decode(kernel, &arena.layout).map_err(|e| SimtError::Decode {
            pos: kernel.describe_pos(e.pc),
            message: e.message,
        })?;
        Ok(ThreadProgram {
            kernel,
            code,
            reg_bits: kernel.regs.iter().map(|r| r.ty.bits).collect(),
            layout: arena.layout,
            param: arena.param,
            cfg,
            buffer_offsets: arena.offsets,
            global_init: arena.global,
            warp: crate::machine::WARP as u32,
        })
    }

    /// The same program with warps of `n` lanes (1 to 32; the model checker's
    /// `--warp-size`): `%laneid` is the thread's index modulo `n`, `%warpid` its index
    /// divided by `n`, and the lane masks and `__activemask` are of that lane.
    pub fn with_warp_size(mut self, n: u32) -> Self {
        self.warp = n.clamp(1, 32);
        self
    }

    /// Lanes per warp.
    pub fn warp_size(&self) -> u32 {
        self.warp
    }

    /// Bytes of shared memory per CTA.
    pub fn shared_bytes(&self) -> u64 {
        self.layout.shared_bytes
    }

    /// The instructions a single thread cannot run (`bar.red`), by pc.
    pub fn unsupported(&self) -> Vec<(usize, &'static str)> {
        self.code
            .iter()
            .enumerate()
            .filter_map(|(pc, i)| warp_level(&i.op).map(|w| (pc, w)))
            .collect()
    }

    /// A thread at the kernel's entry.
    pub fn start(&self) -> ThreadState {
        ThreadState {
            pc: 0,
            regs: vec![0; self.reg_bits.len()],
            local: vec![0; self.layout.local_bytes as usize],
        }
    }

    fn special(&self, ids: ThreadIds, s: SpecialReg) -> u64 {
        let block = self.cfg.block;
        let t = ids.tid;
        let lane = t % self.warp;
        match s {
            SpecialReg::Tid(0) => u64::from(t % block[0]),
            SpecialReg::Tid(1) => u64::from((t / block[0]) % block[1]),
            SpecialReg::Tid(_) => u64::from(t / (block[0] * block[1])),
            SpecialReg::Ntid(d) => u64::from(block[d.min(2) as usize]),
            SpecialReg::Ctaid(d) => u64::from(ids.cta[d.min(2) as usize]),
            SpecialReg::Nctaid(d) => u64::from(self.cfg.grid[d.min(2) as usize]),
            SpecialReg::Laneid => u64::from(lane),
            SpecialReg::Warpid => u64::from(t / self.warp),
            SpecialReg::Nwarpid => self.cfg.block_threads().div_ceil(u64::from(self.warp)),
            SpecialReg::LanemaskEq => 1u64 << lane,
            SpecialReg::LanemaskLe => ((1u64 << (lane + 1)) - 1) & 0xffff_ffff,
            SpecialReg::LanemaskLt => (1u64 << lane) - 1,
            SpecialReg::LanemaskGe => (!((1u64 << lane) - 1)) & 0xffff_ffff,
            SpecialReg::LanemaskGt => (!((1u64 << (lane + 1)) - 1)) & 0xffff_ffff,
            SpecialReg::Smid | SpecialReg::Gridid => 0,
            SpecialReg::Nsmid => 1,
            // Deterministic: a re-run of the thread must make the same events.
            SpecialReg::Clock => 0,
        }
    }

    /// Runs the thread from its pc until an event, running at most `budget` instructions.
    pub fn step(&self, st: &mut ThreadState, ids: ThreadIds, budget: u64) -> Stop {
        self.step_watch(st, ids, budget, &[], false)
    }

    /// [`Self::step`] that also stops with [`Stop::LoopEntry`] when the thread arrives at an
    /// instruction marked in `heads` (by pc) other than by a backward branch; `resume`: the
    /// thread is at such a head already reported (or reached by a backward branch), so the
    /// first instruction is not reported again.
    pub fn step_watch(
        &self,
        st: &mut ThreadState,
        ids: ThreadIds,
        budget: u64,
        heads: &[bool],
        resume: bool,
    ) -> Stop {
        let sp = |s: SpecialReg, _lane: usize| self.special(ids, s);
        for n in 0..budget {
            let pc = st.pc as usize;
            if heads.get(pc) == Some(&true) && !(resume && n == 0) {
                return Stop::LoopEntry { pc: pc as u32 };
            }
            let Some(ins) = self.code.get(pc) else {
                return Stop::Exit;
            };
            if let Some((r, neg)) = ins.guard {
                if (st.regs[r as usize] & 1 == 1) == neg {
                    st.pc += 1;
                    continue;
                }
            }
            if exec_alu::<1, _>(&ins.op, &mut st.regs, 1, &sp) {
                st.pc += 1;
                continue;
            }
            let rv = |regs: &[u64], s: Src| rv_s::<1, _>(regs, s, 0, &sp);
            match &ins.op {
                DOp::Ld { .. } | DOp::St { .. } | DOp::Atom { .. } => {
                    if let Some(stop) = self.step_mem(st, &ins.op, &sp) {
                        return stop;
                    }
                }
                DOp::Fence => return Stop::Fence,
                DOp::Nop => st.pc += 1,
                DOp::Bar {
                    id, count, arrive, ..
                } => {
                    return Stop::Barrier {
                        id: rv(&st.regs, *id) as u32,
                        count: count.map(|c| rv(&st.regs, c) as u32),
                        arrive: *arrive,
                    }
                }
                DOp::Bra { target, .. } => {
                    let back = *target as usize <= pc;
                    st.pc = *target;
                    if back {
                        return Stop::BackEdge {
                            target: *target,
                            from: pc as u32,
                        };
                    }
                }
                DOp::Exit => return Stop::Exit,
                DOp::Trap => {
                    return Stop::Fault {
                        addr: 0,
                        what: "trap",
                    }
                }
                DOp::Assert { kind, cond } => {
                    if rv(&st.regs, *cond) == 0 {
                        return Stop::AssertFailed(*kind);
                    }
                    st.pc += 1;
                }
                DOp::WarpSync { mask } => {
                    return Stop::Warp(WarpOp::Sync {
                        mask: rv(&st.regs, *mask) as u32,
                    })
                }
                DOp::Shfl {
                    mode,
                    a,
                    b,
                    c,
                    mask,
                    ..
                } => {
                    return Stop::Warp(WarpOp::Shfl {
                        mode: *mode,
                        mask: rv(&st.regs, *mask) as u32,
                        a: rv(&st.regs, *a),
                        b: rv(&st.regs, *b),
                        c: rv(&st.regs, *c),
                    })
                }
                DOp::Vote {
                    mode, p, neg, mask, ..
                } => {
                    return Stop::Warp(WarpOp::Vote {
                        mode: *mode,
                        mask: rv(&st.regs, *mask) as u32,
                        p: (rv(&st.regs, *p) & 1 == 1) != *neg,
                    })
                }
                DOp::Match {
                    mode,
                    bits,
                    a,
                    mask,
                    ..
                } => {
                    return Stop::Warp(WarpOp::Match {
                        mode: *mode,
                        bits: *bits,
                        mask: rv(&st.regs, *mask) as u32,
                        a: rv(&st.regs, *a),
                    })
                }
                DOp::Activemask { dst } => {
                    // The lanes executing this instruction together with this one: with
                    // independent thread scheduling the thread alone is one of the answers
                    // the hardware may give (docs/mc.md, "Warp-level operations").
                    let lane = ids.tid % self.warp;
                    st.regs[*dst as usize] = 1u64 << lane;
                    st.pc += 1;
                }
                DOp::Sys { func, .. } => {
                    return Stop::Unsupported(match func {
                        weft_ir::kernel::SysFunc::Vprintf => "device printf (vprintf)",
                        weft_ir::kernel::SysFunc::AssertFail => "device assert (__assertfail)",
                    })
                }
                op => {
                    return Stop::Unsupported(warp_level(op).unwrap_or("an unsupported operation"))
                }
            }
        }
        Stop::StepLimit
    }

    /// The memory instructions of [`Self::step_watch`]: a load, store or atomic of the
    /// thread's private memory is done here (the pc advanced), one of shared or global
    /// memory is handed back as [`Stop::Access`]; `Some` stops the thread.
    fn step_mem<F: Fn(SpecialReg, usize) -> u64>(
        &self,
        st: &mut ThreadState,
        op: &DOp,
        sp: &F,
    ) -> Option<Stop> {
        let rv = |regs: &[u64], s: Src| rv_s::<1, _>(regs, s, 0, sp);
        match op {
            DOp::Ld { .. } => return self.step_ld(st, op),
            DOp::St {
                space,
                width,
                src,
                addr,
                ..
            } => {
                let base = addr_of(&st.regs, addr.base, addr.off);
                let w = *width as usize;
                if misaligned(*space, base, w * src.len()) {
                    return Some(Stop::Fault {
                        addr: base,
                        what: "misaligned store",
                    });
                }
                let mut elems = Vec::new();
                let mut region = None;
                for (k, s) in src.iter().enumerate() {
                    let a = base.wrapping_add((k * w) as u64);
                    let v = crate::alu::trunc(rv(&st.regs, *s), (w * 8) as u16);
                    match route(*space, a) {
                        Some((Region::Local, off)) => {
                            if !mem::write(&mut st.local, off, w, v) {
                                return Some(Stop::Fault {
                                    addr: a,
                                    what: "out-of-bounds store",
                                });
                            }
                        }
                        Some((rg @ (Region::Global | Region::Shared), off)) => {
                            if let Some(f) = self.bounds(rg, off, w, a) {
                                return Some(f);
                            }
                            region = Some(rg);
                            elems.push((off, v));
                        }
                        _ => {
                            return Some(Stop::Fault {
                                addr: a,
                                what: "store to an invalid address",
                            })
                        }
                    }
                }
                match region {
                    Some(region) => {
                        return Some(Stop::Access(Access {
                            kind: AccessKind::Store,
                            region,
                            elems,
                            width: w,
                        }))
                    }
                    None => st.pc += 1,
                }
            }
            DOp::Atom {
                op,
                space,
                ty,
                addr,
                a,
                b,
                ..
            } => {
                let ad = addr_of(&st.regs, addr.base, addr.off);
                let w = (ty.bits / 8) as usize;
                if misaligned(*space, ad, w) {
                    return Some(Stop::Fault {
                        addr: ad,
                        what: "misaligned atomic",
                    });
                }
                let (x, y) = (rv(&st.regs, *a), b.map_or(0, |b| rv(&st.regs, b)));
                match route(*space, ad) {
                    Some((rg @ (Region::Global | Region::Shared), off)) => {
                        if let Some(f) = self.bounds(rg, off, w, ad) {
                            return Some(f);
                        }
                        return Some(Stop::Access(Access {
                            kind: AccessKind::Atom {
                                op: *op,
                                ty: *ty,
                                a: x,
                                b: y,
                            },
                            region: rg,
                            elems: vec![(off, 0)],
                            width: w,
                        }));
                    }
                    _ => {
                        return Some(Stop::Fault {
                            addr: ad,
                            what: "atomic on an invalid address",
                        })
                    }
                }
            }
            _ => {}
        }
        None
    }

    /// The loads of [`Self::step_mem`].
    fn step_ld(&self, st: &mut ThreadState, op: &DOp) -> Option<Stop> {
        let DOp::Ld {
            space,
            width,
            sext,
            dst,
            addr,
            ..
        } = op
        else {
            unreachable!("step_ld on another instruction");
        };
        let base = addr_of(&st.regs, addr.base, addr.off);
        let w = *width as usize;
        if misaligned(*space, base, w * dst.len()) {
            return Some(Stop::Fault {
                addr: base,
                what: "misaligned load",
            });
        }
        let mut elems = Vec::new();
        let mut region = None;
        for (k, d) in dst.iter().enumerate() {
            let a = base.wrapping_add((k * w) as u64);
            let Some((rg, off)) = route(*space, a) else {
                return Some(Stop::Fault {
                    addr: a,
                    what: "load from an invalid address",
                });
            };
            let private = match rg {
                Region::Local => Some(&st.local[..]),
                Region::Param => Some(&self.param[..]),
                _ => None,
            };
            match private {
                Some(m) => {
                    let Some(v) = mem::read(m, off, w) else {
                        return Some(Stop::Fault {
                            addr: a,
                            what: "out-of-bounds load",
                        });
                    };
                    if let Some(d) = d {
                        let d = *d;
                        self.put(st, d, v, w, *sext);
                    }
                }
                None => {
                    if let Some(f) = self.bounds(rg, off, w, a) {
                        return Some(f);
                    }
                    region = Some(rg);
                    elems.push((off, 0));
                }
            }
        }
        match region {
            Some(region) => {
                return Some(Stop::Access(Access {
                    kind: AccessKind::Load,
                    region,
                    elems,
                    width: w,
                }))
            }
            None => st.pc += 1,
        }
        None
    }

    fn bounds(&self, rg: Region, off: u64, w: usize, a: u64) -> Option<Stop> {
        let len = match rg {
            Region::Global => self.global_init.len() as u64,
            _ => self.layout.shared_bytes,
        };
        (off.checked_add(w as u64).is_none_or(|e| e > len)).then_some(Stop::Fault {
            addr: a,
            what: "out-of-bounds access",
        })
    }

    fn put(&self, st: &mut ThreadState, d: u32, v: u64, w: usize, sext: bool) {
        let v = if sext {
            crate::alu::sext(v, (w * 8) as u16) as u64
        } else {
            v
        };
        st.regs[d as usize] = crate::alu::trunc(v, self.reg_bits[d as usize]);
    }

    /// Gives element `k` of the load the thread stopped at its value.
    pub fn set_load(&self, st: &mut ThreadState, k: usize, value: u64) {
        if let Some(DOp::Ld {
            dst, width, sext, ..
        }) = self.code.get(st.pc as usize).map(|i| &i.op)
        {
            if let Some(Some(d)) = dst.get(k) {
                let (d, w, s) = (*d, *width as usize, *sext);
                self.put(st, d, crate::alu::trunc(value, (w * 8) as u16), w, s);
            }
        }
    }

    /// Gives the atomic the thread stopped at the old value it read.
    pub fn set_atom(&self, st: &mut ThreadState, old: u64) {
        if let Some(DOp::Atom { dst: Some(d), .. }) = self.code.get(st.pc as usize).map(|i| &i.op) {
            st.regs[*d as usize] = old;
        }
    }

    /// The value an atomic leaves in memory (`None`: a failed compare-and-swap).
    pub fn atom_new(op: RmwOp, ty: DataType, old: u64, a: u64, b: u64) -> Option<u64> {
        op.apply_typed(ty, old, a, b)
    }

    /// Finishes the warp collective the thread stopped at ([`Stop::Warp`]): a shuffle's or
    /// vote's result `value` (and a shuffle's in-range predicate `pred`), then moves on.
    pub fn finish_warp(&self, st: &mut ThreadState, value: u64, pred: bool) {
        match self.code.get(st.pc as usize).map(|i| &i.op) {
            Some(DOp::Shfl { dst, dst_pred, .. }) => {
                let d = *dst as usize;
                st.regs[d] = crate::alu::trunc(value & 0xffff_ffff, self.reg_bits[d]);
                if let Some(p) = dst_pred {
                    st.regs[*p as usize] = u64::from(pred);
                }
            }
            Some(DOp::Vote { dst, .. }) => {
                let d = *dst as usize;
                st.regs[d] = crate::alu::trunc(value, self.reg_bits[d]);
            }
            Some(DOp::Match { dst, dst_pred, .. }) => {
                let d = *dst as usize;
                st.regs[d] = crate::alu::trunc(value, self.reg_bits[d]);
                if let Some(p) = dst_pred {
                    st.regs[*p as usize] = u64::from(pred);
                }
            }
            _ => {}
        }
        st.pc += 1;
    }

    /// Moves the thread past the instruction it stopped at.
    pub fn advance(&self, st: &mut ThreadState) {
        st.pc += 1;
    }

    /// The initial bytes of global memory at `off` (`width` bytes, 0 beyond the arena).
    pub fn global_initial(&self, off: u64, width: usize) -> u64 {
        mem::read(&self.global_init, off, width).unwrap_or(0)
    }
}

fn addr_of(regs: &[u64], base: Option<u32>, off: i64) -> u64 {
    match base {
        Some(r) => regs[r as usize].wrapping_add(off as u64),
        None => off as u64,
    }
}

fn warp_level(op: &DOp) -> Option<&'static str> {
    match op {
        DOp::Bar { red: Some(_), .. } => Some("bar.red (a barrier reduction)"),
        _ => None,
    }
}
