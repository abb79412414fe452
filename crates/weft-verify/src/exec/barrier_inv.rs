//! Barrier invariants (GPUVerify; Chong et al., "Barrier Invariants", OOPSLA'13): the sink
//! stores `weft_verify.h` makes of `__barrier_invariant(e, i1, ...)` and of
//! `__array_snapshot(dst, src)`, the check of `e` where it is written, and its instantiation
//! after the next barrier.
//!
//! Meaning (GPUVerify's): `e` is a condition over the thread's id and the group's shared
//! state that every thread must satisfy at the barrier; after the barrier, whose havoc
//! forgets the shared state, `e` is assumed of the threads `i1..iN` (ids each thread computes
//! before the barrier). In the two-thread encoding: `e` is checked for `s` and `t` where
//! they are enabled (so for every thread); after the barrier, for each thread `k` of the pair
//! and each of its ids `i`, the violation term of `e` that `k` computed is instantiated by
//! putting `i` for `k`'s x id and the barrier's fresh memory for the memory `e` read, and
//! its negation is assumed (when `k` reached the barrier and `i` is a thread of the block),
//! provided the invariant was reached under the barrier's own condition (every thread that
//! reaches the barrier stated it, so thread `i` did: the divergence check makes the whole
//! block reach the barrier); one stated under a narrower condition is not assumed.
//!
//! Sound because the term is the condition as a function of the x id and the memory only:
//! an instantiation whose term mentions anything else (a value read before the condition, a
//! loop's havocked register, another state of memory, the other thread's id) is dropped
//! (nothing assumed), with a note. The condition's reads are ordinary reads of the program,
//! race-checked: a thread may state `e` only over cells no other thread writes in the
//! barrier interval (GPUVerify's barrier access checks), which is what makes the memory the
//! pair sees at the barrier the group's. A kernel with a barrier invariant models every
//! array it does not access atomically as the equality abstraction does (a memory the two
//! threads share, havocked at barriers), as GPUVerify models the arrays its invariants
//! read; a memory, not a fresh value per read, is what an instantiation can speak of.
//! The binary forms (`__barrier_invariant_binary`) are not instantiated (weft-cuda's header
//! lowers them to plain invariants).

use super::*;

/// A barrier invariant written since the last barrier: its violation per thread (the
/// negated condition, as stored), where each thread reached it, its instantiation ids per
/// thread, and the memories its condition was evaluated on.
#[derive(Clone, Debug)]
pub(super) struct BarrierInv {
    pc: usize,
    viol: [T; 2],
    en: [T; 2],
    insts: Vec<[T; 2]>,
    mem: BTreeMap<Base, T>,
}

/// Names of `weft_verify.h`'s barrier-invariant sinks.
pub const BI_INST_SINK: &str = "__weft_bi_inst_sink";
pub const BI_UNARY_SINK: &str = "__weft_bi_unary_sink";
pub const BI_SNAP_SINK: &str = "__weft_bi_snap_sink";

/// Whether the kernel states a barrier invariant or takes an array snapshot (a store to
/// either sink): its arrays are then modelled as memories.
pub(super) fn kernel_has_barrier_invariants(k: &Kernel) -> bool {
    let is_sink = |v: u32| {
        k.vars
            .get(v as usize)
            .is_some_and(|x| x.name.contains(BI_UNARY_SINK) || x.name.contains(BI_SNAP_SINK))
    };
    k.code.iter().any(|i| {
        i.op.addr()
            .is_some_and(|a| matches!(a.base, AddrBase::Var(v) if is_sink(v)))
            || i.op
                .operands()
                .iter()
                .any(|o| matches!(o, Operand::VarAddr { var, .. } if is_sink(*var)))
    })
}

impl Exec<'_> {
    /// A store to one of the barrier-invariant sinks: `vals` are the two threads' stored
    /// values.
    pub(super) fn barrier_inv_store(
        &mut self,
        pc: usize,
        kind: &str,
        en: &[T; 2],
        vals: [T; 2],
    ) -> R<()> {
        if kind == BI_SNAP_SINK {
            self.array_snapshot(en, &vals[0]);
            return Ok(());
        }
        if self.o.ignore_invariants {
            self.st.bi_insts.clear();
            return Ok(());
        }
        if kind == BI_INST_SINK {
            let v = vals.map(|v| self.fit(&v, Sort::Bv(32)));
            self.st.bi_insts.push(v);
            return Ok(());
        }
        // The condition: checked here, for both threads where enabled.
        let viol = vals.map(|v| self.truthy(&v));
        let chk = [0, 1].map(|th| self.c.and(&en[th], &viol[th]));
        self.annotation(pc, ASSERT_SINK, &chk)?;
        let insts = std::mem::take(&mut self.st.bi_insts);
        let mem = self.st.mem.clone();
        self.st.bi_pending.push(BarrierInv {
            pc,
            viol,
            en: en.clone(),
            insts,
            mem,
        });
        Ok(())
    }

    /// `__array_snapshot(dst, src)`: the first store names `dst`, the second `src`, whose
    /// memory `dst` then holds (block copies included). A pointer that is not one whole
    /// array leaves `dst` as it is (its contents arbitrary: sound), with a note.
    fn array_snapshot(&mut self, en: &[T; 2], p: &T) {
        let p = self.fit(p, Sort::Bv(64));
        let base = match self.split(&p, 0) {
            Some(ps) if ps.len() == 1 && ps[0].cond.is_true() && ps[0].off.as_bv() == Some(0) => {
                Some(ps[0].base)
            }
            _ => None,
        };
        let Some(dst) = self.st.snap_dst.take() else {
            self.st.snap_dst = Some(base);
            return;
        };
        let (Some(dst), Some(src)) = (dst, base) else {
            self.note_once("an `__array_snapshot` whose arrays are not known is not modelled (the ghost array's contents are arbitrary)");
            return;
        };
        let reached = self.c.or(&en[0], &en[1]);
        for (d, s) in [(dst, src), (other_block(dst), other_block(src))] {
            let ms = self.mem_of(s);
            let md = self.mem_of(d);
            let m = self.c.ite(&reached, &ms, &md);
            self.st.mem.insert(d, m);
        }
    }

    /// At a synchronising barrier whose havoc has just given every memory a fresh value
    /// (`en`: the threads that reached it): the pending barrier invariants, instantiated.
    pub(super) fn barrier_invariants_after(&mut self, en: &[T; 2]) {
        let pending = std::mem::take(&mut self.st.bi_pending);
        self.st.bi_insts.clear();
        let fresh: BTreeSet<String> = self
            .st
            .mem
            .values()
            .filter_map(|m| match m.node() {
                Node::Var(n, _) => Some(n.clone()),
                _ => None,
            })
            .collect();
        for bi in pending {
            let mut map: HashMap<T, T> = HashMap::new();
            for (b, old) in &bi.mem {
                if let Some(new) = self.st.mem.get(b) {
                    map.insert(old.clone(), new.clone());
                }
            }
            for inst in &bi.insts {
                for th in 0..2 {
                    if bi.en[th] != en[th] {
                        // Stated under a condition the barrier does not share: the thread an
                        // id names may never have stated it (its check covers only the
                        // threads that reached it).
                        let l = self.k.describe_pos(bi.pc);
                        self.note_once(&format!(
                            "barrier invariant at {l}: not assumed after the barrier (not every thread that reaches the barrier states it)"
                        ));
                        continue;
                    }
                    let mut m = map.clone();
                    m.insert(self.tid[th][0].clone(), inst[th].clone());
                    let x = self.c.subst(&bi.viol[th], &m);
                    let other = 1 - th;
                    let mut memo = HashMap::new();
                    let tids: Vec<String> = (0..3)
                        .filter_map(|d| match self.tid[other][d].node() {
                            Node::Var(n, _) => Some(n.clone()),
                            _ => None,
                        })
                        .collect();
                    let unsafe_leaf = |n: &str| {
                        !(fresh.contains(n)
                            || ([
                                "tid_", "ctaid_", "ntid_", "nctaid_", "param", "sparam", "base_v",
                            ]
                            .iter()
                            .any(|p| n.starts_with(p))
                                && !tids.iter().any(|t| t == n)))
                    };
                    if mentions(&x, &unsafe_leaf, &mut memo) {
                        let l = self.k.describe_pos(bi.pc);
                        self.note_once(&format!(
                            "barrier invariant at {l}: an instantiation is not assumed (its condition depends on values other than the thread id and the shared state)"
                        ));
                        continue;
                    }
                    let inr = self.c.ult(&inst[th], &self.ntid[0].clone());
                    let v = self.c.and_all(&[bi.en[th].clone(), en[th].clone(), inr, x]);
                    let nv = self.c.not(&v);
                    self.assumptions.push(nv);
                }
            }
        }
    }
}
