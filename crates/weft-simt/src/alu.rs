//! Lane arithmetic: each typed PTX operation becomes a plain `fn` on 64-bit register bit
//! patterns, chosen once when the kernel is decoded (PTX ISA §9.7.1–9.7.4 semantics: integer
//! arithmetic wraps at the type's width, shifts clamp, `div`/`rem` by zero yield all ones /
//! the dividend as on hardware-defined behaviour we pick and document in docs/simt.md).
//!
//! Registers hold values zero-extended to 64 bits; a signed operation sign-extends its
//! operands from the type's width and truncates its result back.

// The unordered float comparisons (`ltu` = "less than or unordered") are exactly the
// negations of the ordered ones; clippy's suggestion would obscure that.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use weft_ir::attrs::{DataType, TypeKind};
use weft_ir::kernel::{KBinOp, KCmp, KUnOp, Rounding};

/// A binary lane operation.
pub type BinFn = fn(u64, u64) -> u64;
/// A unary lane operation.
pub type UnFn = fn(u64) -> u64;
/// A comparison.
pub type CmpFn = fn(u64, u64) -> bool;

/// Truncates `v` to `bits` (64 and above: unchanged).
#[inline(always)]
pub fn trunc(v: u64, bits: u16) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// Sign-extends the low `bits` of `v`.
#[inline(always)]
pub fn sext(v: u64, bits: u16) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits as u32;
        ((v << s) as i64) >> s
    }
}

macro_rules! int_bin {
    ($u:ty, $i:ty, $signed:expr, $op:expr) => {{
        // Arithmetic in the unsigned type (wrapping), comparisons in the signed one when
        // `$signed`.
        let f: BinFn = match $op {
            KBinOp::Add => |a, b| (a as $u).wrapping_add(b as $u) as u64,
            KBinOp::Sub => |a, b| (a as $u).wrapping_sub(b as $u) as u64,
            KBinOp::Mul => |a, b| (a as $u).wrapping_mul(b as $u) as u64,
            KBinOp::And => |a, b| (a as $u & b as $u) as u64,
            KBinOp::Or => |a, b| (a as $u | b as $u) as u64,
            KBinOp::Xor => |a, b| (a as $u ^ b as $u) as u64,
            KBinOp::Shl => |a, b| {
                let s = b as u32;
                if s >= <$u>::BITS {
                    0
                } else {
                    ((a as $u) << s) as u64
                }
            },
            KBinOp::Shr if $signed => |a, b| {
                let s = (b as u32).min(<$u>::BITS - 1);
                (((a as $u) as $i >> s) as $u) as u64
            },
            KBinOp::Shr => |a, b| {
                let s = b as u32;
                if s >= <$u>::BITS {
                    0
                } else {
                    ((a as $u) >> s) as u64
                }
            },
            KBinOp::Div if $signed => |a, b| {
                let (x, y) = ((a as $u) as $i, (b as $u) as $i);
                if y == 0 {
                    <$u>::MAX as u64
                } else {
                    (x.wrapping_div(y) as $u) as u64
                }
            },
            KBinOp::Div => |a, b| {
                let (x, y) = (a as $u, b as $u);
                if y == 0 {
                    <$u>::MAX as u64
                } else {
                    (x / y) as u64
                }
            },
            KBinOp::Rem if $signed => |a, b| {
                let (x, y) = ((a as $u) as $i, (b as $u) as $i);
                if y == 0 {
                    x as $u as u64
                } else {
                    (x.wrapping_rem(y) as $u) as u64
                }
            },
            KBinOp::Rem => |a, b| {
                let (x, y) = (a as $u, b as $u);
                if y == 0 {
                    x as u64
                } else {
                    (x % y) as u64
                }
            },
            KBinOp::Min if $signed => |a, b| ((a as $u as $i).min(b as $u as $i) as $u) as u64,
            KBinOp::Min => |a, b| (a as $u).min(b as $u) as u64,
            KBinOp::Max if $signed => |a, b| ((a as $u as $i).max(b as $u as $i) as $u) as u64,
            KBinOp::Max => |a, b| (a as $u).max(b as $u) as u64,
            KBinOp::MulHi if $signed => |a, b| {
                let p = (a as $u as $i as i128) * (b as $u as $i as i128);
                ((p >> <$u>::BITS) as $u) as u64
            },
            KBinOp::MulHi => |a, b| {
                let p = (a as $u as u128) * (b as $u as u128);
                ((p >> <$u>::BITS) as $u) as u64
            },
            KBinOp::MulWide if $signed => |a, b| {
                let p = (a as $u as $i as i128) * (b as $u as $i as i128);
                p as u64 & wide_mask(<$u>::BITS)
            },
            KBinOp::MulWide => |a, b| {
                let p = (a as $u as u128) * (b as $u as u128);
                p as u64 & wide_mask(<$u>::BITS)
            },
            KBinOp::Copysign => return None,
        };
        Some(f)
    }};
}

fn wide_mask(bits: u32) -> u64 {
    if bits >= 32 {
        u64::MAX
    } else {
        (1u64 << (2 * bits)) - 1
    }
}

macro_rules! float_bin {
    ($f:ty, $bits:ty, $op:expr) => {{
        let f: BinFn = match $op {
            KBinOp::Add => {
                |a, b| (<$f>::from_bits(a as $bits) + <$f>::from_bits(b as $bits)).to_bits() as u64
            }
            KBinOp::Sub => {
                |a, b| (<$f>::from_bits(a as $bits) - <$f>::from_bits(b as $bits)).to_bits() as u64
            }
            KBinOp::Mul => {
                |a, b| (<$f>::from_bits(a as $bits) * <$f>::from_bits(b as $bits)).to_bits() as u64
            }
            KBinOp::Div => {
                |a, b| (<$f>::from_bits(a as $bits) / <$f>::from_bits(b as $bits)).to_bits() as u64
            }
            KBinOp::Min => |a, b| {
                <$f>::from_bits(a as $bits)
                    .min(<$f>::from_bits(b as $bits))
                    .to_bits() as u64
            },
            KBinOp::Max => |a, b| {
                <$f>::from_bits(a as $bits)
                    .max(<$f>::from_bits(b as $bits))
                    .to_bits() as u64
            },
            KBinOp::Copysign => |a, b| {
                <$f>::from_bits(b as $bits)
                    .copysign(<$f>::from_bits(a as $bits))
                    .to_bits() as u64
            },
            _ => return None,
        };
        Some(f)
    }};
}

/// The lane function of a binary operation on `ty`, or `None` when the combination is not
/// meaningful (bitwise ops on floats, ...).
pub fn binary(op: KBinOp, ty: DataType) -> Option<BinFn> {
    use TypeKind::*;
    match (ty.kind, ty.bits) {
        (Signed, 8) => int_bin!(u8, i8, true, op),
        (Signed, 16) => int_bin!(u16, i16, true, op),
        (Signed, 32) => int_bin!(u32, i32, true, op),
        (Signed, 64) => int_bin!(u64, i64, true, op),
        (Unsigned | Bits, 8) => int_bin!(u8, i8, false, op),
        (Unsigned | Bits, 16) => int_bin!(u16, i16, false, op),
        (Unsigned | Bits, 32) => int_bin!(u32, i32, false, op),
        (Unsigned | Bits, 64) => int_bin!(u64, i64, false, op),
        (Pred, _) => {
            let f: BinFn = match op {
                KBinOp::And => |a, b| a & b & 1,
                KBinOp::Or => |a, b| (a | b) & 1,
                KBinOp::Xor => |a, b| (a ^ b) & 1,
                _ => return None,
            };
            Some(f)
        }
        (Float, 32) => float_bin!(f32, u32, op),
        (Float, 64) => float_bin!(f64, u64, op),
        _ => None,
    }
}

macro_rules! int_un {
    ($u:ty, $i:ty, $op:expr) => {{
        let f: UnFn = match $op {
            KUnOp::Not => |a| (!(a as $u)) as u64,
            KUnOp::Cnot => |a| ((a as $u) == 0) as u64,
            KUnOp::Neg => |a| (a as $u).wrapping_neg() as u64,
            KUnOp::Abs => |a| ((a as $u as $i).wrapping_abs() as $u) as u64,
            KUnOp::Popc => |a| (a as $u).count_ones() as u64,
            KUnOp::Clz => |a| (a as $u).leading_zeros() as u64,
            KUnOp::Brev => |a| (a as $u).reverse_bits() as u64,
            _ => return None,
        };
        Some(f)
    }};
}

macro_rules! float_un {
    ($f:ty, $bits:ty, $op:expr) => {{
        let f: UnFn = match $op {
            KUnOp::Neg => |a| (-<$f>::from_bits(a as $bits)).to_bits() as u64,
            KUnOp::Abs => |a| <$f>::from_bits(a as $bits).abs().to_bits() as u64,
            KUnOp::Sqrt => |a| <$f>::from_bits(a as $bits).sqrt().to_bits() as u64,
            KUnOp::Rsqrt => |a| (1.0 / <$f>::from_bits(a as $bits).sqrt()).to_bits() as u64,
            KUnOp::Rcp => |a| (1.0 / <$f>::from_bits(a as $bits)).to_bits() as u64,
            KUnOp::Sin => |a| <$f>::from_bits(a as $bits).sin().to_bits() as u64,
            KUnOp::Cos => |a| <$f>::from_bits(a as $bits).cos().to_bits() as u64,
            KUnOp::Lg2 => |a| <$f>::from_bits(a as $bits).log2().to_bits() as u64,
            KUnOp::Ex2 => |a| <$f>::from_bits(a as $bits).exp2().to_bits() as u64,
            KUnOp::Tanh => |a| <$f>::from_bits(a as $bits).tanh().to_bits() as u64,
            _ => return None,
        };
        Some(f)
    }};
}

/// The lane function of a unary operation on `ty`.
pub fn unary(op: KUnOp, ty: DataType) -> Option<UnFn> {
    use TypeKind::*;
    if op == KUnOp::Bfind {
        let f: UnFn = match (ty.kind, ty.bits) {
            (Signed, 32) => |a| {
                let x = a as u32 as i32;
                let y = if x < 0 { !x } else { x } as u32;
                if y == 0 {
                    0xffff_ffff
                } else {
                    31 - y.leading_zeros() as u64
                }
            },
            (Unsigned | Bits, 32) => |a| {
                let y = a as u32;
                if y == 0 {
                    0xffff_ffff
                } else {
                    31 - y.leading_zeros() as u64
                }
            },
            (Signed, 64) => |a| {
                let x = a as i64;
                let y = if x < 0 { !x } else { x } as u64;
                if y == 0 {
                    0xffff_ffff
                } else {
                    63 - y.leading_zeros() as u64
                }
            },
            (Unsigned | Bits, 64) => |a| {
                if a == 0 {
                    0xffff_ffff
                } else {
                    63 - a.leading_zeros() as u64
                }
            },
            _ => return None,
        };
        return Some(f);
    }
    match (ty.kind, ty.bits) {
        (Signed | Unsigned | Bits, 16) => int_un!(u16, i16, op),
        (Signed | Unsigned | Bits, 32) => int_un!(u32, i32, op),
        (Signed | Unsigned | Bits, 64) => int_un!(u64, i64, op),
        (Pred, _) => {
            let f: UnFn = match op {
                KUnOp::Not => |a| (a ^ 1) & 1,
                _ => return None,
            };
            Some(f)
        }
        (Float, 32) => float_un!(f32, u32, op),
        (Float, 64) => float_un!(f64, u64, op),
        _ => None,
    }
}

macro_rules! int_cmp {
    ($t:ty, $cmp:expr) => {{
        let f: CmpFn = match $cmp {
            KCmp::Eq | KCmp::Equ => |a, b| (a as $t) == (b as $t),
            KCmp::Ne | KCmp::Neu => |a, b| (a as $t) != (b as $t),
            KCmp::Lt | KCmp::Ltu => |a, b| (a as $t) < (b as $t),
            KCmp::Le | KCmp::Leu => |a, b| (a as $t) <= (b as $t),
            KCmp::Gt | KCmp::Gtu => |a, b| (a as $t) > (b as $t),
            KCmp::Ge | KCmp::Geu => |a, b| (a as $t) >= (b as $t),
            KCmp::Num | KCmp::Nan => return None,
        };
        Some(f)
    }};
}

macro_rules! float_cmp {
    ($f:ty, $bits:ty, $cmp:expr) => {{
        let f: CmpFn = match $cmp {
            KCmp::Eq => |a, b| <$f>::from_bits(a as $bits) == <$f>::from_bits(b as $bits),
            KCmp::Ne => |a, b| {
                let (x, y) = (<$f>::from_bits(a as $bits), <$f>::from_bits(b as $bits));
                !x.is_nan() && !y.is_nan() && x != y
            },
            KCmp::Lt => |a, b| <$f>::from_bits(a as $bits) < <$f>::from_bits(b as $bits),
            KCmp::Le => |a, b| <$f>::from_bits(a as $bits) <= <$f>::from_bits(b as $bits),
            KCmp::Gt => |a, b| <$f>::from_bits(a as $bits) > <$f>::from_bits(b as $bits),
            KCmp::Ge => |a, b| <$f>::from_bits(a as $bits) >= <$f>::from_bits(b as $bits),
            KCmp::Equ => |a, b| {
                !(<$f>::from_bits(a as $bits) != <$f>::from_bits(b as $bits)) || nan2::<$f>(a, b)
            },
            KCmp::Neu => |a, b| <$f>::from_bits(a as $bits) != <$f>::from_bits(b as $bits),
            KCmp::Ltu => |a, b| !(<$f>::from_bits(a as $bits) >= <$f>::from_bits(b as $bits)),
            KCmp::Leu => |a, b| !(<$f>::from_bits(a as $bits) > <$f>::from_bits(b as $bits)),
            KCmp::Gtu => |a, b| !(<$f>::from_bits(a as $bits) <= <$f>::from_bits(b as $bits)),
            KCmp::Geu => |a, b| !(<$f>::from_bits(a as $bits) < <$f>::from_bits(b as $bits)),
            KCmp::Num => |a, b| !nan2::<$f>(a, b),
            KCmp::Nan => |a, b| nan2::<$f>(a, b),
        };
        Some(f)
    }};
}

trait FloatBits {
    fn nan_of(bits: u64) -> bool;
}
impl FloatBits for f32 {
    fn nan_of(bits: u64) -> bool {
        f32::from_bits(bits as u32).is_nan()
    }
}
impl FloatBits for f64 {
    fn nan_of(bits: u64) -> bool {
        f64::from_bits(bits).is_nan()
    }
}
fn nan2<F: FloatBits>(a: u64, b: u64) -> bool {
    F::nan_of(a) || F::nan_of(b)
}

/// The comparison `cmp` on `ty` (unsigned for `.u`/`.b` types, signed for `.s`).
pub fn compare(cmp: KCmp, ty: DataType) -> Option<CmpFn> {
    use TypeKind::*;
    match (ty.kind, ty.bits) {
        (Signed, 8) => int_cmp!(i8, cmp),
        (Signed, 16) => int_cmp!(i16, cmp),
        (Signed, 32) => int_cmp!(i32, cmp),
        (Signed, 64) => int_cmp!(i64, cmp),
        (Unsigned | Bits, 8) => int_cmp!(u8, cmp),
        (Unsigned | Bits, 16) => int_cmp!(u16, cmp),
        (Unsigned | Bits, 32) => int_cmp!(u32, cmp),
        (Unsigned | Bits, 64) => int_cmp!(u64, cmp),
        (Pred, _) => int_cmp!(u8, cmp),
        (Float, 32) => float_cmp!(f32, u32, cmp),
        (Float, 64) => float_cmp!(f64, u64, cmp),
        _ => None,
    }
}

/// Reads a register bit pattern of type `ty` as an `f64` (ints by value).
fn to_f64(v: u64, ty: DataType) -> f64 {
    match ty.kind {
        TypeKind::Float if ty.bits == 32 => f32::from_bits(v as u32) as f64,
        TypeKind::Float => f64::from_bits(v),
        TypeKind::Signed => sext(v, ty.bits) as f64,
        _ => trunc(v, ty.bits) as f64,
    }
}

fn round(x: f64, r: Option<Rounding>) -> f64 {
    match r {
        None | Some(Rounding::Zero) => x.trunc(),
        Some(Rounding::Nearest) => x.round_ties_even(),
        Some(Rounding::Down) => x.floor(),
        Some(Rounding::Up) => x.ceil(),
    }
}

/// `cvt.dst.src` of one value (PTX ISA §9.7.9.21): integer widening sign- or zero-extends by
/// the source type, narrowing truncates (or saturates with `.sat`), float→int rounds (toward
/// zero by default) and saturates, int→float and float→float convert.
pub fn convert(
    v: u64,
    dst: DataType,
    src: DataType,
    rounding: Option<Rounding>,
    integral: bool,
    sat: bool,
) -> u64 {
    use TypeKind::*;
    match (dst.kind, src.kind) {
        (Float, Float) => {
            let mut x = to_f64(v, src);
            if integral {
                x = round(x, rounding);
            }
            if sat {
                x = x.clamp(0.0, 1.0);
            }
            if dst.bits == 32 {
                (x as f32).to_bits() as u64
            } else {
                x.to_bits()
            }
        }
        (Float, _) => {
            let x = to_f64(v, src);
            if dst.bits == 32 {
                // Integer → f32 directly from the integer, to round once.
                let f = match src.kind {
                    Signed => sext(v, src.bits) as f32,
                    _ => trunc(v, src.bits) as f32,
                };
                f.to_bits() as u64
            } else {
                x.to_bits()
            }
        }
        (Signed, Float) => {
            let x = round(to_f64(v, src), rounding);
            let lo = -(2f64.powi(dst.bits as i32 - 1));
            let hi = 2f64.powi(dst.bits as i32 - 1) - 1.0;
            let y = if x.is_nan() { 0.0 } else { x.clamp(lo, hi) };
            trunc(y as i64 as u64, dst.bits)
        }
        (_, Float) => {
            let x = round(to_f64(v, src), rounding);
            let hi = 2f64.powi(dst.bits as i32) - 1.0;
            let y = if x.is_nan() { 0.0 } else { x.clamp(0.0, hi) };
            trunc(y as u64, dst.bits)
        }
        _ => {
            // Integer to integer.
            let wide: i128 = match src.kind {
                Signed => sext(v, src.bits) as i128,
                _ => trunc(v, src.bits) as i128,
            };
            if sat {
                let (lo, hi): (i128, i128) = match dst.kind {
                    Signed => (-(1i128 << (dst.bits - 1)), (1i128 << (dst.bits - 1)) - 1),
                    _ => (0, (1i128 << dst.bits) - 1),
                };
                trunc(wide.clamp(lo, hi) as u64, dst.bits)
            } else {
                trunc(wide as u64, dst.bits)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_ops_wrap_and_sign() {
        let add = binary(KBinOp::Add, DataType::S32).unwrap();
        assert_eq!(add(0xffff_ffff, 1), 0);
        let shr = binary(KBinOp::Shr, DataType::S32).unwrap();
        assert_eq!(shr(0xffff_fff0, 2), 0xffff_fffc);
        let wide = binary(KBinOp::MulWide, DataType::S32).unwrap();
        assert_eq!(wide(0xffff_ffff, 4) as i64, -4);
        let lt = compare(KCmp::Lt, DataType::S32).unwrap();
        assert!(lt(0xffff_ffff, 0));
        let ltu = compare(KCmp::Lt, DataType::U32).unwrap();
        assert!(!ltu(0xffff_ffff, 0));
        let div = binary(KBinOp::Div, DataType::U32).unwrap();
        assert_eq!(div(7, 0), 0xffff_ffff);
    }

    #[test]
    fn conversions() {
        assert_eq!(
            convert(
                0xffff_fffe,
                DataType::S64,
                DataType::S32,
                None,
                false,
                false
            ),
            (-2i64) as u64
        );
        assert_eq!(
            convert(
                0xffff_fffe,
                DataType::U64,
                DataType::U32,
                None,
                false,
                false
            ),
            0xffff_fffe
        );
        let f32t = DataType {
            kind: TypeKind::Float,
            bits: 32,
        };
        assert_eq!(
            convert(7, f32t, DataType::S32, None, false, false),
            7.0f32.to_bits() as u64
        );
        assert_eq!(
            convert(
                2.7f32.to_bits() as u64,
                DataType::S32,
                f32t,
                None,
                false,
                false
            ),
            2
        );
    }
}
