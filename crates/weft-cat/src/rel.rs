//! Dense event sets and binary relations over the events `0..n` of one execution.
//!
//! A [`BitSet`] is one bit per event; a [`Relation`] is an `n × n` bit matrix stored row by
//! row (row `a` holds the successors of `a`), so union, intersection and difference are
//! word-wise, composition ORs whole successor rows together, and transitive closure is
//! Warshall's algorithm on bit rows. These are the values the `.cat` interpreter computes
//! with (herd's "sets of events" and "relations over events", herd manual §"Model
//! definitions"); the simulator builds its base sets and relations in this form too.

use std::fmt;

const WORD: usize = 64;

fn words_for(n: usize) -> usize {
    n.div_ceil(WORD)
}

/// Mask of the valid bits in the last word of a row of `n` bits.
fn tail_mask(n: usize) -> u64 {
    match n % WORD {
        0 => u64::MAX,
        r => (1u64 << r) - 1,
    }
}

/// Iterates the indices of the set bits of a word slice, in increasing order.
fn iter_bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(wi, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                None
            } else {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(wi * WORD + b)
            }
        })
    })
}

/// A set of events of an execution with `n` events, one bit per event.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct BitSet {
    n: usize,
    words: Vec<u64>,
}

impl BitSet {
    /// The empty set over `n` events.
    pub fn new(n: usize) -> Self {
        BitSet {
            n,
            words: vec![0; words_for(n)],
        }
    }

    /// The set of all `n` events.
    pub fn full(n: usize) -> Self {
        let mut s = BitSet {
            n,
            words: vec![u64::MAX; words_for(n)],
        };
        s.trim();
        s
    }

    /// The set over `n` events holding the given events.
    ///
    /// # Panics
    /// If an event is `>= n`.
    pub fn from_events(n: usize, events: impl IntoIterator<Item = usize>) -> Self {
        let mut s = BitSet::new(n);
        for e in events {
            s.insert(e);
        }
        s
    }

    fn trim(&mut self) {
        if let Some(last) = self.words.last_mut() {
            *last &= tail_mask(self.n);
        }
    }

    /// The number of events of the execution (the size of the universe, not of the set).
    pub fn universe(&self) -> usize {
        self.n
    }

    /// Adds event `e`; returns whether it was absent.
    ///
    /// # Panics
    /// If `e >= universe()`.
    pub fn insert(&mut self, e: usize) -> bool {
        assert!(e < self.n, "event {e} out of range 0..{}", self.n);
        let (w, b) = (e / WORD, 1u64 << (e % WORD));
        let was = self.words[w] & b != 0;
        self.words[w] |= b;
        !was
    }

    /// Removes event `e` (no effect when absent or out of range).
    pub fn remove(&mut self, e: usize) {
        if e < self.n {
            self.words[e / WORD] &= !(1u64 << (e % WORD));
        }
    }

    /// Whether event `e` is in the set (false when out of range).
    pub fn contains(&self, e: usize) -> bool {
        e < self.n && self.words[e / WORD] & (1u64 << (e % WORD)) != 0
    }

    /// The number of events in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The events of the set in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        iter_bits(&self.words)
    }

    /// The smallest event of the set.
    pub fn first(&self) -> Option<usize> {
        self.iter().next()
    }

    /// `self ∪ other`.
    pub fn union(&self, other: &BitSet) -> BitSet {
        let mut r = self.clone();
        r.union_with(other);
        r
    }

    /// `self ∩ other`.
    pub fn intersection(&self, other: &BitSet) -> BitSet {
        let mut r = self.clone();
        r.intersect_with(other);
        r
    }

    /// `self \ other`.
    pub fn difference(&self, other: &BitSet) -> BitSet {
        let mut r = self.clone();
        r.difference_with(other);
        r
    }

    /// In place `self ∪= other`.
    pub fn union_with(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// In place `self ∩= other`.
    pub fn intersect_with(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= b;
        }
    }

    /// In place `self \= other`.
    pub fn difference_with(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= !b;
        }
    }

    /// The events of the universe not in the set.
    pub fn complement(&self) -> BitSet {
        let mut r = BitSet {
            n: self.n,
            words: self.words.iter().map(|w| !w).collect(),
        };
        r.trim();
        r
    }

    /// Whether every event of `self` is in `other`.
    pub fn is_subset(&self, other: &BitSet) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .all(|(a, b)| a & !b == 0)
    }
}

impl fmt::Debug for BitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// A binary relation over the events `0..n`: an `n × n` bit matrix, row `a` = successors of `a`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Relation {
    n: usize,
    stride: usize,
    bits: Vec<u64>,
}

impl Relation {
    /// The empty relation over `n` events.
    pub fn new(n: usize) -> Self {
        let stride = words_for(n);
        Relation {
            n,
            stride,
            bits: vec![0; stride * n],
        }
    }

    /// The relation holding every pair of events (herd's `_ * _`).
    pub fn full(n: usize) -> Self {
        let full = BitSet::full(n);
        Relation::cartesian(&full, &full)
    }

    /// The identity relation on all `n` events (herd's `id`).
    pub fn identity(n: usize) -> Self {
        Relation::identity_on(&BitSet::full(n))
    }

    /// The identity relation on the events of `s` (herd's `[s]`).
    pub fn identity_on(s: &BitSet) -> Self {
        let mut r = Relation::new(s.universe());
        for e in s.iter() {
            r.insert(e, e);
        }
        r
    }

    /// The cartesian product `a × b` (herd's `a * b`).
    pub fn cartesian(a: &BitSet, b: &BitSet) -> Self {
        let mut r = Relation::new(a.universe());
        for e in a.iter() {
            r.row_mut(e).copy_from_slice(&b.words);
        }
        r
    }

    /// The relation over `n` events holding the given pairs.
    ///
    /// # Panics
    /// If an event of a pair is `>= n`.
    pub fn from_pairs(n: usize, pairs: impl IntoIterator<Item = (usize, usize)>) -> Self {
        let mut r = Relation::new(n);
        for (a, b) in pairs {
            r.insert(a, b);
        }
        r
    }

    /// The number of events of the execution.
    pub fn universe(&self) -> usize {
        self.n
    }

    fn row(&self, a: usize) -> &[u64] {
        &self.bits[a * self.stride..(a + 1) * self.stride]
    }

    fn row_mut(&mut self, a: usize) -> &mut [u64] {
        &mut self.bits[a * self.stride..(a + 1) * self.stride]
    }

    /// Adds the pair `(a, b)`; returns whether it was absent.
    ///
    /// # Panics
    /// If `a` or `b` is `>= universe()`.
    pub fn insert(&mut self, a: usize, b: usize) -> bool {
        assert!(
            a < self.n && b < self.n,
            "pair ({a}, {b}) out of range 0..{}",
            self.n
        );
        let i = a * self.stride + b / WORD;
        let bit = 1u64 << (b % WORD);
        let was = self.bits[i] & bit != 0;
        self.bits[i] |= bit;
        !was
    }

    /// Removes the pair `(a, b)` (no effect when absent or out of range).
    pub fn remove(&mut self, a: usize, b: usize) {
        if a < self.n && b < self.n {
            self.bits[a * self.stride + b / WORD] &= !(1u64 << (b % WORD));
        }
    }

    /// Whether `(a, b)` is in the relation (false when out of range).
    pub fn contains(&self, a: usize, b: usize) -> bool {
        a < self.n
            && b < self.n
            && self.bits[a * self.stride + b / WORD] & (1u64 << (b % WORD)) != 0
    }

    /// The number of pairs.
    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the relation has no pair.
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }

    /// The successors of `a`, in increasing order (empty when out of range).
    pub fn successors(&self, a: usize) -> impl Iterator<Item = usize> + '_ {
        let row: &[u64] = if a < self.n { self.row(a) } else { &[] };
        iter_bits(row)
    }

    /// The successors of `a` as a set.
    pub fn successor_set(&self, a: usize) -> BitSet {
        let mut s = BitSet::new(self.n);
        if a < self.n {
            s.words.copy_from_slice(self.row(a));
        }
        s
    }

    /// All pairs, ordered by source then target.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.n).flat_map(move |a| self.successors(a).map(move |b| (a, b)))
    }

    /// The first pair in [`Relation::iter`] order.
    pub fn first(&self) -> Option<(usize, usize)> {
        self.iter().next()
    }

    fn zip_with(&self, other: &Relation, f: impl Fn(u64, u64) -> u64) -> Relation {
        Relation {
            n: self.n,
            stride: self.stride,
            bits: self
                .bits
                .iter()
                .zip(&other.bits)
                .map(|(&a, &b)| f(a, b))
                .collect(),
        }
    }

    /// `self ∪ other` (herd's `|`).
    pub fn union(&self, other: &Relation) -> Relation {
        self.zip_with(other, |a, b| a | b)
    }

    /// `self ∩ other` (herd's `&`).
    pub fn intersection(&self, other: &Relation) -> Relation {
        self.zip_with(other, |a, b| a & b)
    }

    /// `self \ other` (herd's `\`).
    pub fn difference(&self, other: &Relation) -> Relation {
        self.zip_with(other, |a, b| a & !b)
    }

    /// In place `self ∪= other`; returns whether a pair was added.
    pub fn union_with(&mut self, other: &Relation) -> bool {
        let mut changed = false;
        for (a, &b) in self.bits.iter_mut().zip(&other.bits) {
            let new = *a | b;
            changed |= new != *a;
            *a = new;
        }
        changed
    }

    /// All pairs not in the relation (herd's `~r`).
    pub fn complement(&self) -> Relation {
        let mask = tail_mask(self.n);
        let mut r = Relation {
            n: self.n,
            stride: self.stride,
            bits: self.bits.iter().map(|w| !w).collect(),
        };
        if self.stride > 0 {
            for a in 0..self.n {
                r.bits[a * self.stride + self.stride - 1] &= mask;
            }
        }
        r
    }

    /// The converse `{(b, a) | (a, b) ∈ self}` (herd's `r^-1`).
    pub fn inverse(&self) -> Relation {
        let mut r = Relation::new(self.n);
        for (a, b) in self.iter() {
            r.insert(b, a);
        }
        r
    }

    /// Composition `self ; other = {(a, c) | ∃b. (a, b) ∈ self ∧ (b, c) ∈ other}` (herd's `;`).
    pub fn compose(&self, other: &Relation) -> Relation {
        let mut r = Relation::new(self.n);
        let stride = self.stride;
        for a in 0..self.n {
            let (src, dst) = (&self.bits[a * stride..(a + 1) * stride], a * stride);
            for b in iter_bits(src) {
                let orow = &other.bits[b * stride..(b + 1) * stride];
                for (d, &o) in r.bits[dst..dst + stride].iter_mut().zip(orow) {
                    *d |= o;
                }
            }
        }
        r
    }

    /// The transitive closure `r+`. An acyclic relation (the common case: `hb`, `po`
    /// unions) is closed in one pass over a reverse topological order, each row the union
    /// of its successors' closed rows (linear in pairs times row words); a cyclic one by
    /// Warshall's algorithm on bit rows.
    pub fn transitive_closure(&self) -> Relation {
        match self.reverse_topological_order() {
            Some(order) => {
                let mut r = self.clone();
                let stride = self.stride;
                let mut acc = vec![0u64; stride];
                for &v in &order {
                    let base = v * stride;
                    acc.copy_from_slice(&r.bits[base..base + stride]);
                    for s in iter_bits(&self.bits[base..base + stride]) {
                        let sb = s * stride;
                        for (d, &o) in acc.iter_mut().zip(&r.bits[sb..sb + stride]) {
                            *d |= o;
                        }
                    }
                    r.bits[base..base + stride].copy_from_slice(&acc);
                }
                r
            }
            None => self.warshall(),
        }
    }

    /// Every event, successors before predecessors, or `None` when the relation has a
    /// cycle (a self-loop included).
    fn reverse_topological_order(&self) -> Option<Vec<usize>> {
        let stride = self.stride;
        let mut indeg = vec![0u32; self.n];
        for a in 0..self.n {
            for b in iter_bits(&self.bits[a * stride..(a + 1) * stride]) {
                indeg[b] += 1;
            }
        }
        let mut ready: Vec<usize> = (0..self.n).filter(|&e| indeg[e] == 0).collect();
        let mut order = Vec::with_capacity(self.n);
        while let Some(a) = ready.pop() {
            order.push(a);
            for b in iter_bits(&self.bits[a * stride..(a + 1) * stride]) {
                indeg[b] -= 1;
                if indeg[b] == 0 {
                    ready.push(b);
                }
            }
        }
        if order.len() < self.n {
            return None;
        }
        order.reverse();
        Some(order)
    }

    /// The transitive closure by Warshall's algorithm on bit rows (any relation).
    fn warshall(&self) -> Relation {
        let mut r = self.clone();
        let stride = self.stride;
        let mut krow = vec![0u64; stride];
        for k in 0..self.n {
            krow.copy_from_slice(r.row(k));
            if krow.iter().all(|&w| w == 0) {
                continue;
            }
            let (kw, kb) = (k / WORD, 1u64 << (k % WORD));
            for i in 0..self.n {
                let base = i * stride;
                if r.bits[base + kw] & kb != 0 {
                    for (d, &o) in r.bits[base..base + stride].iter_mut().zip(&krow) {
                        *d |= o;
                    }
                }
            }
        }
        r
    }

    /// The reflexive-transitive closure `r*` = `r+ ∪ id` over all events.
    pub fn reflexive_transitive_closure(&self) -> Relation {
        let mut r = self.transitive_closure();
        r.add_identity();
        r
    }

    /// Adds every pair `(e, e)`.
    fn add_identity(&mut self) {
        for e in 0..self.n {
            self.bits[e * self.stride + e / WORD] |= 1u64 << (e % WORD);
        }
    }

    /// In place: keeps the pairs whose source is in `dom` (`[dom] ; self`).
    pub fn restrict_sources(&mut self, dom: &BitSet) {
        for a in 0..self.n {
            if !dom.contains(a) {
                self.row_mut(a).fill(0);
            }
        }
    }

    /// In place: keeps the pairs whose target is in `ran` (`self ; [ran]`).
    pub fn restrict_targets(&mut self, ran: &BitSet) {
        let stride = self.stride;
        if stride == 0 {
            return;
        }
        for row in self.bits.chunks_exact_mut(stride) {
            for (d, &m) in row.iter_mut().zip(&ran.words) {
                *d &= m;
            }
        }
    }

    /// The reflexive closure `r?` = `r ∪ id` over all events.
    pub fn reflexive_closure(&self) -> Relation {
        let mut r = self.clone();
        r.add_identity();
        r
    }

    /// The events with a successor (herd's `domain(r)`).
    pub fn domain(&self) -> BitSet {
        let mut s = BitSet::new(self.n);
        for a in 0..self.n {
            if self.row(a).iter().any(|&w| w != 0) {
                s.insert(a);
            }
        }
        s
    }

    /// The events with a predecessor (herd's `range(r)`).
    pub fn range(&self) -> BitSet {
        let mut s = BitSet::new(self.n);
        for a in 0..self.n {
            for (d, &w) in s.words.iter_mut().zip(self.row(a)) {
                *d |= w;
            }
        }
        s
    }

    /// The pairs whose source is in `dom` and whose target is in `ran`.
    pub fn restrict(&self, dom: &BitSet, ran: &BitSet) -> Relation {
        let mut r = Relation::new(self.n);
        for a in dom.iter() {
            let base = a * self.stride;
            for ((d, &w), &m) in r.bits[base..base + self.stride]
                .iter_mut()
                .zip(self.row(a))
                .zip(&ran.words)
            {
                *d = w & m;
            }
        }
        r
    }

    /// Whether every pair of `self` is in `other`.
    pub fn is_subset(&self, other: &Relation) -> bool {
        self.bits.iter().zip(&other.bits).all(|(a, b)| a & !b == 0)
    }

    /// Whether no event is related to itself (herd's `irreflexive r`).
    pub fn is_irreflexive(&self) -> bool {
        self.reflexive_event().is_none()
    }

    /// The smallest event related to itself, if any.
    pub fn reflexive_event(&self) -> Option<usize> {
        (0..self.n).find(|&a| self.contains(a, a))
    }

    /// Whether the relation has no cycle (herd's `acyclic r`); a self-loop is a cycle.
    pub fn is_acyclic(&self) -> bool {
        self.find_cycle().is_none()
    }

    /// A cycle `[e0, e1, ..., ek]` with `(ei, ei+1)` and `(ek, e0)` in the relation, if any.
    ///
    /// Iterative depth-first search: a back edge to a node on the current path closes a
    /// cycle, which is the path suffix from that node. Linear in events plus pairs.
    pub fn find_cycle(&self) -> Option<Vec<usize>> {
        const WHITE: u8 = 0;
        const GREY: u8 = 1;
        const BLACK: u8 = 2;
        let mut colour = vec![WHITE; self.n];
        let mut path_pos = vec![usize::MAX; self.n];
        // Stack of (node, next candidate successor index).
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for root in 0..self.n {
            if colour[root] != WHITE {
                continue;
            }
            colour[root] = GREY;
            path_pos[root] = 0;
            stack.push((root, 0));
            while let Some(top) = stack.last_mut() {
                let node = top.0;
                match self.next_successor(node, top.1) {
                    Some(s) => {
                        top.1 = s + 1;
                        match colour[s] {
                            WHITE => {
                                colour[s] = GREY;
                                path_pos[s] = stack.len();
                                stack.push((s, 0));
                            }
                            GREY => {
                                return Some(
                                    stack[path_pos[s]..].iter().map(|&(e, _)| e).collect(),
                                );
                            }
                            _ => {}
                        }
                    }
                    None => {
                        colour[node] = BLACK;
                        stack.pop();
                    }
                }
            }
        }
        None
    }

    /// The smallest successor of `a` that is `>= from`.
    fn next_successor(&self, a: usize, from: usize) -> Option<usize> {
        if from >= self.n {
            return None;
        }
        let row = self.row(a);
        let mut wi = from / WORD;
        let mut w = row[wi] & (u64::MAX << (from % WORD));
        loop {
            if w != 0 {
                return Some(wi * WORD + w.trailing_zeros() as usize);
            }
            wi += 1;
            if wi >= row.len() {
                return None;
            }
            w = row[wi];
        }
    }

    /// A topological order of the events of `set` compatible with the relation restricted
    /// to `set`, or `None` when that restriction is cyclic.
    pub fn topological_order(&self, set: &BitSet) -> Option<Vec<usize>> {
        let mut indeg = vec![0usize; self.n];
        for a in set.iter() {
            for b in self.successors(a) {
                if set.contains(b) && a != b {
                    indeg[b] += 1;
                } else if a == b {
                    return None;
                }
            }
        }
        let mut ready: Vec<usize> = set.iter().filter(|&e| indeg[e] == 0).collect();
        ready.reverse();
        let mut out = Vec::with_capacity(set.len());
        while let Some(a) = ready.pop() {
            out.push(a);
            for b in self.successors(a) {
                if set.contains(b) && a != b {
                    indeg[b] -= 1;
                    if indeg[b] == 0 {
                        ready.push(b);
                    }
                }
            }
        }
        (out.len() == set.len()).then_some(out)
    }
}

impl fmt::Debug for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_basics_across_word_boundary() {
        let mut s = BitSet::new(130);
        assert!(s.insert(0));
        assert!(s.insert(64));
        assert!(s.insert(129));
        assert!(!s.insert(129));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 64, 129]);
        assert_eq!(s.len(), 3);
        let c = s.complement();
        assert_eq!(c.len(), 127);
        assert!(!c.contains(64) && c.contains(65));
        assert!(!c.contains(130));
        assert_eq!(BitSet::full(130).len(), 130);
    }

    #[test]
    fn compose_and_closure_on_a_chain() {
        let r = Relation::from_pairs(70, (0..69).map(|i| (i, i + 1)));
        let two = r.compose(&r);
        assert!(two.contains(0, 2) && !two.contains(0, 1));
        let plus = r.transitive_closure();
        assert!(plus.contains(0, 69) && !plus.contains(69, 0));
        assert_eq!(plus.len(), 69 * 70 / 2);
        assert!(plus.is_acyclic() && plus.is_irreflexive());
    }

    #[test]
    fn closure_of_cyclic_and_acyclic_relations_agree_with_warshall() {
        // A pseudo-random relation per seed, over a size crossing a word boundary; every
        // fourth one has a back edge (cyclic).
        let mut seed = 12345u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..40 {
            let n = 1 + (next() % 130) as usize;
            let mut r = Relation::new(n);
            for _ in 0..(next() % (2 * n as u64 + 1)) {
                let (a, b) = ((next() as usize) % n, (next() as usize) % n);
                if round % 4 == 0 || a < b {
                    r.insert(a, b);
                }
            }
            assert_eq!(r.transitive_closure(), r.warshall(), "round {round}");
            let mut star = r.warshall();
            star.union_with(&Relation::identity(n));
            assert_eq!(r.reflexive_transitive_closure(), star);
            let dom = BitSet::from_events(n, (0..n).filter(|e| e % 3 == 0));
            let mut rows = r.clone();
            rows.restrict_sources(&dom);
            assert_eq!(rows, Relation::identity_on(&dom).compose(&r));
            let mut cols = r.clone();
            cols.restrict_targets(&dom);
            assert_eq!(cols, r.compose(&Relation::identity_on(&dom)));
        }
    }

    #[test]
    fn cycle_is_reported_in_edge_order() {
        let r = Relation::from_pairs(5, [(0, 1), (1, 2), (2, 3), (3, 1), (4, 0)]);
        let c = r.find_cycle().unwrap();
        assert_eq!(c, vec![1, 2, 3]);
        for i in 0..c.len() {
            assert!(r.contains(c[i], c[(i + 1) % c.len()]));
        }
        let selfloop = Relation::from_pairs(3, [(2, 2)]);
        assert_eq!(selfloop.find_cycle(), Some(vec![2]));
    }

    #[test]
    fn complement_masks_tail_bits() {
        let r = Relation::new(3).complement();
        assert_eq!(r.len(), 9);
        assert_eq!(Relation::full(3), r);
        assert_eq!(Relation::new(0).complement().len(), 0);
    }

    #[test]
    fn topological_order_respects_edges() {
        let r = Relation::from_pairs(4, [(3, 1), (1, 0)]);
        let all = BitSet::full(4);
        let order = r.topological_order(&all).unwrap();
        let pos = |e: usize| order.iter().position(|&x| x == e).unwrap();
        assert!(pos(3) < pos(1) && pos(1) < pos(0));
        let cyc = Relation::from_pairs(2, [(0, 1), (1, 0)]);
        assert!(cyc.topological_order(&BitSet::full(2)).is_none());
    }
}
