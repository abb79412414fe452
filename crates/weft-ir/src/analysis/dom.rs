//! Dominators and post-dominators of a kernel's blocks, with the iterative algorithm of
//! Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm"): dominators from the
//! entry block, post-dominators on the reversed graph from one virtual exit node. The
//! instruction-level immediate post-dominators ([`KCfg::instr_ipdoms`]) are where a divergent
//! warp reconverges (the PDOM reconvergence stack of paper 003 §3.3.1 and of SIMT hardware).

use super::cfg::{Block, BlockId, KCfg};

const NONE: usize = usize::MAX;

/// Walks two candidates up the (post-)dominator tree until they meet; `num` orders nodes so
/// that a node's dominator has a smaller number.
fn intersect(dom: &[usize], num: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while num[a] > num[b] {
            a = dom[a];
        }
        while num[b] > num[a] {
            b = dom[b];
        }
    }
    a
}

/// Immediate dominators of the blocks reachable from the entry (`rpo`: their reverse
/// post-order); the entry's is itself.
pub(super) fn dominators(blocks: &[Block], rpo: &[BlockId]) -> Vec<Option<BlockId>> {
    let nb = blocks.len();
    let mut order = vec![NONE; nb];
    for (i, &b) in rpo.iter().enumerate() {
        order[b] = i;
    }
    let mut idom = vec![NONE; nb];
    idom[0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new = NONE;
            for &p in &blocks[b].preds {
                if idom[p] == NONE {
                    continue;
                }
                new = if new == NONE {
                    p
                } else {
                    intersect(&idom, &order, p, new)
                };
            }
            if new != idom[b] {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom.into_iter().map(|d| (d != NONE).then_some(d)).collect()
}

/// Immediate post-dominators of the blocks (`None` for the virtual exit and for blocks that
/// cannot reach it) and which blocks reach the exit.
pub(super) fn post_dominators(blocks: &[Block]) -> (Vec<Option<BlockId>>, Vec<bool>) {
    let nb = blocks.len();
    let exit = nb;
    // Successors with the exit node; predecessors on the reversed graph.
    let succ: Vec<Vec<usize>> = blocks
        .iter()
        .map(|b| {
            let mut v: Vec<usize> = b.succs.iter().map(|s| s.0).collect();
            if b.exits {
                v.push(exit);
            }
            v
        })
        .collect();
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); nb + 1];
    for (b, ss) in succ.iter().enumerate() {
        for &s in ss {
            pred[s].push(b);
        }
    }
    // Post-order of a depth-first search from the exit over reversed edges.
    let mut num = vec![NONE; nb + 1];
    let mut order = Vec::with_capacity(nb + 1);
    let mut visited = vec![false; nb + 1];
    let mut stack: Vec<(usize, usize)> = vec![(exit, 0)];
    visited[exit] = true;
    while let Some(top) = stack.last_mut() {
        let (node, i) = *top;
        if i < pred[node].len() {
            top.1 += 1;
            let p = pred[node][i];
            if !visited[p] {
                visited[p] = true;
                stack.push((p, 0));
            }
        } else {
            order.push(node);
            stack.pop();
        }
    }
    // Number nodes so that the exit (the root) is 0 and a node's post-dominator is smaller.
    for (i, &b) in order.iter().rev().enumerate() {
        num[b] = i;
    }
    let mut ipdom = vec![NONE; nb + 1];
    ipdom[exit] = exit;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().rev().skip(1) {
            let mut new = NONE;
            for &s in &succ[b] {
                if ipdom[s] == NONE {
                    continue;
                }
                new = if new == NONE {
                    s
                } else {
                    intersect(&ipdom, &num, s, new)
                };
            }
            if new != NONE && ipdom[b] != new {
                ipdom[b] = new;
                changed = true;
            }
        }
    }
    let ip = (0..nb)
        .map(|b| (ipdom[b] != NONE && ipdom[b] != exit).then_some(ipdom[b]))
        .collect();
    (ip, visited[..nb].to_vec())
}

impl KCfg {
    /// The immediate post-dominator of every instruction and of the virtual exit (index
    /// `code.len()`, its own): the next instruction inside a block, the first instruction of
    /// the block's immediate post-dominator at its end, and the exit for instructions that
    /// cannot reach it (infinite loops) or whose post-dominator is the exit.
    pub fn instr_ipdoms(&self) -> Vec<u32> {
        let n = self.block_of.len();
        let mut out = vec![n as u32; n + 1];
        for (b, blk) in self.blocks.iter().enumerate() {
            if !self.reaches_exit[b] {
                continue;
            }
            let join = self.ipdom[b].map_or(n, |d| self.blocks[d].start);
            for (pc, d) in out[blk.start..blk.end].iter_mut().enumerate() {
                let pc = blk.start + pc;
                *d = if pc + 1 < blk.end { pc + 1 } else { join } as u32;
            }
        }
        out
    }

    /// Whether block `a` post-dominates block `b` (every path from `b` to the exit passes
    /// `a`); false when `b` cannot reach the exit.
    pub fn post_dominates(&self, a: BlockId, mut b: BlockId) -> bool {
        if !self.reaches_exit.get(b).copied().unwrap_or(false) {
            return false;
        }
        loop {
            if a == b {
                return true;
            }
            match self.ipdom[b] {
                Some(d) => b = d,
                None => return false,
            }
        }
    }
}
