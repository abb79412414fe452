//! Predicated memory instructions as branches (paper 003 §4.1: BARRACUDA rewrites a
//! predicated instruction into a branch around a plain one, so that divergence by predicate
//! is seen by the analysis).
//!
//! Compilers if-convert short `if`/`else` bodies: `if (c) A[o] = 1; else A[o] = 2;` can
//! become `@p st [A], 1; @!p st [A], 2;`. Run as plain instructions of a converged warp, the
//! two stores are ordered (ENDINSN joins the warp after each), so the branch-ordering race of
//! the source is lost. This module finds, statically, the *predicated regions*: maximal runs
//! of memory instructions guarded by one predicate register `p` (either polarity) with
//! nothing in between that ends the source branch. The detector then turns a region whose
//! guard splits the warp's active lanes into `if` (lanes of the first guard), `else` (at the
//! first instruction of the other polarity) and `fi` (when the region ends), exactly the
//! events a branch-and-reconverge version of the code produces.
//!
//! A region ends at: a branch target (another path joins), a branch, `exit`/`trap`, a
//! barrier, a fence, an unguarded memory instruction, a memory instruction guarded by
//! another register, and any instruction that mentions `p` outside a guard (it may redefine
//! the predicate; reads end it too, which only makes regions shorter). Ending a region
//! early can only lose a branch-ordering report (consecutive instructions are then
//! ordered), never invent one.

use weft_ir::code::Reg;
use weft_ir::kernel::{KOp, Kernel};

/// Whether `op` names register `r` anywhere (as a source or a destination: a read ends a
/// region too, which only makes it shorter).
fn mentions(op: &KOp, r: u32) -> bool {
    op.mentions(Reg(r))
}

/// The predicated-region structure of a kernel's code.
#[derive(Clone, Debug, Default)]
pub struct Regions {
    /// Per instruction: `(region, negated)` for a guarded memory instruction.
    pub at: Vec<Option<(u32, bool)>>,
}

fn is_memory(op: &KOp) -> bool {
    matches!(op, KOp::Ld { .. } | KOp::St { .. } | KOp::Atom { .. })
}

impl Regions {
    /// Finds the regions of `k` (see the module doc).
    pub fn of(k: &Kernel) -> Self {
        let n = k.code.len();
        let mut target = vec![false; n + 1];
        for ins in &k.code {
            if let KOp::Bra { target: t } = ins.op {
                if let Some(x) = target.get_mut(t as usize) {
                    *x = true;
                }
            }
        }
        let mut at = vec![None; n];
        // The open region: (id, predicate register).
        let mut open: Option<(u32, u32)> = None;
        let mut next_id = 0u32;
        for (pc, ins) in k.code.iter().enumerate() {
            if target[pc] {
                open = None;
            }
            let op = &ins.op;
            match (ins.guard, is_memory(op)) {
                (Some(g), true) => {
                    let r = g.reg.0;
                    let id = match open {
                        Some((id, or)) if or == r && !mentions(op, r) => id,
                        _ => {
                            next_id += 1;
                            next_id
                        }
                    };
                    at[pc] = Some((id, g.negated));
                    // An instruction that also writes `p` (e.g. a predicate result) ends it after.
                    open = if mentions(op, r) { None } else { Some((id, r)) };
                }
                (None, true) => open = None,
                _ => match op {
                    KOp::Bra { .. }
                    | KOp::Exit
                    | KOp::Trap
                    | KOp::Barrier { .. }
                    | KOp::Fence { .. } => open = None,
                    _ => {
                        if let Some((_, r)) = open {
                            if mentions(op, r) {
                                open = None;
                            }
                        }
                    }
                },
            }
        }
        Regions { at }
    }

    /// The region and polarity of instruction `pc`, if it is a guarded memory instruction.
    #[inline]
    pub fn get(&self, pc: u32) -> Option<(u32, bool)> {
        self.at.get(pc as usize).copied().flatten()
    }
}
