//! Explicit sparse vector clocks (paper 003 §3.3): the value for thread `u` is the larger of
//! its own entry and the entry of its CTA (a CTA entry `c` says "every thread of that CTA up
//! to clock `c`", the block clock of §4.3.1). Used for the snapshots that synchronisation
//! locations hold (the `S_x` map) and for knowledge a thread acquired from outside its warp.

use std::collections::HashMap;

/// A sparse vector clock with per-CTA floors.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vc {
    /// Per-thread entries (global linear thread index → clock).
    pub threads: HashMap<u32, u32>,
    /// Per-CTA floors (linear CTA index → clock for every thread of the CTA).
    pub blocks: HashMap<u32, u32>,
}

impl Vc {
    /// `V(u)` for thread `u` of CTA `cta`.
    #[inline]
    pub fn get(&self, u: u32, cta: u32) -> u32 {
        let t = self.threads.get(&u).copied().unwrap_or(0);
        if self.blocks.is_empty() {
            return t;
        }
        t.max(self.blocks.get(&cta).copied().unwrap_or(0))
    }

    pub fn is_empty(&self) -> bool {
        self.threads.is_empty() && self.blocks.is_empty()
    }

    /// Raises thread `u`'s entry to at least `c`.
    pub fn set_max(&mut self, u: u32, c: u32) {
        if c > 0 {
            let e = self.threads.entry(u).or_insert(0);
            *e = (*e).max(c);
        }
    }

    /// Raises CTA `b`'s floor to at least `c`.
    pub fn floor_max(&mut self, b: u32, c: u32) {
        if c > 0 {
            let e = self.blocks.entry(b).or_insert(0);
            *e = (*e).max(c);
        }
    }

    /// `self ⊔= other`.
    pub fn join(&mut self, other: &Vc) {
        for (&u, &c) in &other.threads {
            self.set_max(u, c);
        }
        for (&b, &c) in &other.blocks {
            self.floor_max(b, c);
        }
    }

    /// Drops per-thread entries that a CTA floor already covers (`cta_of` maps a thread to
    /// its CTA).
    pub fn compact(&mut self, cta_of: impl Fn(u32) -> u32) {
        if self.blocks.is_empty() {
            return;
        }
        let blocks = &self.blocks;
        self.threads
            .retain(|&u, c| *c > blocks.get(&cta_of(u)).copied().unwrap_or(0));
    }

    /// Approximate heap bytes.
    pub fn bytes(&self) -> usize {
        (self.threads.capacity() + self.blocks.capacity()) * 12
    }
}
