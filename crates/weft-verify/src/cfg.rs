//! The kernel's control-flow graph for verification: basic blocks of the flat kernel code,
//! dominators, natural loops and their nesting, and the acyclic order in which each loop
//! body (or the kernel body) is executed with predication (GPUVerify's predicated
//! two-thread program, OOPSLA'12 §4; inner loops collapsed into their header).

use std::collections::{BTreeSet, HashMap};

use weft_ir::kernel::{KGuard, KOp, Kernel};

/// When an edge is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeCond {
    Always,
    /// The guard holds (`@p bra`) or does not (`@!p bra`), as written.
    Guard(KGuard),
    /// The guard does not hold (fall-through of a guarded branch/exit).
    NotGuard(KGuard),
}

/// A basic block: instructions `start..end`; the last may be a branch or exit.
#[derive(Clone, Debug)]
pub struct Block {
    pub start: usize,
    pub end: usize,
    pub succs: Vec<(usize, EdgeCond)>,
}

/// A natural loop.
#[derive(Clone, Debug)]
pub struct Loop {
    pub header: usize,
    pub blocks: BTreeSet<usize>,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
}

/// The CFG.
#[derive(Clone, Debug)]
pub struct Cfg {
    pub blocks: Vec<Block>,
    /// Block of each instruction.
    pub block_of: Vec<usize>,
    pub loops: Vec<Loop>,
    /// Loop whose header is this block.
    pub loop_at: HashMap<usize, usize>,
    /// Top-level loops.
    pub roots: Vec<usize>,
}

impl Cfg {
    /// Builds the CFG; an irreducible graph is refused.
    pub fn build(k: &Kernel) -> Result<Cfg, String> {
        let n = k.code.len();
        if n == 0 {
            return Ok(Cfg {
                blocks: vec![Block {
                    start: 0,
                    end: 0,
                    succs: vec![],
                }],
                block_of: vec![],
                loops: vec![],
                loop_at: HashMap::new(),
                roots: vec![],
            });
        }
        let mut leader = vec![false; n + 1];
        leader[0] = true;
        for (pc, i) in k.code.iter().enumerate() {
            match i.op {
                KOp::Bra { target } => {
                    leader[target as usize] = true;
                    leader[pc + 1] = true;
                }
                KOp::Exit | KOp::Trap => leader[pc + 1] = true,
                _ => {}
            }
        }
        let mut starts: Vec<usize> = (0..n).filter(|&i| leader[i]).collect();
        starts.push(n);
        let mut block_of = vec![0; n];
        let mut blocks = Vec::new();
        let idx_of_start: HashMap<usize, usize> =
            starts.iter().enumerate().map(|(b, &s)| (s, b)).collect();
        for b in 0..starts.len() - 1 {
            let (s, e) = (starts[b], starts[b + 1]);
            for x in block_of.iter_mut().take(e).skip(s) {
                *x = b;
            }
            let last = &k.code[e - 1];
            let mut succs = Vec::new();
            let fall = idx_of_start.get(&e).copied().filter(|_| e < n);
            match (&last.op, last.guard) {
                (KOp::Bra { target }, g) => {
                    let t = if (*target as usize) < n {
                        idx_of_start.get(&(*target as usize)).copied()
                    } else {
                        None
                    };
                    match g {
                        None => succs.extend(t.map(|t| (t, EdgeCond::Always))),
                        Some(g) => {
                            succs.extend(t.map(|t| (t, EdgeCond::Guard(g))));
                            succs.extend(fall.map(|f| (f, EdgeCond::NotGuard(g))));
                        }
                    }
                }
                (KOp::Exit | KOp::Trap, None) => {}
                (KOp::Exit | KOp::Trap, Some(g)) => {
                    succs.extend(fall.map(|f| (f, EdgeCond::NotGuard(g))));
                }
                _ => succs.extend(fall.map(|f| (f, EdgeCond::Always))),
            }
            blocks.push(Block {
                start: s,
                end: e,
                succs,
            });
        }
        let nb = blocks.len();
        // Reverse post-order from the entry.
        let mut rpo = Vec::new();
        let mut seen = vec![false; nb];
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
        let mut order = vec![usize::MAX; nb];
        for (i, &b) in rpo.iter().enumerate() {
            order[b] = i;
        }
        let mut preds = vec![Vec::new(); nb];
        for (b, bl) in blocks.iter().enumerate() {
            if seen[b] {
                for &(s, _) in &bl.succs {
                    preds[s].push(b);
                }
            }
        }
        // Dominators (Cooper-Harvey-Kennedy).
        let mut idom = vec![usize::MAX; nb];
        idom[0] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new = usize::MAX;
                for &p in &preds[b] {
                    if idom[p] == usize::MAX {
                        continue;
                    }
                    new = if new == usize::MAX {
                        p
                    } else {
                        let (mut x, mut y) = (p, new);
                        while x != y {
                            while order[x] > order[y] {
                                x = idom[x];
                            }
                            while order[y] > order[x] {
                                y = idom[y];
                            }
                        }
                        x
                    };
                }
                if new != idom[b] {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        let dominates = |a: usize, mut b: usize| -> bool {
            loop {
                if a == b {
                    return true;
                }
                if b == 0 || idom[b] == usize::MAX {
                    return false;
                }
                b = idom[b];
            }
        };
        // Natural loops, one per header.
        let mut by_header: HashMap<usize, BTreeSet<usize>> = HashMap::new();
        for &b in &rpo {
            for &(s, _) in &blocks[b].succs {
                if order[s] <= order[b] {
                    if !dominates(s, b) {
                        return Err(format!(
                            "irreducible control flow at instruction {} (unsupported)",
                            blocks[s].start
                        ));
                    }
                    let body = by_header.entry(s).or_insert_with(|| BTreeSet::from([s]));
                    let mut work = vec![b];
                    while let Some(x) = work.pop() {
                        if body.insert(x) {
                            work.extend(preds[x].iter().copied());
                        }
                    }
                }
            }
        }
        let mut loops: Vec<Loop> = by_header
            .into_iter()
            .map(|(header, blocks)| Loop {
                header,
                blocks,
                parent: None,
                children: vec![],
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
        let roots = (0..loops.len())
            .filter(|&i| loops[i].parent.is_none())
            .collect();
        let loop_at = loops
            .iter()
            .enumerate()
            .map(|(i, l)| (l.header, i))
            .collect();
        Ok(Cfg {
            blocks,
            block_of,
            loops,
            loop_at,
            roots,
        })
    }

    /// The region of `lp` (`None`: the whole kernel): its nodes in an order where every node
    /// comes after its predecessors (back edges to the header excluded). A node is a block of
    /// the region outside every child loop, or the header of a child loop.
    pub fn region_order(&self, lp: Option<usize>) -> Vec<usize> {
        let (header, members, children): (usize, Option<&BTreeSet<usize>>, Vec<usize>) = match lp {
            Some(l) => (
                self.loops[l].header,
                Some(&self.loops[l].blocks),
                self.loops[l].children.clone(),
            ),
            None => (0, None, self.roots.clone()),
        };
        let in_region = |b: usize| match members {
            None => true,
            Some(m) => m.contains(&b),
        };
        // Map a block to its region node (child-loop header for blocks inside a child).
        let node_of = |b: usize| -> usize {
            for &c in &children {
                if self.loops[c].blocks.contains(&b) {
                    return self.loops[c].header;
                }
            }
            b
        };
        let succ_nodes = |n: usize| -> Vec<usize> {
            let srcs: Vec<usize> = match self.loop_at.get(&n) {
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
        // DFS post-order from the header.
        let mut post = Vec::new();
        let mut seen = std::collections::HashSet::new();
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

/// Registers an instruction reads (its guard, operands and address bases).
pub fn reads(i: &weft_ir::kernel::KInstr) -> Vec<usize> {
    use weft_ir::kernel::{AddrBase, Operand};
    let mut ops: Vec<&Operand> = Vec::new();
    let mut out: Vec<usize> = Vec::new();
    if let Some(g) = &i.guard {
        out.push(g.reg.index());
    }
    let addr = |a: &weft_ir::kernel::Addr, out: &mut Vec<usize>| {
        if let AddrBase::Reg(r) = a.base {
            out.push(r.index());
        }
    };
    match &i.op {
        KOp::Mov { src, .. } | KOp::Cvt { src, .. } | KOp::Cvta { src, .. } => ops.push(src),
        KOp::Unary { a, .. } => ops.push(a),
        KOp::Binary { a, b, .. } => ops.extend([a, b]),
        KOp::Mad { a, b, c, .. } | KOp::Shf { a, b, c, .. } => ops.extend([a, b, c]),
        KOp::Setp { a, b, combine, .. } => {
            ops.extend([a, b]);
            ops.extend(combine.iter().map(|(_, p, _)| p));
        }
        KOp::Selp { a, b, pred, .. } => ops.extend([a, b, pred]),
        KOp::Bfe { a, pos, len, .. } => ops.extend([a, pos, len]),
        KOp::Bfi { a, b, pos, len, .. } => ops.extend([a, b, pos, len]),
        KOp::Prmt { a, b, sel, .. } => ops.extend([a, b, sel]),
        KOp::Ld { addr: a, .. } => addr(a, &mut out),
        KOp::St { src, addr: a, .. } => {
            ops.extend(src.iter());
            addr(a, &mut out);
        }
        KOp::Atom { args, addr: a, .. } => {
            ops.extend(args.iter());
            addr(a, &mut out);
        }
        KOp::Barrier { id, count, red, .. } => {
            ops.push(id);
            ops.extend(count.iter());
            if let Some((_, _, p, _)) = red {
                ops.push(p);
            }
        }
        KOp::Shfl { a, b, c, mask, .. } => ops.extend([a, b, c, mask]),
        KOp::Vote { pred, mask, .. } => ops.extend([pred, mask]),
        KOp::Match { a, mask, .. } => ops.extend([a, mask]),
        KOp::Annot { cond, .. } => ops.push(cond),
        KOp::Query { args, .. } => ops.extend(args.iter()),
        KOp::Activemask { .. }
        | KOp::Bra { .. }
        | KOp::Fence { .. }
        | KOp::Exit
        | KOp::Nop
        | KOp::Trap => {}
    }
    for o in ops {
        if let Operand::Reg(r) = o {
            out.push(r.index());
        }
    }
    out
}

impl Cfg {
    /// Registers of `cands` whose value at loop `l`'s header is dead: every path from the
    /// header writes them (unguarded) before reading them, and no instruction outside the
    /// loop reads them. A thread outside the loop never observes such a register's value
    /// again (it can only read it after re-entering through the header). Classic backward
    /// liveness (Aho et al., Dragon book §9.2.5) restricted to the loop's blocks.
    pub fn dead_at_header(
        &self,
        k: &Kernel,
        l: usize,
        cands: &BTreeSet<usize>,
        dsts: impl Fn(&KOp) -> Vec<usize>,
    ) -> BTreeSet<usize> {
        let lp = &self.loops[l];
        let mut in_loop = vec![false; k.code.len()];
        for &b in &lp.blocks {
            let blk = &self.blocks[b];
            for f in in_loop.iter_mut().take(blk.end).skip(blk.start) {
                *f = true;
            }
        }
        let mut outside: BTreeSet<usize> = BTreeSet::new();
        for (pc, i) in k.code.iter().enumerate() {
            if !in_loop[pc] {
                outside.extend(reads(i));
            }
        }
        // use / def of each loop block, over the candidate registers only.
        let mut ud: HashMap<usize, (BTreeSet<usize>, BTreeSet<usize>)> = HashMap::new();
        for &b in &lp.blocks {
            let blk = &self.blocks[b];
            let (mut u, mut d) = (BTreeSet::new(), BTreeSet::new());
            for i in &k.code[blk.start..blk.end] {
                for r in reads(i) {
                    if cands.contains(&r) && !d.contains(&r) {
                        u.insert(r);
                    }
                }
                if i.guard.is_none() {
                    for r in dsts(&i.op) {
                        if cands.contains(&r) {
                            d.insert(r);
                        }
                    }
                }
            }
            ud.insert(b, (u, d));
        }
        let mut live_in: HashMap<usize, BTreeSet<usize>> =
            lp.blocks.iter().map(|&b| (b, BTreeSet::new())).collect();
        loop {
            let mut changed = false;
            for &b in lp.blocks.iter().rev() {
                let mut out: BTreeSet<usize> = BTreeSet::new();
                for &(s, _) in &self.blocks[b].succs {
                    match live_in.get(&s) {
                        Some(li) => out.extend(li.iter().copied()),
                        None => out.extend(outside.intersection(cands).copied()),
                    }
                }
                let (u, d) = &ud[&b];
                let mut li: BTreeSet<usize> = u.clone();
                li.extend(out.difference(d).copied());
                if li != live_in[&b] {
                    live_in.insert(b, li);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let head = &live_in[&lp.header];
        cands
            .iter()
            .copied()
            .filter(|r| !head.contains(r) && !outside.contains(r))
            .collect()
    }
}
