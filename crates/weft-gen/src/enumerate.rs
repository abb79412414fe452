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
    /// Most tests; more is an error rather than an unbounded run.
    pub max_tests: usize,
    /// Give up past this instant.
    pub deadline: Option<std::time::Instant>,
}

/// An enumeration that went past its bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnumError {
    /// More than `max_tests` tests.
    #[error("more than {0} tests (raise the limit, or lower --size/--nprocs)")]
    TooMany(usize),
    /// The deadline passed.
    #[error("the enumeration ran past its time limit")]
    Timeout,
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

/// Every cycle of `spec`, sorted by name (names are unique; a clash gets a numeric suffix),
/// or an error past `spec.max_tests` tests or `spec.deadline`.
pub fn enumerate(spec: &Spec) -> Result<Vec<Generated>, EnumError> {
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
    let mut failure: Option<EnumError> = None;
    for (relax, safe) in &pools {
        let mut alphabet: Vec<Edge> = relax.clone();
        for s in safe {
            if !alphabet.contains(s) {
                alphabet.push(*s);
            }
        }
        alphabet.sort();
        let mut seq = Vec::with_capacity(spec.size);
        let mut visit = |edges: &[Edge]| -> bool {
            if spec.deadline.is_some_and(|d| std::time::Instant::now() > d) {
                failure = Some(EnumError::Timeout);
                return false;
            }
            let used_relax: Vec<Edge> = dedup_sorted(edges.iter().filter(|e| relax.contains(e)));
            if relax.is_empty() != used_relax.is_empty() {
                return true;
            }
            if spec.mix && used_relax.len() > spec.max_relax {
                return true;
            }
            if out.contains_key(edges) {
                return true;
            }
            let Ok(c) = Cycle::new(edges.to_vec()) else {
                return true;
            };
            if !c.diy_valid() {
                return true;
            }
            if c.layout().threads.iter().any(|t| t.len() > spec.ins) {
                return true;
            }
            if c.edges.iter().any(|e| e.quals.scope.is_some())
                && !crate::build::placement_consistent(&c, spec.placement)
            {
                return true;
            }
            // Two cycles differing only in annotations their neighbours imply are one test.
            if !tests.insert(c.annotated().rotation_key()) {
                return true;
            }
            let used_safe: Vec<Edge> = dedup_sorted(
                edges
                    .iter()
                    .filter(|e| !relax.contains(e) && safe.contains(e)),
            );
            let (cycle, name) = normalise(&c);
            out.insert(
                edges.to_vec(),
                Generated {
                    cycle,
                    name,
                    relax: used_relax,
                    safe: used_safe,
                },
            );
            if out.len() > spec.max_tests {
                failure = Some(EnumError::TooMany(spec.max_tests));
                return false;
            }
            true
        };
        if !extend(spec, &alphabet, &mut seq, 0, &mut visit) {
            break;
        }
    }
    if let Some(e) = failure {
        return Err(e);
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
    Ok(v)
}

fn dedup_sorted<'a>(it: impl Iterator<Item = &'a Edge>) -> Vec<Edge> {
    let mut v: Vec<Edge> = it.copied().collect();
    v.sort_by(edge_order);
    v.dedup();
    v
}

/// Depth-first extension of `seq`, handing `visit` each sequence that is its own least
/// rotation (so each cycle is met once) and whose neighbours compose; stops (returning
/// false) when `visit` does.
fn extend(
    spec: &Spec,
    alphabet: &[Edge],
    seq: &mut Vec<Edge>,
    ext: usize,
    visit: &mut dyn FnMut(&[Edge]) -> bool,
) -> bool {
    if seq.len() >= 2 {
        let first = &seq[0];
        let last = &seq[seq.len() - 1];
        if composable(last, first) && ext >= 2 && is_least_rotation(seq) && !visit(seq) {
            return false;
        }
    }
    if seq.len() == spec.size {
        return true;
    }
    for e in alphabet {
        if let Some(last) = seq.last() {
            if !composable(last, e) {
                continue;
            }
        }
        // A least rotation never has an edge smaller than its first.
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
        let go_on = extend(spec, alphabet, seq, ne, visit);
        seq.pop();
        if !go_on {
            return false;
        }
    }
    true
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

/// diy7's default edge sets for `-arch C` (what `diy7 -arch C` enumerates with no
/// `-relax`/`-safe`, learnt from its `Relax=`/`Safe=` lines): relaxed `PodWW`, `PodWR`,
/// every C fence between writes (`Fence{Acq,Rel,AR,Sc,Rlx,Con}d{WW,WR}`) and, A-cumulative,
/// a read-from followed by a fence from a read (`ACFenceScdRW` = `Rfe FenceScdRW`); safe
/// `Fre` and `Coe`. Each entry is a sequence of edges counted as one edge of the cycle.
/// This is diy7's whole default set up to `-size 4`; from size 5 diy7 also uses internal
/// `Fri`/`Coi` edges next to `po` (not learnt: weft's enumeration leaves them out).
pub fn diy7_c_defaults() -> (Vec<Vec<Edge>>, Vec<Vec<Edge>>) {
    use crate::edge::FenceName;
    let p = |s: &str| Edge::parse(s).expect("diy7 default edge");
    let mut relax: Vec<Vec<Edge>> = vec![vec![p("PodWW")], vec![p("PodWR")]];
    let fences = [
        FenceName::Acq,
        FenceName::Rel,
        FenceName::AR,
        FenceName::Sc,
        FenceName::Rlx,
        FenceName::Con,
    ];
    for f in fences {
        for d in ["WW", "WR"] {
            relax.push(vec![p(&format!("Fence{}d{d}", f.name()))]);
        }
    }
    for f in fences {
        for d in ["RW", "RR"] {
            relax.push(vec![p("Rfe"), p(&format!("Fence{}d{d}", f.name()))]);
        }
    }
    let safe = ["Fre", "Coe", "Fri", "Coi"];
    (relax, safe.iter().map(|s| vec![p(s)]).collect())
}

/// Enumeration over edge sequences counted as one edge each (diy7's composite edges such
/// as `ACFenceScdRW`), one relaxed sequence per cycle (diy7 without `-mix`): every cycle
/// of at most `size` sequences and `nprocs` threads made of one relaxed sequence (at
/// least once) and safe ones, kept once up to rotation, named as [`enumerate`] names.
pub fn enumerate_sequences(
    relax: &[Vec<Edge>],
    safe: &[Vec<Edge>],
    size: usize,
    nprocs: usize,
    ins: usize,
) -> Vec<Generated> {
    let mut out: BTreeMap<String, Generated> = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    for r in relax {
        let mut atoms: Vec<&Vec<Edge>> = vec![r];
        atoms.extend(safe.iter().filter(|s| *s != r));
        let mut stack: Vec<usize> = Vec::new();
        seqs(&atoms, &mut stack, size, nprocs, &mut |idx: &[usize]| {
            if !idx.contains(&0) {
                return;
            }
            let flat: Vec<Edge> = idx.iter().flat_map(|&i| atoms[i].iter().copied()).collect();
            let n = flat.len();
            if !(0..n).all(|i| composable(&flat[i], &flat[(i + 1) % n])) {
                return;
            }
            if flat.iter().filter(|e| e.is_ext()).count() > nprocs {
                return;
            }
            let Ok(c) = Cycle::new(flat) else {
                return;
            };
            if !c.diy_valid() || c.layout().threads.iter().any(|t| t.len() > ins) {
                return;
            }
            if !seen.insert(c.annotated().rotation_key()) {
                return;
            }
            let (cycle, name) = normalise(&c);
            out.insert(
                name.clone(),
                Generated {
                    cycle,
                    name,
                    relax: r.clone(),
                    safe: Vec::new(),
                },
            );
        });
    }
    out.into_values().collect()
}

/// Every sequence of at most `size` atom indices starting with its least index, whose
/// neighbouring atoms compose and with at most `nprocs` external communications.
fn seqs(
    atoms: &[&Vec<Edge>],
    stack: &mut Vec<usize>,
    size: usize,
    nprocs: usize,
    f: &mut dyn FnMut(&[usize]),
) {
    if !stack.is_empty() {
        f(stack);
    }
    if stack.len() == size {
        return;
    }
    let ext = |i: usize| atoms[i].iter().filter(|e| e.is_ext()).count();
    let used: usize = stack.iter().map(|&i| ext(i)).sum();
    for i in 0..atoms.len() {
        if stack.first().is_some_and(|&s| i < s) || used + ext(i) > nprocs {
            continue;
        }
        if let (Some(&l), Some(first)) = (stack.last(), atoms[i].first()) {
            if atoms[l].last().is_some_and(|last| !composable(last, first)) {
                continue;
            }
        }
        stack.push(i);
        seqs(atoms, stack, size, nprocs, f);
        stack.pop();
    }
}
