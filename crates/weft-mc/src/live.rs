//! Register liveness at the branch targets of a kernel, for the spin-loop check (paper 004
//! §4, loops: a side-effect-free iteration is an `assume`): two visits of a branch target
//! are the same state when the registers live there and the local memory agree, whatever
//! dead registers (a loaded value overwritten before its next use) hold. Every loop passes
//! a branch target on each iteration (its head, or where a rotated loop is entered), so
//! watching them finds every spin.
//!
//! Classic backward may-liveness over the instruction-level CFG
//! ([`weft_simt::ipdom::successors`]): `in[i] = use[i] ∪ (out[i] \ def[i])`, with a guarded
//! instruction defining nothing (it may not run) and every register an operation mentions
//! counted as used.

use weft_ir::kernel::{AddrBase, KOp, Kernel, Operand};

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
            let sets = live_in(k);
            for (i, h) in is_head.iter().enumerate() {
                if *h {
                    live[i] = members(&sets[i]);
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

fn members(set: &[u64]) -> Vec<u32> {
    let mut v = Vec::new();
    for (w, bits) in set.iter().enumerate() {
        let mut b = *bits;
        while b != 0 {
            let i = b.trailing_zeros();
            v.push(w as u32 * 64 + i);
            b &= b - 1;
        }
    }
    v
}

/// Live-in register sets (bitsets) per instruction.
fn live_in(k: &Kernel) -> Vec<Vec<u64>> {
    let n = k.code.len();
    let words = k.regs.len().div_ceil(64).max(1);
    let set = |v: &mut Vec<u64>, r: usize| {
        if r < words * 64 {
            v[r / 64] |= 1 << (r % 64);
        }
    };
    let mut uses = vec![vec![0u64; words]; n];
    let mut defs = vec![vec![0u64; words]; n];
    let mut succ = Vec::with_capacity(n);
    for (i, ins) in k.code.iter().enumerate() {
        let mut u = Vec::new();
        let mut d = Vec::new();
        regs_of(&ins.op, &mut u, &mut d);
        if let Some(g) = &ins.guard {
            u.push(g.reg.index());
            d.clear();
        }
        for r in u {
            set(&mut uses[i], r);
        }
        for r in d {
            set(&mut defs[i], r);
        }
        succ.push(weft_simt::ipdom::successors(k, i));
    }
    let mut live = vec![vec![0u64; words]; n];
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let mut out = vec![0u64; words];
            for &s in &succ[i] {
                if s < n {
                    for (o, x) in out.iter_mut().zip(&live[s]) {
                        *o |= x;
                    }
                }
            }
            for w in 0..words {
                let v = uses[i][w] | (out[w] & !defs[i][w]);
                if v != live[i][w] {
                    live[i][w] = v;
                    changed = true;
                }
            }
        }
    }
    live
}

fn op_reg(o: &Operand, u: &mut Vec<usize>) {
    if let Operand::Reg(r) = o {
        u.push(r.index());
    }
}

fn addr_reg(a: &weft_ir::kernel::Addr, u: &mut Vec<usize>) {
    if let AddrBase::Reg(r) = a.base {
        u.push(r.index());
    }
}

/// Registers an operation reads (`u`) and writes (`d`).
pub(crate) fn regs_of(op: &KOp, u: &mut Vec<usize>, d: &mut Vec<usize>) {
    match op {
        KOp::Mov { dst, src, .. } | KOp::Cvta { dst, src, .. } | KOp::Cvt { dst, src, .. } => {
            op_reg(src, u);
            d.push(dst.index());
        }
        KOp::Unary { dst, a, .. } => {
            op_reg(a, u);
            d.push(dst.index());
        }
        KOp::Binary { dst, a, b, .. } => {
            op_reg(a, u);
            op_reg(b, u);
            d.push(dst.index());
        }
        KOp::Prmt { dst, a, b, sel } => {
            op_reg(a, u);
            op_reg(b, u);
            op_reg(sel, u);
            d.push(dst.index());
        }
        KOp::Mad { dst, a, b, c, .. } | KOp::Shf { dst, a, b, c, .. } => {
            op_reg(a, u);
            op_reg(b, u);
            op_reg(c, u);
            d.push(dst.index());
        }
        KOp::Setp {
            dst,
            dst2,
            a,
            b,
            combine,
            ..
        } => {
            op_reg(a, u);
            op_reg(b, u);
            if let Some((_, p, _)) = combine {
                op_reg(p, u);
            }
            d.push(dst.index());
            d.extend(dst2.map(|r| r.index()));
        }
        KOp::Selp {
            dst, a, b, pred, ..
        } => {
            op_reg(a, u);
            op_reg(b, u);
            op_reg(pred, u);
            d.push(dst.index());
        }
        KOp::Bfe {
            dst, a, pos, len, ..
        } => {
            op_reg(a, u);
            op_reg(pos, u);
            op_reg(len, u);
            d.push(dst.index());
        }
        KOp::Bfi {
            dst,
            a,
            b,
            pos,
            len,
            ..
        } => {
            op_reg(a, u);
            op_reg(b, u);
            op_reg(pos, u);
            op_reg(len, u);
            d.push(dst.index());
        }
        KOp::Ld { dst, addr, .. } => {
            addr_reg(addr, u);
            d.extend(dst.iter().flatten().map(|r| r.index()));
        }
        KOp::St { src, addr, .. } => {
            addr_reg(addr, u);
            for s in src {
                op_reg(s, u);
            }
        }
        KOp::Atom {
            dst, addr, args, ..
        } => {
            addr_reg(addr, u);
            for a in args {
                op_reg(a, u);
            }
            d.extend(dst.map(|r| r.index()));
        }
        KOp::Barrier { id, count, red, .. } => {
            op_reg(id, u);
            if let Some(c) = count {
                op_reg(c, u);
            }
            if let Some((_, r, p, _)) = red {
                op_reg(p, u);
                d.push(r.index());
            }
        }
        KOp::Shfl {
            dst,
            dst_pred,
            a,
            b,
            c,
            mask,
            ..
        } => {
            for o in [a, b, c, mask] {
                op_reg(o, u);
            }
            d.push(dst.index());
            d.extend(dst_pred.map(|r| r.index()));
        }
        KOp::Vote {
            dst, pred, mask, ..
        } => {
            op_reg(pred, u);
            op_reg(mask, u);
            d.push(dst.index());
        }
        KOp::Match {
            dst,
            dst_pred,
            a,
            mask,
            ..
        } => {
            op_reg(a, u);
            op_reg(mask, u);
            d.push(dst.index());
            d.extend(dst_pred.map(|r| r.index()));
        }
        KOp::Activemask { dst } => d.push(dst.index()),
        KOp::Annot { cond, .. } => op_reg(cond, u),
        KOp::Query { dst, args, .. } => {
            for a in args {
                op_reg(a, u);
            }
            d.push(dst.index());
        }
        KOp::Fence { .. } | KOp::Bra { .. } | KOp::Exit | KOp::Nop | KOp::Trap => {}
    }
}
