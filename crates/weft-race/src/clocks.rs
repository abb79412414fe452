//! Per-thread vector clocks (the `C_t` of paper 003 §3.3) behind one interface, in two
//! implementations: [`Compressed`], the warp-granular formats of §4.3.1 (Fig. 7), and
//! [`Full`], one explicit vector per thread (the specification the property test checks
//! the compressed one against).
//!
//! Clock values only need to grow along each thread (an epoch `c@u` is compared with
//! `C_t(u)`), so [`Compressed`] gives every lane of a lock-step group the same clock: after
//! a join of the group (ENDINSN, IF, ELSE/FI) all lanes take `max + 1` and know each other at
//! `max`; after a full CTA barrier every thread of the CTA takes the CTA's highest clock
//! `+ 1` and knows every other thread of the CTA at that highest clock (the block clock of
//! §4.3.2). A lane's knowledge of its warp is then one of:
//! - **Converged**: every launched lane of the warp is in the group (lane `u` known at
//!   `own - 1`);
//! - **Diverged**: the lanes outside the group are all known at one `warp clock`;
//! - **NestedDiverged**: a 32-entry vector for the lanes outside the group;
//! - **SparseVC**: any of these plus a sparse map for knowledge acquired point to point
//!   (acquire/release across warps or CTAs, partial barriers).
//!
//! The group structure mirrors the reconvergence stack: `if` pushes the else and then
//! groups, `else` parks the finished then group in the join entry, `fi` joins both and
//! re-compresses (Nested → Diverged → Converged where the values allow).

use crate::vc::Vc;

/// Launch shape as the detector sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Threads per CTA.
    pub block_threads: u32,
    /// CTAs in the grid.
    pub ctas: u32,
}

impl Geometry {
    pub fn warps_per_cta(&self) -> u32 {
        self.block_threads.div_ceil(32)
    }
    pub fn threads(&self) -> u64 {
        u64::from(self.block_threads) * u64::from(self.ctas)
    }
    pub fn warps(&self) -> u32 {
        self.warps_per_cta() * self.ctas
    }
    /// CTA of thread `t` and its index in the CTA (shifts for power-of-two blocks: this is
    /// on the path of every access the detector checks).
    #[inline]
    fn split(&self, t: u32) -> (u32, u32) {
        let bt = self.block_threads;
        if bt & bt.wrapping_sub(1) == 0 && bt != 0 {
            (t >> bt.trailing_zeros(), t & (bt - 1))
        } else {
            (t / bt, t % bt)
        }
    }
    #[inline]
    pub fn cta_of(&self, t: u32) -> u32 {
        self.split(t).0
    }
    /// Global warp index and lane of thread `t`.
    #[inline]
    pub fn warp_lane(&self, t: u32) -> (u32, u32) {
        let (b, i) = self.split(t);
        (b * self.warps_per_cta() + i / 32, i % 32)
    }
    /// Global thread index of `lane` of global warp `w`.
    #[inline]
    pub fn thread(&self, w: u32, lane: u32) -> u32 {
        let wpc = self.warps_per_cta();
        (w / wpc) * self.block_threads + (w % wpc) * 32 + lane
    }
    /// Lanes launched in global warp `w` (the last warp of a CTA may be partial).
    pub fn launched(&self, w: u32) -> u32 {
        let wic = w % self.warps_per_cta();
        let lanes = (self.block_threads - wic * 32).min(32);
        if lanes == 32 {
            u32::MAX
        } else {
            (1u32 << lanes) - 1
        }
    }
}

/// What one thread knows, looked up once for the several queries of one access (the
/// location's last write and reads): clocks only change at `endi`, branches, barriers and
/// acquires, never between the checks of one access.
pub trait ClockView {
    /// `C_t(t)`.
    fn own(&self) -> u32;
    /// `C_t(u)`.
    fn knows(&self, u: u32) -> u32;
    /// Whether `c@u` is concurrent with thread `t` now (`u != t` and `c > C_t(u)`).
    fn conc(&self, u: u32, c: u32) -> bool;
    /// This knowledge as plain numbers ([`Flat`]) when it has no point-to-point part.
    fn flat(&self) -> Option<Flat> {
        None
    }
}

/// What every lane of one lock-step group (`mask`, the top of its warp's stack) knows,
/// when that is its warp, its CTA and nothing else: `C_t(t) = own`; for thread `u` of the
/// warp (threads `warp_lo..warp_lo + warp_len`), `lanes[u - warp_lo]`; for another thread
/// of the CTA (`cta_lo..cta_lo + cta_len`), `block_clk`; 0 for the rest.
#[derive(Clone, Copy, Debug)]
pub struct Flat {
    pub mask: u32,
    pub own: u32,
    pub lanes: [u32; 32],
    pub block_clk: u32,
    pub warp_lo: u32,
    pub warp_len: u32,
    pub cta_lo: u32,
    pub cta_len: u32,
}

impl Flat {
    /// Whether `c@u` is concurrent with lane thread `t` of the group.
    #[inline(always)]
    pub fn conc(&self, t: u32, u: u32, c: u32) -> bool {
        u != t && c > self.knows(u)
    }

    /// What a lane of the group knows of thread `u`, another thread (`C_t(u)`, `u != t`).
    #[inline(always)]
    pub fn knows(&self, u: u32) -> u32 {
        if u.wrapping_sub(self.warp_lo) < self.warp_len {
            self.lanes[(u - self.warp_lo) as usize & 31]
        } else if u.wrapping_sub(self.cta_lo) < self.cta_len {
            self.block_clk
        } else {
            0
        }
    }
}

/// The per-thread clock state of the analysis.
pub trait Clocks {
    /// Thread `t`'s knowledge, borrowed ([`Clocks::view`]).
    type View<'a>: ClockView
    where
        Self: 'a;
    /// Thread `t`'s clock, for several [`ClockView::knows`] queries.
    fn view(&self, t: u32) -> Self::View<'_>;
    fn new(geo: Geometry) -> Self
    where
        Self: Sized;
    /// `C_t(t)`.
    fn own(&self, t: u32) -> u32;
    /// `C_t(u)`.
    fn knows(&self, t: u32, u: u32) -> u32;
    /// Whether `c@u` is an access of the warp instruction thread `t` is executing now (same
    /// warp, same lock-step group, same clock).
    fn same_instruction(&self, t: u32, u: u32, c: u32) -> bool;
    /// The lanes of warp `w`'s active group (the top of its reconvergence stack).
    fn active(&self, w: u32) -> u32;
    /// ENDINSN: the warp's active group joins and moves on.
    fn endi(&mut self, w: u32);
    /// IF: `taken` lanes run first.
    fn branch_if(&mut self, w: u32, taken: u32);
    /// ELSE: the second path starts.
    fn branch_else(&mut self, w: u32);
    /// FI: the paths reconverge.
    fn branch_fi(&mut self, w: u32);
    /// `C_t` as an explicit clock.
    fn snapshot(&self, t: u32) -> Vc;
    /// `⊔ C_t` over lanes `mask` of warp `w`.
    fn snapshot_lanes(&self, w: u32, mask: u32) -> Vc;
    /// `C_t ⊔= vc` (an acquire); visible to the rest of the warp after its next `endi`.
    fn acquire(&mut self, t: u32, vc: &Vc);
    /// BAR over every thread of `cta`.
    fn barrier_full(&mut self, cta: u32);
    /// A barrier where only some threads took part: lanes `waiters` join `arrived` and move
    /// on; lanes `arrivers` (that did not wait) just move on.
    fn barrier_partial(&mut self, arrived: &Vc, waiters: &[(u32, u32)], arrivers: &[(u32, u32)]);
    /// Approximate bytes of clock state.
    fn bytes(&self) -> usize;
    /// How often each format (Converged, Diverged, NestedDiverged, SparseVC) was the active
    /// group's format at an `endi`.
    fn format_counts(&self) -> [u64; 4] {
        [0; 4]
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Know {
    Converged,
    Diverged(u32),
    Nested(Box<[u32; 32]>),
}

impl Know {
    #[inline]
    fn get(&self, lane: u32) -> u32 {
        match self {
            Know::Converged => 0,
            Know::Diverged(c) => *c,
            Know::Nested(v) => v[lane as usize],
        }
    }
}

#[derive(Clone, Debug)]
struct Group {
    mask: u32,
    own: u32,
    block_clk: u32,
    know: Know,
    sparse: Option<Box<Vc>>,
    /// The finished first path, parked in the join entry until `fi`.
    then_final: Option<Box<Group>>,
}

impl Group {
    /// This group's knowledge of lane `lane` of its own warp (not counting `sparse`).
    #[inline]
    fn lane_clock(&self, lane: u32) -> u32 {
        if self.mask >> lane & 1 == 1 {
            self.own - 1
        } else {
            self.know.get(lane)
        }
    }

    /// Re-compresses the knowledge of lanes outside `mask` given per-lane values.
    fn compress(mask: u32, launched: u32, vals: &[u32; 32]) -> Know {
        let outside = launched & !mask;
        if outside == 0 {
            return Know::Converged;
        }
        let first = vals[outside.trailing_zeros() as usize];
        let mut m = outside;
        let mut uniform = true;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            if vals[l] != first {
                uniform = false;
                break;
            }
        }
        if uniform {
            Know::Diverged(first)
        } else {
            let mut v = [0u32; 32];
            let mut m = outside;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                v[l] = vals[l];
            }
            Know::Nested(Box::new(v))
        }
    }

    fn sparse_join(&mut self, other: &Option<Box<Vc>>) {
        if let Some(o) = other {
            match &mut self.sparse {
                Some(s) => s.join(o),
                None => self.sparse = Some(o.clone()),
            }
        }
    }

    fn format(&self) -> usize {
        if self.sparse.is_some() {
            3
        } else {
            match self.know {
                Know::Converged => 0,
                Know::Diverged(_) => 1,
                Know::Nested(_) => 2,
            }
        }
    }
}

#[derive(Clone, Debug)]
struct WarpState {
    stack: Vec<Group>,
    pending: Option<Box<Vc>>,
}

/// The compressed per-thread clocks of paper 003 §4.3.1.
pub struct Compressed {
    geo: Geometry,
    warps: Vec<WarpState>,
    formats: [u64; 4],
}

impl Compressed {
    #[inline]
    fn top(&self, w: u32) -> Option<&Group> {
        self.warps.get(w as usize).and_then(|s| s.stack.last())
    }

    /// The group thread `t` runs in: the top group, or the nearest one holding its lane.
    #[inline]
    fn group_of(&self, t: u32) -> Option<&Group> {
        let (w, lane) = self.geo.warp_lane(t);
        let st = &self.warps.get(w as usize)?.stack;
        let top = st.last()?;
        if top.mask >> lane & 1 == 1 {
            return Some(top);
        }
        st.iter()
            .rev()
            .find(|g| g.mask >> lane & 1 == 1)
            .or(Some(top))
    }

    fn lanes_vals(g: &Group) -> [u32; 32] {
        let mut v = [0u32; 32];
        for (l, x) in v.iter_mut().enumerate() {
            *x = g.lane_clock(l as u32);
        }
        v
    }
}

/// Thread `t`'s knowledge in [`Compressed`]: its group, warp and CTA looked up once.
pub struct CompressedView<'a> {
    geo: Geometry,
    g: Option<&'a Group>,
    /// `g` is the top of the warp's stack (what [`ClockView::flat`] needs).
    top: bool,
    t: u32,
    wt: u32,
    ct: u32,
}

impl ClockView for CompressedView<'_> {
    #[inline]
    fn own(&self) -> u32 {
        self.g.map_or(0, |g| g.own)
    }
    #[inline]
    fn knows(&self, u: u32) -> u32 {
        let Some(g) = self.g else { return 0 };
        let (cu, iu) = self.geo.split(u);
        let wu = cu * self.geo.warps_per_cta() + iu / 32;
        let base = if u == self.t {
            g.own
        } else if wu == self.wt {
            g.lane_clock(iu % 32)
        } else if cu == self.ct {
            g.block_clk
        } else {
            0
        };
        match &g.sparse {
            Some(s) => base.max(s.get(u, cu)),
            None => base,
        }
    }
    #[inline]
    fn conc(&self, u: u32, c: u32) -> bool {
        u != self.t && c > self.knows(u)
    }
    #[inline(always)]
    fn flat(&self) -> Option<Flat> {
        let g = self.g?;
        if !self.top || g.sparse.is_some() {
            return None;
        }
        // `Group::lane_clock` of every lane at once (of the launched lanes, the only ones
        // asked: a converged group holds every one of them).
        let own = g.own - 1;
        let mut v = match &g.know {
            Know::Converged => return Some(self.flat_of(g, [own; 32])),
            Know::Diverged(c) => [*c; 32],
            Know::Nested(n) => **n,
        };
        for (l, x) in v.iter_mut().enumerate() {
            // A select, not a branch (the loop vectorises).
            *x = if g.mask >> l & 1 == 1 { own } else { *x };
        }
        Some(self.flat_of(g, v))
    }
}

impl CompressedView<'_> {
    /// The [`Flat`] knowledge of top group `g` (without point-to-point knowledge) whose
    /// launched lanes' clocks are `lanes`.
    #[inline(always)]
    fn flat_of(&self, g: &Group, lanes: [u32; 32]) -> Flat {
        let bt = self.geo.block_threads;
        let cta_lo = self.ct * bt;
        let wic = self.wt - self.ct * self.geo.warps_per_cta();
        Flat {
            mask: g.mask,
            own: g.own,
            lanes,
            block_clk: g.block_clk,
            warp_lo: cta_lo + wic * 32,
            warp_len: (bt - wic * 32).min(32),
            cta_lo,
            cta_len: bt,
        }
    }
}

impl Clocks for Compressed {
    type View<'a> = CompressedView<'a>;
    #[inline]
    fn view(&self, t: u32) -> CompressedView<'_> {
        let (ct, i) = self.geo.split(t);
        let g = self.group_of(t);
        let wt = ct * self.geo.warps_per_cta() + i / 32;
        // `group_of(t)` is the top group exactly when `t`'s lane is in it.
        let top = self.top(wt).is_some_and(|g| g.mask >> (i % 32) & 1 == 1);
        CompressedView {
            geo: self.geo,
            g,
            top,
            t,
            wt,
            ct,
        }
    }
    fn active(&self, w: u32) -> u32 {
        self.top(w).map_or(0, |g| g.mask)
    }
    fn new(geo: Geometry) -> Self {
        let warps = (0..geo.warps())
            .map(|w| WarpState {
                stack: vec![Group {
                    mask: geo.launched(w),
                    own: 1,
                    block_clk: 0,
                    know: Know::Converged,
                    sparse: None,
                    then_final: None,
                }],
                pending: None,
            })
            .collect();
        Compressed {
            geo,
            warps,
            formats: [0; 4],
        }
    }

    #[inline]
    fn own(&self, t: u32) -> u32 {
        self.group_of(t).map_or(0, |g| g.own)
    }

    #[inline]
    fn knows(&self, t: u32, u: u32) -> u32 {
        let Some(g) = self.group_of(t) else { return 0 };
        let geo = &self.geo;
        let (wt, _) = geo.warp_lane(t);
        let (wu, lu) = geo.warp_lane(u);
        let base = if u == t {
            g.own
        } else if wt == wu {
            g.lane_clock(lu)
        } else if geo.cta_of(t) == geo.cta_of(u) {
            g.block_clk
        } else {
            0
        };
        match &g.sparse {
            Some(s) => base.max(s.get(u, geo.cta_of(u))),
            None => base,
        }
    }

    #[inline]
    fn same_instruction(&self, t: u32, u: u32, c: u32) -> bool {
        let (wt, _) = self.geo.warp_lane(t);
        let (wu, lu) = self.geo.warp_lane(u);
        wt == wu
            && self
                .top(wt)
                .is_some_and(|g| g.mask >> lu & 1 == 1 && g.own == c)
    }

    fn endi(&mut self, w: u32) {
        let geo = self.geo;
        let Some(ws) = self.warps.get_mut(w as usize) else {
            return;
        };
        let pending = ws.pending.take();
        let Some(g) = ws.stack.last_mut() else { return };
        g.own += 1;
        if let Some(p) = pending {
            match &mut g.sparse {
                Some(s) => s.join(&p),
                None => g.sparse = Some(p),
            }
            if let Some(s) = &mut g.sparse {
                let me = geo.cta_of(geo.thread(w, 0));
                if let Some(&c) = s.blocks.get(&me) {
                    g.block_clk = g.block_clk.max(c);
                    s.blocks.remove(&me);
                }
                s.compact(|u| geo.cta_of(u));
                if s.is_empty() {
                    g.sparse = None;
                }
            }
        }
        self.formats[g.format()] += 1;
    }

    fn branch_if(&mut self, w: u32, taken: u32) {
        let launched = self.geo.launched(w);
        let Some(ws) = self.warps.get_mut(w as usize) else {
            return;
        };
        let Some(g) = ws.stack.last() else { return };
        let t = taken & g.mask;
        let e = g.mask & !t;
        let vals = Self::lanes_vals(g);
        let mut eg = g.clone();
        eg.then_final = None;
        eg.mask = e;
        eg.know = Group::compress(e, launched, &vals);
        let mut tg = eg.clone();
        tg.mask = t;
        tg.own = g.own + 1;
        tg.know = Group::compress(t, launched, &vals);
        ws.stack.push(eg);
        ws.stack.push(tg);
    }

    fn branch_else(&mut self, w: u32) {
        let Some(ws) = self.warps.get_mut(w as usize) else {
            return;
        };
        if ws.stack.len() < 3 {
            return;
        }
        let then = ws.stack.pop().expect("len >= 3");
        let n = ws.stack.len();
        ws.stack[n - 2].then_final = Some(Box::new(then));
        ws.stack[n - 1].own += 1;
    }

    fn branch_fi(&mut self, w: u32) {
        let launched = self.geo.launched(w);
        let Some(ws) = self.warps.get_mut(w as usize) else {
            return;
        };
        if ws.stack.len() < 2 {
            return;
        }
        let e = ws.stack.pop().expect("len >= 2");
        let j = ws.stack.last_mut().expect("len >= 1");
        let t = j.then_final.take();
        let mut own = e.own;
        let mut block_clk = e.block_clk;
        let ve = Self::lanes_vals(&e);
        let mut vals = ve;
        if let Some(t) = &t {
            own = own.max(t.own);
            block_clk = block_clk.max(t.block_clk);
            let vt = Self::lanes_vals(t);
            for l in 0..32 {
                vals[l] = vals[l].max(vt[l]);
            }
        }
        j.own = own + 1;
        j.block_clk = block_clk;
        j.know = Group::compress(j.mask, launched, &vals);
        j.sparse = e.sparse;
        if let Some(t) = t {
            j.sparse_join(&t.sparse);
        }
    }

    fn snapshot(&self, t: u32) -> Vc {
        let (w, lane) = self.geo.warp_lane(t);
        let mut v = self.snapshot_lanes(w, 1 << lane);
        if let Some(g) = self.group_of(t) {
            if g.mask >> lane & 1 == 0 {
                v.set_max(t, g.own);
            }
        }
        v
    }

    fn snapshot_lanes(&self, w: u32, mask: u32) -> Vc {
        let mut v = Vc::default();
        let Some(g) = self.top(w) else { return v };
        let geo = &self.geo;
        let launched = geo.launched(w);
        let mut m = launched;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            let c = if mask >> l & 1 == 1 {
                g.own
            } else {
                g.lane_clock(l)
            };
            v.set_max(geo.thread(w, l), c);
        }
        let cta = geo.cta_of(geo.thread(w, 0));
        v.floor_max(cta, g.block_clk);
        if let Some(s) = &g.sparse {
            v.join(s);
        }
        v
    }

    fn acquire(&mut self, t: u32, vc: &Vc) {
        let (w, _) = self.geo.warp_lane(t);
        if let Some(ws) = self.warps.get_mut(w as usize) {
            match &mut ws.pending {
                Some(p) => p.join(vc),
                None => ws.pending = Some(Box::new(vc.clone())),
            }
        }
    }

    fn barrier_full(&mut self, cta: u32) {
        let geo = self.geo;
        let wpc = geo.warps_per_cta();
        let range = (cta * wpc) as usize..((cta + 1) * wpc) as usize;
        let mut m = 0u32;
        let mut union: Option<Box<Vc>> = None;
        for ws in &self.warps[range.clone()] {
            for g in &ws.stack {
                m = m.max(g.own).max(g.block_clk);
                if let Some(t) = &g.then_final {
                    m = m.max(t.own);
                }
                if let Some(s) = &g.sparse {
                    union.get_or_insert_with(Default::default).join(s);
                }
            }
            if let Some(p) = &ws.pending {
                union.get_or_insert_with(Default::default).join(p);
            }
        }
        if let Some(u) = &mut union {
            u.blocks.remove(&cta);
            u.threads.retain(|&t, _| geo.cta_of(t) != cta);
            if u.is_empty() {
                union = None;
            }
        }
        for (i, ws) in self.warps[range].iter_mut().enumerate() {
            let w = cta * wpc + i as u32;
            let launched = geo.launched(w);
            ws.pending = None;
            for g in ws.stack.iter_mut() {
                g.own = m + 1;
                g.block_clk = m;
                g.know = if g.mask == launched {
                    Know::Converged
                } else {
                    Know::Diverged(m)
                };
                g.sparse = union.clone();
                if let Some(t) = &mut g.then_final {
                    t.own = m + 1;
                    t.block_clk = m;
                    t.know = Know::Diverged(m);
                    t.sparse = union.clone();
                }
            }
        }
    }

    fn barrier_partial(&mut self, arrived: &Vc, waiters: &[(u32, u32)], arrivers: &[(u32, u32)]) {
        for &(w, _) in waiters {
            if let Some(g) = self
                .warps
                .get_mut(w as usize)
                .and_then(|s| s.stack.last_mut())
            {
                match &mut g.sparse {
                    Some(s) => s.join(arrived),
                    None => g.sparse = Some(Box::new(arrived.clone())),
                }
                g.own += 1;
            }
        }
        for &(w, _) in arrivers {
            if let Some(g) = self
                .warps
                .get_mut(w as usize)
                .and_then(|s| s.stack.last_mut())
            {
                g.own += 1;
            }
        }
    }

    fn bytes(&self) -> usize {
        let mut b =
            std::mem::size_of::<Self>() + self.warps.capacity() * std::mem::size_of::<WarpState>();
        for ws in &self.warps {
            b += ws.stack.capacity() * std::mem::size_of::<Group>();
            for g in &ws.stack {
                if matches!(g.know, Know::Nested(_)) {
                    b += 128;
                }
                if let Some(s) = &g.sparse {
                    b += s.bytes() + 64;
                }
                if g.then_final.is_some() {
                    b += std::mem::size_of::<Group>();
                }
            }
            if let Some(p) = &ws.pending {
                b += p.bytes() + 64;
            }
        }
        b
    }

    fn format_counts(&self) -> [u64; 4] {
        self.formats
    }
}

/// Uncompressed clocks: one explicit vector per thread and a mask stack per warp, exactly
/// the rules of Fig. 2-3 (quadratic memory: for tests on small launches).
pub struct Full {
    geo: Geometry,
    c: Vec<Vec<u32>>,
    stacks: Vec<Vec<u32>>,
}

impl Full {
    fn lanes(&self, w: u32, mask: u32) -> Vec<u32> {
        (0..32)
            .filter(|l| mask >> l & 1 == 1)
            .map(|l| self.geo.thread(w, l))
            .collect()
    }
    fn join_inc(&mut self, ts: &[u32]) {
        if ts.is_empty() {
            return;
        }
        let n = self.c[0].len();
        let mut j = vec![0u32; n];
        for &t in ts {
            for (a, b) in j.iter_mut().zip(&self.c[t as usize]) {
                *a = (*a).max(*b);
            }
        }
        for &t in ts {
            self.c[t as usize].copy_from_slice(&j);
            self.c[t as usize][t as usize] += 1;
        }
    }
    fn top(&self, w: u32) -> u32 {
        self.stacks[w as usize].last().copied().unwrap_or(0)
    }
}

/// Thread `t`'s row of [`Full`].
pub struct FullView<'a> {
    row: &'a [u32],
    t: u32,
}

impl ClockView for FullView<'_> {
    fn own(&self) -> u32 {
        self.row[self.t as usize]
    }
    fn knows(&self, u: u32) -> u32 {
        self.row[u as usize]
    }
    fn conc(&self, u: u32, c: u32) -> bool {
        u != self.t && c > self.knows(u)
    }
}

impl Clocks for Full {
    type View<'a> = FullView<'a>;
    fn view(&self, t: u32) -> FullView<'_> {
        FullView {
            row: &self.c[t as usize],
            t,
        }
    }
    fn active(&self, w: u32) -> u32 {
        self.top(w)
    }
    fn new(geo: Geometry) -> Self {
        let n = geo.threads() as usize;
        let c = (0..n)
            .map(|t| {
                let mut v = vec![0u32; n];
                v[t] = 1;
                v
            })
            .collect();
        let stacks = (0..geo.warps()).map(|w| vec![geo.launched(w)]).collect();
        Full { geo, c, stacks }
    }
    fn own(&self, t: u32) -> u32 {
        self.c[t as usize][t as usize]
    }
    fn knows(&self, t: u32, u: u32) -> u32 {
        self.c[t as usize][u as usize]
    }
    fn same_instruction(&self, t: u32, u: u32, c: u32) -> bool {
        let (wt, _) = self.geo.warp_lane(t);
        let (wu, lu) = self.geo.warp_lane(u);
        wt == wu && self.top(wt) >> lu & 1 == 1 && self.own(u) == c
    }
    fn endi(&mut self, w: u32) {
        let ts = self.lanes(w, self.top(w));
        self.join_inc(&ts);
    }
    fn branch_if(&mut self, w: u32, taken: u32) {
        let m = self.top(w);
        let t = taken & m;
        self.stacks[w as usize].push(m & !t);
        self.stacks[w as usize].push(t);
        let ts = self.lanes(w, t);
        self.join_inc(&ts);
    }
    fn branch_else(&mut self, w: u32) {
        if self.stacks[w as usize].len() < 3 {
            return;
        }
        self.stacks[w as usize].pop();
        let ts = self.lanes(w, self.top(w));
        self.join_inc(&ts);
    }
    fn branch_fi(&mut self, w: u32) {
        if self.stacks[w as usize].len() < 2 {
            return;
        }
        self.stacks[w as usize].pop();
        let ts = self.lanes(w, self.top(w));
        self.join_inc(&ts);
    }
    fn snapshot(&self, t: u32) -> Vc {
        let mut v = Vc::default();
        for (u, &c) in self.c[t as usize].iter().enumerate() {
            v.set_max(u as u32, c);
        }
        v
    }
    fn snapshot_lanes(&self, w: u32, mask: u32) -> Vc {
        let mut v = Vc::default();
        for t in self.lanes(w, mask) {
            v.join(&self.snapshot(t));
        }
        v
    }
    fn acquire(&mut self, t: u32, vc: &Vc) {
        let geo = self.geo;
        for (u, c) in self.c[t as usize].iter_mut().enumerate() {
            *c = (*c).max(vc.get(u as u32, geo.cta_of(u as u32)));
        }
    }
    fn barrier_full(&mut self, cta: u32) {
        let bt = self.geo.block_threads;
        let ts: Vec<u32> = (cta * bt..(cta + 1) * bt).collect();
        self.join_inc(&ts);
    }
    fn barrier_partial(&mut self, arrived: &Vc, waiters: &[(u32, u32)], arrivers: &[(u32, u32)]) {
        for &(w, m) in waiters {
            for t in self.lanes(w, m) {
                self.acquire(t, arrived);
                self.c[t as usize][t as usize] += 1;
            }
        }
        for &(w, m) in arrivers {
            for t in self.lanes(w, m) {
                self.c[t as usize][t as usize] += 1;
            }
        }
    }
    fn bytes(&self) -> usize {
        self.c.len() * self.c.len() * 4
    }
}
