//! Register-only instructions (moves, arithmetic, comparisons, conversions, bit operations,
//! specification queries) over a register file of `S` lanes per register, shared by the warp
//! emulator and the single-thread stepper.

use weft_ir::attrs::TypeKind;
use weft_ir::kernel::{KBoolOp, QueryKind, SpecialReg};

use super::lanefn::{self, Loop2, Loop3};
use super::shape;
use super::{Frame, Machine, FULL, WARP};
use crate::alu;
use crate::decode::{DOp, Src};

/// What the special registers of one warp read at one instruction.
#[derive(Clone, Copy)]
pub(super) struct SpecialCtx {
    /// Warp index in the CTA.
    pub wic: u32,
    pub block: [u32; 3],
    pub grid: [u32; 3],
    pub cta_id: [u32; 3],
    /// Warps per CTA.
    pub wpc: u32,
    /// The CTA's resident slot (`%smid`).
    pub slot: usize,
    /// Warp-instructions executed so far, this one included (`%clock`).
    pub steps: u64,
}

impl SpecialCtx {
    /// Special register `s` of `lane`.
    #[inline(always)]
    pub(super) fn get(&self, s: SpecialReg, lane: usize) -> u64 {
        let (block, wic) = (self.block, self.wic);
        let t = wic * 32 + lane as u32;
        match s {
            SpecialReg::Tid(0) => u64::from(t % block[0]),
            SpecialReg::Tid(1) => u64::from((t / block[0]) % block[1]),
            SpecialReg::Tid(_) => u64::from(t / (block[0] * block[1])),
            SpecialReg::Ntid(d) => u64::from(block[d.min(2) as usize]),
            SpecialReg::Ctaid(d) => u64::from(self.cta_id[d.min(2) as usize]),
            SpecialReg::Nctaid(d) => u64::from(self.grid[d.min(2) as usize]),
            SpecialReg::Laneid => lane as u64,
            SpecialReg::Warpid => u64::from(wic),
            SpecialReg::Nwarpid => u64::from(self.wpc),
            SpecialReg::LanemaskEq => 1u64 << lane,
            SpecialReg::LanemaskLe => ((1u64 << (lane + 1)) - 1) & 0xffff_ffff,
            SpecialReg::LanemaskLt => (1u64 << lane) - 1,
            SpecialReg::LanemaskGe => (!((1u64 << lane) - 1)) & 0xffff_ffff,
            SpecialReg::LanemaskGt => (!((1u64 << (lane + 1)) - 1)) & 0xffff_ffff,
            SpecialReg::Smid => self.slot as u64,
            SpecialReg::Nsmid => 1,
            SpecialReg::Gridid => 0,
            SpecialReg::Clock => self.steps,
        }
    }
}

impl SpecialCtx {
    /// Special register `s` of all 32 lanes.
    #[inline(always)]
    pub(super) fn lanes(&self, s: SpecialReg) -> [u64; WARP] {
        let base = self.wic * 32;
        match s {
            // A one-dimensional block whose x extent covers the warp: lane l is thread base + l.
            SpecialReg::Tid(0) if base + 32 <= self.block[0] => {
                std::array::from_fn(|l| u64::from(base + l as u32))
            }
            SpecialReg::Ctaid(_) | SpecialReg::Ntid(_) | SpecialReg::Nctaid(_) => {
                [self.get(s, 0); WARP]
            }
            _ => std::array::from_fn(|l| self.get(s, l)),
        }
    }
}

/// The lanes of `mask` whose guard holds (all of `mask` without a guard).
#[inline(always)]
pub(super) fn guard_mask(guard: Option<(u32, bool)>, regs: &[u64], mask: u32) -> u32 {
    match guard {
        None => mask,
        Some((r, neg)) => {
            let p = &regs[r as usize * WARP..r as usize * WARP + WARP];
            let mut pm = 0u32;
            for (l, v) in p.iter().enumerate() {
                pm |= ((*v & 1) as u32) << l;
            }
            if neg {
                pm = !pm;
            }
            pm & mask
        }
    }
}

impl Machine<'_> {
    /// Runs the register-only instruction at `top.pc` and those straight after it, while
    /// the quantum lasts, without returning to the scheduler: each counts as a
    /// warp-instruction exactly as [`Machine::exec`] would count it, and the run stops
    /// before the first other instruction, at the frame's reconvergence point or at the
    /// end of the code (the decoded run length, [`crate::decode::DInstr::run`]). `ctx` is
    /// the warp's special-register context for its turn. The frame's pc is left after the
    /// last one run; returns the budget left.
    #[inline(always)]
    pub(super) fn run_regops(
        &mut self,
        w: usize,
        top: Frame,
        budget: u32,
        ctx: &mut SpecialCtx,
    ) -> u32 {
        let Machine {
            code,
            shapes,
            warps,
            stats,
            steps,
            ..
        } = self;
        let warp = &mut warps[w];
        let mask = top.mask & warp.live;
        let start = top.pc;
        // How many run: the rest of the straight run, the budget, up to the reconvergence
        // point (a frame's pc never starts at it: the scheduler pops such a frame first).
        let mut n = code[start as usize].run.min(budget);
        if top.rpc > start {
            n = n.min(top.rpc - start);
        }
        ctx.steps = *steps;
        let regs = &mut warp.regs[..];
        let mut lanes = 0u64;
        let range = start as usize..(start + n) as usize;
        for (ins, s) in code[range.clone()].iter().zip(&shapes[range]) {
            ctx.steps += 1;
            if !matches!(s.kind, shape::K::Slow) {
                let em = shape::guard(s.guard, regs, mask);
                lanes += u64::from(em.count_ones());
                shape::exec(s, regs, em);
                continue;
            }
            let em = guard_mask(ins.guard, regs, mask);
            lanes += u64::from(em.count_ones());
            if let DOp::Mov {
                dst,
                src: Src::S(x),
                bits,
            } = ins.op
            {
                let v = ctx.lanes(x);
                let d = &mut regs[dst as usize * WARP..dst as usize * WARP + WARP];
                for_lanes!(em, l, {
                    d[l] = alu::trunc(v[l], bits);
                });
            } else {
                let c = &*ctx;
                let sp = |s: SpecialReg, lane: usize| c.get(s, lane);
                exec_alu_inline::<WARP, _>(&ins.op, regs, em, &sp);
            }
        }
        *steps = ctx.steps;
        stats.thread_instrs += lanes;
        warp.stack.last_mut().expect("frame").pc = start + n;
        budget - n
    }
}

#[inline(always)]
/// The value of a specification query for one thread, paired with itself (the emulator
/// runs concrete threads: the other thread of GPUVerify's pair is the thread itself, every
/// executing thread is enabled, and no access history is kept, so `__read`/`__write` are
/// false). Annotations that depend on the non-thread-local ones are not checked (decode).
fn query_value(kind: QueryKind, bits: u16, a: &[u64]) -> u64 {
    let arg = |i: usize| a.get(i).copied().unwrap_or(0);
    let v = match kind {
        QueryKind::Enabled | QueryKind::DominatorEnabled | QueryKind::SameGroup => 1,
        QueryKind::UniformInt | QueryKind::AtMostOne => 1,
        QueryKind::DistinctInt => 0,
        QueryKind::OtherInt | QueryKind::OtherPtr | QueryKind::OldInt | QueryKind::All => arg(0),
        QueryKind::Read | QueryKind::Write | QueryKind::Atomic => 0,
        QueryKind::AtomicHasTakenValue | QueryKind::Havoc => 0,
        QueryKind::ReadOffset | QueryKind::WriteOffset | QueryKind::ReturnVal => 0,
        QueryKind::PtrBase => arg(0),
        QueryKind::PtrOffset => 0,
        QueryKind::NoOverflowAdd => {
            let (x, y) = (arg(0) as u32 as i32, arg(1) as u32 as i32);
            u64::from(x.checked_add(y).is_some())
        }
        QueryKind::NoOverflowAddUnsigned => {
            u64::from((arg(0) as u32).checked_add(arg(1) as u32).is_some())
        }
        QueryKind::Uf => {
            // A fixed function of (id, arguments): splitmix64 of their bits, as a small
            // double (the UF's return value is converted by the caller).
            let mut h = 0x9e37_79b9_7f4a_7c15u64;
            for x in a {
                h = (h ^ x).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                h ^= h >> 31;
            }
            ((h % 1024) as f64).to_bits()
        }
    };
    alu::trunc(v, bits)
}

#[inline(always)]
pub(super) fn rv<F: Fn(SpecialReg, usize) -> u64>(
    regs: &[u64],
    s: Src,
    lane: usize,
    sp: &F,
) -> u64 {
    rv_s::<WARP, F>(regs, s, lane, sp)
}

/// Operand `s` of `lane` in a register file of `S` lanes per register.
#[inline(always)]
pub(crate) fn rv_s<const S: usize, F: Fn(SpecialReg, usize) -> u64>(
    regs: &[u64],
    s: Src,
    lane: usize,
    sp: &F,
) -> u64 {
    match s {
        Src::R(r) => regs[r as usize * S + lane],
        Src::I(v) => v,
        Src::S(x) => sp(x, lane),
    }
}

/// Executes a register-only instruction (moves, arithmetic, comparisons, conversions, bit
/// operations, specification queries) for the lanes of `em` over a register file holding `S`
/// lanes per register (`S` = [`WARP`] for the warp emulator, 1 for a single thread, see
/// [`crate::thread`]); `false` when `op` is not such an instruction (nothing is changed).
pub(crate) fn exec_alu<const S: usize, F: Fn(SpecialReg, usize) -> u64>(
    op: &DOp,
    regs: &mut [u64],
    em: u32,
    sp: &F,
) -> bool {
    exec_alu_inline::<S, F>(op, regs, em, sp)
}

/// [`exec_alu`], inlined into the warp emulator's straight run of register-only
/// instructions (no call per instruction).
#[inline(always)]
pub(super) fn exec_alu_inline<const S: usize, F: Fn(SpecialReg, usize) -> u64>(
    op: &DOp,
    regs: &mut [u64],
    em: u32,
    sp: &F,
) -> bool {
    match op {
        DOp::Mov { dst, src, bits } => {
            let (dst, src, bits) = (*dst as usize, *src, *bits);
            if bits >= 64 {
                un_loop_s::<S, _, _>(regs, em, dst, src, &sp, |v| v);
            } else {
                let keep = (1u64 << bits) - 1;
                un_loop_s::<S, _, _>(regs, em, dst, src, &sp, |v| v & keep);
            }
        }
        DOp::Un { f, dst, a, bits } => {
            let (f, dst, a, bits) = (*f, *dst as usize, *a, *bits);
            un_loop_s::<S, _, _>(regs, em, dst, a, &sp, |v| alu::trunc(f(v), bits));
        }
        DOp::BinFast { .. } => return fast_binary::<S, F>(op, regs, em, sp),
        DOp::MadFast { .. } | DOp::SetpFast { .. } => {
            return fast_mad_setp::<S, F>(op, regs, em, sp)
        }
        DOp::Bin { .. }
        | DOp::Mad { .. }
        | DOp::Setp { .. }
        | DOp::Selp { .. }
        | DOp::Cvt { .. }
        | DOp::Cvta { .. } => return general::<S, F>(op, regs, em, sp),
        _ => return bit_fields_and_queries::<S, F>(op, regs, em, sp),
    }
    true
}

/// The monomorphised binary operations ([`DOp::BinFast`]) of [`exec_alu_inline`].
#[inline(always)]
fn fast_binary<const S: usize, F: Fn(SpecialReg, usize) -> u64>(
    op: &DOp,
    regs: &mut [u64],
    em: u32,
    sp: &F,
) -> bool {
    let DOp::BinFast { op, dst, a, b } = op else {
        return false;
    };
    let (dst, a, b) = (*dst as usize, *a, *b);
    let l = SrcLoop2::<S, F> {
        regs,
        em,
        dst,
        a,
        b,
        sp,
    };
    lanefn::bin(*op, l);
    true
}

/// [`bin_loop_s`] as a [`Loop2`].
struct SrcLoop2<'r, const S: usize, P> {
    regs: &'r mut [u64],
    em: u32,
    dst: usize,
    a: Src,
    b: Src,
    sp: &'r P,
}

impl<const S: usize, P: Fn(SpecialReg, usize) -> u64> Loop2 for SrcLoop2<'_, S, P> {
    #[inline(always)]
    fn run<F: Fn(u64, u64) -> u64>(self, f: F) {
        bin_loop_s::<S, _, _>(self.regs, self.em, self.dst, self.a, self.b, self.sp, f)
    }
}

/// [`tern_loop_s`] as a [`Loop3`].
struct SrcLoop3<'r, const S: usize, P> {
    regs: &'r mut [u64],
    em: u32,
    dst: usize,
    src: [Src; 3],
    sp: &'r P,
}

impl<const S: usize, P: Fn(SpecialReg, usize) -> u64> Loop3 for SrcLoop3<'_, S, P> {
    #[inline(always)]
    fn run<F: Fn(u64, u64, u64) -> u64>(self, f: F) {
        tern_loop_s::<S, _, _>(self.regs, self.em, self.dst, self.src, self.sp, f)
    }
}

/// The monomorphised `mad` and integer `setp` forms ([`DOp::MadFast`], [`DOp::SetpFast`]) of
/// [`exec_alu_inline`].
#[inline(always)]
fn fast_mad_setp<const S: usize, F: Fn(SpecialReg, usize) -> u64>(
    op: &DOp,
    regs: &mut [u64],
    em: u32,
    sp: &F,
) -> bool {
    match op {
        DOp::MadFast { op, dst, a, b, c } => {
            let l = SrcLoop3::<S, F> {
                regs,
                em,
                dst: *dst as usize,
                src: [*a, *b, *c],
                sp,
            };
            lanefn::mad(*op, l);
        }
        DOp::SetpFast { cmp, dst, a, b } => {
            let l = SrcLoop2::<S, F> {
                regs,
                em,
                dst: *dst as usize,
                a: *a,
                b: *b,
                sp,
            };
            lanefn::cmp(*cmp, l);
        }
        _ => return false,
    }
    true
}

/// The operations of [`exec_alu_inline`] that call an [`alu`] lane function, `selp`, `cvt` and
/// `cvta`.
#[inline(always)]
fn general<const S: usize, F: Fn(SpecialReg, usize) -> u64>(
    op: &DOp,
    regs: &mut [u64],
    em: u32,
    sp: &F,
) -> bool {
    macro_rules! set {
        ($r:expr, $l:expr, $v:expr) => {
            regs[$r as usize * S + $l] = $v
        };
    }
    match op {
        DOp::Bin { f, dst, a, b, bits } => {
            let (f, dst, a, b, bits) = (*f, *dst, *a, *b, *bits);
            for_lanes!(em, l, {
                let v = f(rv_s::<S, _>(regs, a, l, &sp), rv_s::<S, _>(regs, b, l, &sp));
                set!(dst, l, alu::trunc(v, bits));
            });
        }
        DOp::Mad {
            mul,
            add,
            dst,
            a,
            b,
            c,
            fused_float,
        } => {
            let (mul, add, dst, a, b, c, ff) = (*mul, *add, *dst, *a, *b, *c, *fused_float);
            for_lanes!(em, l, {
                let (x, y, z) = (
                    rv_s::<S, _>(regs, a, l, &sp),
                    rv_s::<S, _>(regs, b, l, &sp),
                    rv_s::<S, _>(regs, c, l, &sp),
                );
                let v = match ff {
                    Some(32) => f32::from_bits(x as u32)
                        .mul_add(f32::from_bits(y as u32), f32::from_bits(z as u32))
                        .to_bits() as u64,
                    Some(_) => f64::from_bits(x)
                        .mul_add(f64::from_bits(y), f64::from_bits(z))
                        .to_bits(),
                    None => add(mul(x, y), z),
                };
                set!(dst, l, v);
            });
        }
        DOp::Setp {
            f,
            dst,
            dst2,
            a,
            b,
            combine,
        } => {
            let (f, dst, dst2, a, b, combine) = (*f, *dst, *dst2, *a, *b, *combine);
            for_lanes!(em, l, {
                let mut r = f(rv_s::<S, _>(regs, a, l, &sp), rv_s::<S, _>(regs, b, l, &sp));
                let mut r2 = !r;
                if let Some((op, p, neg)) = combine {
                    let q = (rv_s::<S, _>(regs, p, l, &sp) & 1 == 1) != neg;
                    let comb = |x: bool| match op {
                        KBoolOp::And => x && q,
                        KBoolOp::Or => x || q,
                        KBoolOp::Xor => x ^ q,
                    };
                    r = comb(r);
                    r2 = comb(r2);
                }
                set!(dst, l, u64::from(r));
                if let Some(d2) = dst2 {
                    set!(d2, l, u64::from(r2));
                }
            });
        }
        DOp::Selp { dst, a, b, p } => {
            let (dst, a, b, p) = (*dst, *a, *b, *p);
            for_lanes!(em, l, {
                let v = if rv_s::<S, _>(regs, p, l, &sp) & 1 == 1 {
                    rv_s::<S, _>(regs, a, l, &sp)
                } else {
                    rv_s::<S, _>(regs, b, l, &sp)
                };
                set!(dst, l, v);
            });
        }
        DOp::Cvt {
            dst,
            src,
            dst_ty,
            src_ty,
            rounding,
            integral,
            sat,
        } => {
            if !*sat && dst_ty.kind != TypeKind::Float && src_ty.kind != TypeKind::Float {
                // Integer to integer: extend from the source width, cut to the destination's
                // (exactly `alu::convert`'s integer case without saturation).
                let (sb, db) = (src_ty.bits, dst_ty.bits);
                if src_ty.kind == TypeKind::Signed {
                    let f = |v: u64| alu::trunc(alu::sext(v, sb) as u64, db);
                    un_loop_s::<S, _, _>(regs, em, *dst as usize, *src, &sp, f);
                } else {
                    let f = |v: u64| alu::trunc(alu::trunc(v, sb), db);
                    un_loop_s::<S, _, _>(regs, em, *dst as usize, *src, &sp, f);
                }
                return true;
            }
            for_lanes!(em, l, {
                let v = alu::convert(
                    rv_s::<S, _>(regs, *src, l, &sp),
                    *dst_ty,
                    *src_ty,
                    *rounding,
                    *integral,
                    *sat,
                );
                set!(*dst, l, v);
            });
        }
        DOp::Cvta { dst, src, add } => {
            let add = *add as u64;
            un_loop_s::<S, _, _>(regs, em, *dst as usize, *src, &sp, |v| v.wrapping_add(add));
        }
        _ => return false,
    }
    true
}

/// Bit-field extraction and insertion, funnel shifts, byte permutation and specification
/// queries of [`exec_alu_inline`].
#[inline(always)]
fn bit_fields_and_queries<const S: usize, F: Fn(SpecialReg, usize) -> u64>(
    op: &DOp,
    regs: &mut [u64],
    em: u32,
    sp: &F,
) -> bool {
    macro_rules! set {
        ($r:expr, $l:expr, $v:expr) => {
            regs[$r as usize * S + $l] = $v
        };
    }
    match op {
        DOp::Bfe {
            dst,
            a,
            pos,
            len,
            ty,
        } => {
            let bits = u32::from(ty.bits);
            for_lanes!(em, l, {
                let x = rv_s::<S, _>(regs, *a, l, &sp);
                let p = (rv_s::<S, _>(regs, *pos, l, &sp) & 0xff) as u32;
                let n = (rv_s::<S, _>(regs, *len, l, &sp) & 0xff) as u32;
                let v = if n == 0 || p >= bits {
                    if ty.kind == TypeKind::Signed && n != 0 && (x >> (bits - 1)) & 1 == 1 {
                        u64::MAX
                    } else {
                        0
                    }
                } else {
                    let n = n.min(bits - p);
                    let field = (x >> p) & if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
                    if ty.kind == TypeKind::Signed {
                        alu::sext(field, n as u16) as u64
                    } else {
                        field
                    }
                };
                set!(*dst, l, alu::trunc(v, ty.bits));
            });
        }
        DOp::Bfi {
            dst,
            a,
            b,
            pos,
            len,
            bits,
        } => {
            for_lanes!(em, l, {
                let (x, y) = (
                    rv_s::<S, _>(regs, *a, l, &sp),
                    rv_s::<S, _>(regs, *b, l, &sp),
                );
                let p = (rv_s::<S, _>(regs, *pos, l, &sp) & 0xff) as u32;
                let n = (rv_s::<S, _>(regs, *len, l, &sp) & 0xff) as u32;
                let v = if n == 0 || p >= u32::from(*bits) {
                    y
                } else {
                    let n = n.min(u32::from(*bits) - p);
                    let m = (if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }) << p;
                    (y & !m) | ((x << p) & m)
                };
                set!(*dst, l, alu::trunc(v, *bits));
            });
        }
        DOp::Shf {
            left,
            wrap,
            dst,
            a,
            b,
            c,
        } => {
            for_lanes!(em, l, {
                let pair = ((rv_s::<S, _>(regs, *b, l, &sp) & 0xffff_ffff) << 32)
                    | (rv_s::<S, _>(regs, *a, l, &sp) & 0xffff_ffff);
                let n = rv_s::<S, _>(regs, *c, l, &sp) as u32;
                let n = if *wrap { n & 31 } else { n.min(32) };
                let v = if *left {
                    (pair << n) >> 32
                } else {
                    (pair >> n) & 0xffff_ffff
                };
                set!(*dst, l, v & 0xffff_ffff);
            });
        }
        DOp::Prmt { dst, a, b, sel } => {
            for_lanes!(em, l, {
                let bytes = ((rv_s::<S, _>(regs, *b, l, &sp) & 0xffff_ffff) << 32)
                    | (rv_s::<S, _>(regs, *a, l, &sp) & 0xffff_ffff);
                let s = rv_s::<S, _>(regs, *sel, l, &sp);
                let mut v = 0u64;
                for i in 0..4 {
                    let n = (s >> (4 * i)) & 0xf;
                    let byte = (bytes >> ((n & 7) * 8)) & 0xff;
                    let byte = if n & 8 != 0 {
                        if byte & 0x80 != 0 {
                            0xff
                        } else {
                            0
                        }
                    } else {
                        byte
                    };
                    v |= byte << (8 * i);
                }
                set!(*dst, l, v);
            });
        }
        DOp::Query {
            kind,
            dst,
            bits,
            args,
        } => {
            for_lanes!(em, l, {
                let a: Vec<u64> = args
                    .iter()
                    .map(|x| rv_s::<S, _>(regs, *x, l, &sp))
                    .collect();
                let v = query_value(*kind, *bits, &a);
                set!(*dst, l, v);
            });
        }
        _ => return false,
    }
    true
}

/// All 32 lanes of operand `s` (registers exist for every lane, active or not).
#[inline(always)]
fn lanes_of<const S: usize, F: Fn(SpecialReg, usize) -> u64>(
    regs: &[u64],
    s: Src,
    sp: &F,
) -> [u64; WARP] {
    match s {
        Src::R(r) => {
            let mut out = [0u64; WARP];
            out[..S].copy_from_slice(&regs[r as usize * S..r as usize * S + S]);
            out
        }
        Src::I(v) => [v; WARP],
        Src::S(x) => std::array::from_fn(|l| sp(x, l)),
    }
}

/// Lanes per chunk of the full-warp lane loops: two AVX2 vectors of 64-bit lanes.
const CHUNK: usize = 8;

/// `dst = f(x)` on all 32 lanes of register rows `x` and `dst`, eight lanes at a time, each
/// chunk stored straight into the destination row (no result row copied afterwards).
#[inline(always)]
pub(super) fn rows1<F: Fn(u64) -> u64>(regs: &mut [u64], dst: usize, x: usize, f: F) {
    let (x, d) = (x * WARP, dst * WARP);
    assert!(x.max(d) + WARP <= regs.len(), "register");
    let p = regs.as_mut_ptr();
    for c in (0..WARP).step_by(CHUNK) {
        // SAFETY: both rows lie in `regs` (asserted above). Rows are equal or disjoint, a
        // chunk is read before the same lanes of the destination are written, and lanes are
        // independent, so a destination that is also the operand gets the same result as
        // through a copy.
        let a = unsafe { p.add(x + c).cast::<[u64; CHUNK]>().read() };
        let o: [u64; CHUNK] = std::array::from_fn(|l| f(a[l]));
        unsafe { p.add(d + c).cast::<[u64; CHUNK]>().write(o) };
    }
}

/// `dst = f(x, y)` on all 32 lanes of register rows, as [`rows1`].
#[inline(always)]
pub(super) fn rows2<F: Fn(u64, u64) -> u64>(
    regs: &mut [u64],
    dst: usize,
    x: usize,
    y: usize,
    f: F,
) {
    let (x, y, d) = (x * WARP, y * WARP, dst * WARP);
    assert!(x.max(y).max(d) + WARP <= regs.len(), "register");
    let p = regs.as_mut_ptr();
    for c in (0..WARP).step_by(CHUNK) {
        // SAFETY: as in `rows1`.
        let (a, b) = unsafe {
            (
                p.add(x + c).cast::<[u64; CHUNK]>().read(),
                p.add(y + c).cast::<[u64; CHUNK]>().read(),
            )
        };
        let o: [u64; CHUNK] = std::array::from_fn(|l| f(a[l], b[l]));
        unsafe { p.add(d + c).cast::<[u64; CHUNK]>().write(o) };
    }
}

/// `dst = f(x, y, z)` on all 32 lanes of register rows, as [`rows1`].
#[inline(always)]
pub(super) fn rows3<F: Fn(u64, u64, u64) -> u64>(
    regs: &mut [u64],
    dst: usize,
    [x, y, z]: [usize; 3],
    f: F,
) {
    let (x, y, z, d) = (x * WARP, y * WARP, z * WARP, dst * WARP);
    assert!(x.max(y).max(z).max(d) + WARP <= regs.len(), "register");
    let p = regs.as_mut_ptr();
    for c in (0..WARP).step_by(CHUNK) {
        // SAFETY: as in `rows1`.
        let (a, b, e) = unsafe {
            (
                p.add(x + c).cast::<[u64; CHUNK]>().read(),
                p.add(y + c).cast::<[u64; CHUNK]>().read(),
                p.add(z + c).cast::<[u64; CHUNK]>().read(),
            )
        };
        let o: [u64; CHUNK] = std::array::from_fn(|l| f(a[l], b[l], e[l]));
        unsafe { p.add(d + c).cast::<[u64; CHUNK]>().write(o) };
    }
}

/// Writes a full-warp result computed into a local row into register `dst` (operands that
/// are not all registers or immediates; [`rows1`] and the like store in place).
#[inline(always)]
fn put(regs: &mut [u64], dst: usize, out: &[u64; WARP]) {
    regs[dst * WARP..dst * WARP + WARP].copy_from_slice(out);
}

/// `dst = f(a)` on the lanes of `em`, monomorphised per operation.
#[inline(always)]
fn un_loop_s<const S: usize, P: Fn(SpecialReg, usize) -> u64, F: Fn(u64) -> u64>(
    regs: &mut [u64],
    em: u32,
    dst: usize,
    a: Src,
    sp: &P,
    f: F,
) {
    if em == FULL && S == WARP {
        match a {
            Src::R(x) => {
                rows1(regs, dst, x as usize, f);
                return;
            }
            Src::I(v) => {
                put(regs, dst, &[f(v); WARP]);
                return;
            }
            Src::S(_) => {}
        }
    }
    let av = lanes_of::<S, _>(regs, a, sp);
    let d: &mut [u64] = &mut regs[dst * S..dst * S + S];
    if em == FULL && S == WARP {
        for l in 0..WARP {
            d[l] = f(av[l]);
        }
    } else {
        let mut m = em;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            d[l] = f(av[l]);
        }
    }
}

/// `dst = f(a, b)` on the lanes of `em`, monomorphised per operation.
#[inline(always)]
fn bin_loop_s<const S: usize, P: Fn(SpecialReg, usize) -> u64, F: Fn(u64, u64) -> u64>(
    regs: &mut [u64],
    em: u32,
    dst: usize,
    a: Src,
    b: Src,
    sp: &P,
    f: F,
) {
    if em == FULL && S == WARP {
        match (a, b) {
            (Src::R(x), Src::R(y)) => rows2(regs, dst, x as usize, y as usize, f),
            (Src::R(x), Src::I(y)) => rows1(regs, dst, x as usize, |v| f(v, y)),
            (Src::I(x), Src::R(y)) => rows1(regs, dst, y as usize, |v| f(x, v)),
            _ => {
                let (x, y) = (lanes_of::<S, _>(regs, a, sp), lanes_of::<S, _>(regs, b, sp));
                let mut out = [0u64; WARP];
                for l in 0..WARP {
                    out[l] = f(x[l], y[l]);
                }
                put(regs, dst, &out);
            }
        }
        return;
    }
    let av = lanes_of::<S, _>(regs, a, sp);
    let bv = lanes_of::<S, _>(regs, b, sp);
    let d: &mut [u64] = &mut regs[dst * S..dst * S + S];
    let mut m = em;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        d[l] = f(av[l], bv[l]);
    }
}

/// `dst = f(a, b, c)` on the lanes of `em`, monomorphised per operation.
#[inline(always)]
fn tern_loop_s<const S: usize, P: Fn(SpecialReg, usize) -> u64, F: Fn(u64, u64, u64) -> u64>(
    regs: &mut [u64],
    em: u32,
    dst: usize,
    src: [Src; 3],
    sp: &P,
    f: F,
) {
    if em == FULL && S == WARP {
        match src {
            [Src::R(x), Src::R(y), Src::R(z)] => {
                return rows3(regs, dst, [x, y, z].map(|r| r as usize), f);
            }
            [Src::R(x), Src::R(y), Src::I(z)] => {
                return rows2(regs, dst, x as usize, y as usize, |a, b| f(a, b, z));
            }
            [Src::R(x), Src::I(y), Src::R(z)] => {
                return rows2(regs, dst, x as usize, z as usize, |a, c| f(a, y, c));
            }
            _ => {}
        }
        let [x, y, z] = src.map(|s| lanes_of::<S, _>(regs, s, sp));
        let mut out = [0u64; WARP];
        for l in 0..WARP {
            out[l] = f(x[l], y[l], z[l]);
        }
        put(regs, dst, &out);
        return;
    }
    let [av, bv, cv] = src.map(|s| lanes_of::<S, _>(regs, s, sp));
    let d: &mut [u64] = &mut regs[dst * S..dst * S + S];
    let mut m = em;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        d[l] = f(av[l], bv[l], cv[l]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{fast_bin, fast_mad, FastBin, FastMad};
    use weft_ir::attrs::DataType;
    use weft_ir::kernel::KBinOp;
    use weft_ir::kernel::KCmp;

    /// Bit patterns around the edges of 8/16/32/64-bit arithmetic, shifts and floats.
    const SAMPLES: [u64; 14] = [
        0,
        1,
        2,
        31,
        32,
        63,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0x3f80_0000,           // 1.0f32
        0x7fc0_0000,           // a quiet f32 NaN
        0x4000_0000_0000_0000, // 2.0f64
        0x8000_0000_0000_0001,
        u64::MAX,
    ];

    fn types() -> Vec<DataType> {
        let mut v = Vec::new();
        for kind in [
            TypeKind::Signed,
            TypeKind::Unsigned,
            TypeKind::Bits,
            TypeKind::Float,
        ] {
            for bits in [8, 16, 32, 64] {
                v.push(DataType { kind, bits });
            }
        }
        v.push(DataType::PRED);
        v
    }

    /// Runs `op` on one lane with registers 0..3 holding `x`, `y`, `z`; register 3's value.
    fn run1(op: &DOp, x: u64, y: u64, z: u64) -> u64 {
        let mut regs = [x, y, z, 0];
        let sp = |_: SpecialReg, _: usize| 0;
        assert!(exec_alu::<1, _>(op, &mut regs, 1, &sp));
        regs[3]
    }

    /// The same on a full warp with 32 different lane values (zero-extended from `bits`,
    /// `z` from `zbits`), register operands only.
    fn run32(op: &DOp, bits: u16, zbits: u16, x: u64, y: u64, z: u64) -> [u64; WARP] {
        let mut regs = vec![0u64; 4 * WARP];
        for l in 0..WARP {
            regs[l] = alu::trunc(x.rotate_left(l as u32), bits);
            regs[WARP + l] = alu::trunc(y ^ l as u64, bits);
            regs[2 * WARP + l] = alu::trunc(z.wrapping_add(l as u64), zbits);
        }
        let sp = |_: SpecialReg, _: usize| 0;
        assert!(exec_alu::<WARP, _>(op, &mut regs, FULL, &sp));
        regs[3 * WARP..].try_into().expect("register")
    }

    /// The full-warp lane loops over each operand shape (registers and immediates, the
    /// destination also an operand) give every lane what the one-lane form gives it, and
    /// change no other register.
    #[test]
    fn full_warp_shapes_agree_with_one_lane() {
        let sub = |a, b| DOp::BinFast {
            op: FastBin::Sub32,
            dst: 0,
            a,
            b,
        };
        let mad = |a, b, c| DOp::MadFast {
            op: FastMad::Lo32,
            dst: 0,
            a,
            b,
            c,
        };
        let imm = 0x8000_0007u64;
        let (r0, r1, r2, i) = (Src::R(0), Src::R(1), Src::R(2), Src::I(imm));
        let ops = [
            sub(r1, r2),
            sub(r1, i),
            sub(i, r2),
            sub(r0, r2),
            sub(r1, r0),
            mad(r1, r2, r0),
            mad(r0, r2, i),
            mad(r1, i, r0),
            DOp::Mov {
                dst: 0,
                src: r1,
                bits: 16,
            },
            DOp::Mov {
                dst: 0,
                src: r0,
                bits: 8,
            },
        ];
        let sp = |_: SpecialReg, _: usize| 0;
        for op in ops {
            let mut regs = vec![0u64; 3 * WARP];
            for l in 0..WARP {
                regs[l] = 0x1234_5678u64.rotate_left(l as u32) & 0xffff_ffff;
                regs[WARP + l] = (l as u64 * 0x9e37_79b9) & 0xffff_ffff;
                regs[2 * WARP + l] = (0xffff_fff0 + l as u64) & 0xffff_ffff;
            }
            let before = regs.clone();
            assert!(exec_alu::<WARP, _>(&op, &mut regs, FULL, &sp));
            for l in 0..WARP {
                let mut one = [before[l], before[WARP + l], before[2 * WARP + l]];
                assert!(exec_alu::<1, _>(&op, &mut one, 1, &sp));
                assert_eq!(regs[l], one[0], "{op:?} lane {l}");
                assert_eq!(regs[WARP + l], before[WARP + l], "{op:?} lane {l}");
                assert_eq!(regs[2 * WARP + l], before[2 * WARP + l], "{op:?} lane {l}");
            }
        }
    }

    /// Every fast binary form computes what `alu::binary` computes (truncated to the
    /// type's width, as the general form does), on one lane and on a full warp.
    #[test]
    fn fast_binary_forms_agree_with_alu() {
        use KBinOp::*;
        let ops = [
            Add, Sub, Mul, And, Or, Xor, Shl, Shr, MulWide, Min, Max, Div, Rem, MulHi,
        ];
        let mut checked = 0;
        for ty in types() {
            for op in ops {
                let Some(fast) = fast_bin(op, ty) else {
                    continue;
                };
                let f = alu::binary(op, ty).expect("a fast form has a general one");
                let bits = if op == MulWide { ty.bits * 2 } else { ty.bits };
                let (a, b) = (Src::R(0), Src::R(1));
                let fast = DOp::BinFast {
                    op: fast,
                    dst: 3,
                    a,
                    b,
                };
                let slow = DOp::Bin {
                    f,
                    dst: 3,
                    a,
                    b,
                    bits,
                };
                for &x in &SAMPLES {
                    for &y in &SAMPLES {
                        // Registers hold values zero-extended from their type's width.
                        let (x, y) = (alu::trunc(x, ty.bits), alu::trunc(y, ty.bits));
                        let want = alu::trunc(f(x, y), bits);
                        assert_eq!(run1(&fast, x, y, 0), want, "{op:?} {ty:?} {x:#x} {y:#x}");
                        assert_eq!(
                            run32(&fast, ty.bits, 64, x, y, 0),
                            run32(&slow, ty.bits, 64, x, y, 0),
                            "{op:?} {ty:?}"
                        );
                    }
                }
                checked += 1;
            }
        }
        assert!(checked >= 30, "only {checked} fast forms checked");
    }

    /// Every fast integer `setp` computes what `alu::compare` computes.
    #[test]
    fn fast_compare_forms_agree_with_alu() {
        use crate::decode::fast_cmp;
        let mut checked = 0;
        for ty in types() {
            for cmp in [KCmp::Eq, KCmp::Ne, KCmp::Lt, KCmp::Le, KCmp::Gt, KCmp::Ge] {
                let Some(fast) = fast_cmp(cmp, ty) else {
                    continue;
                };
                let f = alu::compare(cmp, ty).expect("a fast form has a general one");
                let op = DOp::SetpFast {
                    cmp: fast,
                    dst: 3,
                    a: Src::R(0),
                    b: Src::R(1),
                };
                for &x in &SAMPLES {
                    for &y in &SAMPLES {
                        let (x, y) = (alu::trunc(x, ty.bits), alu::trunc(y, ty.bits));
                        let want = u64::from(f(x, y));
                        assert_eq!(run1(&op, x, y, 0), want, "{cmp:?} {ty:?} {x:#x} {y:#x}");
                        let lanes = run32(&op, ty.bits, 64, x, y, 0);
                        for (l, &got) in lanes.iter().enumerate() {
                            let (a, b) = (
                                alu::trunc(x.rotate_left(l as u32), ty.bits),
                                alu::trunc(y ^ l as u64, ty.bits),
                            );
                            assert_eq!(got, u64::from(f(a, b)), "{cmp:?} {ty:?} lane {l}");
                        }
                    }
                }
                checked += 1;
            }
        }
        assert_eq!(
            checked,
            6 * 6,
            "s32, u32, b32, s64, u64, b64, each comparison"
        );
    }

    /// Every fast `mad` form computes the general form's `add(mul(a, b), c)`.
    #[test]
    fn fast_mad_forms_agree_with_alu() {
        let mut checked = 0;
        for ty in types() {
            for mode in [KBinOp::Mul, KBinOp::MulWide, KBinOp::MulHi] {
                let Some(fast) = fast_mad(mode, ty) else {
                    continue;
                };
                let mul = alu::binary(mode, ty).expect("multiply");
                let wide = DataType {
                    bits: if mode == KBinOp::MulWide {
                        ty.bits * 2
                    } else {
                        ty.bits
                    },
                    ..ty
                };
                let add = alu::binary(KBinOp::Add, wide).expect("add");
                let (a, b, c) = (Src::R(0), Src::R(1), Src::R(2));
                let fast = DOp::MadFast {
                    op: fast,
                    dst: 3,
                    a,
                    b,
                    c,
                };
                let slow = DOp::Mad {
                    mul,
                    add,
                    dst: 3,
                    a,
                    b,
                    c,
                    fused_float: None,
                };
                for &x in &SAMPLES {
                    for &y in &SAMPLES {
                        for &z in &SAMPLES[..6] {
                            let (x, y) = (alu::trunc(x, ty.bits), alu::trunc(y, ty.bits));
                            let z = alu::trunc(z ^ y, wide.bits);
                            let want = add(mul(x, y), z);
                            assert_eq!(run1(&fast, x, y, z), want, "{mode:?} {ty:?}");
                            let (b, wb) = (ty.bits, wide.bits);
                            assert_eq!(run32(&fast, b, wb, x, y, z), run32(&slow, b, wb, x, y, z));
                        }
                    }
                }
                checked += 1;
            }
        }
        assert_eq!(checked, 9, "s/u/b 32 and 64 mad.lo, s/u/b 32 mad.wide");
    }
}
