//! The single-thread stepper (`weft_simt::thread`) against the warp emulator: committed
//! kernels run thread by thread (each to its next barrier, then the next thread; memory
//! updated in that order, which is one legal interleaving of these race-free kernels) give
//! the same buffers as `weft_simt::run` and as a plain CPU reference.

use std::path::Path;

use weft_ir::kernel::Kernel;
use weft_simt::mem::Region;
use weft_simt::thread::{AccessKind, Stop, ThreadIds, ThreadProgram};
use weft_simt::{run, Arg, Buffer, ElemType, LaunchConfig, Options};

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

/// Runs every thread with the stepper, block by block, a thread at a time between
/// barriers; returns the global arena after the launch.
fn step_all(k: &Kernel, cfg: LaunchConfig, args: &[Arg], bufs: &[Buffer]) -> Vec<u8> {
    let p = ThreadProgram::new(k, cfg, args, bufs).unwrap();
    assert!(p.unsupported().is_empty());
    let mut global = p.global_init.clone();
    let bt = cfg.block_threads() as u32;
    for b in 0..cfg.grid_ctas() as u32 {
        let mut shared = vec![0u8; p.shared_bytes() as usize];
        let mut states: Vec<_> = (0..bt).map(|_| Some(p.start())).collect();
        while states.iter().any(Option::is_some) {
            for (t, slot) in states.iter_mut().enumerate() {
                let Some(st) = slot.as_mut() else { continue };
                let ids = ThreadIds {
                    cta: [b, 0, 0],
                    tid: t as u32,
                };
                loop {
                    match p.step(st, ids, 1 << 20) {
                        Stop::Access(a) => {
                            let m: &mut Vec<u8> = match a.region {
                                Region::Global => &mut global,
                                _ => &mut shared,
                            };
                            for (k, (off, v)) in a.elems.iter().enumerate() {
                                let old = weft_simt::mem::read(m, *off, a.width).unwrap();
                                match a.kind {
                                    AccessKind::Load => p.set_load(st, k, old),
                                    AccessKind::Store => {
                                        assert!(weft_simt::mem::write(m, *off, a.width, *v));
                                    }
                                    AccessKind::Atom { op, ty, a, b } => {
                                        if let Some(n) = ThreadProgram::atom_new(op, ty, old, a, b)
                                        {
                                            weft_simt::mem::write(m, *off, ty.bits as usize / 8, n);
                                        }
                                        p.set_atom(st, old);
                                    }
                                }
                            }
                            p.advance(st);
                        }
                        Stop::Fence => p.advance(st),
                        // The thread is at the loop head already.
                        Stop::BackEdge { .. } => {}
                        Stop::Barrier { .. } => {
                            // Every thread of the block reaches each barrier: go on with the
                            // next thread; this one resumes after the barrier.
                            p.advance(st);
                            break;
                        }
                        Stop::Exit => {
                            *slot = None;
                            break;
                        }
                        other => panic!("unexpected stop {other:?}"),
                    }
                }
            }
        }
    }
    global
}

#[test]
fn tree_reduction_thread_by_thread_equals_the_warp_emulator() {
    let k = kernel("tree_reduction");
    let input: Vec<i32> = (0..256).map(|i| (i * 37 % 201) - 100).collect();
    let cfg = LaunchConfig {
        grid: [2, 1, 1],
        block: [128, 1, 1],
    };
    let args = [Arg::Buffer(0), Arg::Buffer(1)];
    let bufs = vec![i32_buffer("in", &input), i32_buffer("out", &[0; 2])];
    let p = ThreadProgram::new(&k, cfg, &args, &bufs).unwrap();
    let out_off = p.buffer_offsets[1] as usize;
    let global = step_all(&k, cfg, &args, &bufs);
    let stepped: Vec<i32> = (0..2)
        .map(|i| {
            let o = out_off + 4 * i;
            i32::from_le_bytes(global[o..o + 4].try_into().unwrap())
        })
        .collect();
    let want: Vec<i32> = input.chunks(128).map(|c| c.iter().sum()).collect();
    assert_eq!(stepped, want);
    let emu = run(&k, cfg, &args, bufs, &Options::default(), None).unwrap();
    let emu_out: Vec<i32> = (0..2)
        .map(|i| emu.buffers[1].bits(i) as u32 as i32)
        .collect();
    assert_eq!(stepped, emu_out);
}
