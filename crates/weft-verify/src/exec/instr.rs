//! Instruction semantics: registers, special registers and operands of both threads, and
//! the predicated execution of one instruction; access-history queries.

use super::*;

impl Exec<'_> {
    pub(super) fn reg(&mut self, th: usize, r: usize) -> T {
        if let Some(v) = &self.st.regs[th][r] {
            return v.clone();
        }
        let v = self.c.fresh(
            &format!(
                "undef_{}_{}",
                self.k.regs[r].name.trim_start_matches('%'),
                ["s", "t"][th]
            ),
            reg_sort(self.k.regs[r].ty),
        );
        self.st.regs[th][r] = Some(v.clone());
        v
    }

    pub(super) fn reg_bool(&mut self, th: usize, r: usize) -> T {
        let v = self.reg(th, r);
        self.truthy(&v)
    }

    pub(super) fn truthy(&mut self, v: &T) -> T {
        alu::truthy(&mut self.c, v)
    }

    /// Adapts a value to `w` bits (or Bool for predicates).
    pub(super) fn fit(&mut self, v: &T, s: Sort) -> T {
        alu::fit(&mut self.c, v, s)
    }

    pub(super) fn write(&mut self, th: usize, r: usize, v: T, en: &T) {
        let s = reg_sort(self.k.regs[r].ty);
        let v = self.fit(&v, s);
        // A register never written before holds no defined value: taking `v` on the
        // disabled path too is one of its possible values (and keeps addresses splittable).
        let mut en = en.clone();
        for (dead, p) in &self.dead_frames {
            if dead.contains(&r) {
                let out = self.c.not(&p[th]);
                en = self.c.or(&en, &out);
            }
        }
        let en = &en;
        let nv = if en.is_true() || self.st.regs[th][r].is_none() {
            v
        } else {
            let old = self.reg(th, r);
            self.c.ite(en, &v, &old)
        };
        self.st.regs[th][r] = Some(nv);
    }

    pub(super) fn special(&mut self, th: usize, s: SpecialReg) -> T {
        let o = self.o;
        match s {
            SpecialReg::Tid(d) => self.tid[th][d.min(2) as usize].clone(),
            SpecialReg::Ctaid(d) => self.ctaid[th][d.min(2) as usize].clone(),
            SpecialReg::Ntid(d) => self.ntid[d.min(2) as usize].clone(),
            SpecialReg::Nctaid(d) => self.nctaid[d.min(2) as usize].clone(),
            SpecialReg::Laneid => self.lane[th].clone(),
            SpecialReg::Warpid => {
                let b = self.ntid[0].clone();
                let bxy = self
                    .c
                    .bin(Op::BvMul, &self.ntid[0].clone(), &self.ntid[1].clone());
                let y = self.c.bin(Op::BvMul, &self.tid[th][1].clone(), &b);
                let z = self.c.bin(Op::BvMul, &self.tid[th][2].clone(), &bxy);
                let a = self.c.add(&self.tid[th][0].clone(), &y);
                let lin = self.c.add(&a, &z);
                let ws = self.c.bv(32, o.warp_size.max(1) as u64);
                self.c.bin(Op::BvUdiv, &lin, &ws)
            }
            SpecialReg::Nwarpid => {
                let n = self.ntid.clone();
                let xy = self.c.bin(Op::BvMul, &n[0], &n[1]);
                let xyz = self.c.bin(Op::BvMul, &xy, &n[2]);
                let w = o.warp_size.max(1) as u64;
                let wm1 = self.c.bv(32, w - 1);
                let up = self.c.add(&xyz, &wm1);
                let ws = self.c.bv(32, w);
                self.c.bin(Op::BvUdiv, &up, &ws)
            }
            SpecialReg::Gridid => self.c.bv(32, 0),
            _ => self.c.fresh("sreg", Sort::Bv(32)),
        }
    }

    pub(super) fn operand(&mut self, th: usize, o: &Operand, ty: DataType) -> T {
        let w = if ty.kind == TypeKind::Pred {
            1
        } else {
            u32::from(ty.bits).clamp(1, 64)
        };
        match o {
            Operand::Reg(r) => {
                let v = self.reg(th, r.index());
                alu::read_as(&mut self.c, &v, ty)
            }
            Operand::Imm(v) => {
                if ty.kind == TypeKind::Pred {
                    self.c.bool(*v != 0)
                } else {
                    self.c.bv(w, *v)
                }
            }
            Operand::Special(s) => {
                let v = self.special(th, *s);
                self.fit(&v, Sort::Bv(w))
            }
            Operand::VarAddr { var, offset } => {
                let b = self.c.var(&format!("base_v{var}"), Sort::Bv(64));
                let off = self.c.bv(64, *offset as u64);
                let a = self.c.add(&b, &off);
                self.fit(&a, Sort::Bv(w))
            }
        }
    }

    pub(super) fn is_float(ty: DataType) -> bool {
        alu::is_float(ty)
    }

    pub(super) fn uf(&mut self, name: &str, ty: DataType, args: &[T], s: Sort) -> T {
        alu::uf(&mut self.c, name, ty, args, s)
    }

    /// `--assume-no-overflow`: a 32-bit integer `x op y` (add, sub, mul.lo) where the thread
    /// is enabled gives its mathematical result under the signed or the unsigned reading of
    /// its operands (assumed).
    fn assume_no_wrap(&mut self, op: KBinOp, ty: DataType, x: &T, y: &T, en: &T) {
        if !self.o.assume_no_overflow
            || ty.bits != 32
            || matches!(ty.kind, TypeKind::Float | TypeKind::Pred)
            || !matches!(op, KBinOp::Add | KBinOp::Sub | KBinOp::Mul)
            || x.sort() != Sort::Bv(32)
            || y.sort() != Sort::Bv(32)
        {
            return;
        }
        let c = &mut self.c;
        let bop = match op {
            KBinOp::Add => Op::BvAdd,
            KBinOp::Sub => Op::BvSub,
            _ => Op::BvMul,
        };
        let fits = |c: &mut Ctx, ext: fn(&mut Ctx, u32, &T) -> T| {
            let (a, b) = (ext(c, 64, x), ext(c, 64, y));
            let r = c.bin(bop.clone(), &a, &b);
            let lo = c.extract(31, 0, &r);
            let back = ext(c, 64, &lo);
            c.eq(&r, &back)
        };
        let u = fits(c, Ctx::zext);
        let s = fits(c, Ctx::sext);
        let ok = c.or(&u, &s);
        let ne = c.not(en);
        let a = c.or(&ne, &ok);
        self.assumptions.push(a);
    }

    pub(super) fn instr(&mut self, pc: usize, en: &[T; 2]) -> R<()> {
        let i = &self.k.code[pc];
        let en: [T; 2] = match i.guard {
            None => en.clone(),
            Some(g) => [0, 1].map(|th| {
                let v = self.reg_bool(th, g.reg.index());
                let v = if g.negated { self.c.not(&v) } else { v };
                self.c.and(&en[th], &v)
            }),
        };
        if en[0].is_false() && en[1].is_false() {
            return Ok(());
        }
        let op = i.op.clone();
        match &op {
            KOp::Mov { .. }
            | KOp::Unary { .. }
            | KOp::Binary { .. }
            | KOp::Mad { .. }
            | KOp::Setp { .. }
            | KOp::Selp { .. }
            | KOp::Cvt { .. }
            | KOp::Cvta { .. } => self.instr_arith(&en, &op),
            KOp::Bfe { .. }
            | KOp::Bfi { .. }
            | KOp::Shf { .. }
            | KOp::Prmt { .. }
            | KOp::Shfl { .. }
            | KOp::Vote { .. }
            | KOp::Match { .. }
            | KOp::Activemask { .. } => self.instr_bits(&en, &op),
            KOp::Ld { .. } | KOp::St { .. } => self.instr_mem(pc, &en, &op),
            KOp::Query { .. } => self.instr_query(pc, &en, &op),
            _ => self.instr_other(pc, &en, &op),
        }
    }

    /// Register arithmetic: moves, unary and binary operations, `mad`, comparisons, selects
    /// and conversions.
    fn instr_arith(&mut self, en: &[T; 2], op: &KOp) -> R<()> {
        let en: [T; 2] = en.clone();
        match op {
            KOp::Mov { ty, dst, src } => {
                for th in 0..2 {
                    let v = self.operand(th, src, *ty);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Unary { op, ty, dst, a } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let v = alu::unary(&mut self.c, *op, *ty, &x);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Binary { op, ty, dst, a, b } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let y = self.operand(th, b, alu::binary_operand_type(*op, *ty));
                    self.assume_no_wrap(*op, *ty, &x, &y, &en[th]);
                    let v = alu::binary(&mut self.c, *op, *ty, &x, &y);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Mad {
                mode,
                ty,
                dst,
                a,
                b,
                c,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let y = self.operand(th, b, *ty);
                    let v = if Self::is_float(*ty) {
                        let z = self.operand(th, c, *ty);
                        let w = x.sort();
                        self.uf("fma", *ty, &[x, y, z], w)
                    } else {
                        self.assume_no_wrap(*mode, *ty, &x, &y, &en[th]);
                        let m = alu::binary(&mut self.c, *mode, *ty, &x, &y);
                        let z = self.operand(th, c, alu::mad_addend_type(*mode, *ty));
                        if *mode == KBinOp::Mul {
                            self.assume_no_wrap(KBinOp::Add, *ty, &m, &z, &en[th]);
                        }
                        alu::mad_sum(&mut self.c, &m, &z)
                    };
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Setp {
                cmp,
                ty,
                dst,
                dst2,
                a,
                b,
                combine,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let y = self.operand(th, b, *ty);
                    let mut v = alu::compare(&mut self.c, *cmp, *ty, &x, &y);
                    let mut v2 = self.c.not(&v);
                    if let Some((bop, p, neg)) = combine {
                        let q = self.operand(th, p, DataType::PRED);
                        let q = if *neg { self.c.not(&q) } else { q };
                        let comb = |c: &mut Ctx, a: &T| match bop {
                            weft_ir::kernel::KBoolOp::And => c.and(a, &q),
                            weft_ir::kernel::KBoolOp::Or => c.or(a, &q),
                            weft_ir::kernel::KBoolOp::Xor => {
                                let e = c.eq(a, &q);
                                c.not(&e)
                            }
                        };
                        v = comb(&mut self.c, &v);
                        v2 = comb(&mut self.c, &v2);
                    }
                    self.write(th, dst.index(), v, &en[th]);
                    if let Some(d2) = dst2 {
                        self.write(th, d2.index(), v2, &en[th]);
                    }
                }
            }
            KOp::Selp {
                ty,
                dst,
                a,
                b,
                pred,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let y = self.operand(th, b, *ty);
                    let p = self.operand(th, pred, DataType::PRED);
                    let v = self.c.ite(&p, &x, &y);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Cvt {
                dst_ty,
                src_ty,
                dst,
                src,
                integral,
                sat,
                ..
            } => {
                for th in 0..2 {
                    let x = self.operand(th, src, *src_ty);
                    let v = alu::cvt(&mut self.c, *dst_ty, *src_ty, *integral, *sat, &x);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Cvta { dst, src, .. } => {
                for th in 0..2 {
                    let v = self.operand(th, src, DataType::U64);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Bit-field, funnel-shift and permute operations, and the warp-level operations
    /// (shuffles, votes, matches, the active mask).
    fn instr_bits(&mut self, en: &[T; 2], op: &KOp) -> R<()> {
        let en: [T; 2] = en.clone();
        match op {
            KOp::Bfe {
                ty,
                dst,
                a,
                pos,
                len,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let p = self.operand(th, pos, DataType::U32);
                    let l = self.operand(th, len, DataType::U32);
                    let s = x.sort();
                    let w = s.width();
                    // Constant position and length inside the operand (the byte extractions
                    // clang emits for `char` views of a value): PTX's definition, the field
                    // zero- or sign-extended (`bfe.s`); otherwise an uninterpreted function.
                    let v = match (p.as_bv(), l.as_bv()) {
                        (Some(0..=255), Some(0)) => self.c.bv(w, 0),
                        (Some(pv), Some(lv)) if lv > 0 && pv + lv <= u64::from(w) => {
                            let f = self.c.extract((pv + lv - 1) as u32, pv as u32, &x);
                            if ty.kind == TypeKind::Signed {
                                self.c.sext(w, &f)
                            } else {
                                self.c.zext(w, &f)
                            }
                        }
                        _ => self.uf("bfe", *ty, &[x, p, l], s),
                    };
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Bfi {
                ty,
                dst,
                a,
                b,
                pos,
                len,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let y = self.operand(th, b, *ty);
                    let p = self.operand(th, pos, DataType::U32);
                    let l = self.operand(th, len, DataType::U32);
                    let s = x.sort();
                    let v = self.uf("bfi", *ty, &[x, y, p, l], s);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Shf {
                left,
                wrap,
                dst,
                a,
                b,
                c,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, DataType::B32);
                    let y = self.operand(th, b, DataType::B32);
                    let z = self.operand(th, c, DataType::U32);
                    let n = format!(
                        "shf.{}.{}",
                        if *left { "l" } else { "r" },
                        if *wrap { "wrap" } else { "clamp" }
                    );
                    let v = self.c.uf(&n, &[x, y, z], Sort::Bv(32));
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Prmt { dst, a, b, sel } => {
                for th in 0..2 {
                    let x = self.operand(th, a, DataType::B32);
                    let y = self.operand(th, b, DataType::B32);
                    let z = self.operand(th, sel, DataType::B32);
                    let v = self.c.uf("prmt", &[x, y, z], Sort::Bv(32));
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Shfl { dst, dst_pred, .. } => {
                for th in 0..2 {
                    let v = self.c.fresh("shfl", Sort::Bv(32));
                    self.write(th, dst.index(), v, &en[th]);
                    if let Some(p) = dst_pred {
                        let v = self.c.fresh("shflp", Sort::Bool);
                        self.write(th, p.index(), v, &en[th]);
                    }
                }
            }
            KOp::Vote { mode, dst, .. } => {
                let s = if *mode == VoteMode::Ballot {
                    Sort::Bv(32)
                } else {
                    Sort::Bool
                };
                let a = self.c.fresh("vote", s);
                let b = self.c.fresh("vote", s);
                let both = self.c.and(&en[0], &en[1]);
                let sw = self.c.and(&self.same_warp, &both);
                let bt = self.c.ite(&sw, &a, &b);
                self.write(0, dst.index(), a, &en[0]);
                self.write(1, dst.index(), bt, &en[1]);
            }
            // `match.sync`: arbitrary results, as for shuffles (sound: nothing is assumed of
            // the other lanes' values).
            KOp::Match { dst, dst_pred, .. } => {
                for th in 0..2 {
                    let v = self.c.fresh("match", Sort::Bv(32));
                    self.write(th, dst.index(), v, &en[th]);
                    if let Some(p) = dst_pred {
                        let v = self.c.fresh("matchp", Sort::Bool);
                        self.write(th, p.index(), v, &en[th]);
                    }
                }
            }
            KOp::Activemask { dst } => {
                for th in 0..2 {
                    let v = self.c.fresh("mask", Sort::Bv(32));
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Loads and stores (annotation sinks included).
    fn instr_mem(&mut self, pc: usize, en: &[T; 2], op: &KOp) -> R<()> {
        let en: [T; 2] = en.clone();
        match op {
            KOp::Ld {
                attrs,
                ty,
                dst,
                addr,
            } => {
                let space = attrs.space.unwrap_or(MemSpace::Generic);
                let bytes = (u64::from(ty.bits) / 8).max(1);
                let n = dst.len() as u64;
                let kind = if attrs.order.is_atomic() {
                    scope_kind(attrs.scope)
                } else {
                    Kind::Read
                };
                let vals = self.access(pc, &en, addr, space, kind, bytes * n, None)?;
                let dty = *ty;
                for th in 0..2 {
                    for (j, d) in dst.iter().enumerate() {
                        let Some(d) = d else { continue };
                        let v = match &vals {
                            Some(v) => {
                                let x = v[th].clone();
                                let lo = (j as u64 * bytes * 8) as u32;
                                let hi = lo + (bytes * 8) as u32 - 1;
                                if x.sort().width() > hi {
                                    self.c.extract(hi, lo, &x)
                                } else {
                                    x
                                }
                            }
                            None => self.c.fresh("rd", Sort::Bv((bytes * 8) as u32)),
                        };
                        let _ = dty;
                        self.write(th, d.index(), v, &en[th]);
                    }
                }
            }
            KOp::St {
                attrs,
                ty,
                src,
                addr,
            } => {
                let space = attrs.space.unwrap_or(MemSpace::Generic);
                let bytes = (u64::from(ty.bits) / 8).max(1);
                // Annotation sinks.
                if let Some(kind) = self.sink(addr) {
                    if kind == BARRIER_FLAGS_SINK {
                        let f = [0, 1].map(|th| match src.first() {
                            Some(x) => self.operand(th, x, *ty),
                            None => self.c.bv(32, 0),
                        });
                        self.barrier_flags = Some(f);
                        return Ok(());
                    }
                    if kind == BI_INST_SINK || kind == BI_UNARY_SINK || kind == BI_SNAP_SINK {
                        let vals = [0, 1].map(|th| match src.first() {
                            Some(x) => self.operand(th, x, *ty),
                            None => self.c.bv(32, 0),
                        });
                        return self.barrier_inv_store(pc, kind, &en, vals);
                    }
                    let ignored = match kind {
                        ASSERT_SINK => self.o.ignore_asserts,
                        FWD_RESET_SINK => false,
                        ASSUME_SINK | REQUIRES_SINK | ENSURES_SINK | GREQUIRES_SINK
                        | GENSURES_SINK | LINE_SINK | FRAME_SINK => self.o.ignore_assumes,
                        _ => self.o.ignore_invariants,
                    };
                    if ignored {
                        return Ok(());
                    }
                    if kind == GREQUIRES_SINK || kind == GENSURES_SINK || kind == FRAME_SINK {
                        let vals = [0, 1].map(|th| match src.first() {
                            Some(x) => self.operand(th, x, *ty),
                            None => self.c.bv(32, 1),
                        });
                        if kind == FRAME_SINK {
                            return self.global_annotation(pc, ASSUME_SINK, &en, vals);
                        }
                        return self.global_contract(pc, kind, &en, vals);
                    }
                    if kind == FWD_RESET_SINK {
                        self.st.own = [BTreeMap::new(), BTreeMap::new()];
                        return Ok(());
                    }
                    if kind == LINE_SINK {
                        self.contract_line =
                            src.first().and_then(|x| self.operand(0, x, *ty).as_bv());
                        return Ok(());
                    }
                    if kind == REQUIRES_SINK || kind == ENSURES_SINK {
                        let line = src.first().and_then(|x| self.operand(0, x, *ty).as_bv());
                        return match self.contract_sink(line, kind) {
                            Some(eff) => self.annotation(pc, eff, &en),
                            None => Ok(()),
                        };
                    }
                    return self.annotation(pc, kind, &en);
                }
                let kind = if attrs.order.is_atomic() {
                    scope_kind(attrs.scope)
                } else {
                    Kind::Write
                };
                let mut vals = Vec::new();
                for th in 0..2 {
                    let mut acc: Option<T> = None;
                    for s in src.iter() {
                        let v = self.operand(th, s, *ty);
                        acc = Some(match acc {
                            None => v,
                            Some(lo) => self.c.concat(&v, &lo),
                        });
                    }
                    vals.push(acc.unwrap_or_else(|| self.c.bv(8, 0)));
                }
                let vals = [vals[0].clone(), vals[1].clone()];
                self.access(
                    pc,
                    &en,
                    addr,
                    space,
                    kind,
                    bytes * src.len() as u64,
                    Some(vals),
                )?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Atomics, fences and branches, traps, system calls, lowered annotations and barriers
    /// (block: divergence check, log reset, havoc; warp; arrive).
    fn instr_other(&mut self, pc: usize, en: &[T; 2], op: &KOp) -> R<()> {
        let en: [T; 2] = en.clone();
        match op {
            KOp::Atom {
                op,
                attrs,
                ty,
                dst,
                addr,
                ..
            } => {
                let space = attrs.space.unwrap_or(MemSpace::Generic);
                let bytes = (u64::from(ty.bits) / 8).max(1);
                let kind = scope_kind(attrs.scope);
                let z = self.atomic(pc, &en, addr, space, kind, bytes, *op)?;
                if let Some(d) = dst {
                    for th in 0..2 {
                        self.write(th, d.index(), z[th].clone(), &en[th]);
                    }
                }
            }
            KOp::Fence { .. } | KOp::Nop | KOp::Bra { .. } | KOp::Exit => {}
            // A reachable trap: code clang compiled as unreachable (undefined behaviour,
            // `-trap-unreachable`), an indirect call matching no function, or `__trap()`.
            KOp::Trap => {
                // After a failed `assert` (its sink store, then the call that does not
                // return): reported as the assertion.
                if pc > 0 {
                    if let KOp::St { addr, .. } = &self.k.code[pc - 1].op {
                        if self.sink(addr) == Some(ASSERT_SINK) {
                            return Ok(());
                        }
                    }
                }
                let what = "trap (undefined behaviour clang compiled as unreachable: a null or out-of-bounds access, a call through an invalid function pointer; or an explicit trap)";
                let v = self.c.or(&en[0], &en[1]);
                self.add_check(CheckKind::Memory { pc, what }, v, vec![]);
            }
            // Device `printf` only reads memory (not an access of the race check) and its
            // result is arbitrary here; a failed device `assert` is treated as `trap` is.
            KOp::SysCall { dst: Some(d), .. } => {
                let sort = reg_sort(self.k.regs[d.index()].ty);
                for th in 0..2 {
                    let v = self.c.fresh(&format!("sys{pc}_{}", ["s", "t"][th]), sort);
                    self.write(th, d.index(), v, &en[th]);
                }
            }
            // GPUVerify annotations lowered by the kernel front-end (weft-cuda's
            // `weft_gpuverify.h`): the annotation is violated where it is enabled and its
            // condition is false, exactly what the sink stores of `weft_verify.h` express.
            KOp::Annot { kind, cond, .. } => {
                let sink = match kind {
                    AnnotKind::Assert | AnnotKind::GlobalAssert => Some(ASSERT_SINK),
                    AnnotKind::Assume
                    | AnnotKind::Requires
                    | AnnotKind::GlobalRequires
                    | AnnotKind::Axiom => Some(ASSUME_SINK),
                    AnnotKind::Invariant | AnnotKind::GlobalInvariant => Some(INVARIANT_SINK),
                    _ => None,
                };
                if let Some(sink) = sink {
                    let viol = [0, 1].map(|th| {
                        let v = self.operand(th, cond, PRED);
                        if th == 1 && mentions_log_query(&v) {
                            return self.c.ff();
                        }
                        let nv = self.c.not(&v);
                        self.c.and(&en[th], &nv)
                    });
                    self.annotation(pc, sink, &viol)?;
                }
            }
            KOp::Barrier {
                kind, count, red, ..
            } => {
                // Own-write forwarding restarts at every barrier (see `OwnWrite`).
                self.st.own = [BTreeMap::new(), BTreeMap::new()];
                match kind {
                    BarrierKind::Sync => {
                        // Barrier divergence: both threads of one block must reach it together.
                        let diff = {
                            let e = self.c.eq(&en[0], &en[1]);
                            self.c.not(&e)
                        };
                        let v = self.c.and(&self.same_block, &diff);
                        if !self.o.no_barrier_checks {
                            self.add_check(CheckKind::BarrierDivergence { pc }, v, vec![]);
                        }
                        if count.is_none() {
                            let both = self.c.and(&en[0], &en[1]);
                            let r = self.c.and(&self.same_block, &both);
                            match self.barrier_flags.take() {
                                None => self.reset_logs(&r),
                                Some(f) => self.reset_logs_fenced(&r, &f),
                            }
                            let keys: Vec<Base> = self.st.mem.keys().copied().collect();
                            for b in keys {
                                let m = self.c.fresh("mem", Sort::Mem);
                                self.st.mem.insert(b, m);
                            }
                            // Counters also set plainly: their values restart being distinct
                            // here (forgetting the values returned so far is always sound).
                            self.restart_plain_counters();
                            self.barrier_invariants_after(&en);
                        } else {
                            self.st.bi_pending.clear();
                            self.note_once("a barrier with a thread count is not treated as synchronising (sound, may report false races)");
                        }
                        if let Some((_, d, _, _)) = red {
                            let a = self.c.fresh("barred", Sort::Bv(32));
                            let b = self.c.fresh("barred", Sort::Bv(32));
                            let bt = self.c.ite(&self.same_block.clone(), &a, &b);
                            self.write(0, d.index(), a, &en[0]);
                            self.write(1, d.index(), bt, &en[1]);
                        }
                    }
                    BarrierKind::Warp => {
                        let both = self.c.and(&en[0], &en[1]);
                        let r = self.c.and(&self.same_warp_any.clone(), &both);
                        self.reset_logs(&r);
                        // A warp barrier orders a plain store before a warp's atomics too: the
                        // used sets of counters also set plainly restart here as well.
                        self.restart_plain_counters();
                    }
                    BarrierKind::Arrive => {}
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// GPUVerify's two-thread predicates and the other queries of the annotation header.
    fn instr_query(&mut self, pc: usize, en: &[T; 2], op: &KOp) -> R<()> {
        let en: [T; 2] = en.clone();
        // Two-thread predicates and uninterpreted values (`__read`, `__other_int`, ...):
        // an arbitrary value, which over-approximates what they may return.
        // The two-thread ones with a meaning in this encoding are interpreted
        // (GPUVerify's: `__enabled()` is the thread's predicate, `__other_int(x)` the
        // other thread's `x`, `__all(e)` / `__at_most_one(e)` over the pair).
        if let KOp::Query {
            kind,
            ty,
            dst,
            args,
        } = op
        {
            let sort = reg_sort(*ty);
            let w = sort.width();
            for th in 0..2 {
                let arg = |me: &mut Self, i: usize, who: usize| -> Option<T> {
                    args.get(i).map(|a| me.operand(who, a, DataType::B32))
                };
                let boolv = |me: &mut Self, b: T| -> T {
                    if sort == Sort::Bool {
                        return b;
                    }
                    let one = me.c.bv(w, 1);
                    let zero = me.c.bv(w, 0);
                    me.c.ite(&b, &one, &zero)
                };
                let nz = |me: &mut Self, x: T| -> T {
                    let z = me.c.bv(x.sort().width(), 0);
                    let e = me.c.eq(&x, &z);
                    me.c.not(&e)
                };
                let v = match kind {
                    QueryKind::Enabled => Some(boolv(self, en[th].clone())),
                    QueryKind::SameGroup => Some(boolv(self, self.same_block.clone())),
                    QueryKind::OtherInt => arg(self, 0, 1 - th).map(|x| self.fit(&x, sort)),
                    QueryKind::UniformInt | QueryKind::DistinctInt => {
                        match (arg(self, 0, 0), arg(self, 0, 1)) {
                            (Some(a), Some(b)) => {
                                let e = self.c.eq(&a, &b);
                                let e = if *kind == QueryKind::DistinctInt {
                                    self.c.not(&e)
                                } else {
                                    e
                                };
                                Some(boolv(self, e))
                            }
                            _ => None,
                        }
                    }
                    QueryKind::All | QueryKind::AtMostOne => {
                        match (arg(self, 0, 0), arg(self, 0, 1)) {
                            (Some(a), Some(b)) => {
                                let (a, b) = (nz(self, a), nz(self, b));
                                let e = if *kind == QueryKind::All {
                                    // Every enabled thread of the pair holds `e`.
                                    let ia = self.c.not(&en[0]);
                                    let ia = self.c.or(&ia, &a);
                                    let ib = self.c.not(&en[1]);
                                    let ib = self.c.or(&ib, &b);
                                    self.c.and(&ia, &ib)
                                } else {
                                    let ab = self.c.and_all(&[en[0].clone(), en[1].clone(), a, b]);
                                    self.c.not(&ab)
                                };
                                Some(boolv(self, e))
                            }
                            _ => None,
                        }
                    }
                    // Access-history predicates (GPUVerify's `__read(p)`, `__write(p)`,
                    // `__read_offset_bytes(p)`, ...) speak of the logged thread's
                    // accesses, as GPUVerify's `_READ_HAS_OCCURRED_` variables do: they
                    // read `s`'s logs. For `t` they stay arbitrary and carry a marker, so
                    // that an annotation over them is only instantiated for `s`.
                    QueryKind::Read
                    | QueryKind::Write
                    | QueryKind::Atomic
                    | QueryKind::ReadOffset
                    | QueryKind::WriteOffset
                        if th == 0 =>
                    {
                        self.log_query(*kind, args.first(), sort)
                    }
                    QueryKind::Read
                    | QueryKind::Write
                    | QueryKind::Atomic
                    | QueryKind::ReadOffset
                    | QueryKind::WriteOffset => Some(self.c.fresh(LOG_QUERY_T, sort)),
                    QueryKind::AtomicHasTakenValue => {
                        self.has_taken_value(th, args).map(|b| boolv(self, b))
                    }
                    // `__ptr_offset_bytes(p)`: the byte offset of `p` in its array.
                    QueryKind::PtrOffset => {
                        let a = args.first().map(|a| self.operand(th, a, DataType::B64));
                        let ps = a.and_then(|a| {
                            let a = self.fit(&a, Sort::Bv(64));
                            self.split(&a, 0)
                        });
                        match ps {
                            Some(ps) if !ps.is_empty() => {
                                let mut acc = ps[ps.len() - 1].off.clone();
                                for p in ps.iter().rev().skip(1) {
                                    acc = self.c.ite(&p.cond, &p.off, &acc);
                                }
                                Some(self.fit(&acc, sort))
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let v =
                    v.unwrap_or_else(|| self.c.fresh(&format!("q{pc}_{}", ["s", "t"][th]), sort));
                if *kind == QueryKind::Enabled {
                    // `__enabled()` is false in a disabled thread: its value is the
                    // predicate itself, not the register's old value.
                    let s = reg_sort(self.k.regs[dst.index()].ty);
                    let v = self.fit(&v, s);
                    self.st.regs[th][dst.index()] = Some(v);
                } else {
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
        }
        Ok(())
    }

    /// `__atomic_has_taken_value(p, off, v)` (GPUVerify's predicate over its refined atomic
    /// abstraction, paper 002 §4.2-4.3): `v` is a value the atomics on the repetition-free
    /// counter `p[off]` (`off` in 32-bit elements) returned, i.e. is in its `used` set: the
    /// set at its last havoc or restart, or in the list of values returned since. A value
    /// of 2^32 or more never is. `None` (an arbitrary value) when the refinement is off or
    /// the address is not a repetition-free counter; a case of a pointer selected between
    /// arrays that is not one is arbitrary too. In a cut loop the set is the havocked one;
    /// [`super::loops::InvMap`] reads an invariant over it in the entry and back-edge states.
    pub(super) fn has_taken_value(&mut self, th: usize, args: &[Operand]) -> Option<T> {
        if !self.o.repetition_free || args.len() < 3 {
            return None;
        }
        let val = |me: &mut Self, i: usize| {
            let x = me.operand(th, &args[i], DataType::B64);
            me.fit(&x, Sort::Bv(64))
        };
        let p = val(self, 0);
        let off = val(self, 1);
        let v = val(self, 2);
        let four = self.c.bv(64, 4);
        let scaled = self.c.bin(Op::BvMul, &off, &four);
        let hi = self.c.extract(63, 32, &v);
        let z = self.c.bv(32, 0);
        let fits = self.c.eq(&hi, &z);
        let v32 = self.c.extract(31, 0, &v);
        let tt = self.c.tt();
        let mut cases = Vec::new();
        self.pointer_cases(&p, &tt, 0, &mut cases);
        let mut acc: Option<T> = None;
        let mut any_refined = false;
        for (cond, piece) in cases.into_iter().rev() {
            let refined = piece.as_ref().filter(|(b, _)| {
                self.facts.repfree.contains(b)
                    && !(self.o.lockstep && self.facts.repfree_restart.contains(b))
            });
            let m = match refined {
                Some((b, o)) => {
                    any_refined = true;
                    let root = match self.st.used.get(b) {
                        Some(u) => u.clone(),
                        None => self.c.empty_used(32),
                    };
                    let list = self.st.used_log.get(b).cloned().unwrap_or_default();
                    let o = self.c.add(o, &scaled);
                    let m = self.c.used_member(&root, &list, &o, &v32);
                    self.c.and(&fits, &m)
                }
                None => self.c.fresh("taken", Sort::Bool),
            };
            acc = Some(match acc {
                None => m,
                Some(prev) => self.c.ite(&cond, &m, &prev),
            });
        }
        acc.filter(|_| any_refined)
    }

    /// The cases of pointer `p`: (condition, array and byte offset), `None` for a case whose
    /// array cannot be told. Unlike [`Self::split`], a select between a pointer and a value
    /// without an array (a register a disabled thread did not update, in predicated code)
    /// keeps its pointer cases.
    pub(super) fn pointer_cases(
        &mut self,
        p: &T,
        cond: &T,
        depth: u32,
        out: &mut Vec<(T, Option<(Base, T)>)>,
    ) {
        if let Some(ps) = self.split(p, 0) {
            for pc in ps {
                let c = self.c.and(cond, &pc.cond);
                out.push((c, Some((pc.base, pc.off))));
            }
            return;
        }
        if let Node::App(Op::Ite, x, _) = p.node() {
            if depth < 8 {
                let (c, l, r) = (x[0].clone(), x[1].clone(), x[2].clone());
                let cl = self.c.and(cond, &c);
                let nc = self.c.not(&c);
                let cr = self.c.and(cond, &nc);
                self.pointer_cases(&l, &cl, depth + 1, out);
                self.pointer_cases(&r, &cr, depth + 1, out);
                return;
            }
        }
        out.push((cond.clone(), None));
    }

    /// `s`'s access history of the array `p` points into (GPUVerify's `__read(p)`,
    /// `__write(p)`, `__atomic(p)` and the logged byte offsets): `None` where the pointer's
    /// array cannot be told (the query then stays arbitrary).
    pub(super) fn log_query(
        &mut self,
        kind: QueryKind,
        arg: Option<&Operand>,
        sort: Sort,
    ) -> Option<T> {
        let a = self.operand(0, arg?, DataType::B64);
        let a = self.fit(&a, Sort::Bv(64));
        let offset = matches!(kind, QueryKind::ReadOffset | QueryKind::WriteOffset);
        let v = self.log_query_at(kind, &a, 0);
        Some(if offset {
            self.fit(&v, sort)
        } else if sort == Sort::Bool {
            v
        } else {
            let w = sort.width();
            let one = self.c.bv(w, 1);
            let zero = self.c.bv(w, 0);
            self.c.ite(&v, &one, &zero)
        })
    }

    /// [`Self::log_query`] on the address `a`: a Boolean (has the access occurred) or a
    /// 64-bit byte offset. A pointer selected between arrays (`c ? p : q`) is a case split;
    /// a case whose array cannot be told gives an arbitrary value.
    pub(super) fn log_query_at(&mut self, kind: QueryKind, a: &T, depth: u32) -> T {
        let offset = matches!(kind, QueryKind::ReadOffset | QueryKind::WriteOffset);
        // A pointer parameter never used as an array base is a plain scalar here: its
        // array is never accessed.
        let unused = matches!(a.node(), Node::Var(n, _) if n.starts_with("sparam"));
        let pieces = if unused {
            Some(Vec::new())
        } else {
            self.split(a, 0)
        };
        let Some(pieces) = pieces else {
            if let Node::App(Op::Ite, x, _) = a.node() {
                if depth < 8 {
                    let (c, l, r) = (x[0].clone(), x[1].clone(), x[2].clone());
                    let vl = self.log_query_at(kind, &l, depth + 1);
                    let vr = self.log_query_at(kind, &r, depth + 1);
                    return self.c.ite(&c, &vl, &vr);
                }
            }
            let s = if offset { Sort::Bv(64) } else { Sort::Bool };
            return self.c.fresh("logq_s", s);
        };
        let kinds: &[Kind] = match kind {
            QueryKind::Read | QueryKind::ReadOffset => &[Kind::Read],
            QueryKind::Write | QueryKind::WriteOffset => &[Kind::Write],
            _ => &[Kind::Atomic, Kind::AtomicBlock],
        };
        let mut acc: Option<T> = None;
        for p in pieces.iter().rev() {
            let v = if offset {
                match self.st.logs.get(&(p.base, kinds[0])) {
                    Some(l) => l.off.clone(),
                    None => self.c.bv(64, 0),
                }
            } else {
                let hs: Vec<T> = kinds
                    .iter()
                    .filter_map(|k| self.st.logs.get(&(p.base, *k)).map(|l| l.has.clone()))
                    .collect();
                let h = self.c.or_all(&hs);
                self.c.and(&p.cond, &h)
            };
            acc = Some(match acc {
                None => v,
                Some(prev) if offset => self.c.ite(&p.cond, &v, &prev),
                Some(prev) => self.c.or(&v, &prev),
            });
        }
        match acc {
            Some(v) => v,
            // An array never accessed (a parameter used only here): no access has occurred,
            // so its offset is arbitrary (the same unknown at every query of that pointer).
            None if offset => match a.node() {
                Node::Var(n, _) => {
                    let n = format!("logoff_{n}_{:?}", kinds[0]);
                    self.c.var(&n, Sort::Bv(64))
                }
                _ => self.c.fresh("logoff", Sort::Bv(64)),
            },
            None => self.c.ff(),
        }
    }
}
