//! Final states in product form (issue 11): the settled products of [`crate::sim`] (the
//! states of every completion of a settled partial candidate, see
//! `weft_cat::Model::settle`) kept symbolic instead of listed one by one. Owns the
//! [`Product`] of one settled partial candidate, their union as pairwise disjoint boxes
//! with the exact number of distinct states ([`Union`]), the number of completions
//! satisfying the condition counted by case-splitting only on the reads the condition
//! mentions ([`satisfying`]), and the printed terms ([`StateTerm`]). Memory grows with
//! the number of terms, not of states. Format: docs/formats.md, "Product form".

use std::collections::HashSet;

use weft_ir::{CmpOp, Program, Prop, Term};

use crate::candidates::Candidate;
use crate::sim::{term_value, value_text, SimResult};
use crate::value::addr_of;
pub use weft_exec::result::StateTerm;

type HashMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<rustc_hash::FxHasher>>;

/// The final states of the completions of a settled partial candidate (see
/// [`crate::candidates::Settle`]), without building them: each observed column is either
/// fixed by the partial candidate (`base`) or the value of one of the remaining reads, so
/// the states are the product over those reads (`dims`: the columns a read shows, and its
/// distinct values with the number of writes giving each), each state reached by the
/// product of its values' multiplicities times `factor` (the choices of the reads no
/// column shows) completions. Equal products (the spin loops' unrollings of one test
/// give the same product once per trace combination) are kept once with a count and
/// expanded at the end of the simulation (`sim::expand_products`) or kept in product form
/// ([`symbolic`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Product {
    pub(crate) base: Vec<i64>,
    pub(crate) dims: Vec<Dim>,
    pub(crate) factor: u64,
}

/// One shown read of a [`Product`]: the columns it fills, and its distinct values with
/// the number of writes giving each.
pub(crate) type Dim = (Vec<usize>, Vec<(i64, u64)>);

impl Product {
    /// The product of the completions of `c` whose remaining steps are `reads`.
    pub(crate) fn of(p: &Program, cols: &[Term], c: &Candidate, reads: &[usize]) -> Product {
        let sk = c.skeleton;
        let pos: HashMap<usize, usize> = reads
            .iter()
            .enumerate()
            .map(|(j, &k)| (sk.rf_choices[k].0, j))
            .collect();
        let base: Vec<i64> = cols.iter().map(|t| term_value(p, c, t)).collect();
        let mut shown: Vec<Vec<usize>> = vec![Vec::new(); reads.len()];
        for (ci, t) in cols.iter().enumerate() {
            let Term::Reg { thread, reg } = t else {
                continue;
            };
            let src = sk
                .traces
                .get(*thread)
                .and_then(|tr| tr.reg_src.get(reg.index()).copied().flatten());
            if let Some(k) = src {
                let id = sk.thread_start[*thread] + k;
                if sk.events[id].symbolic {
                    if let Some(&j) = pos.get(&id) {
                        shown[j].push(ci);
                    }
                }
            }
        }
        let mut factor = 1u64;
        let mut dims = Vec::new();
        for (j, &k) in reads.iter().enumerate() {
            let ws = &sk.rf_choices[k].1;
            if shown[j].is_empty() {
                factor = factor.saturating_mul(ws.len() as u64);
                continue;
            }
            let mut vals: Vec<(i64, u64)> = Vec::new();
            for &w in ws {
                let v = sk.events[w].value;
                match vals.iter_mut().find(|(x, _)| *x == v) {
                    Some((_, m)) => *m += 1,
                    None => vals.push((v, 1)),
                }
            }
            dims.push((std::mem::take(&mut shown[j]), vals));
        }
        Product { base, dims, factor }
    }

    /// The number of completions.
    pub(crate) fn total(&self) -> u64 {
        self.dims.iter().fold(self.factor, |acc, (_, vals)| {
            acc.saturating_mul(vals.iter().map(|v| v.1).sum())
        })
    }

    /// Calls `f` on each state of the product with its number of completions.
    pub(crate) fn for_each(&self, f: &mut dyn FnMut(&[i64], u64)) {
        let mut at = vec![0usize; self.dims.len()];
        let mut vals = self.base.clone();
        let mut mult: Vec<u64> = vec![1; self.dims.len() + 1];
        mult[self.dims.len()] = self.factor;
        // mult[d] = factor times the multiplicities of the values chosen for dims d..
        let refresh = |d: usize, at: &[usize], vals: &mut Vec<i64>, mult: &mut Vec<u64>| {
            for e in (0..=d.min(self.dims.len().saturating_sub(1))).rev() {
                let (cols, vs) = &self.dims[e];
                let (v, m) = vs[at[e]];
                for &ci in cols {
                    vals[ci] = v;
                }
                mult[e] = mult[e + 1].saturating_mul(m);
            }
        };
        if !self.dims.is_empty() {
            refresh(self.dims.len() - 1, &at, &mut vals, &mut mult);
        }
        loop {
            f(&vals, mult[0]);
            let mut d = 0;
            loop {
                if d == self.dims.len() {
                    return;
                }
                at[d] += 1;
                if at[d] < self.dims[d].1.len() {
                    break;
                }
                at[d] = 0;
                d += 1;
            }
            refresh(d, &at, &mut vals, &mut mult);
        }
    }
}

/// Most value tuples one component of [`Union`] may take in one product; more, and the
/// products are expanded instead (a component is several columns only where one read
/// is shown by several registers).
const MAX_COMPONENT_TUPLES: usize = 1 << 16;

/// Why a [`Union`] was not built.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum NotBuilt {
    /// A component has more than [`MAX_COMPONENT_TUPLES`] tuples in one product, or a
    /// box more than `u128::MAX` states.
    TooLarge,
    /// The time or memory budget ran out.
    Late,
}

/// The union of the states of some products as pairwise disjoint boxes. The columns are
/// split into components (columns that some product's read shows together are in one
/// component; every other column is a component of its own), and a box is, per
/// component, a set of value tuples: its states are every combination.
#[derive(Debug)]
pub(crate) struct Union {
    /// The columns of each component, ascending; components by first column.
    comps: Vec<Vec<usize>>,
    /// Per component, the interned value tuples (one value per column of the component).
    tuples: Vec<Vec<Vec<i64>>>,
    /// Pairwise disjoint boxes: per component, the sorted ids of its tuples.
    boxes: Vec<Vec<Vec<u32>>>,
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Whether two sorted id lists share an element.
fn meets(a: &[u32], b: &[u32]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// `a ∩ b` and `a \ b` of sorted id lists.
fn split(a: &[u32], b: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j < b.len() && b[j] == x {
            inside.push(x);
        } else {
            outside.push(x);
        }
    }
    (inside, outside)
}

/// Pushes the boxes of `p \ a` (pairwise disjoint) onto `out`.
fn subtract(p: Vec<Vec<u32>>, a: &[Vec<u32>], out: &mut Vec<Vec<Vec<u32>>>) {
    if p.iter().zip(a).any(|(x, y)| !meets(x, y)) {
        out.push(p);
        return;
    }
    let mut rest = p;
    for j in 0..rest.len() {
        let (inside, outside) = split(&rest[j], &a[j]);
        if !outside.is_empty() {
            let mut q = rest.clone();
            q[j] = outside;
            out.push(q);
        }
        rest[j] = inside;
    }
    // What is left lies inside `a`.
}

impl Union {
    /// The union of the states of `products` over `ncols` columns; `late` is polled
    /// while the boxes are made disjoint.
    pub(crate) fn build(
        products: &[&Product],
        ncols: usize,
        late: &dyn Fn() -> bool,
    ) -> Result<Union, NotBuilt> {
        let mut parent: Vec<usize> = (0..ncols).collect();
        for prod in products {
            for (cols, _) in &prod.dims {
                for w in cols.windows(2) {
                    let (a, b) = (find(&mut parent, w[0]), find(&mut parent, w[1]));
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
        let mut comp_of_root: HashMap<usize, usize> = HashMap::default();
        let mut comps: Vec<Vec<usize>> = Vec::new();
        // (component, position in it) of each column.
        let mut place = vec![(0usize, 0usize); ncols];
        for (c, slot) in place.iter_mut().enumerate() {
            let root = find(&mut parent, c);
            let k = *comp_of_root.entry(root).or_insert_with(|| {
                comps.push(Vec::new());
                comps.len() - 1
            });
            *slot = (k, comps[k].len());
            comps[k].push(c);
        }
        let mut tuples: Vec<Vec<Vec<i64>>> = vec![Vec::new(); comps.len()];
        let mut ids: Vec<HashMap<Vec<i64>, u32>> = vec![HashMap::default(); comps.len()];
        let mut seen: HashSet<Vec<Vec<u32>>> = HashSet::new();
        let mut input: Vec<Vec<Vec<u32>>> = Vec::new();
        for prod in products {
            // Per component, the dims whose columns lie in it.
            let mut dims_in: Vec<Vec<usize>> = vec![Vec::new(); comps.len()];
            for (d, (cols, _)) in prod.dims.iter().enumerate() {
                if let Some(&c) = cols.first() {
                    dims_in[place[c].0].push(d);
                }
            }
            let mut b: Vec<Vec<u32>> = Vec::with_capacity(comps.len());
            for (k, cols) in comps.iter().enumerate() {
                let mut ts: Vec<Vec<i64>> = vec![cols.iter().map(|&c| prod.base[c]).collect()];
                for &d in &dims_in[k] {
                    let (dcols, vals) = &prod.dims[d];
                    if ts.len().saturating_mul(vals.len()) > MAX_COMPONENT_TUPLES {
                        return Err(NotBuilt::TooLarge);
                    }
                    let mut next = Vec::with_capacity(ts.len() * vals.len());
                    for t in &ts {
                        for &(v, _) in vals {
                            let mut u = t.clone();
                            for &c in dcols {
                                u[place[c].1] = v;
                            }
                            next.push(u);
                        }
                    }
                    ts = next;
                }
                let mut set: Vec<u32> = ts
                    .into_iter()
                    .map(|t| {
                        let n = tuples[k].len() as u32;
                        *ids[k].entry(t.clone()).or_insert_with(|| {
                            tuples[k].push(t);
                            n
                        })
                    })
                    .collect();
                set.sort_unstable();
                set.dedup();
                b.push(set);
            }
            if seen.insert(b.clone()) {
                input.push(b);
            }
        }
        drop(seen);
        // Larger boxes first: the later ones then mostly fall inside them.
        input.sort_by_key(|b| {
            std::cmp::Reverse(
                b.iter()
                    .fold(1u128, |n, s| n.saturating_mul(s.len() as u128)),
            )
        });
        let mut boxes: Vec<Vec<Vec<u32>>> = Vec::new();
        let mut steps = 0u64;
        for b in input {
            let before = boxes.len();
            let mut pieces = vec![b];
            for a in &boxes[..before] {
                steps += 1;
                if steps.is_multiple_of(4096) && late() {
                    return Err(NotBuilt::Late);
                }
                let mut next = Vec::with_capacity(pieces.len());
                for piece in pieces {
                    subtract(piece, a, &mut next);
                }
                pieces = next;
                if pieces.is_empty() {
                    break;
                }
            }
            boxes.extend(pieces);
        }
        let u = Union {
            comps,
            tuples,
            boxes,
        };
        if u.count().is_none() {
            return Err(NotBuilt::TooLarge);
        }
        Ok(u)
    }

    /// The number of distinct states (`None` past `u128::MAX`).
    pub(crate) fn count(&self) -> Option<u128> {
        self.boxes.iter().try_fold(0u128, |acc, b| {
            let n = b
                .iter()
                .try_fold(1u128, |m, s| m.checked_mul(s.len() as u128))?;
            acc.checked_add(n)
        })
    }

    /// The boxes as printed terms (values as [`value_text`] spells them), sorted.
    pub(crate) fn terms(&self, p: &Program) -> Vec<StateTerm> {
        let texts: Vec<Vec<Vec<String>>> = self
            .tuples
            .iter()
            .map(|ts| {
                ts.iter()
                    .map(|t| t.iter().map(|&v| value_text(p, v)).collect())
                    .collect()
            })
            .collect();
        let mut out: Vec<StateTerm> = self
            .boxes
            .iter()
            .map(|b| StateTerm {
                groups: b
                    .iter()
                    .enumerate()
                    .map(|(k, set)| {
                        let mut ts: Vec<Vec<String>> =
                            set.iter().map(|&i| texts[k][i as usize].clone()).collect();
                        ts.sort();
                        (self.comps[k].clone(), ts)
                    })
                    .collect(),
            })
            .collect();
        out.sort_by(|a, b| a.groups.cmp(&b.groups));
        out
    }
}

/// A comparison's operand once a product's columns are resolved: a value, or the value
/// of one of its dims.
#[derive(Clone, Copy, Debug)]
enum Opnd {
    Val(i64),
    Dim(usize),
}

/// A proposition over a product's dims (`\/` rewritten as `~(~a /\ ~b)`).
#[derive(Clone, Debug)]
enum F {
    Const(bool),
    Cmp(Opnd, CmpOp, Opnd),
    Not(Box<F>),
    And(Vec<F>),
}

fn resolve(prop: &Prop, opnd: &dyn Fn(&Term) -> Opnd) -> F {
    match prop {
        Prop::True => F::Const(true),
        Prop::False => F::Const(false),
        Prop::Cmp(a, op, b) => F::Cmp(opnd(a), *op, opnd(b)),
        Prop::Not(a) => F::Not(Box::new(resolve(a, opnd))),
        Prop::And(a, b) => F::And(vec![resolve(a, opnd), resolve(b, opnd)]),
        Prop::Or(a, b) => F::Not(Box::new(F::And(vec![
            F::Not(Box::new(resolve(a, opnd))),
            F::Not(Box::new(resolve(b, opnd))),
        ]))),
    }
}

/// `f` with dim `v` set to `val` (when given), constants folded.
fn subst(f: &F, v: Option<(usize, i64)>) -> F {
    let o = |x: Opnd| match (x, v) {
        (Opnd::Dim(d), Some((w, val))) if d == w => Opnd::Val(val),
        _ => x,
    };
    match f {
        F::Const(b) => F::Const(*b),
        F::Cmp(a, op, b) => match (o(*a), o(*b)) {
            (Opnd::Val(x), Opnd::Val(y)) => F::Const(op.eval(x, y)),
            (a, b) => F::Cmp(a, *op, b),
        },
        F::Not(a) => match subst(a, v) {
            F::Const(b) => F::Const(!b),
            g => F::Not(Box::new(g)),
        },
        F::And(fs) => {
            let mut out = Vec::new();
            for g in fs {
                match subst(g, v) {
                    F::Const(true) => {}
                    F::Const(false) => return F::Const(false),
                    F::And(inner) => out.extend(inner),
                    g => out.push(g),
                }
            }
            match out.len() {
                0 => F::Const(true),
                1 => out.pop().expect("one"),
                _ => F::And(out),
            }
        }
    }
}

fn vars(f: &F, out: &mut Vec<usize>) {
    match f {
        F::Const(_) => {}
        F::Cmp(a, _, b) => {
            for x in [a, b] {
                if let Opnd::Dim(d) = x {
                    out.push(*d);
                }
            }
        }
        F::Not(a) => vars(a, out),
        F::And(fs) => fs.iter().for_each(|g| vars(g, out)),
    }
}

fn var_set(f: &F) -> Vec<usize> {
    let mut v = Vec::new();
    vars(f, &mut v);
    v.sort_unstable();
    v.dedup();
    v
}

/// Most case splits [`satisfying`] makes before giving up (the products are then
/// expanded instead).
const MAX_SPLITS: u64 = 1 << 22;

/// Counts weighted assignments of dims: `w[d]` are dim `d`'s values with their weights.
struct Counter<'a> {
    w: Vec<&'a [(i64, u64)]>,
    splits: u64,
}

impl Counter<'_> {
    /// The total weight of the assignments of `vs`.
    fn weight(&self, vs: &[usize]) -> Option<u128> {
        vs.iter().try_fold(1u128, |acc, &d| {
            acc.checked_mul(self.w[d].iter().map(|x| u128::from(x.1)).sum())
        })
    }

    /// The weight of the assignments of `var_set(f)` that satisfy `f`.
    fn count(&mut self, f: &F) -> Option<u128> {
        let sum = |vals: &[(i64, u64)], keep: &dyn Fn(i64) -> bool| -> u128 {
            vals.iter()
                .filter(|x| keep(x.0))
                .map(|x| u128::from(x.1))
                .sum()
        };
        match f {
            F::Const(b) => Some(u128::from(*b)),
            F::Cmp(a, op, b) => Some(match (*a, *b) {
                (Opnd::Val(x), Opnd::Val(y)) => u128::from(op.eval(x, y)),
                (Opnd::Dim(d), Opnd::Val(y)) => sum(self.w[d], &|x| op.eval(x, y)),
                (Opnd::Val(x), Opnd::Dim(d)) => sum(self.w[d], &|y| op.eval(x, y)),
                (Opnd::Dim(d), Opnd::Dim(e)) if d == e => sum(self.w[d], &|x| op.eval(x, x)),
                (Opnd::Dim(d), Opnd::Dim(e)) => {
                    let mut n = 0u128;
                    for &(x, m) in self.w[d] {
                        for &(y, k) in self.w[e] {
                            if op.eval(x, y) {
                                n = n.checked_add(u128::from(m).checked_mul(u128::from(k))?)?;
                            }
                        }
                    }
                    n
                }
            }),
            F::Not(a) => self.weight(&var_set(a))?.checked_sub(self.count(a)?),
            F::And(fs) => self.conj(fs),
        }
    }

    /// [`Counter::count`] of a conjunction: the product over its independent parts
    /// (conjuncts sharing no dim), each part with shared dims split case by case.
    fn conj(&mut self, fs: &[F]) -> Option<u128> {
        let leaves: Vec<(Vec<usize>, &F)> = fs.iter().map(|f| (var_set(f), f)).collect();
        // Independent parts: union-find over the leaves through their dims.
        let n = leaves.len();
        let mut parent: Vec<usize> = (0..n).collect();
        let mut owner: HashMap<usize, usize> = HashMap::default();
        for (i, (vs, _)) in leaves.iter().enumerate() {
            for &d in vs {
                match owner.get(&d) {
                    Some(&j) => {
                        let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                        parent[a.max(b)] = a.min(b);
                    }
                    None => {
                        owner.insert(d, i);
                    }
                }
            }
        }
        let mut parts: BTreeMapUsize = Default::default();
        for i in 0..n {
            let r = find(&mut parent, i);
            parts.entry(r).or_default().push(i);
        }
        let mut total = 1u128;
        for members in parts.values() {
            let c = if members.len() == 1 {
                self.count(leaves[members[0]].1)?
            } else {
                let fs: Vec<F> = members.iter().map(|&i| leaves[i].1.clone()).collect();
                let mut all: Vec<usize> = members
                    .iter()
                    .flat_map(|&i| leaves[i].0.iter().copied())
                    .collect();
                // Split on the dim most conjuncts mention.
                let mut freq: HashMap<usize, usize> = HashMap::default();
                for &d in &all {
                    *freq.entry(d).or_default() += 1;
                }
                let v = freq
                    .iter()
                    .max_by_key(|(d, k)| (**k, std::cmp::Reverse(**d)))
                    .map(|(d, _)| *d)?;
                all.sort_unstable();
                all.dedup();
                let conj = F::And(fs);
                let mut c = 0u128;
                for &(val, m) in self.w[v] {
                    self.splits += 1;
                    if self.splits > MAX_SPLITS {
                        return None;
                    }
                    let g = subst(&conj, Some((v, val)));
                    let gv = var_set(&g);
                    let rest: Vec<usize> = all
                        .iter()
                        .copied()
                        .filter(|&d| d != v && gv.binary_search(&d).is_err())
                        .collect();
                    let k = self
                        .count(&g)?
                        .checked_mul(self.weight(&rest)?)?
                        .checked_mul(u128::from(m))?;
                    c = c.checked_add(k)?;
                }
                c
            };
            total = total.checked_mul(c)?;
        }
        Some(total)
    }
}

type BTreeMapUsize = std::collections::BTreeMap<usize, Vec<usize>>;

/// The completions of `prod` whose final state satisfies `prop` (each state weighted by
/// its completions, as [`Product::for_each`] gives them), counted without listing the
/// states; `None` when a count passes `u128::MAX` or the case splits pass
/// [`MAX_SPLITS`].
pub(crate) fn satisfying(prod: &Product, cols: &[Term], prop: &Prop) -> Option<u128> {
    let mut dim_of: HashMap<usize, usize> = HashMap::default();
    for (d, (cs, _)) in prod.dims.iter().enumerate() {
        for &c in cs {
            dim_of.insert(c, d);
        }
    }
    let col_index: HashMap<&Term, usize> = cols.iter().enumerate().map(|(i, t)| (t, i)).collect();
    let opnd = |t: &Term| match col_index.get(t) {
        Some(&ci) => match dim_of.get(&ci) {
            Some(&d) => Opnd::Dim(d),
            None => Opnd::Val(prod.base[ci]),
        },
        None => Opnd::Val(match t {
            Term::Int(i) => *i,
            Term::Addr(l) => addr_of(*l),
            _ => 0, // every observed term is a column
        }),
    };
    let f = subst(&resolve(prop, &opnd), None);
    let mut counter = Counter {
        w: prod.dims.iter().map(|(_, v)| v.as_slice()).collect(),
        splits: 0,
    };
    let fv = var_set(&f);
    let others: Vec<usize> = (0..prod.dims.len())
        .filter(|d| fv.binary_search(d).is_err())
        .collect();
    counter
        .count(&f)?
        .checked_mul(counter.weight(&others)?)?
        .checked_mul(u128::from(prod.factor))
}

/// Keeps the states of `products` (each counted as many times as given) in product form
/// in `r` when, together with the states already listed, they are more than `bound`:
/// Positive/Negative are counted per product, the listed states that a term covers are
/// dropped, and `r.terms` gets the disjoint terms. False (nothing changed) when the
/// states are within the bound or the product form could not be built (too large a
/// component, a count past `u128`, the budget): the caller then lists them.
pub(crate) fn keep_symbolic(
    p: &Program,
    cols: &[Term],
    products: &[(Product, u64)],
    r: &mut SimResult,
    bound: u64,
    late: &dyn Fn() -> bool,
) -> bool {
    let prods: Vec<&Product> = products.iter().map(|(p, _)| p).collect();
    let Ok(u) = Union::build(&prods, cols.len(), late) else {
        return false;
    };
    let Some(n) = u.count() else {
        return false;
    };
    let terms = u.terms(p);
    let mut covered: Vec<Vec<String>> = Vec::new();
    for (i, s) in r.states.keys().enumerate() {
        if i % 1024 == 1023 && late() {
            return false;
        }
        if terms.iter().any(|t| t.contains(s)) {
            covered.push(s.clone());
        }
    }
    let listed = (r.states.len() - covered.len()) as u128;
    if n.saturating_add(listed) <= u128::from(bound) {
        return false;
    }
    // Positive/Negative per product, before anything changes.
    let mut pos = 0u128;
    let mut neg = 0u128;
    for (prod, count) in products {
        let total = u128::from(prod.total());
        let sat = match &p.condition {
            Some(c) => match satisfying(prod, cols, &c.prop) {
                Some(s) => s,
                None => return false,
            },
            None => 0,
        };
        let k = u128::from(*count);
        let (Some(a), Some(b)) = (
            sat.checked_mul(k),
            total.checked_sub(sat).and_then(|x| x.checked_mul(k)),
        ) else {
            return false;
        };
        pos = pos.saturating_add(a);
        neg = neg.saturating_add(b);
    }
    let to_u64 = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
    r.positive = r.positive.saturating_add(to_u64(pos));
    r.negative = r.negative.saturating_add(to_u64(neg));
    for s in covered {
        r.states.remove(&s);
    }
    r.terms = terms;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use weft_ir::Reg;

    fn col(i: usize) -> Term {
        Term::Reg {
            thread: i,
            reg: Reg(0),
        }
    }

    fn cmp(c: usize, v: i64) -> Prop {
        Prop::Cmp(col(c), CmpOp::Eq, Term::Int(v))
    }

    /// A dim by reference: its columns, its values with their numbers of writes.
    type DimRef<'a> = (&'a [usize], &'a [(i64, u64)]);

    fn prod(base: &[i64], dims: &[DimRef], factor: u64) -> Product {
        Product {
            base: base.to_vec(),
            dims: dims.iter().map(|(c, v)| (c.to_vec(), v.to_vec())).collect(),
            factor,
        }
    }

    impl Union {
        /// Every state of every box (test oracle side); asserts the boxes are disjoint.
        fn states(&self) -> HashSet<Vec<i64>> {
            let ncols: usize = self.comps.iter().map(Vec::len).sum();
            let mut out = HashSet::new();
            let mut listed = 0u128;
            for b in &self.boxes {
                let mut partial: Vec<Vec<i64>> = vec![vec![0; ncols]];
                for (k, set) in b.iter().enumerate() {
                    let mut next = Vec::new();
                    for s in &partial {
                        for &id in set {
                            let mut t = s.clone();
                            for (pos, &c) in self.comps[k].iter().enumerate() {
                                t[c] = self.tuples[k][id as usize][pos];
                            }
                            next.push(t);
                        }
                    }
                    partial = next;
                }
                listed += partial.len() as u128;
                out.extend(partial);
            }
            assert_eq!(listed, out.len() as u128, "the boxes overlap");
            out
        }
    }

    /// Every state of the products, by expansion (the oracle).
    fn expanded(products: &[&Product]) -> HashSet<Vec<i64>> {
        let mut out = HashSet::new();
        for p in products {
            p.for_each(&mut |vals, _| {
                out.insert(vals.to_vec());
            });
        }
        out
    }

    #[test]
    fn overlapping_products_count_each_state_once() {
        // By hand, over columns c0 c1 c2:
        // A = {1} × {0,1} × {0,1}: 4 states;
        // B = {1} × {0} × {0,1,2}: 3 states, of which (1,0,0) and (1,0,1) are A's: 1 new;
        // C: one read shown in c1 and c2 (values 5, 6): (1,5,5), (1,6,6): 2 new;
        // D = A again (another trace combination): nothing new. Union: 4 + 1 + 2 = 7.
        let a = prod(
            &[1, 9, 9],
            &[(&[1], &[(0, 1), (1, 1)]), (&[2], &[(0, 1), (1, 1)])],
            1,
        );
        let b = prod(&[1, 0, 9], &[(&[2], &[(0, 1), (1, 1), (2, 1)])], 1);
        let c = prod(&[1, 9, 9], &[(&[1, 2], &[(5, 1), (6, 2)])], 3);
        let d = a.clone();
        let u = Union::build(&[&a, &b, &c, &d], 3, &|| false).unwrap();
        assert_eq!(u.count(), Some(7));
        // c1 and c2 are one component (C's read shows in both).
        assert_eq!(u.comps, vec![vec![0], vec![1, 2]]);
        let want: HashSet<Vec<i64>> = [
            [1, 0, 0],
            [1, 0, 1],
            [1, 1, 0],
            [1, 1, 1],
            [1, 0, 2],
            [1, 5, 5],
            [1, 6, 6],
        ]
        .iter()
        .map(|s| s.to_vec())
        .collect();
        assert_eq!(u.states(), want);
    }

    #[test]
    fn products_differing_in_a_fixed_column_are_disjoint() {
        // (0, {0,1}) and (1, {0,1}): 2 + 2 states, no overlap.
        let a = prod(&[0, 9], &[(&[1], &[(0, 1), (1, 1)])], 1);
        let b = prod(&[1, 9], &[(&[1], &[(0, 1), (1, 1)])], 1);
        let u = Union::build(&[&a, &b], 2, &|| false).unwrap();
        assert_eq!(u.count(), Some(4));
        assert_eq!(u.boxes.len(), 2);
    }

    #[test]
    fn thirty_free_reads_are_two_to_the_thirty_states_in_one_term() {
        // The shape of xf-barrier under ptx-asplos15: 36 columns, 30 of them free
        // (0 or 1, one write each), 6 fixed at 1; the condition is `forall` every column
        // = 1. By hand: 2^30 states; of the 2^30 completions (factor 1) exactly one has
        // all 30 free reads at 1.
        let base = vec![1i64; 36];
        let vals: &[(i64, u64)] = &[(0, 1), (1, 1)];
        let cols: Vec<[usize; 1]> = (6..36).map(|c| [c]).collect();
        let dims: Vec<DimRef> = cols.iter().map(|c| (c.as_slice(), vals)).collect();
        let a = prod(&base, &dims, 1);
        let u = Union::build(&[&a, &a.clone()], 36, &|| false).unwrap();
        assert_eq!(u.count(), Some(1 << 30));
        assert_eq!(u.boxes.len(), 1);
        let terms: Vec<Term> = (0..36).map(col).collect();
        let all_ones = (0..36).map(|c| cmp(c, 1)).reduce(Prop::and).unwrap();
        assert_eq!(satisfying(&a, &terms, &all_ones), Some(1));
        assert_eq!(a.total(), 1 << 30);
    }

    #[test]
    fn satisfying_counts_weighted_completions() {
        // c1 ∈ {0 (1 write), 1 (2 writes)}, c2 ∈ {0 (1), 1 (3)}, factor 2: 3·4·2 = 24
        // completions. By hand: `c1=1 /\ c2=1`: 2·3·2 = 12; `c1=1 \/ c2=1`: all but
        // c1=0, c2=0 (1·1·2 = 2): 22; `c0=7` (fixed at 7): 24; `c1=c2`: (1·1 + 2·3)·2 =
        // 14; `~(c1=c2) /\ c0=8`: 0.
        let a = prod(
            &[7, 9, 9],
            &[(&[1], &[(0, 1), (1, 2)]), (&[2], &[(0, 1), (1, 3)])],
            2,
        );
        let cols: Vec<Term> = (0..3).map(col).collect();
        assert_eq!(a.total(), 24);
        let and = Prop::and(cmp(1, 1), cmp(2, 1));
        let or = Prop::or(cmp(1, 1), cmp(2, 1));
        let same = Prop::Cmp(col(1), CmpOp::Eq, col(2));
        let none = Prop::and(Prop::Not(Box::new(same.clone())), cmp(0, 8));
        assert_eq!(satisfying(&a, &cols, &and), Some(12));
        assert_eq!(satisfying(&a, &cols, &or), Some(22));
        assert_eq!(satisfying(&a, &cols, &cmp(0, 7)), Some(24));
        assert_eq!(satisfying(&a, &cols, &same), Some(14));
        assert_eq!(satisfying(&a, &cols, &none), Some(0));
    }

    #[test]
    fn term_lines_and_membership() {
        let t = StateTerm {
            groups: vec![
                (vec![0], vec![vec!["1".into()]]),
                (
                    vec![1, 3],
                    vec![vec!["0".into(), "0".into()], vec!["5".into(), "5".into()]],
                ),
                (vec![2], vec![vec!["0".into()], vec!["1".into()]]),
            ],
        };
        let cols: Vec<String> = ["0:r0", "0:r1", "1:r0", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(t.line(&cols), "0:r0=1; (0:r1,x)∈{(0,0),(5,5)}; 1:r0∈{0,1};");
        assert_eq!(t.states(), 4);
        let st = |v: [&str; 4]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(t.contains(&st(["1", "5", "1", "5"])));
        assert!(!t.contains(&st(["1", "5", "1", "0"])));
        assert!(!t.contains(&st(["0", "0", "0", "0"])));
    }

    /// A random product over `ncols` columns: each column fixed or shown by one of up
    /// to 3 reads (a read may show in several columns), values 0..3, 1..3 writes each.
    fn arb_product(ncols: usize) -> impl Strategy<Value = Product> {
        (
            proptest::collection::vec(0i64..3, ncols),
            proptest::collection::vec(0usize..4, ncols),
            proptest::collection::vec(proptest::collection::btree_map(0i64..3, 1u64..3, 1..3), 3),
            1u64..3,
        )
            .prop_map(move |(base, owner, vals, factor)| {
                let mut dims = Vec::new();
                for (d, vs) in vals.iter().enumerate() {
                    let cols: Vec<usize> = (0..ncols).filter(|&c| owner[c] == d + 1).collect();
                    if !cols.is_empty() {
                        dims.push((cols, vs.iter().map(|(v, m)| (*v, *m)).collect()));
                    }
                }
                Product { base, dims, factor }
            })
    }

    fn arb_prop(ncols: usize) -> impl Strategy<Value = Prop> {
        let term = prop_oneof![(0..ncols).prop_map(col), (0i64..3).prop_map(Term::Int),];
        let op = prop_oneof![
            Just(CmpOp::Eq),
            Just(CmpOp::Ne),
            Just(CmpOp::Lt),
            Just(CmpOp::Ge)
        ];
        let leaf = (term.clone(), op, term).prop_map(|(a, o, b)| Prop::Cmp(a, o, b));
        leaf.prop_recursive(3, 12, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Prop::and(a, b)),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Prop::or(a, b)),
                inner.prop_map(|a| Prop::Not(Box::new(a))),
            ]
        })
    }

    proptest! {
        /// The product form against full expansion: the same distinct states (each in
        /// exactly one box), and per product the same number of completions satisfying
        /// a random proposition.
        #[test]
        fn product_form_agrees_with_expansion(
            (ncols, products, prop) in (1usize..5).prop_flat_map(|n| (
                Just(n),
                proptest::collection::vec(arb_product(n), 1..6),
                arb_prop(n),
            )),
        ) {
            let refs: Vec<&Product> = products.iter().collect();
            let u = Union::build(&refs, ncols, &|| false).unwrap();
            let want = expanded(&refs);
            prop_assert_eq!(u.count(), Some(want.len() as u128));
            prop_assert_eq!(u.states(), want);
            let cols: Vec<Term> = (0..ncols).map(col).collect();
            for p in &products {
                let mut sat = 0u128;
                p.for_each(&mut |vals, m| {
                    let mut value = |t: &Term| match t {
                        Term::Reg { thread, .. } => vals[*thread],
                        Term::Int(i) => *i,
                        _ => 0,
                    };
                    if prop.eval(&mut value) {
                        sat += u128::from(m);
                    }
                });
                prop_assert_eq!(satisfying(p, &cols, &prop), Some(sat));
            }
        }
    }
}
