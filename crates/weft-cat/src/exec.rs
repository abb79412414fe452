//! The abstract execution a model is evaluated on: the [`Execution`] trait the simulator
//! implements, and [`ExecutionBase`], a ready-made implementation built from events
//! (thread, location, kind, tags) and named relations.
//!
//! The pre-defined names follow the herd manual's tables of pre-defined event sets and
//! relations (§"Identifiers"): `R W M F B IW FW RMW` and `po rf co rmw addr data ctrl id loc
//! int ext`, plus one set per event tag and any extra named sets and relations (GPU scope
//! relations such as `cta`/`gl`/`sys`, fence relations such as `membar.cta`, ...).

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::rel::{BitSet, Relation};

/// What the interpreter asks of a candidate execution: its size and its named base sets
/// and relations. Names the execution does not know return `None`; the interpreter then
/// tries its derived built-ins (`fr`, `po-loc`, `rfe`, ...; see `docs/cat.md`).
pub trait Execution {
    /// The number of events; every set and relation is over `0..num_events()`.
    fn num_events(&self) -> usize;
    /// The event set called `name` (`R`, `W`, `IW`, a tag, ...), if the execution has one.
    fn base_set(&self, name: &str) -> Option<BitSet>;
    /// The relation called `name` (`po`, `rf`, `co`, `loc`, `int`, a scope relation, ...).
    fn base_relation(&self, name: &str) -> Option<Relation>;
    /// [`Execution::base_set`], shared: an execution that caches its sets can hand out
    /// the cached value without copying it.
    fn base_set_shared(&self, name: &str) -> Option<Rc<BitSet>> {
        self.base_set(name).map(Rc::new)
    }
    /// [`Execution::base_relation`], shared (see [`Execution::base_set_shared`]).
    fn base_relation_shared(&self, name: &str) -> Option<Rc<Relation>> {
        self.base_relation(name).map(Rc::new)
    }
}

/// The kind of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// A read (in `R` and `M`).
    Read,
    /// A write (in `W` and `M`); initial writes are writes with [`Event::init`] set.
    Write,
    /// A fence or barrier (in `F`).
    Fence,
    /// A branch (in `B`).
    Branch,
    /// Anything else (in no kind set).
    Other,
}

/// One event of an [`ExecutionBase`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Read, write, fence, ...
    pub kind: EventKind,
    /// The issuing thread; `None` for initial writes.
    pub thread: Option<usize>,
    /// The accessed location, for memory events.
    pub location: Option<usize>,
    /// Whether this is an initial write (in `IW`).
    pub init: bool,
    /// Annotations; each tag `T` puts the event in the set named `T`.
    pub tags: Vec<String>,
}

impl Event {
    /// A read of `location` by `thread`.
    pub fn read(thread: usize, location: usize) -> Self {
        Event {
            kind: EventKind::Read,
            thread: Some(thread),
            location: Some(location),
            init: false,
            tags: Vec::new(),
        }
    }

    /// A write of `location` by `thread`.
    pub fn write(thread: usize, location: usize) -> Self {
        Event {
            kind: EventKind::Write,
            ..Event::read(thread, location)
        }
    }

    /// The initial write of `location`.
    pub fn init_write(location: usize) -> Self {
        Event {
            kind: EventKind::Write,
            thread: None,
            location: Some(location),
            init: true,
            tags: Vec::new(),
        }
    }

    /// A fence by `thread`.
    pub fn fence(thread: usize) -> Self {
        Event {
            kind: EventKind::Fence,
            thread: Some(thread),
            location: None,
            init: false,
            tags: Vec::new(),
        }
    }

    /// The same event with one more tag.
    pub fn tag(mut self, tag: &str) -> Self {
        self.tags.push(tag.to_string());
        self
    }
}

/// The relations every [`ExecutionBase`] knows, empty unless edges are added.
pub const STANDARD_RELATIONS: [&str; 8] = ["po", "rf", "co", "rmw", "amo", "addr", "data", "ctrl"];

/// The sets [`ExecutionBase`] computes from the events' kinds rather than their tags.
const BUILTIN_SETS: [&str; 9] = ["R", "W", "M", "F", "B", "IW", "FW", "RMW", "emptyset"];

/// A concrete execution: events plus named relations and sets, implementing [`Execution`].
///
/// Relations are kept as edge lists and built into bit matrices on lookup (the interpreter
/// caches each name once per evaluation).
#[derive(Clone, Debug, Default)]
pub struct ExecutionBase {
    /// The events, indexed by id.
    pub events: Vec<Event>,
    edges: BTreeMap<String, Vec<(usize, usize)>>,
    sets: BTreeMap<String, BTreeSet<usize>>,
    declared_sets: BTreeSet<String>,
}

impl ExecutionBase {
    /// An execution with no events.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an event; returns its id.
    pub fn add_event(&mut self, e: Event) -> usize {
        self.events.push(e);
        self.events.len() - 1
    }

    /// Adds the pair `(from, to)` to the relation called `rel` (creating it).
    pub fn add_edge(&mut self, rel: &str, from: usize, to: usize) {
        match self.edges.get_mut(rel) {
            Some(v) => v.push((from, to)),
            None => {
                self.edges.insert(rel.to_string(), vec![(from, to)]);
            }
        }
    }

    /// Adds every pair of `pairs` to the relation called `rel` (creating it).
    pub fn add_edges(&mut self, rel: &str, pairs: impl IntoIterator<Item = (usize, usize)>) {
        match self.edges.get_mut(rel) {
            Some(v) => v.extend(pairs),
            None => {
                self.edges
                    .insert(rel.to_string(), pairs.into_iter().collect());
            }
        }
    }

    /// Declares the relation `rel` (empty until edges are added).
    pub fn declare_relation(&mut self, rel: &str) {
        self.edges.entry(rel.to_string()).or_default();
    }

    /// Adds the pairs `(e[i], e[i+1])` to `rel`: a chain such as one thread's `po` order
    /// (only the immediate pairs; use [`ExecutionBase::add_total_order`] for a full order).
    pub fn add_chain(&mut self, rel: &str, events: &[usize]) {
        for w in events.windows(2) {
            self.add_edge(rel, w[0], w[1]);
        }
    }

    /// Adds every pair `(e[i], e[j])` with `i < j` to `rel` (a strict total order).
    pub fn add_total_order(&mut self, rel: &str, events: &[usize]) {
        for (i, &a) in events.iter().enumerate() {
            for &b in &events[i + 1..] {
                self.add_edge(rel, a, b);
            }
        }
    }

    /// Relates every pair of distinct events of `events` both ways, and each to itself (an
    /// equivalence class, such as the threads of one CTA for a scope relation).
    pub fn add_class(&mut self, rel: &str, events: &[usize]) {
        let pairs = events
            .iter()
            .flat_map(|&a| events.iter().map(move |&b| (a, b)));
        self.add_edges(rel, pairs);
    }

    /// Puts event `e` in the extra set called `set` (creating it).
    pub fn add_to_set(&mut self, set: &str, e: usize) {
        self.sets.entry(set.to_string()).or_default().insert(e);
    }

    /// Declares a set name (typically a tag of the simulator's vocabulary) so that it
    /// evaluates to the empty set when no event carries it, instead of being unknown.
    pub fn declare_set(&mut self, set: &str) {
        self.declared_sets.insert(set.to_string());
    }

    fn n(&self) -> usize {
        self.events.len()
    }

    /// Every set that [`Execution::base_set`] takes from the events' tags (a tag some event
    /// carries, or a declared set name), with its value there, computed in one pass over
    /// the events; names that an explicit set or a built-in set (`R`, `W`, ...) answers
    /// instead are left out. For callers that cache the sets of one execution.
    pub fn tag_sets(&self) -> Vec<(String, BitSet)> {
        let n = self.n();
        let mut by: BTreeMap<&str, BitSet> = BTreeMap::new();
        for (i, e) in self.events.iter().enumerate() {
            for t in &e.tags {
                by.entry(t.as_str())
                    .or_insert_with(|| BitSet::new(n))
                    .insert(i);
            }
        }
        for d in &self.declared_sets {
            by.entry(d.as_str()).or_insert_with(|| BitSet::new(n));
        }
        by.into_iter()
            .filter(|(name, _)| !BUILTIN_SETS.contains(name) && !self.sets.contains_key(*name))
            .map(|(name, s)| (name.to_string(), s))
            .collect()
    }

    fn set_where(&self, f: impl Fn(&Event) -> bool) -> BitSet {
        BitSet::from_events(
            self.n(),
            self.events
                .iter()
                .enumerate()
                .filter(|(_, e)| f(e))
                .map(|(i, _)| i),
        )
    }

    fn relation_where(&self, f: impl Fn(&Event, &Event) -> bool) -> Relation {
        let mut r = Relation::new(self.n());
        for (i, a) in self.events.iter().enumerate() {
            for (j, b) in self.events.iter().enumerate() {
                if f(a, b) {
                    r.insert(i, j);
                }
            }
        }
        r
    }

    fn edges_relation(&self, name: &str) -> Option<Relation> {
        let n = self.n();
        self.edges.get(name).map(|pairs| {
            Relation::from_pairs(n, pairs.iter().copied().filter(|&(a, b)| a < n && b < n))
        })
    }
}

impl Execution for ExecutionBase {
    fn num_events(&self) -> usize {
        self.n()
    }

    fn base_set(&self, name: &str) -> Option<BitSet> {
        if let Some(s) = self.sets.get(name) {
            let n = self.n();
            return Some(BitSet::from_events(n, s.iter().copied().filter(|&e| e < n)));
        }
        let is = |k: EventKind| move |e: &Event| e.kind == k;
        Some(match name {
            "R" => self.set_where(is(EventKind::Read)),
            "W" => self.set_where(is(EventKind::Write)),
            "M" => self.set_where(|e| matches!(e.kind, EventKind::Read | EventKind::Write)),
            "F" => self.set_where(is(EventKind::Fence)),
            "B" => self.set_where(is(EventKind::Branch)),
            "IW" => self.set_where(|e| e.init),
            "FW" => {
                // Final writes: the co-last write of each location.
                let co = self
                    .edges_relation("co")
                    .unwrap_or_else(|| Relation::new(self.n()));
                self.set_where(|e| e.kind == EventKind::Write && e.location.is_some())
                    .difference(&co.domain())
            }
            "RMW" => {
                let rmw = self
                    .edges_relation("rmw")
                    .unwrap_or_else(|| Relation::new(self.n()));
                rmw.domain().union(&rmw.range())
            }
            "emptyset" => BitSet::new(self.n()),
            _ => {
                let tagged = self.set_where(|e| e.tags.iter().any(|t| t == name));
                if tagged.is_empty() && !self.declared_sets.contains(name) {
                    return None;
                }
                tagged
            }
        })
    }

    fn base_relation(&self, name: &str) -> Option<Relation> {
        if let Some(r) = self.edges_relation(name) {
            return Some(r);
        }
        Some(match name {
            n if STANDARD_RELATIONS.contains(&n) => Relation::new(self.n()),
            "id" => Relation::identity(self.n()),
            "loc" => self.relation_where(|a, b| a.location.is_some() && a.location == b.location),
            // Same thread; an initial write is only internal to itself.
            "int" => {
                let mut r = self.relation_where(|a, b| a.thread.is_some() && a.thread == b.thread);
                for i in 0..self.n() {
                    r.insert(i, i);
                }
                r
            }
            "ext" => {
                let mut r = self.relation_where(|a, b| a.thread.is_none() || a.thread != b.thread);
                for i in 0..self.n() {
                    r.remove(i, i);
                }
                r
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_sets_and_relations() {
        let mut x = ExecutionBase::new();
        let i = x.add_event(Event::init_write(0));
        let w = x.add_event(Event::write(0, 0).tag("REL"));
        let r = x.add_event(Event::read(1, 0));
        let f = x.add_event(Event::fence(1));
        x.add_edge("co", i, w);
        x.add_edge("rf", w, r);
        assert_eq!(
            x.base_set("W").unwrap().iter().collect::<Vec<_>>(),
            vec![i, w]
        );
        assert_eq!(
            x.base_set("IW").unwrap().iter().collect::<Vec<_>>(),
            vec![i]
        );
        assert_eq!(
            x.base_set("FW").unwrap().iter().collect::<Vec<_>>(),
            vec![w]
        );
        assert_eq!(x.base_set("F").unwrap().iter().collect::<Vec<_>>(), vec![f]);
        assert_eq!(
            x.base_set("REL").unwrap().iter().collect::<Vec<_>>(),
            vec![w]
        );
        assert!(x.base_set("ACQ").is_none());
        x.declare_set("ACQ");
        assert!(x.base_set("ACQ").unwrap().is_empty());
        let loc = x.base_relation("loc").unwrap();
        assert!(loc.contains(i, r) && !loc.contains(i, f));
        let int = x.base_relation("int").unwrap();
        let ext = x.base_relation("ext").unwrap();
        assert!(int.contains(r, f) && !int.contains(w, r) && int.contains(i, i));
        assert!(ext.contains(i, w) && ext.contains(w, r) && !ext.contains(r, f));
        assert!(x.base_relation("po").unwrap().is_empty());
        assert!(x.base_relation("cta").is_none());
    }

    #[test]
    fn tag_sets_are_the_sets_base_set_gives() {
        let mut x = ExecutionBase::new();
        x.add_event(Event::init_write(0));
        x.add_event(Event::write(0, 0).tag("REL").tag("SC0"));
        x.add_event(Event::read(1, 0).tag("ACQ").tag("SC0"));
        x.add_event(Event::fence(1).tag("W")); // a tag named like a kind set
        x.declare_set("VIS");
        x.add_to_set("ACQ", 3); // an explicit set shadows the tag
        let got = x.tag_sets();
        let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
        // Hand-derived: tags REL, SC0, ACQ, W and the declared VIS; W is a kind set and
        // ACQ an explicit set, so neither comes from the tags.
        assert_eq!(names, ["REL", "SC0", "VIS"]);
        for (name, s) in &got {
            assert_eq!(Some(s.clone()), x.base_set(name), "{name}");
        }
        assert_eq!(got[1].1.iter().collect::<Vec<_>>(), [1, 2]);
        assert!(got[2].1.is_empty());
    }
}
