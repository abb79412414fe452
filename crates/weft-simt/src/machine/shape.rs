//! Per-shape handlers of the register-only instructions the warp emulator runs most. At
//! launch each instruction is resolved once ([`resolve`]) into a [`Shaped`] record: one kind
//! naming the operation family and its operand shape (registers, or a register and an
//! immediate), plain register numbers and the immediate, and the guard as one word. The
//! straight runs of register-only instructions (`regop`'s `run_regops`) dispatch on that
//! kind alone, with no operand-kind matching and no special-register context; full warps
//! take the whole-row lane loops (`regop::rows1`..`rows3`), other lane sets a masked loop.
//! Every other instruction (special-register operands, function-pointer arithmetic,
//! `selp`, conversions through floats, ...) is [`K::Slow`] and keeps the general path; the
//! lane functions are [`super::lanefn`]'s, so both paths compute the same values.

use super::lanefn::{self, Loop2, Loop3};
use super::regop::{guard_mask, rows1, rows2, rows3};
use super::{FULL, WARP};
use crate::alu;
use crate::decode::{DInstr, DOp, FastBin, FastCmp, FastMad, Src};

/// [`Shaped::guard`] of an unguarded instruction.
const NO_GUARD: u32 = u32::MAX;
/// The negation bit of [`Shaped::guard`] (the rest is the predicate register).
const NEG: u32 = 1 << 31;

/// What a resolved instruction does; the operands are [`Shaped`]'s `d`, `a`, `b`, `c`, `imm`.
#[derive(Clone, Copy, Debug)]
pub(super) enum K {
    /// Not resolved: the general path runs the instruction.
    Slow,
    /// `d = a & imm` (moves, integer conversions without sign extension).
    MovR,
    /// `d = imm` in every lane.
    MovI,
    /// `d = trunc(sext(a, b), c)`: a sign-extending integer conversion from `b` to `c` bits.
    CvtS,
    /// `d = op(a, b)`.
    BinRR(FastBin),
    /// `d = op(a, imm)`.
    BinRI(FastBin),
    /// `d = op(imm, a)`.
    BinIR(FastBin),
    /// `d = mad(a, b, c)`.
    MadRRR(FastMad),
    /// `d = mad(a, b, imm)`.
    MadRRI(FastMad),
    /// `d = mad(a, imm, b)`.
    MadRIR(FastMad),
    /// `d = setp(a, b)`.
    CmpRR(FastCmp),
    /// `d = setp(a, imm)`.
    CmpRI(FastCmp),
    /// `d = setp(imm, a)`.
    CmpIR(FastCmp),
}

/// One instruction resolved for the per-shape handlers.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shaped {
    pub kind: K,
    /// The guard: [`NO_GUARD`], or the predicate register with [`NEG`] when negated.
    pub guard: u32,
    pub d: u32,
    pub a: u32,
    pub b: u32,
    pub c: u32,
    pub imm: u64,
}

/// Resolves every instruction of `code` (only register-only ones get a kind besides
/// [`K::Slow`]).
pub(super) fn resolve(code: &[DInstr]) -> Vec<Shaped> {
    code.iter()
        .map(|ins| {
            let guard = match ins.guard {
                None => NO_GUARD,
                Some((r, neg)) if r < NEG => r | if neg { NEG } else { 0 },
                // A register number this large cannot be encoded: the general path, which
                // reads the instruction's own guard.
                Some(_) => return slow(NO_GUARD),
            };
            if ins.run == 0 {
                return slow(guard);
            }
            shape_of(&ins.op).map_or(slow(guard), |s| Shaped { guard, ..s })
        })
        .collect()
}

fn slow(guard: u32) -> Shaped {
    Shaped {
        kind: K::Slow,
        guard,
        d: 0,
        a: 0,
        b: 0,
        c: 0,
        imm: 0,
    }
}

/// The kind and operands of a register-only instruction with a per-shape handler.
fn shape_of(op: &DOp) -> Option<Shaped> {
    let mk = |kind, d: u32, a: u32, b: u32, imm: u64| Shaped {
        kind,
        guard: NO_GUARD,
        d,
        a,
        b,
        c: 0,
        imm,
    };
    let keep = |bits: u16| alu::trunc(u64::MAX, bits);
    Some(match *op {
        DOp::Mov { dst, src, bits } => match src {
            Src::R(r) => mk(K::MovR, dst, r, 0, keep(bits)),
            Src::I(v) => mk(K::MovI, dst, 0, 0, v & keep(bits)),
            Src::S(_) => return None,
        },
        DOp::Cvta { dst, src, add } => match src {
            Src::R(r) => mk(K::BinRI(FastBin::Add64), dst, r, 0, add as u64),
            Src::I(v) => mk(K::MovI, dst, 0, 0, v.wrapping_add(add as u64)),
            Src::S(_) => return None,
        },
        DOp::Cvt {
            dst,
            src: Src::R(r),
            dst_ty,
            src_ty,
            sat: false,
            ..
        } if dst_ty.kind != weft_ir::attrs::TypeKind::Float
            && src_ty.kind != weft_ir::attrs::TypeKind::Float =>
        {
            let (sb, db) = (src_ty.bits, dst_ty.bits);
            if src_ty.kind == weft_ir::attrs::TypeKind::Signed {
                if sb == 0 {
                    return None;
                }
                Shaped {
                    c: u32::from(db),
                    ..mk(K::CvtS, dst, r, u32::from(sb), 0)
                }
            } else {
                mk(K::MovR, dst, r, 0, keep(sb) & keep(db))
            }
        }
        DOp::BinFast { op, dst, a, b } => match (a, b) {
            (Src::R(x), Src::R(y)) => mk(K::BinRR(op), dst, x, y, 0),
            (Src::R(x), Src::I(v)) => mk(K::BinRI(op), dst, x, 0, v),
            (Src::I(v), Src::R(y)) => mk(K::BinIR(op), dst, y, 0, v),
            _ => return None,
        },
        DOp::SetpFast { cmp, dst, a, b } => match (a, b) {
            (Src::R(x), Src::R(y)) => mk(K::CmpRR(cmp), dst, x, y, 0),
            (Src::R(x), Src::I(v)) => mk(K::CmpRI(cmp), dst, x, 0, v),
            (Src::I(v), Src::R(y)) => mk(K::CmpIR(cmp), dst, y, 0, v),
            _ => return None,
        },
        DOp::MadFast { op, dst, a, b, c } => match (a, b, c) {
            (Src::R(x), Src::R(y), Src::R(z)) => Shaped {
                c: z,
                ..mk(K::MadRRR(op), dst, x, y, 0)
            },
            (Src::R(x), Src::R(y), Src::I(v)) => mk(K::MadRRI(op), dst, x, y, v),
            (Src::R(x), Src::I(v), Src::R(z)) => mk(K::MadRIR(op), dst, x, z, v),
            _ => return None,
        },
        _ => return None,
    })
}

/// The lanes of `mask` whose guard `g` ([`Shaped::guard`]) holds.
#[inline(always)]
pub(super) fn guard(g: u32, regs: &[u64], mask: u32) -> u32 {
    if g == NO_GUARD {
        mask
    } else {
        guard_mask(Some((g & !NEG, g & NEG != 0)), regs, mask)
    }
}

/// Runs `s` on the lanes of `em` of a register file of [`WARP`] lanes per register; `false`
/// (nothing done) for [`K::Slow`], whose guard is not resolved (the caller reads the
/// instruction's own).
#[inline(always)]
pub(super) fn exec(s: &Shaped, regs: &mut [u64], em: u32) -> bool {
    let (d, a, b, imm) = (s.d as usize, s.a as usize, s.b as usize, s.imm);
    let ri = |regs| RowImm::new(regs, em, d, a, imm, false);
    let ir = |regs| RowImm::new(regs, em, d, a, imm, true);
    match s.kind {
        K::Slow => return false,
        K::MovR => ri(regs).run(|x: u64, k: u64| x & k),
        K::MovI => {
            let row = &mut regs[d * WARP..d * WARP + WARP];
            if em == FULL {
                row.fill(imm);
            } else {
                let mut m = em;
                while m != 0 {
                    row[m.trailing_zeros() as usize] = imm;
                    m &= m - 1;
                }
            }
        }
        K::CvtS => {
            let (sb, db) = (s.b as u16, s.c as u16);
            ri(regs).run(move |x: u64, _| alu::trunc(alu::sext(x, sb) as u64, db));
        }
        K::BinRR(op) => lanefn::bin(op, Rows2 { regs, em, d, a, b }),
        K::BinRI(op) => lanefn::bin(op, ri(regs)),
        K::BinIR(op) => lanefn::bin(op, ir(regs)),
        K::CmpRR(c) => lanefn::cmp(c, Rows2 { regs, em, d, a, b }),
        K::CmpRI(c) => lanefn::cmp(c, ri(regs)),
        K::CmpIR(c) => lanefn::cmp(c, ir(regs)),
        K::MadRRR(op) => {
            let c = s.c as usize;
            lanefn::mad(
                op,
                Rows3 {
                    regs,
                    em,
                    d,
                    a,
                    b,
                    c,
                },
            );
        }
        K::MadRRI(op) => lanefn::mad(
            op,
            Rows2Imm {
                regs,
                em,
                d,
                a,
                b,
                imm,
                imm_mid: false,
            },
        ),
        K::MadRIR(op) => lanefn::mad(
            op,
            Rows2Imm {
                regs,
                em,
                d,
                a,
                b,
                imm,
                imm_mid: true,
            },
        ),
    }
    true
}

/// `d = f(a, b)`, both register rows.
struct Rows2<'r> {
    regs: &'r mut [u64],
    em: u32,
    d: usize,
    a: usize,
    b: usize,
}

impl Loop2 for Rows2<'_> {
    #[inline(always)]
    fn run<F: Fn(u64, u64) -> u64>(self, f: F) {
        let Rows2 { regs, em, d, a, b } = self;
        if em == FULL {
            rows2(regs, d, a, b, f);
        } else {
            // Each lane reads its own operands before its result is written.
            for_lanes!(em, l, {
                regs[d * WARP + l] = f(regs[a * WARP + l], regs[b * WARP + l]);
            });
        }
    }
}

/// `d = f(a, imm)`, or `f(imm, a)` with `imm_first`.
struct RowImm<'r> {
    regs: &'r mut [u64],
    em: u32,
    d: usize,
    a: usize,
    imm: u64,
    imm_first: bool,
}

impl<'r> RowImm<'r> {
    #[inline(always)]
    fn new(regs: &'r mut [u64], em: u32, d: usize, a: usize, imm: u64, first: bool) -> Self {
        RowImm {
            regs,
            em,
            d,
            a,
            imm,
            imm_first: first,
        }
    }
}

impl Loop2 for RowImm<'_> {
    #[inline(always)]
    fn run<F: Fn(u64, u64) -> u64>(self, f: F) {
        let RowImm {
            regs,
            em,
            d,
            a,
            imm,
            imm_first,
        } = self;
        if em == FULL {
            if imm_first {
                rows1(regs, d, a, |x| f(imm, x));
            } else {
                rows1(regs, d, a, |x| f(x, imm));
            }
        } else {
            let g = move |x: u64| if imm_first { f(imm, x) } else { f(x, imm) };
            for_lanes!(em, l, {
                regs[d * WARP + l] = g(regs[a * WARP + l]);
            });
        }
    }
}

/// `d = f(a, b, c)`, all register rows.
struct Rows3<'r> {
    regs: &'r mut [u64],
    em: u32,
    d: usize,
    a: usize,
    b: usize,
    c: usize,
}

impl Loop3 for Rows3<'_> {
    #[inline(always)]
    fn run<F: Fn(u64, u64, u64) -> u64>(self, f: F) {
        let Rows3 {
            regs,
            em,
            d,
            a,
            b,
            c,
        } = self;
        if em == FULL {
            rows3(regs, d, [a, b, c], f);
        } else {
            for_lanes!(em, l, {
                let (x, y, z) = (regs[a * WARP + l], regs[b * WARP + l], regs[c * WARP + l]);
                regs[d * WARP + l] = f(x, y, z);
            });
        }
    }
}

/// `d = f(a, b, imm)`, or `f(a, imm, b)` with `imm_mid`.
struct Rows2Imm<'r> {
    regs: &'r mut [u64],
    em: u32,
    d: usize,
    a: usize,
    b: usize,
    imm: u64,
    imm_mid: bool,
}

impl Loop3 for Rows2Imm<'_> {
    #[inline(always)]
    fn run<F: Fn(u64, u64, u64) -> u64>(self, f: F) {
        let Rows2Imm {
            regs,
            em,
            d,
            a,
            b,
            imm,
            imm_mid,
        } = self;
        if em == FULL {
            if imm_mid {
                rows2(regs, d, a, b, |x, z| f(x, imm, z));
            } else {
                rows2(regs, d, a, b, |x, y| f(x, y, imm));
            }
        } else {
            let g = move |x: u64, y: u64| if imm_mid { f(x, imm, y) } else { f(x, y, imm) };
            for_lanes!(em, l, {
                regs[d * WARP + l] = g(regs[a * WARP + l], regs[b * WARP + l]);
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{fast_bin, fast_cmp, fast_mad};
    use crate::machine::exec_alu;
    use weft_ir::attrs::{DataType, TypeKind};
    use weft_ir::kernel::{KBinOp, KCmp, SpecialReg};

    fn ty(kind: TypeKind, bits: u16) -> DataType {
        DataType { kind, bits }
    }

    /// Each per-shape handler, on a full warp and on a partial lane set, with the destination
    /// distinct from and equal to an operand, leaves the register file exactly as the
    /// general lane loops leave it for the same decoded instruction.
    #[test]
    fn shaped_handlers_agree_with_the_general_path() {
        let (s32, u32t, s16) = (
            ty(TypeKind::Signed, 32),
            ty(TypeKind::Unsigned, 32),
            ty(TypeKind::Signed, 16),
        );
        let bin = |op, t, dst, a, b| DOp::BinFast {
            op: fast_bin(op, t).expect("fast form"),
            dst,
            a,
            b,
        };
        let imm = 0x8000_0005u64;
        let (r0, r1, r2, i) = (Src::R(0), Src::R(1), Src::R(2), Src::I(imm));
        let mut ops = Vec::new();
        for d in [3, 1] {
            ops.push(bin(KBinOp::Sub, s32, d, r1, r2));
            ops.push(bin(KBinOp::Sub, s32, d, r1, i));
            ops.push(bin(KBinOp::Sub, s32, d, i, r1));
            ops.push(bin(KBinOp::Shr, s32, d, r1, Src::I(3)));
            ops.push(bin(KBinOp::MulWide, s32, d, r1, r2));
            ops.push(bin(KBinOp::Add, ty(TypeKind::Float, 32), d, r1, r2));
            for c in [KCmp::Lt, KCmp::Ge, KCmp::Eq] {
                for t in [s32, u32t, ty(TypeKind::Signed, 64)] {
                    let cmp = fast_cmp(c, t).expect("fast compare");
                    for (a, b) in [(r1, r2), (r1, i), (i, r2)] {
                        ops.push(DOp::SetpFast { cmp, dst: d, a, b });
                    }
                }
            }
            for (mode, t) in [(KBinOp::Mul, s32), (KBinOp::MulWide, s32)] {
                let op = fast_mad(mode, t).expect("fast mad");
                for (a, b, c) in [(r1, r2, r0), (r1, r2, i), (r1, i, r0)] {
                    ops.push(DOp::MadFast {
                        op,
                        dst: d,
                        a,
                        b,
                        c,
                    });
                }
            }
            for (src, bits) in [(r1, 16), (r2, 64), (i, 8), (i, 64)] {
                ops.push(DOp::Mov { dst: d, src, bits });
            }
            for src in [r1, i] {
                ops.push(DOp::Cvta {
                    dst: d,
                    src,
                    add: -7,
                });
            }
            for (dst_ty, src_ty) in [(s32, s16), (ty(TypeKind::Unsigned, 64), u32t), (s16, s32)] {
                ops.push(DOp::Cvt {
                    dst: d,
                    src: r1,
                    dst_ty,
                    src_ty,
                    rounding: None,
                    integral: false,
                    sat: false,
                });
            }
        }
        let sp = |_: SpecialReg, _: usize| 0;
        for op in &ops {
            let s = shape_of(op).unwrap_or_else(|| panic!("{op:?} has no shape"));
            for em in [FULL, 0x5a5a_0f01] {
                let mut regs = vec![0u64; 4 * WARP];
                for l in 0..WARP {
                    regs[l] = (l as u64 * 0x1111_1111) & 0xffff_ffff;
                    regs[WARP + l] = 0x8765_4321u64.rotate_left(l as u32) & 0xffff_ffff;
                    regs[2 * WARP + l] = (0xffff_fff0 + l as u64) & 0xffff_ffff;
                    regs[3 * WARP + l] = 0xdead_beef;
                }
                let mut want = regs.clone();
                assert!(exec_alu::<WARP, _>(op, &mut want, em, &sp));
                assert!(exec(&s, &mut regs, em), "{op:?}");
                assert_eq!(regs, want, "{op:?} lanes {em:#x}");
            }
        }
        assert_eq!(ops.len(), 2 * 48);
    }

    /// Instructions without a handler, and the guard, are left to the general path.
    #[test]
    fn unshaped_instructions_stay_general() {
        let special = DOp::Mov {
            dst: 0,
            src: Src::S(SpecialReg::Laneid),
            bits: 32,
        };
        assert!(shape_of(&special).is_none());
        let both_imm = DOp::BinFast {
            op: FastBin::Add32,
            dst: 0,
            a: Src::I(1),
            b: Src::I(2),
        };
        assert!(shape_of(&both_imm).is_none());
        let code = vec![
            DInstr {
                guard: Some((2, true)),
                op: DOp::Mov {
                    dst: 0,
                    src: Src::R(1),
                    bits: 32,
                },
                run: 1,
            },
            DInstr {
                guard: None,
                op: DOp::Exit,
                run: 0,
            },
        ];
        let s = resolve(&code);
        assert!(matches!(s[0].kind, K::MovR));
        assert!(matches!(s[1].kind, K::Slow));
        let mut regs = vec![0u64; 3 * WARP];
        regs[2 * WARP + 3] = 1;
        // Negated guard on register 2: every lane but lane 3 executes.
        assert_eq!(guard(s[0].guard, &regs, FULL), !(1u32 << 3));
        assert_eq!(guard(s[1].guard, &regs, 0xff), 0xff);
    }
}
