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

/// Every fast binary form computes what the general `alu` lane function computes, through the
/// whole machine (a one-instruction kernel per operation).
#[test]
fn fast_binary_ops_match_alu() {
    use weft_ir::attrs::DataType;
    use weft_ir::code::Reg;
    use weft_ir::kernel::{KBinOp, KOp, Operand};
    let types = [
        DataType::S32,
        DataType::U32,
        DataType::B32,
        DataType::S64,
        DataType::U64,
    ];
    let ops = [
        KBinOp::Add,
        KBinOp::Sub,
        KBinOp::Mul,
        KBinOp::And,
        KBinOp::Or,
        KBinOp::Xor,
        KBinOp::Shl,
        KBinOp::Shr,
        KBinOp::MulWide,
        KBinOp::Min,
        KBinOp::Max,
    ];
    let vals: [u64; 6] = [0, 1, 5, 31, 0xffff_fff0, 0x8000_0000_0000_0001];
    for ty in types {
        for op in ops {
            let Some(f) = weft_simt::alu::binary(op, ty) else {
                continue;
            };
            for &x in &vals {
                for &y in &vals {
                    let (x, y) = (
                        weft_simt::alu::trunc(x, ty.bits),
                        weft_simt::alu::trunc(y, ty.bits),
                    );
                    let bits = if op == KBinOp::MulWide {
                        ty.bits * 2
                    } else {
                        ty.bits
                    };
                    let want = weft_simt::alu::trunc(f(x, y), bits);
                    let got = one_op(KOp::Binary {
                        op,
                        ty,
                        dst: Reg(1),
                        a: Operand::Imm(x),
                        b: Operand::Imm(y),
                    });
                    assert_eq!(got, want, "{op:?} {ty:?} {x:#x} {y:#x}");
                }
            }
        }
    }
}

/// Runs `op` (writing register 1) in one thread and returns register 1.
fn one_op(op: weft_ir::kernel::KOp) -> u64 {
    use weft_ir::attrs::{DataType, MemAttrs, MemSpace, TypeKind};
    use weft_ir::code::Reg;
    use weft_ir::kernel::{Addr, AddrBase, KInstr, KOp, KParam, KReg, Operand};
    let ins = |op| KInstr {
        guard: None,
        op,
        span: Default::default(),
        loc: None,
    };
    let u64t = DataType {
        kind: TypeKind::Unsigned,
        bits: 64,
    };
    let k = Kernel {
        name: "k".into(),
        params: vec![KParam {
            name: "p".into(),
            ty: u64t,
            size: 8,
            offset: 0,
        }],
        param_bytes: 8,
        regs: vec![
            KReg {
                name: "a".into(),
                ty: u64t,
            },
            KReg {
                name: "d".into(),
                ty: u64t,
            },
        ],
        code: vec![
            ins(KOp::Ld {
                attrs: MemAttrs {
                    space: Some(MemSpace::Param),
                    ..Default::default()
                },
                ty: u64t,
                dst: vec![Some(Reg(0))],
                addr: Addr {
                    base: AddrBase::Param(0),
                    offset: 0,
                },
            }),
            ins(op),
            ins(KOp::St {
                attrs: MemAttrs {
                    space: Some(MemSpace::Global),
                    ..Default::default()
                },
                ty: u64t,
                src: vec![Operand::Reg(Reg(1))],
                addr: Addr {
                    base: AddrBase::Reg(Reg(0)),
                    offset: 0,
                },
            }),
        ],
        ..Kernel::default()
    };
    let out = run(
        &k,
        cfg(1, 1),
        &[Arg::Buffer(0)],
        vec![Buffer::zeroed("o", ElemType::U64, 1)],
        &Options::default(),
        None,
    )
    .unwrap();
    out.buffers[0].bits(0)
}

/// Fast integer `setp` forms agree with the general comparison functions.
#[test]
fn fast_compare_ops_match_alu() {
    use weft_ir::attrs::DataType;
    use weft_ir::code::Reg;
    use weft_ir::kernel::{KCmp, KOp, Operand};
    let vals: [u64; 5] = [0, 1, 0x7fff_ffff, 0xffff_fff0, 0x8000_0000_0000_0001];
    for ty in [DataType::S32, DataType::U32, DataType::S64, DataType::U64] {
        for cmp in [KCmp::Eq, KCmp::Ne, KCmp::Lt, KCmp::Le, KCmp::Gt, KCmp::Ge] {
            let f = weft_simt::alu::compare(cmp, ty).unwrap();
            for &x in &vals {
                for &y in &vals {
                    let (x, y) = (
                        weft_simt::alu::trunc(x, ty.bits),
                        weft_simt::alu::trunc(y, ty.bits),
                    );
                    let got = one_op(KOp::Setp {
                        cmp,
                        ty,
                        dst: Reg(1),
                        dst2: None,
                        a: Operand::Imm(x),
                        b: Operand::Imm(y),
                        combine: None,
                    });
                    assert_eq!(got, u64::from(f(x, y)), "{cmp:?} {ty:?} {x:#x} {y:#x}");
                }
            }
        }
    }
}
