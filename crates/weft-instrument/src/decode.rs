//! Queue draining (paper 003 §4.2-4.3): records back into trace events, in queue order.
//! Memory records become per-lane accesses (vector elements regrouped lane by lane, as the
//! emulator emits them) followed by `endi`; the warp's reconvergence stack is re-run from
//! the branch (taken lanes), reconvergence and exit records to emit `if`/`else`/`fi` where
//! the emulator does; barrier arrivals complete a barrier when every live thread of the CTA
//! has arrived. Inside a divergent branch a warp's plain accesses are held until its next
//! synchronising or control record and replayed path by path, the lane groups of one path
//! that a GPU with independent thread scheduling logged separately merged into one record
//! per instruction (`Decoder::release`).

use std::collections::HashMap;

use weft_simt::mem::{resolve_generic, Region};
use weft_simt::{AccessEvent, AccessOp, AccessSpace, BranchEvent, TraceSink};

use crate::rewrite::{Site, SiteKind, SpaceHint, HEADER_BYTES, QUEUE_HEADER, RECORD_BYTES};

/// A queue that cannot be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

struct Frame {
    rpc: u32,
    then_mask: u32,
    else_mask: u32,
    join_mask: u32,
    in_then: bool,
}

struct WarpState {
    live: u32,
    stack: Vec<Frame>,
    /// Elements of a vector access collected so far: (site, mask, addrs, values).
    pending: Vec<(usize, u32, Vec<u64>, Vec<u64>)>,
    /// Records held back while the warp is inside a divergent branch ([`holdable`]).
    held: Vec<Vec<u8>>,
}

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"))
}
fn u64_at(b: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"))
}

fn launched(bt: u32, wpc: u32, w: u32) -> u32 {
    let wic = w % wpc;
    let lanes = (bt - wic * 32).min(32);
    if lanes == 32 {
        u32::MAX
    } else {
        (1u32 << lanes) - 1
    }
}

/// Barrier divergence seen in a decoded trace (paper 003 Fig. 3, rule BAR: every thread of
/// the block must be active at a barrier). The emulator finds these itself; for a trace
/// logged on a GPU the decoder is the only place that sees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BarrierFinding {
    /// Lanes `reached` of warp `warp` (in CTA `cta`) arrived at the barrier at `pc` while
    /// its live lanes `missing` did not (a barrier in divergent code).
    PartialWarp {
        pc: u32,
        cta: u32,
        warp: u32,
        reached: u32,
        missing: u32,
    },
    /// Barrier `id` of CTA `cta` completed with arrivals from different instructions.
    DifferentInstructions { cta: u32, id: u32, pcs: Vec<u32> },
    /// Barrier `id` (every thread of the CTA) at `pc` completed after `exited` threads of
    /// CTA `cta` had exited without reaching it.
    ExitedThreads {
        pc: u32,
        cta: u32,
        id: u32,
        exited: u32,
    },
}

/// Replays `queue` (the queue buffer's bytes after the run) through `sink`; `block_threads`
/// and `ctas` are the launch shape. Returns the number of records.
pub fn decode(
    queue: &[u8],
    sites: &[Site],
    block_threads: u32,
    ctas: u32,
    sink: &mut dyn TraceSink,
) -> Result<u64, DecodeError> {
    decode_with_findings(queue, sites, block_threads, ctas, sink, &mut Vec::new())
}

/// [`decode`], also collecting barrier divergence into `findings` (for traces logged on a
/// GPU, where no emulator watched the barriers).
pub fn decode_with_findings(
    queue: &[u8],
    sites: &[Site],
    block_threads: u32,
    ctas: u32,
    sink: &mut dyn TraceSink,
    findings: &mut Vec<BarrierFinding>,
) -> Result<u64, DecodeError> {
    if queue.len() < QUEUE_HEADER {
        return Err(DecodeError("queue buffer too small".into()));
    }
    let nq = u32_at(queue, 4).max(1) as usize;
    let cap = u32_at(queue, 8) as usize;
    let qbytes = QUEUE_HEADER + cap * RECORD_BYTES;
    if queue.len() < QUEUE_HEADER + nq * qbytes {
        return Err(DecodeError(
            "queue buffer smaller than its header says".into(),
        ));
    }
    // Records of every queue, in global ticket order (each queue alone is in order).
    let mut order: Vec<(u32, usize)> = Vec::new();
    for q in 0..nq {
        let base = QUEUE_HEADER + q * qbytes;
        let head = u32_at(queue, base) as usize;
        if head > cap {
            return Err(DecodeError(format!(
                "queue {q} overflow: {head} records logged, room for {cap}"
            )));
        }
        for i in 0..head {
            let o = base + QUEUE_HEADER + i * RECORD_BYTES;
            order.push((u32_at(queue, o + 16), o));
        }
    }
    order.sort_unstable();
    let mut d = Decoder {
        sites,
        block_threads,
        wpc: block_threads.div_ceil(32),
        warps: HashMap::new(),
        bars: HashMap::new(),
        bar_pcs: HashMap::new(),
        bar_lanes: HashMap::new(),
        live_per_cta: HashMap::new(),
    };
    for (r, &(_, o)) in order.iter().enumerate() {
        let rec = &queue[o..o + RECORD_BYTES];
        let gw = u32_at(rec, 0);
        let site_id = u32_at(rec, 4) as usize;
        let mask = u32_at(rec, 8);
        let site = *sites
            .get(site_id)
            .ok_or_else(|| DecodeError(format!("record {r}: unknown site {site_id}")))?;
        let cta = gw / d.wpc;
        if cta >= ctas {
            return Err(DecodeError(format!(
                "record {r}: warp {gw} outside the grid"
            )));
        }
        let ws = d.warps.entry(gw).or_insert_with(|| WarpState {
            live: launched(block_threads, d.wpc, gw),
            stack: Vec::new(),
            pending: Vec::new(),
            held: Vec::new(),
        });
        d.live_per_cta.entry(cta).or_insert(block_threads);
        if holdable(ws, site, mask, sites) {
            ws.held.push(rec.to_vec());
            continue;
        }
        if !ws.held.is_empty() {
            let closing = matches!(site.kind, SiteKind::Reconv).then_some(site.pc);
            d.release(gw, closing, sink, findings);
        }
        d.apply(rec, sink, findings);
    }
    // Records still held at the end of the trace (a run cut short), warp by warp.
    let mut rest: Vec<u32> = d
        .warps
        .iter()
        .filter(|(_, w)| !w.held.is_empty())
        .map(|(&g, _)| g)
        .collect();
    rest.sort_unstable();
    for gw in rest {
        d.release(gw, None, sink, findings);
    }
    // Barriers never completed (a deadlock the run ended in): their partial warps too.
    let mut pending: Vec<_> = std::mem::take(&mut d.bar_lanes).into_iter().collect();
    pending.sort_by_key(|(k, _)| *k);
    for ((cta, _), lanes) in pending {
        partial_warps(cta, &lanes, &d.warps, d.wpc, findings);
    }
    Ok(order.len() as u64)
}

/// Whether a record of a warp may wait in its held list (see [`Decoder::release`]): a plain
/// access (no atomic, no acquire or release) by lanes of the innermost divergent branch, or
/// a reconvergence record of some of its lanes while others have not reached the
/// reconvergence point yet. Everything else — synchronising accesses, branches, barriers,
/// exits — first releases what the warp holds, so that no other warp's record is replayed
/// before one of this warp's that could synchronise with it.
fn holdable(ws: &WarpState, site: Site, mask: u32, sites: &[Site]) -> bool {
    let Some(f) = ws.stack.last() else {
        return false;
    };
    if mask == 0 || mask & !f.join_mask != 0 {
        return false;
    }
    match site.kind {
        SiteKind::Access { op, sync, .. } => !sync && !matches!(op, AccessOp::Atomic(_)),
        SiteKind::Reconv if site.pc == f.rpc => {
            let arrived = ws
                .held
                .iter()
                .filter(|h| {
                    sites
                        .get(u32_at(h, 4) as usize)
                        .is_some_and(|s| matches!(s.kind, SiteKind::Reconv) && s.pc == site.pc)
                })
                .fold(mask, |m, h| m | u32_at(h, 8));
            arrived & ws.live != f.join_mask & ws.live
        }
        _ => false,
    }
}

/// The lanes of one path that a GPU with independent thread scheduling (sm_70 and later)
/// logged in several groups, merged back into one record per instruction: a record joins the
/// first earlier record of the same site with disjoint lanes that comes after every record
/// already holding one of its lanes (so a group's records keep their order). On a trace
/// where every path is logged by one group (the emulator's), nothing merges.
fn merge_groups(records: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut last: [Option<usize>; 32] = [None; 32];
    for rec in records {
        let (site, mask) = (u32_at(&rec, 4), u32_at(&rec, 8));
        let from = (0..32)
            .filter(|l| mask >> l & 1 == 1)
            .filter_map(|l| last[l as usize])
            .max()
            .map_or(0, |i| i + 1);
        let into = (from..out.len())
            .find(|&i| u32_at(&out[i], 4) == site && u32_at(&out[i], 8) & mask == 0);
        let at = match into {
            Some(i) => {
                let m = &mut out[i];
                let merged = u32_at(m, 8) | mask;
                m[8..12].copy_from_slice(&merged.to_le_bytes());
                for l in (0..32).filter(|l| mask >> l & 1 == 1) {
                    for slot in [HEADER_BYTES + 8 * l, HEADER_BYTES + 256 + 8 * l] {
                        m[slot..slot + 8].copy_from_slice(&rec[slot..slot + 8]);
                    }
                }
                i
            }
            None => {
                out.push(rec);
                out.len() - 1
            }
        };
        for l in (0..32).filter(|l| mask >> l & 1 == 1) {
            last[l as usize] = Some(at);
        }
    }
    out
}

/// The decoder's state across records.
struct Decoder<'a> {
    sites: &'a [Site],
    block_threads: u32,
    wpc: u32,
    warps: HashMap<u32, WarpState>,
    /// Per (CTA, barrier): threads arrived, thread count (0: every live thread).
    bars: HashMap<(u32, u32), (u32, u32)>,
    /// Per (CTA, barrier): the instructions the pending arrivals came from.
    bar_pcs: HashMap<(u32, u32), Vec<u32>>,
    /// Per (CTA, every-thread barrier): the lanes of each (warp, instruction) waiting there.
    bar_lanes: HashMap<(u32, u32), ArrivedLanes>,
    live_per_cta: HashMap<u32, u32>,
}

impl Decoder<'_> {
    /// Replays what warp `gw` holds. Under independent thread scheduling the lanes of one
    /// path may log an instruction in several groups, and another path's records may come
    /// between the groups (seen on an H100: `tests/race/branch_order_ww.cu`'s lanes 1-31 in
    /// two groups with lane 0's path between them); replayed in ticket order, the late group
    /// ran after the decoder had left its path, and the same store looked like a
    /// branch-ordering race with itself. So the held records of the innermost branch are
    /// replayed path by path — the first path's, then the second's, each with its groups
    /// merged ([`merge_groups`]) — and then the reconvergence records. `closing`: the
    /// reconvergence point whose last lanes arrive with the record that ends the hold (its
    /// held partial arrivals are then part of that one). Records that fit neither path of
    /// the branch are replayed in ticket order, as they came.
    fn release(
        &mut self,
        gw: u32,
        closing: Option<u32>,
        sink: &mut dyn TraceSink,
        findings: &mut Vec<BarrierFinding>,
    ) {
        let Some(ws) = self.warps.get_mut(&gw) else {
            return;
        };
        let held = std::mem::take(&mut ws.held);
        let sites = self.sites;
        let is_reconv = |h: &Vec<u8>| {
            sites
                .get(u32_at(h, 4) as usize)
                .is_some_and(|s| matches!(s.kind, SiteKind::Reconv))
        };
        let (reconv, accesses): (Vec<_>, Vec<_>) = held.into_iter().partition(|h| is_reconv(h));
        let reconv: Vec<Vec<u8>> = reconv
            .into_iter()
            .filter(|h| {
                closing.is_none_or(|pc| sites.get(u32_at(h, 4) as usize).map(|s| s.pc) != Some(pc))
            })
            .collect();
        let order = match ws.stack.last() {
            Some(f) => {
                let (first, second): (Vec<_>, Vec<_>) = accesses
                    .iter()
                    .cloned()
                    .partition(|h| u32_at(h, 8) & !f.then_mask == 0);
                let paths_fit = second.iter().all(|h| u32_at(h, 8) & !f.else_mask == 0)
                    && (f.in_then || first.is_empty());
                if paths_fit {
                    let mut v = merge_groups(first);
                    v.extend(merge_groups(second));
                    v
                } else {
                    accesses
                }
            }
            None => accesses,
        };
        for rec in order.iter().chain(&reconv) {
            self.apply(rec, sink, findings);
        }
    }

    /// One record (already checked: its site exists and its warp is in the grid).
    fn apply(&mut self, rec: &[u8], sink: &mut dyn TraceSink, findings: &mut Vec<BarrierFinding>) {
        let (block_threads, wpc) = (self.block_threads, self.wpc);
        let gw = u32_at(rec, 0);
        let site_id = u32_at(rec, 4) as usize;
        let mask = u32_at(rec, 8);
        let aux = u32_at(rec, 12);
        let site = self.sites[site_id];
        let cta = gw / wpc;
        let thread = |w: u32, lane: u32| (w / wpc) * block_threads + (w % wpc) * 32 + lane;
        let ws = self.warps.get_mut(&gw).expect("inserted when fed");
        match site.kind {
            SiteKind::Access {
                op,
                space,
                width,
                elem,
                elems,
                ..
            } => {
                flush_else(gw, ws, mask, sink);
                let mut addrs = Vec::with_capacity(32);
                let mut vals = Vec::with_capacity(32);
                for l in 0..32 {
                    addrs.push(u64_at(rec, HEADER_BYTES + 8 * l));
                    vals.push(u64_at(rec, HEADER_BYTES + 256 + 8 * l));
                }
                ws.pending.push((site_id, mask, addrs, vals));
                if elem + 1 < elems {
                    return;
                }
                let parts = std::mem::take(&mut ws.pending);
                for l in 0..32u32 {
                    if mask >> l & 1 == 0 {
                        continue;
                    }
                    for (_, _, addrs, vals) in &parts {
                        let a = addrs[l as usize];
                        let (sp, addr) = match space {
                            SpaceHint::Global => (AccessSpace::Global, a),
                            SpaceHint::Shared => (AccessSpace::Shared(u64::from(cta)), a),
                            SpaceHint::Generic => match resolve_generic(a) {
                                Some((Region::Shared, off)) => {
                                    (AccessSpace::Shared(u64::from(cta)), off)
                                }
                                Some((Region::Global, _)) => (AccessSpace::Global, a),
                                Some((_, off)) => (AccessSpace::Local, off),
                                None => (AccessSpace::Global, a),
                            },
                        };
                        sink.access(&AccessEvent {
                            tid: u64::from(thread(gw, l)),
                            pc: site.pc,
                            op,
                            kind: weft_simt::decode::TraceKind::Rd,
                            space: sp,
                            addr,
                            width,
                            value: if op == AccessOp::Store {
                                vals[l as usize]
                            } else {
                                0
                            },
                        });
                    }
                }
                sink.endi(u64::from(gw), mask, site.pc);
            }
            SiteKind::Branch { rpc } => {
                flush_else(gw, ws, mask, sink);
                let taken = aux & mask;
                if taken != 0 && taken != mask {
                    sink.branch(BranchEvent::If, u64::from(gw), taken);
                    ws.stack.push(Frame {
                        rpc,
                        then_mask: taken,
                        else_mask: mask & !taken,
                        join_mask: mask,
                        in_then: true,
                    });
                }
            }
            SiteKind::Reconv => {
                while ws.stack.last().is_some_and(|f| f.rpc == site.pc) {
                    let f = ws.stack.pop().expect("checked");
                    if f.in_then {
                        sink.branch(BranchEvent::Else, u64::from(gw), f.else_mask & ws.live);
                    }
                    sink.branch(BranchEvent::Fi, u64::from(gw), f.join_mask & ws.live);
                }
                flush_else(gw, ws, mask, sink);
            }
            SiteKind::Exit => {
                flush_else(gw, ws, mask, sink);
                self.exit(gw, mask, sink, findings);
            }
            SiteKind::Barrier { wait } => {
                flush_else(gw, ws, mask, sink);
                self.barrier(rec, site.pc, wait, sink, findings);
            }
        }
    }

    /// Exited lanes (`ret`/`exit`): paths whose lanes all exited end, and a barrier the
    /// remaining live threads have all reached completes.
    fn exit(
        &mut self,
        gw: u32,
        mask: u32,
        sink: &mut dyn TraceSink,
        findings: &mut Vec<BarrierFinding>,
    ) {
        let (block_threads, wpc) = (self.block_threads, self.wpc);
        let cta = gw / wpc;
        let ws = self.warps.get_mut(&gw).expect("inserted when fed");
        ws.live &= !mask;
        *self.live_per_cta.get_mut(&cta).expect("inserted") -= mask.count_ones();
        // Paths whose lanes all exited end now, as the emulator pops their frames.
        while let Some(f) = ws.stack.last_mut() {
            if f.in_then && f.then_mask & ws.live == 0 {
                f.in_then = false;
                sink.branch(BranchEvent::Else, u64::from(gw), f.else_mask & ws.live);
            }
            if !f.in_then && f.else_mask & ws.live == 0 {
                let f = ws.stack.pop().expect("nonempty");
                sink.branch(BranchEvent::Fi, u64::from(gw), f.join_mask & ws.live);
                continue;
            }
            break;
        }
        // A barrier may now be complete.
        let live = self.live_per_cta[&cta];
        let done: Vec<(u32, u32)> = self
            .bars
            .iter()
            .filter(|(&(c, _), &(a, n))| c == cta && n == 0 && a > 0 && a >= live)
            .map(|(&k, _)| k)
            .collect();
        for k in done {
            self.bars.remove(&k);
            let lanes = self.bar_lanes.remove(&k).unwrap_or_default();
            partial_warps(k.0, &lanes, &self.warps, wpc, findings);
            let pcs = self.bar_pcs.remove(&k).unwrap_or_default();
            barrier_done(k, pcs, block_threads - live, findings);
            sink.bar(u64::from(k.0), k.1, true);
        }
    }

    /// Lanes arriving at barrier instruction `pc` (`wait`: they wait there): the barrier
    /// completes when its count or every live thread of the CTA has arrived.
    fn barrier(
        &mut self,
        rec: &[u8],
        pc: u32,
        wait: bool,
        sink: &mut dyn TraceSink,
        findings: &mut Vec<BarrierFinding>,
    ) {
        let (block_threads, wpc) = (self.block_threads, self.wpc);
        let gw = u32_at(rec, 0);
        let mask = u32_at(rec, 8);
        let aux = u32_at(rec, 12);
        let cta = gw / wpc;
        let (id, count) = (aux & 0xffff, aux >> 16);
        if wait && count == 0 {
            *self
                .bar_lanes
                .entry((cta, id))
                .or_default()
                .entry((gw, pc))
                .or_insert(0) |= mask;
        }
        sink.bar_arrive(u64::from(cta), u64::from(gw), mask, id, wait, pc);
        // Waiting arrivals only: `bar.arrive` at one instruction paired with
        // `bar.sync` at another is the producer/consumer idiom, not divergence.
        let pcs = self.bar_pcs.entry((cta, id)).or_default();
        if wait && !pcs.contains(&pc) {
            pcs.push(pc);
        }
        let a = self.bars.entry((cta, id)).or_insert((0, count));
        a.0 += mask.count_ones();
        let need = if a.1 > 0 {
            a.1
        } else {
            self.live_per_cta[&cta]
        };
        if a.0 >= need {
            let all = a.1 == 0;
            self.bars.remove(&(cta, id));
            let lanes = self.bar_lanes.remove(&(cta, id)).unwrap_or_default();
            partial_warps(cta, &lanes, &self.warps, wpc, findings);
            let pcs = self.bar_pcs.remove(&(cta, id)).unwrap_or_default();
            let exited = if all {
                block_threads - self.live_per_cta[&cta]
            } else {
                0
            };
            barrier_done((cta, id), pcs, exited, findings);
            sink.bar(u64::from(cta), id, all);
        }
    }
}

/// A record of lanes of the second path: the first path has finished.
fn flush_else(gw: u32, ws: &mut WarpState, m: u32, sink: &mut dyn TraceSink) {
    while let Some(f) = ws.stack.last_mut() {
        if f.in_then && m & f.else_mask != 0 {
            f.in_then = false;
            sink.branch(BranchEvent::Else, u64::from(gw), f.else_mask & ws.live);
        } else {
            break;
        }
    }
}

/// Lanes waiting at one every-thread barrier, per (global warp, instruction).
type ArrivedLanes = HashMap<(u32, u32), u32>;

/// Rule BAR at the end of one every-thread barrier of CTA `cta`: a warp some of whose live
/// lanes waited at an instruction that its other live lanes never reached. Lanes of one
/// warp that arrive in several groups (independent thread scheduling, sm_70 and later,
/// where `bar.sync` counts threads, not warps) are one arrival once all have come.
fn partial_warps(
    cta: u32,
    lanes: &ArrivedLanes,
    warps: &HashMap<u32, WarpState>,
    wpc: u32,
    findings: &mut Vec<BarrierFinding>,
) {
    let mut arrived: Vec<_> = lanes.iter().collect();
    arrived.sort();
    for (&(gw, pc), &reached) in arrived {
        let live = warps.get(&gw).map_or(reached, |w| w.live);
        if reached & live != live {
            findings.push(BarrierFinding::PartialWarp {
                pc,
                cta,
                warp: gw % wpc,
                reached,
                missing: live & !reached,
            });
        }
    }
}

/// Findings of a completed barrier: arrivals from several instructions, or threads of the
/// CTA that exited without reaching an every-thread barrier.
fn barrier_done(
    (cta, id): (u32, u32),
    pcs: Vec<u32>,
    exited: u32,
    findings: &mut Vec<BarrierFinding>,
) {
    if pcs.len() > 1 {
        findings.push(BarrierFinding::DifferentInstructions { cta, id, pcs });
    } else if exited > 0
        && !findings.iter().any(|f| {
            matches!(f, BarrierFinding::ExitedThreads { pc, cta: c, .. }
                if Some(pc) == pcs.first() && *c == cta)
        })
    {
        // Once per barrier instruction and CTA (a barrier in a loop passes many times).
        findings.push(BarrierFinding::ExitedThreads {
            pc: pcs.first().copied().unwrap_or(0),
            cta,
            id,
            exited,
        });
    }
}
