//! Loops: unrolling decided loops, cutting the others with a havoc, candidate invariants
//! and Houdini's fixed point; user and function-wide invariants; moving invariants between
//! havocked states.

use super::*;

impl Exec<'_> {
    pub(super) fn run_loop(&mut self, l: usize, en: [T; 2]) -> R<Vec<(usize, [T; 2])>> {
        let snap = self.snapshot();
        let budget0 = self.budget;
        let (seed_len, probe_depth) = (self.houdini_seed.len(), self.probe_depth);
        let limit = self.o.loop_unwind.unwrap_or(self.o.unroll_limit);
        let limit = if self.in_abstract > 0 && self.o.loop_unwind.is_none() {
            limit.min(8)
        } else {
            limit
        };
        if self.o.loop_unwind.is_none() && self.loop_has_user_invariant(l) {
            return self.abstract_loop(l, en);
        }
        let mut p = en.clone();
        let mut exits: Vec<(usize, [T; 2])> = Vec::new();
        let mut it = 0u32;
        let mut done = false;
        let mut failed = false;
        while it < limit {
            if self.budget < budget0 / 2 || self.budget < 1000 {
                failed = true;
                break;
            }
            let out = match self.run_region(Some(l), p.clone()) {
                Ok(o) => o,
                Err(e) if e == "budget" && self.in_abstract == 0 => {
                    failed = true;
                    break;
                }
                Err(e) => return Err(e),
            };
            for (b, e) in out.exits {
                merge(&mut self.c, &mut exits, b, e);
            }
            p = out.back;
            it += 1;
            if p[0].is_false() && p[1].is_false() {
                done = true;
                break;
            }
            // A loop with a barrier whose continuation differs between the threads is cut at
            // once: unrolling it would only repeat the divergence the cut loop reports.
            if self.o.loop_unwind.is_none() && p[0] != p[1] && self.loop_has_barrier(l) {
                let differ = {
                    let e = self.c.eq(&p[0], &p[1]);
                    let n = self.c.not(&e);
                    self.c.and(&self.same_block.clone(), &n)
                };
                if self.feasible(&differ)? {
                    failed = true;
                    break;
                }
            }
            // A loop whose continuation depends on more than thread ids and constants (a
            // parameter, a value read from memory) is not unrolled: it is cut instead.
            if self.o.loop_unwind.is_none() {
                let mut memo = HashMap::new();
                let thread_only = |n: &str| !(n.starts_with("tid_") || n.starts_with("ctaid_"));
                if mentions(&p[0], &thread_only, &mut memo)
                    || mentions(&p[1], &thread_only, &mut memo)
                {
                    failed = true;
                    break;
                }
            }
            if it.is_power_of_two() && it >= 2 {
                let any = self.c.or(&p[0], &p[1]);
                if !self.feasible(&any)? {
                    done = true;
                    break;
                }
            }
        }
        if done {
            return Ok(exits);
        }
        if !failed && self.o.loop_unwind.is_some() {
            // Bounded: assume the loop ends here (bug finding only).
            let any = self.c.or(&p[0], &p[1]);
            let none = self.c.not(&any);
            self.assumptions.push(none);
            self.bounded = true;
            return Ok(exits);
        }
        self.restore(&snap);
        self.houdini_seed.truncate(seed_len);
        self.probe_depth = probe_depth;
        self.budget = budget0.saturating_sub(1000);
        self.abstract_loop(l, en)
    }

    /// One iteration of cut loop `l` from header predicates `p`, with `dead`'s writes taking
    /// effect in a thread that does not run the iteration (see `dead_frames`).
    pub(super) fn run_region_dead(
        &mut self,
        l: usize,
        p: [T; 2],
        dead: &BTreeSet<usize>,
    ) -> R<RegionOut> {
        self.dead_frames.push((dead.clone(), p.clone()));
        let r = self.run_region(Some(l), p);
        self.dead_frames.pop();
        r
    }

    /// Asks whether `f` is satisfiable under the current assumptions (unknown: true).
    pub(super) fn feasible(&mut self, f: &T) -> R<bool> {
        let mut parts = self.assumptions.clone();
        parts.push(f.clone());
        let q = self.c.and_all(&parts);
        Ok(!matches!(self.aux_ask(&q)?, Answer::Unsat))
    }

    pub(super) fn aux_ask(&mut self, q: &T) -> R<Answer> {
        if q.is_false() {
            return Ok(Answer::Unsat);
        }
        if self.aux.is_none() {
            let s = self.o.start_solver()?;
            self.aux = Some((s, Printer::new()));
        }
        let (s, p) = self.aux.as_mut().unwrap();
        let name = p.name(q);
        let decls = p.take();
        s.declare(&decls)?;
        Ok(s.ask(&Query {
            formula: name,
            values: vec![],
        })?)
    }

    /// Loop cut with invariants inferred by Houdini from rule-generated candidates plus the
    /// user's `__invariant`s (GPUVerify's invariant inference, Houdini; OOPSLA'12 §5).
    pub(super) fn abstract_loop(&mut self, l: usize, en: [T; 2]) -> R<Vec<(usize, [T; 2])>> {
        self.in_abstract += 1;
        let lp = self.cfg.loops[l].clone();
        // Inside an enclosing loop's probe (which only learns the arrays and offsets that
        // loop touches) this loop is cut without inference: a weaker havoc, whose checks
        // the probe discards.
        let in_probe = self.probe_depth > 0;
        let dbg_t0 = std::time::Instant::now();
        if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() {
            eprintln!(
                "loop {l}: cut (depth {}, probe {in_probe})",
                self.in_abstract
            );
        }
        // The candidates this loop's last inference dropped, when the enclosing inference
        // has only weakened its assumptions since (a later round or its final run): the
        // greatest inductive subset under weaker assumptions is a subset of the one under
        // stronger ones, so starting from the survivors finds the same fixed point.
        let prior: Option<Vec<Cand>> = if in_probe {
            None
        } else {
            self.houdini_seed.last().and_then(|m| m.get(&l).cloned())
        };
        let (written, steps, bounds) = self.loop_scan(l);
        let dead = self.cfg.dead_at_header(self.k, l, &written);
        let (first_off, probe_acc, exit_blocks) = self.loop_probe(l, &en, &dead)?;
        let entry = self.st.clone();
        let entry_snap = self.snapshot();
        let written: Vec<usize> = written.into_iter().collect();
        let (steps_t, next_off, mut cands, log_keys) = self.loop_cands(
            &written,
            &steps,
            &bounds,
            &first_off,
            &probe_acc,
            exit_blocks.len(),
        );
        let all_cands = cands.clone();
        if in_probe {
            cands.clear();
        } else if let Some(prior) = &prior {
            cands.retain(|c| !prior.contains(c));
        }
        self.houdini_seed.push(HashMap::new());
        let lx = LoopCx {
            l,
            en,
            entry,
            entry_snap,
            written,
            exit_blocks,
            dead,
            steps_t,
            first_off,
            next_off,
            log_keys,
        };
        let hout = self.houdini_rounds(&lx, &mut cands, in_probe)?;
        let exits = self.loop_final(&lx, &cands, &hout)?;
        let HoudiniOut {
            rounds, user_invs, ..
        } = hout;
        self.houdini_seed.pop();
        if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() {
            eprintln!(
                "loop {l}: done in {:?}, {rounds} round(s), {} of {} candidate(s) kept{}",
                dbg_t0.elapsed(),
                cands.len(),
                all_cands.len(),
                if prior.is_some() { " (seeded)" } else { "" }
            );
        }
        if !in_probe {
            if let Some(m) = self.houdini_seed.last_mut() {
                let dropped = all_cands
                    .into_iter()
                    .filter(|c| !cands.contains(c))
                    .collect();
                m.insert(l, dropped);
            }
        }
        self.in_abstract -= 1;
        self.notes.push(format!(
            "loop at {} cut with {} inferred invariant(s) ({} Houdini round(s)){}",
            self.k.describe_pos(self.cfg.blocks[lp.header].start),
            cands.len(),
            rounds,
            if user_invs.is_empty() {
                String::new()
            } else {
                format!(" and {} user invariant(s)", user_invs.len())
            }
        ));
        Ok(exits)
    }

    /// The registers a loop writes, the step operands of its additions and the constants
    /// its comparisons use (bounds of its counters).
    fn loop_scan(&self, l: usize) -> (BTreeSet<usize>, Vec<Operand>, BTreeSet<u64>) {
        let lp = &self.cfg.loops[l];
        // Registers written in the loop, step operands of additions.
        let mut written = BTreeSet::new();
        let mut steps: Vec<Operand> = Vec::new();
        for &b in &lp.blocks {
            let blk = &self.cfg.blocks[b];
            for pc in blk.start..blk.end {
                let i = &self.k.code[pc];
                for r in i.op.defs() {
                    written.insert(r.index());
                }
            }
        }
        // Constants the loop compares with (bounds of its counters).
        let mut bounds: BTreeSet<u64> = BTreeSet::new();
        for &b in &lp.blocks {
            let blk = &self.cfg.blocks[b];
            for pc in blk.start..blk.end {
                if let KOp::Setp { a, b, .. } = &self.k.code[pc].op {
                    for o in [a, b] {
                        if let Operand::Imm(v) = o {
                            if *v > 0 && *v < (1 << 31) && bounds.len() < 4 {
                                bounds.insert(*v);
                            }
                        }
                    }
                }
            }
        }
        for &b in &lp.blocks {
            let blk = &self.cfg.blocks[b];
            for pc in blk.start..blk.end {
                if let KOp::Binary {
                    op: KBinOp::Add | KBinOp::Sub,
                    a,
                    b,
                    dst,
                    ..
                } = &self.k.code[pc].op
                {
                    let inv = |o: &Operand| match o {
                        Operand::Imm(_) => true,
                        Operand::Reg(r) => !written.contains(&r.index()),
                        _ => true,
                    };
                    if written.contains(&dst.index()) {
                        if inv(b) {
                            steps.push(*b);
                        } else if inv(a) {
                            steps.push(*a);
                        }
                    }
                }
            }
        }
        (written, steps, bounds)
    }

    /// Runs one iteration from the entry state (a probe) to learn the arrays the loop
    /// touches and the first offsets of its accesses; pre-creates the logs and memories
    /// it may set; returns the first offsets, the probe's accesses and every exit block.
    #[allow(clippy::type_complexity)]
    fn loop_probe(
        &mut self,
        l: usize,
        en: &[T; 2],
        dead: &BTreeSet<usize>,
    ) -> R<(
        HashMap<(Base, Kind), T>,
        HashMap<(Base, Kind), (BTreeSet<usize>, BTreeSet<u64>)>,
        Vec<usize>,
    )> {
        let lp = self.cfg.loops[l].clone();
        // Probe: one iteration from the entry state, to learn the arrays the loop touches
        // and the offsets of its accesses.
        let snap0 = self.snapshot();
        let bud = self.budget;
        self.inv_hits.clear();
        self.first_off_rec = Some(HashMap::new());
        let saved_acc = std::mem::take(&mut self.probe_acc);
        self.probe_depth += 1;
        let probe = self.run_region_dead(l, en.clone(), dead);
        self.probe_depth -= 1;
        let first_off = self.first_off_rec.take().unwrap_or_default();
        let probe_acc = std::mem::replace(&mut self.probe_acc, saved_acc);
        let probe_logs: Vec<(Base, Kind)> = self.st.logs.keys().copied().collect();
        let probe_mem: Vec<Base> = self.st.mem.keys().copied().collect();
        let probe_used: Vec<Base> = self.st.used.keys().copied().collect();
        let exit_blocks: Vec<usize> = match &probe {
            Ok(o) => o.exits.iter().map(|x| x.0).collect(),
            Err(_) => vec![],
        };
        probe?;
        self.restore(&snap0);
        self.budget = bud;
        // Pre-create the logs the loop may set, so they are part of the loop state.
        for key in probe_logs {
            if !self.st.logs.contains_key(&key) {
                let l = Log::empty(&mut self.c);
                self.st.logs.insert(key, l);
            }
        }
        for b in probe_mem {
            if !self.st.mem.contains_key(&b) {
                let m = self.c.fresh("mem", Sort::Mem);
                self.st.mem.insert(b, m);
            }
        }
        for b in probe_used {
            if !self.st.used.contains_key(&b) {
                let w = 32;
                let e = self.c.empty_used(w);
                self.st.used.insert(b, e);
            }
        }
        // Every edge leaving the loop, whether or not the probe iteration took it.
        let mut exit_blocks = exit_blocks;
        for &b in &lp.blocks {
            for &(succ, _) in &self.cfg.blocks[b].succs {
                if !lp.blocks.contains(&succ) {
                    exit_blocks.push(succ);
                }
            }
        }
        exit_blocks.sort();
        exit_blocks.dedup();
        Ok((first_off, probe_acc, exit_blocks))
    }

    /// The steps of the loop's induction variables, the first offsets with `tid.x + 1`,
    /// the candidate invariants and the logs they speak of.
    #[allow(clippy::type_complexity)]
    fn loop_cands(
        &mut self,
        written: &[usize],
        steps: &[Operand],
        bounds: &BTreeSet<u64>,
        first_off: &HashMap<(Base, Kind), T>,
        probe_acc: &HashMap<(Base, Kind), (BTreeSet<usize>, BTreeSet<u64>)>,
        n_exits: usize,
    ) -> (
        Vec<[T; 2]>,
        HashMap<(Base, Kind), T>,
        Vec<Cand>,
        Vec<(Base, Kind)>,
    ) {
        // Steps of induction variables: constant, non-zero, non-trivial (strides of 1 say
        // nothing), without duplicates; symbolic strides would make the queries non-linear.
        let mut steps_t: Vec<[T; 2]> = Vec::new();
        for o in steps {
            let v = self.operand(0, o, DataType::U32);
            if let Some(x) = v.as_bv() {
                let x = x as u32 as i32;
                let mag = x.unsigned_abs() as u64;
                if mag > 1 && !steps_t.iter().any(|s| s[0].as_bv() == Some(mag)) {
                    let t = self.c.bv(32, mag);
                    steps_t.push([t.clone(), t]);
                }
            }
        }
        // Candidate invariants as closures over a havocked header state.
        // First offsets that depend on `s`'s thread id, with `tid.x + 1` in its place.
        let mut next_off: HashMap<(Base, Kind), T> = HashMap::new();
        {
            let tx = self.tid[0][0].clone();
            let one = self.c.bv(32, 1);
            let tx1 = self.c.add(&tx, &one);
            let map = HashMap::from([(tx, tx1)]);
            for (key, f) in first_off {
                let g = self.c.subst(f, &map);
                if g != *f {
                    next_off.insert(*key, g);
                }
            }
        }
        let mut cands: Vec<Cand> = Vec::new();
        for th in 0..2 {
            cands.push(Cand::PImpliesEn(th));
            cands.push(Cand::Covered(th));
            for i in 0..n_exits {
                cands.push(Cand::ExitImpliesEn(i, th));
                cands.push(Cand::ExitNotP(i, th));
            }
        }
        cands.push(Cand::PUniform);
        cands.push(Cand::PUniformBlock);
        for &r in written {
            let s = self.k.regs[r].ty;
            if s.kind == TypeKind::Pred {
                cands.push(Cand::RegUniform(r));
                continue;
            }
            cands.push(Cand::RegUniform(r));
            cands.push(Cand::RegUniformEn(r));
            for th in 0..2 {
                for rel in [Op::BvUle, Op::BvSle] {
                    cands.push(Cand::RegRel(r, th, rel.clone(), false));
                    cands.push(Cand::RegRel(r, th, rel, true));
                }
                for si in 0..steps_t.len() {
                    cands.push(Cand::RegStride(r, th, si));
                }
                for &k in bounds {
                    cands.push(Cand::RegBound(r, th, k, false));
                    cands.push(Cand::RegBound(r, th, k, true));
                }
            }
        }
        let log_keys: Vec<(Base, Kind)> = self.st.logs.keys().copied().collect();
        for key in &log_keys {
            cands.push(Cand::LogNone(*key));
            cands.push(Cand::LogSame(*key));
            cands.push(Cand::LogNoneSameBlock(*key));
            if first_off.contains_key(key) {
                cands.push(Cand::LogFirst(*key));
            }
            if next_off.contains_key(key) {
                cands.push(Cand::LogSlice(*key));
            }
            if let Some((pcs, sizes)) = probe_acc.get(key) {
                cands.push(Cand::LogPc(*key, pcs.iter().copied().collect()));
                for &z in sizes {
                    cands.push(Cand::LogSize(*key, z));
                }
                // The smallest access size, when a power of two: the loop's accesses are
                // aligned elements of it.
                if let Some(&z) = sizes.iter().min() {
                    if z > 1 && z.is_power_of_two() {
                        cands.push(Cand::LogAlign(*key, z));
                    }
                }
            }
            for si in 0..steps_t.len() {
                for sz in [1u64, 2, 4, 8] {
                    cands.push(Cand::LogStride(*key, si, sz));
                }
            }
        }
        (steps_t, next_off, cands, log_keys)
    }

    /// Houdini's rounds: each runs the body from a havocked state assuming the live
    /// candidates and drops those that fail on entry or on the back edge, until none fails.
    fn houdini_rounds(
        &mut self,
        lx: &LoopCx,
        cands: &mut Vec<Cand>,
        in_probe: bool,
    ) -> R<HoudiniOut> {
        let l = lx.l;
        let LoopCx {
            entry,
            entry_snap,
            written,
            exit_blocks,
            dead,
            log_keys,
            ..
        } = lx;
        // Houdini.
        let mut user_invs: Vec<(usize, T)> = Vec::new();
        // The invariants that also hold after the loop (unpredicated).
        let mut exit_invs: Vec<(usize, T)> = Vec::new();
        let mut rounds = 0;
        let mut first_h: Option<(State, [T; 2])> = None;
        let mut new_cands: Vec<Cand> = Vec::new();
        // Candidates whose entry check passed in an earlier round: the entry state, its
        // assumptions and the candidate's term are the same in every round, so the check
        // is not asked again.
        let mut entry_ok: Vec<Cand> = Vec::new();
        loop {
            if in_probe {
                break;
            }
            rounds += 1;
            self.restore(entry_snap);
            let mark = self.c.fresh_mark();
            let (h, hp, hx) = self.havoc(entry, written, exit_blocks.len());
            let map = match &first_h {
                Some((fh, fp)) => self.inv_map(fh, fp, &h, &hp),
                None => InvMap::default(),
            };
            self.st = h.clone();
            if first_h.is_none() {
                first_h = Some((h.clone(), hp.clone()));
                // Function-wide invariants, over the first havocked state (as the loop's
                // own `__invariant`s are), assumed from this first round on. They are
                // evaluated for both threads whether or not they run the loop (GPUVerify's
                // loop invariants are not predicated), so they also hold after the loop.
                let tt = self.c.tt();
                let fw = self.function_wide_invariants(l, &[tt.clone(), tt])?;
                exit_invs.extend(fw.iter().cloned());
                user_invs.extend(fw);
            }
            let ctx = lx.cand_ctx();
            let mut inv_terms = Vec::new();
            for cd in cands.iter() {
                let t = self.inst(cd, &ctx, &h, &hp, &hx, exit_blocks, Some(entry))?;
                inv_terms.push(t);
            }
            let any = self.c.or(&hp[0], &hp[1]);
            let base_len = self.assumptions.len();
            for t in &inv_terms {
                self.assumptions.push(t.clone());
            }
            for (_, ut) in &user_invs {
                let u = self.inv_at(ut, &map);
                self.assumptions.push(u);
            }
            self.assumptions.push(any);
            self.inv_hits.clear();
            let outer_rec = if rounds == 1 && self.o.benign {
                self.val_rec.replace(HashMap::new())
            } else {
                self.val_rec.take()
            };
            let out = self.run_region_dead(l, hp.clone(), dead);
            let val_rec = std::mem::replace(&mut self.val_rec, outer_rec);
            if let (Some(outer), Some(rec)) = (self.val_rec.as_mut(), val_rec.as_ref()) {
                // An enclosing loop's first round sees this loop's values too.
                for (key, vs) in rec {
                    let o = outer.entry(*key).or_default();
                    for v in vs {
                        if !o.contains(v) {
                            o.push(v.clone());
                        }
                    }
                }
            }
            let val_rec = if rounds == 1 { val_rec } else { None };
            let out = out?;
            // Values the loop's accesses log that do not change between iterations.
            if let Some(rec) = val_rec {
                for (key, vs) in rec {
                    if !log_keys.contains(&key) {
                        continue;
                    }
                    for v in vs
                        .into_iter()
                        .filter(|v| !mentions_fresh_after(v, mark))
                        .take(4)
                    {
                        new_cands.push(Cand::LogVal(key, v));
                    }
                }
            }
            // Back-edge state.
            let mut bx = hx.clone();
            for (b, e) in &out.exits {
                if let Some(i) = exit_blocks.iter().position(|x| x == b) {
                    bx[i] = [self.c.or(&bx[i][0], &e[0]), self.c.or(&bx[i][1], &e[1])];
                }
            }
            let bstate = self.st.clone();
            if rounds == 1 {
                self.first_round_user_invs(&hp, &mut user_invs, &mut exit_invs);
            }
            let failing = self.houdini_checks(
                lx,
                cands,
                &mut entry_ok,
                &bstate,
                &out.back,
                &bx,
                base_len,
                rounds,
            )?;
            if failing.is_empty() && new_cands.is_empty() {
                self.restore(entry_snap);
                break;
            }
            if rounds > 40 {
                // No fixed point in time: no candidate is known to be inductive.
                cands.clear();
                self.restore(entry_snap);
                break;
            }
            let mut k = 0;
            cands.retain(|_| {
                let keep = !failing.contains(&k);
                k += 1;
                keep
            });
            // Candidates found in the first round join from the second on: the assumptions
            // of the nested loops' next inference are stronger then, not weaker.
            if !new_cands.is_empty() {
                if let Some(m) = self.houdini_seed.last_mut() {
                    m.clear();
                }
            }
            cands.append(&mut new_cands);
        }
        Ok(HoudiniOut {
            rounds,
            first_h,
            user_invs,
            exit_invs,
        })
    }

    /// User invariants (from the sink stores of the first round; the hit is
    /// `p && !inv`). As GPUVerify's loop invariants, they hold for both threads
    /// whether or not they run the loop (a thread that left it by a `break` keeps its
    /// access log, which the invariant must still describe): the header predicates
    /// are set to true in them, so they are also assumed after the loop. Not when
    /// the kernel asks `__enabled()`, whose value is the predicate.
    fn first_round_user_invs(
        &mut self,
        hp: &[T; 2],
        user_invs: &mut Vec<(usize, T)>,
        exit_invs: &mut Vec<(usize, T)>,
    ) {
        let unpredicated = !self.asks_enabled;
        let tt = self.c.tt();
        let hp_true = HashMap::from([(hp[0].clone(), tt.clone()), (hp[1].clone(), tt)]);
        for (pc, hit) in std::mem::take(&mut self.inv_hits) {
            let hit = if unpredicated {
                self.c.subst(&hit, &hp_true)
            } else {
                hit
            };
            let inv = self.c.not(&hit);
            if unpredicated {
                exit_invs.push((pc, inv.clone()));
            }
            user_invs.push((pc, inv));
        }
    }

    /// One round's entry and preservation checks of the live candidates: the indices
    /// (in `cands`) of those that fail.
    #[allow(clippy::too_many_arguments)]
    fn houdini_checks(
        &mut self,
        lx: &LoopCx,
        cands: &[Cand],
        entry_ok: &mut Vec<Cand>,
        bstate: &State,
        back: &[T; 2],
        bx: &[[T; 2]],
        base_len: usize,
        rounds: usize,
    ) -> R<BTreeSet<usize>> {
        let LoopCx {
            en,
            entry,
            entry_snap,
            exit_blocks,
            ..
        } = lx;
        let ctx = lx.cand_ctx();
        // Entry and preservation check of every candidate.
        let mut failing = BTreeSet::new();
        let pres_ctx_assump = self.assumptions.clone();
        self.assumptions.truncate(base_len);
        let entry_assump = entry_snap.1;
        let mut entry_ok_terms = Vec::new();
        let ff = self.c.ff();
        let x0 = vec![[ff.clone(), ff.clone()]; exit_blocks.len()];
        for cd in cands.iter() {
            let t0 = if entry_ok.contains(cd) {
                self.c.tt()
            } else {
                self.inst(cd, &ctx, entry, en, &x0, exit_blocks, Some(entry))?
            };
            entry_ok_terms.push(t0);
        }
        let mut pres_terms = Vec::new();
        for cd in cands.iter() {
            let t1 = self.inst(cd, &ctx, bstate, back, bx, exit_blocks, Some(entry))?;
            pres_terms.push(t1);
        }
        // Houdini with counter-examples: drop every candidate the model falsifies.
        let ea: Vec<T> = self.assumptions[..entry_assump.min(self.assumptions.len())].to_vec();
        self.houdini_drop_each(&ea, &entry_ok_terms, &mut failing)?;
        for (i, cd) in cands.iter().enumerate() {
            if !failing.contains(&i) && !entry_ok.contains(cd) {
                entry_ok.push(cd.clone());
            }
        }
        self.houdini_drop(&pres_ctx_assump, &pres_terms, &mut failing)?;
        if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() {
            for (i, c) in cands.iter().enumerate() {
                if failing.contains(&i) {
                    eprintln!("houdini round {rounds}: drop {c:?}");
                }
            }
        }
        Ok(failing)
    }

    /// The final run with the inferred invariants (its checks are the loop's checks), the
    /// user invariants on entry and on the back edge, and the state after the loop; returns
    /// the loop's exits.
    fn loop_final(
        &mut self,
        lx: &LoopCx,
        cands: &[Cand],
        hout: &HoudiniOut,
    ) -> R<Vec<(usize, [T; 2])>> {
        let l = lx.l;
        let LoopCx {
            en,
            entry,
            entry_snap,
            written,
            exit_blocks,
            dead,
            ..
        } = lx;
        let HoudiniOut {
            first_h,
            user_invs,
            exit_invs,
            ..
        } = hout;
        // Final run with the inferred invariants: its checks are the loop's checks.
        self.restore(entry_snap);
        // User invariants on entry: their first-round terms (over the first havocked
        // state) with the entry state in its place. A value the first round created
        // without a counterpart at entry (a fresh read) stays arbitrary: the check may fail
        // spuriously, never pass wrongly.
        if let Some((fh, fp)) = &first_h {
            let me = self.inv_map(fh, fp, entry, en);
            for (pc, ut) in user_invs.iter() {
                let u = self.inv_at(ut, &me);
                let v = self.c.not(&u);
                self.add_check(
                    CheckKind::Invariant {
                        pc: *pc,
                        entry: true,
                    },
                    v,
                    vec![],
                );
            }
        }
        let (h, hp, hx) = self.havoc(entry, written, exit_blocks.len());
        let map2 = match &first_h {
            Some((fh, fp)) => self.inv_map(fh, fp, &h, &hp),
            None => InvMap::default(),
        };
        self.st = h.clone();
        let ctx = lx.cand_ctx();
        let base_len = self.assumptions.len();
        for cd in cands.iter() {
            let t = self.inst(cd, &ctx, &h, &hp, &hx, exit_blocks, Some(entry))?;
            self.assumptions.push(t);
        }
        // User invariants: checked on entry, assumed, checked on the back edge.
        let mut uinv_now = Vec::new();
        for (pc, ut) in user_invs.iter() {
            let u = self.inv_at(ut, &map2);
            uinv_now.push((*pc, u));
        }
        let any = self.c.or(&hp[0], &hp[1]);
        self.assumptions.push(any);
        for (_, u) in &uinv_now {
            self.assumptions.push(u.clone());
        }
        self.inv_hits.clear();
        let out = self.run_region_dead(l, hp.clone(), dead)?;
        self.inv_hits.clear();
        // User invariants on the back edge (preservation), as Houdini's candidates are.
        if let Some((fh, fp)) = &first_h {
            let st = self.st.clone();
            let mb = self.inv_map(fh, fp, &st, &out.back);
            for (pc, ut) in user_invs.iter() {
                let u = self.inv_at(ut, &mb);
                let v = self.c.not(&u);
                self.add_check(
                    CheckKind::Invariant {
                        pc: *pc,
                        entry: false,
                    },
                    v,
                    vec![],
                );
            }
        }
        // The loop's own checks are kept; its assumptions end here.
        self.assumptions.truncate(base_len);
        self.restore_state_keep_checks(entry);
        let (h2, hp2, hx2) = self.havoc(entry, written, exit_blocks.len());
        self.st = h2.clone();
        for cd in cands.iter() {
            let t = self.inst(cd, &ctx, &h2, &hp2, &hx2, exit_blocks, Some(entry))?;
            self.assumptions.push(t);
        }
        if let Some((fh, fp)) = &first_h {
            let me = self.inv_map(fh, fp, &h2, &hp2);
            for (_, ut) in exit_invs.iter() {
                let u = self.inv_at(ut, &me);
                self.assumptions.push(u);
            }
        }
        let n0 = self.c.not(&hp2[0]);
        let n1 = self.c.not(&hp2[1]);
        self.assumptions.push(n0);
        self.assumptions.push(n1);
        Ok(exit_blocks
            .iter()
            .enumerate()
            .map(|(i, &b)| (b, hx2[i].clone()))
            .collect())
    }

    /// Whether the loop states a user invariant (`__invariant` in its condition): such a
    /// loop is cut with its invariants at once, as GPUVerify does, instead of being unrolled.
    pub(super) fn loop_has_user_invariant(&self, l: usize) -> bool {
        if self.o.ignore_invariants {
            return false;
        }
        if !self.function_wide_of(l).is_empty() {
            return true;
        }
        self.cfg.loops[l].blocks.iter().any(|&b| {
            let blk = &self.cfg.blocks[b];
            (blk.start..blk.end).any(|pc| match &self.k.code[pc].op {
                KOp::St {
                    addr:
                        weft_ir::kernel::Addr {
                            base: AddrBase::Var(v),
                            ..
                        },
                    ..
                } => self
                    .k
                    .vars
                    .get(*v as usize)
                    .is_some_and(|x| x.name.contains(INVARIANT_SINK)),
                KOp::Annot { kind, .. } => {
                    matches!(kind, AnnotKind::Invariant | AnnotKind::GlobalInvariant)
                }
                _ => false,
            })
        })
    }

    /// The source line of loop `l`'s header (its first instruction with one).
    pub(super) fn loop_line(&self, l: usize) -> Option<usize> {
        let blk = &self.cfg.blocks[self.cfg.loops[l].header];
        (blk.start..blk.end)
            .find_map(|pc| self.k.code[pc].loc.filter(|x| x.line > 0))
            .map(|x| x.line as usize)
    }

    /// The function-wide invariants that apply to loop `l`: those written in the function
    /// the loop's header stands in (the kernel or a called function, told by source line as
    /// for contracts; every one when a line is missing).
    pub(super) fn function_wide_of(&self, l: usize) -> Vec<FunctionWide> {
        let ll = self.loop_line(l);
        self.function_wide
            .iter()
            .filter(|f| match (f.line, ll) {
                (Some(a), Some(b)) => {
                    let fa = self.o.contracts.callee_at(a as usize).map(|c| c.first);
                    let fb = self.o.contracts.callee_at(b).map(|c| c.first);
                    fa == fb
                }
                _ => true,
            })
            .cloned()
            .collect()
    }

    /// Each function-wide invariant of loop `l` evaluated in the current state with thread
    /// predicates `en`: (annotation pc, the invariant). The condition's code is run again
    /// here, forward and predicated, from `en` (`crate::function_wide`); a register it reads
    /// that has no value here yet and has a single pure definition is first computed from
    /// that definition. Nothing of the run is kept but the term: the state, assumptions and
    /// checks are restored. As for `__invariant`, the condition is instantiated for `t`
    /// only when it does not read the access history.
    pub(super) fn function_wide_invariants(&mut self, l: usize, en: &[T; 2]) -> R<Vec<(usize, T)>> {
        let fws = self.function_wide_of(l);
        let mut out = Vec::new();
        for fw in fws {
            let snap = self.snapshot();
            let fwd = std::mem::take(&mut self.local_fwd);
            let nulls = self.null_cases.len();
            let r = self.eval_function_wide(&fw, en);
            self.restore(&snap);
            self.local_fwd = fwd;
            self.null_cases.truncate(nulls);
            out.push((fw.pc, r?));
        }
        Ok(out)
    }

    pub(super) fn eval_function_wide(&mut self, fw: &FunctionWide, en: &[T; 2]) -> R<T> {
        let inputs = crate::function_wide::inputs(self.k, fw.start, fw.pc);
        for r in inputs {
            self.materialize(r, 0)?;
        }
        let ff = self.c.ff();
        let mut pend: HashMap<usize, [T; 2]> = HashMap::new();
        pend.insert(fw.start, en.clone());
        let add = |me: &mut Self, pend: &mut HashMap<usize, [T; 2]>, at: usize, e: [T; 2]| {
            let v = match pend.remove(&at) {
                Some(p) => [me.c.or(&p[0], &e[0]), me.c.or(&p[1], &e[1])],
                None => e,
            };
            pend.insert(at, v);
        };
        for pc in fw.start..fw.pc {
            let e = pend.remove(&pc).unwrap_or([ff.clone(), ff.clone()]);
            if self.cfg.block_of.get(pc).map(|&b| self.cfg.blocks[b].start) == Some(pc) {
                self.local_fwd.clear();
            }
            let i = &self.k.code[pc];
            match (&i.op, i.guard) {
                (KOp::Bra { target }, g) => {
                    let target = *target as usize;
                    let (taken, fall) = match g {
                        None => (e.clone(), [ff.clone(), ff.clone()]),
                        Some(g) => {
                            let mut tk = e.clone();
                            let mut fl = e.clone();
                            for th in 0..2 {
                                let v = self.reg_bool(th, g.reg.index());
                                let v = if g.negated { self.c.not(&v) } else { v };
                                let nv = self.c.not(&v);
                                tk[th] = self.c.and(&e[th], &v);
                                fl[th] = self.c.and(&e[th], &nv);
                            }
                            (tk, fl)
                        }
                    };
                    add(self, &mut pend, target, taken);
                    add(self, &mut pend, pc + 1, fall);
                }
                _ => {
                    self.instr(pc, &e)?;
                    add(self, &mut pend, pc + 1, e);
                }
            }
        }
        let e = pend.remove(&fw.pc).unwrap_or([ff.clone(), ff]);
        if self
            .cfg
            .block_of
            .get(fw.pc)
            .map(|&b| self.cfg.blocks[b].start)
            == Some(fw.pc)
        {
            self.local_fwd.clear();
        }
        let KOp::Annot { cond, .. } = &self.k.code[fw.pc].op else {
            return Err("function-wide invariant: not an annotation".into());
        };
        let cond = *cond;
        let viol = [0, 1].map(|th| {
            let v = self.operand(th, &cond, PRED);
            if th == 1 && mentions_log_query(&v) {
                return self.c.ff();
            }
            let v = self.truthy(&v);
            let nv = self.c.not(&v);
            self.c.and(&e[th], &nv)
        });
        let either = self.c.or(&viol[0], &viol[1]);
        Ok(self.c.not(&either))
    }

    /// Gives register `r` a value where it has none yet, from its single pure definition
    /// (its operands first, to a small depth); otherwise it stays as it is (an arbitrary
    /// value when read).
    pub(super) fn materialize(&mut self, r: usize, depth: u32) -> R<()> {
        if depth > 16 || (self.st.regs[0][r].is_some() && self.st.regs[1][r].is_some()) {
            return Ok(());
        }
        let Some(pc) = self.pure_defs.get(r).copied().flatten() else {
            return Ok(());
        };
        for q in self.k.code[pc].uses() {
            self.materialize(q.index(), depth + 1)?;
        }
        let tt = self.c.tt();
        self.instr(pc, &[tt.clone(), tt])
    }

    pub(super) fn loop_has_barrier(&self, l: usize) -> bool {
        self.cfg.loops[l].blocks.iter().any(|&b| {
            let blk = &self.cfg.blocks[b];
            (blk.start..blk.end).any(|pc| {
                matches!(
                    self.k.code[pc].op,
                    KOp::Barrier {
                        kind: BarrierKind::Sync,
                        ..
                    }
                )
            })
        })
    }

    pub(super) fn restore_state_keep_checks(&mut self, s: &State) {
        self.st = s.clone();
    }

    /// Adds to `failing` the candidates (by index) that do not follow from `assum`.
    pub(super) fn houdini_drop(
        &mut self,
        assum: &[T],
        terms: &[T],
        failing: &mut BTreeSet<usize>,
    ) -> R<()> {
        loop {
            let live: Vec<usize> = (0..terms.len())
                .filter(|i| !failing.contains(i) && !terms[*i].is_true())
                .collect();
            if live.is_empty() {
                return Ok(());
            }
            let lt: Vec<T> = live.iter().map(|&i| terms[i].clone()).collect();
            let all = self.c.and_all(&lt);
            let nall = self.c.not(&all);
            let mut parts = assum.to_vec();
            parts.push(nall);
            let q = self.c.and_all(&parts);
            match self.aux_ask_vals(&q, &lt)? {
                Answer::Unsat => return Ok(()),
                Answer::Sat(vals) => {
                    let mut dropped = false;
                    for (j, &i) in live.iter().enumerate() {
                        if vals.get(j).map(|v| v.1.as_str()) == Some("false") {
                            failing.insert(i);
                            dropped = true;
                        }
                    }
                    if !dropped {
                        if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() {
                            eprintln!(
                                "houdini: model falsifies nothing: {:?}",
                                &vals[..vals.len().min(5)]
                            );
                        }
                        failing.extend(live);
                        return Ok(());
                    }
                }
                Answer::Unknown(why) => {
                    if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() {
                        eprintln!("houdini: unknown: {why}");
                    }
                    failing.extend(live);
                    return Ok(());
                }
            }
        }
    }

    /// As `houdini_drop`, one candidate at a time: the assumptions are asserted once and
    /// each live candidate's negation is asked on top of them (`push`/`pop`), every model
    /// dropping all the candidates it falsifies. For the entry check, whose assumptions are
    /// small, this replaces one round per dropped candidate (z3's models of `!(c1 && ..)`
    /// usually falsify a single `ci`) by one cheap incremental query per candidate.
    pub(super) fn houdini_drop_each(
        &mut self,
        assum: &[T],
        terms: &[T],
        failing: &mut BTreeSet<usize>,
    ) -> R<()> {
        let a = self.c.and_all(assum);
        if a.is_false() {
            return Ok(());
        }
        // First all the candidates at once, asked alone (z3's bit-blasting strategy): under
        // the large assumptions of a loop nested in cut loops, one such query settles what
        // takes the incremental per-candidate queries far longer (polybench's `gemm`: 4 s
        // against over 10 s for each of 66 candidates); a model drops what it falsifies.
        {
            let live: Vec<usize> = (0..terms.len())
                .filter(|i| !failing.contains(i) && !terms[*i].is_true())
                .collect();
            if live.is_empty() {
                return Ok(());
            }
            let lt: Vec<T> = live.iter().map(|&i| terms[i].clone()).collect();
            let all = self.c.and_all(&lt);
            let nall = self.c.not(&all);
            let q = self.c.and(&a, &nall);
            match self.aux_ask_vals(&q, &lt)? {
                Answer::Unsat => return Ok(()),
                Answer::Sat(vals) => {
                    for (j, &i) in live.iter().enumerate() {
                        if vals.get(j).map(|v| v.1.as_str()) == Some("false") {
                            failing.insert(i);
                        }
                    }
                }
                Answer::Unknown(_) => {}
            }
        }
        if self.aux_alone.is_none() {
            self.aux_alone = Some(self.o.start_solver()?);
        }
        let s = self.aux_alone.as_mut().unwrap();
        let mut p = Printer::new();
        let an = p.name(&a);
        let live: Vec<usize> = (0..terms.len())
            .filter(|i| !failing.contains(i) && !terms[*i].is_true())
            .collect();
        let names: Vec<String> = live.iter().map(|&i| p.name(&terms[i])).collect();
        let mut decls = p.take();
        decls.push_str(&format!("(assert {an})\n"));
        if let Some(f) = std::env::var_os("WEFT_VERIFY_DUMP") {
            use std::io::Write as _;
            if let Ok(mut fh) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(f)
            {
                let _ = write!(fh, "(reset)\n; entry\n{decls}");
                for n in &names {
                    let _ = writeln!(fh, "(push 1)\n(assert (not {n}))\n(check-sat)\n(pop 1)");
                }
            }
        }
        s.restart(&decls)?;
        let mut settled: BTreeSet<usize> = BTreeSet::new();
        for (j, &i) in live.iter().enumerate() {
            if failing.contains(&i) || settled.contains(&i) {
                continue;
            }
            // The candidates still open, by index in `live`.
            let open: Vec<usize> = (0..live.len())
                .filter(|&m| !failing.contains(&live[m]) && !settled.contains(&live[m]))
                .collect();
            let q = Query {
                formula: format!("(not {})", names[j]),
                values: open.iter().map(|&m| names[m].clone()).collect(),
            };
            match s.ask(&q)? {
                Answer::Unsat => {
                    settled.insert(i);
                }
                Answer::Sat(vals) => {
                    for (v, &m) in open.iter().enumerate() {
                        if vals.get(v).map(|x| x.1.as_str()) == Some("false") {
                            failing.insert(live[m]);
                        }
                    }
                    // The model falsifies the asked candidate; a solver that says
                    // otherwise loses it all the same.
                    failing.insert(i);
                }
                Answer::Unknown(_) => {
                    failing.insert(i);
                }
            }
        }
        Ok(())
    }

    pub(super) fn aux_ask_vals(&mut self, q: &T, vals: &[T]) -> R<Answer> {
        if q.is_false() {
            return Ok(Answer::Unsat);
        }
        if self.aux_alone.is_none() {
            self.aux_alone = Some(self.o.start_solver()?);
        }
        let s = self.aux_alone.as_mut().unwrap();
        // A fresh printer declares exactly what this query needs.
        let mut p = Printer::with_equations();
        let name = p.name(q);
        let names: Vec<String> = vals.iter().map(|v| p.name(v)).collect();
        let decls = p.take();
        let key = format!("{decls}{name}\n{}", names.join(" "));
        if let Some(a) = self.houdini_cache.get(&key) {
            self.houdini_stats.1 += 1;
            return Ok(a.clone());
        }
        if let Some(f) = std::env::var_os("WEFT_VERIFY_DUMP") {
            use std::io::Write as _;
            if let Ok(mut fh) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(f)
            {
                let _ = write!(fh, "(reset)\n{decls}(assert {name})\n(check-sat)\n");
            }
        }
        let t0 = std::time::Instant::now();
        let a = s.ask_alone(
            &decls,
            &Query {
                formula: name,
                values: names,
            },
        )?;
        self.houdini_stats.0 += 1;
        self.houdini_stats.2 += t0.elapsed();
        // An `unknown` (a timeout, the run's deadline) is not kept: asked again, the
        // query gets its own chance (either answer drops candidates, which is sound).
        if !matches!(a, Answer::Unknown(_)) {
            self.houdini_cache.insert(key, a.clone());
        }
        Ok(a)
    }

    #[allow(dead_code)]
    pub(super) fn valid_under(&mut self, assum: &[T], f: &T) -> R<bool> {
        if f.is_true() {
            return Ok(true);
        }
        let mut parts = assum.to_vec();
        let nf = self.c.not(f);
        parts.push(nf);
        let q = self.c.and_all(&parts);
        Ok(matches!(self.aux_ask(&q)?, Answer::Unsat))
    }

    /// A havocked copy of `entry` for the loop's written registers, logs, memories.
    pub(super) fn havoc(
        &mut self,
        entry: &State,
        written: &[usize],
        nexits: usize,
    ) -> (State, [T; 2], Vec<[T; 2]>) {
        let mut h = entry.clone();
        for th in 0..2 {
            for &r in written {
                let s = reg_sort(self.k.regs[r].ty);
                let v = self.c.fresh(&format!("h{}_{}", r, ["s", "t"][th]), s);
                // A pointer into one array stays a pointer into it: base + havocked offset.
                let v = match (self.facts.reg_bases.get(r), s) {
                    (Some(bs), Sort::Bv(64)) if bs.len() == 1 => {
                        let b = *bs.iter().next().unwrap();
                        let bt = match b {
                            Base::Param(p, o) => self.c.var(&format!("param{p}_{o}"), Sort::Bv(64)),
                            Base::Var(x) => self.c.var(&format!("base_v{x}"), Sort::Bv(64)),
                        };
                        self.c.add(&bt, &v)
                    }
                    _ => v,
                };
                h.regs[th][r] = Some(v);
            }
        }
        for (_, lg) in h.logs.iter_mut() {
            lg.has = self.c.fresh("has", Sort::Bool);
            lg.off = self.c.fresh("off", Sort::Bv(64));
            lg.size = self.c.fresh("size", Sort::Bv(64));
            lg.pc = self.c.fresh("pc", Sort::Bv(32));
            lg.val = self.c.fresh("val", Sort::Bv(64));
            lg.same = self.c.fresh("same", Sort::Bool);
        }
        for (_, m) in h.mem.iter_mut() {
            *m = self.c.fresh("mem", Sort::Mem);
        }
        for (_, u) in h.used.iter_mut() {
            *u = self.c.fresh("used", Sort::Used(32));
        }
        h.used_log.clear();
        h.own = [BTreeMap::new(), BTreeMap::new()];
        let p = [
            self.c.fresh("p_s", Sort::Bool),
            self.c.fresh("p_t", Sort::Bool),
        ];
        let x = (0..nexits)
            .map(|_| {
                [
                    self.c.fresh("x_s", Sort::Bool),
                    self.c.fresh("x_t", Sort::Bool),
                ]
            })
            .collect();
        (h, p, x)
    }
}

/// Maps the variables of one havoc to another's (to move user invariants between rounds).
/// How a user invariant over the first havocked loop state reads in another state `b`:
/// [`havoc_map`], and the membership in each used map of a repetition-free counter (read
/// by `__atomic_has_taken_value`) as the membership in `b`'s set: its root and the values
/// returned since ([`Ctx::expand_used`]).
#[derive(Default)]
pub(super) struct InvMap {
    map: HashMap<T, T>,
    sets: HashMap<String, (T, Vec<[T; 3]>)>,
}

impl Exec<'_> {
    fn inv_map(&mut self, a: &State, ap: &[T; 2], b: &State, bp: &[T; 2]) -> InvMap {
        let map = havoc_map(a, ap, b, bp);
        let mut sets = HashMap::new();
        for (k, x) in &a.used {
            if let (Some(y), Some(f)) = (b.used.get(k), crate::term::used_fn(x)) {
                let list = b.used_log.get(k).cloned().unwrap_or_default();
                sets.insert(f, (y.clone(), list));
            }
        }
        InvMap { map, sets }
    }

    fn inv_at(&mut self, ut: &T, m: &InvMap) -> T {
        let u = self.c.subst(ut, &m.map);
        if m.sets.is_empty() {
            u
        } else {
            self.c.expand_used(&u, &m.sets)
        }
    }
}

fn havoc_map(a: &State, ap: &[T; 2], b: &State, bp: &[T; 2]) -> HashMap<T, T> {
    let mut m = HashMap::new();
    for th in 0..2 {
        for (x, y) in a.regs[th].iter().zip(&b.regs[th]) {
            if let (Some(x), Some(y)) = (x, y) {
                if x != y {
                    m.insert(x.clone(), y.clone());
                }
            }
        }
        m.insert(ap[th].clone(), bp[th].clone());
    }
    for (k, l) in &a.logs {
        if let Some(l2) = b.logs.get(k) {
            for (x, y) in [
                (&l.has, &l2.has),
                (&l.off, &l2.off),
                (&l.size, &l2.size),
                (&l.pc, &l2.pc),
            ] {
                m.insert(x.clone(), y.clone());
            }
        }
    }
    for (k, x) in &a.mem {
        if let Some(y) = b.mem.get(k) {
            m.insert(x.clone(), y.clone());
        }
    }
    m
}

/// What one loop cut works with: the loop, its entry state and what the probe learned.
struct LoopCx {
    l: usize,
    en: [T; 2],
    entry: State,
    entry_snap: (State, usize, usize, bool, usize),
    written: Vec<usize>,
    exit_blocks: Vec<usize>,
    dead: BTreeSet<usize>,
    steps_t: Vec<[T; 2]>,
    first_off: HashMap<(Base, Kind), T>,
    next_off: HashMap<(Base, Kind), T>,
    log_keys: Vec<(Base, Kind)>,
}

impl LoopCx {
    fn cand_ctx(&self) -> CandCtx<'_> {
        CandCtx {
            entry: &self.entry,
            en0: &self.en,
            steps: &self.steps_t,
            first_off: &self.first_off,
            next_off: &self.next_off,
        }
    }
}

/// Houdini's result: its rounds, the first havocked state (over which the user invariants
/// are stated), the user invariants and those that also hold after the loop.
struct HoudiniOut {
    rounds: usize,
    first_h: Option<(State, [T; 2])>,
    user_invs: Vec<(usize, T)>,
    exit_invs: Vec<(usize, T)>,
}
