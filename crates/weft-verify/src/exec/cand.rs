//! Houdini's candidate invariants: their shapes and their instantiation in a loop state.

use super::*;

/// Candidate invariant shapes (rules of GPUVerify's invariant generation: loop predicates,
/// uniformity, bounds against the entry value, strides of induction variables, access
/// patterns of the logs).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Cand {
    PImpliesEn(usize),
    Covered(usize),
    ExitImpliesEn(usize, usize),
    ExitNotP(usize, usize),
    PUniform,
    PUniformBlock,
    RegUniform(usize),
    RegUniformEn(usize),
    /// r rel r0 (false) or r0 rel r (true).
    RegRel(usize, usize, Op, bool),
    RegStride(usize, usize, usize),
    /// `r < k` (false) or `r <= k` (true), unsigned, for a constant `k` the loop compares with,
    /// while the thread runs the loop.
    RegBound(usize, usize, u64, bool),
    LogNone((Base, Kind)),
    LogSame((Base, Kind)),
    /// The logged access's value is this loop-invariant term (the value every access of the
    /// log in the loop has), or the log holds its entry access (benign-race tolerance).
    LogVal((Base, Kind), T),
    LogStride((Base, Kind), usize, u64),
    /// The log holds its entry access or one of the loop's accesses.
    LogPc((Base, Kind), Vec<usize>),
    /// The logged access has this size (or is the entry access).
    LogSize((Base, Kind), u64),
    /// The logged offset is a multiple of this power of two (or is the entry access's):
    /// every access of the log in the loop is aligned to it (a naturally aligned element).
    LogAlign((Base, Kind), u64),
    /// Barriers in the loop keep the log empty for threads of one block.
    LogNoneSameBlock((Base, Kind)),
    /// Every access of the log in the loop is at `s`'s first offset (loop-invariant index).
    LogFirst((Base, Kind)),
    /// `s`'s offset lies in the slice from its first offset to the first offset the next
    /// thread (`tid.x + 1`) would have: GPUVerify's `ctimeslid`/`ctimesgid` access pattern,
    /// where thread `tid` owns `[tid*W, (tid+1)*W)` for a stride `W` that is not a loop step.
    LogSlice((Base, Kind)),
}

pub(super) struct CandCtx<'x> {
    pub(super) entry: &'x State,
    pub(super) en0: &'x [T; 2],
    pub(super) steps: &'x [[T; 2]],
    pub(super) first_off: &'x HashMap<(Base, Kind), T>,
    /// The first offset with `s`'s `tid.x` replaced by `tid.x + 1`.
    pub(super) next_off: &'x HashMap<(Base, Kind), T>,
}

impl Exec<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn inst(
        &mut self,
        cd: &Cand,
        cx: &CandCtx,
        st: &State,
        p: &[T; 2],
        x: &[[T; 2]],
        _exits: &[usize],
        _e: Option<&State>,
    ) -> R<T> {
        let c = &mut self.c;
        let reg = |st: &State, th: usize, r: usize, c: &mut Ctx, k: &Kernel| -> T {
            match &st.regs[th][r] {
                Some(v) => v.clone(),
                None => c.var(&format!("undef_r{}_{}", r, th), reg_sort(k.regs[r].ty)),
            }
        };
        Ok(match cd {
            Cand::PImpliesEn(th) => c.implies(&p[*th], &cx.en0[*th]),
            Cand::Covered(th) => {
                let mut a = p[*th].clone();
                for xe in x {
                    a = c.or(&a, &xe[*th]);
                }
                c.implies(&cx.en0[*th], &a)
            }
            Cand::ExitImpliesEn(i, th) => c.implies(&x[*i][*th], &cx.en0[*th]),
            Cand::ExitNotP(i, th) => {
                let both = c.and(&x[*i][*th], &p[*th]);
                c.not(&both)
            }
            Cand::PUniform => c.eq(&p[0], &p[1]),
            Cand::PUniformBlock => {
                let e = c.eq(&p[0], &p[1]);
                c.implies(&self.same_block, &e)
            }
            Cand::RegUniform(r) => {
                let a = reg(st, 0, *r, c, self.k);
                let b = reg(st, 1, *r, c, self.k);
                c.eq(&a, &b)
            }
            Cand::RegUniformEn(r) => {
                let a = reg(st, 0, *r, c, self.k);
                let b = reg(st, 1, *r, c, self.k);
                let e = c.eq(&a, &b);
                let both = c.and(&p[0], &p[1]);
                c.implies(&both, &e)
            }
            Cand::RegRel(r, th, op, flip) => {
                let a = reg(st, *th, *r, c, self.k);
                let b = reg(cx.entry, *th, *r, c, self.k);
                if *flip {
                    c.bin(op.clone(), &b, &a)
                } else {
                    c.bin(op.clone(), &a, &b)
                }
            }
            Cand::RegBound(r, th, k, le) => {
                let a = reg(st, *th, *r, c, self.k);
                match a.sort() {
                    Sort::Bv(w) if w >= 32 => {
                        // Where the thread still runs the loop (an exited thread keeps
                        // the value that failed the test).
                        let b = c.bv(w, *k);
                        let e = c.bin(if *le { Op::BvUle } else { Op::BvUlt }, &a, &b);
                        c.implies(&p[*th], &e)
                    }
                    _ => c.tt(),
                }
            }
            Cand::RegStride(r, th, si) => {
                let a = reg(st, *th, *r, c, self.k);
                let b = reg(cx.entry, *th, *r, c, self.k);
                let w = a.sort().width();
                let d = c.zext(w, &cx.steps[*si][*th]);
                let diff = c.sub(&a, &b);
                let m = c.bin(Op::BvUrem, &diff, &d);
                let z = c.bv(w, 0);
                c.eq(&m, &z)
            }
            _ => self.inst_log(cd, cx, st),
        })
    }

    /// The candidates over the access logs ([`Exec::inst`]'s other arms), in state `st`.
    /// A candidate that is not about a log, or whose log the state lacks, is `true`.
    fn inst_log(&mut self, cd: &Cand, cx: &CandCtx, st: &State) -> T {
        let c = &mut self.c;
        match cd {
            Cand::LogNone(key) => match st.logs.get(key) {
                Some(l) => c.not(&l.has),
                None => c.tt(),
            },
            Cand::LogSame(key) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(l0)) => {
                    let e1 = c.eq(&l.off, &l0.off);
                    let e2 = c.eq(&l.size, &l0.size);
                    let e3 = c.eq(&l.pc, &l0.pc);
                    let e4 = c.eq(&l.val, &l0.val);
                    let e5 = c.eq(&l.same, &l0.same);
                    let all = c.and_all(&[l0.has.clone(), e1, e2, e3, e4, e5]);
                    c.implies(&l.has, &all)
                }
                _ => c.tt(),
            },
            Cand::LogVal(key, v) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(l0)) => {
                    let e = c.eq(&l.val, v);
                    logged_as_or_kept_by(c, l, l0, &e, |l| &l.val)
                }
                _ => c.tt(),
            },
            Cand::LogPc(key, pcs) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(l0)) => {
                    let e1 = c.eq(&l.pc, &l0.pc);
                    let e2 = c.eq(&l.off, &l0.off);
                    let e3 = c.eq(&l.size, &l0.size);
                    let mut any = c.and_all(&[l0.has.clone(), e1, e2, e3]);
                    for &pc in pcs {
                        let k = c.bv(32, pc as u64);
                        let e = c.eq(&l.pc, &k);
                        any = c.or(&any, &e);
                    }
                    c.implies(&l.has, &any)
                }
                _ => c.tt(),
            },
            Cand::LogNoneSameBlock(key) => match st.logs.get(key) {
                Some(l) => {
                    let n = c.not(&l.has);
                    c.implies(&self.same_block, &n)
                }
                None => c.tt(),
            },
            Cand::LogFirst(key) => match (
                st.logs.get(key),
                cx.entry.logs.get(key),
                cx.first_off.get(key),
            ) {
                (Some(l), Some(l0), Some(f)) => {
                    let e = c.eq(&l.off, f);
                    logged_as_or_kept(c, l, l0, &e)
                }
                _ => c.tt(),
            },
            Cand::LogSlice(key) => match (
                st.logs.get(key),
                cx.entry.logs.get(key),
                cx.first_off.get(key),
                cx.next_off.get(key),
            ) {
                (Some(l), Some(l0), Some(f), Some(g)) => {
                    let lo = c.bin(Op::BvUle, f, &l.off);
                    let hi = c.bin(Op::BvUlt, &l.off, g);
                    let e = c.and(&lo, &hi);
                    logged_as_or_kept(c, l, l0, &e)
                }
                _ => c.tt(),
            },
            Cand::LogSize(key, z) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(l0)) => {
                    let k = c.bv(64, *z);
                    let e = c.eq(&l.size, &k);
                    logged_as_or_kept_by(c, l, l0, &e, |l| &l.size)
                }
                _ => c.tt(),
            },
            Cand::LogAlign(key, a) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(l0)) => {
                    let m = c.bv(64, a - 1);
                    let low = c.bin(Op::BvAnd, &l.off, &m);
                    let z = c.bv(64, 0);
                    let e = c.eq(&low, &z);
                    logged_as_or_kept(c, l, l0, &e)
                }
                _ => c.tt(),
            },
            Cand::LogStride(key, si, sz) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(_)) => {
                    // s's offset is congruent to the offset s's first access would have.
                    let first = cx.first_off.get(key).cloned();
                    match first {
                        Some(f) => {
                            let d = c.zext(64, &cx.steps[*si][0]);
                            let szt = c.bv(64, *sz);
                            let m = c.bin(Op::BvMul, &d, &szt);
                            let diff = c.sub(&l.off, &f);
                            let r = c.bin(Op::BvUrem, &diff, &m);
                            let z = c.bv(64, 0);
                            let e = c.eq(&r, &z);
                            c.implies(&l.has, &e)
                        }
                        None => c.tt(),
                    }
                }
                _ => c.tt(),
            },
            _ => c.tt(),
        }
    }
}
