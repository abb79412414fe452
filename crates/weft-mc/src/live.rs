//! The watched points of a kernel for the spin-loop check (paper 004 §4, loops: a
//! side-effect-free iteration is an `assume`) and the registers live there: two visits of a
//! branch target are the same state when the registers live there and the local memory
//! agree, whatever dead registers (a loaded value overwritten before its next use) hold.
//! Every loop passes a branch target on each iteration (its head, or where a rotated loop is
//! entered), so watching them finds every spin.
//!
//! Liveness is weft-ir's ([`weft_ir::analysis::KCfg::live_in`]: backward may-liveness over
//! the kernel's blocks, a guarded instruction defining nothing); a branch target always
//! starts a block, so its live registers are its block's live-in set.

use weft_ir::analysis::{KCfg, RegSet};
use weft_ir::kernel::{KOp, Kernel};

/// The watched points of a kernel (branch targets: every loop head among them) and the
/// registers live there.
pub struct LoopHeads {
    /// Per pc: whether it is a branch target.
    pub is_head: Vec<bool>,
    /// Per pc: the live registers there (empty for pcs not watched).
    live: Vec<Vec<u32>>,
}

impl LoopHeads {
    pub fn of(k: &Kernel) -> Self {
        let n = k.code.len();
        let mut is_head = vec![false; n];
        for ins in &k.code {
            if let KOp::Bra { target } = ins.op {
                if (target as usize) < n {
                    is_head[target as usize] = true;
                }
            }
        }
        let mut live = vec![Vec::new(); n];
        if is_head.iter().any(|h| *h) {
            let cfg = KCfg::new(k);
            let sets = cfg.live_in(k, None, &RegSet::default());
            for (pc, h) in is_head.iter().enumerate() {
                if *h {
                    live[pc] = sets[cfg.block_of[pc]].iter().map(|r| r as u32).collect();
                }
            }
        }
        LoopHeads { is_head, live }
    }

    /// The registers live at watched point `pc`.
    pub fn live_at(&self, pc: u32) -> &[u32] {
        self.live.get(pc as usize).map_or(&[], |v| v.as_slice())
    }
}
