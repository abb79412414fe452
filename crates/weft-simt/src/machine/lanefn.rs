//! The lane functions of the fast register-only operations ([`FastBin`], [`FastMad`],
//! [`FastCmp`]), written once: each dispatcher matches the operation and hands its lane
//! function to a lane loop chosen by the caller ([`Loop2`], [`Loop3`]), so every
//! (operation, loop) pair is monomorphised with the arithmetic inlined. The general lane
//! loops (`regop`) and the per-shape handlers (`shape`) both go through them.

use weft_ir::kernel::KCmp;

use crate::decode::{FastBin, FastCmp, FastMad};

/// A lane loop over two operands: runs `f` on the lanes it stands for.
pub(super) trait Loop2 {
    fn run<F: Fn(u64, u64) -> u64>(self, f: F);
}

/// A lane loop over three operands.
pub(super) trait Loop3 {
    fn run<F: Fn(u64, u64, u64) -> u64>(self, f: F);
}

/// Runs `l` with the lane function of `op` (registers hold values zero-extended from their
/// type's width; results are cut to the destination's).
#[inline(always)]
pub(super) fn bin<L: Loop2>(op: FastBin, l: L) {
    match op {
        FastBin::Add32 => l.run(|x: u64, y: u64| (x as u32).wrapping_add(y as u32) as u64),
        FastBin::Add64 => l.run(|x: u64, y: u64| x.wrapping_add(y)),
        FastBin::Sub32 => l.run(|x: u64, y: u64| (x as u32).wrapping_sub(y as u32) as u64),
        FastBin::Sub64 => l.run(|x: u64, y: u64| x.wrapping_sub(y)),
        FastBin::Mul32 => l.run(|x: u64, y: u64| (x as u32).wrapping_mul(y as u32) as u64),
        FastBin::Mul64 => l.run(|x: u64, y: u64| x.wrapping_mul(y)),
        FastBin::And => l.run(|x: u64, y: u64| x & y),
        FastBin::Or => l.run(|x: u64, y: u64| x | y),
        FastBin::Xor => l.run(|x: u64, y: u64| x ^ y),
        FastBin::Shl32 => l.run(|x: u64, y: u64| {
            if y & 0xffff_ffff >= 32 {
                0
            } else {
                (x << (y & 31)) & 0xffff_ffff
            }
        }),
        FastBin::Shl64 => l.run(|x: u64, y: u64| if y as u32 >= 64 { 0 } else { x << (y as u32) }),
        FastBin::ShrU32 => l.run(|x: u64, y: u64| {
            if y & 0xffff_ffff >= 32 {
                0
            } else {
                (x & 0xffff_ffff) >> (y & 31)
            }
        }),
        FastBin::ShrS32 => {
            l.run(|x: u64, y: u64| ((x as u32 as i32) >> (y as u32).min(31)) as u32 as u64)
        }
        FastBin::ShrU64 => l.run(|x: u64, y: u64| if y as u32 >= 64 { 0 } else { x >> (y as u32) }),
        FastBin::ShrS64 => l.run(|x: u64, y: u64| ((x as i64) >> (y as u32).min(63)) as u64),
        FastBin::WideU32 => l.run(|x: u64, y: u64| (x as u32 as u64) * (y as u32 as u64)),
        FastBin::WideS32 => {
            l.run(|x: u64, y: u64| ((x as u32 as i32 as i64) * (y as u32 as i32 as i64)) as u64)
        }
        FastBin::MinS32 => {
            l.run(|x: u64, y: u64| (x as u32 as i32).min(y as u32 as i32) as u32 as u64)
        }
        FastBin::MaxS32 => {
            l.run(|x: u64, y: u64| (x as u32 as i32).max(y as u32 as i32) as u32 as u64)
        }
        FastBin::MinU32 => l.run(|x: u64, y: u64| (x as u32).min(y as u32) as u64),
        FastBin::MaxU32 => l.run(|x: u64, y: u64| (x as u32).max(y as u32) as u64),
        FastBin::AddF32 => l.run(|x: u64, y: u64| {
            (f32::from_bits(x as u32) + f32::from_bits(y as u32)).to_bits() as u64
        }),
        FastBin::SubF32 => l.run(|x: u64, y: u64| {
            (f32::from_bits(x as u32) - f32::from_bits(y as u32)).to_bits() as u64
        }),
        FastBin::MulF32 => l.run(|x: u64, y: u64| {
            (f32::from_bits(x as u32) * f32::from_bits(y as u32)).to_bits() as u64
        }),
        FastBin::AddF64 => {
            l.run(|x: u64, y: u64| (f64::from_bits(x) + f64::from_bits(y)).to_bits())
        }
        FastBin::SubF64 => {
            l.run(|x: u64, y: u64| (f64::from_bits(x) - f64::from_bits(y)).to_bits())
        }
        FastBin::MulF64 => {
            l.run(|x: u64, y: u64| (f64::from_bits(x) * f64::from_bits(y)).to_bits())
        }
    }
}

/// Runs `l` with the lane function of the fast `mad` form `op`.
#[inline(always)]
pub(super) fn mad<L: Loop3>(op: FastMad, l: L) {
    match op {
        FastMad::Lo32 => l.run(|x: u64, y: u64, z: u64| {
            (x as u32).wrapping_mul(y as u32).wrapping_add(z as u32) as u64
        }),
        FastMad::Lo64 => l.run(|x: u64, y: u64, z: u64| x.wrapping_mul(y).wrapping_add(z)),
        FastMad::WideU32 => {
            l.run(|x: u64, y: u64, z: u64| ((x as u32 as u64) * (y as u32 as u64)).wrapping_add(z))
        }
        FastMad::WideS32 => l.run(|x: u64, y: u64, z: u64| {
            (((x as u32 as i32 as i64) * (y as u32 as i32 as i64)) as u64).wrapping_add(z)
        }),
    }
}

/// Runs `l` with the lane function of the fast integer `setp` form `cmp` (1 or 0).
#[inline(always)]
pub(super) fn cmp<L: Loop2>(cmp: FastCmp, l: L) {
    // 32-bit classes: both operands mapped to values below 2^32 in the order of the type
    // (s32: sign bit flipped; u32/b32: as zero-extended), then compared by the sign of
    // their 64-bit difference, which cannot overflow; pure arithmetic, so the lane loop
    // vectorises.
    macro_rules! small {
        ($k:expr) => {{
            let k: u64 = $k;
            let m = move |x: u64| (x ^ k) & 0xffff_ffff;
            match cmp.cmp {
                KCmp::Eq => l.run(move |x: u64, y: u64| (m(x) ^ m(y)).wrapping_sub(1) >> 63),
                KCmp::Ne => l.run(move |x: u64, y: u64| ((m(x) ^ m(y)).wrapping_sub(1) >> 63) ^ 1),
                KCmp::Lt => l.run(move |x: u64, y: u64| m(x).wrapping_sub(m(y)) >> 63),
                KCmp::Le => l.run(move |x: u64, y: u64| (m(y).wrapping_sub(m(x)) >> 63) ^ 1),
                KCmp::Gt => l.run(move |x: u64, y: u64| m(y).wrapping_sub(m(x)) >> 63),
                _ => l.run(move |x: u64, y: u64| (m(x).wrapping_sub(m(y)) >> 63) ^ 1),
            }
        }};
    }
    macro_rules! wide {
        ($op:tt) => {
            if cmp.class == 2 {
                l.run(|x: u64, y: u64| u64::from((x as i64) $op (y as i64)))
            } else {
                l.run(|x: u64, y: u64| u64::from(x $op y))
            }
        };
    }
    match (cmp.class, cmp.cmp) {
        (0, _) => small!(0x8000_0000),
        (1, _) => small!(0),
        (_, KCmp::Eq) => wide!(==),
        (_, KCmp::Ne) => wide!(!=),
        (_, KCmp::Lt) => wide!(<),
        (_, KCmp::Le) => wide!(<=),
        (_, KCmp::Gt) => wide!(>),
        _ => wide!(>=),
    }
}
