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
use crate::shadow::{Meta, Rec, Shadow, TidSet, READ_SHARED, SPLIT};
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
    read: bool,
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
    bars: HashMap<(u32, u32), BarAcc>,
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
            bars: HashMap::new(),
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

/// The borrows one access's shadow check needs: thread `t`'s clock view (looked up once),
/// the shadow memory, the conflicts found so far and the current instruction's writes.
struct Pass<'a, C: Clocks + 'a> {
    view: C::View<'a>,
    clocks: &'a C,
    shadow: &'a mut Shadow,
    found: &'a mut Vec<Conflict>,
    log: &'a [(u32, u64, u8, u64)],
    def: Definition,
    geo: Geometry,
}

impl<'a, C: Clocks> Pass<'a, C> {
    /// The concurrent entry of `set` with the smallest thread index (deterministic reports).
    #[inline]
    fn first_conc(view: &C::View<'a>, set: &TidSet) -> Option<(u32, Rec)> {
        set.first(|u, r| view.conc(u, r.clk))
    }

    /// Checks and updates one location record.
    #[inline]
    fn process(&mut self, mut m: Meta, cur: &Cur) -> Meta {
        let t = cur.t;
        let view = &self.view;
        // Plain write.
        if m.w_clk > 0 && view.conc(m.w_tid, m.w_clk) {
            let same_value = cur.write
                && !cur.atomic
                && self.clocks.same_instruction(t, m.w_tid, m.w_clk)
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
        // Plain reads, against a write.
        if cur.write {
            let kind = if cur.atomic {
                RaceKind::AtomicPlain
            } else {
                RaceKind::ReadWrite
            };
            if m.r_clk > 0 && view.conc(m.r_tid, m.r_clk) {
                self.found.push(Conflict {
                    tid: m.r_tid,
                    clk: m.r_clk,
                    pc: m.r_pc,
                    kind,
                    access: "read",
                });
            }
        }
        if m.ext != 0 && (cur.write || !cur.atomic) {
            self.check_ext(&m, cur);
        }
        // Updates.
        let rec = Rec {
            clk: cur.e,
            pc: cur.pc,
            block: cur.block_atomic,
        };
        if !cur.atomic && cur.write {
            m.w_tid = t;
            m.w_clk = cur.e;
            m.w_pc = cur.pc;
            m.r_clk = 0;
            m.flags &= !READ_SHARED;
            self.shadow.free_ext(m.ext);
            m.ext = 0;
        } else if !cur.atomic {
            if m.flags & READ_SHARED != 0 {
                self.shadow.ext(m.ext).reads.insert(t, rec);
            } else if m.r_clk == 0 || m.r_tid == t || !self.view.conc(m.r_tid, m.r_clk) {
                m.r_tid = t;
                m.r_clk = cur.e;
                m.r_pc = cur.pc;
            } else {
                if m.ext == 0 {
                    m.ext = self.shadow.new_empty_ext();
                }
                let old = Rec {
                    clk: m.r_clk,
                    pc: m.r_pc,
                    block: false,
                };
                let (rt, def) = (m.r_tid, self.shadow.ext(m.ext));
                def.reads.insert(rt, old);
                def.reads.insert(t, rec);
                m.flags |= READ_SHARED;
                m.r_clk = 0;
            }
        } else {
            if m.ext == 0 {
                m.ext = self.shadow.new_empty_ext();
            }
            let scoped = self.def == Definition::Scoped;
            let cta = self.geo.cta_of(t);
            let e = self.shadow.ext(m.ext);
            if cur.write {
                e.atomic_writes.insert(t, rec);
                if scoped {
                    let site = e
                        .atomic_scope
                        .entry(cta)
                        .or_default()
                        .entry(cur.pc)
                        .or_default();
                    site.block = cur.block_atomic;
                    site.clk.insert(t, cur.e);
                }
            } else {
                e.atomic_reads.insert(t, rec);
            }
        }
        m
    }

    /// The checks against the extension of `m` (concurrent reads, atomics).
    fn check_ext(&mut self, m: &Meta, cur: &Cur) {
        let t = cur.t;
        let view = &self.view;
        let ext = self.shadow.ext_ref(m.ext);
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

    /// The lane accesses of one warp instruction (same `pc`, same warp), trace event numbers
    /// from `index`: the same checks and updates as [`Detector::check`] on each in turn,
    /// with the common case of a plain 4-byte load or store done in place (see
    /// [`fast_plain`]), the instruction's classification and the warp's clock group looked
    /// up once. Anything else goes through [`Detector::check`].
    fn check_run(&mut self, evs: &[AccessEvent], index: u64) {
        let ev0 = &evs[0];
        let plain = self.info_of(ev0.pc).op == SyncOp::Plain
            && matches!(ev0.op, AccessOp::Load | AccessOp::Store);
        let mut k = 0;
        while k < evs.len() {
            if plain {
                let Detector {
                    clocks,
                    shadow,
                    log,
                    accesses,
                    ..
                } = self;
                let base = clocks.view(evs[k].tid as u32);
                while k < evs.len() {
                    let ev = &evs[k];
                    if ev.space == AccessSpace::Local {
                        k += 1;
                        continue;
                    }
                    let Some(view) = base.retarget(ev.tid as u32) else {
                        break;
                    };
                    if !fast_plain(&view, shadow, log, ev) {
                        break;
                    }
                    *accesses += 1;
                    k += 1;
                }
                if k == evs.len() {
                    break;
                }
            }
            self.check(&evs[k], index + k as u64);
            k += 1;
        }
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
        let (read, write, access) = match (ev.op, info.op) {
            (AccessOp::Load, SyncOp::Plain) => (true, false, "read"),
            (AccessOp::Store, SyncOp::Plain) => (false, true, "write"),
            (AccessOp::Load, _) => (true, false, "acquire"),
            (AccessOp::Store, _) => (false, true, "release"),
            (AccessOp::Atomic(_), SyncOp::Acq(_)) => (true, true, "acquire"),
            (AccessOp::Atomic(_), SyncOp::Rel(_)) => (true, true, "release"),
            (AccessOp::Atomic(_), SyncOp::Ar { .. }) => (true, true, "acq-rel"),
            (AccessOp::Atomic(_), _) => (true, true, "atomic"),
        };
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
            let mut pass: Pass<'_, C> = Pass {
                view: clocks.view(t),
                clocks,
                shadow,
                found,
                log,
                def: *def,
                geo: *geo,
            };
            let cur = Cur {
                t,
                e: pass.view.own(),
                pc: ev.pc,
                read,
                write,
                atomic,
                block_atomic: info.block_scope_atomic,
                key,
                width: ev.width.max(1),
                value: ev.value,
            };
            let _ = cur.read;
            // The shadow check (before this access's own acquire takes effect).
            pass.found.clear();
            let start = key;
            let end = key + u64::from(cur.width);
            let mut g = start >> 2;
            while g << 2 < end {
                let base = g << 2;
                let lo = (start.max(base) - base) as usize;
                let hi = (end.min(base + 4) - base) as usize;
                let at = pass.shadow.locate(g);
                let m = *pass.shadow.at(at);
                if lo == 0 && hi == 4 && m.flags & SPLIT == 0 {
                    let nm = pass.process(m, &cur);
                    *pass.shadow.at(at) = nm;
                } else {
                    let si = pass.shadow.split(g);
                    for k in lo..hi {
                        let bm = *pass.shadow.byte(si, k);
                        let nm = pass.process(bm, &cur);
                        *pass.shadow.byte(si, k) = nm;
                    }
                    if lo == 0 && hi == 4 && write && !atomic {
                        pass.shadow.try_unsplit(g);
                    }
                }
                g += 1;
            }
            cur
        };
        if !self.found.is_empty() {
            let mut seen: Vec<(u32, u32)> = Vec::new();
            let found = std::mem::take(&mut self.found);
            for c in &found {
                if seen.contains(&(c.tid, c.pc)) {
                    continue;
                }
                seen.push((c.tid, c.pc));
                let (kind, class) = self.classify(t, c);
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
            self.found = found;
        }
        if write && !atomic {
            self.log.push((t, key, cur.width, cur.value));
        }
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
}

/// A plain 4-byte load or store of a whole granule whose record holds no extension and
/// no split, and that conflicts with nothing, checked and recorded in place: exactly what
/// [`Pass::process`] does in that case (no conflict, the read or write epoch replaced).
/// False (nothing changed) in every other case, which [`Detector::check`] handles.
#[inline]
fn fast_plain<V: ClockView>(
    view: &V,
    shadow: &mut Shadow,
    log: &mut Vec<(u32, u64, u8, u64)>,
    ev: &AccessEvent,
) -> bool {
    let Some((key, _)) = loc_key(ev.space, ev.addr) else {
        return false;
    };
    if ev.width != 4 || key & 3 != 0 {
        return false;
    }
    let at = shadow.locate(key >> 2);
    let m = *shadow.at(at);
    if m.flags != 0 || m.ext != 0 || m.w_clk > 0 && view.conc(m.w_tid, m.w_clk) {
        return false;
    }
    let t = ev.tid as u32;
    let e = view.own();
    let nm = if ev.op == AccessOp::Store {
        if m.r_clk > 0 && view.conc(m.r_tid, m.r_clk) {
            return false;
        }
        log.push((t, key, 4, ev.value));
        Meta {
            w_tid: t,
            w_clk: e,
            w_pc: ev.pc,
            r_clk: 0,
            ..m
        }
    } else {
        if m.r_clk != 0 && m.r_tid != t && view.conc(m.r_tid, m.r_clk) {
            return false;
        }
        Meta {
            r_tid: t,
            r_clk: e,
            r_pc: ev.pc,
            ..m
        }
    };
    *shadow.at(at) = nm;
    true
}

/// [`Pass::process`] for a lane of a warp instruction, with the group's knowledge as
/// numbers: a plain 4-byte access of thread `t` at location `key` (granule-aligned, not
/// split, no atomics recorded there) that conflicts with nothing, including the inflation
/// of concurrent reads into the extension and a write that ends them. The same updates as
/// `process` in those cases; false, with nothing changed, in every other case (a conflict
/// to report, atomics, a split granule), which [`Detector::check`] handles.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fast_flat(
    flat: &Flat,
    shadow: &mut Shadow,
    log: &mut Vec<(u32, u64, u8, u64)>,
    t: u32,
    key: u64,
    pc: u32,
    store: bool,
    value: u64,
) -> bool {
    let (m, mut exts) = shadow.meta_exts(key >> 2);
    if m.flags & SPLIT != 0 || m.w_clk > 0 && flat.conc(t, m.w_tid, m.w_clk) {
        return false;
    }
    if m.ext != 0 {
        let e = exts.ext_ref(m.ext);
        if !e.atomic_writes.is_empty() || !e.atomic_reads.is_empty() {
            return false;
        }
    }
    if store {
        if m.r_clk > 0 && flat.conc(t, m.r_tid, m.r_clk) {
            return false;
        }
        if m.flags & READ_SHARED != 0 {
            let reads = &exts.ext_ref(m.ext).reads;
            if reads.first(|u, r| flat.conc(t, u, r.clk)).is_some() {
                return false;
            }
        }
        m.w_tid = t;
        m.w_clk = flat.own;
        m.w_pc = pc;
        m.r_clk = 0;
        m.flags &= !READ_SHARED;
        exts.free_ext(m.ext);
        m.ext = 0;
        log.push((t, key, 4, value));
        return true;
    }
    let rec = Rec {
        clk: flat.own,
        pc,
        block: false,
    };
    if m.flags & READ_SHARED != 0 {
        exts.ext(m.ext).reads.insert(t, rec);
    } else if m.r_clk == 0 || m.r_tid == t || !flat.conc(t, m.r_tid, m.r_clk) {
        m.r_tid = t;
        m.r_clk = flat.own;
        m.r_pc = pc;
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
        e.reads.insert(t, rec);
        m.flags |= READ_SHARED;
        m.r_clk = 0;
    }
    true
}

impl<C: Clocks> Detector<C> {
    /// A warp instruction's accesses, trace event numbers from `index`: [`fast_flat`] for
    /// the lanes it covers, [`Detector::check`] for the others, in lane order.
    fn check_warp(&mut self, a: &WarpAccess<'_>, index: u64) {
        let plain = self.info_of(a.pc).op == SyncOp::Plain
            && matches!(a.op, AccessOp::Load | AccessOp::Store)
            && a.width == 4
            && a.space != AccessSpace::Local;
        let l0 = a.mask.trailing_zeros();
        let flat = if plain {
            let t0 = (a.tid0 + u64::from(l0)) as u32;
            self.clocks.view(t0).flat()
        } else {
            None
        };
        let Some(flat) = flat else {
            let mut m = a.mask;
            let mut k = 0;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                self.check(&a.event(l), index + k);
                k += 1;
            }
            return;
        };
        let store = a.op == AccessOp::Store;
        let (tag, off_mask) = match a.space {
            AccessSpace::Shared(c) => ((1u64 << 62) | (c << 24), 0xff_ffff),
            _ => (0, u64::MAX),
        };
        let mut m = a.mask;
        let mut k = 0;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let t = (a.tid0 + l as u64) as u32;
            let key = tag | (a.addrs[l] & off_mask);
            let done = flat.mask >> l & 1 == 1
                && key & 3 == 0
                && fast_flat(
                    &flat,
                    &mut self.shadow,
                    &mut self.log,
                    t,
                    key,
                    a.pc,
                    store,
                    a.values[l],
                );
            if done {
                self.accesses += 1;
            } else {
                self.check(&a.event(l), index + k);
            }
            k += 1;
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
