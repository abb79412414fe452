//! Enumeration of every cycle up to a size over relax and safe edge sets, as diy7 does
//! (`-size`, `-nprocs`, `-relax`, `-safe`, `-mix`, `-maxrelax`): each cycle holds at least
//! one relaxed edge (exactly one kind of them unless mixing), the others safe; cycles are
//! kept once up to rotation (the sequence must be its own least rotation) and then named
//! and rotated as diy7 names them.

use std::collections::BTreeMap;

use crate::cycle::{composable, edge_order, Cycle};
use crate::edge::Edge;
use crate::name::normalise;

/// What to enumerate.
#[derive(Clone, Debug)]
pub struct Spec {
    pub relax: Vec<Edge>,
    pub safe: Vec<Edge>,
    /// Largest number of edges in a cycle.
    pub size: usize,
    /// Largest number of threads.
    pub nprocs: usize,
    /// Mix relaxations: a cycle may hold several kinds of relaxed edges.
    pub mix: bool,
    /// With `mix`, at most this many kinds of relaxed edges per cycle.
    pub max_relax: usize,
    /// Placement of threads joined by an unqualified communication (GPU cycles).
    pub placement: weft_ir::Scope,
    /// Most accesses per thread (diy7's `-ins`, default 4).
    pub ins: usize,
}

/// One generated test: the cycle in the rotation the test is built from, its name, and
/// the relaxed and safe edges it uses.
#[derive(Clone, Debug)]
pub struct Generated {
    pub cycle: Cycle,
    pub name: String,
    pub relax: Vec<Edge>,
    pub safe: Vec<Edge>,
}

/// Every cycle of `spec`, sorted by name (names are unique; a clash gets a numeric suffix).
pub fn enumerate(spec: &Spec) -> Vec<Generated> {
    let mut pools: Vec<(Vec<Edge>, Vec<Edge>)> = Vec::new();
    if spec.relax.is_empty() {
        pools.push((Vec::new(), spec.safe.clone()));
    } else if spec.mix {
        pools.push((spec.relax.clone(), spec.safe.clone()));
    } else {
        for r in &spec.relax {
            let safe: Vec<Edge> = spec.safe.iter().filter(|s| *s != r).copied().collect();
            pools.push((vec![*r], safe));
        }
    }
    let mut out: BTreeMap<Vec<Edge>, Generated> = BTreeMap::new();
    let mut tests = std::collections::HashSet::new();
    for (relax, safe) in &pools {
        let mut alphabet: Vec<Edge> = relax.clone();
        for s in safe {
            if !alphabet.contains(s) {
                alphabet.push(*s);
            }
        }
        alphabet.sort();
        let mut seq = Vec::with_capacity(spec.size);
        let mut found = Vec::new();
        extend(spec, &alphabet, &mut seq, 0, &mut found);
        for edges in found {
            let used_relax: Vec<Edge> = dedup_sorted(edges.iter().filter(|e| relax.contains(e)));
            if relax.is_empty() != used_relax.is_empty() {
                continue;
            }
            if spec.mix && used_relax.len() > spec.max_relax {
                continue;
            }
            let key = edges.clone();
            if out.contains_key(&key) {
                continue;
            }
            let Ok(c) = Cycle::new(edges.clone()) else {
                continue;
            };
            if !c.diy_valid() {
                continue;
            }
            if c.layout().threads.iter().any(|t| t.len() > spec.ins) {
                continue;
            }
            if c.edges.iter().any(|e| e.quals.scope.is_some())
                && !crate::build::placement_consistent(&c, spec.placement)
            {
                continue;
            }
            // Two cycles differing only in annotations their neighbours imply are one test.
            if !tests.insert(c.annotated().rotation_key()) {
                continue;
            }
            let used_safe: Vec<Edge> = dedup_sorted(
                edges
                    .iter()
                    .filter(|e| !relax.contains(e) && safe.contains(e)),
            );
            let (cycle, name) = normalise(&c);
            out.insert(
                key,
                Generated {
                    cycle,
                    name,
                    relax: used_relax,
                    safe: used_safe,
                },
            );
        }
    }
    let mut v: Vec<Generated> = out.into_values().collect();
    v.sort_by(|a, b| a.name.cmp(&b.name));
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for g in &mut v {
        let k = seen.entry(g.name.clone()).or_insert(0);
        *k += 1;
        if *k > 1 {
            g.name = format!("{}{:03}", g.name, *k - 1);
        }
    }
    v
}

fn dedup_sorted<'a>(it: impl Iterator<Item = &'a Edge>) -> Vec<Edge> {
    let mut v: Vec<Edge> = it.copied().collect();
    v.sort_by(edge_order);
    v.dedup();
    v
}

/// Depth-first extension of `seq`, keeping only sequences that are their own least
/// rotation (so each cycle is met once) and whose neighbours compose.
fn extend(
    spec: &Spec,
    alphabet: &[Edge],
    seq: &mut Vec<Edge>,
    ext: usize,
    found: &mut Vec<Vec<Edge>>,
) {
    if seq.len() >= 2 {
        let first = &seq[0];
        let last = &seq[seq.len() - 1];
        if composable(last, first) && ext >= 2 && is_least_rotation(seq) {
            found.push(seq.clone());
        }
    }
    if seq.len() == spec.size {
        return;
    }
    for e in alphabet {
        if let Some(last) = seq.last() {
            if !composable(last, e) {
                continue;
            }
        }
        // A necklace never starts with an edge greater than a later one it begins with.
        if let Some(first) = seq.first() {
            if e < first {
                continue;
            }
        }
        let ne = ext + e.is_ext() as usize;
        if ne > spec.nprocs {
            continue;
        }
        seq.push(*e);
        extend(spec, alphabet, seq, ne, found);
        seq.pop();
    }
}

fn is_least_rotation(s: &[Edge]) -> bool {
    let n = s.len();
    (1..n).all(|i| {
        for k in 0..n {
            let (a, b) = (&s[k], &s[(i + k) % n]);
            if a != b {
                return a < b;
            }
        }
        true
    })
}
