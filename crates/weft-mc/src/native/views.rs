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

use weft_ir::{Order, Program, Scope};
use weft_sim::traces::EventKind;

use super::{Native, Verdict};
use crate::graph::{EvId, Graph, Src};

/// A flattened thread event.
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
}

/// Checks `g` under RC11 or scoped RC11 (`races`: also the race flags, as
/// [`super::check_relations`] computes them); `None` when the graph has SC events, an
/// unplaced write or a (po ∪ rf) cycle, which the relation check handles.
pub fn check_views<S>(m: Native, p: &Program, g: &Graph<S>, races: bool) -> Option<Verdict> {
    let scoped = m == Native::ScopedRc11;
    let nt = g.th.len();
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
            let kind = match nd.ev.kind {
                EventKind::Read => 0,
                EventKind::Write => 1,
                EventKind::Fence { .. } => 2,
                EventKind::Barrier { .. } => 3,
            };
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
    let covers = |a: &E, sa: Scope, b: &E| {
        a.t == b.t
            || p.threads[a.t as usize]
                .placement
                .same_instance(&p.threads[b.t as usize].placement, sa)
    };
    let sr = |a: &E, b: &E| match (a.scope(), b.scope()) {
        (Some(sa), Some(sb)) => covers(a, sa, b) && covers(b, sb, a),
        _ => false,
    };
    let incl = |a: &E, b: &E| {
        sr(a, b)
            && (a.at() || !a.mem())
            && (b.at() || !b.mem())
            && (!(a.mem() && b.mem()) || a.cell == b.cell)
    };
    // rf restricted to scope-inclusive pairs (scoped RC11), from a write event.
    let rf_s = |r: usize| -> Option<usize> {
        let Some(Src::Ev(w)) = g.th[ev[r].t as usize].nodes[ev[r].i as usize].rf else {
            return None;
        };
        let w = fid(w);
        (!scoped || incl(&ev[w], &ev[r])).then_some(w)
    };
    // Views, in a (po ∪ rf)-topological order.
    let mut view = vec![0u32; n * nt];
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
                let e = &ev[f];
                if e.kind == 0 && e.at() && e.acq() {
                    synchronise(&ev, &off, g, &mut view, nt, f, f, &rf_s, &sr, scoped);
                } else if e.kind == 2 && e.acq() {
                    for r in off[t]..f {
                        if ev[r].kind == 0 && ev[r].at() {
                            synchronise(&ev, &off, g, &mut view, nt, r, f, &rf_s, &sr, scoped);
                        }
                    }
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
    let hb = |a: usize, b: usize| a != b && view[b * nt + ev[a].t as usize] > ev[a].i;
    // Same-location groups, each in (thread, index) order.
    let mut mem: Vec<usize> = (0..n).filter(|&x| ev[x].mem()).collect();
    mem.sort_by_key(|&x| (ev[x].cell, x));
    let mut consistent = true;
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
    // Coherence: per group and thread, prefix maxima of write positions and read sources.
    'groups: for grp in &groups {
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
    // Atomicity: no external write between an RMW's read and its write in coherence.
    if consistent {
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
    }
    if consistent && ev.iter().any(|e| e.kind == 2 && e.order == Order::SeqCst) {
        consistent = psc_fences_acyclic(&ev, &groups, &view, nt, scoped, &sr);
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
                } else if scoped && !incl(&ev[a], &ev[b]) {
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
    Some(v)
}

/// Joins into the view of `b` (an acquire read, or an acquire fence after the atomic read
/// `r`) the view of the po-latest release event that synchronises with it through the
/// release sequence ending at the write `r` reads from: `[Rel] ; ([F] ; po)? ; rs ; rf`.
#[allow(clippy::too_many_arguments)]
fn synchronise<S>(
    ev: &[E],
    off: &[usize],
    g: &Graph<S>,
    view: &mut [u32],
    nt: usize,
    r: usize,
    b: usize,
    rf_s: &dyn Fn(usize) -> Option<usize>,
    sr: &dyn Fn(&E, &E) -> bool,
    scoped: bool,
) {
    let Some(mut x) = rf_s(r) else {
        return;
    };
    loop {
        let e = &ev[x];
        if e.kind == 1 && e.at() {
            // Release heads of x: release writes of its location up to x, release fences
            // before x, in its thread; the po-latest (with scope inclusion) has the
            // largest view.
            let t = e.t as usize;
            let base = off[t];
            for a in (base..=x).rev() {
                let c = &ev[a];
                let head = (c.kind == 1 && c.cell == e.cell && c.rel())
                    || (c.kind == 2 && c.rel() && a < x);
                if head && (!scoped || sr(c, &ev[b])) {
                    for u in 0..nt {
                        let v = view[a * nt + u];
                        if view[b * nt + u] < v {
                            view[b * nt + u] = v;
                        }
                    }
                    break;
                }
            }
        }
        // The release sequence continues backwards through RMWs reading (rf_s) a write.
        let nd = &g.th[e.t as usize].nodes[e.i as usize];
        if !(e.kind == 1 && nd.ev.rmw && e.i > 0) {
            break;
        }
        let r2 = x - 1;
        if ev[r2].kind != 0 {
            break;
        }
        match rf_s(r2) {
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
