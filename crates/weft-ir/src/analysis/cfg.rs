//! The control-flow graph of a kernel: basic blocks of the flat code, their successors
//! (with the guard that selects each edge) and predecessors, the reverse post-order from the
//! entry, and the construction of the whole analysis ([`KCfg::new`]): dominators and
//! post-dominators (`dom.rs`) and natural loops (`loops.rs`) are computed with it.
//!
//! Leaving the kernel (`exit`, `trap`, a branch to the end, falling off the last
//! instruction) is not an edge to a block: [`Block::exits`] says a block may leave, and the
//! post-dominator analysis adds one virtual exit node for it.

use std::collections::{BTreeSet, HashMap};

use crate::kernel::{KGuard, KOp, Kernel};

use super::loops::Loop;

/// An instruction index in [`Kernel::code`].
pub type Pc = usize;
/// A block index in [`KCfg::blocks`].
pub type BlockId = usize;
/// A loop index in [`KCfg::loops`].
pub type LoopId = usize;

/// When an edge is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeCond {
    Always,
    /// The guard holds (`@p bra`) or does not (`@!p bra`), as written.
    Guard(KGuard),
    /// The guard does not hold (fall-through of a guarded branch/exit).
    NotGuard(KGuard),
}

/// A basic block: instructions `start..end`; only the last may be a branch, `exit` or `trap`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub start: Pc,
    pub end: Pc,
    /// Successor blocks in the kernel, in order (branch target first, then fall-through).
    pub succs: Vec<(BlockId, EdgeCond)>,
    /// Predecessor blocks (reachable from the entry or not), in block order.
    pub preds: Vec<BlockId>,
    /// Whether control may leave the kernel at the end of this block.
    pub exits: bool,
}

/// The analysed control-flow graph of a kernel.
#[derive(Clone, Debug)]
pub struct KCfg {
    pub blocks: Vec<Block>,
    /// Block of each instruction.
    pub block_of: Vec<BlockId>,
    /// Blocks reachable from the entry (block 0), in reverse post-order of a depth-first
    /// search that follows successors in order.
    pub rpo: Vec<BlockId>,
    /// Immediate dominator of each reachable block (the entry's is itself), `None` for blocks
    /// the entry does not reach.
    pub idom: Vec<Option<BlockId>>,
    /// Immediate post-dominator of each block (`None`: the virtual exit, or a block that
    /// cannot reach the exit).
    pub ipdom: Vec<Option<BlockId>>,
    /// Whether each block can reach the virtual exit.
    pub reaches_exit: Vec<bool>,
    /// Natural loops, innermost first (ordered by size, then header).
    pub loops: Vec<Loop>,
    /// Loop whose header is this block.
    pub loop_at: HashMap<BlockId, LoopId>,
    /// Top-level loops.
    pub roots: Vec<LoopId>,
    /// The first instruction a retreating edge that is not a back edge enters (the graph is
    /// irreducible there; its loops are not in [`KCfg::loops`]).
    pub irreducible: Option<Pc>,
}

impl KCfg {
    /// Analyses `k`'s control flow. Never fails: branch targets past the end leave the
    /// kernel, and an irreducible graph is reported in [`KCfg::irreducible`].
    pub fn new(k: &Kernel) -> KCfg {
        let (blocks, block_of) = build_blocks(k);
        let rpo = reverse_post_order(&blocks);
        let idom = super::dom::dominators(&blocks, &rpo);
        let (ipdom, reaches_exit) = super::dom::post_dominators(&blocks);
        let mut cfg = KCfg {
            blocks,
            block_of,
            rpo,
            idom,
            ipdom,
            reaches_exit,
            loops: Vec::new(),
            loop_at: HashMap::new(),
            roots: Vec::new(),
            irreducible: None,
        };
        super::loops::find_loops(&mut cfg);
        cfg
    }

    /// Whether `b` is reachable from the entry.
    pub fn reachable(&self, b: BlockId) -> bool {
        self.idom.get(b).is_some_and(|d| d.is_some())
    }

    /// Whether block `a` dominates block `b` (every path from the entry to `b` passes `a`).
    pub fn dominates(&self, a: BlockId, mut b: BlockId) -> bool {
        loop {
            if a == b {
                return true;
            }
            match self.idom.get(b).copied().flatten() {
                Some(d) if b != 0 => b = d,
                _ => return false,
            }
        }
    }

    /// The instructions of block `b`.
    pub fn pcs(&self, b: BlockId) -> std::ops::Range<Pc> {
        self.blocks[b].start..self.blocks[b].end
    }

    /// The blocks of `set` as instruction flags (`true` for every pc in one of them).
    pub fn pc_mask(&self, set: &BTreeSet<BlockId>, n: usize) -> Vec<bool> {
        let mut m = vec![false; n];
        for &b in set {
            for f in m
                .iter_mut()
                .take(self.blocks[b].end)
                .skip(self.blocks[b].start)
            {
                *f = true;
            }
        }
        m
    }
}

/// Basic blocks: a block starts at the entry, at every branch target and after every branch,
/// `exit` and `trap` (guarded or not).
fn build_blocks(k: &Kernel) -> (Vec<Block>, Vec<BlockId>) {
    let n = k.code.len();
    if n == 0 {
        let empty = Block {
            start: 0,
            end: 0,
            succs: vec![],
            preds: vec![],
            exits: true,
        };
        return (vec![empty], vec![]);
    }
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    for (pc, i) in k.code.iter().enumerate() {
        match i.op {
            KOp::Bra { target } => {
                leader[(target as usize).min(n)] = true;
                leader[pc + 1] = true;
            }
            KOp::Exit | KOp::Trap => leader[pc + 1] = true,
            _ => {}
        }
    }
    let mut starts: Vec<Pc> = (0..n).filter(|&i| leader[i]).collect();
    starts.push(n);
    let idx_of_start: HashMap<Pc, BlockId> =
        starts.iter().enumerate().map(|(b, &s)| (s, b)).collect();
    let mut block_of = vec![0; n];
    let mut blocks = Vec::with_capacity(starts.len() - 1);
    for b in 0..starts.len() - 1 {
        let (s, e) = (starts[b], starts[b + 1]);
        for x in block_of.iter_mut().take(e).skip(s) {
            *x = b;
        }
        let last = &k.code[e - 1];
        let fall = idx_of_start.get(&e).copied().filter(|_| e < n);
        let mut succs = Vec::new();
        let exits;
        match (&last.op, last.guard) {
            (KOp::Bra { target }, g) => {
                let t = (*target as usize)
                    .lt(&n)
                    .then(|| idx_of_start.get(&(*target as usize)).copied())
                    .flatten();
                match g {
                    None => {
                        succs.extend(t.map(|t| (t, EdgeCond::Always)));
                        exits = t.is_none();
                    }
                    Some(g) => {
                        succs.extend(t.map(|t| (t, EdgeCond::Guard(g))));
                        succs.extend(fall.map(|f| (f, EdgeCond::NotGuard(g))));
                        exits = t.is_none() || fall.is_none();
                    }
                }
            }
            (KOp::Exit | KOp::Trap, None) => exits = true,
            (KOp::Exit | KOp::Trap, Some(g)) => {
                succs.extend(fall.map(|f| (f, EdgeCond::NotGuard(g))));
                exits = true;
            }
            _ => {
                succs.extend(fall.map(|f| (f, EdgeCond::Always)));
                exits = fall.is_none();
            }
        }
        blocks.push(Block {
            start: s,
            end: e,
            succs,
            preds: Vec::new(),
            exits,
        });
    }
    for b in 0..blocks.len() {
        for i in 0..blocks[b].succs.len() {
            let s = blocks[b].succs[i].0;
            blocks[s].preds.push(b);
        }
    }
    (blocks, block_of)
}

/// Reverse post-order of the blocks reachable from block 0 (iterative depth-first search,
/// successors in order).
fn reverse_post_order(blocks: &[Block]) -> Vec<BlockId> {
    let mut rpo = Vec::new();
    let mut seen = vec![false; blocks.len()];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some((b, i)) = stack.pop() {
        if i < blocks[b].succs.len() {
            stack.push((b, i + 1));
            let s = blocks[b].succs[i].0;
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            rpo.push(b);
        }
    }
    rpo.reverse();
    rpo
}
