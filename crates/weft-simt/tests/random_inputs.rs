//! Property tests: for random inputs and random schedules, the emulated results of the
//! committed kernels in `tests/kernels/` equal a plain CPU reference. Case counts are small to
//! keep CI fast on two cores.

use std::path::Path;

use proptest::prelude::*;
use weft_ir::kernel::Kernel;
use weft_simt::{run, Arg, Buffer, ElemType, LaunchConfig, Options, Schedule};

fn kernel(name: &str) -> Kernel {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../tests/kernels/{name}/kernel.ptx"));
    let text = std::fs::read_to_string(&p).unwrap();
    let m = weft_ptx::parse(&text).unwrap();
    weft_ptx::lower_kernel(&m, None).unwrap()
}

fn i32_buffer(name: &str, v: &[i32]) -> Buffer {
    let mut b = Buffer::zeroed(name, ElemType::I32, v.len());
    for (i, x) in v.iter().enumerate() {
        b.set_bits(i, *x as u32 as u64);
    }
    b
}

fn i32s(b: &Buffer) -> Vec<i32> {
    (0..b.len()).map(|i| b.bits(i) as u32 as i32).collect()
}

fn opts(seed: u64) -> Options {
    Options {
        schedule: Schedule::Random(seed),
        max_resident_ctas: 3,
        quantum: 8,
        ..Options::default()
    }
}

fn cfg(grid: u32, block: u32) -> LaunchConfig {
    LaunchConfig {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn tree_reduction_sums_each_block(input in prop::collection::vec(-1000i32..1000, 512), seed in any::<u64>()) {
        let k = kernel("tree_reduction");
        let out = run(&k, cfg(4, 128), &[Arg::Buffer(0), Arg::Buffer(1)],
            vec![i32_buffer("in", &input), i32_buffer("out", &[0; 4])], &opts(seed), None).unwrap();
        prop_assert!(out.findings.is_empty() && out.completed);
        let want: Vec<i32> = input.chunks(128).map(|c| c.iter().sum()).collect();
        prop_assert_eq!(i32s(&out.buffers[1]), want);
    }

    #[test]
    fn inclusive_scan_matches_prefix_sums(input in prop::collection::vec(-100i32..100, 512), seed in any::<u64>()) {
        let k = kernel("inclusive_scan");
        let out = run(&k, cfg(2, 256), &[Arg::Buffer(0), Arg::Buffer(1)],
            vec![i32_buffer("in", &input), i32_buffer("out", &[0; 512])], &opts(seed), None).unwrap();
        prop_assert!(out.findings.is_empty() && out.completed);
        let mut want = Vec::new();
        for c in input.chunks(256) {
            let mut acc = 0;
            for x in c {
                acc += x;
                want.push(acc);
            }
        }
        prop_assert_eq!(i32s(&out.buffers[1]), want);
    }

    #[test]
    fn histogram_counts_bins(input in prop::collection::vec(0i32..10_000, 1..1500), seed in any::<u64>()) {
        let k = kernel("histogram");
        let n = input.len() as u64;
        let out = run(&k, cfg(8, 128), &[Arg::Buffer(0), Arg::Buffer(1), Arg::Scalar(n)],
            vec![i32_buffer("in", &input), i32_buffer("hist", &[0; 16])], &opts(seed), None).unwrap();
        prop_assert!(out.findings.is_empty() && out.completed);
        let mut want = vec![0i32; 16];
        for x in &input {
            want[*x as usize % 16] += 1;
        }
        prop_assert_eq!(i32s(&out.buffers[1]), want);
    }

    #[test]
    fn lock_dot_product_is_exact(a in prop::collection::vec(-50i32..50, 1..700), seed in any::<u64>()) {
        let k = kernel("lock_dot_fenced");
        let b: Vec<i32> = a.iter().map(|x| x * 3 - 7).collect();
        let n = a.len() as u64;
        let out = run(&k, cfg(8, 64),
            &[Arg::Buffer(0), Arg::Buffer(1), Arg::Buffer(2), Arg::Buffer(3), Arg::Scalar(n)],
            vec![i32_buffer("a", &a), i32_buffer("b", &b), i32_buffer("c", &[0]), i32_buffer("mutex", &[0])],
            &opts(seed), None).unwrap();
        prop_assert!(out.findings.is_empty() && out.completed);
        let want: i32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        prop_assert_eq!(i32s(&out.buffers[2]), vec![want]);
    }
}

/// The trace is streamed in the paper 003 §3.1 vocabulary; every memory warp-instruction's
/// per-thread operations are followed by `endi` of its warp.
#[test]
fn trace_is_well_formed() {
    let k = kernel("tree_reduction");
    let input: Vec<i32> = (0..512).collect();
    let mut trace = Vec::new();
    let out = run(
        &k,
        cfg(4, 128),
        &[Arg::Buffer(0), Arg::Buffer(1)],
        vec![i32_buffer("in", &input), i32_buffer("out", &[0; 4])],
        &Options::default(),
        Some(&mut trace),
    )
    .unwrap();
    assert!(out.completed);
    let text = String::from_utf8(trace).unwrap();
    let mut pending = 0;
    let mut ifs = 0i64;
    for line in text.lines() {
        let op = line.split(' ').next().unwrap();
        match op {
            "rd" | "wr" | "atm" => pending += 1,
            "endi" => {
                assert!(pending > 0, "endi without operations");
                pending = 0;
            }
            "if" => ifs += 1,
            "fi" => ifs -= 1,
            "else" | "bar" => {}
            _ => panic!("unexpected trace operation `{line}`"),
        }
        assert!(
            op == "endi" || pending == 0 || matches!(op, "rd" | "wr" | "atm"),
            "operations of one warp instruction interleaved: {line}"
        );
    }
    assert_eq!(ifs, 0, "every if has its fi");
    // 4 CTAs x log2(128)+1 barriers.
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bar ")).count(),
        4 * 8
    );
}
