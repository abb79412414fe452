//! Paper 003 §3.1's inference of trace operations, rule by rule, and the extra cases E1-E6
//! of `classify.rs` (E5-E6: the PTX model's release and acquire patterns) (each expected classification derived by hand from the rule it tests).

use weft_race::{classify_kernel, PcInfo, Scope2, SyncOp};

const HEAD: &str = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<9>;\n.reg .b64 %rd<4>;\n.reg .pred %p<3>;\nld.param.u64 %rd1, [p];\n";

/// The classifications of the memory instructions (loads other than `ld.param`, stores,
/// atomics) of `body`, in order.
fn ops(body: &str) -> Vec<PcInfo> {
    let text = format!("{HEAD}{body}\nret;\n}}\n");
    let m = weft_ptx::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let k = weft_ptx::lower_kernel(&m, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    classify_kernel(&k).into_iter().flatten().collect()
}

fn op(body: &str) -> Vec<SyncOp> {
    ops(body).into_iter().map(|i| i.op).collect()
}

use Scope2::{Block, Global};
use SyncOp::*;

#[test]
fn rule1_store_preceded_by_fence_is_release() {
    assert_eq!(op("membar.gl;\nst.global.u32 [%rd1], 1;"), [Rel(Global)]);
    assert_eq!(op("membar.cta;\nst.global.u32 [%rd1], 1;"), [Rel(Block)]);
    // Footnote 1: system fences are global.
    assert_eq!(op("membar.sys;\nst.global.u32 [%rd1], 1;"), [Rel(Global)]);
    assert_eq!(op("fence.sc.gpu;\nst.global.u32 [%rd1], 1;"), [Rel(Global)]);
    // A store followed (not preceded) by a fence stays a write.
    assert_eq!(op("st.global.u32 [%rd1], 1;\nmembar.gl;"), [Plain]);
}

#[test]
fn rule2_load_followed_by_fence_is_acquire() {
    assert_eq!(op("ld.global.u32 %r1, [%rd1];\nmembar.gl;"), [Acq(Global)]);
    assert_eq!(op("ld.global.u32 %r1, [%rd1];\nmembar.cta;"), [Acq(Block)]);
    // Preceded by a fence: a plain read.
    assert_eq!(op("membar.gl;\nld.global.u32 %r1, [%rd1];"), [Plain]);
    // Volatile loads are inferred the same way (and are plain reads without a fence).
    assert_eq!(
        op("ld.volatile.global.u32 %r1, [%rd1];\nmembar.gl;"),
        [Acq(Global)]
    );
    assert_eq!(op("ld.volatile.global.u32 %r1, [%rd1];"), [Plain]);
}

#[test]
fn rule3_atomic_between_fences_is_acquire_release() {
    assert_eq!(
        op("membar.cta;\natom.global.add.u32 %r1, [%rd1], 1;\nmembar.gl;"),
        [Ar {
            acq: Global,
            rel: Block
        }]
    );
    assert_eq!(
        op("membar.gl;\natom.global.exch.b32 %r1, [%rd1], 0;\nmembar.gl;"),
        [Ar {
            acq: Global,
            rel: Global
        }]
    );
}

#[test]
fn rules4_5_cas_acquires_exch_releases() {
    assert_eq!(
        op("atom.global.cas.b32 %r1, [%rd1], 0, 1;\nmembar.gl;"),
        [Acq(Global)]
    );
    assert_eq!(
        op("membar.gl;\natom.global.exch.b32 %r1, [%rd1], 0;"),
        [Rel(Global)]
    );
    // The other way round they are the PTX model's patterns too (E5): a fence then a
    // CAS's strong write is a release, an exchange's strong read then a fence an acquire.
    assert_eq!(
        op("membar.gl;\natom.global.cas.b32 %r1, [%rd1], 0, 1;"),
        [Rel(Global)]
    );
    assert_eq!(
        op("atom.global.exch.b32 %r1, [%rd1], 0;\nmembar.gl;"),
        [Acq(Global)]
    );
}

#[test]
fn e5_every_atomic_next_to_a_fence_is_a_pattern() {
    // Release pattern F; W (PTX "Release and Acquire Patterns"), any RMW, `red` included.
    assert_eq!(
        op("membar.gl;\natom.global.inc.u32 %r1, [%rd1], 7;"),
        [Rel(Global)]
    );
    assert_eq!(
        op("fence.acq_rel.gpu;\natom.global.add.u32 %r1, [%rd1], 1;"),
        [Rel(Global)]
    );
    assert_eq!(
        op("membar.cta;\nred.global.add.u32 [%rd1], 1;"),
        [Rel(Block)]
    );
    // Acquire pattern R; F: an atomicAdd(&flag, 0) poll, an exchange, a max.
    assert_eq!(
        op("atom.global.add.u32 %r1, [%rd1], 0;\nmembar.gl;"),
        [Acq(Global)]
    );
    assert_eq!(
        op("atom.global.max.s32 %r1, [%rd1], 0;\nmembar.cta;"),
        [Acq(Block)]
    );
    // A spin loop on atomicAdd(&flag, 0) whose exit falls through to the fence (E1).
    assert_eq!(
        op("$L:\natom.global.add.u32 %r1, [%rd1], 0;\nsetp.eq.s32 %p1, %r1, 0;\n@%p1 bra $L;\nmembar.gl;"),
        [Acq(Global)]
    );
    // No fence on its side, no pattern: a relaxed RMW alone neither acquires nor releases.
    assert_eq!(op("atom.global.add.u32 %r1, [%rd1], 1;"), [Atm]);
    assert_eq!(op("red.global.add.u32 [%rd1], 1;"), [Atm]);
    assert_eq!(
        op("atom.global.add.u32 %r1, [%rd1], 1;\nst.global.u32 [%rd1+4], 1;\nmembar.gl;"),
        [Atm, Plain]
    );
}

#[test]
fn e6_pattern_scope_is_the_narrower_of_fence_and_access() {
    // A block-scoped atomic with a GPU fence: block scope on either side.
    assert_eq!(
        op("membar.gl;\natom.relaxed.cta.global.exch.b32 %r1, [%rd1], 1;"),
        [Rel(Block)]
    );
    assert_eq!(
        op("atom.relaxed.cta.global.add.u32 %r1, [%rd1], 0;\nmembar.gl;"),
        [Acq(Block)]
    );
    assert_eq!(
        op("membar.gl;\natom.relaxed.cta.global.add.u32 %r1, [%rd1], 0;\nmembar.gl;"),
        [Ar {
            acq: Block,
            rel: Block
        }]
    );
    // A block fence with a GPU-scope atomic: block scope.
    assert_eq!(
        op("membar.cta;\natom.global.exch.b32 %r1, [%rd1], 1;"),
        [Rel(Block)]
    );
    // System-scope atomics and volatile (relaxed.sys) accesses: the fence decides.
    assert_eq!(
        op("atom.relaxed.sys.global.add.u32 %r1, [%rd1], 0;\nmembar.gl;"),
        [Acq(Global)]
    );
    assert_eq!(
        op("membar.gl;\nst.volatile.global.u32 [%rd1], 1;"),
        [Rel(Global)]
    );
    // Relaxed loads and stores at CTA scope next to a GPU fence.
    assert_eq!(
        op("ld.relaxed.cta.global.u32 %r1, [%rd1];\nmembar.gl;"),
        [Acq(Block)]
    );
    assert_eq!(
        op("fence.sc.gpu;\nst.relaxed.cta.global.u32 [%rd1], 1;"),
        [Rel(Block)]
    );
}

#[test]
fn e1_skips_arithmetic_and_follows_the_fall_through() {
    // A CAS spin loop compiled as a loop: atom.cas; setp; @p bra; membar.
    assert_eq!(
        op("$L:\natom.global.cas.b32 %r1, [%rd1], 0, 1;\nsetp.ne.s32 %p1, %r1, 0;\n@%p1 bra $L;\nmembar.gl;"),
        [Acq(Global)]
    );
    // Arithmetic between a fence and a store is skipped.
    assert_eq!(
        op("membar.gl;\nadd.s32 %r2, %r2, 1;\nmov.u32 %r3, 5;\nst.global.u32 [%rd1], %r3;"),
        [Rel(Global)]
    );
    // Another memory access ends the search: only the second load is an acquire.
    assert_eq!(
        op("ld.global.u32 %r1, [%rd1];\nld.global.u32 %r2, [%rd1+4];\nmembar.gl;"),
        [Plain, Acq(Global)]
    );
    // Looking backward, a branch ends the search (the store may be reached another way).
    assert_eq!(
        op("membar.gl;\n@%p1 bra $L;\n$L:\nst.global.u32 [%rd1], 1;"),
        [Plain]
    );
    // A barrier ends it too.
    assert_eq!(
        op("membar.gl;\nbar.sync 0;\nst.global.u32 [%rd1], 1;"),
        [Plain]
    );
}

#[test]
fn e1_forward_follows_branches_and_leaves_out_the_back_edge() {
    // The loop's exit as the taken branch, the back edge an unconditional branch.
    assert_eq!(
        op("$L:\natom.global.cas.b32 %r1, [%rd1], 0, 1;\nsetp.eq.s32 %p1, %r1, 0;\n@%p1 bra $X;\nbra.uni $L;\n$X:\nmembar.gl;"),
        [Acq(Global)]
    );
    // clang's `if (c) lock; else lock;` with identical bodies: two spin loops joined at one
    // fence (ScoR's race_interblock_lock-no-tf_waw), the shared store after it plain (E4).
    assert_eq!(
        op("@%p1 bra $A;\n$B:\natom.global.cas.b32 %r1, [%rd1], 0, 1;\nsetp.ne.s32 %p2, %r1, 0;\n@%p2 bra $B;\nbra.uni $J;\n$A:\natom.global.cas.b32 %r2, [%rd1], 0, 1;\nsetp.eq.s32 %p0, %r2, 0;\n@%p0 bra $J;\nbra.uni $A;\n$J:\nmembar.gl;\nst.volatile.global.u32 [%rd1+4], %r3;\natom.global.exch.b32 %r4, [%rd1], 0;"),
        [Acq(Global), Acq(Global), Plain, Atm]
    );
    // A kernel-parameter load between the loop and the fence is skipped.
    assert_eq!(
        op("$L:\natom.global.cas.b32 %r1, [%rd1], 0, 1;\nsetp.ne.s32 %p1, %r1, 0;\n@%p1 bra $L;\nld.param.u64 %rd2, [p];\nmembar.cta;"),
        [Acq(Block)]
    );
    // Two ways out that reach different fences (or one that reaches none): no fence.
    assert_eq!(
        op("atom.global.cas.b32 %r1, [%rd1], 0, 1;\n@%p1 bra $X;\nmembar.gl;\nbra.uni $Y;\n$X:\nmembar.cta;\n$Y:\nret;"),
        [Atm]
    );
    assert_eq!(
        op("atom.global.cas.b32 %r1, [%rd1], 0, 1;\n@%p1 bra $X;\nmembar.gl;\n$X:\nst.global.u32 [%rd1], 1;"),
        // (the fence is then no CAS's acquire fence: rule 1 makes the store a release)
        [Atm, Rel(Global)]
    );
}

#[test]
fn e4_store_after_an_atomics_acquire_fence_is_plain() {
    // The lock's acquire fence is not also a release fence for the critical section's store.
    assert_eq!(
        op("atom.global.cas.b32 %r1, [%rd1], 0, 1;\nmembar.gl;\nst.global.u32 [%rd1+4], 1;"),
        [Acq(Global), Plain]
    );
    // Rule 3's acquire fence too.
    assert_eq!(
        op("membar.cta;\natom.global.add.u32 %r1, [%rd1], 1;\nmembar.gl;\nst.global.u32 [%rd1+4], 1;"),
        [
            Ar {
                acq: Global,
                rel: Block
            },
            Plain
        ]
    );
    // Any atomic's acquire fence (E5): the lock taken with an exchange or an add.
    assert_eq!(
        op("atom.global.exch.b32 %r1, [%rd1], 1;\nmembar.gl;\nst.global.u32 [%rd1+4], 1;"),
        [Acq(Global), Plain]
    );
    assert_eq!(
        op("atom.global.add.u32 %r1, [%rd1], 1;\nmembar.gl;\nst.global.u32 [%rd1+4], 1;"),
        [Acq(Global), Plain]
    );
    // The unlock's fence still makes the exchange a release.
    assert_eq!(
        op("atom.global.cas.b32 %r1, [%rd1], 0, 1;\nmembar.gl;\nst.global.u32 [%rd1+4], 1;\nmembar.gl;\natom.global.exch.b32 %r2, [%rd1], 0;"),
        [Acq(Global), Plain, Rel(Global)]
    );
}

#[test]
fn e2_explicit_orders() {
    assert_eq!(op("ld.acquire.gpu.global.u32 %r1, [%rd1];"), [Acq(Global)]);
    assert_eq!(op("ld.acquire.cta.global.u32 %r1, [%rd1];"), [Acq(Block)]);
    assert_eq!(op("st.release.sys.global.u32 [%rd1], 1;"), [Rel(Global)]);
    assert_eq!(op("st.release.cta.global.u32 [%rd1], 1;"), [Rel(Block)]);
    assert_eq!(
        op("atom.acq_rel.gpu.global.add.u32 %r1, [%rd1], 1;"),
        [Ar {
            acq: Global,
            rel: Global
        }]
    );
    assert_eq!(
        op("atom.acquire.cta.global.cas.b32 %r1, [%rd1], 0, 1;"),
        [Acq(Block)]
    );
}

#[test]
fn e3_relaxed_scoped_accesses_are_atomic() {
    assert_eq!(op("ld.relaxed.gpu.global.u32 %r1, [%rd1];"), [Atm]);
    assert_eq!(op("st.relaxed.cta.global.u32 [%rd1], 1;"), [Atm]);
    // A relaxed load followed by a fence is an acquire (rule 2 applies to it as to ld).
    assert_eq!(
        op("ld.relaxed.gpu.global.u32 %r1, [%rd1];\nmembar.gl;"),
        [Acq(Global)]
    );
    assert_eq!(
        op("membar.cta;\nst.relaxed.gpu.global.u32 [%rd1], 1;"),
        [Rel(Block)]
    );
}

#[test]
fn block_scoped_atomics_are_marked() {
    let i = ops("atom.relaxed.cta.global.add.u32 %r1, [%rd1], 1;\natom.global.add.u32 %r2, [%rd1], 1;\natom.relaxed.cta.shared.add.u32 %r3, [%rd1], 1;");
    let b: Vec<bool> = i.iter().map(|x| x.block_scope_atomic).collect();
    assert_eq!(b, [true, false, false]);
}
