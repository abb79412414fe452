//! The execution adapter: a [`Candidate`] as a `weft_cat::ExecutionBase`, with the whole
//! vocabulary `.cat` models read (paper 000 §5.1: events, `po`, `rf`, `co`, dependencies,
//! scope relations from the scope tree, fence relations included in `po`; paper 004 §3:
//! scope inclusion; herd's C annotations; the GPU tags and relations of Dat3M's models).
//!
//! The work is split in two: [`SkeletonExec`] builds everything that depends only on the
//! chosen thread traces (events, tags, `po`, dependencies, scope and fence relations) once
//! per skeleton; [`SkeletonExec::with`] adds the `rf` and `co` of one candidate. Every
//! name of [`SETS`] and [`RELATIONS`] is declared, so a tag no event carries evaluates to
//! the empty set instead of being unknown. `docs/cat.md` ("Execution vocabulary") lists
//! the names and their meaning.

use std::cell::RefCell;
use std::collections::HashMap;

/// Caches looked up for every name of every evaluation: a fast non-cryptographic hash.
type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<rustc_hash::FxHasher>>;

use weft_cat::{
    BitSet, Event as CatEvent, EventKind as CatKind, Execution, ExecutionBase, Relation,
};
use weft_ir::{BarrierKind, CacheOp, FenceKind, MemAttrs, MemSpace, Order, Program, Proxy, Scope};

use crate::candidates::{Candidate, Event, Skeleton};
use crate::traces::EventKind;

/// Every event set the adapter may populate (besides the kind sets `R W M F B IW FW RMW`
/// that `ExecutionBase` computes itself).
pub const SETS: &[&str] = &[
    // memory orders: herd C names and PTX names
    "NA",
    "A",
    "RLX",
    "ACQ",
    "REL",
    "ACQ_REL",
    "SC",
    "WEAK",
    "STRONG",
    "CONSUME",
    // volatile
    "V",
    // scopes of annotations (PTX, Vulkan, OpenCL spellings)
    "WI",
    "WARP",
    "CTA",
    "GPU",
    "SYS",
    "SG",
    "WG",
    "QF",
    "DV",
    "DEV",
    "ALL",
    // proxies
    "GEN",
    "SUR",
    "TEX",
    "CON",
    "ALIAS",
    // fences and barriers
    "MEMBAR",
    "FENCE",
    "PROXY",
    "AVDEVICE",
    "VISDEVICE",
    "BAR",
    "BAR_SYNC",
    "BAR_ARRIVE",
    "BAR_WARP",
    "F.proxy",
    "F.proxy.alias",
    "F.proxy.surface",
    "F.proxy.texture",
    "F.proxy.constant",
    // cache operators
    "CA",
    "CG",
    "CS",
    "LU",
    "CV",
    "WB",
    "WT",
    // memory spaces
    "GLOBAL",
    "SHARED",
    "LOCAL",
    "CONSTANT",
    "PARAM",
    "GENERIC",
    // Vulkan
    "ATOM",
    "SC0",
    "SC1",
    "SC2",
    "SC3",
    "SEMSC0",
    "SEMSC1",
    "SEMSC2",
    "SEMSC3",
    "SEMAV",
    "SEMVIS",
    "AV",
    "VIS",
    "NONPRIV",
];

/// Every relation the adapter provides (besides `loc int ext id`, which `ExecutionBase`
/// computes from the events).
pub const RELATIONS: &[&str] = &[
    "po",
    "rf",
    "co",
    "rmw",
    "amo",
    "addr",
    "data",
    "ctrl",
    "vloc",
    // same-instance relations per scope level
    "warp",
    "swarp",
    "cta",
    "scta",
    "gl",
    "sgpu",
    "sys",
    "ssys",
    "ssg",
    "swg",
    "sqf",
    "sdv", // Dat3M's scope relations
    "sr",
    "incl",
    "syncbar",
    "sync_fence",
    "ssw",
    // fence relations (fencerel-style)
    "membar.cta",
    "membar.gl",
    "membar.sys",
];

/// The skeleton part of an execution, shared by all of its candidates. The base sets and
/// relations are built into bit matrices once, on first use, and shared by every
/// candidate's evaluation ([`SkeletonExec::candidate`]).
pub struct SkeletonExec {
    base: ExecutionBase,
    bars: crate::barriers::Matching,
    rels: RefCell<FastMap<String, Option<Relation>>>,
    sets: RefCell<FastMap<String, Option<BitSet>>>,
    /// Writes to a location (what `FW` is taken from).
    located_writes: BitSet,
}

/// One candidate of a skeleton as a `weft_cat` execution: the skeleton's cached base
/// sets and relations plus the candidate's `rf`, `co` and barrier synchronisation.
pub struct CandidateExec<'x> {
    sx: &'x SkeletonExec,
    rf: Relation,
    co: Relation,
    syncbar: Relation,
}

impl Execution for CandidateExec<'_> {
    fn num_events(&self) -> usize {
        self.sx.base.num_events()
    }

    fn base_set(&self, name: &str) -> Option<BitSet> {
        if name == "FW" {
            return Some(self.sx.located_writes.difference(&self.co.domain()));
        }
        if let Some(s) = self.sx.sets.borrow().get(name) {
            return s.clone();
        }
        let s = self.sx.base.base_set(name);
        self.sx
            .sets
            .borrow_mut()
            .insert(name.to_string(), s.clone());
        s
    }

    fn base_relation(&self, name: &str) -> Option<Relation> {
        match name {
            "rf" => return Some(self.rf.clone()),
            "co" => return Some(self.co.clone()),
            "syncbar" => return Some(self.syncbar.clone()),
            _ => {}
        }
        if let Some(r) = self.sx.rels.borrow().get(name) {
            return r.clone();
        }
        let r = self.sx.base.base_relation(name);
        self.sx
            .rels
            .borrow_mut()
            .insert(name.to_string(), r.clone());
        r
    }
}

impl SkeletonExec {
    /// Builds events, tags and every relation except `rf` and `co`.
    pub fn new(p: &Program, sk: &Skeleton) -> Self {
        let mut x = ExecutionBase::new();
        for s in SETS {
            x.declare_set(s);
        }
        for r in RELATIONS {
            x.declare_relation(r);
        }
        for r in &p.relations {
            x.declare_relation(&r.name);
        }
        let mut cell_ids = HashMap::new();
        for (i, (c, _, _)) in sk.cells.iter().enumerate() {
            cell_ids.insert(*c, i);
        }
        for e in &sk.events {
            x.add_event(cat_event(p, e, &cell_ids));
        }
        for &(a, b) in &sk.po {
            x.add_edge("po", a, b);
        }
        for &(a, b) in &sk.rmw {
            x.add_edge("rmw", a, b);
            x.add_edge("amo", a, b);
        }
        for (name, edges) in [("addr", &sk.addr), ("data", &sk.data), ("ctrl", &sk.ctrl)] {
            for &(a, b) in edges {
                x.add_edge(name, a, b);
            }
        }
        let n = sk.events.len();
        // vloc: same virtual address and element. A proxy alias (`t @ texture aliases
        // x`) names x's address through another proxy, so it resolves to x; a generic
        // alias (`y @ generic aliases x`) is a second virtual address (a synonym).
        let virtual_loc = |mut l: weft_ir::LocId| {
            for _ in 0..p.locations.len() {
                match &p.locations[l.index()].alias {
                    Some(a) if !matches!(a.proxy, None | Some(Proxy::Generic)) => l = a.of,
                    _ => break,
                }
            }
            l
        };
        let mut by_vloc: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
        for (i, e) in sk.events.iter().enumerate() {
            if let (Some(v), Some(c)) = (e.via, e.cell) {
                by_vloc
                    .entry((virtual_loc(v).0, c.index))
                    .or_default()
                    .push(i);
            }
        }
        for class in by_vloc.values() {
            x.add_class("vloc", class);
        }
        // Same-instance relations (paper 000 §5.1.2: "the scope relations come directly
        // from the scope tree"). Same-thread pairs are in every level; initial writes are
        // related to every event.
        // Whether threads t and u share an instance of each scope, computed once per
        // thread pair (the event loops below ask it for every pair of events).
        let nt = p.threads.len();
        let shared: Vec<Vec<bool>> = Scope::ALL
            .iter()
            .map(|&s| {
                (0..nt * nt)
                    .map(|i| {
                        let (t, u) = (i / nt, i % nt);
                        t == u
                            || p.threads[t]
                                .placement
                                .same_instance(&p.threads[u].placement, s)
                    })
                    .collect()
            })
            .collect();
        let level = |s: Scope| Scope::ALL.iter().position(|x| *x == s).unwrap_or(0);
        let shares = |t: usize, u: usize, s: Scope| shared[level(s)][t * nt + u];
        let same = |a: &Event, b: &Event, s: Scope| match (a.thread, b.thread) {
            (Some(t), Some(u)) => shares(t, u, s),
            _ => true,
        };
        let levels: [(Scope, &[&str]); 5] = [
            (Scope::Warp, &["warp", "swarp", "ssg"]),
            (Scope::Cta, &["cta", "scta", "swg"]),
            (Scope::QueueFamily, &["sqf"]),
            (Scope::Gpu, &["gl", "sgpu", "sdv"]),
            (Scope::System, &["sys", "ssys"]),
        ];
        for (scope, names) in levels {
            let mut pairs = Vec::new();
            for a in 0..n {
                for b in 0..n {
                    if same(&sk.events[a], &sk.events[b], scope) {
                        pairs.push((a, b));
                    }
                }
            }
            for name in names {
                x.add_edges(name, pairs.iter().copied());
            }
        }
        // sr: each event's scope includes the other's thread; incl (paper 004 §3): sr
        // between atomic events, restricted to the same location when both are accesses.
        let ev_scope = |e: &Event| -> Option<Scope> {
            e.thread?;
            match &e.kind {
                EventKind::Barrier { scope, .. } => Some(*scope),
                _ => e.attrs.scope.or(if e.attrs.order.is_atomic() {
                    Some(Scope::System)
                } else {
                    None
                }),
            }
        };
        let covers = |a: &Event, sa: Scope, b: &Event| match (a.thread, b.thread) {
            (Some(t), Some(u)) => shares(t, u, sa),
            _ => false,
        };
        for a in 0..n {
            let ea = &sk.events[a];
            let Some(sa) = ev_scope(ea) else { continue };
            for b in 0..n {
                let eb = &sk.events[b];
                let Some(sb) = ev_scope(eb) else { continue };
                if covers(ea, sa, eb) && covers(eb, sb, ea) {
                    x.add_edge("sr", a, b);
                    let atomic = |e: &Event| {
                        e.attrs.order.is_atomic()
                            || !matches!(e.kind, EventKind::Read | EventKind::Write)
                    };
                    let both_mem = ea.cell.is_some() && eb.cell.is_some();
                    if atomic(ea) && atomic(eb) && (!both_mem || ea.cell == eb.cell) {
                        x.add_edge("incl", a, b);
                    }
                }
            }
        }
        let bars = crate::barriers::matching(p, &sk.events, &sk.po);
        // Fence relations (herd's fencerel): po ; [fence of that scope] ; po. A PTX
        // `membar.X` is `fence.sc.X`, so SC fences count as membars of their scope.
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b) in &sk.po {
            succs[a].push(b);
            preds[b].push(a);
        }
        let mut sc_fences = Vec::new();
        for (f, e) in sk.events.iter().enumerate() {
            let EventKind::Fence { kind, .. } = &e.kind else {
                continue;
            };
            let is_membar = *kind == FenceKind::Membar
                || (*kind == FenceKind::Fence && e.attrs.order == Order::SeqCst);
            if !is_membar {
                continue;
            }
            sc_fences.push(f);
            let name = match e.attrs.scope.unwrap_or(Scope::System) {
                Scope::Thread | Scope::Warp | Scope::Cta => "membar.cta",
                Scope::QueueFamily | Scope::Gpu => "membar.gl",
                Scope::System => "membar.sys",
            };
            for &a in &preds[f] {
                for &b in &succs[f] {
                    x.add_edge(name, a, b);
                }
            }
        }
        // sync_fence: pairs of distinct SC fences whose scopes include each other.
        for &a in &sc_fences {
            for &b in &sc_fences {
                if a != b {
                    let (ea, eb) = (&sk.events[a], &sk.events[b]);
                    let sa = ea.attrs.scope.unwrap_or(Scope::System);
                    let sb = eb.attrs.scope.unwrap_or(Scope::System);
                    if covers(ea, sa, eb) && covers(eb, sb, ea) {
                        x.add_edge("sync_fence", a, b);
                    }
                }
            }
        }
        // Relations the test names between threads (Vulkan `ssw`): all their event pairs.
        for r in &p.relations {
            let of = |t: usize| -> Vec<usize> {
                (0..n).filter(|&i| sk.events[i].thread == Some(t)).collect()
            };
            for a in of(r.from) {
                for b in of(r.to) {
                    x.add_edge(&r.name, a, b);
                }
            }
        }
        let located_writes = BitSet::from_events(
            n,
            sk.events
                .iter()
                .enumerate()
                .filter(|(_, e)| e.is_write() && e.cell.is_some())
                .map(|(i, _)| i),
        );
        SkeletonExec {
            base: x,
            bars,
            rels: RefCell::new(FastMap::default()),
            sets: RefCell::new(FastMap::default()),
            located_writes,
        }
    }

    /// The execution of one candidate with barrier synchronisation `choice`, sharing the
    /// skeleton's cached sets and relations (what the simulator evaluates).
    pub fn candidate(&self, c: &Candidate, choice: usize) -> CandidateExec<'_> {
        let n = self.base.num_events();
        let syncbar = Relation::from_pairs(
            n,
            self.bars
                .choices
                .get(choice)
                .map(|e| e.as_slice())
                .unwrap_or(&[])
                .iter()
                .copied(),
        );
        CandidateExec {
            sx: self,
            rf: Relation::from_pairs(n, c.rf.iter().copied()),
            co: Relation::from_pairs(n, c.co.iter().copied()),
            syncbar,
        }
    }

    /// The upper bound of a partial candidate ([`Candidate::upper_bound`]) as an
    /// execution with barrier synchronisation `choice` (for
    /// `weft_cat::Model::evaluate_partial`).
    pub fn upper_candidate(&self, c: &Candidate, choice: usize) -> CandidateExec<'_> {
        let (rf, co) = c.upper_bound();
        let mut x = self.candidate(c, choice);
        let n = self.base.num_events();
        x.rf = Relation::from_pairs(n, rf);
        x.co = Relation::from_pairs(n, co);
        x
    }

    /// How many barrier synchronisations the skeleton has (0: its threads hang).
    pub fn choices(&self) -> usize {
        self.bars.choices.len()
    }

    /// Why the skeleton's threads hang at their barriers, if they do.
    pub fn hang(&self) -> Option<&str> {
        self.bars.hang.as_deref()
    }

    /// The complete execution of one candidate of this skeleton, with its first barrier
    /// synchronisation.
    pub fn with(&self, c: &Candidate) -> ExecutionBase {
        self.with_choice(c, 0)
    }

    /// The complete execution of one candidate with barrier synchronisation `choice`
    /// (`< choices()`; none is added past the end).
    pub fn with_choice(&self, c: &Candidate, choice: usize) -> ExecutionBase {
        let mut x = self.base.clone();
        if let Some(edges) = self.bars.choices.get(choice) {
            for &(a, b) in edges {
                x.add_edge("syncbar", a, b);
            }
        }
        for &(w, r) in &c.rf {
            x.add_edge("rf", w, r);
        }
        for &(a, b) in &c.co {
            x.add_edge("co", a, b);
        }
        x
    }
}

/// The execution of one candidate (builds the skeleton part too; for many candidates of
/// one skeleton use [`SkeletonExec`]).
pub fn execution(p: &Program, c: &Candidate) -> ExecutionBase {
    SkeletonExec::new(p, c.skeleton).with(c)
}

fn scope_tags(s: Scope) -> &'static [&'static str] {
    match s {
        Scope::Thread => &["WI"],
        Scope::Warp => &["WARP", "SG"],
        Scope::Cta => &["CTA", "WG"],
        Scope::QueueFamily => &["QF"],
        Scope::Gpu => &["GPU", "DV", "DEV"],
        Scope::System => &["SYS", "ALL"],
    }
}

fn space_tag(s: MemSpace) -> &'static str {
    match s {
        MemSpace::Global => "GLOBAL",
        MemSpace::Shared => "SHARED",
        MemSpace::Local => "LOCAL",
        MemSpace::Constant => "CONSTANT",
        MemSpace::Param => "PARAM",
        MemSpace::Generic => "GENERIC",
    }
}

fn proxy_tag(p: Proxy) -> &'static str {
    match p {
        Proxy::Generic => "GEN",
        Proxy::Surface => "SUR",
        Proxy::Texture => "TEX",
        Proxy::Constant => "CON",
    }
}

fn order_tags(o: Order, tags: &mut Vec<String>, access: bool) {
    let names: &[&str] = match o {
        Order::Plain => {
            if access {
                &["NA", "WEAK"]
            } else {
                &[]
            }
        }
        Order::Relaxed => &["RLX"],
        Order::Consume => &["ACQ", "CONSUME"],
        Order::Acquire => &["ACQ"],
        Order::Release => &["REL"],
        Order::AcqRel => &["ACQ_REL"],
        Order::SeqCst => &["SC"],
    };
    tags.extend(names.iter().map(|s| s.to_string()));
    if access && o.is_atomic() {
        tags.extend(["A", "STRONG", "ATOM"].map(String::from));
    }
}

fn attr_tags(a: &MemAttrs, tags: &mut Vec<String>) {
    if let Some(s) = a.scope {
        tags.extend(scope_tags(s).iter().map(|s| s.to_string()));
    }
    if a.volatile {
        tags.push("V".into());
    }
    if let Some(c) = a.cache {
        let t = match c {
            CacheOp::Ca => "CA",
            CacheOp::Cg => "CG",
            CacheOp::Cs => "CS",
            CacheOp::Lu => "LU",
            CacheOp::Cv => "CV",
            CacheOp::Wb => "WB",
            CacheOp::Wt => "WT",
        };
        tags.push(t.into());
    }
    let v = &a.vulkan;
    for (on, t) in [
        (v.av, "AV"),
        (v.vis, "VIS"),
        (v.nonpriv, "NONPRIV"),
        (v.sem_av, "SEMAV"),
        (v.sem_vis, "SEMVIS"),
    ] {
        if on {
            tags.push(t.into());
        }
    }
    if let Some(c) = v.storage_class {
        tags.push(format!("SC{c}"));
    }
    for c in &v.sem_classes {
        tags.push(format!("SEMSC{c}"));
    }
}

/// The memory region of a location as the models see it. OpenCL kernels name memory
/// through pointer parameters: a location reached only through pointers without an
/// address-space qualifier (`volatile int* x` in herd's OpenCL tests) is in no region
/// (`GENERIC`), so region-specific rules (per-region happens-before, visible side
/// effects) do not apply to it, as in Dat3M's reading of those tests.
fn region(p: &Program, loc: weft_ir::LocId) -> MemSpace {
    let l = p.loc(loc);
    if p.arch == weft_ir::Arch::OpenCl && l.space == MemSpace::Global {
        let mut named = p
            .threads
            .iter()
            .flat_map(|t| &t.params)
            .filter(|q| q.loc == loc);
        let mut any = false;
        let unqualified = named.all(|q| {
            any = true;
            q.space.is_none()
        });
        if any && unqualified {
            return MemSpace::Generic;
        }
    }
    l.space
}

fn cat_event(p: &Program, e: &Event, cell_ids: &HashMap<crate::traces::Cell, usize>) -> CatEvent {
    let location = e.cell.and_then(|c| cell_ids.get(&c).copied());
    let mut tags = Vec::new();
    let kind = match &e.kind {
        EventKind::Read => CatKind::Read,
        EventKind::Write => CatKind::Write,
        EventKind::Fence { .. } | EventKind::Barrier { .. } => CatKind::Fence,
    };
    if e.is_init() {
        if let Some(c) = e.cell {
            tags.push(space_tag(region(p, c.loc)).to_string());
        }
        return CatEvent {
            kind,
            thread: None,
            location,
            init: true,
            tags,
        };
    }
    match &e.kind {
        EventKind::Read | EventKind::Write => {
            order_tags(e.attrs.order, &mut tags, true);
            // The proxy of an access: its own annotation, else the alias it goes through.
            let proxy = match e.via.and_then(|v| p.loc(v).alias.as_ref()) {
                Some(al) if e.attrs.proxy == Proxy::Generic => al.proxy.unwrap_or(Proxy::Generic),
                _ => e.attrs.proxy,
            };
            tags.push(proxy_tag(proxy).into());
            let space = e
                .attrs
                .space
                .filter(|s| *s != MemSpace::Generic)
                .or_else(|| e.cell.map(|c| region(p, c.loc)))
                .unwrap_or_default();
            tags.push(space_tag(space).into());
        }
        EventKind::Fence { kind, spaces } => {
            order_tags(e.attrs.order, &mut tags, false);
            match kind {
                FenceKind::Membar => tags.extend(["MEMBAR", "FENCE"].map(String::from)),
                FenceKind::Fence => tags.push("FENCE".into()),
                FenceKind::ProxyFence(px) => {
                    tags.extend(["PROXY", "F.proxy"].map(String::from));
                    let (t, f) = match px {
                        None => ("ALIAS", "F.proxy.alias"),
                        Some(Proxy::Surface) => ("SUR", "F.proxy.surface"),
                        Some(Proxy::Texture) => ("TEX", "F.proxy.texture"),
                        Some(Proxy::Constant) => ("CON", "F.proxy.constant"),
                        Some(Proxy::Generic) => ("GEN", "F.proxy"),
                    };
                    tags.push(t.into());
                    tags.push(f.into());
                }
                FenceKind::AvDevice => tags.push("AVDEVICE".into()),
                FenceKind::VisDevice => tags.push("VISDEVICE".into()),
            }
            tags.extend(spaces.iter().map(|s| space_tag(*s).to_string()));
        }
        EventKind::Barrier {
            kind,
            scope,
            spaces,
            ..
        } => {
            order_tags(e.attrs.order, &mut tags, false);
            tags.push("BAR".into());
            tags.push(
                match kind {
                    BarrierKind::Sync => "BAR_SYNC",
                    BarrierKind::Arrive => "BAR_ARRIVE",
                    BarrierKind::Warp => "BAR_WARP",
                }
                .into(),
            );
            if e.attrs.scope.is_none() {
                tags.extend(scope_tags(*scope).iter().map(|s| s.to_string()));
            }
            tags.extend(spaces.iter().map(|s| space_tag(*s).to_string()));
        }
    }
    attr_tags(&e.attrs, &mut tags);
    tags.sort();
    tags.dedup();
    CatEvent {
        kind,
        thread: e.thread,
        location,
        init: false,
        tags,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::for_each_candidate;
    use crate::traces::{thread_traces, Limits};

    #[test]
    fn gpu_ptx_mp_has_scopes_fences_and_tags() {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/corpus/paper000/mp-L1+membar.cta.litmus"
        ))
        .unwrap();
        let p = weft_litmus::parse(&src).unwrap();
        let tt = thread_traces(&p, Limits::default()).unwrap();
        let mut seen = 0;
        for_each_candidate(&p, &tt, &mut |c| {
            let x = execution(&p, c);
            // Two initial writes, T0: st, membar, st; T1: ld, membar, ld.
            assert_eq!(x.num_events(), 8);
            let m = x.base_relation("membar.cta").unwrap();
            assert!(m.contains(2, 4) && m.contains(5, 7));
            assert!(x.base_relation("membar.gl").unwrap().is_empty());
            let cta = x.base_relation("cta").unwrap();
            assert!(!cta.contains(2, 5) && cta.contains(2, 4) && cta.contains(0, 5));
            assert!(x.base_relation("gl").unwrap().contains(2, 5));
            assert!(x.base_set("CG").unwrap().contains(2));
            assert!(x.base_set("CA").unwrap().contains(5));
            assert!(x.base_set("SC").unwrap().contains(3));
            assert!(x.base_set("TEX").unwrap().is_empty());
            // The two membar.cta are in different CTAs: not in each other's scope.
            assert!(!x.base_relation("sync_fence").unwrap().contains(3, 6));
            seen += 1;
            true
        });
        assert_eq!(seen, 4);
    }
}
