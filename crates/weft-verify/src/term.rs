//! Hash-consed SMT terms (booleans, bit-vectors, byte arrays, uninterpreted functions) with
//! constant folding, and their printing as SMT-LIB 2 (`define-fun` per shared node).
//!
//! Integer and address arithmetic is interpreted over bit-vectors; floating-point values are
//! bit-vectors of their width and floating-point operations are uninterpreted functions over
//! them (GPUVerify's treatment of floats, paper 002 §5).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::rc::Rc;

/// A sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sort {
    Bool,
    Bv(u32),
    /// `(Array (_ BitVec 64) (_ BitVec 8))`: a byte-addressed memory.
    Mem,
    /// `(Array (_ BitVec 64) (Array (_ BitVec w) Bool))`: the used-values map of a
    /// repetition-free array (paper 002 §4.3).
    Used(u32),
    /// `(Array (_ BitVec w) Bool)`: the used values of one offset.
    UsedInner(u32),
}

impl Sort {
    fn smt(self) -> String {
        match self {
            Sort::Bool => "Bool".into(),
            Sort::Bv(w) => format!("(_ BitVec {w})"),
            Sort::Mem => "(Array (_ BitVec 64) (_ BitVec 8))".into(),
            Sort::Used(w) => format!("(Array (_ BitVec 64) (Array (_ BitVec {w}) Bool))"),
            Sort::UsedInner(w) => format!("(Array (_ BitVec {w}) Bool)"),
        }
    }
    /// Bit-vector width (panics on other sorts: callers check).
    pub fn width(self) -> u32 {
        match self {
            Sort::Bv(w) => w,
            Sort::Bool => 1,
            _ => 0,
        }
    }
}

/// An operator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Not,
    And,
    Or,
    Implies,
    Ite,
    Eq,
    BvAdd,
    BvSub,
    BvMul,
    BvUdiv,
    BvSdiv,
    BvUrem,
    BvSrem,
    BvAnd,
    BvOr,
    BvXor,
    BvNot,
    BvNeg,
    BvShl,
    BvLshr,
    BvAshr,
    BvUlt,
    BvUle,
    BvSlt,
    BvSle,
    Extract(u32, u32),
    ZeroExt(u32),
    SignExt(u32),
    Concat,
    Select,
    Store,
    /// An uninterpreted function application (name, result sort fixed by the node).
    Uf(String),
    /// The empty used-map constant.
    EmptyUsed(u32),
}

/// A term node.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum Node {
    Bool(bool),
    /// A bit-vector constant (width <= 64, value masked).
    Bv(u32, u64),
    /// A free variable (declared in the SMT prelude).
    Var(String, Sort),
    App(Op, Vec<T>, Sort),
}

/// A shared, hash-consed term. Equal structure means equal pointer inside one [`Ctx`].
#[derive(Clone, Debug)]
pub struct T(pub Rc<(Node, u32)>);

impl PartialEq for T {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.0, &o.0)
    }
}
impl Eq for T {}
impl std::hash::Hash for T {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.id().hash(h)
    }
}

impl T {
    pub fn node(&self) -> &Node {
        &self.0 .0
    }
    pub fn id(&self) -> u32 {
        self.0 .1
    }
    pub fn sort(&self) -> Sort {
        match self.node() {
            Node::Bool(_) => Sort::Bool,
            Node::Bv(w, _) => Sort::Bv(*w),
            Node::Var(_, s) | Node::App(_, _, s) => *s,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self.node() {
            Node::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_bv(&self) -> Option<u64> {
        match self.node() {
            Node::Bv(_, v) => Some(*v),
            _ => None,
        }
    }
    pub fn is_false(&self) -> bool {
        self.as_bool() == Some(false)
    }
    pub fn is_true(&self) -> bool {
        self.as_bool() == Some(true)
    }
}

fn mask(w: u32, v: u64) -> u64 {
    if w >= 64 {
        v
    } else {
        v & ((1u64 << w) - 1)
    }
}

fn sext(w: u32, v: u64) -> i64 {
    if w >= 64 {
        v as i64
    } else {
        let s = 64 - w;
        ((v << s) as i64) >> s
    }
}

/// The term factory: hash-consing table and fresh-name counter.
#[derive(Default)]
pub struct Ctx {
    table: HashMap<Node, T>,
    next: u32,
    fresh: u32,
}

impl Ctx {
    pub fn new() -> Self {
        Ctx::default()
    }

    fn mk(&mut self, n: Node) -> T {
        if let Some(t) = self.table.get(&n) {
            return t.clone();
        }
        // Node is not Clone (holds Rc children): rebuild the key from a cheap clone.
        let key = match &n {
            Node::Bool(b) => Node::Bool(*b),
            Node::Bv(w, v) => Node::Bv(*w, *v),
            Node::Var(s, so) => Node::Var(s.clone(), *so),
            Node::App(o, a, s) => Node::App(o.clone(), a.clone(), *s),
        };
        let t = T(Rc::new((n, self.next)));
        self.next += 1;
        self.table.insert(key, t.clone());
        t
    }

    pub fn tt(&mut self) -> T {
        self.mk(Node::Bool(true))
    }
    pub fn ff(&mut self) -> T {
        self.mk(Node::Bool(false))
    }
    pub fn bool(&mut self, b: bool) -> T {
        self.mk(Node::Bool(b))
    }
    pub fn bv(&mut self, w: u32, v: u64) -> T {
        self.mk(Node::Bv(w, mask(w, v)))
    }
    pub fn var(&mut self, name: &str, s: Sort) -> T {
        self.mk(Node::Var(name.to_string(), s))
    }
    /// A fresh variable `prefix!N`.
    /// The number of fresh variables made so far: a variable named `x!N` with `N` above a
    /// mark was made after it.
    pub fn fresh_mark(&self) -> u32 {
        self.fresh
    }

    pub fn fresh(&mut self, prefix: &str, s: Sort) -> T {
        self.fresh += 1;
        let n = format!("{prefix}!{}", self.fresh);
        self.mk(Node::Var(n, s))
    }
    fn app(&mut self, op: Op, args: Vec<T>, s: Sort) -> T {
        self.mk(Node::App(op, args, s))
    }

    pub fn not(&mut self, a: &T) -> T {
        match a.node() {
            Node::Bool(b) => self.bool(!b),
            Node::App(Op::Not, x, _) => x[0].clone(),
            _ => self.app(Op::Not, vec![a.clone()], Sort::Bool),
        }
    }
    pub fn and(&mut self, a: &T, b: &T) -> T {
        if a.is_false() || b.is_false() {
            return self.ff();
        }
        if a.is_true() || a == b {
            return b.clone();
        }
        if b.is_true() {
            return a.clone();
        }
        self.app(Op::And, vec![a.clone(), b.clone()], Sort::Bool)
    }
    pub fn or(&mut self, a: &T, b: &T) -> T {
        if a.is_true() || b.is_true() {
            return self.tt();
        }
        if a.is_false() || a == b {
            return b.clone();
        }
        if b.is_false() {
            return a.clone();
        }
        // x | !x = true (a predicate joined with its complement).
        let complement = |x: &T, y: &T| matches!(y.node(), Node::App(Op::Not, n, _) if n[0] == *x);
        if complement(a, b) || complement(b, a) {
            return self.tt();
        }
        // (x & y) | (x & !y) = x: the join of a two-way branch.
        if let (Node::App(Op::And, p, _), Node::App(Op::And, q, _)) = (a.node(), b.node()) {
            if p.len() == 2 && q.len() == 2 && p[0] == q[0] {
                if let Node::App(Op::Not, n, _) = q[1].node() {
                    if n[0] == p[1] {
                        return p[0].clone();
                    }
                }
                if let Node::App(Op::Not, n, _) = p[1].node() {
                    if n[0] == q[1] {
                        return p[0].clone();
                    }
                }
            }
        }
        self.app(Op::Or, vec![a.clone(), b.clone()], Sort::Bool)
    }
    /// One n-ary conjunction (constants folded, duplicates dropped). A left-nested chain of
    /// binary `and`s, one named term per prefix, costs z3 time quadratic in its length when
    /// the prefixes are printed as `define-fun`s (4000 assumptions: seconds per query).
    pub fn and_all(&mut self, xs: &[T]) -> T {
        let mut args: Vec<T> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for x in xs {
            if x.is_false() {
                return self.ff();
            }
            if x.is_true() || !seen.insert(x.id()) {
                continue;
            }
            args.push(x.clone());
        }
        match args.len() {
            0 => self.tt(),
            1 => args.pop().unwrap(),
            2 => self.and(&args[0], &args[1]),
            _ => self.app(Op::And, args, Sort::Bool),
        }
    }
    /// One n-ary disjunction (see [`Ctx::and_all`]).
    pub fn or_all(&mut self, xs: &[T]) -> T {
        let mut args: Vec<T> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for x in xs {
            if x.is_true() {
                return self.tt();
            }
            if x.is_false() || !seen.insert(x.id()) {
                continue;
            }
            args.push(x.clone());
        }
        match args.len() {
            0 => self.ff(),
            1 => args.pop().unwrap(),
            2 => self.or(&args[0], &args[1]),
            _ => self.app(Op::Or, args, Sort::Bool),
        }
    }
    pub fn implies(&mut self, a: &T, b: &T) -> T {
        let na = self.not(a);
        self.or(&na, b)
    }
    pub fn ite(&mut self, c: &T, a: &T, b: &T) -> T {
        if c.is_true() || a == b {
            return a.clone();
        }
        if c.is_false() {
            return b.clone();
        }
        if a.sort() == Sort::Bool {
            if a.is_true() && b.is_false() {
                return c.clone();
            }
            if a.is_false() && b.is_true() {
                return self.not(c);
            }
        }
        let s = a.sort();
        self.app(Op::Ite, vec![c.clone(), a.clone(), b.clone()], s)
    }
    pub fn eq(&mut self, a: &T, b: &T) -> T {
        if a == b {
            return self.tt();
        }
        match (a.node(), b.node()) {
            (Node::Bv(_, x), Node::Bv(_, y)) => return self.bool(x == y),
            (Node::Bool(x), Node::Bool(y)) => return self.bool(x == y),
            _ => {}
        }
        if a.sort() == Sort::Bool {
            if a.is_true() {
                return b.clone();
            }
            if b.is_true() {
                return a.clone();
            }
        }
        let (a, b) = if a.id() <= b.id() { (a, b) } else { (b, a) };
        self.app(Op::Eq, vec![a.clone(), b.clone()], Sort::Bool)
    }

    /// A binary bit-vector operation with folding.
    pub fn bin(&mut self, op: Op, a: &T, b: &T) -> T {
        let w = a.sort().width();
        if let (Some(x), Some(y)) = (a.as_bv(), b.as_bv()) {
            let sx = sext(w, x);
            let sy = sext(w, y);
            let v = match op {
                Op::BvAdd => Some(x.wrapping_add(y)),
                Op::BvSub => Some(x.wrapping_sub(y)),
                Op::BvMul => Some(x.wrapping_mul(y)),
                Op::BvUdiv if y != 0 => Some(x / y),
                Op::BvUrem if y != 0 => Some(x % y),
                Op::BvSdiv if y != 0 => Some(sx.wrapping_div(sy) as u64),
                Op::BvSrem if y != 0 => Some(sx.wrapping_rem(sy) as u64),
                Op::BvAnd => Some(x & y),
                Op::BvOr => Some(x | y),
                Op::BvXor => Some(x ^ y),
                Op::BvShl => Some(if y >= w as u64 { 0 } else { x << y }),
                Op::BvLshr => Some(if y >= w as u64 { 0 } else { x >> y }),
                Op::BvAshr => Some(if y >= w as u64 {
                    if sx < 0 {
                        u64::MAX
                    } else {
                        0
                    }
                } else {
                    (sx >> y) as u64
                }),
                _ => None,
            };
            if let Some(v) = v {
                return self.bv(w, v);
            }
            let c = match op {
                Op::BvUlt => Some(x < y),
                Op::BvUle => Some(x <= y),
                Op::BvSlt => Some(sx < sy),
                Op::BvSle => Some(sx <= sy),
                _ => None,
            };
            if let Some(c) = c {
                return self.bool(c);
            }
        }
        // Division and remainder by a power of two are shifts and masks (cheap to bit-blast).
        if let Some(y) = b.as_bv() {
            if y.is_power_of_two() {
                match op {
                    Op::BvUrem => {
                        let m = self.bv(w, y - 1);
                        return self.bin(Op::BvAnd, a, &m);
                    }
                    Op::BvUdiv => {
                        let k = self.bv(w, u64::from(y.trailing_zeros()));
                        return self.bin(Op::BvLshr, a, &k);
                    }
                    _ => {}
                }
            }
        }
        // Identities.
        match op {
            Op::BvAdd | Op::BvOr | Op::BvXor | Op::BvSub | Op::BvShl | Op::BvLshr | Op::BvAshr
                if b.as_bv() == Some(0) =>
            {
                return a.clone()
            }
            Op::BvAdd | Op::BvOr | Op::BvXor if a.as_bv() == Some(0) => return b.clone(),
            Op::BvMul if b.as_bv() == Some(1) => return a.clone(),
            Op::BvMul if a.as_bv() == Some(1) => return b.clone(),
            Op::BvMul | Op::BvAnd if a.as_bv() == Some(0) || b.as_bv() == Some(0) => {
                return self.bv(w, 0)
            }
            Op::BvSub if a == b => return self.bv(w, 0),
            Op::BvUle if a == b => return self.tt(),
            Op::BvUlt if a == b => return self.ff(),
            _ => {}
        }
        let s = match op {
            Op::BvUlt | Op::BvUle | Op::BvSlt | Op::BvSle => Sort::Bool,
            Op::Concat => Sort::Bv(w + b.sort().width()),
            _ => Sort::Bv(w),
        };
        self.app(op, vec![a.clone(), b.clone()], s)
    }
    pub fn add(&mut self, a: &T, b: &T) -> T {
        self.bin(Op::BvAdd, a, b)
    }
    pub fn sub(&mut self, a: &T, b: &T) -> T {
        self.bin(Op::BvSub, a, b)
    }
    pub fn ult(&mut self, a: &T, b: &T) -> T {
        self.bin(Op::BvUlt, a, b)
    }
    pub fn un(&mut self, op: Op, a: &T) -> T {
        let w = a.sort().width();
        if let Some(x) = a.as_bv() {
            match op {
                Op::BvNot => return self.bv(w, !x),
                Op::BvNeg => return self.bv(w, x.wrapping_neg()),
                _ => {}
            }
        }
        self.app(op, vec![a.clone()], Sort::Bv(w))
    }
    pub fn extract(&mut self, hi: u32, lo: u32, a: &T) -> T {
        let w = a.sort().width();
        if lo == 0 && hi + 1 == w {
            return a.clone();
        }
        if let Some(x) = a.as_bv() {
            return self.bv(hi - lo + 1, x >> lo);
        }
        // extract of an extension: take the inner value when it covers the bits.
        if let Node::App(Op::ZeroExt(_) | Op::SignExt(_), xs, _) = a.node() {
            let iw = xs[0].sort().width();
            if lo == 0 && hi + 1 == iw {
                return xs[0].clone();
            }
            if lo == 0 && hi < iw {
                let x = xs[0].clone();
                return self.extract(hi, 0, &x);
            }
        }
        self.app(Op::Extract(hi, lo), vec![a.clone()], Sort::Bv(hi - lo + 1))
    }
    pub fn zext(&mut self, to: u32, a: &T) -> T {
        let w = a.sort().width();
        if to == w {
            return a.clone();
        }
        if to < w {
            return self.extract(to - 1, 0, a);
        }
        if let Some(x) = a.as_bv() {
            return self.bv(to, x);
        }
        self.app(Op::ZeroExt(to - w), vec![a.clone()], Sort::Bv(to))
    }
    pub fn sext(&mut self, to: u32, a: &T) -> T {
        let w = a.sort().width();
        if to == w {
            return a.clone();
        }
        if to < w {
            return self.extract(to - 1, 0, a);
        }
        if let Some(x) = a.as_bv() {
            return self.bv(to, sext(w, x) as u64);
        }
        self.app(Op::SignExt(to - w), vec![a.clone()], Sort::Bv(to))
    }
    pub fn concat(&mut self, hi: &T, lo: &T) -> T {
        self.bin(Op::Concat, hi, lo)
    }
    pub fn select(&mut self, arr: &T, idx: &T) -> T {
        let s = match arr.sort() {
            Sort::Mem => Sort::Bv(8),
            Sort::Used(w) => Sort::UsedInner(w),
            _ => Sort::Bv(8),
        };
        self.app(Op::Select, vec![arr.clone(), idx.clone()], s)
    }
    pub fn store(&mut self, arr: &T, idx: &T, v: &T) -> T {
        let s = arr.sort();
        self.app(Op::Store, vec![arr.clone(), idx.clone(), v.clone()], s)
    }
    /// `used[o][z]` for a used-map (paper 002 §4.3). The map of a havoc is a variable: its
    /// membership is an uninterpreted predicate ([`used_fn`]), which z3 bit-blasts with the
    /// rest instead of reasoning over arrays of arrays; the empty map holds nothing.
    pub fn used_get(&mut self, used: &T, o: &T, z: &T) -> T {
        if matches!(used.node(), Node::App(Op::EmptyUsed(_), _, _)) {
            return self.ff();
        }
        if let Some(f) = used_fn(used) {
            return self.uf(&f, &[o.clone(), z.clone()], Sort::Bool);
        }
        let inner = self.select(used, o);
        self.app(Op::Select, vec![inner, z.clone()], Sort::Bool)
    }
    /// `used[o][z] := true`.
    pub fn used_set(&mut self, used: &T, o: &T, z: &T) -> T {
        let inner = self.select(used, o);
        let tt = self.tt();
        let inner2 = self.app(Op::Store, vec![inner.clone(), z.clone(), tt], inner.sort());
        self.store(used, o, &inner2)
    }
    pub fn empty_used(&mut self, w: u32) -> T {
        self.app(Op::EmptyUsed(w), vec![], Sort::Used(w))
    }
    /// An uninterpreted function application.
    pub fn uf(&mut self, name: &str, args: &[T], s: Sort) -> T {
        self.app(Op::Uf(name.to_string()), args.to_vec(), s)
    }

    /// Whether `z` is in the used set of offset `o` made of the map `root` (none when it is
    /// the empty map) and the (enabled, offset, value) entries added since: a disjunction
    /// of bit-vector equalities, no array stores (paper 002 §4.3's `used` map).
    pub fn used_member(&mut self, root: &T, list: &[[T; 3]], o: &T, z: &T) -> T {
        let mut any = self.used_get(root, o, z);
        for [e, lo, lz] in list {
            let so = self.eq(lo, o);
            let sz = self.eq(lz, z);
            let hit = self.and_all(&[e.clone(), so, sz]);
            any = self.or(&any, &hit);
        }
        any
    }

    /// Rewrites each membership `u[o][z]` of a used-map variable `u` (an application of its
    /// [`used_fn`], the key of `sets`) into the membership of the set it stands for
    /// ([`Self::used_member`] of that set's root and list).
    pub fn expand_used(&mut self, t: &T, sets: &HashMap<String, (T, Vec<[T; 3]>)>) -> T {
        let mut memo = HashMap::new();
        self.expand_used_rec(t, sets, &mut memo)
    }
    fn expand_used_rec(
        &mut self,
        t: &T,
        sets: &HashMap<String, (T, Vec<[T; 3]>)>,
        memo: &mut HashMap<u32, T>,
    ) -> T {
        if let Some(r) = memo.get(&t.id()) {
            return r.clone();
        }
        let r = match t.node() {
            Node::App(Op::Uf(name), args, _) if args.len() == 2 && sets.contains_key(name) => {
                let (root, list) = sets[name].clone();
                let o = self.expand_used_rec(&args[0], sets, memo);
                let z = self.expand_used_rec(&args[1], sets, memo);
                self.used_member(&root, &list, &o, &z)
            }
            _ => self.expand_args(t, sets, memo),
        };
        memo.insert(t.id(), r.clone());
        r
    }
    fn expand_args(
        &mut self,
        t: &T,
        sets: &HashMap<String, (T, Vec<[T; 3]>)>,
        memo: &mut HashMap<u32, T>,
    ) -> T {
        match t.node() {
            Node::App(op, args, s) => {
                let na: Vec<T> = args
                    .iter()
                    .map(|a| self.expand_used_rec(a, sets, memo))
                    .collect();
                if na.iter().zip(args).all(|(a, b)| a == b) {
                    t.clone()
                } else {
                    self.rebuild(op, na, *s)
                }
            }
            _ => t.clone(),
        }
    }

    /// Replaces variables by terms (for instantiating invariants on a new havoc).
    pub fn subst(&mut self, t: &T, map: &HashMap<T, T>) -> T {
        let mut memo = HashMap::new();
        self.subst_rec(t, map, &mut memo)
    }
    fn subst_rec(&mut self, t: &T, map: &HashMap<T, T>, memo: &mut HashMap<u32, T>) -> T {
        if let Some(r) = map.get(t) {
            return r.clone();
        }
        if let Some(r) = memo.get(&t.id()) {
            return r.clone();
        }
        let r = match t.node() {
            Node::App(op, args, s) => {
                let na: Vec<T> = args.iter().map(|a| self.subst_rec(a, map, memo)).collect();
                if na.iter().zip(args).all(|(a, b)| a == b) {
                    t.clone()
                } else {
                    self.rebuild(op, na, *s)
                }
            }
            _ => t.clone(),
        };
        memo.insert(t.id(), r.clone());
        r
    }
    /// Rebuilds an application with simplification.
    fn rebuild(&mut self, op: &Op, a: Vec<T>, s: Sort) -> T {
        match op {
            Op::Not => self.not(&a[0]),
            Op::And => self.and_all(&a),
            Op::Or => self.or_all(&a),
            Op::Implies => self.implies(&a[0], &a[1]),
            Op::Ite => self.ite(&a[0], &a[1], &a[2]),
            Op::Eq => self.eq(&a[0], &a[1]),
            Op::BvNot | Op::BvNeg => self.un(op.clone(), &a[0]),
            Op::Extract(h, l) => self.extract(*h, *l, &a[0]),
            Op::ZeroExt(n) => {
                let w = a[0].sort().width();
                self.zext(w + n, &a[0])
            }
            Op::SignExt(n) => {
                let w = a[0].sort().width();
                self.sext(w + n, &a[0])
            }
            Op::Select | Op::Store | Op::Uf(_) | Op::EmptyUsed(_) => self.app(op.clone(), a, s),
            _ => self.bin(op.clone(), &a[0], &a[1]),
        }
    }
}

/// Does `t` mention a fresh variable made after `mark` (see [`Ctx::fresh_mark`])?
/// The uninterpreted predicate standing for the membership of used-map variable `u`.
pub fn used_fn(u: &T) -> Option<String> {
    match u.node() {
        Node::Var(n, Sort::Used(_)) => Some(format!("used_of_{n}")),
        _ => None,
    }
}

pub fn mentions_fresh_after(t: &T, mark: u32) -> bool {
    let mut memo = HashMap::new();
    mentions(
        t,
        &|n: &str| {
            n.rsplit_once('!')
                .and_then(|(_, k)| k.parse::<u32>().ok())
                .is_some_and(|k| k > mark)
        },
        &mut memo,
    )
}

/// Does `t` mention a variable satisfying `pred`?
pub fn mentions(t: &T, pred: &dyn Fn(&str) -> bool, memo: &mut HashMap<u32, bool>) -> bool {
    if let Some(&r) = memo.get(&t.id()) {
        return r;
    }
    let r = match t.node() {
        Node::Var(n, _) => pred(n),
        Node::App(_, a, _) => a.iter().any(|x| mentions(x, pred, memo)),
        _ => false,
    };
    memo.insert(t.id(), r);
    r
}

/// Prints terms as SMT-LIB 2: declarations and `define-fun`s for every node reachable from
/// the roots, in dependency order, then names for the roots.
#[derive(Default)]
pub struct Printer {
    out: String,
    done: HashMap<u32, String>,
    ufs: HashMap<String, String>,
    /// Name inner nodes by `declare-const` and an asserted equality instead of `define-fun`
    /// (z3 4.8.12 reads deep `define-fun` chains in quadratic time; docs/perf.md). Only for
    /// a solver context that holds one query (`Solver::ask_alone`): the equalities are
    /// assertions and stay until the next `reset`.
    equations: bool,
}

impl Printer {
    pub fn new() -> Self {
        Printer::default()
    }
    /// A printer that names inner nodes with asserted equalities (see `equations`).
    pub fn with_equations() -> Self {
        Printer {
            equations: true,
            ..Printer::default()
        }
    }
    /// The accumulated declarations.
    pub fn take(&mut self) -> String {
        std::mem::take(&mut self.out)
    }
    /// Declares everything `t` needs and returns an SMT expression naming it.
    pub fn name(&mut self, t: &T) -> String {
        // Iterative post-order to avoid deep recursion on long ite chains.
        let mut stack: Vec<(T, bool)> = vec![(t.clone(), false)];
        while let Some((x, expanded)) = stack.pop() {
            if self.done.contains_key(&x.id()) {
                continue;
            }
            match x.node() {
                Node::Bool(b) => {
                    self.done.insert(x.id(), b.to_string());
                }
                Node::Bv(w, v) => {
                    self.done.insert(x.id(), format!("(_ bv{v} {w})"));
                }
                Node::Var(n, s) => {
                    let q = quote(n);
                    let _ = writeln!(self.out, "(declare-const {q} {})", s.smt());
                    self.done.insert(x.id(), q);
                }
                Node::App(op, args, s) => {
                    if !expanded {
                        stack.push((x.clone(), true));
                        for a in args {
                            if !self.done.contains_key(&a.id()) {
                                stack.push((a.clone(), false));
                            }
                        }
                        continue;
                    }
                    let an: Vec<String> = args.iter().map(|a| self.done[&a.id()].clone()).collect();
                    let e = self.expr(op, &an, args, *s);
                    let nm = format!("t{}", x.id());
                    if self.equations {
                        let _ = writeln!(
                            self.out,
                            "(declare-const {nm} {})\n(assert (= {nm} {e}))",
                            s.smt()
                        );
                    } else {
                        let _ = writeln!(self.out, "(define-fun {nm} () {} {e})", s.smt());
                    }
                    self.done.insert(x.id(), nm);
                }
            }
        }
        self.done[&t.id()].clone()
    }

    fn expr(&mut self, op: &Op, a: &[String], args: &[T], s: Sort) -> String {
        let j = a.join(" ");
        match op {
            Op::Not => format!("(not {j})"),
            Op::And => format!("(and {j})"),
            Op::Or => format!("(or {j})"),
            Op::Implies => format!("(=> {j})"),
            Op::Ite => format!("(ite {j})"),
            Op::Eq => format!("(= {j})"),
            Op::BvAdd => format!("(bvadd {j})"),
            Op::BvSub => format!("(bvsub {j})"),
            Op::BvMul => format!("(bvmul {j})"),
            Op::BvUdiv => format!("(bvudiv {j})"),
            Op::BvSdiv => format!("(bvsdiv {j})"),
            Op::BvUrem => format!("(bvurem {j})"),
            Op::BvSrem => format!("(bvsrem {j})"),
            Op::BvAnd => format!("(bvand {j})"),
            Op::BvOr => format!("(bvor {j})"),
            Op::BvXor => format!("(bvxor {j})"),
            Op::BvNot => format!("(bvnot {j})"),
            Op::BvNeg => format!("(bvneg {j})"),
            Op::BvShl => format!("(bvshl {j})"),
            Op::BvLshr => format!("(bvlshr {j})"),
            Op::BvAshr => format!("(bvashr {j})"),
            Op::BvUlt => format!("(bvult {j})"),
            Op::BvUle => format!("(bvule {j})"),
            Op::BvSlt => format!("(bvslt {j})"),
            Op::BvSle => format!("(bvsle {j})"),
            Op::Extract(h, l) => format!("((_ extract {h} {l}) {j})"),
            Op::ZeroExt(n) => format!("((_ zero_extend {n}) {j})"),
            Op::SignExt(n) => format!("((_ sign_extend {n}) {j})"),
            Op::Concat => format!("(concat {j})"),
            Op::Select => format!("(select {j})"),
            Op::Store => format!("(store {j})"),
            Op::EmptyUsed(w) => {
                format!(
                    "((as const {}) ((as const (Array (_ BitVec {w}) Bool)) false))",
                    s.smt()
                )
            }
            Op::Uf(name) => {
                let key = format!(
                    "{name}:{}",
                    args.iter()
                        .map(|x| x.sort().smt())
                        .collect::<Vec<_>>()
                        .join(",")
                );
                let fname = quote(&key);
                if !self.ufs.contains_key(&key) {
                    let doms: Vec<String> = args.iter().map(|x| x.sort().smt()).collect();
                    let _ = writeln!(
                        self.out,
                        "(declare-fun {fname} ({}) {})",
                        doms.join(" "),
                        s.smt()
                    );
                    self.ufs.insert(key, fname.clone());
                }
                if a.is_empty() {
                    fname
                } else {
                    format!("({fname} {j})")
                }
            }
        }
    }
}

fn quote(n: &str) -> String {
    if n.chars()
        .all(|c| c.is_ascii_alphanumeric() || "_!.$".contains(c))
        && !n.starts_with(|c: char| c.is_ascii_digit())
    {
        n.to_string()
    } else {
        format!("|{}|", n.replace('|', "_"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_and_hash_consing() {
        let mut c = Ctx::new();
        let x = c.var("x", Sort::Bv(32));
        let one = c.bv(32, 1);
        let a = c.add(&x, &one);
        let b = c.add(&x, &one);
        assert_eq!(a, b);
        let k = c.bv(32, 0xffff_ffff);
        let s = c.add(&k, &one);
        assert_eq!(s.as_bv(), Some(0), "wraps at the width");
        let lt = c.bin(Op::BvSlt, &k, &one);
        assert!(lt.is_true(), "-1 < 1 signed");
        let ult = c.ult(&k, &one);
        assert!(ult.is_false());
        let mut p = Printer::new();
        let n = p.name(&a);
        assert!(p.take().contains("(bvadd x (_ bv1 32))"));
        assert!(n.starts_with('t'));
    }

    /// In equation mode an inner node is a constant with an asserted definition, never a
    /// `define-fun`; leaves are declared as before.
    #[test]
    fn equation_mode() {
        let mut c = Ctx::new();
        let x = c.var("x", Sort::Bv(32));
        let one = c.bv(32, 1);
        let a = c.add(&x, &one);
        let mut p = Printer::with_equations();
        let n = p.name(&a);
        let out = p.take();
        assert!(out.contains("(declare-const x (_ BitVec 32))"));
        assert!(out.contains(&format!("(declare-const {n} (_ BitVec 32))")));
        assert!(out.contains(&format!("(assert (= {n} (bvadd x (_ bv1 32))))")));
        assert!(!out.contains("define-fun"));
    }
}
