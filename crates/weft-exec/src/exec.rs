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
use std::rc::Rc;

/// Caches looked up for every name of every evaluation: a fast non-cryptographic hash.
type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<rustc_hash::FxHasher>>;

use weft_cat::{
    BitSet, Event as CatEvent, EventKind as CatKind, Execution, ExecutionBase, Relation,
};
use weft_ir::{BarrierKind, CacheOp, FenceKind, MemAttrs, MemSpace, Order, Program, Proxy, Scope};

use crate::candidate::{Candidate, Event, Skeleton};
use crate::event::EventKind;

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

/// Whether `name` is one of [`SETS`] (hashed once).
fn declared_set(name: &str) -> bool {
    static NAMES: std::sync::OnceLock<std::collections::HashSet<&'static str>> =
        std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| SETS.iter().copied().collect())
        .contains(name)
}

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
    rels: RefCell<FastMap<String, Option<Rc<Relation>>>>,
    sets: RefCell<FastMap<String, Option<Rc<BitSet>>>>,
    /// The events' tags as sets (`ExecutionBase::tag_sets` of `base`).
    tags: FastMap<String, Rc<BitSet>>,
    /// Relations built as bit matrices, not as edges of `base` (scope relations).
    fixed: Vec<(&'static str, Rc<Relation>)>,
    /// The relations the test names between threads (declared, maybe empty).
    declared_relations: Vec<String>,
    /// Writes to a location (what `FW` is taken from).
    located_writes: BitSet,
}

/// One candidate of a skeleton as a `weft_cat` execution: the skeleton's cached base
/// sets and relations plus the candidate's `rf`, `co` and barrier synchronisation.
pub struct CandidateExec<'x> {
    sx: &'x SkeletonExec,
    rf: Rc<Relation>,
    co: Rc<Relation>,
    syncbar: Rc<Relation>,
}

impl Execution for CandidateExec<'_> {
    fn num_events(&self) -> usize {
        self.sx.base.num_events()
    }

    fn base_set(&self, name: &str) -> Option<BitSet> {
        self.base_set_shared(name).map(|s| (*s).clone())
    }

    fn base_relation(&self, name: &str) -> Option<Relation> {
        self.base_relation_shared(name).map(|r| (*r).clone())
    }

    fn base_set_shared(&self, name: &str) -> Option<Rc<BitSet>> {
        if name == "FW" {
            return Some(Rc::new(
                self.sx.located_writes.difference(&self.co.domain()),
            ));
        }
        if let Some(s) = self.sx.sets.borrow().get(name) {
            return s.clone();
        }
        let s = self.sx.set(name);
        self.sx
            .sets
            .borrow_mut()
            .insert(name.to_string(), s.clone());
        s
    }

    fn base_relation_shared(&self, name: &str) -> Option<Rc<Relation>> {
        match name {
            "rf" => return Some(self.rf.clone()),
            "co" => return Some(self.co.clone()),
            "syncbar" => return Some(self.syncbar.clone()),
            _ => {}
        }
        if let Some(r) = self.sx.rels.borrow().get(name) {
            return r.clone();
        }
        let r = self.sx.relation(name);
        self.sx
            .rels
            .borrow_mut()
            .insert(name.to_string(), r.clone());
        r
    }
}

/// vloc: same virtual address and element. A proxy alias (`t @ texture aliases x`) names
/// x's address through another proxy, so it resolves to x; a generic alias (`y @ generic
/// aliases x`) is a second virtual address (a synonym).
fn add_vloc(x: &mut ExecutionBase, p: &Program, sk: &Skeleton) {
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
}

/// Same-instance relations (paper 000 §5.1.2: "the scope relations come directly from the
/// scope tree"). Same-thread pairs are in every level; initial writes are related to every
/// event. Whether threads t and u share an instance of each scope is computed once per
/// thread pair (the event loops ask it for every pair of events).
struct Sharing {
    nt: usize,
    shared: Vec<Vec<bool>>,
}

impl Sharing {
    fn new(p: &Program) -> Sharing {
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
        Sharing { nt, shared }
    }

    fn shares(&self, t: usize, u: usize, s: Scope) -> bool {
        let level = Scope::ALL.iter().position(|x| *x == s).unwrap_or(0);
        self.shared[level][t * self.nt + u]
    }

    /// Whether two events are in one instance of `s` (an initial write is in every one).
    fn same(&self, a: &Event, b: &Event, s: Scope) -> bool {
        match (a.thread, b.thread) {
            (Some(t), Some(u)) => self.shares(t, u, s),
            _ => true,
        }
    }

    /// Whether `a`'s scope `sa` includes `b`'s thread.
    fn covers(&self, a: &Event, sa: Scope, b: &Event) -> bool {
        match (a.thread, b.thread) {
            (Some(t), Some(u)) => self.shares(t, u, sa),
            _ => false,
        }
    }
}

/// The fixed scope relations (one per level and its names), `sr` and `incl`.
fn scope_relations(sk: &Skeleton, sharing: &Sharing) -> Vec<(&'static str, Rc<Relation>)> {
    let n = sk.events.len();
    let same = |a: &Event, b: &Event, s: Scope| sharing.same(a, b, s);
    let covers = |a: &Event, sa: Scope, b: &Event| sharing.covers(a, sa, b);
    let levels: [(Scope, &[&str]); 5] = [
        (Scope::Warp, &["warp", "swarp", "ssg"]),
        (Scope::Cta, &["cta", "scta", "swg"]),
        (Scope::QueueFamily, &["sqf"]),
        (Scope::Gpu, &["gl", "sgpu", "sdv"]),
        (Scope::System, &["sys", "ssys"]),
    ];
    // Built as bit matrices directly (n² pairs each); `with_choice` adds their edges.
    let mut fixed: Vec<(&'static str, Rc<Relation>)> = Vec::new();
    for (scope, names) in levels {
        let mut r = Relation::new(n);
        for a in 0..n {
            for b in 0..n {
                if same(&sk.events[a], &sk.events[b], scope) {
                    r.insert(a, b);
                }
            }
        }
        let r = Rc::new(r);
        for name in names {
            fixed.push((name, r.clone()));
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
    // Collected first and added once per relation (each `add_edge` looks the
    // relation up by name).
    let (mut sr, mut incl) = (Vec::new(), Vec::new());
    let scoped: Vec<(usize, &Event, Scope)> = sk
        .events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| ev_scope(e).map(|s| (i, e, s)))
        .collect();
    for &(a, ea, sa) in &scoped {
        for &(b, eb, sb) in &scoped {
            if covers(ea, sa, eb) && covers(eb, sb, ea) {
                sr.push((a, b));
                let atomic = |e: &Event| {
                    e.attrs.order.is_atomic()
                        || !matches!(e.kind, EventKind::Read | EventKind::Write)
                };
                let both_mem = ea.cell.is_some() && eb.cell.is_some();
                if atomic(ea) && atomic(eb) && (!both_mem || ea.cell == eb.cell) {
                    incl.push((a, b));
                }
            }
        }
    }
    fixed.push(("sr", Rc::new(Relation::from_pairs(n, sr))));
    fixed.push(("incl", Rc::new(Relation::from_pairs(n, incl))));
    fixed
}

/// Fence relations (herd's fencerel): po ; [fence of that scope] ; po. A PTX `membar.X` is
/// `fence.sc.X`, so SC fences count as membars of their scope. Then `sync_fence`.
fn add_fence_relations(x: &mut ExecutionBase, sk: &Skeleton, sharing: &Sharing) {
    let n = sk.events.len();
    let covers = |a: &Event, sa: Scope, b: &Event| sharing.covers(a, sa, b);
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
        let pairs = preds[f]
            .iter()
            .flat_map(|&a| succs[f].iter().map(move |&b| (a, b)));
        x.add_edges(name, pairs);
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
}

/// Relations the test names between threads (Vulkan `ssw`): all their event pairs.
fn add_thread_relations(x: &mut ExecutionBase, p: &Program, sk: &Skeleton) {
    let n = sk.events.len();
    for r in &p.relations {
        let of = |t: usize| -> Vec<usize> {
            (0..n).filter(|&i| sk.events[i].thread == Some(t)).collect()
        };
        let to = of(r.to);
        let pairs = of(r.from)
            .into_iter()
            .flat_map(|a| to.iter().map(move |&b| (a, b)));
        x.add_edges(&r.name, pairs);
    }
}

impl SkeletonExec {
    /// The set `name` as `base` with `SETS` declared would give it. `base` has no
    /// explicit sets (`add_to_set` is not used here), so a name that is not one of the
    /// kind sets `ExecutionBase` computes is a tag: the events carrying it, or the empty
    /// set when declared.
    fn set(&self, name: &str) -> Option<Rc<BitSet>> {
        if let Some(t) = self.tags.get(name) {
            return Some(t.clone());
        }
        // No event carries the tag: a declared one is empty (no need to scan the events).
        if declared_set(name) {
            return Some(Rc::new(BitSet::new(self.base.num_events())));
        }
        self.base.base_set(name).map(Rc::new)
    }

    /// The relation `name` as `base` with the fixed relations' edges and `RELATIONS` and
    /// the test's relations declared would give it (none of those names is one that
    /// `ExecutionBase` computes itself: `loc int ext id`).
    fn relation(&self, name: &str) -> Option<Rc<Relation>> {
        if let Some((_, r)) = self.fixed.iter().find(|(n, _)| *n == name) {
            return Some(r.clone());
        }
        match self.base.base_relation(name) {
            Some(r) => Some(Rc::new(r)),
            None if RELATIONS.contains(&name)
                || self.declared_relations.iter().any(|r| r == name) =>
            {
                Some(Rc::new(Relation::new(self.base.num_events())))
            }
            None => None,
        }
    }

    /// Builds events, tags and every relation except `rf` and `co`.
    pub fn new(p: &Program, sk: &Skeleton) -> Self {
        // The names of `SETS` and `RELATIONS` are not declared on `x` (a hundred
        // allocations per skeleton): `CandidateExec` answers them as declared, and
        // `with_choice` declares them on the executions it hands out.
        let mut x = ExecutionBase::new();
        let mut cell_ids = HashMap::new();
        for (i, (c, _, _)) in sk.cells.iter().enumerate() {
            cell_ids.insert(*c, i);
        }
        for e in &sk.events {
            x.add_event(cat_event(p, e, &cell_ids));
        }
        x.add_edges("po", sk.po.iter().copied());
        x.add_edges("rmw", sk.rmw.iter().copied());
        x.add_edges("amo", sk.rmw.iter().copied());
        for (name, edges) in [("addr", &sk.addr), ("data", &sk.data), ("ctrl", &sk.ctrl)] {
            x.add_edges(name, edges.iter().copied());
        }
        let n = sk.events.len();
        add_vloc(&mut x, p, sk);
        let sharing = Sharing::new(p);
        let fixed = scope_relations(sk, &sharing);
        let bars = crate::barriers::matching(p, &sk.events, &sk.po);
        add_fence_relations(&mut x, sk, &sharing);
        add_thread_relations(&mut x, p, sk);
        let located_writes = BitSet::from_events(
            n,
            sk.events
                .iter()
                .enumerate()
                .filter(|(_, e)| e.is_write() && e.cell.is_some())
                .map(|(i, _)| i),
        );
        // Tag sets in one pass over the events (each would scan them by name).
        let tags = x
            .tag_sets()
            .into_iter()
            .map(|(t, s)| (t, Rc::new(s)))
            .collect();
        let rels = fixed
            .iter()
            .map(|(name, r)| (name.to_string(), Some(r.clone())))
            .collect();
        SkeletonExec {
            base: x,
            bars,
            rels: RefCell::new(rels),
            sets: RefCell::new(FastMap::default()),
            tags,
            fixed,
            declared_relations: p.relations.iter().map(|r| r.name.clone()).collect(),
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
            rf: Rc::new(Relation::from_pairs(n, c.rf.iter().copied())),
            co: Rc::new(Relation::from_pairs(n, c.co.iter().copied())),
            syncbar: Rc::new(syncbar),
        }
    }

    /// The upper bound of a partial candidate ([`Candidate::upper_bound`]) as an
    /// execution with barrier synchronisation `choice` (for
    /// `weft_cat::Model::evaluate_partial`).
    pub fn upper_candidate(&self, c: &Candidate, choice: usize) -> CandidateExec<'_> {
        let (rf, co) = c.upper_bound();
        let mut x = self.candidate(c, choice);
        let n = self.base.num_events();
        x.rf = Rc::new(Relation::from_pairs(n, rf));
        x.co = Rc::new(Relation::from_pairs(n, co));
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
        for s in SETS {
            x.declare_set(s);
        }
        for r in RELATIONS
            .iter()
            .copied()
            .chain(self.declared_relations.iter().map(String::as_str))
        {
            x.declare_relation(r);
        }
        for (name, r) in &self.fixed {
            x.add_edges(name, r.iter());
        }
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

fn cat_event(p: &Program, e: &Event, cell_ids: &HashMap<crate::event::Cell, usize>) -> CatEvent {
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
