//! Warp collectives: the lane semantics of `shfl.sync`, `match.sync` and `vote.sync`, and
//! the member lanes a `.sync` operation names that do not execute it.

use weft_ir::kernel::{MatchMode, ShflMode, SpecialReg, VoteMode};

use super::regop::rv;
use super::WARP;
use crate::decode::Src;

/// `shfl.sync` (PTX ISA §9.7.8.6): the lane `lane` reads from, given its lane operand `b`
/// and its packed clamp/segment operand `c`, and whether that lane is in range (otherwise
/// the lane keeps its own value and its predicate is false).
pub fn shfl_source(mode: ShflMode, lane: usize, b: u64, c: u64) -> (usize, bool) {
    let bv = (b & 0x1f) as usize;
    let clamp = (c & 0x1f) as usize;
    let seg = ((c >> 8) & 0x1f) as usize;
    let max_lane = (lane & seg) | (clamp & !seg);
    let min_lane = lane & seg;
    let (j, ok) = match mode {
        ShflMode::Up => {
            let j = lane as isize - bv as isize;
            (j, j >= max_lane as isize)
        }
        ShflMode::Down => {
            let j = (lane + bv) as isize;
            (j, j <= max_lane as isize)
        }
        ShflMode::Bfly => {
            let j = (lane ^ bv) as isize;
            (j, j <= max_lane as isize)
        }
        ShflMode::Idx => {
            let j = (min_lane | (bv & !seg)) as isize;
            (j, j <= max_lane as isize)
        }
    };
    if ok {
        (j as usize, true)
    } else {
        (lane, false)
    }
}

/// `match.sync` (PTX ISA, `__match_any_sync`/`__match_all_sync`): lane `lane`'s
/// result and predicate given every member lane's value (`value(l)`, compared on `bits`
/// bits): `.any` gives the members whose value equals this lane's; `.all` gives the member
/// mask and true when every member has the same value, else 0 and false.
pub fn match_value(
    mode: MatchMode,
    bits: u16,
    members: u32,
    lane: usize,
    value: impl Fn(usize) -> u64,
) -> (u64, bool) {
    let cut = |v: u64| if bits >= 64 { v } else { v & 0xffff_ffff };
    let mine = cut(value(lane));
    let same = (0..WARP)
        .filter(|&l| members & (1 << l) != 0 && cut(value(l)) == mine)
        .fold(0u32, |m, l| m | 1 << l);
    match mode {
        MatchMode::Any => (u64::from(same), true),
        MatchMode::All if same == members => (u64::from(members), true),
        MatchMode::All => (0, false),
    }
}

/// `vote.sync` (PTX ISA §9.7.8.7): the result given the ballot of the voting lanes
/// (`members`: the lanes taking part).
pub fn vote_value(mode: VoteMode, ballot: u32, members: u32) -> u64 {
    match mode {
        VoteMode::Ballot => u64::from(ballot),
        VoteMode::All => u64::from(ballot == members),
        VoteMode::Any => u64::from(ballot != 0),
        VoteMode::Uni => u64::from(ballot == members || ballot == 0),
    }
}

/// Live lanes named in the member mask of a `shfl.sync`/`vote.sync` that are not active.
pub(super) fn member_gap(
    regs: &[u64],
    mask: Src,
    em: u32,
    live: u32,
    sp: &dyn Fn(SpecialReg, usize) -> u64,
) -> u32 {
    if em == 0 {
        return 0;
    }
    let l0 = em.trailing_zeros() as usize;
    (rv(regs, mask, l0, &sp) as u32) & live & !em
}

#[cfg(test)]
mod tests {
    use weft_ir::kernel::MatchMode;

    #[test]
    fn match_sync_values() {
        // Hand-derived from PTX's match.sync: lanes 0..3 hold 7, 9, 7, 7 (members 0..3).
        let v = [7u64, 9, 7, 7];
        let m = |mode, lane, members| super::match_value(mode, 32, members, lane, |l| v[l]);
        assert_eq!(m(MatchMode::Any, 0, 0xf), (0b1101, true));
        assert_eq!(m(MatchMode::Any, 1, 0xf), (0b0010, true));
        assert_eq!(m(MatchMode::All, 2, 0xf), (0, false));
        // Without lane 1 every member holds 7.
        assert_eq!(m(MatchMode::All, 2, 0b1101), (0b1101, true));
        // .b32 compares the low 32 bits only; .b64 all of them.
        let w = [1u64 << 32 | 5, 5];
        let b = |bits| super::match_value(MatchMode::All, bits, 0b11, 0, |l| w[l]);
        assert_eq!(b(32), (0b11, true));
        assert_eq!(b(64), (0, false));
    }
}
