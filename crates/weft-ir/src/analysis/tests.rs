//! Tests of the kernel analyses: every expected register list, block, edge, (post-)dominator,
//! loop and live set below is derived by hand from the instructions' meaning, written in the
//! comment above each kernel.

use std::collections::BTreeSet;

use super::*;
use crate::attrs::{BarrierKind, DataType, FenceKind, MemAttrs, MemSpace, RmwOp};
use crate::code::Reg;
use crate::kernel::{
    Addr, AddrBase, AnnotKind, BarRed, KBinOp, KBoolOp, KCmp, KGuard, KInstr, KOp, KReg, KUnOp,
    Kernel, MatchMode, Operand, QueryKind, Rounding, ShflMode, SpecialReg, VoteMode,
};
use crate::span::Span;

fn r(i: u32) -> Operand {
    Operand::Reg(Reg(i))
}

fn regs(v: &[u32]) -> Vec<Reg> {
    v.iter().map(|&i| Reg(i)).collect()
}

fn ins(op: KOp) -> KInstr {
    KInstr {
        guard: None,
        op,
        span: Span::default(),
        loc: None,
    }
}

fn guarded(reg: u32, negated: bool, op: KOp) -> KInstr {
    KInstr {
        guard: Some(KGuard {
            reg: Reg(reg),
            negated,
        }),
        ..ins(op)
    }
}

fn kernel(code: Vec<KInstr>) -> Kernel {
    Kernel {
        name: "k".into(),
        regs: (0..8)
            .map(|i| KReg {
                name: format!("%r{i}"),
                ty: DataType::U32,
            })
            .collect(),
        code,
        ..Kernel::default()
    }
}

fn set(v: &[usize]) -> BTreeSet<usize> {
    v.iter().copied().collect()
}

fn live(s: &RegSet) -> Vec<usize> {
    s.iter().collect()
}

// ---- uses / defs, one test per family of instructions ---------------------------------

#[test]
fn arithmetic_reads_its_register_operands_and_writes_its_destination() {
    let t = DataType::U32;
    let cases: Vec<(KOp, Vec<Reg>, Vec<Reg>)> = vec![
        // mov r1, r2
        (
            KOp::Mov {
                ty: t,
                dst: Reg(1),
                src: r(2),
            },
            regs(&[2]),
            regs(&[1]),
        ),
        // mov r1, 5: an immediate is no register
        (
            KOp::Mov {
                ty: t,
                dst: Reg(1),
                src: Operand::Imm(5),
            },
            regs(&[]),
            regs(&[1]),
        ),
        // neg r3, %tid.x: a special register is no register
        (
            KOp::Unary {
                op: KUnOp::Neg,
                ty: t,
                dst: Reg(3),
                a: Operand::Special(SpecialReg::Tid(0)),
            },
            regs(&[]),
            regs(&[3]),
        ),
        // add r0, r4, r5
        (
            KOp::Binary {
                op: KBinOp::Add,
                ty: t,
                dst: Reg(0),
                a: r(4),
                b: r(5),
            },
            regs(&[4, 5]),
            regs(&[0]),
        ),
        // mad.lo r1, r2, 3, r1: the destination is also read
        (
            KOp::Mad {
                mode: KBinOp::Mul,
                ty: t,
                dst: Reg(1),
                a: r(2),
                b: Operand::Imm(3),
                c: r(1),
            },
            regs(&[2, 1]),
            regs(&[1]),
        ),
        // setp.lt.and r1|r2, r3, r4, !r5: two predicates written, combiner read last
        (
            KOp::Setp {
                cmp: KCmp::Lt,
                ty: t,
                dst: Reg(1),
                dst2: Some(Reg(2)),
                a: r(3),
                b: r(4),
                combine: Some((KBoolOp::And, r(5), true)),
            },
            regs(&[3, 4, 5]),
            regs(&[1, 2]),
        ),
        // selp r0, r1, r2, r3
        (
            KOp::Selp {
                ty: t,
                dst: Reg(0),
                a: r(1),
                b: r(2),
                pred: r(3),
            },
            regs(&[1, 2, 3]),
            regs(&[0]),
        ),
        // cvt.rzi r6, r7
        (
            KOp::Cvt {
                dst_ty: t,
                src_ty: DataType::S32,
                dst: Reg(6),
                src: r(7),
                rounding: Some(Rounding::Zero),
                integral: false,
                sat: false,
            },
            regs(&[7]),
            regs(&[6]),
        ),
        // cvta.to.global r6, buf: a variable's address is no register
        (
            KOp::Cvta {
                to: true,
                space: MemSpace::Global,
                dst: Reg(6),
                src: Operand::VarAddr { var: 0, offset: 4 },
            },
            regs(&[]),
            regs(&[6]),
        ),
        // bfe r0, r1, r2, 8
        (
            KOp::Bfe {
                ty: t,
                dst: Reg(0),
                a: r(1),
                pos: r(2),
                len: Operand::Imm(8),
            },
            regs(&[1, 2]),
            regs(&[0]),
        ),
        // bfi r0, r1, r2, r3, r4
        (
            KOp::Bfi {
                ty: t,
                dst: Reg(0),
                a: r(1),
                b: r(2),
                pos: r(3),
                len: r(4),
            },
            regs(&[1, 2, 3, 4]),
            regs(&[0]),
        ),
        // shf.l.wrap r0, r1, r2, r3
        (
            KOp::Shf {
                left: true,
                wrap: true,
                dst: Reg(0),
                a: r(1),
                b: r(2),
                c: r(3),
            },
            regs(&[1, 2, 3]),
            regs(&[0]),
        ),
        // prmt r0, r1, r2, 0x3210
        (
            KOp::Prmt {
                dst: Reg(0),
                a: r(1),
                b: r(2),
                sel: Operand::Imm(0x3210),
            },
            regs(&[1, 2]),
            regs(&[0]),
        ),
    ];
    for (op, uses, defs) in cases {
        assert_eq!(op.uses(), uses, "uses of {op:?}");
        assert_eq!(op.defs(), defs, "defs of {op:?}");
    }
}

#[test]
fn memory_reads_address_base_then_values_and_writes_loaded_registers() {
    let t = DataType::U32;
    let at = |base| Addr { base, offset: 8 };
    let cases: Vec<(KOp, Vec<Reg>, Vec<Reg>)> = vec![
        // ld.v4 {r1, _, r2, r3}, [r4+8]
        (
            KOp::Ld {
                attrs: MemAttrs::default(),
                ty: t,
                dst: vec![Some(Reg(1)), None, Some(Reg(2)), Some(Reg(3))],
                addr: at(AddrBase::Reg(Reg(4))),
            },
            regs(&[4]),
            regs(&[1, 2, 3]),
        ),
        // ld.param r1, [param0+8]: no register address
        (
            KOp::Ld {
                attrs: MemAttrs::default(),
                ty: t,
                dst: vec![Some(Reg(1))],
                addr: at(AddrBase::Param(0)),
            },
            regs(&[]),
            regs(&[1]),
        ),
        // st.v2 [r5+8], {r6, 7}: address first, then the stored registers
        (
            KOp::St {
                attrs: MemAttrs::default(),
                ty: t,
                src: vec![r(6), Operand::Imm(7)],
                addr: at(AddrBase::Reg(Reg(5))),
            },
            regs(&[5, 6]),
            regs(&[]),
        ),
        // atom.cas r0, [r1+8], r2, r3
        (
            KOp::Atom {
                op: RmwOp::Cas,
                attrs: MemAttrs::default(),
                ty: t,
                dst: Some(Reg(0)),
                addr: at(AddrBase::Reg(Reg(1))),
                args: vec![r(2), r(3)],
            },
            regs(&[1, 2, 3]),
            regs(&[0]),
        ),
        // red.add [buf+8], r2: no destination
        (
            KOp::Atom {
                op: RmwOp::Add,
                attrs: MemAttrs::default(),
                ty: t,
                dst: None,
                addr: at(AddrBase::Var(0)),
                args: vec![r(2)],
            },
            regs(&[2]),
            regs(&[]),
        ),
    ];
    for (op, uses, defs) in cases {
        assert_eq!(op.uses(), uses, "uses of {op:?}");
        assert_eq!(op.defs(), defs, "defs of {op:?}");
        assert!(op.addr().is_some());
    }
}

#[test]
fn synchronisation_and_warp_collectives() {
    let cases: Vec<(KOp, Vec<Reg>, Vec<Reg>)> = vec![
        // bar.red.popc r0, r1, r2, !r3: reads id, count, predicate; writes the count
        (
            KOp::Barrier {
                kind: BarrierKind::Sync,
                id: r(1),
                count: Some(r(2)),
                red: Some((BarRed::Popc, Reg(0), r(3), true)),
            },
            regs(&[1, 2, 3]),
            regs(&[0]),
        ),
        // bar.sync 0
        (
            KOp::Barrier {
                kind: BarrierKind::Sync,
                id: Operand::Imm(0),
                count: None,
                red: None,
            },
            regs(&[]),
            regs(&[]),
        ),
        // fence.sc.gpu
        (
            KOp::Fence {
                kind: FenceKind::Membar,
                attrs: MemAttrs::default(),
            },
            regs(&[]),
            regs(&[]),
        ),
        // shfl.sync.idx r0|r1, r2, r3, 31, r4
        (
            KOp::Shfl {
                mode: ShflMode::Idx,
                dst: Reg(0),
                dst_pred: Some(Reg(1)),
                a: r(2),
                b: r(3),
                c: Operand::Imm(31),
                mask: r(4),
            },
            regs(&[2, 3, 4]),
            regs(&[0, 1]),
        ),
        // vote.sync.ballot r0, !r1, r2
        (
            KOp::Vote {
                mode: VoteMode::Ballot,
                dst: Reg(0),
                pred: r(1),
                negated: true,
                mask: r(2),
            },
            regs(&[1, 2]),
            regs(&[0]),
        ),
        // match.all r0|r1, r2, 0xffffffff
        (
            KOp::Match {
                mode: MatchMode::All,
                bits: 32,
                dst: Reg(0),
                dst_pred: Some(Reg(1)),
                a: r(2),
                mask: Operand::Imm(0xffff_ffff),
            },
            regs(&[2]),
            regs(&[0, 1]),
        ),
        // activemask r5
        (KOp::Activemask { dst: Reg(5) }, regs(&[]), regs(&[5])),
    ];
    for (op, uses, defs) in cases {
        assert_eq!(op.uses(), uses, "uses of {op:?}");
        assert_eq!(op.defs(), defs, "defs of {op:?}");
    }
}

#[test]
fn control_and_specification_statements() {
    let cases: Vec<(KOp, Vec<Reg>, Vec<Reg>)> = vec![
        (KOp::Bra { target: 0 }, regs(&[]), regs(&[])),
        (KOp::Exit, regs(&[]), regs(&[])),
        (KOp::Trap, regs(&[]), regs(&[])),
        (KOp::Nop, regs(&[]), regs(&[])),
        // __assert(r3)
        (
            KOp::Annot {
                kind: AnnotKind::Assert,
                cond: r(3),
                thread_local: true,
            },
            regs(&[3]),
            regs(&[]),
        ),
        // r0 = __other_int(r1)
        (
            KOp::Query {
                kind: QueryKind::OtherInt,
                ty: DataType::S32,
                dst: Reg(0),
                args: vec![r(1), Operand::Imm(2)],
            },
            regs(&[1]),
            regs(&[0]),
        ),
    ];
    for (op, uses, defs) in cases {
        assert_eq!(op.uses(), uses, "uses of {op:?}");
        assert_eq!(op.defs(), defs, "defs of {op:?}");
    }
}

#[test]
fn a_guard_is_read_first_and_makes_definitions_uncertain() {
    // @!r7 add r0, r1, r2
    let i = guarded(
        7,
        true,
        KOp::Binary {
            op: KBinOp::Add,
            ty: DataType::U32,
            dst: Reg(0),
            a: r(1),
            b: r(2),
        },
    );
    assert_eq!(i.uses(), regs(&[7, 1, 2]));
    assert_eq!(i.defs(), regs(&[0]));
    assert_eq!(i.must_defs(), regs(&[]));
    assert!(i.op.mentions(Reg(2)) && i.op.mentions(Reg(0)) && !i.op.mentions(Reg(7)));
}

#[test]
fn register_sets() {
    let mut s: RegSet = [3usize, 70, 3].into_iter().collect();
    assert_eq!(live(&s), vec![3, 70]);
    assert!(!s.insert(70) && s.insert(64));
    s.remove(3);
    assert!(!s.contains(3) && s.contains(64));
    assert_eq!(RegSet::default(), RegSet::with_capacity(200));
    assert!(RegSet::with_capacity(200).is_empty());
}

// ---- control flow -----------------------------------------------------------------------

fn setp(dst: u32, a: u32, b: Operand) -> KOp {
    KOp::Setp {
        cmp: KCmp::Lt,
        ty: DataType::U32,
        dst: Reg(dst),
        dst2: None,
        a: r(a),
        b,
        combine: None,
    }
}

fn add(dst: u32, a: u32, b: Operand) -> KOp {
    KOp::Binary {
        op: KBinOp::Add,
        ty: DataType::U32,
        dst: Reg(dst),
        a: r(a),
        b,
    }
}

fn mov(dst: u32, v: u64) -> KOp {
    KOp::Mov {
        ty: DataType::U32,
        dst: Reg(dst),
        src: Operand::Imm(v),
    }
}

fn st(addr: u32, v: u32) -> KOp {
    KOp::St {
        attrs: MemAttrs::default(),
        ty: DataType::U32,
        src: vec![r(v)],
        addr: Addr {
            base: AddrBase::Reg(Reg(addr)),
            offset: 0,
        },
    }
}

fn bra(target: u32) -> KOp {
    KOp::Bra { target }
}

fn g(reg: u32) -> KGuard {
    KGuard {
        reg: Reg(reg),
        negated: false,
    }
}

/// ```text
/// B0  0: setp.lt r1, r0, 4
///     1: @r1 bra 4
/// B1  2: add r2, r0, 1
///     3: bra 6
/// B2  4: bar.sync 0          (a barrier in one branch)
///     5: mov r2, 7
/// B3  6: st [r3], r2
///     7: exit
/// ```
fn if_else_with_barrier() -> Kernel {
    kernel(vec![
        ins(setp(1, 0, Operand::Imm(4))),
        guarded(1, false, bra(4)),
        ins(add(2, 0, Operand::Imm(1))),
        ins(bra(6)),
        ins(KOp::Barrier {
            kind: BarrierKind::Sync,
            id: Operand::Imm(0),
            count: None,
            red: None,
        }),
        ins(mov(2, 7)),
        ins(st(3, 2)),
        ins(KOp::Exit),
    ])
}

#[test]
fn if_else_blocks_dominators_and_reconvergence() {
    let k = if_else_with_barrier();
    let c = KCfg::new(&k);
    let spans: Vec<(usize, usize)> = c.blocks.iter().map(|b| (b.start, b.end)).collect();
    assert_eq!(spans, vec![(0, 2), (2, 4), (4, 6), (6, 8)]);
    assert_eq!(c.block_of, vec![0, 0, 1, 1, 2, 2, 3, 3]);
    assert_eq!(
        c.blocks[0].succs,
        vec![(2, EdgeCond::Guard(g(1))), (1, EdgeCond::NotGuard(g(1)))]
    );
    assert_eq!(c.blocks[1].succs, vec![(3, EdgeCond::Always)]);
    assert_eq!(c.blocks[2].succs, vec![(3, EdgeCond::Always)]);
    assert!(c.blocks[3].succs.is_empty() && c.blocks[3].exits);
    assert!(!c.blocks[0].exits && !c.blocks[1].exits);
    assert_eq!(c.blocks[3].preds, vec![1, 2]);
    assert_eq!(c.idom, vec![Some(0), Some(0), Some(0), Some(0)]);
    assert_eq!(c.ipdom, vec![Some(3), Some(3), Some(3), None]);
    assert!(c.dominates(0, 3) && !c.dominates(1, 3));
    assert!(c.post_dominates(3, 0) && !c.post_dominates(2, 0));
    // Both sides reconverge at the store (pc 6); the exit node is 8.
    assert_eq!(c.instr_ipdoms(), vec![1, 6, 3, 6, 5, 6, 7, 8, 8]);
    assert!(c.loops.is_empty() && c.irreducible.is_none());
    assert_eq!(c.region_order(None), vec![0, 1, 2, 3]);
    // r0 is read on both paths, r3 at the store; r2 is written on both paths before it.
    let l = c.live_in(&k, None, &RegSet::default());
    assert_eq!(live(&l[0]), vec![0, 3]);
    assert_eq!(live(&l[1]), vec![0, 3]);
    assert_eq!(live(&l[2]), vec![3]);
    assert_eq!(live(&l[3]), vec![2, 3]);
}

/// Nested loops with a break out of both and a guarded early exit:
/// ```text
/// B0  0: mov r0, 0
/// B1  1: mov r1, 0            outer header
/// B2  2: add r1, r1, 1        inner header
///     3: setp.lt r2, r1, 10
///     4: @r2 bra 9            break out of both loops
/// B3  5: setp.lt r3, r1, r0
///     6: @r3 bra 2            inner back edge
/// B4  7: add r0, r0, 1
///     8: bra 1                outer back edge
/// B5  9: @r3 exit             early exit
/// B6 10: st [r4], r0
///    11: exit
/// ```
fn nested_loops() -> Kernel {
    kernel(vec![
        ins(mov(0, 0)),
        ins(mov(1, 0)),
        ins(add(1, 1, Operand::Imm(1))),
        ins(setp(2, 1, Operand::Imm(10))),
        guarded(2, false, bra(9)),
        ins(setp(3, 1, r(0))),
        guarded(3, false, bra(2)),
        ins(add(0, 0, Operand::Imm(1))),
        ins(bra(1)),
        guarded(3, false, KOp::Exit),
        ins(st(4, 0)),
        ins(KOp::Exit),
    ])
}

#[test]
fn nested_loops_with_break_and_early_exit() {
    let k = nested_loops();
    let c = KCfg::new(&k);
    let spans: Vec<(usize, usize)> = c.blocks.iter().map(|b| (b.start, b.end)).collect();
    assert_eq!(
        spans,
        vec![(0, 1), (1, 2), (2, 5), (5, 7), (7, 9), (9, 10), (10, 12)]
    );
    assert_eq!(
        c.blocks[2].succs,
        vec![(5, EdgeCond::Guard(g(2))), (3, EdgeCond::NotGuard(g(2)))]
    );
    assert_eq!(c.blocks[4].succs, vec![(1, EdgeCond::Always)]);
    assert_eq!(c.blocks[5].succs, vec![(6, EdgeCond::NotGuard(g(3)))]);
    assert!(c.blocks[5].exits && c.blocks[6].exits && !c.blocks[4].exits);
    assert_eq!(c.blocks[1].preds, vec![0, 4]);
    assert_eq!(c.rpo, vec![0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(
        c.idom,
        vec![
            Some(0),
            Some(0),
            Some(1),
            Some(2),
            Some(3),
            Some(2),
            Some(5)
        ]
    );
    // Every path from the loops leaves through B5; B3 returns to the inner header first.
    assert_eq!(
        c.ipdom,
        vec![Some(1), Some(2), Some(5), Some(2), Some(1), None, None]
    );
    assert_eq!(
        c.instr_ipdoms(),
        vec![1, 2, 3, 4, 9, 6, 2, 8, 1, 12, 11, 12, 12]
    );
    // Loops, innermost first.
    assert_eq!(c.irreducible, None);
    assert_eq!(c.loops.len(), 2);
    let (inner, outer) = (&c.loops[0], &c.loops[1]);
    assert_eq!(inner.header, 2);
    assert_eq!(inner.blocks, set(&[2, 3]));
    assert_eq!(inner.latches, set(&[3]));
    assert_eq!(inner.exits, set(&[4, 5]));
    assert_eq!(inner.parent, Some(1));
    assert_eq!(outer.header, 1);
    assert_eq!(outer.blocks, set(&[1, 2, 3, 4]));
    assert_eq!(outer.latches, set(&[4]));
    assert_eq!(outer.exits, set(&[5]));
    assert_eq!((outer.parent, outer.children.clone()), (None, vec![0]));
    assert_eq!(c.roots, vec![1]);
    assert_eq!(c.loop_at.get(&2), Some(&0));
    assert_eq!(c.innermost_loop(3), Some(0));
    assert_eq!(c.innermost_loop(4), Some(1));
    assert_eq!(c.innermost_loop(6), None);
    // Regions with their inner loops collapsed into the headers.
    assert_eq!(c.region_order(None), vec![0, 1, 5, 6]);
    assert_eq!(c.region_order(Some(1)), vec![1, 2, 4]);
    assert_eq!(c.region_order(Some(0)), vec![2, 3]);
    // Liveness: r3 is read by the early exit (possibly before any write: may-liveness keeps
    // it live up to the entry), r4 and r0 by the store; r1 is written at the outer header.
    let l = c.live_in(&k, None, &RegSet::default());
    let got: Vec<Vec<usize>> = l.iter().map(live).collect();
    assert_eq!(
        got,
        vec![
            vec![3, 4],
            vec![0, 3, 4],
            vec![0, 1, 3, 4],
            vec![0, 1, 4],
            vec![0, 3, 4],
            vec![0, 3, 4],
            vec![0, 4],
        ]
    );
    // Registers dead at a header: written before read on every path in the loop and never
    // read outside it. Inner loop: r2 (r1 is read first, r3 read at the early exit).
    assert_eq!(c.dead_at_header(&k, 0, &set(&[1, 2, 3])), set(&[2]));
    // Outer loop: r1 (reset at its header) and r2.
    assert_eq!(c.dead_at_header(&k, 1, &set(&[0, 1, 2, 3])), set(&[1, 2]));
}

#[test]
fn branch_past_the_end_and_infinite_loop() {
    // B0 0: nop; 1: @r0 bra 0 (a loop)   B1 2: bra 4 (to the end: leaves)
    // B2 3: bra 3 (unreachable self loop that never reaches the exit)
    let k = kernel(vec![
        ins(KOp::Nop),
        guarded(0, false, bra(0)),
        ins(bra(4)),
        ins(bra(3)),
    ]);
    let c = KCfg::new(&k);
    let spans: Vec<(usize, usize)> = c.blocks.iter().map(|b| (b.start, b.end)).collect();
    assert_eq!(spans, vec![(0, 2), (2, 3), (3, 4)]);
    assert!(c.blocks[1].succs.is_empty() && c.blocks[1].exits);
    assert_eq!(c.blocks[2].succs, vec![(2, EdgeCond::Always)]);
    assert_eq!(c.reaches_exit, vec![true, true, false]);
    assert!(!c.reachable(2));
    assert_eq!(c.instr_ipdoms(), vec![1, 2, 4, 4, 4]);
    // Only the reachable loop is a loop.
    assert_eq!(c.loops.len(), 1);
    assert_eq!(c.loops[0].blocks, set(&[0]));
    assert_eq!(c.loops[0].exits, set(&[1]));
}

#[test]
fn irreducible_cycle_is_reported() {
    // B0 0: @r0 bra 2   B1 1: nop   B2 2: nop; 3: @r1 bra 1   B3 4: exit
    // The cycle B1 <-> B2 is entered at both blocks.
    let k = kernel(vec![
        guarded(0, false, bra(2)),
        ins(KOp::Nop),
        ins(KOp::Nop),
        guarded(1, false, bra(1)),
        ins(KOp::Exit),
    ]);
    let c = KCfg::new(&k);
    assert_eq!(c.rpo, vec![0, 2, 3, 1]);
    assert_eq!(c.irreducible, Some(2));
    assert!(c.loops.is_empty());
}

#[test]
fn empty_kernel_and_bad_targets_do_not_panic() {
    let c = KCfg::new(&kernel(vec![]));
    assert_eq!(c.blocks.len(), 1);
    assert_eq!(c.instr_ipdoms(), vec![0]);
    let c = KCfg::new(&kernel(vec![ins(bra(1000)), guarded(0, true, KOp::Trap)]));
    assert_eq!(c.instr_ipdoms(), vec![2, 2, 2]);
    assert!(c.blocks[0].exits);
}
