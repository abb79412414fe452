//! Natural loops of a kernel (Aho et al., Dragon book §9.6): one loop per header, whose body
//! is every block that reaches a back edge's source without passing the header; their
//! nesting; and the acyclic order in which a loop body (or the kernel body) is run with its
//! inner loops collapsed into their headers (GPUVerify's predicated two-thread program,
//! OOPSLA'12 §4).

use std::collections::{BTreeSet, HashMap, HashSet};

use super::cfg::{BlockId, KCfg, LoopId};

/// A natural loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub header: BlockId,
    /// The body, header included.
    pub blocks: BTreeSet<BlockId>,
    /// Sources of the back edges (blocks of the body that branch to the header).
    pub latches: BTreeSet<BlockId>,
    /// Blocks outside the body that a body block branches to.
    pub exits: BTreeSet<BlockId>,
    /// The innermost loop containing this one.
    pub parent: Option<LoopId>,
    /// Loops directly inside this one.
    pub children: Vec<LoopId>,
}

/// Finds the natural loops of `cfg` (filled in place). A retreating edge of the depth-first
/// order whose target does not dominate its source makes the graph irreducible: the first
/// one met (blocks in reverse post-order, successors in order) is recorded and no loop is
/// formed for it.
pub(super) fn find_loops(cfg: &mut KCfg) {
    let mut order = vec![usize::MAX; cfg.blocks.len()];
    for (i, &b) in cfg.rpo.iter().enumerate() {
        order[b] = i;
    }
    let mut by_header: HashMap<BlockId, (BTreeSet<BlockId>, BTreeSet<BlockId>)> = HashMap::new();
    for &b in &cfg.rpo {
        for &(s, _) in &cfg.blocks[b].succs {
            if order[s] > order[b] {
                continue;
            }
            if !cfg.dominates(s, b) {
                if cfg.irreducible.is_none() {
                    cfg.irreducible = Some(cfg.blocks[s].start);
                }
                continue;
            }
            let (body, latches) = by_header
                .entry(s)
                .or_insert_with(|| (BTreeSet::from([s]), BTreeSet::new()));
            latches.insert(b);
            let mut work = vec![b];
            while let Some(x) = work.pop() {
                if body.insert(x) {
                    work.extend(
                        cfg.blocks[x]
                            .preds
                            .iter()
                            .filter(|&&p| order[p] != usize::MAX),
                    );
                }
            }
        }
    }
    let mut loops: Vec<Loop> = by_header
        .into_iter()
        .map(|(header, (blocks, latches))| {
            let exits = blocks
                .iter()
                .flat_map(|&b| cfg.blocks[b].succs.iter().map(|s| s.0))
                .filter(|s| !blocks.contains(s))
                .collect();
            Loop {
                header,
                blocks,
                latches,
                exits,
                parent: None,
                children: vec![],
            }
        })
        .collect();
    loops.sort_by_key(|l| (l.blocks.len(), l.header));
    for i in 0..loops.len() {
        let p = (i + 1..loops.len()).find(|&j| {
            loops[j].blocks.len() > loops[i].blocks.len()
                && loops[j].blocks.contains(&loops[i].header)
        });
        loops[i].parent = p;
        if let Some(p) = p {
            loops[p].children.push(i);
        }
    }
    cfg.roots = (0..loops.len())
        .filter(|&i| loops[i].parent.is_none())
        .collect();
    cfg.loop_at = loops
        .iter()
        .enumerate()
        .map(|(i, l)| (l.header, i))
        .collect();
    cfg.loops = loops;
}

impl KCfg {
    /// The innermost loop containing block `b`.
    pub fn innermost_loop(&self, b: BlockId) -> Option<LoopId> {
        // Loops are ordered innermost first.
        self.loops.iter().position(|l| l.blocks.contains(&b))
    }

    /// The region of `lp` (`None`: the whole kernel): its nodes in an order where every node
    /// comes after its predecessors (back edges to the header excluded). A node is a block of
    /// the region outside every child loop, or the header of a child loop.
    pub fn region_order(&self, lp: Option<LoopId>) -> Vec<BlockId> {
        let (header, members, children): (BlockId, Option<&BTreeSet<BlockId>>, &[LoopId]) = match lp
        {
            Some(l) => (
                self.loops[l].header,
                Some(&self.loops[l].blocks),
                &self.loops[l].children,
            ),
            None => (0, None, &self.roots),
        };
        let in_region = |b: BlockId| members.is_none_or(|m| m.contains(&b));
        // Map a block to its region node (child-loop header for blocks inside a child).
        let node_of = |b: BlockId| -> BlockId {
            for &c in children {
                if self.loops[c].blocks.contains(&b) {
                    return self.loops[c].header;
                }
            }
            b
        };
        let succ_nodes = |n: BlockId| -> Vec<BlockId> {
            let srcs: Vec<BlockId> = match self.loop_at.get(&n) {
                Some(&c) if children.contains(&c) => self.loops[c].blocks.iter().copied().collect(),
                _ => vec![n],
            };
            let mut out = Vec::new();
            for b in srcs {
                for &(s, _) in &self.blocks[b].succs {
                    if s == header && lp.is_some() {
                        continue;
                    }
                    if !in_region(s) {
                        continue;
                    }
                    let t = node_of(s);
                    if t != n {
                        out.push(t);
                    }
                }
            }
            out
        };
        // Depth-first post-order from the header, reversed.
        let mut post = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![(header, 0usize, succ_nodes(header))];
        seen.insert(header);
        while let Some((n, i, ss)) = stack.pop() {
            if i < ss.len() {
                let s = ss[i];
                stack.push((n, i + 1, ss));
                if seen.insert(s) {
                    let sn = succ_nodes(s);
                    stack.push((s, 0, sn));
                }
            } else {
                post.push(n);
            }
        }
        post.reverse();
        post
    }
}
