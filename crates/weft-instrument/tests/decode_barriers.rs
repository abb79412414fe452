//! The decoder's barrier rule (paper 003 Fig. 3, BAR) on hand-built queues: what a GPU with
//! independent thread scheduling logs. On sm_70 and later `bar.sync` counts threads, and
//! the lanes of one warp may reach the same barrier in several groups (seen on an H100 with
//! `tests/race/shared_lock_warps_ok.cu`: lanes 1-31 waited at the barrier while lane 0 was
//! still in its lock loop). That is not divergence; a barrier that some live lanes of the
//! warp never reach is.

use weft_instrument::{
    decode_with_findings, queue_buffer, BarrierFinding, Site, SiteKind, QUEUE_HEADER, RECORD_BYTES,
};
use weft_simt::{AccessEvent, BranchEvent, TraceSink};

/// Counts barrier completions; ignores the rest.
#[derive(Default)]
struct Bars(u32);

impl TraceSink for Bars {
    fn access(&mut self, _: &AccessEvent) {}
    fn endi(&mut self, _: u64, _: u32, _: u32) {}
    fn branch(&mut self, _: BranchEvent, _: u64, _: u32) {}
    fn bar_arrive(&mut self, _: u64, _: u64, _: u32, _: u32, _: bool, _: u32) {}
    fn bar(&mut self, _: u64, _: u32, _: bool) {
        self.0 += 1;
    }
}

const BAR: u32 = 0;
const BAR2: u32 = 1;
const EXIT: u32 = 2;

fn sites() -> Vec<Site> {
    vec![
        Site {
            kind: SiteKind::Barrier { wait: true },
            pc: 10,
        },
        Site {
            kind: SiteKind::Barrier { wait: true },
            pc: 20,
        },
        Site {
            kind: SiteKind::Exit,
            pc: 30,
        },
    ]
}

/// A one-queue buffer holding `records` (global warp, site, active mask) in ticket order;
/// barriers are barrier 0 of the whole CTA.
fn queue(records: &[(u32, u32, u32)]) -> Vec<u8> {
    let mut q = queue_buffer(1, records.len() as u32);
    let base = QUEUE_HEADER;
    q[base..base + 4].copy_from_slice(&(records.len() as u32).to_le_bytes());
    for (i, &(warp, site, mask)) in records.iter().enumerate() {
        let o = base + QUEUE_HEADER + i * RECORD_BYTES;
        let put =
            |q: &mut Vec<u8>, at: usize, v: u32| q[at..at + 4].copy_from_slice(&v.to_le_bytes());
        put(&mut q, o, warp);
        put(&mut q, o + 4, site);
        put(&mut q, o + 8, mask);
        put(&mut q, o + 12, 0);
        put(&mut q, o + 16, i as u32 + 1);
    }
    q
}

fn run(records: &[(u32, u32, u32)], block_threads: u32) -> (Vec<BarrierFinding>, u32) {
    let mut findings = Vec::new();
    let mut sink = Bars::default();
    decode_with_findings(
        &queue(records),
        &sites(),
        block_threads,
        1,
        &mut sink,
        &mut findings,
    )
    .expect("decodes");
    (findings, sink.0)
}

const ALL: u32 = u32::MAX;

/// Lanes `reached` of warp 0 of CTA 0 waited at the barrier at `pc`; its other lanes did not.
fn partial(pc: u32, reached: u32) -> BarrierFinding {
    BarrierFinding::PartialWarp {
        pc,
        cta: 0,
        warp: 0,
        reached,
        missing: ALL & !reached,
    }
}

#[test]
fn lanes_of_one_warp_reaching_the_barrier_in_two_groups_are_one_arrival() {
    // Two warps; warp 0's lanes 1-31 wait first, warp 1 arrives, then lane 0 of warp 0.
    let (f, done) = run(
        &[
            (0, BAR, ALL & !1),
            (1, BAR, ALL),
            (0, BAR, 1),
            (0, EXIT, ALL),
            (1, EXIT, ALL),
        ],
        64,
    );
    assert_eq!(f, vec![]);
    assert_eq!(done, 1);
}

#[test]
fn a_barrier_some_lanes_never_reach_is_divergence() {
    // Lane 0 of warp 0 waits at the barrier at pc 10, lanes 1-31 wait at the one at pc 20
    // (the two sides of an `if` each with its own `__syncthreads()`).
    let (f, _) = run(
        &[
            (0, BAR, 1),
            (1, BAR, ALL),
            (0, BAR2, ALL & !1),
            (0, EXIT, ALL),
            (1, EXIT, ALL),
        ],
        64,
    );
    assert!(f.contains(&partial(10, 1)));
    assert!(f.contains(&partial(20, ALL & !1)));
    assert!(f
        .iter()
        .any(|x| matches!(x, BarrierFinding::DifferentInstructions { .. })));
}

#[test]
fn a_barrier_left_waiting_at_the_end_reports_its_partial_warp() {
    // Lanes 0-15 wait; lanes 16-31 exit: the barrier completes once they have exited (every
    // live thread arrived), and the finding is the exited threads.
    let (f, done) = run(&[(0, BAR, 0xffff), (0, EXIT, 0xffff_0000)], 32);
    assert_eq!(done, 1);
    assert_eq!(
        f,
        vec![BarrierFinding::ExitedThreads {
            pc: 10,
            cta: 0,
            id: 0,
            exited: 16,
        }]
    );
    // Two warps, warp 1 never arrives: the barrier never completes, and warp 0's lanes 1-31
    // never came either.
    let (f, done) = run(&[(0, BAR, 1), (1, EXIT, ALL)], 64);
    assert_eq!(done, 0);
    assert_eq!(f, vec![partial(10, 1)]);
}
