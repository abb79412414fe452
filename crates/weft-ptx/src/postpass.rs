//! Passes over a lowered kernel that tidy two things clang's optimised PTX leaves behind:
//!
//! - [`fold_param_addresses`]: a load through a kernel parameter's address held in a
//!   register (`mov.b64 %rd4, k_param_1; mov.u64 %rd2, %rd4; ld.param.u64 %rd5, [%rd2+8];`,
//!   how clang reads the fields of a struct passed by value) becomes the direct parameter
//!   load `ld.param.u64 %rd5, [k_param_1+8]`, so every engine sees the form it already
//!   handles. Only a register whose one definition is an unguarded `mov` of a constant (or of
//!   such a register) that dominates the load is folded; any other `ld.param` through a
//!   register stays a param-space load through that register (the SIMT emulator reads the
//!   launch's parameter bytes at that offset).
//! - [`attribute_line_zero`]: instructions the compiler placed at `.loc` line 0 (no single
//!   source line: hoisted out of a loop, merged from several statements) get the source
//!   position of the statement that consumes what they compute, else the nearest line before
//!   them in their basic block, else the nearest after it. The rule is in docs/race.md.

use std::collections::VecDeque;

use weft_ir::analysis::KCfg;
use weft_ir::attrs::MemSpace;
use weft_ir::code::Reg;
use weft_ir::kernel::{AddrBase, KOp, Kernel, Operand, SrcLoc};

/// Links followed through `mov` chains before giving up.
const MAX_CHAIN: usize = 16;

/// Folds `ld.param` through a register holding a constant param-space address into a direct
/// parameter load (see the module comment).
pub fn fold_param_addresses(k: &mut Kernel, cfg: &KCfg) {
    let n = k.regs.len();
    // The one definition of each register (None: none, or several).
    let mut def: Vec<Option<usize>> = vec![None; n];
    let mut count = vec![0u32; n];
    for (pc, i) in k.code.iter().enumerate() {
        for r in i.defs() {
            if let Some(c) = count.get_mut(r.index()) {
                *c += 1;
                def[r.index()] = Some(pc);
            }
        }
    }
    let dominates = |a: usize, b: usize| {
        let (ba, bb) = (cfg.block_of[a], cfg.block_of[b]);
        if ba == bb {
            a < b
        } else {
            cfg.reachable(bb) && cfg.dominates(ba, bb)
        }
    };
    // The constant a register holds when instruction `at` reads it.
    let constant = |mut r: Reg, mut at: usize| -> Option<u64> {
        for _ in 0..MAX_CHAIN {
            if count.get(r.index()).copied() != Some(1) {
                return None;
            }
            let d = def[r.index()]?;
            let i = &k.code[d];
            if i.guard.is_some() || !dominates(d, at) {
                return None;
            }
            let KOp::Mov { ty, src, .. } = &i.op else {
                return None;
            };
            match src {
                Operand::Imm(c) if ty.bits >= 64 => return Some(*c),
                Operand::Imm(c) => return Some(*c & ((1u64 << ty.bits.max(1)) - 1)),
                Operand::Reg(s) => {
                    r = *s;
                    at = d;
                }
                _ => return None,
            }
        }
        None
    };
    let mut folds = Vec::new();
    for (pc, i) in k.code.iter().enumerate() {
        let KOp::Ld { attrs, addr, .. } = &i.op else {
            continue;
        };
        let AddrBase::Reg(r) = addr.base else {
            continue;
        };
        if attrs.space != Some(MemSpace::Param) {
            continue;
        }
        let Some(c) = constant(r, pc) else {
            continue;
        };
        let a = c.wrapping_add(addr.offset as u64);
        let hit = k.params.iter().enumerate().find(|(_, p)| {
            let lo = u64::from(p.offset);
            (lo..lo + u64::from(p.size)).contains(&a)
        });
        if let Some((p, kp)) = hit {
            folds.push((pc, p as u32, (a - u64::from(kp.offset)) as i64));
        }
    }
    for (pc, p, off) in folds {
        if let KOp::Ld { addr, .. } = &mut k.code[pc].op {
            addr.base = AddrBase::Param(p);
            addr.offset = off;
        }
    }
}

/// Gives instructions at `.loc` line 0 a source position (see the module comment).
pub fn attribute_line_zero(k: &mut Kernel, cfg: &KCfg) {
    let zero = |l: Option<SrcLoc>| l.is_some_and(|l| l.line == 0);
    let todo: Vec<usize> = (0..k.code.len())
        .filter(|&pc| zero(k.code[pc].loc))
        .collect();
    let mut found = Vec::with_capacity(todo.len());
    for &pc in &todo {
        let loc = consumer_loc(k, cfg, pc).or_else(|| block_neighbour_loc(k, cfg, pc));
        found.push((pc, loc));
    }
    for (pc, loc) in found {
        if let Some(l) = loc {
            k.code[pc].loc = Some(l);
        }
    }
}

fn real(l: Option<SrcLoc>) -> Option<SrcLoc> {
    l.filter(|l| l.line > 0)
}

/// The position of the first instruction, in a breadth-first walk of the control flow from
/// `pc`, that reads a register `pc` writes and has a source line; a reader at line 0 passes
/// the search on to the registers it writes (a copy or a conversion of the value). A path
/// stops where every tracked register has been overwritten.
fn consumer_loc(k: &Kernel, cfg: &KCfg, pc: usize) -> Option<SrcLoc> {
    let defs = k.code[pc].defs();
    if defs.is_empty() {
        return None;
    }
    let n = k.code.len();
    let mut seen = vec![false; n];
    let mut queue = VecDeque::new();
    for s in successors(cfg, pc) {
        queue.push_back((s, defs.clone()));
    }
    while let Some((at, mut tracked)) = queue.pop_front() {
        if at >= n || seen[at] {
            continue;
        }
        seen[at] = true;
        let i = &k.code[at];
        if i.uses().iter().any(|r| tracked.contains(r)) {
            if let Some(l) = real(i.loc) {
                return Some(l);
            }
            tracked.extend(i.defs());
        } else if i.guard.is_none() {
            tracked.retain(|r| !i.defs().contains(r));
        }
        if tracked.is_empty() {
            continue;
        }
        for s in successors(cfg, at) {
            queue.push_back((s, tracked.clone()));
        }
    }
    None
}

/// The instructions control may reach right after `pc`.
fn successors(cfg: &KCfg, pc: usize) -> Vec<usize> {
    let b = cfg.block_of[pc];
    if pc + 1 < cfg.blocks[b].end {
        return vec![pc + 1];
    }
    cfg.blocks[b]
        .succs
        .iter()
        .map(|(s, _)| cfg.blocks[*s].start)
        .collect()
}

/// The nearest source position before `pc` in its basic block, else the nearest after it.
fn block_neighbour_loc(k: &Kernel, cfg: &KCfg, pc: usize) -> Option<SrcLoc> {
    let r = cfg.pcs(cfg.block_of[pc]);
    (r.start..pc)
        .rev()
        .find_map(|p| real(k.code[p].loc))
        .or_else(|| (pc + 1..r.end).find_map(|p| real(k.code[p].loc)))
}
