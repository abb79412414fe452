//! Which loops of a kernel terminate by themselves: a loop whose exits are decided by
//! registers that no memory read feeds (kernel parameters, constants, the launch geometry
//! and thread ids, and arithmetic on them) runs the same iterations in every execution,
//! so the kernel explorer runs it to its end instead of cutting it at `--unroll` (issue 28:
//! a `for (i = 0; i < global_size; i++)` loop cut at the default bound left no complete
//! execution). Loops whose exits read memory (spin loops, data-dependent loops) keep the
//! spin-assume and `--unroll` treatment.
//!
//! The analysis is flow-insensitive over the PTX registers: a register is *memory-fed* when
//! some instruction defining it reads memory (a load from any space but `.param` and
//! `.const`, an atomic, a warp exchange, a barrier reduction), uses a memory-fed register,
//! or runs under a memory-fed guard; iterated to a fixpoint.

use weft_ir::attrs::MemSpace;
use weft_ir::kernel::{KOp, Kernel};

/// Per register: whether a memory read may feed it.
pub fn memory_fed(k: &Kernel) -> Vec<bool> {
    let mut fed = vec![false; k.regs.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for ins in &k.code {
            let u: Vec<usize> = ins.op.uses().iter().map(|r| r.index()).collect();
            let d: Vec<usize> = ins.op.defs().iter().map(|r| r.index()).collect();
            if d.is_empty() {
                continue;
            }
            let reads_memory = match &ins.op {
                KOp::Ld { attrs, .. } => !matches!(
                    attrs.space,
                    Some(MemSpace::Param) | Some(MemSpace::Constant)
                ),
                KOp::Atom { .. }
                | KOp::Shfl { .. }
                | KOp::Vote { .. }
                | KOp::Match { .. }
                | KOp::Barrier { .. } => true,
                _ => false,
            };
            let guard_fed = ins
                .guard
                .is_some_and(|g| fed.get(g.reg.index()).copied().unwrap_or(true));
            let src_fed =
                reads_memory || guard_fed || u.iter().any(|&r| fed.get(r).copied().unwrap_or(true));
            if src_fed {
                for &r in &d {
                    if let Some(f) = fed.get_mut(r) {
                        if !*f {
                            *f = true;
                            changed = true;
                        }
                    }
                }
            }
        }
    }
    fed
}

/// Per pc: for a backward branch (`bra` to a target at or before it), whether the loop it
/// closes terminates by itself: the branch's guard and the guard of every branch that
/// leaves the loop (its pcs `target..=pc`) are not memory-fed. Other pcs: `false`.
pub fn self_bounded(k: &Kernel) -> Vec<bool> {
    let fed = memory_fed(k);
    let fed_guard = |pc: usize| {
        k.code[pc]
            .guard
            .is_some_and(|g| fed.get(g.reg.index()).copied().unwrap_or(true))
    };
    let mut out = vec![false; k.code.len()];
    for (pc, ins) in k.code.iter().enumerate() {
        let KOp::Bra { target } = ins.op else {
            continue;
        };
        let head = target as usize;
        if head > pc {
            continue;
        }
        let exits_fixed = (head..=pc).all(|i| match k.code[i].op {
            KOp::Bra { target: t } => {
                let leaves = (t as usize) < head || (t as usize) > pc;
                !((leaves || i == pc) && fed_guard(i))
            }
            _ => true,
        });
        out[pc] = exits_fixed;
    }
    out
}
