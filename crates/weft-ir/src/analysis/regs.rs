//! Registers each kernel instruction reads and writes: the one uses/defs walker of the
//! workspace, over every [`KOp`] variant, and [`RegSet`], the register bitset the dataflow
//! analyses use.
//!
//! Order is part of the contract (engines build terms and report registers in it): an
//! instruction's uses are its guard, then its address base, then its register operands in
//! the order they are written; its defs are its destinations in the order written.

use crate::code::Reg;
use crate::kernel::{Addr, AddrBase, KInstr, KOp, Operand};

impl KOp {
    /// The value operands the operation reads, in the order written (the address of a memory
    /// operation is not among them: see [`KOp::addr`]).
    pub fn operands(&self) -> Vec<&Operand> {
        match self {
            KOp::Mov { src, .. } | KOp::Cvt { src, .. } | KOp::Cvta { src, .. } => vec![src],
            KOp::Unary { a, .. } => vec![a],
            KOp::Binary { a, b, .. } => vec![a, b],
            KOp::Mad { a, b, c, .. } | KOp::Shf { a, b, c, .. } => vec![a, b, c],
            KOp::Setp { a, b, combine, .. } => {
                let mut v = vec![a, b];
                v.extend(combine.iter().map(|(_, p, _)| p));
                v
            }
            KOp::Selp { a, b, pred, .. } => vec![a, b, pred],
            KOp::Bfe { a, pos, len, .. } => vec![a, pos, len],
            KOp::Bfi { a, b, pos, len, .. } => vec![a, b, pos, len],
            KOp::Prmt { a, b, sel, .. } => vec![a, b, sel],
            KOp::Ld { .. } => vec![],
            KOp::St { src, .. } => src.iter().collect(),
            KOp::Atom { args, .. } => args.iter().collect(),
            KOp::Barrier { id, count, red, .. } => {
                let mut v = vec![id];
                v.extend(count.iter());
                v.extend(red.iter().map(|(_, _, p, _)| p));
                v
            }
            KOp::Shfl { a, b, c, mask, .. } => vec![a, b, c, mask],
            KOp::Vote { pred, mask, .. } => vec![pred, mask],
            KOp::Match { a, mask, .. } => vec![a, mask],
            KOp::Annot { cond, .. } => vec![cond],
            KOp::Query { args, .. } | KOp::SysCall { args, .. } => args.iter().collect(),
            KOp::Activemask { .. }
            | KOp::Bra { .. }
            | KOp::Fence { .. }
            | KOp::Exit
            | KOp::Nop
            | KOp::Trap => vec![],
        }
    }

    /// The memory operand of a load, store or atomic.
    pub fn addr(&self) -> Option<&Addr> {
        match self {
            KOp::Ld { addr, .. } | KOp::St { addr, .. } | KOp::Atom { addr, .. } => Some(addr),
            _ => None,
        }
    }

    /// The registers the operation writes, in the order written (whether it runs is the
    /// guard's business: see [`KInstr::must_defs`]).
    pub fn defs(&self) -> Vec<Reg> {
        match self {
            KOp::Mov { dst, .. }
            | KOp::Unary { dst, .. }
            | KOp::Binary { dst, .. }
            | KOp::Mad { dst, .. }
            | KOp::Selp { dst, .. }
            | KOp::Cvt { dst, .. }
            | KOp::Cvta { dst, .. }
            | KOp::Bfe { dst, .. }
            | KOp::Bfi { dst, .. }
            | KOp::Shf { dst, .. }
            | KOp::Prmt { dst, .. }
            | KOp::Vote { dst, .. }
            | KOp::Query { dst, .. }
            | KOp::Activemask { dst } => vec![*dst],
            KOp::Setp { dst, dst2, .. } => {
                let mut v = vec![*dst];
                v.extend(*dst2);
                v
            }
            KOp::Shfl { dst, dst_pred, .. } | KOp::Match { dst, dst_pred, .. } => {
                let mut v = vec![*dst];
                v.extend(*dst_pred);
                v
            }
            KOp::Ld { dst, .. } => dst.iter().flatten().copied().collect(),
            KOp::Atom { dst, .. } | KOp::SysCall { dst, .. } => dst.iter().copied().collect(),
            KOp::Barrier { red, .. } => red.iter().map(|r| r.1).collect(),
            KOp::St { .. }
            | KOp::Fence { .. }
            | KOp::Bra { .. }
            | KOp::Exit
            | KOp::Annot { .. }
            | KOp::Nop
            | KOp::Trap => vec![],
        }
    }

    /// The registers the operation reads: its address base, then its register operands.
    pub fn uses(&self) -> Vec<Reg> {
        let mut v = Vec::new();
        if let Some(Addr {
            base: AddrBase::Reg(r),
            ..
        }) = self.addr()
        {
            v.push(*r);
        }
        for o in self.operands() {
            if let Operand::Reg(r) = o {
                v.push(*r);
            }
        }
        v
    }

    /// Whether the operation names `r` at all, as a source or a destination.
    pub fn mentions(&self, r: Reg) -> bool {
        self.uses().contains(&r) || self.defs().contains(&r)
    }
}

impl KInstr {
    /// The registers the instruction reads: its guard predicate, then [`KOp::uses`].
    pub fn uses(&self) -> Vec<Reg> {
        let mut v: Vec<Reg> = self.guard.iter().map(|g| g.reg).collect();
        v.extend(self.op.uses());
        v
    }

    /// The registers the instruction may write ([`KOp::defs`], guarded or not).
    pub fn defs(&self) -> Vec<Reg> {
        self.op.defs()
    }

    /// The registers the instruction certainly writes when reached: none when it is guarded
    /// (the guard may be false).
    pub fn must_defs(&self) -> Vec<Reg> {
        if self.guard.is_some() {
            Vec::new()
        } else {
            self.op.defs()
        }
    }
}

/// A set of registers (bitset by register index), iterated in ascending order.
#[derive(Clone, Debug, Default)]
pub struct RegSet {
    words: Vec<u64>,
}

impl PartialEq for RegSet {
    fn eq(&self, other: &RegSet) -> bool {
        let n = self.words.len().max(other.words.len());
        (0..n).all(|i| self.words.get(i).unwrap_or(&0) == other.words.get(i).unwrap_or(&0))
    }
}

impl Eq for RegSet {}

impl RegSet {
    /// The empty set, with room for `n` registers.
    pub fn with_capacity(n: usize) -> Self {
        RegSet {
            words: vec![0; n.div_ceil(64)],
        }
    }

    /// Adds register index `r`; whether it was new.
    pub fn insert(&mut self, r: usize) -> bool {
        let w = r / 64;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        let bit = 1u64 << (r % 64);
        let new = self.words[w] & bit == 0;
        self.words[w] |= bit;
        new
    }

    /// Removes register index `r`.
    pub fn remove(&mut self, r: usize) {
        if let Some(w) = self.words.get_mut(r / 64) {
            *w &= !(1u64 << (r % 64));
        }
    }

    /// Whether register index `r` is in the set.
    pub fn contains(&self, r: usize) -> bool {
        self.words
            .get(r / 64)
            .is_some_and(|w| w & (1u64 << (r % 64)) != 0)
    }

    /// Adds every member of `other`; whether the set grew.
    pub fn union_with(&mut self, other: &RegSet) -> bool {
        if other.words.len() > self.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        let mut grew = false;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            let v = *a | b;
            grew |= v != *a;
            *a = v;
        }
        grew
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    /// The members in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut b = w;
            std::iter::from_fn(move || {
                if b == 0 {
                    return None;
                }
                let t = b.trailing_zeros() as usize;
                b &= b - 1;
                Some(i * 64 + t)
            })
        })
    }
}

impl FromIterator<usize> for RegSet {
    fn from_iter<I: IntoIterator<Item = usize>>(it: I) -> Self {
        let mut s = RegSet::default();
        for r in it {
            s.insert(r);
        }
        s
    }
}
