//! Cycles of edges: diy7's well-formedness rules (directions chain, no composable
//! neighbours, at least two threads and two locations), the split into threads at external
//! communication edges, location naming (`x`, `y`, `z`, `a`, ...), and the values each write
//! stores and each read must observe for the cycle to happen (paper 000 §4, diy7's
//! "Cycle"/"Orig" conventions).

use std::cmp::Ordering;

use crate::edge::{Ann, Com, Dir, Edge, Kind, Loc, Region};

/// A cycle of edges, in the order the test is built from (diy7's `Orig=`): thread 0 starts
/// at the source of the first edge and the last edge is an external communication.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cycle {
    pub edges: Vec<Edge>,
}

/// Why a list of edges is not a cycle diy7 would build a test from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CycleError(pub String);

/// One event of the cycle: the source of edge `i` is event `i`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub dir: Dir,
    pub loc: usize,
    /// The value written (writes) or the value the read must return.
    pub value: i64,
    pub thread: usize,
    pub ann: Option<Ann>,
    /// Scope of the access (GPU qualifiers of the adjacent non-communication edges).
    pub scope: Option<weft_ir::Scope>,
    pub cache: Option<weft_ir::CacheOp>,
    pub volatile: bool,
}

/// The events, threads and locations of a cycle.
#[derive(Clone, Debug)]
pub struct Layout {
    pub events: Vec<Event>,
    /// Event indices of each thread, in program order.
    pub threads: Vec<Vec<usize>>,
    pub nlocs: usize,
    /// Final value of each location written more than once (the last write in `co`).
    pub finals: Vec<Option<i64>>,
    /// Memory region of each location.
    pub regions: Vec<Region>,
}

/// diy7's location names: `x`, `y`, `z`, then `a`, `b`, ... .
pub fn loc_name(i: usize) -> String {
    const FIRST: [&str; 3] = ["x", "y", "z"];
    if i < 3 {
        return FIRST[i].to_string();
    }
    let j = i - 3;
    if j < 23 {
        // a..w
        return ((b'a' + j as u8) as char).to_string();
    }
    format!("x{i}")
}

/// Whether `b` may follow `a` in a cycle (diy7's composition rules, learnt from its output:
/// two program-order or fence edges never follow each other, nor two dependencies; two
/// external communications only when the second is a read-from).
pub fn composable(a: &Edge, b: &Edge) -> bool {
    if a.tgt != b.src {
        return false;
    }
    if let (Some(x), Some(y)) = (a.tgt_ann, b.src_ann) {
        if x != y {
            return false;
        }
    }
    let internal = |e: &Edge| e.is_com() && !e.is_ext();
    // diy7 never puts a fence next to an internal communication (its mixed enumerations
    // have `po-fri` but no `fencesc-fri`), nor two internal communications in a row.
    if (a.class() == 2 && internal(b)) || (internal(a) && b.class() == 2) {
        return false;
    }
    if internal(a) && internal(b) {
        return false;
    }
    match (a.class(), b.class()) {
        (0 | 2, 0 | 2) => false,
        (1, 1) => false,
        (3, 3) => {
            let co = |e: &Edge| matches!(e.kind, Kind::Com { com: Com::Co, .. });
            let into_rf = matches!(b.kind, Kind::Com { com: Com::Rf, .. });
            !(co(a) && co(b) || a.is_ext() && b.is_ext() && !into_rf)
        }
        _ => true,
    }
}

/// Rank of an edge in diy7's listing order (`Relax=`, `Safe=`, `Cycle=`).
fn rank(e: &Edge) -> (u8, u8, u8, u8, u8, Edge) {
    let d = |x: Dir| if x == Dir::W { 0 } else { 1 };
    match e.kind {
        Kind::Com { com, ext } => (0, com as u8, ext as u8, 0, 0, *e),
        Kind::Po(l) => (1, (l == Loc::Diff) as u8, d(e.src), d(e.tgt), 0, *e),
        Kind::Dp(k, l) => (2, k as u8, (l == Loc::Diff) as u8, d(e.tgt), 0, *e),
        Kind::Fence(f, l) => (3, f as u8, (l == Loc::Diff) as u8, d(e.src), d(e.tgt), *e),
        Kind::Rmw => (4, 0, 0, 0, 0, *e),
    }
}

/// Compares edges in diy7's listing order.
pub fn edge_order(a: &Edge, b: &Edge) -> Ordering {
    rank(a).cmp(&rank(b))
}

impl Cycle {
    /// Checks the cycle and rotates it so that it starts at a thread start.
    pub fn new(edges: Vec<Edge>) -> Result<Cycle, CycleError> {
        let n = edges.len();
        if n < 2 {
            return Err(CycleError("a cycle needs at least two edges".into()));
        }
        for i in 0..n {
            let (a, b) = (&edges[i], &edges[(i + 1) % n]);
            if a.tgt != b.src {
                return Err(CycleError(format!(
                    "`{a}` ends with a {} but `{b}` starts with a {}",
                    dname(a.tgt),
                    dname(b.src)
                )));
            }
            if let (Some(x), Some(y)) = (a.tgt_ann, b.src_ann) {
                if x != y {
                    return Err(CycleError(format!(
                        "`{a}` and `{b}` give their shared event two annotations ({} and {})",
                        x.name(),
                        y.name()
                    )));
                }
            }
        }
        // As diyone7: a cycle ending with an external communication starts at a thread
        // start already; otherwise it starts after its first external communication.
        let Some(first_ext) = edges.iter().position(|e| e.is_ext()) else {
            return Err(CycleError(
                "a cycle needs external communication edges (Rfe, Fre, Coe) between threads".into(),
            ));
        };
        let cut = if edges[n - 1].is_ext() {
            n - 1
        } else {
            first_ext
        };
        let mut e = edges[cut + 1..].to_vec();
        e.extend_from_slice(&edges[..=cut]);
        let c = Cycle { edges: e };
        if c.nthreads() < 2 {
            return Err(CycleError("a cycle needs at least two threads".into()));
        }
        let nd = c.edges.iter().filter(|e| e.changes_loc()).count();
        if nd == 1 {
            return Err(CycleError(
                "a cycle with one edge that changes location (a d edge) cannot come back to its first location".into(),
            ));
        }
        Ok(c)
    }

    /// Parses a cycle written as edge names.
    pub fn parse(text: &str) -> Result<Cycle, CycleError> {
        let edges = Edge::parse_list(text).map_err(|e| CycleError(e.to_string()))?;
        Cycle::new(edges)
    }

    pub fn nthreads(&self) -> usize {
        self.edges.iter().filter(|e| e.is_ext()).count()
    }

    /// diy7's stricter rules for enumerated cycles: composable neighbours, and no thread
    /// touching one location in two separate runs of accesses.
    pub fn diy_valid(&self) -> bool {
        let n = self.edges.len();
        if self.edges.iter().filter(|e| e.changes_loc()).count() < 2 {
            return false;
        }
        if !(0..n).all(|i| composable(&self.edges[i], &self.edges[(i + 1) % n])) {
            return false;
        }
        let lay = self.layout();
        // No location is written three times (diy7 7.57 builds no `Rfe Rmw Coe`,
        // `Coe Rfe Rmw`, `Rfe Fri Coe` nor `Coe Rfi Fre` stretch, and builds `Rfe Rmw Rfe`
        // and `Fre Coi Rfe`).
        if (0..lay.nlocs).any(|l| {
            lay.events
                .iter()
                .filter(|e| e.loc == l && e.dir == Dir::W)
                .count()
                >= 3
        }) {
            return false;
        }
        // A location is accessed either only atomically or only plainly.
        let plain = |a: Option<Ann>| matches!(a, None | Some(Ann::Na));
        for l in 0..lay.nlocs {
            let mut kinds = lay
                .events
                .iter()
                .filter(|e| e.loc == l)
                .map(|e| plain(e.ann));
            if let Some(k0) = kinds.next() {
                if kinds.any(|k| k != k0) {
                    return false;
                }
            }
        }
        for t in &lay.threads {
            let mut runs: Vec<usize> = Vec::new();
            for (k, &ev) in t.iter().enumerate() {
                let loc = lay.events[ev].loc;
                let joined = k > 0 && !self.edges[t[k - 1]].changes_loc();
                if !joined {
                    if runs.contains(&loc) {
                        return false;
                    }
                    runs.push(loc);
                }
            }
        }
        true
    }

    /// The rotations of the cycle that start at a thread start.
    pub fn thread_rotations(&self) -> Vec<Cycle> {
        let n = self.edges.len();
        (0..n)
            .filter(|&i| self.edges[(i + n - 1) % n].is_ext())
            .map(|i| {
                let mut e = self.edges[i..].to_vec();
                e.extend_from_slice(&self.edges[..i]);
                Cycle { edges: e }
            })
            .collect()
    }

    /// diy7's `Cycle=` line: the least rotation in its edge order.
    pub fn canonical_rotation(&self) -> Vec<Edge> {
        let n = self.edges.len();
        (0..n)
            .map(|i| {
                let mut e = self.edges[i..].to_vec();
                e.extend_from_slice(&self.edges[..i]);
                e
            })
            .min_by(|a, b| cmp_seq(a, b))
            .unwrap_or_default()
    }

    /// A key equal for two cycles exactly when one is a rotation of the other.
    pub fn rotation_key(&self) -> Vec<Edge> {
        let n = self.edges.len();
        (0..n)
            .map(|i| {
                let mut e = self.edges[i..].to_vec();
                e.extend_from_slice(&self.edges[..i]);
                e
            })
            .min()
            .unwrap_or_default()
    }

    /// Events, threads, locations and values.
    pub fn layout(&self) -> Layout {
        let n = self.edges.len();
        let nd = self.edges.iter().filter(|e| e.changes_loc()).count();
        // Location of each event: a new one after each d edge, back to 0 after the last.
        let mut locs = vec![0usize; n];
        let mut seen_d = 0;
        for i in 1..n {
            if self.edges[i - 1].changes_loc() {
                seen_d += 1;
                locs[i] = if seen_d == nd { 0 } else { seen_d };
            } else {
                locs[i] = locs[i - 1];
            }
        }
        let nlocs = nd.max(1);
        // Threads.
        let mut thread = vec![0usize; n];
        let mut threads: Vec<Vec<usize>> = vec![Vec::new()];
        for (i, th) in thread.iter_mut().enumerate() {
            *th = threads.len() - 1;
            threads.last_mut().unwrap().push(i);
            if self.edges[i].is_ext() && i + 1 < n {
                threads.push(Vec::new());
            }
        }
        // Values: walk each location's arc from the event after the d edge entering it.
        let mut value = vec![0i64; n];
        let mut finals = vec![None; nlocs];
        let mut writes = vec![0i64; nlocs];
        // Cut each location's arc after the edge entering it (a d edge); a single-location
        // cycle is cut after its first program-order edge.
        // A single-location cycle (diyone7 -oneloc) starts at the target of its first
        // from-read, else after its first program-order edge.
        let is_fr = |e: &Edge| matches!(e.kind, Kind::Com { com: Com::Fr, .. });
        let start = (0..n)
            .find(|&i| self.edges[(i + n - 1) % n].changes_loc())
            .or_else(|| (0..n).find(|&i| is_fr(&self.edges[(i + n - 1) % n])))
            .or_else(|| (0..n).find(|&i| !self.edges[(i + n - 1) % n].is_com()))
            .unwrap_or(0);
        for k in 0..n {
            let i = (start + k) % n;
            let prev = (i + n - 1) % n;
            let entering = self.edges[prev].changes_loc() || k == 0;
            let l = locs[i];
            if entering {
                writes[l] = 0;
            }
            let dir = self.edges[i].src;
            if dir == Dir::W {
                writes[l] += 1;
                value[i] = writes[l];
            } else {
                value[i] = writes[l];
            }
        }
        // A read followed by a from-read reads the write just before that edge's target
        // in coherence (the same value as above when the location has an arc of its own).
        for i in 0..n {
            if self.edges[i].src == Dir::R && is_fr(&self.edges[i]) {
                value[i] = value[(i + 1) % n] - 1;
            }
        }
        for l in 0..nlocs {
            if writes[l] >= 2 {
                finals[l] = Some(writes[l]);
            }
        }
        let mut regions = vec![Region::Global; nlocs];
        let events = (0..n)
            .map(|i| {
                let inc = &self.edges[(i + n - 1) % n];
                let out = &self.edges[i];
                let ann = out.src_ann.or(inc.tgt_ann);
                let mut scope = None;
                for e in [inc, out] {
                    if let Some(r) = e.quals.region {
                        regions[locs[i]] = r;
                    }
                    if !e.is_com() && !matches!(e.kind, Kind::Fence(..)) {
                        scope = scope.or(e.quals.scope);
                    }
                }
                // Cache operators and volatile qualify the event an edge leads to.
                let cache = inc.quals.cache.map(|c| c.op());
                let volatile = inc.quals.volatile;
                Event {
                    dir: out.src,
                    loc: locs[i],
                    value: value[i],
                    thread: thread[i],
                    ann,
                    scope,
                    cache,
                    volatile,
                }
            })
            .collect();
        Layout {
            events,
            threads,
            nlocs,
            finals,
            regions,
        }
    }

    /// The cycle with every edge carrying the annotations its events end up with, so that
    /// `Rfe` between two `Rlx` events and `RfeRlxRlx` give the same test.
    pub fn annotated(&self) -> Cycle {
        let n = self.edges.len();
        let lay = self.layout();
        let any = lay
            .events
            .iter()
            .any(|e| !matches!(e.ann, None | Some(Ann::Na)));
        let edges = (0..n)
            .map(|i| {
                let mut e = self.edges[i];
                if any {
                    let (a, b) = (lay.events[i].ann, lay.events[(i + 1) % n].ann);
                    if a.is_some() || b.is_some() {
                        e.src_ann = Some(a.unwrap_or(Ann::Na));
                        e.tgt_ann = Some(b.unwrap_or(Ann::Na));
                    }
                }
                e
            })
            .collect();
        Cycle { edges }
    }

    /// The edges written with spaces.
    pub fn text(&self) -> String {
        seq_text(&self.edges)
    }
}

/// Edges written with spaces.
pub fn seq_text(edges: &[Edge]) -> String {
    edges
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn cmp_seq(a: &[Edge], b: &[Edge]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = edge_order(x, y);
        if o != Ordering::Equal {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

fn dname(d: Dir) -> &'static str {
    match d {
        Dir::R => "read",
        Dir::W => "write",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sb_layout() {
        let c = Cycle::parse("PodWR Fre PodWR Fre").unwrap();
        let l = c.layout();
        assert_eq!(l.threads, vec![vec![0, 1], vec![2, 3]]);
        assert_eq!(l.nlocs, 2);
        let vals: Vec<i64> = l.events.iter().map(|e| e.value).collect();
        // W x=1, R y=0, W y=1, R x=0
        assert_eq!(vals, vec![1, 0, 1, 0]);
    }

    #[test]
    fn iriw_singletons_and_coherence_values() {
        // diy7: IRWIW has P0: x=2, P1: r0=x (2), y=1; P2: y=2; P3: r0=y (2), x=1.
        let c = Cycle::parse("Rfe PodRW Coe Rfe PodRW Coe").unwrap();
        let l = c.layout();
        assert_eq!(l.threads.len(), 4);
        let vals: Vec<i64> = l.events.iter().map(|e| e.value).collect();
        assert_eq!(vals, vec![2, 2, 1, 2, 2, 1]);
        assert_eq!(l.finals, vec![Some(2), Some(2)]);
    }

    #[test]
    fn rejects_non_cycles() {
        assert!(Cycle::parse("PodWR Fre PodRR Fre").is_err());
        assert!(Cycle::parse("PodWR PodRW").is_err());
    }

    #[test]
    fn single_location_corr() {
        // Paper 000 coRR: T0 writes x=1; T1 reads 1 then 0.
        let c = Cycle::parse("Rfe PosRR Fre").unwrap();
        let vals: Vec<i64> = c.layout().events.iter().map(|e| e.value).collect();
        assert_eq!(vals, vec![1, 1, 0]);
    }
}
