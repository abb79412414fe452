//! Native consistency checks for `sc`, `rc11` and `scoped-rc11` (paper 004 Fig. 3: the
//! Coherence, Atomicity, SC and No-Thin-Air axioms, with scope inclusion for scoped RC11),
//! written to mean exactly what `models/rc11.cat`, `models/scoped-rc11.cat` and
//! `models/sc.cat` say, over dense bit relations. No-Thin-Air (po ∪ rf acyclic) holds by
//! construction of the exploration; the other axioms are checked on every graph the
//! explorer builds, so inconsistent prefixes are cut at once. The data-race and
//! heterogeneous-race flags are computed on complete graphs.

use weft_exec::event::EventKind;
use weft_ir::{Order, Program, Scope};

use crate::graph::{EvId, Graph, Src};

mod views;
pub use views::check_views;

use std::sync::atomic::{AtomicU8, Ordering};

/// 0: not read yet; 1: off; 2: on.
static CROSSCHECK: AtomicU8 = AtomicU8::new(0);

/// Whether every vector-clock check is confirmed by the slower one it must agree with (the
/// incremental check by the whole-graph one, the whole-graph one by the relation algebra),
/// panicking on a difference: `WEFT_MC_CROSSCHECK` set, or [`set_crosscheck`].
pub fn crosscheck() -> bool {
    match CROSSCHECK.load(Ordering::Relaxed) {
        0 => {
            let on = std::env::var_os("WEFT_MC_CROSSCHECK").is_some();
            CROSSCHECK.store(if on { 2 } else { 1 }, Ordering::Relaxed);
            on
        }
        v => v == 2,
    }
}

/// Turns the cross-checks of [`crosscheck`] on or off for this process (tests).
pub fn set_crosscheck(on: bool) {
    CROSSCHECK.store(if on { 2 } else { 1 }, Ordering::Relaxed);
}

/// Consistency of a graph the explorer just extended by one event, reusing and extending
/// the happens-before views cached in it ([`views::check_incremental`]); the same verdict
/// as [`check`] (which the cross-check confirms).
pub fn check_incremental<S>(m: Native, p: &Program, g: &mut Graph<S>, ncells: usize) -> bool {
    if m != Native::Sc {
        if let Some(ok) = views::check_incremental(m, p, g) {
            if crosscheck() {
                let w = check_relations(m, p, g, ncells, false);
                assert_eq!(ok, w.consistent, "incremental and relation checks disagree");
            }
            return ok;
        }
    }
    check_relations(m, p, g, ncells, false).consistent
}

/// Which native model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Native {
    Sc,
    Rc11,
    ScopedRc11,
}

impl Native {
    pub fn by_name(name: &str) -> Option<Native> {
        match name.strip_suffix(".cat").unwrap_or(name) {
            "sc" => Some(Native::Sc),
            "rc11" => Some(Native::Rc11),
            "scoped-rc11" => Some(Native::ScopedRc11),
            _ => None,
        }
    }

    /// Whether the native check covers every construct of `p` (else the `.cat` oracle
    /// judges): no barriers, no unsequenced operands, no aliases, no thread relations.
    pub fn covers(p: &Program) -> bool {
        let mut ok = p.relations.is_empty() && p.locations.iter().all(|l| l.alias.is_none());
        for t in &p.threads {
            weft_ir::code::walk(&t.code, &mut |s| {
                if s.unseq.is_some() || matches!(s.kind, weft_ir::StmtKind::Barrier(_)) {
                    ok = false;
                }
            });
        }
        ok
    }
}

/// A dense square bit matrix.
#[derive(Clone)]
struct Rel {
    n: usize,
    w: usize,
    bits: Vec<u64>,
}

impl Rel {
    fn new(n: usize) -> Rel {
        let w = n.div_ceil(64).max(1);
        Rel {
            n,
            w,
            bits: vec![0; n * w],
        }
    }
    #[inline]
    fn set(&mut self, a: usize, b: usize) {
        self.bits[a * self.w + b / 64] |= 1 << (b % 64);
    }
    #[inline]
    fn get(&self, a: usize, b: usize) -> bool {
        self.bits[a * self.w + b / 64] >> (b % 64) & 1 == 1
    }
    fn row(&self, a: usize) -> &[u64] {
        &self.bits[a * self.w..(a + 1) * self.w]
    }
    fn is_empty(&self) -> bool {
        self.bits.iter().all(|x| *x == 0)
    }
    fn union(&mut self, o: &Rel) {
        for (x, y) in self.bits.iter_mut().zip(&o.bits) {
            *x |= *y;
        }
    }
    /// self ; o
    fn seq(&self, o: &Rel) -> Rel {
        let mut r = Rel::new(self.n);
        for a in 0..self.n {
            for b in 0..self.n {
                if self.get(a, b) {
                    let (w, src) = (self.w, o.row(b).to_vec());
                    for (k, v) in src.into_iter().enumerate() {
                        r.bits[a * w + k] |= v;
                    }
                }
            }
        }
        r
    }
    /// Transitive closure (Warshall).
    fn plus(&self) -> Rel {
        let mut r = self.clone();
        for k in 0..self.n {
            let rowk: Vec<u64> = r.row(k).to_vec();
            for a in 0..self.n {
                if r.get(a, k) {
                    for (i, v) in rowk.iter().enumerate() {
                        r.bits[a * r.w + i] |= *v;
                    }
                }
            }
        }
        r
    }
    fn irreflexive(&self) -> bool {
        (0..self.n).all(|a| !self.get(a, a))
    }
    fn filter(&self, f: impl Fn(usize, usize) -> bool) -> Rel {
        let mut r = Rel::new(self.n);
        for a in 0..self.n {
            for b in 0..self.n {
                if self.get(a, b) && f(a, b) {
                    r.set(a, b);
                }
            }
        }
        r
    }
    fn inverse(&self) -> Rel {
        let mut r = Rel::new(self.n);
        for a in 0..self.n {
            for b in 0..self.n {
                if self.get(a, b) {
                    r.set(b, a);
                }
            }
        }
        r
    }
}

/// A flattened event for the checks.
struct Ev {
    thread: Option<u32>,
    kind: u8, // 0 read, 1 write, 2 fence, 3 other
    cell: u32,
    order: Order,
    scope: Option<Scope>,
}

/// The relations of one graph, built once per check.
struct View {
    evs: Vec<Ev>,
    po: Rel,
    rf: Rel,
    co: Rel,
    rmw: Rel,
}

fn view<S>(g: &Graph<S>, ncells: usize) -> (View, Vec<Vec<usize>>) {
    // Initial writes of the cells that are accessed, then thread events.
    let mut evs = Vec::new();
    let mut init_id = vec![usize::MAX; ncells];
    for t in &g.th {
        for n in &t.nodes {
            if n.cell != u32::MAX && init_id[n.cell as usize] == usize::MAX {
                init_id[n.cell as usize] = 0; // mark
            }
        }
    }
    for (c, slot) in init_id.iter_mut().enumerate() {
        if *slot == 0 {
            *slot = evs.len();
            evs.push(Ev {
                thread: None,
                kind: 1,
                cell: c as u32,
                order: Order::Plain,
                scope: None,
            });
        }
    }
    let mut ids: Vec<Vec<usize>> = Vec::with_capacity(g.th.len());
    for (ti, t) in g.th.iter().enumerate() {
        let mut v = Vec::with_capacity(t.nodes.len());
        for n in &t.nodes {
            v.push(evs.len());
            evs.push(Ev {
                thread: Some(ti as u32),
                kind: match n.ev.kind {
                    EventKind::Read => 0,
                    EventKind::Write => 1,
                    EventKind::Fence { .. } => 2,
                    EventKind::Barrier { .. } => 3,
                },
                cell: n.cell,
                order: n.ev.attrs.order,
                scope: n.ev.attrs.scope,
            });
        }
        ids.push(v);
    }
    let n = evs.len();
    let (mut po, mut rf, mut co, mut rmw) = (Rel::new(n), Rel::new(n), Rel::new(n), Rel::new(n));
    let id = |e: EvId| ids[e.0 as usize][e.1 as usize];
    for (ti, t) in g.th.iter().enumerate() {
        for i in 0..t.nodes.len() {
            for j in i + 1..t.nodes.len() {
                po.set(ids[ti][i], ids[ti][j]);
            }
            let node = &t.nodes[i];
            if node.is_write() && node.ev.rmw && i > 0 {
                rmw.set(ids[ti][i - 1], ids[ti][i]);
            }
            if let Some(s) = node.rf {
                let w = match s {
                    Src::Init => init_id[node.cell as usize],
                    Src::Ev(e) => id(e),
                };
                rf.set(w, ids[ti][i]);
            }
        }
    }
    for (c, ws) in g.co.iter().enumerate() {
        if ws.is_empty() {
            continue;
        }
        let chain: Vec<usize> = std::iter::once(init_id[c])
            .chain(ws.iter().map(|e| id(*e)))
            .collect();
        for i in 0..chain.len() {
            for j in i + 1..chain.len() {
                co.set(chain[i], chain[j]);
            }
        }
    }
    (
        View {
            evs,
            po,
            rf,
            co,
            rmw,
        },
        ids,
    )
}

/// The verdict of a native check.
pub struct Verdict {
    pub consistent: bool,
    pub data_race: bool,
    pub hetero_race: bool,
    /// The first racing pair found of each kind (thread events), when `races`.
    pub data_race_pair: Option<(EvId, EvId)>,
    pub hetero_race_pair: Option<(EvId, EvId)>,
    /// The racing pairs (events of the graph; `true`: heterogeneous), for repair.
    pub race_pairs: Vec<(EvId, EvId, bool)>,
}

/// Checks `g` under `m`; `races` also computes the race flags (complete graphs).
///
/// RC11 and scoped RC11 graphs without SC events take [`check_views`] (happens-before as
/// vector clocks, linear in the events per thread); the others (and, with the
/// `WEFT_MC_CROSSCHECK` environment variable set, every graph, to compare both) the
/// relation-algebra check [`check_relations`].
pub fn check<S>(m: Native, p: &Program, g: &Graph<S>, ncells: usize, races: bool) -> Verdict {
    if m != Native::Sc {
        if let Some(v) = check_views(m, p, g, races) {
            if crosscheck() {
                let w = check_relations(m, p, g, ncells, races);
                assert_eq!(
                    (
                        v.consistent,
                        v.data_race,
                        v.hetero_race,
                        v.data_race_pair,
                        v.hetero_race_pair,
                        &v.race_pairs
                    ),
                    (
                        w.consistent,
                        w.data_race,
                        w.hetero_race,
                        w.data_race_pair,
                        w.hetero_race_pair,
                        &w.race_pairs
                    ),
                    "vector-clock and relation checks disagree"
                );
            }
            return v;
        }
    }
    check_relations(m, p, g, ncells, races)
}

/// The relation-algebra check of paper 004 Fig. 3 over dense bit matrices (cubic in the
/// events): the reference the vector-clock check is compared with, and the check of SC
/// events (`psc`) and of the `sc` model.
pub fn check_relations<S>(
    m: Native,
    p: &Program,
    g: &Graph<S>,
    ncells: usize,
    races: bool,
) -> Verdict {
    let (v, ids) = view(g, ncells);
    let n = v.evs.len();
    let mut back: Vec<EvId> = vec![(u32::MAX, u32::MAX); n];
    for (t, is) in ids.iter().enumerate() {
        for (i, &x) in is.iter().enumerate() {
            back[x] = (t as u32, i as u32);
        }
    }
    let ev = &v.evs;
    let is_r = |a: usize| ev[a].kind == 0;
    let is_w = |a: usize| ev[a].kind == 1;
    let is_f = |a: usize| ev[a].kind == 2;
    let mem = |a: usize| ev[a].kind <= 1;
    let same_loc = |a: usize, b: usize| mem(a) && mem(b) && ev[a].cell == ev[b].cell;
    let ext = |a: usize, b: usize| ev[a].thread != ev[b].thread || ev[a].thread.is_none();
    // fr = rf^-1 ; co
    let fr = v.rf.inverse().seq(&v.co);
    let mut com = v.rf.clone();
    com.union(&v.co);
    com.union(&fr);
    if m == Native::Sc {
        // acyclic po | com ; atomicity.
        let mut r = v.po.clone();
        r.union(&com);
        let ok = r.plus().irreflexive() && atomicity(&v, &fr, &ext);
        return Verdict {
            consistent: ok,
            data_race: false,
            hetero_race: false,
            data_race_pair: None,
            hetero_race_pair: None,
            race_pairs: Vec::new(),
        };
    }
    let scoped = m == Native::ScopedRc11;
    let ord = |a: usize| ev[a].order;
    let is_rel = |a: usize| matches!(ord(a), Order::Release | Order::AcqRel | Order::SeqCst);
    let is_acq = |a: usize| {
        matches!(
            ord(a),
            Order::Acquire | Order::AcqRel | Order::SeqCst | Order::Consume
        )
    };
    let is_sc = |a: usize| ord(a) == Order::SeqCst;
    let at = |a: usize| ord(a) != Order::Plain;
    // sr / incl (as the simulator's execution adapter defines them).
    let ev_scope = |a: usize| -> Option<Scope> {
        ev[a].thread?;
        ev[a]
            .scope
            .or(if at(a) { Some(Scope::System) } else { None })
    };
    let covers = |a: usize, sa: Scope, b: usize| match (ev[a].thread, ev[b].thread) {
        (Some(t), Some(u)) => {
            t == u
                || p.threads[t as usize]
                    .placement
                    .same_instance(&p.threads[u as usize].placement, sa)
        }
        _ => false,
    };
    let sr = |a: usize, b: usize| match (ev_scope(a), ev_scope(b)) {
        (Some(sa), Some(sb)) => covers(a, sa, b) && covers(b, sb, a),
        _ => false,
    };
    let incl = |a: usize, b: usize| {
        sr(a, b)
            && (at(a) || !mem(a))
            && (at(b) || !mem(b))
            && (!(mem(a) && mem(b)) || ev[a].cell == ev[b].cell)
    };
    let rf_s = if scoped {
        v.rf.filter(incl)
    } else {
        v.rf.clone()
    };
    let rs = release_sequence(&v, &rf_s, &is_w, &at, &same_loc);
    // sw = [Rel] ; ([F] ; po)? ; rs ; rf ; [R & AT] ; (po ; [F])? ; [Acq]
    let left = sw_left(&v, &is_rel, &is_f);
    let right = sw_right(&v, &is_r, &at, &is_acq, &is_f);
    let mut sw = left.seq(&rs).seq(&rf_s).seq(&right);
    if scoped {
        sw = sw.filter(sr);
    }
    let mut hb = v.po.clone();
    hb.union(&sw);
    let hb = hb.plus();
    let eco = com.plus();
    // coherence: irreflexive hb ; eco?
    let mut ok = hb.irreflexive() && hb.seq(&eco).irreflexive();
    ok = ok && atomicity(&v, &fr, &ext);
    if ok && (0..n).any(is_sc) {
        // psc
        let mut psc = psc_of(&v, &hb, &eco, &fr, &is_sc, &is_f, &same_loc);
        if scoped {
            psc = psc.filter(sr);
        }
        ok = psc.plus().irreflexive();
    }
    let (mut data_race, mut hetero_race) = (false, false);
    let (mut data_race_pair, mut hetero_race_pair) = (None, None);
    let mut race_pairs = Vec::new();
    if ok && races {
        for a in 0..n {
            for b in 0..n {
                if a == b || ev[a].thread.is_none() || ev[b].thread.is_none() {
                    continue;
                }
                if !(same_loc(a, b) && (is_w(a) || is_w(b)) && ext(a, b)) {
                    continue;
                }
                if hb.get(a, b) || hb.get(b, a) {
                    continue;
                }
                if !at(a) || !at(b) {
                    data_race = true;
                    if data_race_pair.is_none() {
                        data_race_pair = Some((back[a], back[b]));
                    }
                    if a < b {
                        race_pairs.push((back[a], back[b], false));
                    }
                } else if scoped && !incl(a, b) {
                    hetero_race = true;
                    if hetero_race_pair.is_none() {
                        hetero_race_pair = Some((back[a], back[b]));
                    }
                    if a < b {
                        race_pairs.push((back[a], back[b], true));
                    }
                }
            }
        }
    }
    Verdict {
        consistent: ok,
        data_race,
        hetero_race,
        data_race_pair,
        hetero_race_pair,
        race_pairs,
    }
}

/// rs = [W] ; po-loc? ; [W & AT] ; (rf ; rmw)*
fn release_sequence(
    v: &View,
    rf_s: &Rel,
    is_w: &impl Fn(usize) -> bool,
    at: &impl Fn(usize) -> bool,
    same_loc: &impl Fn(usize, usize) -> bool,
) -> Rel {
    let n = v.evs.len();
    let rfrmw = rf_s.seq(&v.rmw);
    let mut rfrmw_star = rfrmw.plus();
    for a in 0..n {
        rfrmw_star.set(a, a);
    }
    let mut pre = Rel::new(n); // [W] ; po-loc? ; [W & AT]
    for a in 0..n {
        if is_w(a) && at(a) {
            pre.set(a, a);
        }
        if is_w(a) {
            for b in 0..n {
                if v.po.get(a, b) && same_loc(a, b) && is_w(b) && at(b) {
                    pre.set(a, b);
                }
            }
        }
    }
    pre.seq(&rfrmw_star)
}

/// The left part of sw: [Rel] ; ([F];po)?
fn sw_left(v: &View, is_rel: &impl Fn(usize) -> bool, is_f: &impl Fn(usize) -> bool) -> Rel {
    let n = v.evs.len();
    let mut left = Rel::new(n);
    for a in 0..n {
        if is_rel(a) {
            left.set(a, a);
            if is_f(a) {
                for b in 0..n {
                    if v.po.get(a, b) {
                        left.set(a, b);
                    }
                }
            }
        }
    }
    left
}

/// The right part of sw: [R & AT] ; (po;[F])? ; [Acq]
fn sw_right(
    v: &View,
    is_r: &impl Fn(usize) -> bool,
    at: &impl Fn(usize) -> bool,
    is_acq: &impl Fn(usize) -> bool,
    is_f: &impl Fn(usize) -> bool,
) -> Rel {
    let n = v.evs.len();
    let mut right = Rel::new(n);
    for a in 0..n {
        if is_r(a) && at(a) {
            if is_acq(a) {
                right.set(a, a);
            }
            for b in 0..n {
                if v.po.get(a, b) && is_f(b) && is_acq(b) {
                    right.set(a, b);
                }
            }
        }
    }
    right
}

/// psc (before the scope filter of scoped RC11).
fn psc_of(
    v: &View,
    hb: &Rel,
    eco: &Rel,
    fr: &Rel,
    is_sc: &impl Fn(usize) -> bool,
    is_f: &impl Fn(usize) -> bool,
    same_loc: &impl Fn(usize, usize) -> bool,
) -> Rel {
    let n = v.evs.len();
    let mut scb = v.po.clone();
    let sb_neq_loc = v.po.filter(|a, b| !same_loc(a, b));
    scb.union(&sb_neq_loc.seq(hb).seq(&sb_neq_loc));
    scb.union(&hb.filter(same_loc));
    scb.union(&v.co);
    scb.union(fr);
    let mut hbq = hb.clone();
    for a in 0..n {
        hbq.set(a, a);
    }
    let mut l = Rel::new(n); // [SC] | ([F&SC] ; hb?)
    let mut r = Rel::new(n); // [SC] | (hb? ; [F&SC])
    for a in 0..n {
        if is_sc(a) {
            l.set(a, a);
            r.set(a, a);
            if is_f(a) {
                for b in 0..n {
                    if hbq.get(a, b) {
                        l.set(a, b);
                    }
                    if hbq.get(b, a) {
                        r.set(b, a);
                    }
                }
            }
        }
    }
    let mut psc = l.seq(&scb).seq(&r);
    let scf = |a: usize| is_sc(a) && is_f(a);
    let mid = {
        let mut m = hb.clone();
        m.union(&hb.seq(eco).seq(hb));
        m
    };
    psc.union(&mid.filter(|a, b| scf(a) && scf(b)));
    psc
}

/// empty rmw & (fre ; coe)
fn atomicity(v: &View, fr: &Rel, ext: &dyn Fn(usize, usize) -> bool) -> bool {
    if v.rmw.is_empty() {
        return true;
    }
    let fre = fr.filter(ext);
    let coe = v.co.filter(ext);
    let x = fre.seq(&coe);
    let n = v.evs.len();
    (0..n).all(|a| (0..n).all(|b| !(v.rmw.get(a, b) && x.get(a, b))))
}

/// Whether every memory access of `p` is a relaxed load or store (no fences, RMWs or
/// barriers): then happens-before is program order, and the checks reduce to per-location
/// coherence ([`check_relaxed`]).
pub fn relaxed_only(p: &Program) -> bool {
    let mut ok = true;
    for t in &p.threads {
        weft_ir::code::walk(&t.code, &mut |s| match &s.kind {
            weft_ir::StmtKind::Load(l) if l.attrs.order == Order::Relaxed => {}
            weft_ir::StmtKind::Store(st) if st.attrs.order == Order::Relaxed => {}
            weft_ir::StmtKind::Load(_)
            | weft_ir::StmtKind::Store(_)
            | weft_ir::StmtKind::Rmw(_)
            | weft_ir::StmtKind::Fence(_)
            | weft_ir::StmtKind::Barrier(_) => ok = false,
            _ => {}
        });
    }
    ok
}

/// RC11 / scoped RC11 on a graph of relaxed loads and stores: hb = po, so Coherence is
/// per-location coherence of program order against rf/co/fr (positions in co), Atomicity
/// and SC are vacuous, and No-Thin-Air holds by construction.
pub fn check_relaxed<S>(g: &Graph<S>) -> bool {
    for th in &g.th {
        for (j, b) in th.nodes.iter().enumerate() {
            if b.cell == u32::MAX {
                continue;
            }
            for (i, a) in th.nodes[..j].iter().enumerate() {
                if a.cell != b.cell {
                    continue;
                }
                // Positions: a write's own, a read's source's.
                let pa = pos_of(g, th, i);
                let pbv = pos_of(g, th, j);
                let ok = match (a.is_write(), b.is_write()) {
                    (true, true) => pa < pbv,
                    (true, false) => pbv >= pa,
                    (false, true) => pa < pbv,
                    (false, false) => pa <= pbv,
                };
                if !ok {
                    return false;
                }
            }
        }
    }
    true
}

fn pos_of<S>(g: &Graph<S>, th: &crate::graph::ThreadG<S>, i: usize) -> usize {
    let n = &th.nodes[i];
    match n.rf {
        Some(s) => g.co_pos(n.cell, s),
        None => {
            // A write: find it in its cell's coherence order by identity of the node.
            let ws = &g.co[n.cell as usize];
            ws.iter()
                .position(|e| std::ptr::eq(g.node(*e), n))
                .map(|k| k + 1)
                .unwrap_or(usize::MAX)
        }
    }
}

/// Heterogeneous races of a relaxed-only complete graph under scoped RC11: conflicting
/// accesses of different threads (hb = po never orders them) that are not scope-inclusive.
pub fn hetero_race_relaxed<S>(p: &Program, g: &Graph<S>) -> bool {
    !hetero_race_pairs_relaxed(p, g, true).is_empty()
}

/// The heterogeneous racing pairs of a relaxed-only complete graph ([`hetero_race_relaxed`]);
/// `first`: stop at the first.
pub fn hetero_race_pairs_relaxed<S>(p: &Program, g: &Graph<S>, first: bool) -> Vec<(EvId, EvId)> {
    let mut out = Vec::new();
    let scope_of = |t: usize, i: usize| g.th[t].nodes[i].ev.attrs.scope.unwrap_or(Scope::System);
    let covers = |t: usize, s: Scope, u: usize| {
        t == u
            || p.threads[t]
                .placement
                .same_instance(&p.threads[u].placement, s)
    };
    for (t, a) in g.th.iter().enumerate() {
        for (u, b) in g.th.iter().enumerate().skip(t + 1) {
            for (i, x) in a.nodes.iter().enumerate() {
                for (k, y) in b.nodes.iter().enumerate() {
                    if x.cell == y.cell
                        && x.cell != u32::MAX
                        && (x.is_write() || y.is_write())
                        && !(covers(t, scope_of(t, i), u) && covers(u, scope_of(u, k), t))
                    {
                        out.push(((t as u32, i as u32), (u as u32, k as u32)));
                        if first {
                            return out;
                        }
                    }
                }
            }
        }
    }
    out
}
