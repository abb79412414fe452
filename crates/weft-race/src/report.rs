//! Race reports grouped by race: one entry per (kind, memory space, instruction pair), with
//! the class of paper 003 §4.3.3 (divergence, intra-block, inter-block), example threads,
//! address and trace index, and how many dynamic instances were seen.

use std::collections::HashMap;

use serde::Serialize;

/// What kind of conflict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RaceKind {
    /// Two plain writes (including lanes of one warp instruction writing different values).
    WriteWrite,
    /// A plain read and a plain write.
    ReadWrite,
    /// An atomic (or acquire/release) and a plain access.
    AtomicPlain,
    /// Threads of one warp on different paths of a divergent branch (§3.3.1).
    BranchOrdering,
    /// The accesses would be ordered if the fences/acquire-release pair were at global
    /// scope (a block-scope fence used across CTAs, §3.3.3).
    FenceScope,
    /// Atomics from two CTAs where one is block-scoped (`atomicAdd_block`); scoped
    /// definition only.
    AtomicScope,
}

impl RaceKind {
    pub fn name(self) -> &'static str {
        match self {
            RaceKind::WriteWrite => "write-write",
            RaceKind::ReadWrite => "read-write",
            RaceKind::AtomicPlain => "atomic-plain",
            RaceKind::BranchOrdering => "branch-ordering",
            RaceKind::FenceScope => "fence-scope",
            RaceKind::AtomicScope => "atomic-scope",
        }
    }
}

/// Paper 003's classes of races.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// Threads of the same warp (intra-warp or branch ordering).
    Divergence,
    IntraBlock,
    InterBlock,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Divergence => "divergence",
            Class::IntraBlock => "intra-block",
            Class::InterBlock => "inter-block",
        }
    }
}

/// One side of a race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Side {
    pub pc: u32,
    pub thread: u64,
    /// `file:line` (filled in by [`Report::resolve`]).
    pub line: String,
    /// `read`, `write`, `atomic`, `acquire`, `release`.
    pub access: &'static str,
}

/// A race: every dynamic instance with the same kind, space and instruction pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Race {
    pub kind: RaceKind,
    pub class: Class,
    /// `global` or `shared`.
    pub space: &'static str,
    /// The earlier access in the trace.
    pub first: Side,
    /// The later access.
    pub second: Side,
    /// Example location (generic address for global, offset for shared).
    pub address: u64,
    /// Index of the later access's event in the trace (first instance).
    pub event: u64,
    /// Dynamic instances.
    pub count: u64,
}

/// All races of one or more runs.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub races: Vec<Race>,
    index: HashMap<(RaceKind, &'static str, u32, u32), usize>,
    /// Distinct races not recorded beyond the cap.
    pub dropped: u64,
}

/// At most this many distinct races are kept.
pub const MAX_RACES: usize = 1000;

impl Report {
    /// Records an instance.
    pub fn add(&mut self, r: Race) {
        let key = (r.kind, r.space, r.first.pc, r.second.pc);
        if let Some(&i) = self.index.get(&key) {
            self.races[i].count += r.count;
            return;
        }
        if self.races.len() >= MAX_RACES {
            self.dropped += 1;
            return;
        }
        self.index.insert(key, self.races.len());
        self.races.push(r);
    }

    /// Merges another run's report (another schedule).
    pub fn merge(&mut self, other: Report) {
        for r in other.races {
            self.add(r);
        }
        self.dropped += other.dropped;
    }

    /// Fills in source lines.
    pub fn resolve(&mut self, pos: impl Fn(u32) -> String) {
        for r in &mut self.races {
            r.first.line = pos(r.first.pc);
            r.second.line = pos(r.second.pc);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.races.is_empty()
    }

    /// Races with the same kind and the same pair of source lines merged (several PTX
    /// instructions of one source line), sorted by kind then lines.
    pub fn by_lines(&self) -> Vec<Race> {
        let mut out: Vec<Race> = Vec::new();
        for r in &self.races {
            if let Some(o) = out.iter_mut().find(|o| {
                o.kind == r.kind
                    && o.space == r.space
                    && o.first.line == r.first.line
                    && o.second.line == r.second.line
            }) {
                o.count += r.count;
            } else {
                out.push(r.clone());
            }
        }
        out.sort_by(|a, b| {
            (a.kind, &a.first.line, &a.second.line).cmp(&(b.kind, &b.first.line, &b.second.line))
        });
        out
    }
}
