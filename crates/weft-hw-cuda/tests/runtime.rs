//! The host side of a run, on the CPU: the role assignment honours the scope tree with and
//! without thread randomisation (paper 000 §4.2, §4.3.3), bank-conflict shadows stay in
//! testing warps (§4.3.2), result buffers decode into outcomes (synthetic buffers written
//! here by hand), the checksum is enforced, and opening a device without a driver is a
//! clear error rather than a panic.

use std::collections::{BTreeMap, HashSet};

use weft_hw_cuda::layout::{self, ROLE_NONE, ROLE_SHADOW};
use weft_hw_cuda::{generate, CudaError, CudaParams, CudaRunner};
use weft_litmus::classify::address_value;

/// Four threads: T0 and T1 share a warp, T2 is another warp of their CTA, T3 is alone in
/// another CTA. `x` is shared (used only in CTA 0), `y` global.
const TREE: &str = r#"GPU_PTX tree
{
x=0;
y=0;
0:.reg .s32 r0;
1:.reg .s32 r0;
2:.reg .s32 r0;
3:.reg .s32 r0;
}
 T0              | T1               | T2               | T3               ;
 st.cg.s32 [x],1 | ld.cg.s32 r0,[x] | ld.cg.s32 r0,[y] | st.cg.s32 [y],2  ;
ScopeTree(grid(cta(warp T0 T1) (warp T2)) (cta(warp T3)))
x: shared, y: global
exists (1:r0=0)
"#;

fn params(random: bool, banks: bool) -> CudaParams {
    CudaParams {
        instances_per_launch: 500,
        iterations: 1,
        threads_per_block: 64,
        thread_randomisation: random,
        bank_conflicts: banks,
        ..CudaParams::default()
    }
}

#[test]
fn assignment_honours_the_scope_tree() {
    let p = weft_litmus::parse(TREE).unwrap();
    for (random, banks) in [(false, false), (true, false), (true, true), (false, true)] {
        let prm = params(random, banks);
        let g = generate(&p, &prm).unwrap();
        for seed in 0..3 {
            let a = layout::assign(&g.layout, &prm, seed).unwrap();
            let tpb = prm.threads_per_block;
            assert_eq!(a.roles.len(), (a.blocks * tpb) as usize);
            let mut seen = HashSet::new();
            for (i, ts) in a.placement.iter().enumerate() {
                for (t, gid) in ts.iter().enumerate() {
                    assert!(seen.insert(*gid), "thread {gid} plays two roles");
                    assert_eq!(a.roles[*gid as usize], (i * 4 + t) as u32);
                }
                let block = |t: usize| ts[t] / tpb;
                let warp = |t: usize| ts[t] / 32;
                assert_eq!(block(0), block(1));
                assert_eq!(block(0), block(2));
                assert_ne!(block(0), block(3), "different CTAs in different blocks");
                assert_eq!(warp(0), warp(1), "same warp");
                assert_ne!(warp(0), warp(2), "different warps");
                // The shared slot of the instance is the same for its CTA-0 threads.
                assert_eq!(a.slots[ts[0] as usize], a.slots[ts[2] as usize]);
            }
            // Slots are distinct per block among instances.
            let mut per_block: BTreeMap<(u32, u32), usize> = BTreeMap::new();
            for ts in &a.placement {
                *per_block
                    .entry((ts[0] / tpb, a.slots[ts[0] as usize]))
                    .or_default() += 1;
            }
            assert!(per_block.values().all(|c| *c == 1), "shared slots collide");
            assert!(a.slots.iter().all(|s| *s < g.layout.shared_slots));
            // Shadows only in warps with a testing thread; none without bank conflicts.
            for w in 0..a.roles.len() / 32 {
                let lanes = &a.roles[w * 32..w * 32 + 32];
                let testing = lanes
                    .iter()
                    .any(|r| *r != ROLE_NONE && r & ROLE_SHADOW == 0);
                let shadows = lanes
                    .iter()
                    .any(|r| *r != ROLE_NONE && r & ROLE_SHADOW != 0);
                if banks && testing {
                    assert!(lanes.iter().all(|r| *r != ROLE_NONE));
                }
                if shadows {
                    assert!(banks && testing);
                }
            }
            if !random {
                // Ascending: instance 0 starts at thread 0.
                assert_eq!(a.placement[0][0], 0);
            }
        }
    }
}

#[test]
fn randomisation_changes_the_layout_with_the_seed() {
    let p = weft_litmus::parse(TREE).unwrap();
    let prm = params(true, false);
    let g = generate(&p, &prm).unwrap();
    let a = layout::assign(&g.layout, &prm, 1).unwrap();
    let b = layout::assign(&g.layout, &prm, 2).unwrap();
    let c = layout::assign(&g.layout, &prm, 1).unwrap();
    assert_ne!(a.placement, b.placement);
    assert_eq!(a, c, "same seed, same layout");
}

#[test]
fn decoding_a_synthetic_buffer() {
    // SB from paper 000: x shared, y global; r1/r3 hold addresses.
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/corpus/paper000/SB.litmus"),
    )
    .unwrap();
    let p = weft_litmus::parse(&src).unwrap();
    let prm = params(false, false);
    let g = generate(&p, &prm).unwrap();
    let lay = &g.layout;
    // Registers r0, r2 of each thread are stored (2 per thread), then shared x, then
    // cycles, then the stuck flag.
    assert_eq!(lay.words_per_instance, 2 + 2 + 1 + 2 + 1);
    let n = 3u32;
    let w = lay.words_per_instance as usize;
    let mut res = vec![0u32; w * n as usize];
    // Instance 0: both read 0 (the weak outcome); x = 1.
    res[..w].copy_from_slice(&[1, 0, 1, 0, 1, 77, 88, 0]);
    // Instance 1: T0 read 1; instance 2: T1 reads -1 (sign extension).
    res[w..2 * w].copy_from_slice(&[1, 1, 1, 0, 1, 5, 5, 0]);
    res[2 * w..].copy_from_slice(&[1, 0, 1, u32::MAX, 1, 5, 5, 0]);
    // Global y: one cell, instances interleaved.
    let gmem = vec![1u32, 1, 1];
    let d = layout::decode(lay, n, &res, &gmem).unwrap();
    assert_eq!(d.stuck, 0);
    let outs = d.outcomes;
    assert_eq!(outs.len(), 3);
    // Register order is the test's declaration order: r0, r2, r1, r3.
    let (x, y) = (weft_ir::LocId(0), weft_ir::LocId(1));
    assert_eq!(
        outs[0].regs,
        vec![
            vec![1, 0, address_value(x, 0), address_value(y, 0)],
            vec![1, 0, address_value(y, 0), address_value(x, 0)],
        ]
    );
    assert_eq!(outs[0].mem, vec![vec![1], vec![1]]);
    assert_eq!(outs[1].regs[0][1], 1);
    assert_eq!(outs[2].regs[1][1], -1);
    let cond = p.condition.as_ref().unwrap();
    assert!(
        outs[0].satisfies(&cond.prop),
        "instance 0 is the weak outcome"
    );
    assert!(!outs[1].satisfies(&cond.prop));
    // The decoded outcomes have the SC interpreter's shape: it finds instance 1 among its
    // sequential outcomes and instance 0 nowhere (weak).
    let sc = weft_litmus::classify::classify(&p).unwrap();
    use weft_litmus::classify::Class;
    assert_eq!(sc.class_of(&outs[0]), Class::Weak);
    assert_eq!(sc.class_of(&outs[1]), Class::Seq);

    let mut hist = BTreeMap::new();
    layout::tally(&mut hist, outs.clone());
    layout::tally(&mut hist, vec![outs[0].clone()]);
    let list = layout::finish(hist.clone(), 0, 4).unwrap();
    assert_eq!(list.iter().map(|(_, c)| c).sum::<u64>(), 4);
    assert!(list.iter().any(|(o, c)| *o == outs[0] && *c == 2));
    // The checksum: counts must add up to the instances that ran.
    match layout::finish(hist.clone(), 0, 5) {
        Err(CudaError::Checksum { counted, expected }) => {
            assert_eq!((counted, expected), (4, 5));
        }
        other => panic!("expected a checksum error, got {other:?}"),
    }
    // Stuck instances count towards the checksum.
    assert!(layout::finish(hist, 1, 5).is_ok());
    // An instance whose stuck flag is set has no outcome.
    res[2 * w + lay.stuck_offset as usize] = 1;
    let d = layout::decode(lay, n, &res, &gmem).unwrap();
    assert_eq!((d.outcomes.len(), d.stuck), (2, 1));
    // Short buffers are an error, not a panic.
    assert!(layout::decode(lay, n, &res[..w], &gmem).is_err());
}

#[test]
fn global_image_interleaves_instances() {
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/corpus/paper000/cas-sl.litmus"),
    )
    .unwrap();
    let p = weft_litmus::parse(&src).unwrap();
    let g = generate(&p, &params(false, false)).unwrap();
    // x=0, m=1.
    assert_eq!(g.layout.global_image(3), vec![0, 0, 0, 1, 1, 1]);
}

#[test]
fn bad_params_are_refused() {
    let p = weft_litmus::parse(TREE).unwrap();
    for prm in [
        CudaParams {
            threads_per_block: 48,
            ..CudaParams::default()
        },
        CudaParams {
            threads_per_block: 32, // the test needs two warps in one CTA
            ..CudaParams::default()
        },
        CudaParams {
            instances_per_launch: 0,
            ..CudaParams::default()
        },
    ] {
        let e = generate(&p, &prm).unwrap_err();
        assert!(e.to_string().contains("cannot generate"), "{e}");
    }
}

#[test]
fn open_without_a_driver_is_a_clear_error() {
    match CudaRunner::open(0) {
        Ok(r) => println!("a CUDA driver is present: {:?}", r.identity()),
        Err(e) => {
            if weft_hw_cuda::runner::driver_present() {
                println!("driver present but open failed: {e}");
            } else {
                assert!(matches!(e, CudaError::NoDriver(_)), "{e}");
                let msg = e.to_string();
                assert!(
                    msg.starts_with("no CUDA driver: libcuda.so could not be loaded"),
                    "{msg}"
                );
            }
        }
    }
}

#[test]
fn params_round_trip_through_serde() {
    let p = CudaParams {
        seed: 42,
        mem_stress: false,
        ..CudaParams::default()
    };
    let s = serde_json::to_string(&p).unwrap();
    let q: CudaParams = serde_json::from_str(&s).unwrap();
    assert_eq!(p, q);
    // Missing fields take their defaults.
    let d: CudaParams = serde_json::from_str("{\"seed\": 7}").unwrap();
    assert_eq!(d.seed, 7);
    assert_eq!(d.threads_per_block, CudaParams::default().threads_per_block);
}
