//! Where the code of each `__function_wide_invariant(e)` stands in the kernel, so that the
//! verifier can evaluate `e` again at every loop head of the function (GPUVerify's meaning:
//! an invariant of every loop of the function it is written in; OOPSLA'12 §5, user
//! invariants). clang compiles `e` where it is written (usually after the loops), as a short
//! forward piece of code ending in the annotation; this module finds that piece and, for the
//! registers it reads, the single instruction defining each one, so that a value computed
//! after a loop from values that exist before it (`N = get_global_size(0)` converted after
//! the first loop) can be computed at the loop head too. The invariant evaluated at a head is
//! a function of the loop state only and is checked on entry and on the back edge like any
//! user invariant, so how faithfully the piece is recovered changes precision, not soundness.

use weft_ir::attrs::MemSpace;
use weft_ir::kernel::{AddrBase, AnnotKind, KOp, Kernel};

/// One `__function_wide_invariant`: its annotation at `pc`, its condition's code at
/// `start..pc`, and its source line when the PTX has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionWide {
    pub pc: usize,
    pub start: usize,
    pub line: Option<u32>,
}

/// Register-to-register arithmetic: no memory, no control flow, no query.
fn register_arith(op: &KOp) -> bool {
    matches!(
        op,
        KOp::Mov { .. }
            | KOp::Unary { .. }
            | KOp::Binary { .. }
            | KOp::Mad { .. }
            | KOp::Setp { .. }
            | KOp::Selp { .. }
            | KOp::Cvt { .. }
            | KOp::Cvta { .. }
            | KOp::Bfe { .. }
            | KOp::Bfi { .. }
            | KOp::Shf { .. }
            | KOp::Prmt { .. }
    )
}

/// Whether `pc` may be part of an annotation's condition code ending at `end`: register
/// arithmetic, queries, the front-end's spills of call arguments to `.local` variables,
/// kernel parameter loads, and branches forward inside the piece (`&&`, `||`, `?:`).
/// Memory accesses, atomics, barriers and other annotations end the piece.
fn in_piece(k: &Kernel, pc: usize, end: usize) -> bool {
    let local_var = |v: u32| k.vars.get(v as usize).map(|x| x.space) == Some(MemSpace::Local);
    match &k.code[pc].op {
        op if register_arith(op) => true,
        KOp::Query { .. } | KOp::Nop => true,
        KOp::Bra { target } => (*target as usize) > pc && (*target as usize) <= end,
        KOp::Ld { attrs, addr, .. } => {
            matches!(attrs.space, Some(MemSpace::Param | MemSpace::Local))
                || matches!(addr.base, AddrBase::Param(_))
                || matches!(addr.base, AddrBase::Var(v) if local_var(v))
        }
        KOp::St { attrs, addr, .. } => {
            attrs.space == Some(MemSpace::Local)
                || matches!(addr.base, AddrBase::Var(v) if local_var(v))
        }
        _ => false,
    }
}

/// The function-wide invariants of `k`, each with the start of its condition's code: the
/// longest run of instructions before the annotation that may belong to the condition
/// ([`in_piece`]) and, where the PTX has line information, stand on the annotation's line,
/// extended over the code of a function-wide invariant right before it.
pub fn find(k: &Kernel) -> Vec<FunctionWide> {
    let mut out = Vec::new();
    for (pc, i) in k.code.iter().enumerate() {
        let KOp::Annot {
            kind: AnnotKind::FunctionWideInvariant,
            ..
        } = i.op
        else {
            continue;
        };
        let line = i.loc.map(|l| (l.file, l.line));
        let mut start = pc;
        while start > 0 {
            let p = start - 1;
            let same_line = match (line, k.code[p].loc) {
                (Some(a), Some(b)) => a == (b.file, b.line),
                _ => true,
            };
            if !same_line || !in_piece(k, p, pc) {
                break;
            }
            start = p;
        }
        // Annotations written one after the other share code (clang computes a constant
        // the next condition uses, such as `1` for an implication whose premise is false,
        // once in the first): a piece that directly follows another starts with it.
        if let Some(prev) = out.last().filter(|p: &&FunctionWide| p.pc + 1 == start) {
            start = prev.start;
        }
        out.push(FunctionWide {
            pc,
            start,
            line: line.map(|l| l.1).filter(|&l| l > 0),
        });
    }
    out
}

/// For each register, the instruction defining it when it has exactly one definition, an
/// unguarded pure computation from registers, constants, special registers and kernel
/// parameters: its value wherever it is defined is that instruction applied to the values
/// its operands have there.
pub fn single_pure_defs(k: &Kernel) -> Vec<Option<usize>> {
    let mut count = vec![0u32; k.regs.len()];
    let mut def = vec![None; k.regs.len()];
    for (pc, i) in k.code.iter().enumerate() {
        for r in i.op.defs() {
            let r = r.index();
            if let Some(c) = count.get_mut(r) {
                *c += 1;
                def[r] = Some(pc);
            }
        }
    }
    let pure = |pc: usize| {
        let i = &k.code[pc];
        i.guard.is_none()
            && match &i.op {
                op if register_arith(op) => true,
                KOp::Ld { attrs, addr, .. } => {
                    attrs.space == Some(MemSpace::Param) && matches!(addr.base, AddrBase::Param(_))
                }
                _ => false,
            }
    };
    (0..k.regs.len())
        .map(|r| def[r].filter(|&pc| count[r] == 1 && pure(pc)))
        .collect()
}

/// The registers the piece `start..end` reads before writing them (in program order).
pub fn inputs(k: &Kernel, start: usize, end: usize) -> Vec<usize> {
    let mut written = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for i in &k.code[start..=end.min(k.code.len().saturating_sub(1))] {
        for r in i.uses().into_iter().map(|r| r.index()) {
            if !written.contains(&r) && !out.contains(&r) {
                out.push(r);
            }
        }
        written.extend(i.op.defs().into_iter().map(|r| r.index()));
    }
    out
}
