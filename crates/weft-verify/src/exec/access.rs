//! Memory accesses: access logs, log resets at barriers and warps, race checks of `t`
//! against `s`'s logs, own-write forwarding, the memories of the equality abstraction and
//! atomics (with the repetition-free refinement).

use super::*;

impl Exec<'_> {
    /// The used sets of repetition-free counters that are also set plainly restart empty (at a
    /// barrier that orders the plain store before the atomics; forgetting the values returned
    /// so far is always sound).
    pub(super) fn restart_plain_counters(&mut self) {
        let restart: Vec<Base> = self.facts.repfree_restart.iter().copied().collect();
        for b in restart {
            if self.st.used.contains_key(&b) {
                let e = self.c.empty_used(32);
                self.st.used.insert(b, e);
                self.st.used_log.remove(&b);
            }
        }
    }

    pub(super) fn reset_logs(&mut self, when: &T) {
        if when.is_false() {
            return;
        }
        let n = self.c.not(when);
        let keys: Vec<(Base, Kind)> = self.st.logs.keys().copied().collect();
        for k in keys {
            let l = self.st.logs.get_mut(&k).unwrap();
            let h = l.has.clone();
            let nh = self.c.and(&h, &n);
            self.st.logs.get_mut(&k).unwrap().has = nh;
        }
    }

    /// An OpenCL barrier with fence flags `f` (per thread): the logs of block-shared arrays
    /// are reset when both threads' flags hold `CLK_LOCAL_MEM_FENCE`, the others' when they
    /// hold `CLK_GLOBAL_MEM_FENCE`.
    pub(super) fn reset_logs_fenced(&mut self, when: &T, f: &[T; 2]) {
        let has = |c: &mut Ctx, bit: u64| {
            let b = c.bv(32, bit);
            let z = c.bv(32, 0);
            let on = [0, 1].map(|th| {
                let v = alu::fit(c, &f[th], Sort::Bv(32));
                let m = c.bin(Op::BvAnd, &v, &b);
                let e = c.eq(&m, &z);
                c.not(&e)
            });
            c.and(&on[0], &on[1])
        };
        let local = has(&mut self.c, CLK_LOCAL);
        let global = has(&mut self.c, CLK_GLOBAL);
        let keys: Vec<(Base, Kind)> = self.st.logs.keys().copied().collect();
        for k in keys {
            let fence = if self.facts.shared.contains(&k.0) {
                &local
            } else {
                &global
            };
            let w = self.c.and(when, fence);
            let n = self.c.not(&w);
            let l = self.st.logs.get_mut(&k).unwrap();
            let h = l.has.clone();
            let nh = self.c.and(&h, &n);
            self.st.logs.get_mut(&k).unwrap().has = nh;
        }
    }

    /// Re-sync (paper 002 §3.1): threads of one warp re-synchronise whenever both are enabled.
    pub(super) fn warp_reset(&mut self, en: &[T; 2]) {
        if self.same_warp.is_false() {
            return;
        }
        let both = self.c.and(&en[0], &en[1]);
        let r = self.c.and(&self.same_warp.clone(), &both);
        self.reset_logs(&r);
    }

    /// Re-sync limited to the logs of the arrays an instruction accesses (paper 002 §3.1
    /// resets the accessed array's sets; resetting fewer logs only keeps more to check).
    pub(super) fn warp_reset_arrays(&mut self, en: &[T; 2], bases: &[Base]) {
        if self.same_warp.is_false() {
            return;
        }
        let both = self.c.and(&en[0], &en[1]);
        let r = self.c.and(&self.same_warp.clone(), &both);
        if r.is_false() {
            return;
        }
        let n = self.c.not(&r);
        let keys: Vec<(Base, Kind)> = self
            .st
            .logs
            .keys()
            .filter(|k| bases.contains(&k.0))
            .copied()
            .collect();
        for k in keys {
            let h = self.st.logs[&k].has.clone();
            let nh = self.c.and(&h, &n);
            if let Some(l) = self.st.logs.get_mut(&k) {
                l.has = nh;
            }
        }
    }

    pub(super) fn is_shared(&self, b: Base, space: MemSpace) -> bool {
        space == MemSpace::Shared || self.facts.shared.contains(&b)
    }

    pub(super) fn skip_space(&self, base: Base, space: MemSpace) -> bool {
        if matches!(
            space,
            MemSpace::Local | MemSpace::Param | MemSpace::Constant
        ) {
            return true;
        }
        if let Base::Var(v) = base {
            let sp = self.k.vars[v as usize].space;
            return matches!(sp, MemSpace::Local | MemSpace::Constant | MemSpace::Param);
        }
        false
    }

    /// The value `--kernel-args` gives the `size` bytes at byte `off` of parameter `p`
    /// ([`crate::Options::kernel_args`]): the values go to the parameters never used as
    /// addresses, in order, and apply only when their count is that of those parameters.
    fn kernel_arg(&self, p: u32, off: i64, size: u64) -> Option<u64> {
        let (name, vals) = self.o.kernel_args.as_ref()?;
        if self.k.name != *name && !self.k.name.contains(name.as_str()) {
            return None;
        }
        let pointer = |q: u32| {
            self.facts
                .pointers
                .iter()
                .any(|b| matches!(b, Base::Param(r, _) if *r == q))
        };
        let scalars: Vec<u32> = (0..self.k.params.len() as u32)
            .filter(|&q| !pointer(q))
            .collect();
        if scalars.len() != vals.len() || off < 0 || off as u64 + size > 8 {
            return None;
        }
        let i = scalars.iter().position(|&q| q == p)?;
        let v = vals[i]? >> (8 * off as u64);
        Some(if size >= 8 {
            v
        } else {
            v & ((1u64 << (8 * size)) - 1)
        })
    }

    /// A plain or atomic load/store by both threads: log `s`, check `t` (paper 002 §4.1),
    /// then the values read under the array's abstraction. Returns the values read.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn access(
        &mut self,
        pc: usize,
        en: &[T; 2],
        addr: &weft_ir::kernel::Addr,
        space: MemSpace,
        kind: Kind,
        size: u64,
        store: Option<[T; 2]>,
    ) -> R<Option<[T; 2]>> {
        if space == MemSpace::Param || matches!(addr.base, AddrBase::Param(_)) {
            return self.access_param(addr, size);
        }
        if let Some(r) = self.access_local(en, addr, space, size, store.clone())? {
            return Ok(r);
        }
        let ps0 = [self.pieces(0, addr, pc)?, self.pieces(1, addr, pc)?];
        self.null_checks(en);
        if self.o.check_array_bounds {
            self.bounds_checks(pc, en, &ps0, size);
        }
        let touched: Vec<Base> = ps0.iter().flatten().map(|p| p.base).collect();
        self.warp_reset_arrays(en, &touched);
        let ps = ps0;
        if ps[0]
            .iter()
            .chain(ps[1].iter())
            .all(|p| self.skip_space(p.base, space))
        {
            if space == MemSpace::Constant || ps[0].iter().all(|p| matches!(p.base, Base::Var(v) if self.k.vars[v as usize].space == MemSpace::Constant)) {
                if store.is_some() {
                    let v = self.c.or(&en[0], &en[1]);
                    let what = "write to constant memory";
                    self.add_check(CheckKind::Memory { pc, what }, v, vec![]);
                }
                // Read-only: a function of the address, one per width (the solver's function
                // is named by its argument sorts only: one name for a 32- and a 64-bit read
                // was a sort error, libclc's `log` tables).
                let mut vals = Vec::new();
                let w = (size * 8).min(64) as u32;
                for th in 0..2 {
                    let a = self.address(th, addr)?;
                    vals.push(self.c.uf(&format!("const_mem{w}"), &[a], Sort::Bv(w)));
                }
                return Ok(Some([vals[0].clone(), vals[1].clone()]));
            }
            return Ok(None);
        }
        // Values read, under the array's abstraction.
        let w = (size * 8).min(64) as u32;
        let mut vals: Vec<T> = Vec::new();
        for th in 0..2 {
            let mut v = self.c.fresh("rd", Sort::Bv(w));
            if store.is_none() {
                // Equality abstraction for arrays never accessed atomically.
                for p in ps[th].iter().rev() {
                    if self.equality && !self.facts.atomic.contains(&p.base) && !kind.atomic() {
                        let m = self.mem_of(p.base);
                        let mut x = self.read_bytes(&m, &p.off, size.min(8));
                        if th == 1 && self.is_shared(p.base, space) {
                            // `t` in another block reads its own block's copy.
                            let mo = self.mem_of(other_block(p.base));
                            let f = self.read_bytes(&mo, &p.off, size.min(8));
                            x = self.c.ite(&self.same_block.clone(), &x, &f);
                        }
                        v = self.c.ite(&p.cond, &x, &v);
                    } else if !kind.atomic() && self.own_forwards(p.base, space) {
                        // Adversarial abstraction: the thread's own last write of these
                        // bytes in this barrier interval, if any.
                        let x = self.own_read(th, p.base, &p.off, size);
                        v = self.c.ite(&p.cond, &x, &v);
                    }
                }
            }
            vals.push(v);
        }
        // What the benign-race tolerance compares: each thread's value (read or written),
        // and whether `s`'s write leaves its bytes as the equality abstraction holds them.
        let benign = if self.o.benign && !kind.atomic() {
            let mut v64 = Vec::new();
            for th in 0..2 {
                let v = match &store {
                    Some(sv) if size <= 8 => {
                        let x = self.fit(&sv[th], Sort::Bv((size * 8) as u32));
                        self.c.zext(64, &x)
                    }
                    None if size <= 8 => self.c.zext(64, &vals[th]),
                    _ => self.c.fresh("val", Sort::Bv(64)),
                };
                v64.push(v);
            }
            let mut same = Vec::new();
            for p in &ps[0] {
                let f = match &store {
                    Some(sv)
                        if size <= 8 && self.equality && !self.facts.atomic.contains(&p.base) =>
                    {
                        let m = self.mem_of(p.base);
                        let old = self.read_bytes(&m, &p.off, size);
                        let x = self.fit(&sv[0], Sort::Bv((size * 8) as u32));
                        self.c.eq(&old, &x)
                    }
                    _ => self.c.ff(),
                };
                same.push(f);
            }
            Some(([v64[0].clone(), v64[1].clone()], same))
        } else {
            None
        };
        self.log_s_check_t(&ps, en, space, kind, size, pc, benign.as_ref());
        // Re-sync after the instruction (paper 002 §3.1).
        self.warp_reset_arrays(en, &touched);
        if let Some(sv) = &store {
            self.own_record_store(en, &ps, space, kind, size, sv);
            self.store_to_memories(en, &ps, space, size, w, sv);
        }
        Ok(Some([vals[0].clone(), vals[1].clone()]))
    }

    /// A load of a kernel parameter: a uniform value (a pointer parameter's address, a
    /// `--kernel-args` value, or the parameter's variable).
    fn access_param(&mut self, addr: &weft_ir::kernel::Addr, size: u64) -> R<Option<[T; 2]>> {
        // Kernel parameters: uniform values.
        if let AddrBase::Param(p) = addr.base {
            // A parameter narrower than an address is an integer, even where the facts
            // saw it added to a pointer (`input[tid * chunkSize + i]`).
            let is_ptr = size == 8
                && self
                    .facts
                    .pointers
                    .contains(&Base::Param(p, addr.offset as u32));
            let w = (size * 8).min(64) as u32;
            let v = if is_ptr {
                let v = self
                    .c
                    .var(&format!("param{}_{}", p, addr.offset), Sort::Bv(64));
                self.fit(&v, Sort::Bv(w))
            } else if let Some(x) = self.kernel_arg(p, addr.offset, size) {
                self.c.bv(w, x)
            } else {
                self.c
                    .var(&format!("sparam{}_{}", p, addr.offset), Sort::Bv(w))
            };
            return Ok(Some([v.clone(), v]));
        }
        Ok(None)
    }

    /// A load or store of thread-private memory (`.local`, or a generic address of a local
    /// variable at a constant offset): `Some(values read)` when the access is one, `None`
    /// for an access of shared state.
    fn access_local(
        &mut self,
        en: &[T; 2],
        addr: &weft_ir::kernel::Addr,
        space: MemSpace,
        size: u64,
        store: Option<[T; 2]>,
    ) -> R<Option<Option<[T; 2]>>> {
        let is_local =
            |me: &Self, v: u32| me.k.vars.get(v as usize).map(|x| x.space) == Some(MemSpace::Local);
        let local_cell = match addr.base {
            AddrBase::Var(v) if is_local(self, v) => Some((v, addr.offset)),
            // A generic or `.local` address computed from a local variable (`cvta.local` of
            // the stack depot) at a constant offset.
            AddrBase::Reg(_) if matches!(space, MemSpace::Local | MemSpace::Generic) => {
                let a = self.address(0, addr)?;
                match self.split(&a, 0) {
                    Some(ps) if ps.len() == 1 && ps[0].cond.is_true() => match ps[0].base {
                        Base::Var(v) if is_local(self, v) => {
                            ps[0].off.as_bv().map(|o| (v, o as i64))
                        }
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        };
        let local_var = local_cell.map(|c| c.0);
        let cell_off = local_cell.map(|c| c.1).unwrap_or(addr.offset);
        if store.is_some()
            && local_var.is_none()
            && !matches!(space, MemSpace::Global | MemSpace::Shared)
        {
            // A store through a computed generic address may hit a forwarded cell (one to
            // `.global` or `.shared` memory cannot: those are not thread-private memory).
            self.local_fwd.clear();
        }
        if matches!(space, MemSpace::Local) || local_var.is_some() {
            // Thread-private memory: block-local store-to-load forwarding at constant
            // offsets (each thread's own value), otherwise an arbitrary value.
            let Some(v) = local_var else {
                self.local_fwd.clear();
                return Ok(Some(None));
            };
            let key = (v, cell_off, size);
            return Ok(Some(match store {
                Some(vals) => {
                    // A thread's store to its stack (`__local_depot`) happens only where
                    // it is enabled: elsewhere the cell keeps its forwarded value, or an
                    // arbitrary one. Addresses are kept as stored (a disabled thread never
                    // uses them; they stay splittable), and so are call-sequence variables
                    // (a call's arguments and results, as registers are).
                    let old = self.local_fwd.get(&key).cloned();
                    let stack = self
                        .k
                        .vars
                        .get(v as usize)
                        .is_some_and(|x| x.name.contains("__local_depot"));
                    let vals = [0, 1].map(|th| {
                        let new = vals[th].clone();
                        if !stack || en[th].is_true() || self.split(&new, 0).is_some() {
                            return new;
                        }
                        let keep = match &old {
                            Some(o) => o[th].clone(),
                            None => self.c.fresh("loc", new.sort()),
                        };
                        self.c.ite(&en[th], &new, &keep)
                    });
                    // A store may overlap other cells of the variable: forget them.
                    let end = cell_off + size as i64;
                    self.local_fwd
                        .retain(|k, _| k.0 != v || k.1 + k.2 as i64 <= cell_off || end <= k.1);
                    self.local_fwd.insert(key, vals);
                    None
                }
                None => {
                    // The cell stored, or bytes inside one (little-endian).
                    let hit = self
                        .local_fwd
                        .iter()
                        .find(|(k, _)| {
                            k.0 == v
                                && k.1 <= cell_off
                                && cell_off + size as i64 <= k.1 + k.2 as i64
                        })
                        .map(|(k, vals)| (k.1, vals.clone()));
                    let lo_hi = |off: i64| {
                        let lo = ((cell_off - off) * 8) as u32;
                        (lo, lo + (size * 8) as u32 - 1)
                    };
                    hit.filter(|(off, vals)| vals.iter().all(|x| x.sort().width() > lo_hi(*off).1))
                        .map(|(off, vals)| {
                            let (lo, hi) = lo_hi(off);
                            vals.map(|x| {
                                if x.sort().width() > hi + 1 || lo > 0 {
                                    self.c.extract(hi, lo, &x)
                                } else {
                                    x
                                }
                            })
                        })
                }
            }));
        }
        Ok(None)
    }

    /// The bytes each thread stores, applied to the memories of the arrays the equality
    /// abstraction models.
    fn store_to_memories(
        &mut self,
        en: &[T; 2],
        ps: &[Vec<Piece>; 2],
        space: MemSpace,
        size: u64,
        w: u32,
        sv: &[T; 2],
    ) {
        // The bytes each thread writes, applied to the array's memory.
        let mut writes: Vec<(Base, T, T, T)> = Vec::new();
        for th in 0..2 {
            for p in &ps[th] {
                if self.equality && !self.facts.atomic.contains(&p.base) {
                    let v = self.fit(&sv[th], Sort::Bv(w));
                    let e = self.c.and(&en[th], &p.cond);
                    if th == 1 && self.is_shared(p.base, space) {
                        // `t` in another block writes its own block's copy.
                        let sb = self.same_block.clone();
                        let nsb = self.c.not(&sb);
                        let e_same = self.c.and(&e, &sb);
                        let e_other = self.c.and(&e, &nsb);
                        writes.push((p.base, p.off.clone(), v.clone(), e_same));
                        writes.push((other_block(p.base), p.off.clone(), v, e_other));
                    } else {
                        writes.push((p.base, p.off.clone(), v, e));
                    }
                }
            }
        }
        let apply = |x: &mut Self, writes: &[(Base, T, T, T)]| {
            for (b, off, v, e) in writes {
                let m = x.mem_of(*b);
                let nm = x.write_bytes(&m, off, v, size.min(8));
                let r = x.c.ite(e, &nm, &m);
                x.st.mem.insert(*b, r);
            }
        };
        apply(self, &writes);
        if self.o.lockstep && !writes.is_empty() {
            // Paper 002 §3.3: the other threads of the warp wrote the array too, so it
            // is havocked. Refined: none of them wrote the bytes `s` or `t` just wrote
            // (that would be a write-write race in one instruction, which the check
            // above reports for that pair), so those bytes keep `s`'s and `t`'s values.
            let bases: BTreeSet<Base> = writes.iter().map(|x| x.0).collect();
            for b in bases {
                let f = self.c.fresh("mem", Sort::Mem);
                self.st.mem.insert(b, f);
            }
            apply(self, &writes);
        }
    }

    /// Whether reads of array `b` forward the thread's own writes (see [`OwnWrite`]).
    pub(super) fn own_forwards(&self, b: Base, space: MemSpace) -> bool {
        // Under `--only-intra-group` only block-shared arrays (another block's write of
        // global memory is not checked).
        let checked_across_blocks = !self.o.only_intra_group || self.is_shared(b, space);
        self.own_fwd && !self.facts.atomic.contains(&b) && checked_across_blocks
    }

    /// Thread `th`'s read of `size` bytes at `off` in `b`: the value of its last own write of
    /// exactly these bytes (same offset, same width) when no later own write overlapped them,
    /// else a fresh value. An `ite` over the recorded writes, newest outermost.
    pub(super) fn own_read(&mut self, th: usize, b: Base, off: &T, size: u64) -> T {
        let w = (size * 8).min(64) as u32;
        let fresh = self.c.fresh("rd", Sort::Bv(w));
        let Some(ws) = self.st.own[th].get(&b).cloned() else {
            return fresh;
        };
        if size > 8 {
            return fresh;
        }
        let sz = self.c.bv(64, size);
        let mut v = fresh.clone();
        for ow in &ws {
            let osz = self.c.bv(64, ow.size);
            let d1 = self.c.sub(off, &ow.off);
            let d2 = self.c.sub(&ow.off, off);
            let o1 = self.c.ult(&d1, &osz);
            let o2 = self.c.ult(&d2, &sz);
            let overlap = self.c.or(&o1, &o2);
            let hit_any = self.c.and(&ow.en, &overlap);
            // Any overlap other than an exact match leaves the bytes unknown.
            v = self.c.ite(&hit_any, &fresh, &v);
            if let (Some(val), true) = (&ow.val, ow.size == size) {
                if val.sort() == Sort::Bv(w) {
                    let same = self.c.eq(off, &ow.off);
                    let exact = self.c.and(&ow.en, &same);
                    v = self.c.ite(&exact, val, &v);
                }
            }
        }
        v
    }

    /// Records both threads' own writes of a store (or forgets what they may overlap).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn own_record_store(
        &mut self,
        en: &[T; 2],
        ps: &[Vec<Piece>; 2],
        space: MemSpace,
        kind: Kind,
        size: u64,
        sv: &[T; 2],
    ) {
        if !self.own_fwd {
            return;
        }
        if self.o.lockstep {
            // Lock-step warps: the other lanes' stores at later instructions do not race.
            self.st.own = [BTreeMap::new(), BTreeMap::new()];
        }
        let w = (size * 8).min(64) as u32;
        for th in 0..2 {
            for p in &ps[th] {
                if !self.own_forwards(p.base, space) {
                    continue;
                }
                let e = self.c.and(&en[th], &p.cond);
                if e.is_false() {
                    continue;
                }
                let val = if kind.atomic() || size > 8 {
                    None
                } else {
                    Some(self.fit(&sv[th], Sort::Bv(w)))
                };
                let list = self.st.own[th].entry(p.base).or_default();
                list.push(OwnWrite {
                    en: e,
                    off: p.off.clone(),
                    size,
                    val,
                });
                if list.len() > OWN_WRITES_MAX {
                    list.remove(0);
                }
            }
        }
    }

    pub(super) fn mem_of(&mut self, b: Base) -> T {
        if let Some(m) = self.st.mem.get(&b) {
            return m.clone();
        }
        let m = self.c.fresh("mem", Sort::Mem);
        self.st.mem.insert(b, m.clone());
        m
    }

    pub(super) fn read_bytes(&mut self, m: &T, off: &T, n: u64) -> T {
        let mut acc: Option<T> = None;
        for i in 0..n {
            let k = self.c.bv(64, i);
            let a = self.c.add(off, &k);
            let byte = self.c.select(m, &a);
            acc = Some(match acc {
                None => byte,
                Some(lo) => self.c.concat(&byte, &lo),
            });
        }
        acc.unwrap()
    }

    pub(super) fn write_bytes(&mut self, m: &T, off: &T, v: &T, n: u64) -> T {
        let mut cur = m.clone();
        for i in 0..n {
            let k = self.c.bv(64, i);
            let a = self.c.add(off, &k);
            let lo = (i * 8) as u32;
            let byte = if v.sort().width() > lo + 7 {
                self.c.extract(lo + 7, lo, v)
            } else {
                self.c.bv(8, 0)
            };
            cur = self.c.store(&cur, &a, &byte);
        }
        cur
    }

    /// One access of both threads (paper 002 §2, the two-thread reduction): thread s's
    /// pieces are logged, thread t's are checked against the logs.
    /// `benign`: both threads' values and, per piece of `s`, whether its write leaves the
    /// bytes unchanged (GPUVerify's benign-race tolerance); `None` when it is off.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn log_s_check_t(
        &mut self,
        ps: &[Vec<Piece>; 2],
        en: &[T; 2],
        space: MemSpace,
        kind: Kind,
        bytes: u64,
        pc: usize,
        benign: Option<&([T; 2], Vec<T>)>,
    ) {
        let sz = self.c.bv(64, bytes);
        for (i, p) in ps[0].iter().enumerate() {
            let e = self.c.and(&en[0], &p.cond);
            let vs = benign.map(|(v, same)| (v[0].clone(), same[i].clone()));
            self.log(p.base, kind, &e, &p.off, &sz, pc, vs);
        }
        for p in &ps[1] {
            let e = self.c.and(&en[1], &p.cond);
            let vt = benign.map(|(v, _)| v[1].clone());
            self.check_t(p.base, space, kind, &e, &p.off, &sz, pc, vt);
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn log(
        &mut self,
        base: Base,
        kind: Kind,
        e: &T,
        off: &T,
        sz: &T,
        pc: usize,
        val_same: Option<(T, T)>,
    ) {
        if e.is_false() {
            return;
        }
        let key = (base, kind);
        if let (Some(rec), Some((v, _))) = (self.val_rec.as_mut(), val_same.as_ref()) {
            let vs = rec.entry(key).or_default();
            if !vs.contains(v) {
                vs.push(v.clone());
            }
        }
        if let Some(rec) = self.first_off_rec.as_mut() {
            rec.entry(key).or_insert_with(|| off.clone());
            let e = self.probe_acc.entry(key).or_default();
            e.0.insert(pc);
            if let Some(z) = sz.as_bv() {
                e.1.insert(z);
            }
        }
        let choose = self.c.fresh("track", Sort::Bool);
        let take = self.c.and(e, &choose);
        let pct = self.c.bv(32, pc as u64);
        let old = match self.st.logs.get(&key) {
            Some(l) => l.clone(),
            None => Log::empty(&mut self.c),
        };
        let tt = self.c.tt();
        let (val, same) = match val_same {
            Some((v, sm)) => (
                self.c.ite(&take, &v, &old.val),
                self.c.ite(&take, &sm, &old.same),
            ),
            None => (old.val.clone(), old.same.clone()),
        };
        let nl = Log {
            has: self.c.ite(&take, &tt, &old.has),
            off: self.c.ite(&take, off, &old.off),
            size: self.c.ite(&take, sz, &old.size),
            pc: self.c.ite(&take, &pct, &old.pc),
            val,
            same,
        };
        self.st.logs.insert(key, nl);
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_t(
        &mut self,
        base: Base,
        space: MemSpace,
        kind: Kind,
        e: &T,
        off: &T,
        sz: &T,
        pc: usize,
        val_t: Option<T>,
    ) {
        if e.is_false() {
            return;
        }
        let shared = self.is_shared(base, space);
        let sb = self.same_block.clone();
        let nsb = self.c.not(&sb);
        for sk in [Kind::Read, Kind::Write, Kind::Atomic, Kind::AtomicBlock] {
            // Which pairs race (Def. 2.2, plus scopes: paper 004 §2.1).
            let cond = match (sk, kind) {
                (Kind::Read, Kind::Read) => continue,
                (a, b) if !a.atomic() || !b.atomic() => self.c.tt(),
                (Kind::Atomic, Kind::Atomic) => continue,
                _ => {
                    if shared {
                        continue;
                    }
                    nsb.clone()
                }
            };
            let Some(l) = self.st.logs.get(&(base, sk)).cloned() else {
                continue;
            };
            if l.has.is_false() {
                continue;
            }
            let d1 = self.c.sub(off, &l.off);
            let d2 = self.c.sub(&l.off, off);
            let o1 = self.c.ult(&d1, &l.size);
            let o2 = self.c.ult(&d2, sz);
            let overlap = self.c.or(&o1, &o2);
            let mut v = self.c.and_all(&[e.clone(), l.has.clone(), overlap, cond]);
            // GPUVerify's benign-race tolerance (its default; `--no-benign-tolerance` turns
            // it off): a write of the value `s` wrote or read at the same offset and size,
            // or a read of what `s`'s write left unchanged, is not a race.
            if let Some(vt) = &val_t {
                let benign = match (sk, kind) {
                    (Kind::Write | Kind::Read, Kind::Write) => {
                        let a = self.c.eq(off, &l.off);
                        let b = self.c.eq(sz, &l.size);
                        let d = self.c.eq(vt, &l.val);
                        Some(self.c.and_all(&[a, b, d]))
                    }
                    (Kind::Write, Kind::Read) => Some(l.same.clone()),
                    _ => None,
                };
                if let Some(b) = benign {
                    let nb = self.c.not(&b);
                    v = self.c.and(&v, &nb);
                }
            }
            if shared {
                v = self.c.and(&v, &sb);
            }
            let values = vec![
                ("s_pc".to_string(), l.pc.clone()),
                ("s_off".to_string(), l.off.clone()),
                ("t_off".to_string(), off.clone()),
            ];
            self.add_check(
                CheckKind::Race {
                    array: base,
                    s_kind: sk,
                    t_kind: kind,
                    t_pc: pc,
                    shared,
                },
                v,
                values,
            );
        }
        // Benign-race tolerance: once `t` has written the bytes `s`'s logged write covers (the
        // same value, or the write-write check reports it), `t`'s later reads of them see that
        // value whoever wrote last, so `s`'s write no longer races with them.
        if val_t.is_some() && kind == Kind::Write {
            if let Some(mut l) = self.st.logs.get(&(base, Kind::Write)).cloned() {
                let a = self.c.eq(off, &l.off);
                let b = self.c.eq(sz, &l.size);
                let mut covers = self.c.and_all(&[e.clone(), l.has.clone(), a, b]);
                if shared {
                    covers = self.c.and(&covers, &sb);
                }
                let tt = self.c.tt();
                l.same = self.c.ite(&covers, &tt, &l.same);
                self.st.logs.insert((base, Kind::Write), l);
            }
        }
    }

    /// An atomic read-modify-write (paper 002 §4.1, and §4.3's encoding for repetition-free
    /// arrays). Returns the values the threads receive.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn atomic(
        &mut self,
        pc: usize,
        en: &[T; 2],
        addr: &weft_ir::kernel::Addr,
        space: MemSpace,
        kind: Kind,
        bytes: u64,
        _op: RmwOp,
    ) -> R<[T; 2]> {
        let w = (bytes * 8).min(64) as u32;
        if space == MemSpace::Local {
            return Ok([
                self.c.fresh("atom", Sort::Bv(w)),
                self.c.fresh("atom", Sort::Bv(w)),
            ]);
        }
        let ps0 = [self.pieces(0, addr, pc)?, self.pieces(1, addr, pc)?];
        self.null_checks(en);
        if self.o.check_array_bounds {
            self.bounds_checks(pc, en, &ps0, bytes);
        }
        let touched: Vec<Base> = ps0.iter().flatten().map(|p| p.base).collect();
        self.warp_reset_arrays(en, &touched);
        let ps = ps0;
        self.log_s_check_t(&ps, en, space, kind, bytes, pc, None);
        if self.o.lockstep {
            // Lock-step warps: see `OwnWrite` (atomic arrays are not forwarded anyway).
            self.st.own = [BTreeMap::new(), BTreeMap::new()];
        }
        self.warp_reset_arrays(en, &touched);
        let z = [
            self.c.fresh("atom_s", Sort::Bv(w)),
            self.c.fresh("atom_t", Sort::Bv(w)),
        ];
        // Repetition-free refinement: a single piece on a repetition-free array.
        if self.o.repetition_free
            && w == 32
            && ps[0].len() == 1
            && ps[1].len() == 1
            && ps[0][0].base == ps[1][0].base
            && self.facts.repfree.contains(&ps[0][0].base)
            // With lock-step warps a plain store and an atomic of one warp in successive
            // instructions do not race, so the relaxed rule's argument does not hold.
            && !(self.o.lockstep && self.facts.repfree_restart.contains(&ps[0][0].base))
        {
            let b = ps[0][0].base;
            let shared = self.is_shared(b, space);
            let root = match self.st.used.get(&b) {
                Some(u) => u.clone(),
                None => {
                    let e = self.c.empty_used(32);
                    self.st.used.insert(b, e.clone());
                    e
                }
            };
            let log = self.st.used_log.get(&b).cloned().unwrap_or_default();
            let root_empty = matches!(root.node(), Node::App(Op::EmptyUsed(_), _, _));
            // `z` was returned before at offset `o`: in the root set, or in the list.
            let used_get = |x: &mut Self, o: &T, z: &T| -> T {
                let mut any = if root_empty {
                    x.c.ff()
                } else {
                    x.c.used_get(&root, o, z)
                };
                for [e, lo, lz] in &log {
                    let so = x.c.eq(lo, o);
                    let sz = x.c.eq(lz, z);
                    let hit = x.c.and_all(&[e.clone(), so, sz]);
                    any = x.c.or(&any, &hit);
                }
                any
            };
            let (os, ot) = (ps[0][0].off.clone(), ps[1][0].off.clone());
            let us = used_get(self, &os, &z[0]);
            let ut = used_get(self, &ot, &z[1]);
            let nus = self.c.not(&us);
            let nut = self.c.not(&ut);
            let a1 = self.c.implies(&en[0], &nus);
            let a2 = self.c.implies(&en[1], &nut);
            let same = self.c.eq(&os, &ot);
            let mut same_ctr = self.c.and_all(&[en[0].clone(), en[1].clone(), same]);
            if shared {
                same_ctr = self.c.and(&same_ctr, &self.same_block.clone());
            }
            let zeq = self.c.eq(&z[0], &z[1]);
            let nzeq = self.c.not(&zeq);
            let a3 = self.c.implies(&same_ctr, &nzeq);
            self.assumptions.extend([a1, a2, a3]);
            let mut et = en[1].clone();
            if shared {
                et = self.c.and(&et, &self.same_block.clone());
            }
            let entry = self.st.used_log.entry(b).or_default();
            entry.push([en[0].clone(), os, z[0].clone()]);
            entry.push([et, ot, z[1].clone()]);
            self.note_once("repetition-free refinement used (paper 002 §4.2): sound only if the counter never overflows; --check-overflow checks it");
            if self.o.check_overflow {
                let max = self.c.bv(32, u32::MAX as u64);
                for th in 0..2 {
                    let at_max = self.c.eq(&z[th], &max);
                    let v = self.c.and(&en[th], &at_max);
                    self.add_check(CheckKind::Overflow { pc }, v, vec![]);
                }
            }
        }
        Ok(z)
    }
}
