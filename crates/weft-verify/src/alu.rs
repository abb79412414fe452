//! The verifier's register arithmetic as SMT terms: the term of one ALU operation's result
//! (`Unary`, `Binary`, integer `Mad`, `Setp`'s comparison, `Cvt`) from its operands' terms,
//! for one thread. Integer and predicate operations are bit-vector and Boolean terms;
//! floating-point operations, saturating or rounding conversions, and integer operations
//! without a bit-vector reading here (`popc`, `clz`, `brev`, `bfind`, 128-bit products)
//! are uninterpreted functions named by operation and type (paper 002 §5).
//!
//! [`crate::exec`] builds every instruction's value with these functions; the property test
//! `crates/weft/tests/cli/alu_smt.rs` evaluates them on constants (through z3) against the
//! SIMT emulator's lane arithmetic.

use weft_ir::attrs::{DataType, TypeKind};
use weft_ir::kernel::{KBinOp, KCmp, KUnOp};

use crate::term::{Ctx, Op, Sort, T};

/// Is `ty` a floating-point type (its operations are uninterpreted)?
pub fn is_float(ty: DataType) -> bool {
    ty.kind == TypeKind::Float
}

/// The uninterpreted function `name.TYPE` applied to `args`, of sort `s`.
pub fn uf(c: &mut Ctx, name: &str, ty: DataType, args: &[T], s: Sort) -> T {
    let n = format!("{name}.{}", ty.ptx_name());
    c.uf(&n, args, s)
}

/// A value as a predicate: a bit-vector is true when non-zero.
pub fn truthy(c: &mut Ctx, v: &T) -> T {
    match v.sort() {
        Sort::Bool => v.clone(),
        Sort::Bv(w) => {
            let z = c.bv(w, 0);
            let e = c.eq(v, &z);
            c.not(&e)
        }
        _ => c.tt(),
    }
}

/// Adapts a value to `s`: `w` bits (zero-extended or truncated) or Bool for predicates.
pub fn fit(c: &mut Ctx, v: &T, s: Sort) -> T {
    match (v.sort(), s) {
        (a, b) if a == b => v.clone(),
        (Sort::Bool, Sort::Bv(w)) => {
            let one = c.bv(w, 1);
            let zero = c.bv(w, 0);
            c.ite(v, &one, &zero)
        }
        (Sort::Bv(_), Sort::Bool) => truthy(c, v),
        (Sort::Bv(_), Sort::Bv(w)) => c.zext(w, v),
        _ => v.clone(),
    }
}

/// The sort of a register of type `ty`: Bool for predicates, else a bit-vector of its
/// width.
pub fn reg_sort(ty: DataType) -> Sort {
    if ty.kind == TypeKind::Pred {
        Sort::Bool
    } else {
        Sort::Bv(u32::from(ty.bits).clamp(1, 64))
    }
}

/// A register's value `v` read as an operand of type `ty`: a predicate, or a bit-vector of
/// `ty`'s width (zero-extended or truncated).
pub fn read_as(c: &mut Ctx, v: &T, ty: DataType) -> T {
    if ty.kind == TypeKind::Pred {
        truthy(c, v)
    } else {
        fit(c, v, Sort::Bv(u32::from(ty.bits).clamp(1, 64)))
    }
}

/// The type the second operand of `op.ty` is read at: `.u32` for shift amounts.
pub fn binary_operand_type(op: KBinOp, ty: DataType) -> DataType {
    if matches!(op, KBinOp::Shl | KBinOp::Shr) {
        DataType::U32
    } else {
        ty
    }
}

/// The type the addend of an integer `mad` in `mode` is read at (twice the width for
/// `.wide`).
pub fn mad_addend_type(mode: KBinOp, ty: DataType) -> DataType {
    if mode == KBinOp::MulWide {
        DataType {
            kind: ty.kind,
            bits: ty.bits * 2,
        }
    } else {
        ty
    }
}

/// `op.ty x`.
pub fn unary(c: &mut Ctx, op: KUnOp, ty: DataType, x: &T) -> T {
    let s = x.sort();
    if ty.kind == TypeKind::Pred || s == Sort::Bool {
        return match op {
            KUnOp::Not => c.not(x),
            _ => c.fresh("un", Sort::Bool),
        };
    }
    if is_float(ty) {
        let n = format!("{op:?}").to_lowercase();
        return uf(c, &n, ty, std::slice::from_ref(x), s);
    }
    let w = s.width();
    match op {
        KUnOp::Not => c.un(Op::BvNot, x),
        KUnOp::Neg => c.un(Op::BvNeg, x),
        KUnOp::Cnot => {
            let z = c.bv(w, 0);
            let e = c.eq(x, &z);
            let one = c.bv(w, 1);
            c.ite(&e, &one, &z)
        }
        KUnOp::Abs => {
            let z = c.bv(w, 0);
            let neg = c.bin(Op::BvSlt, x, &z);
            let n = c.un(Op::BvNeg, x);
            c.ite(&neg, &n, x)
        }
        _ => {
            let n = format!("{op:?}").to_lowercase();
            uf(c, &n, ty, std::slice::from_ref(x), Sort::Bv(w))
        }
    }
}

/// `op.ty x, y` (`y` read at [`binary_operand_type`]).
pub fn binary(c: &mut Ctx, op: KBinOp, ty: DataType, x: &T, y: &T) -> T {
    let s = x.sort();
    if s == Sort::Bool {
        return match op {
            KBinOp::And => c.and(x, y),
            KBinOp::Or => c.or(x, y),
            KBinOp::Xor => {
                let e = c.eq(x, y);
                c.not(&e)
            }
            _ => c.fresh("pb", Sort::Bool),
        };
    }
    if is_float(ty) {
        let n = format!("f{op:?}").to_lowercase();
        return uf(c, &n, ty, &[x.clone(), y.clone()], s);
    }
    let w = s.width();
    let signed = ty.kind == TypeKind::Signed;
    let y = if matches!(op, KBinOp::Shl | KBinOp::Shr) {
        shift_amount(c, y, w)
    } else {
        fit(c, y, s)
    };
    match op {
        KBinOp::Add => c.add(x, &y),
        KBinOp::Sub => c.sub(x, &y),
        KBinOp::Mul => c.bin(Op::BvMul, x, &y),
        KBinOp::MulWide | KBinOp::MulHi => {
            let (a, b) = if signed {
                (c.sext(2 * w, x), c.sext(2 * w, &y))
            } else {
                (c.zext(2 * w, x), c.zext(2 * w, &y))
            };
            if 2 * w > 64 {
                // 128-bit products: uninterpreted.
                let n = format!("{op:?}").to_lowercase();
                let rw = if op == KBinOp::MulHi { w } else { 64 };
                return uf(c, &n, ty, &[x.clone(), y.clone()], Sort::Bv(rw));
            }
            let m = c.bin(Op::BvMul, &a, &b);
            if op == KBinOp::MulHi {
                c.extract(2 * w - 1, w, &m)
            } else {
                m
            }
        }
        KBinOp::Div => c.bin(if signed { Op::BvSdiv } else { Op::BvUdiv }, x, &y),
        KBinOp::Rem => c.bin(if signed { Op::BvSrem } else { Op::BvUrem }, x, &y),
        KBinOp::And => c.bin(Op::BvAnd, x, &y),
        KBinOp::Or => c.bin(Op::BvOr, x, &y),
        KBinOp::Xor => c.bin(Op::BvXor, x, &y),
        KBinOp::Shl => c.bin(Op::BvShl, x, &y),
        KBinOp::Shr => c.bin(if signed { Op::BvAshr } else { Op::BvLshr }, x, &y),
        KBinOp::Min | KBinOp::Max => {
            let lt = c.bin(if signed { Op::BvSlt } else { Op::BvUlt }, x, &y);
            if op == KBinOp::Min {
                c.ite(&lt, x, &y)
            } else {
                c.ite(&lt, &y, x)
            }
        }
        KBinOp::Copysign => uf(c, "copysign", ty, &[x.clone(), y], s),
    }
}

/// A shift amount (a `.u32` value) as a `w`-bit term: amounts above `w` clamp to `w` (the
/// PTX ISA's `shl`/`shr` clamp amounts larger than the register width to that width) before
/// the amount is cut to `w` bits, so a 16-bit shift by 2^16 shifts everything out.
fn shift_amount(c: &mut Ctx, y: &T, w: u32) -> T {
    let yw = match y.sort() {
        Sort::Bv(yw) => yw,
        _ => return fit(c, y, Sort::Bv(w)),
    };
    if yw <= w {
        return fit(c, y, Sort::Bv(w));
    }
    if let Some(v) = y.as_bv() {
        return c.bv(w, v.min(u64::from(w)));
    }
    let limit = c.bv(yw, u64::from(w));
    let below = c.ult(y, &limit);
    let cut = c.extract(w - 1, 0, y);
    let all = c.bv(w, u64::from(w));
    c.ite(&below, &cut, &all)
}

/// The sum of an integer `mad.mode.ty x, y, z`: the product `m` (`binary(mode)` of `x` and
/// `y`) plus the addend `z` (read at [`mad_addend_type`]). Float `mad`/`fma` is the
/// uninterpreted `fma`.
pub fn mad_sum(c: &mut Ctx, m: &T, z: &T) -> T {
    let z = fit(c, z, m.sort());
    c.add(m, &z)
}

/// `setp.cmp.ty x, y`: the comparison as a Boolean term.
pub fn compare(c: &mut Ctx, cmp: KCmp, ty: DataType, x: &T, y: &T) -> T {
    if is_float(ty) {
        let n = format!("fcmp.{cmp:?}").to_lowercase();
        return uf(c, &n, ty, &[x.clone(), y.clone()], Sort::Bool);
    }
    if x.sort() == Sort::Bool {
        let e = c.eq(x, y);
        return match cmp {
            KCmp::Eq => e,
            KCmp::Ne => c.not(&e),
            _ => c.fresh("pcmp", Sort::Bool),
        };
    }
    let y = fit(c, y, x.sort());
    let signed = ty.kind == TypeKind::Signed;
    let (lt, le) = if signed {
        (Op::BvSlt, Op::BvSle)
    } else {
        (Op::BvUlt, Op::BvUle)
    };
    match cmp {
        KCmp::Eq | KCmp::Equ => c.eq(x, &y),
        KCmp::Ne | KCmp::Neu => {
            let e = c.eq(x, &y);
            c.not(&e)
        }
        KCmp::Lt | KCmp::Ltu => c.bin(lt, x, &y),
        KCmp::Le | KCmp::Leu => c.bin(le, x, &y),
        KCmp::Gt | KCmp::Gtu => c.bin(lt, &y, x),
        KCmp::Ge | KCmp::Geu => c.bin(le, &y, x),
        KCmp::Num => c.tt(),
        KCmp::Nan => c.ff(),
    }
}

/// `cvt.dst.src x` (`x` read at `src`): integer widening sign- or zero-extends by the source
/// type and narrowing truncates; conversions with a float, `.rni`-style rounding or `.sat`
/// are uninterpreted.
pub fn cvt(c: &mut Ctx, dst: DataType, src: DataType, integral: bool, sat: bool, x: &T) -> T {
    let dw = u32::from(dst.bits).clamp(1, 64);
    if is_float(src) || is_float(dst) || integral || sat {
        let n = format!("cvt.{}.{}", dst.ptx_name(), src.ptx_name());
        c.uf(&n, std::slice::from_ref(x), Sort::Bv(dw))
    } else if src.kind == TypeKind::Signed {
        c.sext(dw, x)
    } else {
        c.zext(dw, x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t16(kind: TypeKind) -> DataType {
        DataType { kind, bits: 16 }
    }

    /// A 16-bit shift by a `.u32` amount of 2^16 or more shifts everything out (the amount
    /// clamps to 16; it used to be cut to its low 16 bits, 0: no shift), folded and as a
    /// term.
    #[test]
    fn sixteen_bit_shifts_clamp_the_32_bit_amount() {
        let mut c = Ctx::new();
        let x = c.bv(16, 0x8001);
        let big = c.bv(32, 0x1_0000);
        let shl = binary(&mut c, KBinOp::Shl, t16(TypeKind::Bits), &x, &big);
        assert_eq!(shl.as_bv(), Some(0));
        let sar = binary(&mut c, KBinOp::Shr, t16(TypeKind::Signed), &x, &big);
        assert_eq!(sar.as_bv(), Some(0xffff));
        let shr = binary(&mut c, KBinOp::Shr, t16(TypeKind::Unsigned), &x, &big);
        assert_eq!(shr.as_bv(), Some(0));
        let three = c.bv(32, 3);
        let small = binary(&mut c, KBinOp::Shl, t16(TypeKind::Bits), &x, &three);
        assert_eq!(small.as_bv(), Some(0x0008));
        // Unknown amounts: the clamp is in the term.
        let y = c.var("y", Sort::Bv(32));
        let t = binary(&mut c, KBinOp::Shl, t16(TypeKind::Bits), &x, &y);
        let mut p = crate::term::Printer::new();
        p.name(&t);
        let out = p.take();
        assert!(out.contains("(bvult y (_ bv16 32))"), "{out}");
    }
}
