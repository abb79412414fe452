//! The final states of a litmus exploration, in memory bounded by the search rather than
//! by the output (issue 28 item 2): each column's values are interned (a code per distinct
//! value, in order of first appearance) and a state is the mixed-radix number of its codes,
//! column 0 most significant, indexing a dense table of execution counts and
//! condition bits. A ring of 22 threads whose condition names every register has 2^22 − 1
//! states: 16 MB of counts instead of a map of 4 million string vectors. Past
//! [`DENSE_BITS`] bits of codes the table falls back to a map of raw values.
//!
//! [`StateTable::finish`] gives the states as `weft sim` prints them: one per line while
//! there are at most `max_states`, else in product form (docs/formats.md, "Product form"):
//! at each column, the values whose sub-tables (the states of the remaining columns) hold
//! the same states form one group, so a set like "every combination but all zeros" is
//! printed as one line per column instead of one per state. Terms are disjoint and cover
//! every state exactly once; the counts (`Positive`, `Negative`) are kept apart, exact.

use std::collections::{BTreeMap, HashMap};

use weft_exec::{StateInfo, StateTerm};

/// Most bits of a dense table's index (2^24 counts of 4 bytes: 64 MB).
pub const DENSE_BITS: u32 = 24;

/// The states found so far.
#[derive(Debug)]
pub struct StateTable {
    /// Per column: the values in order of first appearance, and their codes.
    values: Vec<Vec<i64>>,
    codes: Vec<HashMap<i64, u32>>,
    /// Per column: the bits of its codes in the index.
    bits: Vec<u32>,
    /// Dense: executions per state index, and whether the state satisfies the condition.
    counts: Vec<u32>,
    sat: Vec<u64>,
    /// Past [`DENSE_BITS`]: states by their raw values.
    sparse: Option<HashMap<Box<[i64]>, StateInfo>>,
}

/// What [`StateTable::finish`] gives: the states listed one by one, the product terms of
/// the others, and the number of distinct states.
pub type Finished = (BTreeMap<Vec<String>, StateInfo>, Vec<StateTerm>, u64);

impl StateTable {
    pub fn new(columns: usize) -> StateTable {
        StateTable {
            values: vec![Vec::new(); columns],
            codes: vec![HashMap::new(); columns],
            bits: vec![0; columns],
            counts: vec![0],
            sat: vec![0],
            sparse: None,
        }
    }

    /// The index of a state given its codes.
    fn index(&self, codes: &[u32]) -> usize {
        codes
            .iter()
            .zip(&self.bits)
            .fold(0usize, |acc, (&c, &b)| (acc << b) | c as usize)
    }

    /// The codes of an index.
    fn decode(&self, mut idx: usize) -> Vec<u32> {
        let mut codes = vec![0u32; self.bits.len()];
        for (c, &b) in self.bits.iter().enumerate().rev() {
            codes[c] = (idx & ((1usize << b) - 1)) as u32;
            idx >>= b;
        }
        codes
    }

    /// Re-lays the dense table out for `bits` (each at least the old width).
    fn relayout(&mut self, bits: Vec<u32>) {
        let old = std::mem::replace(self, StateTable::new(0));
        let size = 1usize << bits.iter().sum::<u32>();
        *self = StateTable {
            values: old.values.clone(),
            codes: old.codes.clone(),
            bits,
            counts: vec![0; size],
            sat: vec![0; size.div_ceil(64)],
            sparse: None,
        };
        for (i, &n) in old.counts.iter().enumerate() {
            if n > 0 {
                let j = self.index(&old.decode(i));
                self.counts[j] = n;
                if old.sat[i / 64] >> (i % 64) & 1 == 1 {
                    self.sat[j / 64] |= 1 << (j % 64);
                }
            }
        }
    }

    /// Moves every state to the sparse map (the codes no longer fit [`DENSE_BITS`]).
    fn make_sparse(&mut self) {
        let mut m: HashMap<Box<[i64]>, StateInfo> = HashMap::new();
        for (i, &n) in self.counts.iter().enumerate() {
            if n > 0 {
                let vals: Box<[i64]> = self
                    .decode(i)
                    .iter()
                    .enumerate()
                    .map(|(c, &k)| self.values[c][k as usize])
                    .collect();
                m.insert(
                    vals,
                    StateInfo {
                        executions: n as u64,
                        satisfies: self.sat[i / 64] >> (i % 64) & 1 == 1,
                    },
                );
            }
        }
        self.counts = Vec::new();
        self.sat = Vec::new();
        self.sparse = Some(m);
    }

    /// Records an execution ending in `vals` (one value per column).
    pub fn add(&mut self, vals: &[i64], satisfies: bool, executions: u64) {
        if let Some(m) = &mut self.sparse {
            let s = m.entry(vals.into()).or_default();
            s.executions += executions;
            s.satisfies = satisfies;
            return;
        }
        let mut codes = Vec::with_capacity(vals.len());
        let mut grow: Option<Vec<u32>> = None;
        for (c, &v) in vals.iter().enumerate() {
            let next = self.values[c].len() as u32;
            let code = *self.codes[c].entry(v).or_insert(next);
            if code == next {
                self.values[c].push(v);
                let need = u32::BITS - next.leading_zeros();
                if need > self.bits[c] {
                    grow.get_or_insert_with(|| self.bits.clone())[c] = need;
                }
            }
            codes.push(code);
        }
        if let Some(bits) = grow {
            if bits.iter().sum::<u32>() > DENSE_BITS {
                self.make_sparse();
                return self.add(vals, satisfies, executions);
            }
            self.relayout(bits);
        }
        let i = self.index(&codes);
        self.counts[i] = self.counts[i].saturating_add(executions.min(u32::MAX as u64) as u32);
        if satisfies {
            self.sat[i / 64] |= 1 << (i % 64);
        }
    }

    /// The number of distinct states.
    pub fn len(&self) -> u64 {
        match &self.sparse {
            Some(m) => m.len() as u64,
            None => self.counts.iter().filter(|&&n| n > 0).count() as u64,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The states one per line (at most `max_states` of them, or any number with `None`),
    /// else in product form; `text` prints a value.
    pub fn finish(self, max_states: Option<u64>, text: &dyn Fn(i64) -> String) -> Finished {
        let n = self.len();
        let mut listed = BTreeMap::new();
        if let Some(m) = self.sparse {
            for (vals, info) in m {
                listed.insert(vals.iter().map(|&v| text(v)).collect(), info);
            }
            return (listed, Vec::new(), n);
        }
        if max_states.is_none_or(|m| n <= m) {
            for (i, &k) in self.counts.iter().enumerate() {
                if k > 0 {
                    let vals = self
                        .decode(i)
                        .iter()
                        .enumerate()
                        .map(|(c, &code)| text(self.values[c][code as usize]))
                        .collect();
                    let info = StateInfo {
                        executions: k as u64,
                        satisfies: self.sat[i / 64] >> (i % 64) & 1 == 1,
                    };
                    listed.insert(vals, info);
                }
            }
            return (listed, Vec::new(), n);
        }
        let mut terms = Vec::new();
        let mut prefix = Vec::new();
        self.products(0, 0, &mut prefix, &mut terms);
        let terms = terms
            .into_iter()
            .map(|groups: Vec<Vec<u32>>| StateTerm {
                groups: groups
                    .into_iter()
                    .enumerate()
                    .map(|(c, codes)| {
                        let mut vals: Vec<Vec<String>> = codes
                            .iter()
                            .map(|&k| vec![text(self.values[c][k as usize])])
                            .collect();
                        vals.sort();
                        (vec![c], vals)
                    })
                    .collect(),
            })
            .collect();
        (listed, terms, n)
    }

    /// The product terms of the sub-table of columns `c..` starting at `base`: the codes of
    /// column `c` whose sub-tables hold the same states form one group.
    fn products(
        &self,
        c: usize,
        base: usize,
        prefix: &mut Vec<Vec<u32>>,
        out: &mut Vec<Vec<Vec<u32>>>,
    ) {
        if c == self.bits.len() {
            if self.counts[base] > 0 {
                out.push(prefix.clone());
            }
            return;
        }
        let stride = 1usize << self.bits[c + 1..].iter().sum::<u32>();
        let block = |k: usize| &self.counts[base + k * stride..base + (k + 1) * stride];
        let mut classes: Vec<Vec<u32>> = Vec::new();
        for k in 0..self.values[c].len() {
            let b = block(k);
            if b.iter().all(|&n| n == 0) {
                continue;
            }
            let same = |x: &[u32], y: &[u32]| x.iter().zip(y).all(|(a, b)| (*a > 0) == (*b > 0));
            match classes.iter_mut().find(|cl| same(block(cl[0] as usize), b)) {
                Some(cl) => cl.push(k as u32),
                None => classes.push(vec![k as u32]),
            }
        }
        for cl in classes {
            let first = base + cl[0] as usize * stride;
            prefix.push(cl);
            self.products(c + 1, first, prefix, out);
            prefix.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: i64) -> String {
        v.to_string()
    }

    /// Every combination of `n` bits but the all-ones one, as load buffering leaves them.
    fn all_but_ones(n: usize) -> StateTable {
        let mut t = StateTable::new(n);
        for s in 0..(1u32 << n) - 1 {
            let vals: Vec<i64> = (0..n).map(|c| (s >> (n - 1 - c) & 1) as i64).collect();
            t.add(&vals, false, 2);
        }
        t
    }

    #[test]
    fn listed_states_keep_their_counts_in_herd_order() {
        let (listed, terms, n) = all_but_ones(3).finish(None, &text);
        assert_eq!(n, 7);
        assert!(terms.is_empty());
        let keys: Vec<String> = listed.keys().map(|k| k.join("")).collect();
        assert_eq!(keys, ["000", "001", "010", "011", "100", "101", "110"]);
        assert!(listed.values().all(|s| s.executions == 2));
    }

    #[test]
    fn product_form_covers_each_state_once() {
        // 2^n - 1 states: "0 then anything but all ones" or "1 then all-but-ones below",
        // one term per column: n terms.
        let n = 6;
        let (listed, terms, count) = all_but_ones(n).finish(Some(10), &text);
        assert!(listed.is_empty());
        assert_eq!(count, 63);
        assert_eq!(terms.len(), n);
        assert_eq!(terms.iter().map(|t| t.states()).sum::<u128>(), 63);
        for s in 0..1u32 << n {
            let vals: Vec<String> = (0..n).map(|c| (s >> (n - 1 - c) & 1).to_string()).collect();
            let hits = terms.iter().filter(|t| t.contains(&vals)).count();
            assert_eq!(hits, usize::from(s != (1 << n) - 1), "{vals:?}");
        }
    }

    #[test]
    fn columns_grow_and_fall_back_to_a_map_past_the_dense_bits() {
        let mut t = StateTable::new(2);
        for (a, b) in [(5, 0), (7, 1), (9, 2), (5, 2)] {
            t.add(&[a, b], a == 9, 1);
        }
        let (listed, _, n) = t.finish(Some(100), &text);
        assert_eq!(n, 4);
        assert!(listed[&vec!["9".to_string(), "2".to_string()]].satisfies);
        assert!(!listed[&vec!["5".to_string(), "2".to_string()]].satisfies);
        // DENSE_BITS + 1 binary columns: sparse, same states.
        let cols = DENSE_BITS as usize + 1;
        let mut t = StateTable::new(cols);
        t.add(&vec![0; cols], false, 1);
        t.add(&vec![1; cols], true, 3);
        t.add(&vec![1; cols], true, 1);
        assert!(t.sparse.is_some());
        let (listed, terms, n) = t.finish(Some(1), &text);
        assert_eq!((n, terms.len()), (2, 0));
        assert_eq!(listed[&vec!["1".to_string(); cols]].executions, 4);
    }
}
