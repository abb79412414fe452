//! One path's lanes logged in several groups (independent thread scheduling, sm_70 and
//! later) on hand-built queues: the decoder merges them back into one instruction per site
//! before the race checks, and still reports a branch-ordering race between two paths
//! (paper 003 §3.3.1).
//!
//! The queues model `tests/race/branch_order_ww.cu` (one warp of 32 lanes) as the emulator
//! logs it and as an H100 did (docs/gpu-runs.md, "3 branch kernels"):
//!
//! ```text
//! pc  9  branch: taken lanes 1-31 (in[t] != 0), lane 0 not taken; reconverges at pc 20
//! pc 12  st.global out[2] = 20     (lanes 1-31)    source line 10
//! pc 14  st.shared s[0] = 2        (lanes 1-31)    source line 11, @B
//! pc 17  st.shared s[0] = 1        (lane 0)        source line 7,  @A
//! pc 19  st.global out[1] = 10     (lane 0)        source line 8
//! pc 20  reconvergence point
//! pc 25  exit
//! ```
//!
//! The H100 logged lanes 1-31 as two groups (1-15, 16-31) with lane 0's path between them;
//! replayed in ticket order, lanes 16-31 ran after the decoder had switched to lane 0's
//! path, and the detector reported pc 12 against pc 12 and pc 14 against pc 14 (the same
//! store by one path, "branch-ordering 10-10; 11-11" in `gpu-runs/race-suite-h100-run2.md`)
//! besides the labelled race pc 14 / pc 17.

use weft_instrument::{
    decode, queue_buffer, Site, SiteKind, SpaceHint, QUEUE_HEADER, RECORD_BYTES,
};
use weft_ir::kernel::Kernel;
use weft_race::{Compressed, Definition, Detector, Geometry};
use weft_simt::{AccessEvent, AccessOp, BranchEvent, TraceSink};

const BRANCH: u32 = 0;
const OUT2: u32 = 1;
const S0_B: u32 = 2;
const S0_A: u32 = 3;
const OUT1: u32 = 4;
const RECONV: u32 = 5;
const EXIT: u32 = 6;
const ATOM: u32 = 7;

const OUT: u64 = 0x1000;
const ALL: u32 = u32::MAX;
const LANE0: u32 = 1;
const LOW: u32 = 0x0000_fffe;
const HIGH: u32 = 0xffff_0000;

fn store(space: SpaceHint, pc: u32) -> Site {
    Site {
        kind: SiteKind::Access {
            op: AccessOp::Store,
            space,
            width: 4,
            elem: 0,
            elems: 1,
            sync: false,
        },
        pc,
    }
}

fn sites() -> Vec<Site> {
    vec![
        Site {
            kind: SiteKind::Branch { rpc: 20 },
            pc: 9,
        },
        store(SpaceHint::Global, 12),
        store(SpaceHint::Shared, 14),
        store(SpaceHint::Shared, 17),
        store(SpaceHint::Global, 19),
        Site {
            kind: SiteKind::Reconv,
            pc: 20,
        },
        Site {
            kind: SiteKind::Exit,
            pc: 25,
        },
        Site {
            kind: SiteKind::Access {
                op: AccessOp::Atomic(weft_ir::attrs::RmwOp::Add),
                space: SpaceHint::Global,
                width: 4,
                elem: 0,
                elems: 1,
                sync: false,
            },
            pc: 13,
        },
    ]
}

/// (site, active mask, aux, address, value stored): the same address and value for every
/// lane of the record.
type R = (u32, u32, u32, u64, u64);

fn rec(site: u32, mask: u32) -> R {
    match site {
        BRANCH => (site, mask, ALL & !LANE0, 0, 0),
        OUT2 => (site, mask, 0, OUT + 8, 20),
        S0_B => (site, mask, 0, 0, 2),
        S0_A => (site, mask, 0, 0, 1),
        OUT1 => (site, mask, 0, OUT + 4, 10),
        ATOM => (site, mask, 0, OUT + 12, 0),
        _ => (site, mask, 0, 0, 0),
    }
}

/// A one-queue buffer holding warp 0's `records` in ticket order.
fn queue(records: &[R]) -> Vec<u8> {
    let mut q = queue_buffer(1, records.len() as u32);
    let base = QUEUE_HEADER;
    q[base..base + 4].copy_from_slice(&(records.len() as u32).to_le_bytes());
    for (i, &(site, mask, aux, addr, value)) in records.iter().enumerate() {
        let o = base + QUEUE_HEADER + i * RECORD_BYTES;
        let put =
            |q: &mut Vec<u8>, at: usize, v: u32| q[at..at + 4].copy_from_slice(&v.to_le_bytes());
        put(&mut q, o, 0);
        put(&mut q, o + 4, site);
        put(&mut q, o + 8, mask);
        put(&mut q, o + 12, aux);
        put(&mut q, o + 16, i as u32 + 1);
        for l in 0..32 {
            let a = o + 32 + 8 * l;
            q[a..a + 8].copy_from_slice(&addr.to_le_bytes());
            let v = o + 32 + 256 + 8 * l;
            q[v..v + 8].copy_from_slice(&value.to_le_bytes());
        }
    }
    q
}

/// The warp's events, an access as (thread, pc).
#[derive(Debug, PartialEq, Eq)]
enum Ev {
    Access(u64, u32),
    Endi(u32, u32),
    Branch(&'static str, u32),
}

#[derive(Default)]
struct Events(Vec<Ev>);

impl TraceSink for Events {
    fn access(&mut self, e: &AccessEvent) {
        self.0.push(Ev::Access(e.tid, e.pc));
    }
    fn endi(&mut self, _: u64, mask: u32, pc: u32) {
        self.0.push(Ev::Endi(mask, pc));
    }
    fn branch(&mut self, ev: BranchEvent, _: u64, mask: u32) {
        let k = match ev {
            BranchEvent::If => "if",
            BranchEvent::Else => "else",
            BranchEvent::Fi => "fi",
        };
        self.0.push(Ev::Branch(k, mask));
    }
    fn bar_arrive(&mut self, _: u64, _: u64, _: u32, _: u32, _: bool, _: u32) {}
    fn bar(&mut self, _: u64, _: u32, _: bool) {}
}

fn events(records: &[R]) -> Vec<Ev> {
    let mut sink = Events::default();
    decode(&queue(records), &sites(), 32, 1, &mut sink).expect("decodes");
    sink.0
}

/// The races BARRACUDA's analysis reports on the decoded trace: (kind, pc, pc), pcs sorted.
fn races(records: &[R]) -> Vec<(String, u32, u32)> {
    let geo = Geometry {
        block_threads: 32,
        ctas: 1,
    };
    let mut d: Detector<Compressed> = Detector::new(&Kernel::default(), geo, Definition::Barracuda);
    decode(&queue(records), &sites(), 32, 1, &mut d).expect("decodes");
    let mut r = d.finish();
    r.resolve(|pc| format!("pc:{pc}"));
    let pc = |s: &str| {
        s.rsplit(':')
            .next()
            .and_then(|x| x.parse().ok())
            .unwrap_or(0)
    };
    let mut v: Vec<(String, u32, u32)> = r
        .by_lines()
        .iter()
        .map(|x| {
            let (a, b) = (pc(&x.first.line), pc(&x.second.line));
            (x.kind.name().to_string(), a.min(b), a.max(b))
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The trace as the emulator logs it: each path by one group, lanes 1-31 first.
fn unsplit() -> Vec<R> {
    vec![
        rec(BRANCH, ALL),
        rec(OUT2, ALL & !LANE0),
        rec(S0_B, ALL & !LANE0),
        rec(S0_A, LANE0),
        rec(OUT1, LANE0),
        rec(RECONV, ALL),
        rec(EXIT, ALL),
    ]
}

/// What the H100 logged: lanes 1-15, then lane 0's path, then lanes 16-31; the
/// reconvergence point reached by lanes 1-15 first, then by the rest.
fn split() -> Vec<R> {
    vec![
        rec(BRANCH, ALL),
        rec(OUT2, LOW),
        rec(S0_B, LOW),
        rec(RECONV, LOW),
        rec(S0_A, LANE0),
        rec(OUT1, LANE0),
        rec(OUT2, HIGH),
        rec(S0_B, HIGH),
        rec(RECONV, HIGH | LANE0),
        rec(EXIT, ALL),
    ]
}

/// The emulator's events for [`unsplit`], written out: `if` for the taken lanes 1-31, their
/// two stores (31 accesses each, one `endi` each), `else` for lane 0 and its two stores,
/// `fi` for the whole warp.
fn expected_events() -> Vec<Ev> {
    let mut v = vec![Ev::Branch("if", ALL & !LANE0)];
    for pc in [12, 14] {
        v.extend((1..32).map(|t| Ev::Access(t, pc)));
        v.push(Ev::Endi(ALL & !LANE0, pc));
    }
    v.push(Ev::Branch("else", LANE0));
    for pc in [17, 19] {
        v.push(Ev::Access(0, pc));
        v.push(Ev::Endi(LANE0, pc));
    }
    v.push(Ev::Branch("fi", ALL));
    v
}

#[test]
fn the_unsplit_trace_decodes_as_the_emulator_runs_it() {
    assert_eq!(events(&unsplit()), expected_events());
}

#[test]
fn one_path_logged_in_two_groups_is_one_instruction_per_site() {
    // Lanes 1-15 and 16-31 of the taken path merge into one record per site (pc 12, pc 14),
    // before `else` (lane 0's path); the two partial reconvergence records into one `fi`.
    assert_eq!(events(&split()), expected_events());
}

#[test]
fn the_split_path_has_no_race_with_itself_and_the_two_paths_still_race() {
    // Hand-derived (paper 003 §3.3.1): the two paths of the branch are concurrent until
    // the reconvergence point, and both write s[0] (pc 14, value 2; pc 17, value 1): one
    // branch-ordering race. out[2] (pc 12) is written by lanes 1-31 in one instruction with
    // one value (no race); out[1] (pc 19) by lane 0 alone. The split trace must give the
    // same single race as the unsplit one — before the merge it also gave pc 12/pc 12 and
    // pc 14/pc 14.
    let want = vec![("branch-ordering".to_string(), 14, 17)];
    assert_eq!(races(&unsplit()), want);
    assert_eq!(races(&split()), want);
}

#[test]
fn groups_of_a_path_that_write_different_values_race_within_the_instruction() {
    // Lanes 1-15 store 2 to s[0], lanes 16-31 store 3 to it at the same instruction (pc 14),
    // logged as two groups around lane 0's path. Merged, the instruction has lanes writing
    // different values to one location: a race within one warp instruction (§3.3.1), which
    // the detector reports as a write-write race at pc 14 against itself (not
    // branch-ordering: same instruction). Lane 0's path still races with pc 14 (branch
    // ordering).
    let mut recs = split();
    recs[7].4 = 3;
    let got = races(&recs);
    assert!(
        got.contains(&("branch-ordering".to_string(), 14, 17)),
        "{got:?}"
    );
    assert!(
        got.iter()
            .any(|(k, a, b)| *a == 14 && *b == 14 && k != "branch-ordering"),
        "{got:?}"
    );
}

#[test]
fn a_synchronising_record_is_not_held_behind_a_split() {
    // An atomic of lanes 16-31 (pc 13) between the groups: the decoder replays what it held
    // (lanes 1-15's stores, lane 0's path) in ticket order before the atomic, as it did
    // before merging; nothing is reordered across it.
    let recs = vec![
        rec(BRANCH, ALL),
        rec(OUT2, LOW),
        rec(S0_A, LANE0),
        rec(ATOM, HIGH),
        rec(RECONV, ALL),
        rec(EXIT, ALL),
    ];
    let mut want = vec![Ev::Branch("if", ALL & !LANE0)];
    want.extend((1..16).map(|t| Ev::Access(t, 12)));
    want.push(Ev::Endi(LOW, 12));
    want.push(Ev::Branch("else", LANE0));
    want.push(Ev::Access(0, 17));
    want.push(Ev::Endi(LANE0, 17));
    want.extend((16..32).map(|t| Ev::Access(t, 13)));
    want.push(Ev::Endi(HIGH, 13));
    want.push(Ev::Branch("fi", ALL));
    assert_eq!(events(&recs), want);
}

#[test]
fn records_of_different_sites_are_not_merged() {
    // Lanes 1-15 store at pc 12, lanes 16-31 at pc 14 only (different instructions, e.g. a
    // predicated store each): two records, in ticket order, nothing merged.
    let recs = vec![
        rec(BRANCH, ALL),
        rec(OUT2, LOW),
        rec(S0_B, HIGH),
        rec(S0_A, LANE0),
        rec(RECONV, ALL),
        rec(EXIT, ALL),
    ];
    let mut want = vec![Ev::Branch("if", ALL & !LANE0)];
    want.extend((1..16).map(|t| Ev::Access(t, 12)));
    want.push(Ev::Endi(LOW, 12));
    want.extend((16..32).map(|t| Ev::Access(t, 14)));
    want.push(Ev::Endi(HIGH, 14));
    want.push(Ev::Branch("else", LANE0));
    want.push(Ev::Access(0, 17));
    want.push(Ev::Endi(LANE0, 17));
    want.push(Ev::Branch("fi", ALL));
    assert_eq!(events(&recs), want);
}
