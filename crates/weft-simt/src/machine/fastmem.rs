//! The per-warp fast path of untraced scalar loads and stores: every executing lane's
//! address is routed and bounds-checked first, for the warp as a whole; when all of them
//! fall inside one memory (global, the CTA's shared memory, or the param space for loads),
//! the lanes are read or written without per-lane routing, and a full warp reading
//! consecutive elements is read as one contiguous block. Anything else (a fault, local
//! memory, lanes in different memories, a misaligned lane, a vector access) takes the
//! lane-by-lane path of `step`, which reports faults; the result is the same either way.
//! A traced access taken here has its events emitted afterwards, per warp
//! (`trace::emit_lanes`: the same events in the same order as lane by lane). Under a parallel job's access tracking the fast path
//! records what it accessed ([`Rec`]): a contiguous block of a full warp or of an unbroken
//! lane range as one run, otherwise lane by lane.

// The lane loops (`for_lanes!`) index several per-lane arrays by the lane number.
#![allow(clippy::needless_range_loop)]

use weft_ir::attrs::MemSpace;

use super::parallel::Track;
use super::{FULL, WARP};
use crate::decode::DAddr;
use crate::mem::{resolve_generic, Region, GLOBAL_BASE};

/// The memories an access may be routed to, for the executing warp.
pub(super) struct Mems<'m> {
    pub global: &'m mut [u8],
    pub shared: &'m mut [u8],
    pub param: &'m [u8],
}

/// A parallel job's record and who is accessing: (record, CTA linear index, slot, warp in
/// the CTA).
pub(super) type Rec<'t> = Option<(&'t mut Track, u64, usize, u32)>;

/// Records the warp's accesses (`off` of the lanes of `em`, `width` bytes each) in a
/// parallel job's record: one block when a full warp or an unbroken lane range reads or
/// writes consecutive elements ([`lane_block`]), lane by lane otherwise.
#[inline(always)]
fn record(rec: Rec<'_>, region: Region, off: &[u64; WARP], em: u32, width: usize, write: bool) {
    let Some((tr, cta, slot, warp)) = rec else {
        return;
    };
    if region == Region::Param {
        return;
    }
    if em == FULL && consecutive(off, width as u64) {
        tr.block(
            region,
            off[0],
            (width * WARP) as u64,
            cta,
            slot,
            warp,
            write,
        );
    } else if let Some((first, len)) = lane_block(off, em, width as u64) {
        tr.block(region, first, len, cta, slot, warp, write);
    } else {
        for_lanes!(em, l, {
            tr.access(region, off[l], width, cta, slot, warp, !write, write);
        });
    }
}

/// For lanes `em` that are one unbroken range `lo..hi` (a warp's first threads, `tid < s`)
/// accessing consecutive elements of `width` bytes from lane `lo`'s offset: the block
/// `(start, bytes)` they cover, which the record takes as one run (the same words as lane
/// by lane).
#[inline(always)]
fn lane_block(off: &[u64; WARP], em: u32, width: u64) -> Option<(u64, u64)> {
    let lo = em.trailing_zeros();
    let n = em.count_ones();
    if n < 2 || (em >> lo) != u32::MAX >> (32 - n) {
        return None;
    }
    let first = off[lo as usize];
    let mut diff = 0u64;
    for k in 1..n as usize {
        diff |= off[lo as usize + k] ^ first.wrapping_add(k as u64 * width);
    }
    (diff == 0).then_some((first, u64::from(n) * width))
}

/// The length of the memory a fast access may be routed to (`None`: local memory, which
/// the fast path leaves to `step`).
#[inline(always)]
fn region_len(region: Region, mems: &Mems<'_>) -> Option<u64> {
    Some(match region {
        Region::Global => mems.global.len(),
        Region::Shared => mems.shared.len(),
        Region::Param => mems.param.len(),
        Region::Local => return None,
    } as u64)
}

/// `l * b` for each lane `l`, for elements of `b` = 1, 2, 4 and 8 bytes (indexed by
/// `log2 b`): the lane loops add a row of these instead of multiplying, which vectorises.
static LANE_STEPS: [[u64; WARP]; 4] = [steps(1), steps(2), steps(4), steps(8)];

const fn steps(b: u64) -> [u64; WARP] {
    let mut s = [0u64; WARP];
    let mut l = 0;
    while l < WARP {
        s[l] = l as u64 * b;
        l += 1;
    }
    s
}

/// [`warp_offsets`] for the two common shapes, checked at one or two addresses instead of
/// lane by lane: one address for every lane (no base register: a parameter or a variable),
/// and a full warp whose base registers are consecutive elements of `bytes` bytes (the
/// addresses then increase by `bytes` from the first lane's, each with its alignment, and
/// lie in one memory exactly when the first and the last do). Generic addresses are left to
/// the general check. `None`: not one of these shapes, or one that faults (the general
/// check then decides); `Some((region, contiguous))` with `off` filled in otherwise.
#[inline(always)]
fn warp_offsets_shaped(
    space: MemSpace,
    addr: DAddr,
    regs: &[u64],
    em: u32,
    bytes: usize,
    mems: &Mems<'_>,
    off: &mut [u64; WARP],
) -> Option<(Region, bool)> {
    if !matches!(bytes, 1 | 2 | 4 | 8) {
        return None;
    }
    let b = bytes as u64;
    let step = &LANE_STEPS[b.trailing_zeros() as usize];
    let (first, contiguous) = match addr.base {
        None => (addr.off as u64, false),
        Some(r) if em == FULL => {
            let base: &[u64; WARP] = regs[r as usize * WARP..(r as usize + 1) * WARP]
                .try_into()
                .expect("register");
            let mut diff = 0u64;
            for l in 0..WARP {
                diff |= base[l] ^ base[0].wrapping_add(step[l]);
            }
            if diff != 0 {
                return None;
            }
            (base[0].wrapping_add(addr.off as u64), true)
        }
        Some(_) => return None,
    };
    let span = if contiguous { b * WARP as u64 } else { b };
    if space != MemSpace::Param && first & (b - 1) != 0 {
        return None;
    }
    let (region, o) = match space {
        MemSpace::Global | MemSpace::Constant => (Region::Global, first.checked_sub(GLOBAL_BASE)?),
        MemSpace::Shared => (Region::Shared, first),
        MemSpace::Param => (Region::Param, first),
        MemSpace::Generic | MemSpace::Local => return None,
    };
    // Every byte of the span inside the memory (no wrap-around).
    if o.checked_add(span)? > region_len(region, mems)? {
        return None;
    }
    if contiguous {
        for l in 0..WARP {
            off[l] = o + step[l];
        }
    } else {
        *off = [o; WARP];
    }
    Some((region, contiguous))
}

/// The offset of each lane of `em` when every one of them routes to the same memory (not
/// local memory) and `bytes` bytes at it lie inside that memory, and whether the offsets
/// are known to be a full warp's consecutive elements of `bytes` bytes. Lanes outside `em`
/// are 0, or the uniform offset when there is no base register.
#[inline(always)]
fn warp_offsets(
    space: MemSpace,
    addr: DAddr,
    regs: &[u64],
    em: u32,
    bytes: usize,
    mems: &Mems<'_>,
    off: &mut [u64; WARP],
) -> Option<(Region, bool)> {
    if let Some(r) = warp_offsets_shaped(space, addr, regs, em, bytes, mems, off) {
        return Some(r);
    }
    let base: [u64; WARP] = match addr.base {
        Some(r) => regs[r as usize * WARP..(r as usize + 1) * WARP]
            .try_into()
            .expect("register"),
        None => [0; WARP],
    };
    let lane_addr = |l: usize| base[l].wrapping_add(addr.off as u64);
    // A misaligned lane faults: `step`'s lane-by-lane path reports it.
    if space != MemSpace::Param && bytes > 1 {
        let mut low = 0u64;
        for_lanes!(em, l, {
            low |= lane_addr(l) & (bytes as u64 - 1);
        });
        if low != 0 {
            return None;
        }
    }
    let region = match space {
        MemSpace::Global | MemSpace::Constant => {
            let mut bad = false;
            for_lanes!(em, l, {
                let a = lane_addr(l);
                bad |= a < GLOBAL_BASE;
                off[l] = a.wrapping_sub(GLOBAL_BASE);
            });
            if bad {
                return None;
            }
            Region::Global
        }
        MemSpace::Shared => {
            for_lanes!(em, l, {
                off[l] = lane_addr(l);
            });
            Region::Shared
        }
        MemSpace::Param => {
            for_lanes!(em, l, {
                off[l] = lane_addr(l);
            });
            Region::Param
        }
        MemSpace::Generic => {
            let first = resolve_generic(lane_addr(em.trailing_zeros() as usize))?.0;
            let mut same = true;
            for_lanes!(em, l, {
                match resolve_generic(lane_addr(l)) {
                    Some((r, o)) if r == first => off[l] = o,
                    _ => same = false,
                }
            });
            if !same {
                return None;
            }
            first
        }
        MemSpace::Local => return None,
    };
    let limit = region_len(region, mems)?.checked_sub(bytes as u64)?;
    // `off > limit` without 64-bit unsigned comparisons (which the lane loop could not
    // vectorise): with `limit` below 2^63 (a slice length), `limit - off` wraps to a value
    // with the top bit set exactly when `off > limit` and `off < 2^63`; offsets of 2^63 and
    // above have the top bit set themselves.
    let mut out = 0u64;
    for_lanes!(em, l, {
        out |= limit.wrapping_sub(off[l]) | off[l];
    });
    (out >> 63 == 0).then_some((region, false))
}

/// Whether the 32 lanes' offsets are consecutive elements of `width` bytes.
#[inline(always)]
fn consecutive(off: &[u64; WARP], width: u64) -> bool {
    // Differences or-ed together: vectorises without 64-bit lane comparisons.
    let mut diff = 0u64;
    for (l, &o) in off.iter().enumerate() {
        diff |= o ^ off[0].wrapping_add(l as u64 * width);
    }
    diff == 0
}

/// Loads `width` bytes at each lane's address into register `dst` (sign-extended when
/// `sext`, truncated to `dst_bits`) when the warp's addresses allow the fast path; `false`
/// (nothing done) otherwise.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn load(
    space: MemSpace,
    width: usize,
    sext: bool,
    dst: u32,
    dst_bits: u16,
    addr: DAddr,
    regs: &mut [u64],
    em: u32,
    mems: &Mems<'_>,
    rec: Rec<'_>,
) -> bool {
    let mut off = [0u64; WARP];
    let Some((region, contiguous)) = warp_offsets(space, addr, regs, em, width, mems, &mut off)
    else {
        return false;
    };
    if !matches!(width, 1 | 2 | 4 | 8) {
        return false;
    }
    record(rec, region, &off, em, width, false);
    let m: &[u8] = match region {
        Region::Global => mems.global,
        Region::Shared => mems.shared,
        _ => mems.param,
    };
    let d = &mut regs[dst as usize * WARP..dst as usize * WARP + WARP];
    // Sign extension from the access width, then truncation to the register's width.
    let shift = 64 - (width as u32 * 8).min(64);
    let keep = if dst_bits >= 64 {
        u64::MAX
    } else {
        (1u64 << dst_bits) - 1
    };
    macro_rules! fix {
        ($v:expr, $sext:expr) => {
            if $sext {
                ((($v << shift) as i64 >> shift) as u64) & keep
            } else {
                $v & keep
            }
        };
    }
    macro_rules! read {
        ($w:literal, $t:ty, $sext:expr) => {{
            if addr.base.is_none() {
                // One address for the whole warp (a parameter or a variable).
                let o = off[em.trailing_zeros() as usize] as usize;
                let v = <$t>::from_le_bytes(m[o..o + $w].try_into().expect("width")) as u64;
                let v = fix!(v, $sext);
                for_lanes!(em, l, {
                    d[l] = v;
                });
            } else if contiguous || (em == FULL && consecutive(&off, $w)) {
                let o = off[0] as usize;
                let block = &m[o..o + $w * WARP];
                for (l, c) in block.chunks_exact($w).enumerate() {
                    let v = <$t>::from_le_bytes(c.try_into().expect("width")) as u64;
                    d[l] = fix!(v, $sext);
                }
            } else {
                for_lanes!(em, l, {
                    let o = off[l] as usize;
                    let v = <$t>::from_le_bytes(m[o..o + $w].try_into().expect("width")) as u64;
                    d[l] = fix!(v, $sext);
                });
            }
        }};
    }
    macro_rules! lanes {
        ($w:literal, $t:ty) => {{
            if sext {
                read!($w, $t, true)
            } else {
                read!($w, $t, false)
            }
        }};
    }
    match width {
        1 => lanes!(1, u8),
        2 => lanes!(2, u16),
        4 => lanes!(4, u32),
        8 => lanes!(8, u64),
        _ => return false,
    }
    true
}

/// Stores the low `width` bytes of each lane's value (`vals`) at its address, lanes in
/// increasing order, when the warp's addresses allow the fast path (global or shared
/// memory); `false` (nothing done) otherwise.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn store(
    space: MemSpace,
    width: usize,
    addr: DAddr,
    regs: &[u64],
    vals: &[u64; WARP],
    em: u32,
    mems: &mut Mems<'_>,
    rec: Rec<'_>,
) -> bool {
    let mut off = [0u64; WARP];
    let Some((region, contiguous)) = warp_offsets(space, addr, regs, em, width, mems, &mut off)
    else {
        return false;
    };
    if !matches!(width, 1 | 2 | 4 | 8) {
        return false;
    }
    let m: &mut [u8] = match region {
        Region::Global => mems.global,
        Region::Shared => mems.shared,
        _ => return false,
    };
    record(rec, region, &off, em, width, true);
    macro_rules! lanes {
        ($w:literal, $t:ty) => {{
            if contiguous || (em == FULL && consecutive(&off, $w)) {
                let o = off[0] as usize;
                let block = &mut m[o..o + $w * WARP];
                for (l, c) in block.chunks_exact_mut($w).enumerate() {
                    c.copy_from_slice(&(vals[l] as $t).to_le_bytes());
                }
            } else {
                for_lanes!(em, l, {
                    let o = off[l] as usize;
                    m[o..o + $w].copy_from_slice(&(vals[l] as $t).to_le_bytes());
                });
            }
        }};
    }
    match width {
        1 => lanes!(1, u8),
        2 => lanes!(2, u16),
        4 => lanes!(4, u32),
        8 => lanes!(8, u64),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4-byte global load takes the fast path exactly when every executing lane's
    /// access lies inside the 64-byte arena: at offset 60 it does, at 61, just past the
    /// end, at 2^63 and at the top of the address space it does not (the lane-by-lane path
    /// then reports the fault).
    #[test]
    fn lane_block_only_for_an_unbroken_range_of_consecutive_elements() {
        let off: [u64; WARP] = std::array::from_fn(|l| 100 + 4 * l as u64);
        // Lanes 0-15 (`tid < 16`), lanes 3-5, all 32 lanes.
        assert_eq!(lane_block(&off, 0xffff, 4), Some((100, 64)));
        assert_eq!(lane_block(&off, 0b111000, 4), Some((112, 12)));
        assert_eq!(lane_block(&off, FULL, 4), Some((100, 128)));
        // A gap in the mask, one lane, a stride of two elements.
        assert_eq!(lane_block(&off, 0b1011, 4), None);
        assert_eq!(lane_block(&off, 0b100, 4), None);
        assert_eq!(lane_block(&off, 0b11, 2), None);
    }

    #[test]
    fn bounds_check_at_the_edges() {
        let mut global = [7u8; 64];
        let mut shared = [0u8; 0];
        let param = [0u8; 0];
        let addr = DAddr {
            base: Some(0),
            off: 0,
        };
        for (last, fast) in [
            (60u64, true),
            (61, false),
            (64, false),
            (1 << 63, false),
            (u64::MAX - GLOBAL_BASE, false),
        ] {
            let mut regs = vec![0u64; 2 * WARP];
            for l in 0..WARP {
                regs[l] = GLOBAL_BASE + if l == 5 { last } else { 4 * (l as u64 % 16) };
            }
            let mems = Mems {
                global: &mut global[..],
                shared: &mut shared[..],
                param: &param[..],
            };
            let got = load(
                MemSpace::Global,
                4,
                false,
                1,
                32,
                addr,
                &mut regs,
                FULL,
                &mems,
                None,
            );
            assert_eq!(got, fast, "lane 5 at offset {last:#x}");
            if fast {
                assert_eq!(regs[WARP + 5], 0x0707_0707);
            }
            // Lane 5 not executing: the others are all inside.
            let got = load(
                MemSpace::Global,
                4,
                false,
                1,
                32,
                addr,
                &mut regs,
                !(1 << 5),
                &mems,
                None,
            );
            assert!(got);
        }
    }
    /// The shaped checks (a full warp of consecutive elements, one address for the whole
    /// warp) take the fast path exactly when every lane's bytes lie inside the arena and are
    /// aligned: a warp block ending at the arena's last byte does, one 4 bytes further, one
    /// misaligned by 2 and one wrapping around the address space do not; a uniform address
    /// at the last word does, one byte further or misaligned does not. Loaded values are
    /// the arena's.
    #[test]
    fn shaped_checks_at_the_edges() {
        let mut global: Vec<u8> = (0..132u32).map(|i| i as u8).collect();
        let mut shared = [0u8; 0];
        let param = [0u8; 0];
        let bytes = global.clone();
        let word = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap()) as u64;
        let want: Vec<u64> = (0..WARP).map(|l| word(4 + 4 * l)).collect();
        let based = DAddr {
            base: Some(0),
            off: 0,
        };
        for (first, fast) in [
            (GLOBAL_BASE + 4, true),
            (GLOBAL_BASE + 8, false),
            (GLOBAL_BASE + 2, false),
            (GLOBAL_BASE - 4, false),
            (u64::MAX - 63, false),
        ] {
            let mut regs = vec![0u64; 2 * WARP];
            for l in 0..WARP {
                regs[l] = first.wrapping_add(4 * l as u64);
            }
            let mems = Mems {
                global: &mut global.clone()[..],
                shared: &mut shared[..],
                param: &param[..],
            };
            let got = load(
                MemSpace::Global,
                4,
                false,
                1,
                32,
                based,
                &mut regs,
                FULL,
                &mems,
                None,
            );
            assert_eq!(got, fast, "block from {first:#x}");
            if fast {
                assert_eq!(&regs[WARP..], &want[..]);
            }
        }
        for (off, fast) in [(128u64, true), (129, false), (126, false), (0, true)] {
            let mut regs = vec![0u64; 2 * WARP];
            let uniform = DAddr {
                base: None,
                off: (GLOBAL_BASE + off) as i64,
            };
            let mems = Mems {
                global: &mut global[..],
                shared: &mut shared[..],
                param: &param[..],
            };
            let got = load(
                MemSpace::Global,
                4,
                false,
                1,
                32,
                uniform,
                &mut regs,
                0x8000_0001,
                &mems,
                None,
            );
            assert_eq!(got, fast, "uniform at {off}");
            if fast {
                let v = word(off as usize);
                assert_eq!((regs[WARP], regs[WARP + 31], regs[WARP + 1]), (v, v, 0));
            }
        }
    }
}
