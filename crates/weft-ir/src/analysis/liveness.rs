//! Register liveness over a kernel's blocks: classic backward may-liveness (Aho et al.,
//! Dragon book §9.2.5), `in[b] = use[b] ∪ (out[b] \ def[b])`, where a guarded instruction
//! defines nothing (its guard may be false), and leaving the kernel keeps nothing live.
//! It can be restricted to a region (a loop body), with a given set live on every edge that
//! leaves the region.

use std::collections::BTreeSet;

use super::cfg::{BlockId, KCfg, LoopId};
use super::regs::RegSet;
use crate::kernel::Kernel;

impl KCfg {
    /// The registers block `b` reads before writing them, and those it certainly writes.
    pub fn use_def(&self, k: &Kernel, b: BlockId) -> (RegSet, RegSet) {
        let (mut u, mut d) = (RegSet::default(), RegSet::default());
        for i in &k.code[self.pcs(b)] {
            for r in i.uses() {
                if !d.contains(r.index()) {
                    u.insert(r.index());
                }
            }
            for r in i.must_defs() {
                d.insert(r.index());
            }
        }
        (u, d)
    }

    /// Live-in registers of every block of `region` (every block when `None`; blocks outside
    /// it get the empty set). An edge to a block outside the region carries `outside`.
    pub fn live_in(
        &self,
        k: &Kernel,
        region: Option<&BTreeSet<BlockId>>,
        outside: &RegSet,
    ) -> Vec<RegSet> {
        let nb = self.blocks.len();
        let members: Vec<BlockId> = match region {
            Some(r) => r.iter().copied().collect(),
            None => (0..nb).collect(),
        };
        let mut inside = vec![region.is_none(); nb];
        for &b in &members {
            inside[b] = true;
        }
        let ud: Vec<(BlockId, RegSet, RegSet)> = members
            .iter()
            .map(|&b| {
                let (u, d) = self.use_def(k, b);
                (b, u, d)
            })
            .collect();
        let mut live = vec![RegSet::default(); nb];
        let mut changed = true;
        while changed {
            changed = false;
            for (b, u, d) in ud.iter().rev() {
                let mut out = RegSet::default();
                for &(s, _) in &self.blocks[*b].succs {
                    if inside[s] {
                        out.union_with(&live[s]);
                    } else {
                        out.union_with(outside);
                    }
                }
                for r in d.iter() {
                    out.remove(r);
                }
                out.union_with(u);
                if out != live[*b] {
                    live[*b] = out;
                    changed = true;
                }
            }
        }
        live
    }

    /// Registers of `cands` whose value at loop `l`'s header is dead: every path from the
    /// header writes them (unguarded) before reading them, and no instruction outside the
    /// loop reads them. A thread outside the loop never observes such a register's value
    /// again (it can only read it after re-entering through the header).
    pub fn dead_at_header(
        &self,
        k: &Kernel,
        l: LoopId,
        cands: &BTreeSet<usize>,
    ) -> BTreeSet<usize> {
        let lp = &self.loops[l];
        let in_loop = self.pc_mask(&lp.blocks, k.code.len());
        let mut outside = RegSet::default();
        for (pc, i) in k.code.iter().enumerate() {
            if !in_loop[pc] {
                for r in i.uses() {
                    outside.insert(r.index());
                }
            }
        }
        let live = self.live_in(k, Some(&lp.blocks), &outside);
        let head = &live[lp.header];
        cands
            .iter()
            .copied()
            .filter(|&r| !head.contains(r) && !outside.contains(r))
            .collect()
    }
}
