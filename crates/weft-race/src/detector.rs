//! The BARRACUDA analysis (paper 003 §3.3, Fig. 2-3) over a streamed trace.
//!
//! Per access: the FastTrack-style read/write rules of Fig. 2 (READEXCL, READSHARED,
//! READINFLATE, WRITEEXCL, WRITESHARED) on the shadow memory, the atomic rules of Fig. 3
//! (atomics never race with atomics and do not synchronise; an atomic and a plain access
//! race unless ordered), and the inter-thread synchronisation rules of §3.3.4 (ACQBLOCK,
//! ACQGLOBAL, RELBLOCK, RELGLOBAL on the per-block map `S_x`). Per warp: ENDINSN, IF,
//! ELSE/FI (the clocks, [`crate::clocks`]); per CTA: BAR. Lanes of one warp instruction are
//! concurrent, so lanes writing different values to one location race, while lanes that all
//! write the same value do not (§3.3.1).
//!
//! Two race definitions ([`Definition`]): BARRACUDA's (a global-scope release synchronises
//! with a block-scope acquire in another CTA and vice versa; atomics never race with each
//! other), and `scoped`: the same lock-step warps with scoped RC11's mutual scope inclusion
//! (both sides of a synchronisation in two CTAs must be at global scope, and two atomics of
//! different CTAs race when one of them is block-scoped, `atomicAdd_block`).

use std::collections::HashMap;

use weft_ir::kernel::Kernel;
use weft_simt::{AccessEvent, AccessOp, AccessSpace, BranchEvent, TraceSink, WarpAccess};

use crate::classify::{classify_kernel, PcInfo, Scope2, SyncOp};
use crate::clocks::{ClockView, Clocks, Flat, Geometry};
use crate::predicate::Regions;
use crate::report::{Class, Race, RaceKind, Report, Side};
use crate::shadow::{Ext, Exts, IntMap, Meta, Rec, Shadow, TidSet, READ_SHARED, SPLIT};
use crate::vc::Vc;

/// Which race definition the analysis applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Definition {
    /// Paper 003 §3.2.
    Barracuda,
    /// BARRACUDA's lock-step warps with scoped RC11's mutual scope inclusion (the model
    /// checker's definition, paper 004): a synchronisation between two CTAs needs both sides
    /// at global scope, and two atomics of different CTAs race when one is block-scoped.
    Scoped,
}

impl Definition {
    pub fn name(self) -> &'static str {
        match self {
            Definition::Barracuda => "barracuda",
            Definition::Scoped => "scoped",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "barracuda" => Some(Definition::Barracuda),
            "scoped-rc11" | "scoped" => Some(Definition::Scoped),
            _ => None,
        }
    }
}

/// `S_x`: the clocks released to a synchronisation location.
#[derive(Default)]
struct SyncLoc {
    /// The last global-scope release (its clock and CTA); holds for every CTA without a
    /// later block-scope release of its own.
    global: Option<(Vc, u32)>,
    /// Block-scope releases per CTA since the last global release.
    per_block: HashMap<u32, Vc>,
}

#[derive(Default)]
struct BarAcc {
    waiters: Vec<(u32, u32)>,
    arrived: Vc,
    arrive_only: bool,
}

/// Key of a location: generic address for global memory, `1<<62 | cta<<24 | offset` for
/// shared memory.
fn loc_key(space: AccessSpace, addr: u64) -> Option<(u64, &'static str)> {
    match space {
        AccessSpace::Global => Some((addr, "global")),
        AccessSpace::Shared(c) => Some(((1u64 << 62) | (c << 24) | (addr & 0xff_ffff), "shared")),
        AccessSpace::Local => None,
    }
}

/// A conflict found by the shadow check, before classification.
#[derive(Clone, Copy)]
struct Conflict {
    tid: u32,
    clk: u32,
    pc: u32,
    kind: RaceKind,
    access: &'static str,
}

/// The current access.
#[derive(Clone, Copy)]
struct Cur {
    t: u32,
    e: u32,
    pc: u32,
    write: bool,
    atomic: bool,
    block_atomic: bool,
    key: u64,
    width: u8,
    value: u64,
}

/// A predicated region being run as a divergent branch by one warp.
#[derive(Clone, Copy)]
struct OpenRegion {
    id: u32,
    negated: bool,
    in_else: bool,
    last_pc: u32,
}

/// The race detector; feed it events ([`TraceSink`]) and take the [`Report`].
pub struct Detector<C: Clocks> {
    geo: Geometry,
    def: Definition,
    info: Vec<Option<PcInfo>>,
    pub clocks: C,
    shadow: Shadow,
    sync: HashMap<u64, SyncLoc>,
    narrow: HashMap<u32, Vc>,
    log: Vec<(u32, u64, u8, u64)>,
    bars: IntMap<(u32, u32), BarAcc>,
    found: Vec<Conflict>,
    /// Predicated regions of the code (§4.1: predication seen as branches).
    regions: Regions,
    /// Accesses of the current guarded instruction, held until its `endi` tells its lanes.
    pending: Vec<(AccessEvent, u64)>,
    /// `pending`'s events, reused.
    scratch: Vec<AccessEvent>,
    /// Per warp, the predicated region open as a branch: (region, polarity of the first
    /// path, in the second path, last instruction).
    open: HashMap<u32, OpenRegion>,
    pub report: Report,
    /// Trace events seen.
    pub events: u64,
    /// Per-thread accesses checked.
    pub accesses: u64,
}

impl<C: Clocks> Detector<C> {
    /// A detector for `kernel` launched with `geo`.
    pub fn new(kernel: &Kernel, geo: Geometry, def: Definition) -> Self {
        let mut d = Self::with_info(classify_kernel(kernel), geo, def);
        d.regions = Regions::of(kernel);
        d
    }

    /// Seeing predicated memory instructions as branches ([`crate::predicate`]) with these
    /// regions (tests; [`Detector::new`] finds them in the kernel).
    pub fn with_regions(mut self, regions: Regions) -> Self {
        self.regions = regions;
        self
    }

    /// Ends warp `w`'s open predicated region (the `fi` of the branch it stands for).
    fn close_region(&mut self, w: u32) {
        if !self.open.is_empty() && self.open.remove(&w).is_some() {
            self.clocks.branch_fi(w);
        }
    }

    /// Opens, switches or closes warp `w`'s predicated region for guarded instruction `pc`
    /// that ran on lanes `mask`.
    fn enter_region(&mut self, w: u32, pc: u32, mask: u32) {
        let Some((id, negated)) = self.regions.get(pc) else {
            self.close_region(w);
            return;
        };
        if let Some(r) = self.open.get_mut(&w) {
            if r.id == id && pc > r.last_pc {
                r.last_pc = pc;
                if negated == r.negated && !r.in_else || negated != r.negated && r.in_else {
                    return;
                }
                if !r.in_else {
                    r.in_else = true;
                    self.clocks.branch_else(w);
                    return;
                }
            }
            self.close_region(w);
        }
        let g = self.clocks.active(w);
        if mask & g != g && mask & g != 0 {
            self.clocks.branch_if(w, mask);
            self.open.insert(
                w,
                OpenRegion {
                    id,
                    negated,
                    in_else: false,
                    last_pc: pc,
                },
            );
        }
    }

    /// A detector with an explicit per-instruction classification (tests).
    pub fn with_info(info: Vec<Option<PcInfo>>, geo: Geometry, def: Definition) -> Self {
        Detector {
            geo,
            def,
            info,
            clocks: C::new(geo),
            shadow: Shadow::default(),
            sync: HashMap::new(),
            narrow: HashMap::new(),
            log: Vec::new(),
            bars: IntMap::default(),
            found: Vec::new(),
            regions: Regions::default(),
            pending: Vec::new(),
            scratch: Vec::new(),
            open: HashMap::new(),
            report: Report::default(),
            events: 0,
            accesses: 0,
        }
    }

    /// Bytes of analysis state now: (clocks, shadow memory and synchronisation locations).
    pub fn bytes(&self) -> (usize, usize) {
        let sync: usize = self
            .sync
            .values()
            .map(|s| {
                64 + s.global.as_ref().map_or(0, |g| g.0.bytes())
                    + s.per_block.values().map(|v| v.bytes() + 16).sum::<usize>()
            })
            .sum();
        (self.clocks.bytes(), self.shadow.bytes() + sync)
    }

    /// Shadow granules allocated.
    pub fn granules(&self) -> usize {
        self.shadow.granules()
    }

    /// The report (consumes the detector).
    pub fn finish(self) -> Report {
        self.report
    }

    /// Warps of CTA `cta`.
    fn warps_of(&self, cta: u32) -> std::ops::Range<u32> {
        let wpc = self.geo.warps_per_cta();
        cta * wpc..(cta + 1) * wpc
    }

    fn acquire(&mut self, t: u32, key: u64, scope: Scope2) -> Vc {
        let b = self.geo.cta_of(t);
        let mut got = Vc::default();
        let mut missed = Vc::default();
        if let Some(sl) = self.sync.get(&key) {
            let global_ok = |origin: u32| match (self.def, scope) {
                (Definition::Barracuda, _) => true,
                (Definition::Scoped, _) => origin == b || scope == Scope2::Global,
            };
            let own_block = sl.per_block.get(&b);
            if let Some((v, origin)) = &sl.global {
                // A block-scope acquire of a CTA with its own later release reads that.
                let shadowed = scope == Scope2::Block && own_block.is_some();
                if !shadowed && global_ok(*origin) {
                    got.join(v);
                } else if !shadowed {
                    missed.join(v);
                }
            }
            for (&c, v) in &sl.per_block {
                let ok = c == b || (self.def == Definition::Barracuda && scope == Scope2::Global);
                if ok {
                    got.join(v);
                } else {
                    missed.join(v);
                }
            }
        }
        if !got.is_empty() {
            self.clocks.acquire(t, &got);
        }
        if !missed.is_empty() {
            self.narrow.entry(t).or_default().join(&missed);
        }
        got
    }

    fn release(&mut self, t: u32, key: u64, scope: Scope2, extra: Option<&Vc>) {
        let mut s = self.clocks.snapshot(t);
        if let Some(x) = extra {
            s.join(x);
        }
        let b = self.geo.cta_of(t);
        let sl = self.sync.entry(key).or_default();
        match scope {
            Scope2::Global => {
                sl.global = Some((s, b));
                sl.per_block.clear();
            }
            Scope2::Block => {
                sl.per_block.insert(b, s);
            }
        }
    }

    /// A release by an atomic (E5). The RMW reads the latest write of `key`, so the releases
    /// already there that it observes (those an acquire of `t` at `scope` would take) stay
    /// observable through it (PTX observation order runs through atomics); they are joined
    /// in place, so a location released by every thread costs each release only its own
    /// snapshot.
    fn release_rmw(&mut self, t: u32, key: u64, scope: Scope2) {
        let s = self.clocks.snapshot(t);
        let b = self.geo.cta_of(t);
        let barracuda = self.def == Definition::Barracuda;
        let sl = self.sync.entry(key).or_default();
        match scope {
            Scope2::Global => {
                let (mut v, _) = sl.global.take().unwrap_or_default();
                for (&c, pb) in &sl.per_block {
                    if c == b || barracuda {
                        v.join(pb);
                    }
                }
                v.join(&s);
                sl.global = Some((v, b));
                sl.per_block.clear();
            }
            Scope2::Block => {
                if let Some(pb) = sl.per_block.get_mut(&b) {
                    pb.join(&s);
                } else {
                    let mut v = s;
                    if let Some((g, origin)) = &sl.global {
                        if barracuda || *origin == b {
                            v.join(g);
                        }
                    }
                    sl.per_block.insert(b, v);
                }
            }
        }
    }

    fn classify(&self, t: u32, c: &Conflict) -> (RaceKind, Class) {
        let (wt, _) = self.geo.warp_lane(t);
        let (wu, _) = self.geo.warp_lane(c.tid);
        let mut kind = c.kind;
        let class = if wt == wu {
            if !self.clocks.same_instruction(t, c.tid, c.clk) {
                kind = RaceKind::BranchOrdering;
            }
            Class::Divergence
        } else if self.geo.cta_of(t) == self.geo.cta_of(c.tid) {
            Class::IntraBlock
        } else {
            Class::InterBlock
        };
        if kind != RaceKind::BranchOrdering && kind != RaceKind::AtomicScope {
            if let Some(v) = self.narrow.get(&t) {
                if v.get(c.tid, self.geo.cta_of(c.tid)) >= c.clk {
                    kind = RaceKind::FenceScope;
                }
            }
        }
        (kind, class)
    }
}

/// What one access's shadow check borrows: the accessing thread's knowledge `view` (a
/// [`ClockView`] looked up once per access, or a lane of a warp's [`Flat`] knowledge), the
/// clocks (same-instruction test), the conflicts found so far and the current instruction's
/// writes.
struct Pass<'a, C: Clocks, V: ClockView> {
    view: V,
    clocks: &'a C,
    found: &'a mut Vec<Conflict>,
    log: &'a mut Vec<(u32, u64, u8, u64)>,
    def: Definition,
    geo: Geometry,
}

impl<C: Clocks, V: ClockView> Pass<'_, C, V> {
    /// The concurrent entry of `set` with the smallest thread index (deterministic reports).
    #[inline(always)]
    fn first_conc(view: &V, set: &TidSet) -> Option<(u32, Rec)> {
        match set {
            // In thread order: the first concurrent entry has the smallest thread.
            TidSet::Small(v) => v.iter().find(|(u, r)| view.conc(*u, r.clk)).copied(),
            TidSet::Big(_) => set.first(|u, r| view.conc(u, r.clk)),
        }
    }

    /// The shadow check of access `cur` over the granules it covers: whole granules on their
    /// record, parts of granules on per-byte records (splitting the granule; a full-width
    /// plain write merges it back when it can).
    #[inline(always)]
    fn words(&mut self, shadow: &mut Shadow, cur: &Cur) {
        if cur.width == 4 && cur.key & 3 == 0 {
            // One whole granule (most accesses).
            let (m, mut exts) = shadow.meta_exts(cur.key >> 2);
            if m.flags & SPLIT == 0 {
                self.word(m, &mut exts, cur);
                return;
            }
        }
        let start = cur.key;
        let end = start + u64::from(cur.width);
        let mut g = start >> 2;
        while g << 2 < end {
            let base = g << 2;
            let lo = (start.max(base) - base) as usize;
            let hi = (end.min(base + 4) - base) as usize;
            if lo == 0 && hi == 4 {
                let (m, mut exts) = shadow.meta_exts(g);
                if m.flags & SPLIT == 0 {
                    self.word(m, &mut exts, cur);
                    g += 1;
                    continue;
                }
            }
            let si = shadow.split(g);
            for k in lo..hi {
                let (bm, mut exts) = shadow.byte_exts(si, k);
                self.word(bm, &mut exts, cur);
            }
            if lo == 0 && hi == 4 && cur.write && !cur.atomic {
                shadow.try_unsplit(g);
            }
            g += 1;
        }
    }

    /// The rule for one location record `m` (a granule, or a byte of a split one): the
    /// conflicts of `cur` with what `m` records, then `m` updated with `cur` (paper 003
    /// Fig. 2-3). Every access is checked by this function, whichever path delivered it.
    #[inline(always)]
    fn word(&mut self, m: &mut Meta, exts: &mut Exts<'_>, cur: &Cur) {
        self.conflicts(m, exts, cur);
        if !cur.atomic && cur.write {
            m.w_tid = cur.t;
            m.w_clk = cur.e;
            m.w_pc = cur.pc;
            m.r_clk = 0;
            m.flags &= !READ_SHARED;
            exts.free_ext(m.ext);
            m.ext = 0;
        } else if !cur.atomic {
            self.read(m, exts, cur);
        } else {
            self.atomic(m, exts, cur);
        }
    }

    /// The conflicts of `cur` with record `m`: its plain write, its plain read or reads, its
    /// atomics.
    #[inline(always)]
    fn conflicts(&mut self, m: &Meta, exts: &Exts<'_>, cur: &Cur) {
        if m.w_clk > 0 && self.view.conc(m.w_tid, m.w_clk) {
            self.write_conflict(m, cur);
        }
        if cur.write && m.r_clk > 0 && self.view.conc(m.r_tid, m.r_clk) {
            self.found.push(Conflict {
                tid: m.r_tid,
                clk: m.r_clk,
                pc: m.r_pc,
                kind: if cur.atomic {
                    RaceKind::AtomicPlain
                } else {
                    RaceKind::ReadWrite
                },
                access: "read",
            });
        }
        if m.ext != 0 {
            // A plain read is checked only against the atomic writes.
            let ext = exts.ext_ref(m.ext);
            if cur.write || !cur.atomic && !ext.atomic_writes.is_empty() {
                self.check_ext(m, ext, cur);
            }
        }
    }

    /// `cur` is concurrent with `m`'s plain write: a conflict unless both are plain writes
    /// of one warp instruction storing the same value (§3.3.1).
    #[inline(never)]
    fn write_conflict(&mut self, m: &Meta, cur: &Cur) {
        let same_value = cur.write
            && !cur.atomic
            && self.clocks.same_instruction(cur.t, m.w_tid, m.w_clk)
            && self.log.iter().any(|&(u, k, w, v)| {
                u == m.w_tid && k == cur.key && w == cur.width && v == cur.value
            });
        if !same_value {
            let kind = if cur.atomic {
                RaceKind::AtomicPlain
            } else if cur.write {
                RaceKind::WriteWrite
            } else {
                RaceKind::ReadWrite
            };
            self.found.push(Conflict {
                tid: m.w_tid,
                clk: m.w_clk,
                pc: m.w_pc,
                kind,
                access: "write",
            });
        }
    }

    /// A plain read recorded in `m`: the read epoch while one reader is concurrent with no
    /// other (or the same thread reads again), the extension's read set once two are
    /// (READINFLATE: the old reader's entry and the new one).
    #[inline(always)]
    fn read(&mut self, m: &mut Meta, exts: &mut Exts<'_>, cur: &Cur) {
        let rec = Rec {
            clk: cur.e,
            pc: cur.pc,
            block: cur.block_atomic,
        };
        if m.flags & READ_SHARED != 0 {
            exts.ext(m.ext).reads.insert(cur.t, rec);
        } else if m.r_clk == 0 || m.r_tid == cur.t || !self.view.conc(m.r_tid, m.r_clk) {
            m.r_tid = cur.t;
            m.r_clk = cur.e;
            m.r_pc = cur.pc;
        } else {
            if m.ext == 0 {
                m.ext = exts.new_empty_ext();
            }
            let old = Rec {
                clk: m.r_clk,
                pc: m.r_pc,
                block: false,
            };
            let e = exts.ext(m.ext);
            e.reads.insert(m.r_tid, old);
            e.reads.insert(cur.t, rec);
            m.flags |= READ_SHARED;
            m.r_clk = 0;
        }
    }

    /// An atomic recorded in `m`'s extension (and, under the scoped definition, per CTA and
    /// instruction for the scope check).
    #[inline(never)]
    fn atomic(&mut self, m: &mut Meta, exts: &mut Exts<'_>, cur: &Cur) {
        let rec = Rec {
            clk: cur.e,
            pc: cur.pc,
            block: cur.block_atomic,
        };
        if m.ext == 0 {
            m.ext = exts.new_empty_ext();
        }
        let scoped = self.def == Definition::Scoped;
        let cta = self.geo.cta_of(cur.t);
        let e = exts.ext(m.ext);
        if cur.write {
            e.atomic_writes.insert(cur.t, rec);
            if scoped {
                let site = e
                    .atomic_scope
                    .entry(cta)
                    .or_default()
                    .entry(cur.pc)
                    .or_default();
                site.block = cur.block_atomic;
                site.clk.insert(cur.t, cur.e);
            }
        } else {
            e.atomic_reads.insert(cur.t, rec);
        }
    }

    /// The checks against the extension of `m` (concurrent reads, atomics).
    fn check_ext(&mut self, m: &Meta, ext: &Ext, cur: &Cur) {
        let t = cur.t;
        let view = &self.view;
        let found = &mut *self.found;
        if cur.write && m.flags & READ_SHARED != 0 {
            let kind = if cur.atomic {
                RaceKind::AtomicPlain
            } else {
                RaceKind::ReadWrite
            };
            if let Some((u, r)) = Self::first_conc(view, &ext.reads) {
                found.push(Conflict {
                    tid: u,
                    clk: r.clk,
                    pc: r.pc,
                    kind,
                    access: "read",
                });
            }
        }
        if !cur.atomic {
            if let Some((u, r)) = Self::first_conc(view, &ext.atomic_writes) {
                found.push(Conflict {
                    tid: u,
                    clk: r.clk,
                    pc: r.pc,
                    kind: RaceKind::AtomicPlain,
                    access: "atomic",
                });
            }
            if cur.write {
                if let Some((u, r)) = Self::first_conc(view, &ext.atomic_reads) {
                    found.push(Conflict {
                        tid: u,
                        clk: r.clk,
                        pc: r.pc,
                        kind: RaceKind::AtomicPlain,
                        access: "acquire",
                    });
                }
            }
        } else if cur.write && self.def == Definition::Scoped {
            // A block-scoped atomic races with every concurrent atomic write of another
            // CTA, a device-scoped one with the block-scoped ones. One conflict per
            // instruction of the other side (its lowest concurrent thread), so every
            // pair of lines is reported, in a deterministic order; each (CTA,
            // instruction) is scanned in thread order only up to its first concurrent
            // write.
            let b = self.geo.cta_of(t);
            let mut hits: Vec<(u32, Rec)> = Vec::new();
            for (&c, sites) in &ext.atomic_scope {
                if c == b {
                    continue;
                }
                for (&pc, site) in sites {
                    if !(site.block || cur.block_atomic) {
                        continue;
                    }
                    let Some((&u, &clk)) = site.clk.iter().find(|(&u, &clk)| view.conc(u, clk))
                    else {
                        continue;
                    };
                    let r = Rec {
                        clk,
                        pc,
                        block: site.block,
                    };
                    match hits.iter_mut().find(|h| h.1.pc == pc) {
                        Some(h) if h.0 > u => *h = (u, r),
                        Some(_) => {}
                        None => hits.push((u, r)),
                    }
                }
            }
            hits.sort_by_key(|h| (h.0, h.1.pc));
            for (u, r) in hits {
                found.push(Conflict {
                    tid: u,
                    clk: r.clk,
                    pc: r.pc,
                    kind: RaceKind::AtomicScope,
                    access: "atomic",
                });
            }
        }
    }
}

/// Thread `t`'s knowledge when it is lane `t - flat.warp_lo` of a lock-step group whose
/// knowledge is `flat`: the same answers as the thread's own [`ClockView`].
struct FlatLane<'f> {
    flat: &'f Flat,
    t: u32,
}

impl ClockView for FlatLane<'_> {
    #[inline(always)]
    fn own(&self) -> u32 {
        self.flat.own
    }
    #[inline]
    fn knows(&self, u: u32) -> u32 {
        if u == self.t {
            self.flat.own
        } else {
            self.flat.knows(u)
        }
    }
    #[inline(always)]
    fn conc(&self, u: u32, c: u32) -> bool {
        self.flat.conc(self.t, u, c)
    }
}

/// How [`Detector::check`] names an access of each kind (the report's `access`), and
/// whether it reads and writes.
fn access_kind(op: AccessOp, sync: SyncOp) -> (bool, bool, &'static str) {
    match (op, sync) {
        (AccessOp::Load, SyncOp::Plain) => (true, false, "read"),
        (AccessOp::Store, SyncOp::Plain) => (false, true, "write"),
        (AccessOp::Load, _) => (true, false, "acquire"),
        (AccessOp::Store, _) => (false, true, "release"),
        (AccessOp::Atomic(_), SyncOp::Acq(_)) => (true, true, "acquire"),
        (AccessOp::Atomic(_), SyncOp::Rel(_)) => (true, true, "release"),
        (AccessOp::Atomic(_), SyncOp::Ar { .. }) => (true, true, "acq-rel"),
        (AccessOp::Atomic(_), _) => (true, true, "atomic"),
    }
}

impl<C: Clocks> Detector<C> {
    /// The classification of instruction `pc` (plain when unknown).
    #[inline]
    fn info_of(&self, pc: u32) -> PcInfo {
        self.info
            .get(pc as usize)
            .copied()
            .flatten()
            .unwrap_or(PcInfo {
                op: SyncOp::Plain,
                block_scope_atomic: false,
            })
    }

    /// The knowledge shared by the lanes of a plain load or store at `pc` that thread `t0`
    /// (an active lane) runs, as numbers ([`Flat`]); `None` when the instruction is not a
    /// plain load or store or the group's knowledge is not flat.
    #[inline]
    fn flat_for(&self, pc: u32, op: AccessOp, t0: u32) -> Option<(Flat, bool)> {
        let info = self.info_of(pc);
        if info.op != SyncOp::Plain || !matches!(op, AccessOp::Load | AccessOp::Store) {
            return None;
        }
        Some((self.clocks.view(t0).flat()?, info.block_scope_atomic))
    }

    /// Plain accesses `0..n` of the lanes of one warp instruction (trace event numbers from
    /// `index`), each `cur` with what `item` gives (thread, location, value, width, space)
    /// or, where it gives nothing (not a lane of the group, local memory), through
    /// [`Detector::check`] on `event`. The rule ([`Pass::words`]) runs with the lane's
    /// share of the group's knowledge `flat`, one [`Pass`] for a stretch of lanes, until a
    /// lane has conflicts, which [`Detector::conclude`] reports before the next lane.
    #[inline(always)]
    fn check_lanes(
        &mut self,
        flat: &Flat,
        mut cur: Cur,
        (n, index): (usize, u64),
        item: impl Fn(usize) -> Option<(u32, u64, u64, u8, &'static str)>,
        event: impl Fn(usize) -> AccessEvent,
    ) {
        let mut i = 0;
        while i < n {
            let stop = {
                let Detector {
                    clocks,
                    shadow,
                    found,
                    log,
                    def,
                    geo,
                    accesses,
                    ..
                } = self;
                let mut pass = Pass {
                    view: FlatLane { flat, t: 0 },
                    clocks,
                    found,
                    log,
                    def: *def,
                    geo: *geo,
                };
                let mut stop = None;
                while i < n {
                    let Some((t, key, value, width, space)) = item(i) else {
                        stop = Some(None);
                        break;
                    };
                    (cur.t, cur.key, cur.value, cur.width) = (t, key, value, width);
                    pass.view.t = t;
                    *accesses += 1;
                    pass.words(shadow, &cur);
                    if !pass.found.is_empty() {
                        stop = Some(Some(space));
                        break;
                    }
                    if cur.write {
                        pass.log.push((t, key, width, value));
                    }
                    i += 1;
                }
                stop
            };
            match stop {
                None => return,
                Some(None) => self.check(&event(i), index + i as u64),
                Some(Some(space)) => {
                    let access = if cur.write { "write" } else { "read" };
                    self.conclude(&event(i), &cur, space, access, index + i as u64);
                }
            }
            i += 1;
        }
    }

    /// The first access of a plain load or store of the group whose knowledge is `flat`:
    /// what every lane's [`Cur`] shares.
    fn lane_cur(flat: &Flat, pc: u32, store: bool, block: bool) -> Cur {
        Cur {
            t: 0,
            e: flat.own,
            pc,
            write: store,
            atomic: false,
            block_atomic: block,
            key: 0,
            width: 4,
            value: 0,
        }
    }

    /// The lane accesses of one warp instruction (same `pc`, same warp), trace event numbers
    /// from `index`: each checked in turn as [`Detector::check`] does, the instruction's
    /// classification and the group's knowledge looked up once for a plain load or store
    /// ([`Detector::check_lanes`]).
    fn check_run(&mut self, evs: &[AccessEvent], index: u64) {
        let ev0 = &evs[0];
        let Some((flat, block)) = self.flat_for(ev0.pc, ev0.op, ev0.tid as u32) else {
            for (k, ev) in evs.iter().enumerate() {
                self.check(ev, index + k as u64);
            }
            return;
        };
        let cur = Self::lane_cur(&flat, ev0.pc, ev0.op == AccessOp::Store, block);
        let item = |i: usize| {
            let ev = &evs[i];
            let l = (ev.tid as u32).wrapping_sub(flat.warp_lo);
            if l >= 32 || flat.mask >> l & 1 == 0 {
                return None;
            }
            let (key, space) = loc_key(ev.space, ev.addr)?;
            Some((ev.tid as u32, key, ev.value, ev.width.max(1), space))
        };
        self.check_lanes(&flat, cur, (evs.len(), index), item, |i| evs[i]);
    }

    /// A warp instruction's accesses, trace event numbers from `index`: as
    /// [`Detector::check_run`] on its lanes' events, without making the events.
    fn check_warp(&mut self, a: &WarpAccess<'_>, index: u64) {
        let l0 = a.mask.trailing_zeros();
        let t0 = (a.tid0 + u64::from(l0)) as u32;
        let flat = if a.space == AccessSpace::Local {
            None
        } else {
            self.flat_for(a.pc, a.op, t0)
        };
        // The active lanes in order (the `i`-th access is lane `lanes[i]`).
        let full = a.mask == u32::MAX;
        let mut lanes = [0u8; 32];
        if !full {
            let (mut m, mut n) = (a.mask, 0);
            while m != 0 {
                lanes[n] = m.trailing_zeros() as u8;
                m &= m - 1;
                n += 1;
            }
        }
        let lane = |i: usize| if full { i } else { lanes[i] as usize };
        let n = a.mask.count_ones() as usize;
        let Some((flat, block)) = flat else {
            for i in 0..n {
                self.check(&a.event(lane(i)), index + i as u64);
            }
            return;
        };
        let (tag, off_mask, space) = match a.space {
            AccessSpace::Shared(c) => ((1u64 << 62) | (c << 24), 0xff_ffff, "shared"),
            _ => (0, u64::MAX, "global"),
        };
        let width = a.width.max(1);
        let cur = Self::lane_cur(&flat, a.pc, a.op == AccessOp::Store, block);
        // Whether every active lane is in the group (no lane to test).
        let all_in = a.mask & !flat.mask == 0;
        let item = |i: usize| {
            let l = lane(i) & 31;
            if !all_in && flat.mask >> l & 1 == 0 {
                return None;
            }
            let key = tag | (a.addrs[l] & off_mask);
            Some(((a.tid0 + l as u64) as u32, key, a.values[l], width, space))
        };
        self.check_lanes(&flat, cur, (n, index), item, |i| a.event(lane(i)));
    }

    /// One thread's access, trace event number `index`.
    fn check(&mut self, ev: &AccessEvent, index: u64) {
        let Some((key, space)) = loc_key(ev.space, ev.addr) else {
            return;
        };
        let info = self.info_of(ev.pc);
        self.accesses += 1;
        let t = ev.tid as u32;
        let sync = info.op != SyncOp::Plain;
        let (_, write, access) = access_kind(ev.op, info.op);
        let atomic = sync || matches!(ev.op, AccessOp::Atomic(_));
        let cur = {
            let Detector {
                clocks,
                shadow,
                found,
                log,
                def,
                geo,
                ..
            } = self;
            let view = clocks.view(t);
            let cur = Cur {
                t,
                e: view.own(),
                pc: ev.pc,
                write,
                atomic,
                block_atomic: info.block_scope_atomic,
                key,
                width: ev.width.max(1),
                value: ev.value,
            };
            // The shadow check (before this access's own acquire takes effect).
            let mut pass = Pass {
                view,
                clocks,
                found,
                log,
                def: *def,
                geo: *geo,
            };
            pass.words(shadow, &cur);
            cur
        };
        self.conclude(ev, &cur, space, access, index);
        // Synchronisation (§3.3.4).
        match info.op {
            SyncOp::Acq(s) => {
                self.acquire(t, key, s);
            }
            SyncOp::Rel(s) if matches!(ev.op, AccessOp::Atomic(_)) => self.release_rmw(t, key, s),
            SyncOp::Rel(s) => self.release(t, key, s, None),
            SyncOp::Ar { acq, rel } => {
                let got = self.acquire(t, key, acq);
                self.release(t, key, rel, Some(&got));
            }
            SyncOp::Plain | SyncOp::Atm => {}
        }
    }

    /// After access `ev`'s shadow check: its conflicts reported (one race per other thread
    /// and instruction, classified) and cleared, and a plain write logged for the
    /// same-value test of the rest of its warp instruction.
    fn conclude(
        &mut self,
        ev: &AccessEvent,
        cur: &Cur,
        space: &'static str,
        access: &'static str,
        index: u64,
    ) {
        if !self.found.is_empty() {
            let mut seen: Vec<(u32, u32)> = Vec::new();
            let mut found = std::mem::take(&mut self.found);
            for c in &found {
                if seen.contains(&(c.tid, c.pc)) {
                    continue;
                }
                seen.push((c.tid, c.pc));
                let (kind, class) = self.classify(cur.t, c);
                self.report.add(Race {
                    kind,
                    class,
                    space,
                    first: Side {
                        pc: c.pc,
                        thread: u64::from(c.tid),
                        line: String::new(),
                        access: c.access,
                    },
                    second: Side {
                        pc: ev.pc,
                        thread: ev.tid,
                        line: String::new(),
                        access,
                    },
                    address: ev.addr,
                    event: index,
                    count: 1,
                });
            }
            found.clear();
            self.found = found;
        }
        if cur.write && !cur.atomic {
            self.log.push((cur.t, cur.key, cur.width, cur.value));
        }
    }
}

impl<C: Clocks> TraceSink for Detector<C> {
    fn access_warp(&mut self, a: &WarpAccess<'_>) {
        if a.mask == 0 {
            return;
        }
        let index = self.events;
        self.events += u64::from(a.mask.count_ones());
        if self.regions.get(a.pc).is_some() {
            let mut m = a.mask;
            let mut k = 0;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                self.pending.push((a.event(l), index + k));
                k += 1;
            }
            return;
        }
        self.close_region(a.warp as u32);
        self.check_warp(a, index);
    }

    fn access_batch(&mut self, evs: &[AccessEvent]) {
        let mut i = 0;
        while i < evs.len() {
            let pc = evs[i].pc;
            let (w, _) = self.geo.warp_lane(evs[i].tid as u32);
            let mut j = i + 1;
            while j < evs.len() && evs[j].pc == pc && self.geo.warp_lane(evs[j].tid as u32).0 == w {
                j += 1;
            }
            let index = self.events;
            self.events += (j - i) as u64;
            if self.regions.get(pc).is_some() {
                let run = evs[i..j].iter().enumerate();
                self.pending
                    .extend(run.map(|(k, ev)| (*ev, index + k as u64)));
            } else {
                self.close_region(w);
                self.check_run(&evs[i..j], index);
            }
            i = j;
        }
    }

    fn access(&mut self, ev: &AccessEvent) {
        self.events += 1;
        if self.regions.get(ev.pc).is_some() {
            self.pending.push((*ev, self.events - 1));
            return;
        }
        let (w, _) = self.geo.warp_lane(ev.tid as u32);
        self.close_region(w);
        self.check(ev, self.events - 1);
    }

    fn endi(&mut self, warp: u64, mask: u32, pc: u32) {
        self.events += 1;
        let w = warp as u32;
        self.enter_region(w, pc, mask);
        if !self.pending.is_empty() {
            let pending = std::mem::take(&mut self.pending);
            let mut evs = std::mem::take(&mut self.scratch);
            evs.extend(pending.iter().map(|p| p.0));
            let (first, last) = (pending[0], pending[pending.len() - 1]);
            let one_run = last.1 - first.1 + 1 == pending.len() as u64
                && evs.iter().all(|e| {
                    e.pc == first.0.pc
                        && self.geo.warp_lane(e.tid as u32).0
                            == self.geo.warp_lane(first.0.tid as u32).0
                });
            if one_run {
                self.check_run(&evs, first.1);
            } else {
                for (ev, index) in &pending {
                    self.check(ev, *index);
                }
            }
            evs.clear();
            self.scratch = evs;
            self.pending = pending;
            self.pending.clear();
        }
        self.clocks.endi(w);
        self.log.clear();
    }

    fn branch(&mut self, ev: BranchEvent, warp: u64, mask: u32) {
        self.events += 1;
        let w = warp as u32;
        self.close_region(w);
        match ev {
            BranchEvent::If => self.clocks.branch_if(w, mask),
            BranchEvent::Else => self.clocks.branch_else(w),
            BranchEvent::Fi => self.clocks.branch_fi(w),
        }
    }

    fn bar_arrive(&mut self, cta: u64, warp: u64, mask: u32, id: u32, wait: bool, _pc: u32) {
        let w = warp as u32;
        self.close_region(w);
        if wait {
            self.bars
                .entry((cta as u32, id))
                .or_default()
                .waiters
                .push((w, mask));
        } else {
            let snap = self.clocks.snapshot_lanes(w, mask);
            let acc = self.bars.entry((cta as u32, id)).or_default();
            acc.arrived.join(&snap);
            acc.arrive_only = true;
            self.clocks
                .barrier_partial(&Vc::default(), &[], &[(w, mask)]);
        }
    }

    fn bar(&mut self, cta: u64, id: u32, all: bool) {
        self.events += 1;
        for w in self.warps_of(cta as u32) {
            self.close_region(w);
        }
        let acc = self.bars.remove(&(cta as u32, id)).unwrap_or_default();
        if all && !acc.arrive_only {
            self.clocks.barrier_full(cta as u32);
        } else {
            let mut v = acc.arrived;
            for &(w, m) in &acc.waiters {
                v.join(&self.clocks.snapshot_lanes(w, m));
            }
            self.clocks.barrier_partial(&v, &acc.waiters, &[]);
        }
    }
}
