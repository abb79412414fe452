//! Property test (paper 003 §4.3.1: the compression is lossless): on random feasible traces
//! — lock-step warp instructions with random active lanes, nested divergent branches,
//! full and partial barriers, plain/atomic/acquire/release accesses of mixed widths at both
//! scopes — the detector with compressed per-warp clocks reports exactly the races of the
//! detector with one explicit vector clock per thread.

use proptest::prelude::*;
use weft_ir::attrs::RmwOp;
use weft_race::{Compressed, Definition, Detector, Full, Geometry, PcInfo, Scope2, SyncOp};
use weft_simt::decode::TraceKind;
use weft_simt::{AccessEvent, AccessOp, AccessSpace, BranchEvent, TraceSink};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum FK {
    Base,
    Then,
    Else,
}

/// One event of the generated trace.
#[derive(Clone, Debug)]
enum Ev {
    Access(AccessEvent),
    Endi(u64, u32),
    Branch(BranchEvent, u64, u32),
    Arrive(u64, u64, u32, u32, bool),
    Bar(u64, u32, bool),
}

const PCS: usize = 12;

fn gen_info(r: &mut Rng) -> (Vec<Option<PcInfo>>, Vec<AccessOp>) {
    let mut info = Vec::new();
    let mut ops = Vec::new();
    for _ in 0..PCS {
        let sc = |r: &mut Rng| {
            if r.below(2) == 0 {
                Scope2::Block
            } else {
                Scope2::Global
            }
        };
        let (op, sync) = match r.below(10) {
            0 | 1 => (AccessOp::Load, SyncOp::Plain),
            2 | 3 => (AccessOp::Store, SyncOp::Plain),
            4 => (AccessOp::Atomic(RmwOp::Add), SyncOp::Atm),
            5 => (AccessOp::Load, SyncOp::Acq(sc(r))),
            6 => (AccessOp::Store, SyncOp::Rel(sc(r))),
            // Release and acquire patterns made of an RMW and a fence (E5).
            7 => (AccessOp::Atomic(RmwOp::Add), SyncOp::Rel(sc(r))),
            8 => (AccessOp::Atomic(RmwOp::Add), SyncOp::Acq(sc(r))),
            _ => {
                let (a, b) = (sc(r), sc(r));
                (AccessOp::Atomic(RmwOp::Exch), SyncOp::Ar { acq: a, rel: b })
            }
        };
        info.push(Some(PcInfo {
            op: sync,
            block_scope_atomic: r.below(3) == 0,
        }));
        ops.push(op);
    }
    (info, ops)
}

fn gen_trace(seed: u64, len: usize) -> (Geometry, Vec<Option<PcInfo>>, Vec<Ev>) {
    let mut r = Rng(seed);
    let bt = [4u32, 32, 40, 64][r.below(4) as usize];
    let ctas = 1 + r.below(3) as u32;
    let geo = Geometry {
        block_threads: bt,
        ctas,
    };
    let (info, ops) = gen_info(&mut r);
    let nw = geo.warps();
    let mut stacks: Vec<Vec<(u32, FK)>> =
        (0..nw).map(|w| vec![(geo.launched(w), FK::Base)]).collect();
    let mut evs = Vec::new();
    for _ in 0..len {
        let w = r.below(u64::from(nw)) as u32;
        let (m, k) = *stacks[w as usize].last().unwrap();
        match r.below(10) {
            0..=5 => {
                if m == 0 {
                    continue;
                }
                // A warp instruction with a random (predicated) subset of the group.
                let em = m & (r.next() as u32 | if r.below(2) == 0 { u32::MAX } else { 0 });
                if em == 0 {
                    continue;
                }
                let pc = r.below(PCS as u64) as usize;
                let width = [1u8, 2, 4, 4, 8][r.below(5) as usize];
                let cta = u64::from(w / geo.warps_per_cta());
                let shared = r.below(2) == 0;
                let uniform = r.below(2) == 0;
                let val = r.below(3);
                for l in 0..32 {
                    if em >> l & 1 == 0 {
                        continue;
                    }
                    let t = geo.thread(w, l);
                    let slot = r.below(6);
                    let addr = (slot * 4
                        + if width < 4 {
                            r.below(4) & !(u64::from(width) - 1)
                        } else {
                            0
                        })
                        & !(u64::from(width) - 1);
                    evs.push(Ev::Access(AccessEvent {
                        tid: u64::from(t),
                        pc: pc as u32,
                        op: ops[pc],
                        kind: TraceKind::Rd,
                        space: if shared {
                            AccessSpace::Shared(cta)
                        } else {
                            AccessSpace::Global
                        },
                        addr: if shared { addr } else { 0x1_0000_0000 + addr },
                        width,
                        value: if uniform { val } else { r.below(2) },
                    }));
                }
                evs.push(Ev::Endi(u64::from(w), em));
            }
            6 => {
                // Diverge.
                if m.count_ones() < 2 {
                    continue;
                }
                let t = m & r.next() as u32;
                if t == 0 || t == m {
                    continue;
                }
                let st = &mut stacks[w as usize];
                st.push((m & !t, FK::Else));
                st.push((t, FK::Then));
                evs.push(Ev::Branch(BranchEvent::If, u64::from(w), t));
            }
            7 => {
                let st = &mut stacks[w as usize];
                match k {
                    FK::Then => {
                        st.pop();
                        let e = st.last().unwrap().0;
                        evs.push(Ev::Branch(BranchEvent::Else, u64::from(w), e));
                    }
                    FK::Else => {
                        st.pop();
                        let j = st.last().unwrap().0;
                        evs.push(Ev::Branch(BranchEvent::Fi, u64::from(w), j));
                    }
                    FK::Base => {}
                }
            }
            8 => {
                // Full CTA barrier, when every warp of the CTA is converged.
                let cta = w / geo.warps_per_cta();
                let ws: Vec<u32> =
                    (cta * geo.warps_per_cta()..(cta + 1) * geo.warps_per_cta()).collect();
                if ws.iter().any(|&x| stacks[x as usize].len() != 1) {
                    continue;
                }
                for &x in &ws {
                    evs.push(Ev::Arrive(
                        u64::from(cta),
                        u64::from(x),
                        geo.launched(x),
                        0,
                        true,
                    ));
                }
                evs.push(Ev::Bar(u64::from(cta), 0, true));
            }
            _ => {
                // A partial (named) barrier: some converged warps wait, some only arrive.
                let cta = w / geo.warps_per_cta();
                let ws: Vec<u32> = (cta * geo.warps_per_cta()..(cta + 1) * geo.warps_per_cta())
                    .filter(|&x| stacks[x as usize].len() == 1 && r.below(2) == 0)
                    .collect();
                if ws.is_empty() {
                    continue;
                }
                for &x in &ws {
                    let wait = r.below(3) != 0;
                    evs.push(Ev::Arrive(
                        u64::from(cta),
                        u64::from(x),
                        geo.launched(x),
                        1,
                        wait,
                    ));
                }
                evs.push(Ev::Bar(u64::from(cta), 1, false));
            }
        }
    }
    (geo, info, evs)
}

fn feed(d: &mut dyn TraceSink, evs: &[Ev]) {
    for e in evs {
        match e {
            Ev::Access(a) => d.access(a),
            Ev::Endi(w, m) => d.endi(*w, *m, 0),
            Ev::Branch(b, w, m) => d.branch(*b, *w, *m),
            Ev::Arrive(c, w, m, id, wait) => d.bar_arrive(*c, *w, *m, *id, *wait, 0),
            Ev::Bar(c, id, all) => d.bar(*c, *id, *all),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn compressed_clocks_report_what_full_clocks_report(seed in any::<u64>(), len in 5usize..160, scoped in any::<bool>()) {
        let (geo, info, evs) = gen_trace(seed, len);
        let def = if scoped { Definition::Scoped } else { Definition::Barracuda };
        let mut c: Detector<Compressed> = Detector::with_info(info.clone(), geo, def);
        let mut f: Detector<Full> = Detector::with_info(info, geo, def);
        feed(&mut c, &evs);
        feed(&mut f, &evs);
        let (rc, rf) = (c.finish(), f.finish());
        prop_assert_eq!(rc.races, rf.races);
    }
}

/// The generator produces races of every clock-relevant kind (the property is not vacuous).
#[test]
fn generated_traces_have_races() {
    let mut kinds = std::collections::HashSet::new();
    for seed in 0..200u64 {
        let (geo, info, evs) = gen_trace(seed, 120);
        let mut f: Detector<Full> = Detector::with_info(info, geo, Definition::Barracuda);
        feed(&mut f, &evs);
        for r in f.finish().races {
            kinds.insert(r.kind);
        }
    }
    use weft_race::RaceKind::*;
    for k in [
        WriteWrite,
        ReadWrite,
        AtomicPlain,
        BranchOrdering,
        FenceScope,
    ] {
        assert!(kinds.contains(&k), "{k:?} never generated: {kinds:?}");
    }
}
