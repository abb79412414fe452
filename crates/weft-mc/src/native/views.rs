//! RC11 and scoped RC11 consistency with happens-before as vector clocks (paper 004 Fig. 3:
//! Coherence and Atomicity, with scope inclusion for scoped RC11), meaning exactly what the
//! relation-algebra check ([`super::check_relations`]) computes, in time linear in the events
//! times the threads (plus the same-location pairs) instead of cubic in the events.
//!
//! Each event's happens-before predecessors are a prefix of every thread (hb contains po),
//! so they are kept as one count per thread (a view), computed in a (po ∪ rf)-topological
//! order: an event's view is its po-predecessor's, itself, and for an acquire read (or an
//! acquire fence after atomic reads) the view of the po-latest release event that
//! synchronises with it through the release sequence of the write read (`sw` of RC11,
//! filtered by scope inclusion in scoped RC11). Coherence (`hb ; eco?` irreflexive) then
//! compares, per location, each event's coherence position with the largest position among
//! its hb-predecessors; Atomicity looks for an external write between an RMW's read and
//! write. SC (`psc` acyclic) is checked here when every SC event is a fence (the fences
//! `fence.sc` of kernels): then `psc` relates SC fences `a`, `b` exactly when `a hb b` or
//! `a hb x`, `x eco y`, `y hb b` for some accesses `x`, `y` of one location. Graphs with
//! SC accesses are left to the relation check.

use weft_exec::event::EventKind;
use weft_ir::{Order, Program, Scope};

use super::{Native, Verdict};
use crate::graph::{EvId, Graph, Src};

/// A flattened thread event.
#[derive(Clone, Copy)]
struct E {
    t: u32,
    i: u32,
    /// 0 read, 1 write, 2 fence, 3 other.
    kind: u8,
    cell: u32,
    order: Order,
    scope: Option<Scope>,
    /// A write's coherence position (1-based; the initial write is 0); a read's source's.
    pos: usize,
}

impl E {
    fn at(&self) -> bool {
        self.order != Order::Plain
    }
    fn mem(&self) -> bool {
        self.kind <= 1
    }
    fn rel(&self) -> bool {
        matches!(self.order, Order::Release | Order::AcqRel | Order::SeqCst)
    }
    fn acq(&self) -> bool {
        matches!(
            self.order,
            Order::Acquire | Order::AcqRel | Order::SeqCst | Order::Consume
        )
    }
    /// The scope of a thread event as the relation check gives it (atomics without one are
    /// system-scoped; plain accesses have none).
    fn scope(&self) -> Option<Scope> {
        self.scope
            .or(if self.at() { Some(Scope::System) } else { None })
    }
    /// The event `e` of `g` (`pos` left 0).
    fn of<S>(g: &Graph<S>, e: EvId) -> E {
        let nd = g.node(e);
        E {
            t: e.0,
            i: e.1,
            kind: kind_of(&nd.ev.kind),
            cell: nd.cell,
            order: nd.ev.attrs.order,
            scope: nd.ev.attrs.scope,
            pos: 0,
        }
    }
}

fn kind_of(k: &EventKind) -> u8 {
    match k {
        EventKind::Read => 0,
        EventKind::Write => 1,
        EventKind::Fence { .. } => 2,
        EventKind::Barrier { .. } => 3,
    }
}

/// Scope inclusion as the relation check defines it (`sr`, `incl`), and `rf` restricted to
/// scope-inclusive pairs in scoped RC11.
struct Scopes<'a> {
    p: &'a Program,
    scoped: bool,
}

impl Scopes<'_> {
    fn covers(&self, a: &E, sa: Scope, b: &E) -> bool {
        a.t == b.t
            || self.p.threads[a.t as usize]
                .placement
                .same_instance(&self.p.threads[b.t as usize].placement, sa)
    }
    fn sr(&self, a: &E, b: &E) -> bool {
        match (a.scope(), b.scope()) {
            (Some(sa), Some(sb)) => self.covers(a, sa, b) && self.covers(b, sb, a),
            _ => false,
        }
    }
    fn incl(&self, a: &E, b: &E) -> bool {
        self.sr(a, b)
            && (a.at() || !a.mem())
            && (b.at() || !b.mem())
            && (!(a.mem() && b.mem()) || a.cell == b.cell)
    }
    /// The write the read `r` reads from, when the pair is in (scope-restricted) rf.
    fn rf_s(&self, src: &impl Events, r: EvId) -> Option<EvId> {
        let Some(Src::Ev(w)) = src.rf(r) else {
            return None;
        };
        (!self.scoped || self.incl(&src.ev(w), &src.ev(r))).then_some(w)
    }
}

/// What the release-sequence walk ([`synchronise`]) reads of the events: their labels,
/// their views, their sources and RMW flags.
trait Events {
    fn ev(&self, e: EvId) -> E;
    fn view(&self, e: EvId) -> &[u32];
    fn rf(&self, e: EvId) -> Option<Src>;
    fn rmw(&self, e: EvId) -> bool;
}

/// The events of the whole-graph check: flattened, with the views computed so far.
struct Flat<'a, S> {
    g: &'a Graph<S>,
    ev: &'a [E],
    off: &'a [usize],
    view: &'a [u32],
    nt: usize,
}

impl<S> Events for Flat<'_, S> {
    fn ev(&self, e: EvId) -> E {
        self.ev[self.off[e.0 as usize] + e.1 as usize]
    }
    fn view(&self, e: EvId) -> &[u32] {
        let f = self.off[e.0 as usize] + e.1 as usize;
        &self.view[f * self.nt..(f + 1) * self.nt]
    }
    fn rf(&self, e: EvId) -> Option<Src> {
        self.g.node(e).rf
    }
    fn rmw(&self, e: EvId) -> bool {
        self.g.node(e).ev.rmw
    }
}

/// The events of a graph with the views cached in it ([`Graph::hb`]).
struct Cached<'a, S> {
    g: &'a Graph<S>,
    nt: usize,
}

impl<S> Events for Cached<'_, S> {
    fn ev(&self, e: EvId) -> E {
        E::of(self.g, e)
    }
    fn view(&self, e: EvId) -> &[u32] {
        let row = self.g.node(e).hb as usize;
        &self.g.hb.rows[row * self.nt..(row + 1) * self.nt]
    }
    fn rf(&self, e: EvId) -> Option<Src> {
        self.g.node(e).rf
    }
    fn rmw(&self, e: EvId) -> bool {
        self.g.node(e).ev.rmw
    }
}

/// Checks `g` under RC11 or scoped RC11 (`races`: also the race flags, as
/// [`super::check_relations`] computes them); `None` when the graph has SC events, an
/// unplaced write or a (po ∪ rf) cycle, which the relation check handles.
pub fn check_views<S>(m: Native, p: &Program, g: &Graph<S>, races: bool) -> Option<Verdict> {
    full(m, p, g, races).map(|(v, _)| v)
}

/// [`check_views`], also returning the views (one row of `threads` counts per event, in
/// (thread, index) order).
fn full<S>(m: Native, p: &Program, g: &Graph<S>, races: bool) -> Option<(Verdict, Vec<u32>)> {
    let scoped = m == Native::ScopedRc11;
    let sc = Scopes { p, scoped };
    let nt = g.th.len();
    let (off, n, ev) = flatten(g, nt)?;
    let view = views(g, &sc, &ev, &off, n, nt)?;
    // Same-location groups, each in (thread, index) order.
    let mut mem: Vec<usize> = (0..n).filter(|&x| ev[x].mem()).collect();
    mem.sort_by_key(|&x| (ev[x].cell, x));
    let groups = location_groups(&ev, &mem);
    let mut consistent = coherent_groups(&ev, &groups, &view, nt);
    if consistent {
        consistent = rmws_atomic(g, &ev, &off);
    }
    if consistent && ev.iter().any(|e| e.kind == 2 && e.order == Order::SeqCst) {
        consistent = psc_fences_acyclic(&ev, &groups, &view, nt, scoped, &|a, b| sc.sr(a, b));
    }
    let mut v = Verdict {
        consistent,
        data_race: false,
        hetero_race: false,
        data_race_pair: None,
        hetero_race_pair: None,
        race_pairs: Vec::new(),
    };
    if consistent && races {
        race_flags(&mut v, &ev, &groups, &view, nt, &sc);
    }
    Some((v, view))
}

/// The graph's events in (thread, index) order with their coherence positions, and each
/// thread's first index (`None`: an SC access other than a fence, or an unplaced write).
fn flatten<S>(g: &Graph<S>, nt: usize) -> Option<(Vec<usize>, usize, Vec<E>)> {
    let mut off = Vec::with_capacity(nt + 1);
    let mut n = 0usize;
    for th in &g.th {
        off.push(n);
        n += th.nodes.len();
    }
    off.push(n);
    let fid = |e: EvId| off[e.0 as usize] + e.1 as usize;
    let mut copos = vec![usize::MAX; n];
    for ws in &g.co {
        for (k, w) in ws.iter().enumerate() {
            copos[fid(*w)] = k + 1;
        }
    }
    let mut ev: Vec<E> = Vec::with_capacity(n);
    for (t, th) in g.th.iter().enumerate() {
        for (i, nd) in th.nodes.iter().enumerate() {
            let kind = kind_of(&nd.ev.kind);
            let order = nd.ev.attrs.order;
            if order == Order::SeqCst && kind != 2 {
                return None;
            }
            let pos = match (kind, nd.rf) {
                (0, Some(Src::Init)) => 0,
                (0, Some(Src::Ev(w))) => copos[fid(w)],
                (1, _) => copos[off[t] + i],
                _ => 0,
            };
            if kind <= 1 && pos == usize::MAX {
                return None;
            }
            ev.push(E {
                t: t as u32,
                i: i as u32,
                kind,
                cell: nd.cell,
                order,
                scope: nd.ev.attrs.scope,
                pos,
            });
        }
    }
    Some((off, n, ev))
}

/// Views, in a (po ∪ rf)-topological order (`None`: a (po ∪ rf) cycle).
fn views<S>(
    g: &Graph<S>,
    sc: &Scopes,
    ev: &[E],
    off: &[usize],
    n: usize,
    nt: usize,
) -> Option<Vec<u32>> {
    let mut view = vec![0u32; n * nt];
    let mut join = vec![0u32; nt];
    let mut done = vec![0usize; nt];
    let mut left = n;
    while left > 0 {
        let mut moved = false;
        for t in 0..nt {
            while done[t] < g.th[t].nodes.len() {
                let i = done[t];
                if let Some(Src::Ev(w)) = g.th[t].nodes[i].rf {
                    if done[w.0 as usize] <= w.1 as usize {
                        break;
                    }
                }
                let f = off[t] + i;
                if i > 0 {
                    view.copy_within((f - 1) * nt..f * nt, f * nt);
                }
                view[f * nt + t] = i as u32 + 1;
                let e = ev[f];
                if (e.kind == 0 && e.at() && e.acq()) || (e.kind == 2 && e.acq()) {
                    join.copy_from_slice(&view[f * nt..(f + 1) * nt]);
                    let flat = Flat {
                        g,
                        ev,
                        off,
                        view: &view,
                        nt,
                    };
                    acquire(&flat, sc, (t as u32, i as u32), &e, &mut join);
                    view[f * nt..(f + 1) * nt].copy_from_slice(&join);
                }
                done[t] += 1;
                left -= 1;
                moved = true;
            }
        }
        if !moved {
            return None;
        }
    }
    Some(view)
}

/// Same-location groups of the memory events `mem` (sorted by cell, then event).
fn location_groups<'a>(ev: &[E], mem: &'a [usize]) -> Vec<&'a [usize]> {
    let mut groups: Vec<&[usize]> = Vec::new();
    let mut k = 0;
    while k < mem.len() {
        let c = ev[mem[k]].cell;
        let mut j = k;
        while j < mem.len() && ev[mem[j]].cell == c {
            j += 1;
        }
        groups.push(&mem[k..j]);
        k = j;
    }
    groups
}

/// Coherence: per group and thread, prefix maxima of write positions and read sources.
fn coherent_groups(ev: &[E], groups: &[&[usize]], view: &[u32], nt: usize) -> bool {
    let mut consistent = true;
    'groups: for grp in groups {
        // Segments per thread: (thread, start, end) into grp; prefix maxima (+1, 0: none).
        let mut segs: Vec<(u32, usize, usize)> = Vec::new();
        let (mut pw, mut pr) = (vec![0usize; grp.len()], vec![0usize; grp.len()]);
        for (x, &a) in grp.iter().enumerate() {
            let new_seg = segs.last().is_none_or(|s| s.0 != ev[a].t);
            if new_seg {
                segs.push((ev[a].t, x, x));
            }
            let (bw, br) = if new_seg || x == 0 {
                (0, 0)
            } else {
                (pw[x - 1], pr[x - 1])
            };
            let (w, r) = if ev[a].kind == 1 {
                (ev[a].pos + 1, 0)
            } else {
                (0, ev[a].pos + 1)
            };
            pw[x] = bw.max(w);
            pr[x] = br.max(r);
            if let Some(s) = segs.last_mut() {
                s.2 = x + 1;
            }
        }
        for &b in grp.iter() {
            let (mut mw, mut mr) = (0usize, 0usize);
            for &(t, s, e) in &segs {
                // hb-predecessors of b in thread t: indices below view(b)[t] (b excluded).
                let lim = if t == ev[b].t {
                    ev[b].i
                } else {
                    view[b * nt + t as usize]
                };
                let cnt = grp[s..e].partition_point(|&a| ev[a].i < lim);
                if cnt > 0 {
                    mw = mw.max(pw[s + cnt - 1]);
                    mr = mr.max(pr[s + cnt - 1]);
                }
            }
            let pb = ev[b].pos + 1;
            let ok = if ev[b].kind == 1 {
                mw < pb && mr < pb
            } else {
                mw <= pb && mr <= pb
            };
            if !ok {
                consistent = false;
                break 'groups;
            }
        }
    }
    consistent
}

/// Atomicity: no external write between an RMW's read and its write in coherence.
fn rmws_atomic<S>(g: &Graph<S>, ev: &[E], off: &[usize]) -> bool {
    let mut consistent = true;
    'rmw: for (t, th) in g.th.iter().enumerate() {
        for (i, nd) in th.nodes.iter().enumerate().skip(1) {
            if !(nd.is_write() && nd.ev.rmw) {
                continue;
            }
            let (r, x) = (off[t] + i - 1, off[t] + i);
            if ev[r].kind != 0 || ev[r].cell != ev[x].cell {
                continue;
            }
            let (lo, hi) = (ev[r].pos, ev[x].pos);
            let co = &g.co[nd.cell as usize];
            if hi > lo + 1 && co[lo..hi - 1].iter().any(|y| y.0 as usize != t) {
                consistent = false;
                break 'rmw;
            }
        }
    }
    consistent
}

/// The race flags and pairs of a consistent graph (hb from the views).
fn race_flags(
    v: &mut Verdict,
    ev: &[E],
    groups: &[&[usize]],
    view: &[u32],
    nt: usize,
    sc: &Scopes,
) {
    let scoped = sc.scoped;
    let n = ev.len();
    let hb = |a: usize, b: usize| a != b && view[b * nt + ev[a].t as usize] > ev[a].i;
    let back = |x: usize| (ev[x].t, ev[x].i);
    let group_of: std::collections::HashMap<u32, usize> = groups
        .iter()
        .enumerate()
        .map(|(k, grp)| (ev[grp[0]].cell, k))
        .collect();
    for a in 0..n {
        if !ev[a].mem() {
            continue;
        }
        for &b in groups[group_of[&ev[a].cell]].iter() {
            if a == b || ev[a].t == ev[b].t || (ev[a].kind != 1 && ev[b].kind != 1) {
                continue;
            }
            if hb(a, b) || hb(b, a) {
                continue;
            }
            if !ev[a].at() || !ev[b].at() {
                v.data_race = true;
                if v.data_race_pair.is_none() {
                    v.data_race_pair = Some((back(a), back(b)));
                }
                if a < b {
                    v.race_pairs.push((back(a), back(b), false));
                }
            } else if scoped && !sc.incl(&ev[a], &ev[b]) {
                v.hetero_race = true;
                if v.hetero_race_pair.is_none() {
                    v.hetero_race_pair = Some((back(a), back(b)));
                }
                if a < b {
                    v.race_pairs.push((back(a), back(b), true));
                }
            }
        }
    }
}

/// Checks `g` as [`check_views`] does (consistency only), reusing the views cached in the
/// graph ([`Graph::hb`]) and caching the new ones: when exactly one event lacks a view and
/// it is the last of its thread (the event the explorer just added, to a graph already
/// found consistent), only that event's view, its coherence and (for a write) the
/// atomicity of its location's RMWs are computed. This suffices: the new event has no
/// hb-successor (nothing reads from it yet, nothing follows it in po), views do not depend
/// on coherence, and placing a write in coherence keeps the order of the old positions,
/// which is all the old events' coherence compares. Otherwise (or with SC fences, whose
/// `psc` spans the graph) the whole graph is checked and its views cached. `None` where
/// [`check_views`] gives `None`.
pub fn check_incremental<S>(m: Native, p: &Program, g: &mut Graph<S>) -> Option<bool> {
    let nt = g.th.len();
    // Rows are only added for events that get a view, and only a revisit (which drops
    // them all) removes events: one event lacks a view iff the rows are one short, and
    // then it is the last of its thread when some thread's last event lacks one.
    let with_views = g.hb.rows.len() / nt.max(1);
    let new = g.th.iter().enumerate().find_map(|(t, th)| {
        th.nodes
            .last()
            .filter(|n| n.hb == u32::MAX)
            .map(|_| (t as u32, th.nodes.len() as u32 - 1))
    });
    let Some(b) = new.filter(|_| with_views + 1 == g.events() && !g.hb.sc_fence) else {
        return whole(m, p, g);
    };
    let sc = Scopes {
        p,
        scoped: m == Native::ScopedRc11,
    };
    let mut e = E::of(g, b);
    if e.order == Order::SeqCst {
        if e.kind != 2 {
            return None;
        }
        return whole(m, p, g);
    }
    // Coherence position of the event (a write's own, a read's source's).
    if e.kind <= 1 {
        let s = match (e.kind, g.node(b).rf) {
            (0, Some(s)) => s,
            (0, None) => return None,
            _ => Src::Ev(b),
        };
        e.pos = g.co_pos(e.cell, s);
        if e.pos == usize::MAX {
            return None;
        }
    }
    // The view: the po-predecessor's, the event itself, what it acquires.
    let mut view = vec![0u32; nt];
    if b.1 > 0 {
        view.copy_from_slice(Cached { g, nt }.view((b.0, b.1 - 1)));
    }
    view[b.0 as usize] = b.1 + 1;
    if (e.kind == 0 && e.at() && e.acq()) || (e.kind == 2 && e.acq()) {
        acquire(&Cached { g, nt }, &sc, b, &e, &mut view);
    }
    let consistent = (e.kind > 1 || coherent(g, &e, &view)) && (e.kind != 1 || atomic(g, e.cell));
    if crosscheck() {
        let full = full(m, p, g, false).map(|(v, rows)| (v.consistent, rows));
        let (ok, rows) = full.expect("the incremental check applies where the full one does");
        assert_eq!(consistent, ok, "incremental and full view checks disagree");
        if ok {
            let cached = Cached { g, nt };
            let mut f = 0;
            for (t, th) in g.th.iter().enumerate() {
                for (i, n) in th.nodes.iter().enumerate() {
                    let want = &rows[f * nt..(f + 1) * nt];
                    let have = if (t as u32, i as u32) == b {
                        &view[..]
                    } else {
                        cached.view((t as u32, i as u32))
                    };
                    assert_eq!(
                        have, want,
                        "cached and recomputed views of {:?} differ",
                        n.stamp
                    );
                    f += 1;
                }
            }
        }
    }
    if consistent {
        let row = (g.hb.rows.len() / nt.max(1)) as u32;
        g.hb.rows.extend_from_slice(&view);
        g.node_mut(b).hb = row;
        g.hb.sc_fence |= e.kind == 2 && e.order == Order::SeqCst;
    }
    Some(consistent)
}

/// Whether the full check is asked to confirm every incremental one (`WEFT_MC_CROSSCHECK`
/// set, or [`super::set_crosscheck`]).
fn crosscheck() -> bool {
    super::crosscheck()
}

/// The whole-graph check of [`check_incremental`], caching the views of a consistent graph.
fn whole<S>(m: Native, p: &Program, g: &mut Graph<S>) -> Option<bool> {
    let (v, rows) = full(m, p, g, false)?;
    if v.consistent {
        let mut row = 0u32;
        let mut sc_fence = false;
        for th in g.th.iter_mut() {
            for n in th.nodes.iter_mut() {
                n.hb = row;
                row += 1;
                sc_fence |= matches!(n.ev.kind, EventKind::Fence { .. })
                    && n.ev.attrs.order == Order::SeqCst;
            }
        }
        g.hb.rows = rows;
        g.hb.sc_fence = sc_fence;
    }
    Some(v.consistent)
}

/// The coherence positions of one location's writes ([`Graph::co_pos`]'s numbering: the
/// initial value 0, the k-th write k + 1, `usize::MAX` for a write not placed): a scan of
/// the coherence order per lookup made the checks quadratic in a location's events, which
/// the barrier counters of a large block have by the hundred; long orders are indexed once.
struct CoIndex<'g> {
    co: &'g [EvId],
    map: Option<std::collections::HashMap<EvId, usize>>,
}

impl<'g> CoIndex<'g> {
    fn new<S>(g: &'g Graph<S>, cell: u32) -> Self {
        let co = g.co[cell as usize].as_slice();
        let map =
            (co.len() > 16).then(|| co.iter().enumerate().map(|(i, w)| (*w, i + 1)).collect());
        CoIndex { co, map }
    }

    fn pos(&self, s: Src) -> usize {
        match (s, &self.map) {
            (Src::Init, _) => 0,
            (Src::Ev(x), Some(m)) => m.get(&x).copied().unwrap_or(usize::MAX),
            (Src::Ev(x), None) => self
                .co
                .iter()
                .position(|w| *w == x)
                .map_or(usize::MAX, |i| i + 1),
        }
    }
}

/// Coherence of the memory event `e` (with its view `view`) against its hb-predecessors of
/// the same location: writes below its position (reads: at most), and sources of reads
/// likewise (`hb ; eco?` irreflexive at `e`, as [`check_views`] compares it). The old
/// events are all placed in coherence (they were checked).
fn coherent<S>(g: &Graph<S>, e: &E, view: &[u32]) -> bool {
    let co = CoIndex::new(g, e.cell);
    let (mut mw, mut mr) = (0usize, 0usize);
    for (u, th) in g.th.iter().enumerate() {
        let lim = if u as u32 == e.t { e.i } else { view[u] };
        for (k, n) in th.nodes[..lim as usize].iter().enumerate() {
            if n.cell != e.cell {
                continue;
            }
            match (&n.ev.kind, n.rf) {
                (EventKind::Write, _) => {
                    let pos = co.pos(Src::Ev((u as u32, k as u32)));
                    mw = mw.max(pos.saturating_add(1));
                }
                (EventKind::Read, Some(s)) => {
                    mr = mr.max(co.pos(s).saturating_add(1));
                }
                _ => {}
            }
        }
    }
    let pb = e.pos + 1;
    if e.kind == 1 {
        mw < pb && mr < pb
    } else {
        mw <= pb && mr <= pb
    }
}

/// Atomicity at one location: no external write between an RMW's read and its write in
/// coherence.
fn atomic<S>(g: &Graph<S>, cell: u32) -> bool {
    let index = CoIndex::new(g, cell);
    let co = &g.co[cell as usize];
    for (k, &x) in co.iter().enumerate() {
        if !(g.node(x).ev.rmw && x.1 > 0) {
            continue;
        }
        let r = g.node((x.0, x.1 - 1));
        if r.ev.kind != EventKind::Read || r.cell != cell {
            continue;
        }
        // (Every source is placed: the graph's other events were checked.)
        let lo = r.rf.map_or(usize::MAX, |s| index.pos(s));
        let hi = k + 1;
        if lo == usize::MAX {
            return false;
        }
        if hi > lo + 1 && co[lo..hi - 1].iter().any(|y| y.0 != x.0) {
            return false;
        }
    }
    true
}

/// Joins into `out` (the view of `b`, at `e`) what `b` acquires: for an acquire read,
/// through its own source; for an acquire fence, through the source of every atomic read
/// before it in its thread.
fn acquire(src: &impl Events, sc: &Scopes, e: EvId, b: &E, out: &mut [u32]) {
    if b.kind == 0 {
        synchronise(src, sc, e, b, out);
    } else {
        for i in 0..e.1 {
            let r = src.ev((e.0, i));
            if r.kind == 0 && r.at() {
                synchronise(src, sc, (e.0, i), b, out);
            }
        }
    }
}

/// Joins into `out` (the view of `b`, an acquire read, or an acquire fence after the atomic
/// read `r`) the view of the po-latest release event that synchronises with it through the
/// release sequence ending at the write `r` reads from: `[Rel] ; ([F] ; po)? ; rs ; rf`.
fn synchronise(src: &impl Events, sc: &Scopes, r: EvId, b: &E, out: &mut [u32]) {
    let Some(mut x) = sc.rf_s(src, r) else {
        return;
    };
    loop {
        let e = src.ev(x);
        if e.kind == 1 && e.at() {
            // Release heads of x: release writes of its location up to x, release fences
            // before x, in its thread; the po-latest (with scope inclusion) has the
            // largest view.
            for a in (0..=x.1).rev() {
                let c = src.ev((x.0, a));
                let head = (c.kind == 1 && c.cell == e.cell && c.rel())
                    || (c.kind == 2 && c.rel() && a < x.1);
                if head && (!sc.scoped || sc.sr(&c, b)) {
                    for (o, v) in out.iter_mut().zip(src.view((x.0, a))) {
                        if *o < *v {
                            *o = *v;
                        }
                    }
                    break;
                }
            }
        }
        // The release sequence continues backwards through RMWs reading (rf_s) a write.
        if !(e.kind == 1 && src.rmw(x) && x.1 > 0) {
            break;
        }
        let r2 = (x.0, x.1 - 1);
        if src.ev(r2).kind != 0 {
            break;
        }
        match sc.rf_s(src, r2) {
            Some(x2) => x = x2,
            None => break,
        }
    }
}

/// SC with SC fences only: `psc` over the SC fences (`a hb b`, or `a hb x ; eco ; y hb b`,
/// restricted to scope-inclusive pairs in scoped RC11) must be acyclic. `eco` between
/// same-location events is a comparison of keys: `x eco y` iff `lo(x) < hi(y)` with a
/// write at twice its coherence position and a read just after its source's.
fn psc_fences_acyclic(
    ev: &[E],
    groups: &[&[usize]],
    view: &[u32],
    nt: usize,
    scoped: bool,
    sr: &dyn Fn(&E, &E) -> bool,
) -> bool {
    let key = |x: usize| {
        if ev[x].kind == 1 {
            2 * ev[x].pos
        } else {
            2 * ev[x].pos + 1
        }
    };
    let hb = |a: usize, b: usize| a != b && view[b * nt + ev[a].t as usize] > ev[a].i;
    let fences: Vec<usize> = (0..ev.len())
        .filter(|&x| ev[x].kind == 2 && ev[x].order == Order::SeqCst)
        .collect();
    let k = fences.len();
    // Per fence: per location group, the least key among its hb-successors and the
    // greatest among its hb-predecessors.
    let mut lo = vec![usize::MAX; k * groups.len()];
    let mut hi = vec![0usize; k * groups.len()];
    let mut has_hi = vec![false; k * groups.len()];
    for (fi, &f) in fences.iter().enumerate() {
        for (gi, grp) in groups.iter().enumerate() {
            for &x in grp.iter() {
                if hb(f, x) {
                    lo[fi * groups.len() + gi] = lo[fi * groups.len() + gi].min(key(x));
                }
                if hb(x, f) {
                    let s = fi * groups.len() + gi;
                    hi[s] = hi[s].max(key(x));
                    has_hi[s] = true;
                }
            }
        }
    }
    let mut adj = vec![false; k * k];
    for (ai, &a) in fences.iter().enumerate() {
        for (bi, &b) in fences.iter().enumerate() {
            if scoped && !sr(&ev[a], &ev[b]) {
                continue;
            }
            let via_eco = (0..groups.len()).any(|gi| {
                let (l, h) = (lo[ai * groups.len() + gi], bi * groups.len() + gi);
                has_hi[h] && l < hi[h]
            });
            adj[ai * k + bi] = hb(a, b) || via_eco;
        }
    }
    // Acyclic: repeatedly remove fences without predecessors.
    let mut indeg: Vec<usize> = (0..k)
        .map(|b| (0..k).filter(|&a| adj[a * k + b]).count())
        .collect();
    let mut queue: Vec<usize> = (0..k).filter(|&b| indeg[b] == 0).collect();
    let mut removed = 0;
    while let Some(a) = queue.pop() {
        removed += 1;
        for b in 0..k {
            if adj[a * k + b] {
                indeg[b] -= 1;
                if indeg[b] == 0 {
                    queue.push(b);
                }
            }
        }
    }
    removed == k
}
