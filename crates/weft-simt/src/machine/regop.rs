//! Register-only instructions (moves, arithmetic, comparisons, conversions, bit operations,
//! specification queries) over a register file of `S` lanes per register, shared by the warp
//! emulator and the single-thread stepper.

use weft_ir::attrs::TypeKind;
use weft_ir::kernel::{KBoolOp, KCmp, QueryKind, SpecialReg};

use super::{FULL, WARP};
use crate::alu;
use crate::decode::{DOp, FastBin, Src};

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

pub(super) fn rv(regs: &[u64], s: Src, lane: usize, sp: &dyn Fn(SpecialReg, usize) -> u64) -> u64 {
    rv_s::<WARP>(regs, s, lane, sp)
}

/// Operand `s` of `lane` in a register file of `S` lanes per register.
pub(crate) fn rv_s<const S: usize>(
    regs: &[u64],
    s: Src,
    lane: usize,
    sp: &dyn Fn(SpecialReg, usize) -> u64,
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
pub(crate) fn exec_alu<const S: usize>(
    op: &DOp,
    regs: &mut [u64],
    em: u32,
    sp: &dyn Fn(SpecialReg, usize) -> u64,
) -> bool {
    macro_rules! set {
        ($r:expr, $l:expr, $v:expr) => {
            regs[$r as usize * S + $l] = $v
        };
    }
    match op {
        DOp::Mov { dst, src, bits } => {
            let (dst, src, bits) = (*dst, *src, *bits);
            for_lanes!(em, l, {
                let v = rv_s::<S>(regs, src, l, &sp);
                set!(dst, l, alu::trunc(v, bits));
            });
        }
        DOp::Un { f, dst, a, bits } => {
            let (f, dst, a, bits) = (*f, *dst, *a, *bits);
            for_lanes!(em, l, {
                let v = f(rv_s::<S>(regs, a, l, &sp));
                set!(dst, l, alu::trunc(v, bits));
            });
        }
        DOp::BinFast { op, dst, a, b } => {
            let (dst, a, b) = (*dst as usize, *a, *b);
            macro_rules! go {
                ($f:expr) => {
                    bin_loop_s::<S, _>(regs, em, dst, a, b, &sp, $f)
                };
            }
            match op {
                FastBin::Add32 => {
                    go!(|x: u64, y: u64| (x as u32).wrapping_add(y as u32) as u64)
                }
                FastBin::Add64 => go!(|x: u64, y: u64| x.wrapping_add(y)),
                FastBin::Sub32 => {
                    go!(|x: u64, y: u64| (x as u32).wrapping_sub(y as u32) as u64)
                }
                FastBin::Sub64 => go!(|x: u64, y: u64| x.wrapping_sub(y)),
                FastBin::Mul32 => {
                    go!(|x: u64, y: u64| (x as u32).wrapping_mul(y as u32) as u64)
                }
                FastBin::Mul64 => go!(|x: u64, y: u64| x.wrapping_mul(y)),
                FastBin::And => go!(|x: u64, y: u64| x & y),
                FastBin::Or => go!(|x: u64, y: u64| x | y),
                FastBin::Xor => go!(|x: u64, y: u64| x ^ y),
                FastBin::Shl32 => go!(|x: u64, y: u64| if y as u32 >= 32 {
                    0
                } else {
                    ((x as u32) << (y as u32)) as u64
                }),
                FastBin::Shl64 => {
                    go!(|x: u64, y: u64| if y as u32 >= 64 { 0 } else { x << (y as u32) })
                }
                FastBin::ShrU32 => go!(|x: u64, y: u64| if y as u32 >= 32 {
                    0
                } else {
                    ((x as u32) >> (y as u32)) as u64
                }),
                FastBin::ShrS32 => {
                    go!(|x: u64, y: u64| ((x as u32 as i32) >> (y as u32).min(31)) as u32 as u64)
                }
                FastBin::ShrU64 => {
                    go!(|x: u64, y: u64| if y as u32 >= 64 { 0 } else { x >> (y as u32) })
                }
                FastBin::ShrS64 => {
                    go!(|x: u64, y: u64| ((x as i64) >> (y as u32).min(63)) as u64)
                }
                FastBin::WideU32 => go!(|x: u64, y: u64| (x as u32 as u64) * (y as u32 as u64)),
                FastBin::WideS32 => go!(|x: u64, y: u64| ((x as u32 as i32 as i64)
                    * (y as u32 as i32 as i64))
                    as u64),
                FastBin::MinS32 => {
                    go!(|x: u64, y: u64| (x as u32 as i32).min(y as u32 as i32) as u32 as u64)
                }
                FastBin::MaxS32 => {
                    go!(|x: u64, y: u64| (x as u32 as i32).max(y as u32 as i32) as u32 as u64)
                }
                FastBin::MinU32 => go!(|x: u64, y: u64| (x as u32).min(y as u32) as u64),
                FastBin::MaxU32 => go!(|x: u64, y: u64| (x as u32).max(y as u32) as u64),
            }
        }
        DOp::SetpFast { cmp, dst, a, b } => {
            let (dst, a, b) = (*dst as usize, *a, *b);
            macro_rules! by_class {
                    ($op:tt) => {
                        match cmp.class {
                            0 => go!(|x: u64, y: u64| u64::from((x as u32 as i32) $op (y as u32 as i32))),
                            1 => go!(|x: u64, y: u64| u64::from((x as u32) $op (y as u32))),
                            2 => go!(|x: u64, y: u64| u64::from((x as i64) $op (y as i64))),
                            _ => go!(|x: u64, y: u64| u64::from(x $op y)),
                        }
                    };
                }
            macro_rules! go {
                ($f:expr) => {
                    bin_loop_s::<S, _>(regs, em, dst, a, b, &sp, $f)
                };
            }
            match cmp.cmp {
                KCmp::Eq => by_class!(==),
                KCmp::Ne => by_class!(!=),
                KCmp::Lt => by_class!(<),
                KCmp::Le => by_class!(<=),
                KCmp::Gt => by_class!(>),
                _ => by_class!(>=),
            }
        }
        DOp::Bin { f, dst, a, b, bits } => {
            let (f, dst, a, b, bits) = (*f, *dst, *a, *b, *bits);
            for_lanes!(em, l, {
                let v = f(rv_s::<S>(regs, a, l, &sp), rv_s::<S>(regs, b, l, &sp));
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
                    rv_s::<S>(regs, a, l, &sp),
                    rv_s::<S>(regs, b, l, &sp),
                    rv_s::<S>(regs, c, l, &sp),
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
                let mut r = f(rv_s::<S>(regs, a, l, &sp), rv_s::<S>(regs, b, l, &sp));
                let mut r2 = !r;
                if let Some((op, p, neg)) = combine {
                    let q = (rv_s::<S>(regs, p, l, &sp) & 1 == 1) != neg;
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
                let v = if rv_s::<S>(regs, p, l, &sp) & 1 == 1 {
                    rv_s::<S>(regs, a, l, &sp)
                } else {
                    rv_s::<S>(regs, b, l, &sp)
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
            for_lanes!(em, l, {
                let v = alu::convert(
                    rv_s::<S>(regs, *src, l, &sp),
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
            for_lanes!(em, l, {
                let v = rv_s::<S>(regs, *src, l, &sp).wrapping_add(*add as u64);
                set!(*dst, l, v);
            });
        }
        DOp::Bfe {
            dst,
            a,
            pos,
            len,
            ty,
        } => {
            let bits = u32::from(ty.bits);
            for_lanes!(em, l, {
                let x = rv_s::<S>(regs, *a, l, &sp);
                let p = (rv_s::<S>(regs, *pos, l, &sp) & 0xff) as u32;
                let n = (rv_s::<S>(regs, *len, l, &sp) & 0xff) as u32;
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
                let (x, y) = (rv_s::<S>(regs, *a, l, &sp), rv_s::<S>(regs, *b, l, &sp));
                let p = (rv_s::<S>(regs, *pos, l, &sp) & 0xff) as u32;
                let n = (rv_s::<S>(regs, *len, l, &sp) & 0xff) as u32;
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
                let pair = ((rv_s::<S>(regs, *b, l, &sp) & 0xffff_ffff) << 32)
                    | (rv_s::<S>(regs, *a, l, &sp) & 0xffff_ffff);
                let n = rv_s::<S>(regs, *c, l, &sp) as u32;
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
                let bytes = ((rv_s::<S>(regs, *b, l, &sp) & 0xffff_ffff) << 32)
                    | (rv_s::<S>(regs, *a, l, &sp) & 0xffff_ffff);
                let s = rv_s::<S>(regs, *sel, l, &sp);
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
                let a: Vec<u64> = args.iter().map(|x| rv_s::<S>(regs, *x, l, &sp)).collect();
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
fn lanes_of<const S: usize>(
    regs: &[u64],
    s: Src,
    sp: &dyn Fn(SpecialReg, usize) -> u64,
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

/// `dst = f(a, b)` on the lanes of `em`, monomorphised per operation.
#[inline(always)]
fn bin_loop_s<const S: usize, F: Fn(u64, u64) -> u64>(
    regs: &mut [u64],
    em: u32,
    dst: usize,
    a: Src,
    b: Src,
    sp: &dyn Fn(SpecialReg, usize) -> u64,
    f: F,
) {
    let av = lanes_of::<S>(regs, a, sp);
    let bv = lanes_of::<S>(regs, b, sp);
    let d: &mut [u64] = &mut regs[dst * S..dst * S + S];
    if em == FULL && S == WARP {
        for l in 0..WARP {
            d[l] = f(av[l], bv[l]);
        }
    } else {
        let mut m = em;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            d[l] = f(av[l], bv[l]);
        }
    }
}
