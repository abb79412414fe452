//! Addresses: the array an address points into (split by case), null-pointer and
//! array-bounds checks.

use super::*;

impl Exec<'_> {
    pub(super) fn note_once(&mut self, s: &str) {
        if !self.notes.iter().any(|n| n == s) {
            self.notes.push(s.to_string());
        }
    }

    // ---- memory -------------------------------------------------------------------------

    /// The address of `addr` for thread `th` as a 64-bit term.
    pub(super) fn address(&mut self, th: usize, addr: &weft_ir::kernel::Addr) -> R<T> {
        let off = self.c.bv(64, addr.offset as u64);
        let b = match addr.base {
            AddrBase::Reg(r) => {
                let v = self.reg(th, r.index());
                self.fit(&v, Sort::Bv(64))
            }
            AddrBase::Var(v) => self.c.var(&format!("base_v{v}"), Sort::Bv(64)),
            AddrBase::Param(p) => self.c.var(&format!("paddr{p}"), Sort::Bv(64)),
            AddrBase::Abs(a) => self.c.bv(64, a),
        };
        Ok(self.c.add(&b, &off))
    }

    /// Splits an address into (condition, array, offset) pieces.
    pub(super) fn split(&mut self, t: &T, depth: u32) -> Option<Vec<Piece>> {
        if depth > 64 {
            return None;
        }
        if let Some(b) = base_of_var(t) {
            let z = self.c.bv(64, 0);
            let tt = self.c.tt();
            return Some(vec![Piece {
                cond: tt,
                base: b,
                off: z,
            }]);
        }
        match t.node() {
            Node::App(Op::BvAdd, a, _) => {
                let (x, y) = (a[0].clone(), a[1].clone());
                let bx = additive_base(&x, 0);
                let by = additive_base(&y, 0);
                match (bx, by) {
                    (true, false) => {
                        let ps = self.split(&x, depth + 1)?;
                        Some(
                            ps.into_iter()
                                .map(|p| Piece {
                                    off: self.c.add(&p.off, &y),
                                    ..p
                                })
                                .collect(),
                        )
                    }
                    (false, true) => {
                        let ps = self.split(&y, depth + 1)?;
                        Some(
                            ps.into_iter()
                                .map(|p| Piece {
                                    off: self.c.add(&p.off, &x),
                                    ..p
                                })
                                .collect(),
                        )
                    }
                    _ => None,
                }
            }
            Node::App(Op::BvSub, a, _) => {
                let (x, y) = (a[0].clone(), a[1].clone());
                if additive_base(&y, 0) {
                    return None;
                }
                let ps = self.split(&x, depth + 1)?;
                Some(
                    ps.into_iter()
                        .map(|p| Piece {
                            off: self.c.sub(&p.off, &y),
                            ..p
                        })
                        .collect(),
                )
            }
            Node::App(Op::Ite, a, _) => {
                let (c, x, y) = (a[0].clone(), a[1].clone(), a[2].clone());
                let px = self.split(&x, depth + 1)?;
                let py = self.split(&y, depth + 1)?;
                let nc = self.c.not(&c);
                let mut out = Vec::new();
                for p in px {
                    out.push(Piece {
                        cond: self.c.and(&c, &p.cond),
                        ..p
                    });
                }
                for p in py {
                    out.push(Piece {
                        cond: self.c.and(&nc, &p.cond),
                        ..p
                    });
                }
                // Merge pieces of the same array.
                let mut merged: Vec<Piece> = Vec::new();
                for p in out {
                    if let Some(m) = merged.iter_mut().find(|m| m.base == p.base) {
                        m.off = self.c.ite(&p.cond, &p.off, &m.off);
                        m.cond = self.c.or(&m.cond, &p.cond);
                    } else {
                        merged.push(p);
                    }
                }
                Some(merged)
            }
            _ => None,
        }
    }

    /// A pointer selected between an array and the null pointer (`r = c ? p : NULL`): the
    /// cases that are null (a small constant address) become a check that the access is
    /// not reached with them (GPUVerify reports null-pointer accesses); the others are split
    /// as usual. `None` if some case is neither.
    pub(super) fn split_null(&mut self, th: usize, a: &T, pc: usize) -> Option<Vec<Piece>> {
        let mut null = self.c.ff();
        let tt = self.c.tt();
        let ps = self.split_null_rec(a, &tt, &mut null, 0)?;
        if !null.is_false() {
            self.null_cases.push((th, pc, null));
        }
        Some(ps)
    }

    pub(super) fn split_null_rec(
        &mut self,
        a: &T,
        cond: &T,
        null: &mut T,
        depth: u32,
    ) -> Option<Vec<Piece>> {
        if depth > 16 {
            return None;
        }
        if let Some(v) = a.as_bv() {
            // Addresses below one page are no array's.
            if v < 4096 {
                *null = self.c.or(null, cond);
                return Some(Vec::new());
            }
            return None;
        }
        if null_provenance(a) {
            // `NULL + k` with a non-constant `k` (clang folds the null base away): an address
            // computed from thread and block ids, constants and the header's integer queries
            // only, never from a pointer, points into no array.
            *null = self.c.or(null, cond);
            return Some(Vec::new());
        }
        if let Node::App(Op::Ite, x, _) = a.node() {
            let (c, l, r) = (x[0].clone(), x[1].clone(), x[2].clone());
            let cl = self.c.and(cond, &c);
            let nc = self.c.not(&c);
            let cr = self.c.and(cond, &nc);
            let mut out = self.split_null_rec(&l, &cl, null, depth + 1)?;
            out.extend(self.split_null_rec(&r, &cr, null, depth + 1)?);
            return Some(out);
        }
        if let Node::App(Op::BvAdd, x, _) = a.node() {
            // `NULL + k` and `(c ? p : NULL) + k`.
            let (l, r) = (x[0].clone(), x[1].clone());
            let (inner, k) = if self.has_base(&r) || r.as_bv().is_none() && !self.has_base(&l) {
                (r, l)
            } else {
                (l, r)
            };
            if self.has_base(&k) {
                return None;
            }
            let mut n2 = self.c.ff();
            let ps = self.split_null_rec(&inner, cond, &mut n2, depth + 1)?;
            if !n2.is_false() {
                *null = self.c.or(null, &n2);
            }
            return Some(
                ps.into_iter()
                    .map(|p| Piece {
                        off: self.c.add(&p.off, &k),
                        ..p
                    })
                    .collect(),
            );
        }
        let ps = self.split(a, depth + 1)?;
        Some(
            ps.into_iter()
                .map(|p| Piece {
                    cond: self.c.and(cond, &p.cond),
                    ..p
                })
                .collect(),
        )
    }

    /// Reports the null cases [`Self::split_null`] found, where their thread is enabled.
    pub(super) fn null_checks(&mut self, en: &[T; 2]) {
        for (th, pc, c) in std::mem::take(&mut self.null_cases) {
            let v = self.c.and(&en[th], &c);
            let what = "null-pointer access";
            self.add_check(CheckKind::Memory { pc, what }, v, vec![]);
        }
    }

    pub(super) fn has_base(&self, t: &T) -> bool {
        let mut memo = HashMap::new();
        mentions(
            t,
            &|n: &str| n.starts_with("base_v") || n.starts_with("param"),
            &mut memo,
        )
    }

    /// `--check-array-bounds` (GPUVerify's flag): each thread's access of an array whose size
    /// is known (a `__shared__`/`__local`/`__device__` variable; pointer parameters have no
    /// size here) must lie inside it: `offset + bytes <= size`, offsets unsigned.
    pub(super) fn bounds_checks(
        &mut self,
        pc: usize,
        en: &[T; 2],
        ps: &[Vec<Piece>; 2],
        bytes: u64,
    ) {
        for (th, pieces) in ps.iter().enumerate() {
            for p in pieces {
                let Base::Var(v) = p.base else { continue };
                let Some(var) = self.k.vars.get(v as usize) else {
                    continue;
                };
                if var.size == 0 || var.name.starts_with("__weft_") {
                    continue;
                }
                if var.size < bytes {
                    let e = self.c.and(&en[th], &p.cond);
                    self.add_check(CheckKind::Bounds { pc, array: p.base }, e, vec![]);
                    continue;
                }
                let lim = self.c.bv(64, var.size - bytes);
                let off = self.fit(&p.off, Sort::Bv(64));
                let out = self.c.ult(&lim, &off);
                let e = self.c.and_all(&[en[th].clone(), p.cond.clone(), out]);
                self.add_check(CheckKind::Bounds { pc, array: p.base }, e, vec![]);
            }
        }
    }

    pub(super) fn pieces(
        &mut self,
        th: usize,
        addr: &weft_ir::kernel::Addr,
        pc: usize,
    ) -> R<Vec<Piece>> {
        let a = self.address(th, addr)?;
        match self.split(&a, 0).or_else(|| self.split_null(th, &a, pc)) {
            Some(p) => Ok(p),
            None => Err(format!(
                "{}: unsupported: cannot tell which array this address points into (a pointer read from memory or computed from several arrays){}",
                self.k.describe_pos(pc),
                if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() { format!(" [{:?}]", a) } else { String::new() }
            )),
        }
    }
}

/// Whether `t` can be an address into an array: an array's base reached through additions,
/// the minuend of subtractions and the branches of a choice. A base that only appears under
/// another operation (a product, a shift, a truncation, a comparison in a condition: a 64-bit
/// integer parameter the front-end's facts saw added to a pointer, such as polybench's
/// `long c0`) is part of an offset, not the array the address points into.
fn additive_base(t: &T, depth: u32) -> bool {
    if depth > 64 {
        return true;
    }
    if base_of_var(t).is_some() {
        return true;
    }
    match t.node() {
        Node::App(Op::BvAdd, a, _) => a.iter().any(|x| additive_base(x, depth + 1)),
        Node::App(Op::BvSub, a, _) => additive_base(&a[0], depth + 1),
        Node::App(Op::Ite, a, _) => {
            additive_base(&a[1], depth + 1) || additive_base(&a[2], depth + 1)
        }
        _ => false,
    }
}
