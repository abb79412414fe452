//! The launches of scripts/bench-simt.sh's kernels that the emulator's bench examples share
//! (`weft-simt`'s `jobs`, `weft-race`'s `overhead`, which includes this file by path): tree
//! reduction (128 threads a CTA), inclusive scan and vector add (256), `n` threads each,
//! with their argument lists and input buffers.

#![allow(dead_code)]

use std::path::Path;

use weft_ir::kernel::Kernel;
use weft_simt::{Arg, Buffer, ElemType, LaunchConfig};

/// One kernel launch to time.
pub struct Bench {
    pub name: &'static str,
    pub kernel: Kernel,
    pub cfg: LaunchConfig,
    pub args: Vec<Arg>,
    pub buffers: Vec<Buffer>,
}

/// The kernel of a PTX file (panics on a file that does not parse or lower: a bench
/// example's input is fixed).
pub fn kernel(path: &Path) -> Kernel {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let m = weft_ptx::parse(&text).expect("PTX parses");
    weft_ptx::lower_kernel(&m, None).expect("PTX lowers")
}

/// A buffer of `n` elements, element `i` holding the bits `f(i)`.
pub fn buf(name: &str, ty: ElemType, n: usize, f: impl Fn(usize) -> u64) -> Buffer {
    let mut b = Buffer::zeroed(name, ty, n);
    for i in 0..n {
        b.set_bits(i, f(i));
    }
    b
}

/// Tree reduction and inclusive scan of tests/kernels at `n` threads, and vector add when
/// its PTX is given (`vadd`), one CTA per 128 or 256 threads.
pub fn benches(n: usize, vadd: Option<&Path>) -> Vec<Bench> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels");
    let g = |block: usize| [(n / block) as u32, 1, 1];
    let mut benches = vec![
        Bench {
            name: "tree_reduction",
            kernel: kernel(&root.join("tree_reduction/kernel.ptx")),
            cfg: LaunchConfig {
                grid: g(128),
                block: [128, 1, 1],
            },
            args: vec![Arg::Buffer(0), Arg::Buffer(1)],
            buffers: vec![
                buf("in", ElemType::I32, n, |i| i as u64),
                buf("out", ElemType::I32, n / 128, |_| 0),
            ],
        },
        Bench {
            name: "inclusive_scan",
            kernel: kernel(&root.join("inclusive_scan/kernel.ptx")),
            cfg: LaunchConfig {
                grid: g(256),
                block: [256, 1, 1],
            },
            args: vec![Arg::Buffer(0), Arg::Buffer(1)],
            buffers: vec![
                buf("in", ElemType::I32, n, |_| 1),
                buf("out", ElemType::I32, n, |_| 0),
            ],
        },
    ];
    if let Some(p) = vadd {
        benches.push(Bench {
            name: "vector_add",
            kernel: kernel(p),
            cfg: LaunchConfig {
                grid: g(256),
                block: [256, 1, 1],
            },
            args: vec![
                Arg::Buffer(0),
                Arg::Buffer(1),
                Arg::Buffer(2),
                Arg::Scalar(n as u64),
            ],
            buffers: vec![
                buf("a", ElemType::F32, n, |i| u64::from((i as f32).to_bits())),
                buf("b", ElemType::F32, n, |_| u64::from(1f32.to_bits())),
                buf("c", ElemType::F32, n, |_| 0),
            ],
        });
    }
    benches
}
