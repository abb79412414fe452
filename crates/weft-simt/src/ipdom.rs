//! Immediate post-dominators of a kernel's instructions: where a divergent warp reconverges
//! (the PDOM reconvergence stack of paper 003 §3.3.1 and of SIMT hardware).
//!
//! The CFG is instruction-level with one virtual exit node (index `code.len()`); the
//! post-dominator tree is computed with the iterative algorithm of Cooper, Harvey and Kennedy
//! ("A Simple, Fast Dominance Algorithm") on the reversed graph. Instructions that cannot
//! reach the exit (infinite loops) get the exit as their post-dominator.

use weft_ir::kernel::{KOp, Kernel};

/// Successors of instruction `i` (`n` is the exit node).
pub fn successors(k: &Kernel, i: usize) -> Vec<usize> {
    let n = k.code.len();
    let ins = &k.code[i];
    let guarded = ins.guard.is_some();
    match &ins.op {
        KOp::Bra { target } => {
            let t = (*target as usize).min(n);
            if guarded {
                vec![t, i + 1]
            } else {
                vec![t]
            }
        }
        KOp::Exit | KOp::Trap => {
            if guarded {
                vec![i + 1, n]
            } else {
                vec![n]
            }
        }
        _ => vec![i + 1],
    }
}

/// `ipdom[i]` for every instruction `i` (and `ipdom[n] = n` for the exit node).
pub fn immediate_post_dominators(k: &Kernel) -> Vec<u32> {
    let n = k.code.len();
    let succ: Vec<Vec<usize>> = (0..n).map(|i| successors(k, i)).collect();
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for (i, ss) in succ.iter().enumerate() {
        for &s in ss {
            pred[s].push(i);
        }
    }
    // Post-order of a DFS from the exit over reversed edges (iterative).
    const UNSEEN: usize = usize::MAX;
    let mut po_num = vec![UNSEEN; n + 1];
    let mut order = Vec::with_capacity(n + 1);
    let mut visited = vec![false; n + 1];
    let mut stack: Vec<(usize, usize)> = vec![(n, 0)];
    visited[n] = true;
    while let Some(&mut (node, ref mut k_ix)) = stack.last_mut() {
        if *k_ix < pred[node].len() {
            let p = pred[node][*k_ix];
            *k_ix += 1;
            if !visited[p] {
                visited[p] = true;
                stack.push((p, 0));
            }
        } else {
            po_num[node] = order.len();
            order.push(node);
            stack.pop();
        }
    }
    let mut ipdom = vec![UNSEEN; n + 1];
    ipdom[n] = n;
    let mut changed = true;
    while changed {
        changed = false;
        // Reverse post-order, skipping the exit.
        for &b in order.iter().rev().skip(1) {
            let mut new = UNSEEN;
            for &s in &succ[b] {
                if ipdom[s] == UNSEEN {
                    continue;
                }
                new = if new == UNSEEN {
                    s
                } else {
                    intersect(&ipdom, &po_num, s, new)
                };
            }
            if new != UNSEEN && ipdom[b] != new {
                ipdom[b] = new;
                changed = true;
            }
        }
    }
    ipdom
        .into_iter()
        .map(|d| if d == UNSEEN { n as u32 } else { d as u32 })
        .collect()
}

fn intersect(ipdom: &[usize], po: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while po[a] < po[b] {
            a = ipdom[a];
        }
        while po[b] < po[a] {
            b = ipdom[b];
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_ir::code::Reg;
    use weft_ir::kernel::{KGuard, KInstr};
    use weft_ir::Span;

    fn ins(op: KOp, guarded: bool) -> KInstr {
        KInstr {
            guard: guarded.then_some(KGuard {
                reg: Reg(0),
                negated: false,
            }),
            op,
            span: Span::default(),
            loc: None,
        }
    }

    #[test]
    fn if_else_reconverges_at_join() {
        // 0: @p bra 3; 1: nop; 2: bra 4; 3: nop; 4: nop; 5: exit
        let k = Kernel {
            code: vec![
                ins(KOp::Bra { target: 3 }, true),
                ins(KOp::Nop, false),
                ins(KOp::Bra { target: 4 }, false),
                ins(KOp::Nop, false),
                ins(KOp::Nop, false),
                ins(KOp::Exit, false),
            ],
            ..Kernel::default()
        };
        let d = immediate_post_dominators(&k);
        assert_eq!(d[0], 4);
        assert_eq!(d[1], 2);
        assert_eq!(d[3], 4);
        assert_eq!(d[5], 6);
    }

    #[test]
    fn loop_exit_and_infinite_loop() {
        // 0: nop; 1: @p bra 0; 2: exit   and an unreachable-exit self loop at 3
        let k = Kernel {
            code: vec![
                ins(KOp::Nop, false),
                ins(KOp::Bra { target: 0 }, true),
                ins(KOp::Exit, false),
                ins(KOp::Bra { target: 3 }, false),
            ],
            ..Kernel::default()
        };
        let d = immediate_post_dominators(&k);
        assert_eq!(d[1], 2);
        assert_eq!(d[3], 4);
    }
}
