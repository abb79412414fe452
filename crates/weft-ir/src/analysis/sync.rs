//! Paper 003 §3.1: which trace operation each memory instruction of a kernel produces (the
//! vocabulary the race detector, `weft-race`, and the PTX instrumentation, `weft-instrument`,
//! share; re-exported as `weft_race::classify`).
//!
//! The paper's rules, applied to the static code:
//! 1. a store immediately preceded by a fence is a release (`relBlk`/`relGlb` by the fence);
//! 2. a load immediately followed by a fence is an acquire;
//! 3. an atomic between two fences is an acquire-release;
//! 4. `atom.cas` followed by a fence is an acquire; 5. a fence followed by `atom.exch` a
//!    release; 6. any other atomic is a plain `atm`; 7. everything else is `rd`/`wr`.
//!
//! `membar.cta`/`fence.*.cta` give block scope; `.gl`/`.gpu` and `.sys` (footnote 1: system
//! fences count as global) give global scope.
//!
//! Extra cases (the paper's tool saw nvcc 7.5/8 PTX; weft reads clang-19's PTX and the
//! PTX 6+ memory model), each tested in weft-race's `tests/classify.rs`:
//! - E1 "immediately" skips instructions that neither access memory nor transfer control
//!   (clang puts address arithmetic, `setp` and `ld.param` between an atomic and its fence),
//!   and looking forward it follows branches, leaving out the back edge of a loop around the
//!   instruction: `atom.cas; setp; @p bra loop; membar.gl` is the CAS spin loop the paper's
//!   rule 4 describes, compiled as a loop (also with the exit as the taken branch, or with
//!   two such loops joined before one fence, as clang compiles an `if` whose two sides take
//!   the same lock);
//! - E2 explicit PTX orders: `ld.acquire`/`st.release`/`atom.acq_rel` (and `.sc`) are
//!   acquires/releases at their own scope (`.cta` block, otherwise global) — they are what
//!   the fence idioms of rules 1-5 are shorthand for;
//! - E3 `ld.relaxed`/`st.relaxed` with a scope are strong (atomic) accesses in the PTX memory
//!   model: without an adjacent fence they are traced as `atm` (they do not race with other
//!   atomics and do not synchronise); with one, rules 1-2 make them releases/acquires as any
//!   load or store. `ld.volatile`/`st.volatile` stay plain accesses as in the paper;
//! - E4 rule 1 does not apply to a store whose fence is an atomic's acquire fence (rule 4's
//!   `atom.cas; membar`, or rule 3's `membar; atom; membar`): in the lock idiom
//!   `while (atomicCAS(l, 0, 1)); __threadfence(); x = v; ...` that store is the critical
//!   section's first write, and as a release it would be an atomic access that races with
//!   nothing (the ScoR microbenchmarks `*lock-no-tf*`, whose unlock has no fence, were all
//!   missed; docs/race.md "ScoR microbenchmarks");
//! - E5 rules 4-6 widened to the PTX memory model's release and acquire *patterns* (PTX ISA,
//!   chapter "Memory Consistency Model", sections "Release and Acquire Patterns", "Morally
//!   strong operations", "Observation order", and "Causality Order", whose base causality
//!   order includes a release pattern *synchronizing with* an acquire pattern, the
//!   fence-synchronisation of `F_rel; W` with `R; F_acq`): a fence followed by any strong
//!   write on M — every atomic (`atom.exch`, `.add`, `.cas`, `.inc`, ..., `red`) — is a
//!   release pattern on M, and any strong read on M followed by a fence — every atomic, not
//!   only `atom.cas` — an acquire pattern. Rules 4 and 5 are the cases
//!   `atom.cas; membar` and `membar; atom.exch` of these; paper 003 kept the others `atm`,
//!   which reported `while (atomicAdd(&flag, 0) == 0); __threadfence(); x = data;` as racy
//!   although the PTX model makes it synchronised. Without the fence on its side an atomic
//!   stays `atm` (a relaxed RMW alone neither releases nor acquires). E4 covers the new
//!   acquire fences too (`while (atomicExch(&lock, 1)); __threadfence(); x = v;` is a lock);
//! - E6 scope: the synchronisation needs the fence *and* the strong access morally strong
//!   with the other side (each one's scope includes the other thread), so a pattern's scope
//!   is the narrower of the fence's and the access's own: `atomicAdd_block(&flag, 1)` or
//!   `ld.relaxed.cta` next to a `__threadfence()` gives block scope (a `__threadfence_block()`
//!   gives block scope whatever the atomic's). Volatile accesses are relaxed at system scope
//!   (PTX ISA, "Volatile operations"), unscoped atomics at GPU scope: both global.

use crate::attrs::{FenceKind, MemSpace, Order};
use crate::kernel::{KOp, Kernel};
use crate::Scope;

/// Block or global scope of a synchronisation operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope2 {
    Block,
    Global,
}

/// The trace operation of a memory instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncOp {
    /// `rd`/`wr`.
    Plain,
    /// `atm`: an atomic that neither acquires nor releases.
    Atm,
    Acq(Scope2),
    Rel(Scope2),
    /// Acquire (scope of the following fence) and release (scope of the preceding fence).
    Ar {
        acq: Scope2,
        rel: Scope2,
    },
}

/// What the detector needs to know about one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PcInfo {
    pub op: SyncOp,
    /// An atomic whose own scope is the CTA (`atom.cta`, `atomicAdd_block`).
    pub block_scope_atomic: bool,
}

fn scope_of(s: Option<Scope>) -> Scope2 {
    match s {
        Some(Scope::Cta) | Some(Scope::Warp) | Some(Scope::Thread) => Scope2::Block,
        _ => Scope2::Global,
    }
}

fn fence_scope(op: &KOp) -> Option<Scope2> {
    match op {
        KOp::Fence {
            kind: FenceKind::Membar | FenceKind::Fence,
            attrs,
        } => Some(scope_of(attrs.scope)),
        _ => None,
    }
}

/// Accesses memory or transfers control (ends the search for an adjacent fence). A
/// `.param` load is not a memory access of the trace (clang sinks `ld.param` of a kernel
/// argument to the join after a lock's spin loop, between the CAS and its fence).
fn blocks_search(op: &KOp) -> bool {
    if let KOp::Ld { attrs, .. } = op {
        return !matches!(attrs.space, Some(MemSpace::Param));
    }
    matches!(
        op,
        KOp::St { .. }
            | KOp::Atom { .. }
            | KOp::Barrier { .. }
            | KOp::Bra { .. }
            | KOp::Exit
            | KOp::Trap
    )
}

/// The fence right before (`dir = -1`) or after (`dir = 1`) instruction `pc` (E1).
pub fn adjacent_fence(k: &Kernel, pc: usize, dir: isize) -> Option<Scope2> {
    adjacent_fence_at(k, pc, dir).map(|(_, s)| s)
}

/// [`adjacent_fence`] with the fence's own position.
fn adjacent_fence_at(k: &Kernel, pc: usize, dir: isize) -> Option<(usize, Scope2)> {
    if dir > 0 {
        let mut steps = 0;
        return match fence_ahead(k, pc, pc + 1, &mut steps) {
            Ahead::Fence(f, s) => Some((f, s)),
            Ahead::Back | Ahead::None => None,
        };
    }
    let mut i = pc as isize + dir;
    while i >= 0 && (i as usize) < k.code.len() {
        let ins = &k.code[i as usize];
        if let Some(s) = fence_scope(&ins.op) {
            return Some((i as usize, s));
        }
        if blocks_search(&ins.op) {
            return None;
        }
        i += dir;
    }
    None
}

/// What the forward search finds on one path.
#[derive(Clone, Copy, PartialEq)]
enum Ahead {
    Fence(usize, Scope2),
    /// A branch back to (or before) the instruction searched from: the spin loop's back
    /// edge, not a way out of it.
    Back,
    None,
}

/// Most instructions the forward search looks at (paths are a few instructions long).
const AHEAD_STEPS: u32 = 64;

/// E1 forward: the fence that every path out of instruction `from` reaches first, starting
/// at `i` and skipping instructions that neither access memory nor branch. A conditional
/// branch continues on both paths and an unconditional one at its target; a path that
/// branches back to `from` or before is the loop's back edge and is left out (clang
/// compiles `while (atomicCAS(l, 0, 1)); __threadfence();` with the exit either as the
/// fall-through or as the taken branch, and when the two sides of an `if` take the same lock
/// it merges them at the fence).
fn fence_ahead(k: &Kernel, from: usize, mut i: usize, steps: &mut u32) -> Ahead {
    while i < k.code.len() {
        *steps += 1;
        if *steps > AHEAD_STEPS {
            return Ahead::None;
        }
        let ins = &k.code[i];
        if let Some(s) = fence_scope(&ins.op) {
            return Ahead::Fence(i, s);
        }
        if let KOp::Bra { target } = ins.op {
            let t = target as usize;
            let taken = if t <= from {
                Ahead::Back
            } else {
                fence_ahead(k, from, t, steps)
            };
            if ins.guard.is_none() {
                return taken;
            }
            let fall = fence_ahead(k, from, i + 1, steps);
            return match (taken, fall) {
                (Ahead::Back, x) | (x, Ahead::Back) => x,
                (a, b) if a == b => a,
                _ => Ahead::None,
            };
        }
        if blocks_search(&ins.op) {
            return Ahead::None;
        }
        i += 1;
    }
    Ahead::None
}

/// E4: the fence at `fence` is an atomic's acquire fence — the fence after `atom.cas`
/// (rule 4) or after an atomic that a fence also precedes (rule 3) — so a store right after
/// it is the first write of a critical section, not a release.
fn is_atomic_acquire_fence(k: &Kernel, fence: usize) -> bool {
    k.code.iter().enumerate().any(|(pc, ins)| match &ins.op {
        KOp::Atom { attrs, .. } if matches!(attrs.order, Order::Plain | Order::Relaxed) => {
            adjacent_fence_at(k, pc, 1).is_some_and(|(f, _)| f == fence)
        }
        _ => false,
    })
}

/// E6: the scope of a pattern made of a fence of scope `fence` and a strong access of scope
/// `own` (`None`: no scope written, GPU scope for atomics, system for volatile): the
/// narrower of the two.
fn pattern_scope(fence: Scope2, own: Option<Scope>) -> Scope2 {
    match (fence, scope_of(own)) {
        (Scope2::Global, Scope2::Global) => Scope2::Global,
        _ => Scope2::Block,
    }
}

/// The §3.1 classification of every instruction (`None` for non-memory instructions and
/// param-space loads).
pub fn classify_kernel(k: &Kernel) -> Vec<Option<PcInfo>> {
    (0..k.code.len()).map(|pc| classify(k, pc)).collect()
}

fn order_op(order: Order, scope: Option<Scope>, load: bool, store: bool) -> Option<SyncOp> {
    let s = scope_of(scope);
    match order {
        Order::Acquire | Order::Consume if load => Some(SyncOp::Acq(s)),
        Order::Release if store => Some(SyncOp::Rel(s)),
        Order::AcqRel | Order::SeqCst => Some(match (load, store) {
            (true, true) => SyncOp::Ar { acq: s, rel: s },
            (true, false) => SyncOp::Acq(s),
            _ => SyncOp::Rel(s),
        }),
        Order::Acquire | Order::Consume => Some(SyncOp::Ar { acq: s, rel: s }),
        Order::Release => Some(SyncOp::Ar { acq: s, rel: s }),
        Order::Relaxed if scope.is_some() => Some(SyncOp::Atm),
        _ => None,
    }
}

/// The classification of instruction `pc`.
pub fn classify(k: &Kernel, pc: usize) -> Option<PcInfo> {
    let op = &k.code[pc].op;
    let plain = |o| {
        Some(PcInfo {
            op: o,
            block_scope_atomic: false,
        })
    };
    match op {
        KOp::Ld { attrs, .. } => {
            if matches!(attrs.space, Some(MemSpace::Param)) {
                return None;
            }
            if attrs.order != Order::Relaxed {
                if let Some(o) = order_op(attrs.order, attrs.scope, true, false) {
                    return plain(o);
                }
            }
            match adjacent_fence(k, pc, 1) {
                Some(s) => plain(SyncOp::Acq(pattern_scope(s, attrs.scope))),
                None => {
                    plain(order_op(attrs.order, attrs.scope, true, false).unwrap_or(SyncOp::Plain))
                }
            }
        }
        KOp::St { attrs, .. } => {
            if attrs.order != Order::Relaxed {
                if let Some(o) = order_op(attrs.order, attrs.scope, false, true) {
                    return plain(o);
                }
            }
            match adjacent_fence_at(k, pc, -1) {
                Some((f, s)) if !is_atomic_acquire_fence(k, f) => {
                    plain(SyncOp::Rel(pattern_scope(s, attrs.scope)))
                }
                _ => {
                    plain(order_op(attrs.order, attrs.scope, false, true).unwrap_or(SyncOp::Plain))
                }
            }
        }
        KOp::Atom { attrs, .. } => {
            let block = matches!(
                attrs.scope,
                Some(Scope::Cta) | Some(Scope::Warp) | Some(Scope::Thread)
            ) && !matches!(attrs.space, Some(MemSpace::Shared));
            let o = match order_op(attrs.order, attrs.scope, true, true) {
                Some(o) if attrs.order != Order::Relaxed => o,
                _ => {
                    // E5/E6: release and acquire patterns (every atomic, `red` too, is a
                    // strong read and a strong write of the PTX model).
                    let own = |f: Scope2| pattern_scope(f, attrs.scope);
                    let before = adjacent_fence(k, pc, -1).map(own);
                    let after = adjacent_fence(k, pc, 1).map(own);
                    match (before, after) {
                        (Some(rel), Some(acq)) => SyncOp::Ar { acq, rel },
                        (None, Some(acq)) => SyncOp::Acq(acq),
                        (Some(rel), None) => SyncOp::Rel(rel),
                        (None, None) => SyncOp::Atm,
                    }
                }
            };
            Some(PcInfo {
                op: o,
                block_scope_atomic: block,
            })
        }
        _ => None,
    }
}
