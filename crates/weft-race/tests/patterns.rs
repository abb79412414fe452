//! The PTX model's release and acquire patterns at the detector (E5-E6 of `classify.rs`),
//! on hand-written traces: which releases an acquire pattern synchronises with when several
//! threads release one flag. Expected verdicts follow from the PTX ISA's observation order
//! (a write is observed through a chain of atomic read-modify-writes, not through a plain
//! overwrite) and its morally-strong rule (both sides' scopes must include both threads).

use weft_ir::attrs::RmwOp;
use weft_race::{Definition, Detector, Full, Geometry, PcInfo, Scope2, SyncOp};
use weft_simt::decode::TraceKind;
use weft_simt::{AccessEvent, AccessOp, AccessSpace, TraceSink};

const DATA: u64 = 0x1_0000_0100;
const FLAG: u64 = 0x1_0000_0200;

/// Instructions: 0 plain store, 1 plain load, 2 the producers' publish (classified
/// `publish`), 3 the consumer's wait (an RMW classified `wait`).
fn detector(publish: SyncOp, wait: SyncOp, def: Definition) -> Detector<Full> {
    let i = |op| {
        Some(PcInfo {
            op,
            block_scope_atomic: false,
        })
    };
    let info = vec![i(SyncOp::Plain), i(SyncOp::Plain), i(publish), i(wait)];
    // Three CTAs of one warp; thread 32c is CTA c's first lane.
    let geo = Geometry {
        block_threads: 32,
        ctas: 3,
    };
    Detector::with_info(info, geo, def)
}

fn access(d: &mut Detector<Full>, tid: u64, pc: u32, op: AccessOp, addr: u64) {
    d.access(&AccessEvent {
        tid,
        pc,
        op,
        kind: TraceKind::Rd,
        space: AccessSpace::Global,
        addr,
        width: 4,
        value: tid + 1,
    });
    d.endi(tid / 32, 1, pc);
}

/// Two producers (threads 0 and 32) write their own data word and publish with `publish`
/// (`AccessOp` of the publishing instruction); the consumer (thread 64) waits with an RMW
/// and reads both words. Returns the races, grouped by instruction pair as reported: the
/// first instance's threads and the number of instances.
fn two_producers(publish: AccessOp, sync1: SyncOp, wait: SyncOp) -> Vec<(u64, u64, u64)> {
    let mut out = Vec::new();
    for def in [Definition::Barracuda, Definition::Scoped] {
        let mut d = detector(sync1, wait, def);
        let rmw = AccessOp::Atomic(RmwOp::Add);
        access(&mut d, 0, 0, AccessOp::Store, DATA);
        access(&mut d, 0, 2, publish, FLAG);
        access(&mut d, 32, 0, AccessOp::Store, DATA + 4);
        access(&mut d, 32, 2, publish, FLAG);
        access(&mut d, 64, 3, rmw, FLAG);
        access(&mut d, 64, 1, AccessOp::Load, DATA);
        access(&mut d, 64, 1, AccessOp::Load, DATA + 4);
        let r = d.finish();
        let races: Vec<(u64, u64, u64)> = r
            .races
            .iter()
            .map(|x| (x.first.thread, x.second.thread, x.count))
            .collect();
        if def == Definition::Barracuda {
            out = races;
        } else {
            assert_eq!(races, out, "both definitions agree at global scope");
        }
    }
    out
}

#[test]
fn release_rmws_chain_to_the_acquire() {
    // fence; atomicAdd(flag, 1) twice, then atomicAdd(flag, 0); fence: the consumer's RMW
    // observes the second producer's RMW, which read the first's: both synchronise.
    let g = Scope2::Global;
    let rmw = AccessOp::Atomic(RmwOp::Add);
    assert_eq!(two_producers(rmw, SyncOp::Rel(g), SyncOp::Acq(g)), []);
}

#[test]
fn a_plain_release_store_overwrites() {
    // fence; flag = 1 (a strong store, not an RMW) by both producers: the consumer observes
    // the second store only, so the first producer's data write is unordered with its read.
    let g = Scope2::Global;
    let r = two_producers(AccessOp::Store, SyncOp::Rel(g), SyncOp::Acq(g));
    assert_eq!(r, [(0, 64, 1)]);
}

#[test]
fn no_acquire_fence_no_synchronisation() {
    // The wait RMW without its fence is `atm`: both data reads race (two instances of
    // one instruction pair).
    let g = Scope2::Global;
    let rmw = AccessOp::Atomic(RmwOp::Add);
    assert_eq!(
        two_producers(rmw, SyncOp::Rel(g), SyncOp::Atm),
        [(0, 64, 2)]
    );
}

#[test]
fn block_scope_patterns_do_not_cross_ctas() {
    // Block-scope release and acquire patterns in different CTAs (a __threadfence_block,
    // or an atomicAdd_block: E6) do not synchronise under either definition.
    let b = Scope2::Block;
    let rmw = AccessOp::Atomic(RmwOp::Add);
    assert_eq!(
        two_producers(rmw, SyncOp::Rel(b), SyncOp::Acq(b)),
        [(0, 64, 2)]
    );
}
