//! The detector fed a warp instruction at a time (`TraceSink::access_warp` from the
//! emulator's per-warp memory path, `access_batch` from its lane-by-lane path) against the
//! same detector fed one lane access at a time through `TraceSink::access`, the
//! specification of the batched entry points: on every kernel below, under both race
//! definitions, round-robin and a seeded schedule, the races found (kind, class, space,
//! both sides' instructions and threads, address, trace event number, count) and the
//! numbers of events and checked accesses are equal. The kernels are the race-free
//! committed ones of `tests/kernels` and hand-written PTX whose races come from lanes of
//! one warp, warps of one CTA and CTAs, after concurrent reads of one word.

use std::path::Path;

use weft_ir::kernel::Kernel;
use weft_race::clocks::{Compressed, Geometry};
use weft_race::detector::{Definition, Detector};
use weft_race::{Class, Race, RaceKind};
use weft_simt::decode::TraceKind;
use weft_simt::{
    run_with_sink, AccessEvent, AccessOp, AccessSpace, Arg, BranchEvent, Buffer, ElemType,
    LaunchConfig, Options, Schedule, TraceSink, WarpAccess,
};

/// Forwards every event to the detector, lane accesses one at a time (the trait's default
/// `access_batch` and `access_warp`).
struct PerLane<'d>(&'d mut Detector<Compressed>);

impl TraceSink for PerLane<'_> {
    fn access(&mut self, ev: &AccessEvent) {
        self.0.access(ev);
    }
    fn endi(&mut self, warp: u64, mask: u32, pc: u32) {
        self.0.endi(warp, mask, pc);
    }
    fn branch(&mut self, ev: BranchEvent, warp: u64, mask: u32) {
        self.0.branch(ev, warp, mask);
    }
    fn bar_arrive(&mut self, cta: u64, warp: u64, mask: u32, id: u32, wait: bool, pc: u32) {
        self.0.bar_arrive(cta, warp, mask, id, wait, pc);
    }
    fn bar(&mut self, cta: u64, id: u32, all: bool) {
        self.0.bar(cta, id, all);
    }
}

fn parse(text: &str) -> Kernel {
    let m = weft_ptx::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    weft_ptx::lower_kernel(&m, None).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// (races, events, accesses) of one run, batched or lane by lane.
fn run(
    k: &Kernel,
    cfg: LaunchConfig,
    args: &[Arg],
    bufs: &[Buffer],
    def: Definition,
    schedule: Schedule,
    per_lane: bool,
) -> (Vec<Race>, u64, u64) {
    let geo = Geometry {
        block_threads: cfg.block_threads() as u32,
        ctas: cfg.grid_ctas() as u32,
    };
    let opts = Options {
        jobs: 1,
        schedule,
        quantum: 3,
        max_resident_ctas: 2,
        ..Options::default()
    };
    let mut det: Detector<Compressed> = Detector::new(k, geo, def);
    let out = if per_lane {
        let mut p = PerLane(&mut det);
        run_with_sink(k, cfg, args, bufs.to_vec(), &opts, None, Some(&mut p))
    } else {
        run_with_sink(k, cfg, args, bufs.to_vec(), &opts, None, Some(&mut det))
    };
    out.expect("the launch runs");
    let (events, accesses) = (det.events, det.accesses);
    (det.finish().races, events, accesses)
}

/// Checks one launch; returns the number of races found.
fn same_both_ways(
    name: &str,
    k: &Kernel,
    cfg: LaunchConfig,
    args: &[Arg],
    bufs: &[Buffer],
) -> usize {
    let mut found = 0;
    for def in [Definition::Barracuda, Definition::Scoped] {
        for schedule in [Schedule::RoundRobin, Schedule::Random(7)] {
            let warp = run(k, cfg, args, bufs, def, schedule, false);
            let lane = run(k, cfg, args, bufs, def, schedule, true);
            assert!(lane.2 > 0, "{name}: accesses were checked");
            assert_eq!(warp, lane, "{name}, {def:?}, {schedule:?}");
            found += lane.0.len();
        }
    }
    found
}

fn kernel_file(name: &str) -> Kernel {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/kernels")
        .join(name)
        .join("kernel.ptx");
    parse(&std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
}

fn ints(name: &str, n: usize, f: impl Fn(usize) -> u64) -> Buffer {
    let mut b = Buffer::zeroed(name, ElemType::I32, n);
    for i in 0..n {
        b.set_bits(i, f(i));
    }
    b
}

#[test]
fn race_free_kernels_give_the_same_checks() {
    let two = [Arg::Buffer(0), Arg::Buffer(1)];
    let scan = kernel_file("inclusive_scan");
    let cfg = LaunchConfig {
        grid: [2, 1, 1],
        block: [256, 1, 1],
    };
    let bufs = [ints("in", 512, |i| i as u64 % 7), ints("out", 512, |_| 0)];
    assert_eq!(same_both_ways("inclusive_scan", &scan, cfg, &two, &bufs), 0);
    let tree = kernel_file("tree_reduction");
    let cfg = LaunchConfig {
        grid: [4, 1, 1],
        block: [128, 1, 1],
    };
    let bufs = [ints("in", 512, |i| i as u64), ints("out", 4, |_| 0)];
    assert_eq!(same_both_ways("tree_reduction", &tree, cfg, &two, &bufs), 0);
    let warp = kernel_file("warp_reduction");
    let cfg = LaunchConfig {
        grid: [8, 1, 1],
        block: [32, 1, 1],
    };
    let bufs = [ints("in", 256, |i| i as u64), ints("out", 8, |_| 0)];
    assert_eq!(same_both_ways("warp_reduction", &warp, cfg, &two, &bufs), 0);
}

const HEAD: &str = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<9>;\n.reg .b64 %rd<9>;\n.reg .pred %p<3>;\nld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n";

/// Threads read word `t % 16` (concurrent reads of one word by lanes, warps and CTAs),
/// write their own word, then threads below 40 write word `t % 16` (different values in
/// one warp instruction; against the other warps' and CTAs' reads), and every thread
/// writes 7 to word `128 + t % 2` (the same value within a warp, from every warp and CTA);
/// last, each thread reads word `192 + t` and writes word `192 + (t ^ 32)`, which one
/// thread of another warp read (a single reader).
const RACY: &str = "and.b32 %r2, %r1, 15;
mul.wide.u32 %rd3, %r2, 4;
add.s64 %rd4, %rd2, %rd3;
ld.global.u32 %r3, [%rd4];
mul.wide.u32 %rd5, %r1, 4;
add.s64 %rd6, %rd2, %rd5;
st.global.u32 [%rd6+256], %r3;
setp.lt.u32 %p1, %r1, 40;
@%p1 st.global.u32 [%rd4], %r1;
and.b32 %r5, %r1, 1;
mul.wide.u32 %rd7, %r5, 4;
add.s64 %rd8, %rd2, %rd7;
st.global.u32 [%rd8+512], 7;
ld.global.u32 %r6, [%rd8+512];
xor.b32 %r7, %r1, 32;
mul.wide.u32 %rd3, %r7, 4;
add.s64 %rd4, %rd2, %rd3;
ld.global.u32 %r3, [%rd6+768];
st.global.u32 [%rd4+768], %r1;
ret;
}
";

#[test]
fn racy_warps_give_the_same_races() {
    let k = parse(&format!("{HEAD}{RACY}"));
    let bufs = [ints("buf", 256, |_| 0)];
    let mut total = 0;
    for (grid, block) in [(1, 32), (1, 64), (2, 64), (3, 48)] {
        let cfg = LaunchConfig {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
        };
        total += same_both_ways("racy", &k, cfg, &[Arg::Buffer(0)], &bufs);
    }
    assert!(total > 0, "the racy kernel shows races");
}

/// One warp instruction of a hand-made trace: every lane of warp `warp` (64 threads, one
/// CTA) accesses the word `at(lane)`, then the instruction ends.
fn feed(
    det: &mut Detector<Compressed>,
    per_lane: bool,
    warp: u64,
    pc: u32,
    store: bool,
    at: impl Fn(usize) -> u64,
) {
    let addrs: [u64; 32] = std::array::from_fn(&at);
    let values: [u64; 32] = std::array::from_fn(|l| l as u64);
    let a = WarpAccess {
        warp,
        tid0: warp * 32,
        pc,
        op: if store {
            AccessOp::Store
        } else {
            AccessOp::Load
        },
        kind: if store { TraceKind::Wr } else { TraceKind::Rd },
        space: AccessSpace::Global,
        width: 4,
        mask: u32::MAX,
        addrs: &addrs,
        values: &values,
    };
    if per_lane {
        for l in 0..32 {
            det.access(&a.event(l));
        }
    } else {
        det.access_warp(&a);
    }
    det.endi(warp, u32::MAX, pc);
}

/// The read and write rules on a trace written by hand, both ways of feeding it: lanes 0
/// and 1 of warp 0 read word A (two concurrent readers: the read epoch inflates into a set
/// holding both), lane 2 reads word B (a single reader); then warp 1 writes A from lane 0
/// (instruction 1) and B from lane 1 (instruction 2), unsynchronised. Paper 003 Fig. 2: two
/// read-write races, each reported against the concurrent reader with the smallest thread
/// index (thread 0 for A, the reader recorded before the inflation; thread 2 for B, the
/// single reader), once each, at the write's trace event (each instruction is 32 lane
/// events and an `endi`: warp 0's are events 0-32, instruction 1's lane 0 is event 33,
/// instruction 2's lane 1 is event 66 + 1 = 67).
#[test]
fn hand_fed_reads_then_writes_race_as_the_rules_say() {
    const A: u64 = 0x1000;
    const B: u64 = 0x2000;
    let geo = Geometry {
        block_threads: 64,
        ctas: 1,
    };
    for per_lane in [false, true] {
        let mut det: Detector<Compressed> =
            Detector::with_info(Vec::new(), geo, Definition::Barracuda);
        let fresh = |base: u64| move |l: usize| base + 4 * l as u64;
        feed(&mut det, per_lane, 0, 0, false, |l| match l {
            0 | 1 => A,
            2 => B,
            _ => fresh(0x3000)(l),
        });
        feed(&mut det, per_lane, 1, 1, true, |l| {
            if l == 0 {
                A
            } else {
                fresh(0x4000)(l)
            }
        });
        feed(&mut det, per_lane, 1, 2, true, |l| {
            if l == 1 {
                B
            } else {
                fresh(0x5000)(l)
            }
        });
        let got: Vec<_> = det
            .finish()
            .races
            .iter()
            .map(|r| {
                (
                    r.kind,
                    r.class,
                    r.space,
                    (r.first.pc, r.first.thread, r.first.access),
                    (r.second.pc, r.second.thread, r.second.access),
                    r.address,
                    r.event,
                    r.count,
                )
            })
            .collect();
        let want = vec![
            (
                RaceKind::ReadWrite,
                Class::IntraBlock,
                "global",
                (0, 0, "read"),
                (1, 32, "write"),
                A,
                33,
                1,
            ),
            (
                RaceKind::ReadWrite,
                Class::IntraBlock,
                "global",
                (0, 2, "read"),
                (2, 33, "write"),
                B,
                67,
                1,
            ),
        ];
        assert_eq!(got, want, "per lane: {per_lane}");
    }
}
