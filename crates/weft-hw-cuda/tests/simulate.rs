//! End-to-end check of the generated kernel without a GPU: the PTX weft-hw-cuda emits (or
//! clang's PTX of its CUDA-C form) is parsed and lowered by `weft-ptx` and run by
//! `weft-simt`'s single-thread stepper ([`ThreadProgram`]) over a whole launch, with the
//! same buffers the runner builds (role assignment, memory image, sync counters, scratch,
//! shared initial values). Threads are scheduled independently, as on Volta and later: a
//! seeded random pick of a live thread at each of its memory or synchronisation events,
//! each access applied at once to one memory, so the run is sequentially consistent. (The
//! emulator's own warp scheduler runs a warp's lanes in lock-step, in which a test thread
//! spinning on a thread of its own warp spins to its bound; docs/architecture.md.)
//! Under SC no weak outcome can appear, so every decoded instance must be an outcome the SC
//! classifier reaches; the checksum must hold; stress threads, shadows and the thread-sync
//! spin must terminate and must not disturb the test's cells. This checks the harness
//! (addresses, roles, result layout, shared-memory copy-out), not the hardware.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use weft_hw_cuda::layout::{self, Rng, SCRATCH_WORDS};
use weft_hw_cuda::{generate, CudaParams, Generated};
use weft_litmus::classify::{classify, Class, Outcome};
use weft_simt::mem::{self, Region};
use weft_simt::thread::{AccessKind, Stop, ThreadIds, ThreadProgram, ThreadState};
use weft_simt::{Arg, Buffer, ElemType, LaunchConfig};

/// Where a thread of the launch is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum St {
    Running,
    /// Waiting at `bar.sync` (its pc is the barrier).
    Barrier,
    Done,
}

/// Instructions a thread runs without a memory or synchronisation event before the
/// scheduler picks again (the generated kernel has no such stretch this long).
const BUDGET: u64 = 10_000;

/// Events of one launch before the run counts as not terminating.
const MAX_EVENTS: u64 = 50_000_000;

/// The launch's memory: the global arena (buffers at `buffer_offsets`) and one shared
/// memory per CTA.
struct Memory {
    global: Vec<u8>,
    shared: Vec<Vec<u8>>,
}

impl Memory {
    fn area(&mut self, cta: usize, region: Region) -> &mut Vec<u8> {
        match region {
            Region::Global => &mut self.global,
            Region::Shared => &mut self.shared[cta],
            other => panic!("an access to {other:?} memory reached the scheduler"),
        }
    }
}

/// Applies the access thread `st` stopped at to memory and moves the thread past it.
fn access(
    prog: &ThreadProgram,
    memory: &mut Memory,
    cta: usize,
    st: &mut ThreadState,
    stop: &Stop,
) {
    let Stop::Access(a) = stop else {
        unreachable!()
    };
    let area = memory.area(cta, a.region);
    let read = |area: &[u8], off: u64| {
        mem::read(area, off, a.width)
            .unwrap_or_else(|| panic!("access out of bounds at {off:#x} ({:?})", a.region))
    };
    match a.kind {
        AccessKind::Load => {
            for (k, &(off, _)) in a.elems.iter().enumerate() {
                let v = read(area, off);
                prog.set_load(st, k, v);
            }
        }
        AccessKind::Store => {
            for &(off, v) in &a.elems {
                assert!(
                    mem::write(area, off, a.width, v),
                    "store out of bounds at {off:#x}"
                );
            }
        }
        AccessKind::Atom { op, ty, a: x, b: y } => {
            let off = a.elems[0].0;
            let old = read(area, off);
            if let Some(new) = ThreadProgram::atom_new(op, ty, old, x, y) {
                assert!(mem::write(area, off, a.width, new));
            }
            prog.set_atom(st, old);
        }
    }
    prog.advance(st);
}

/// Runs one launch of a generated kernel under SC with a random schedule and returns the
/// results and global buffers.
fn run_launch(
    ptx: &str,
    g: &Generated,
    params: &CudaParams,
    launch_seed: u64,
) -> (Vec<u32>, Vec<u32>) {
    let m = weft_ptx::parse(ptx).unwrap();
    let kernel = weft_ptx::lower_kernel(&m, None).unwrap();
    // Parameters by position: 7 pointers, then N, flags, seed (ptx.rs and cudac.rs agree).
    assert_eq!(kernel.params.len(), 10, "kernel parameters");
    let lay = &g.layout;
    let n = params.instances_per_launch;
    let a = layout::assign(lay, params, launch_seed).unwrap();
    let mut image = lay.global_image(n);
    if image.is_empty() {
        image.push(0);
    }
    let words: Vec<Vec<u32>> = vec![
        a.roles.clone(),
        a.slots.clone(),
        image,
        vec![0; (lay.words_per_instance * n).max(1) as usize],
        vec![0; n as usize + 1],
        vec![0; SCRATCH_WORDS as usize],
        lay.shared_image(),
    ];
    let lens: Vec<usize> = words.iter().map(Vec::len).collect();
    let buffers: Vec<Buffer> = words
        .into_iter()
        .zip(&kernel.params)
        .map(|(w, p)| Buffer {
            name: p.name.clone(),
            elem: ElemType::U32,
            data: w.iter().flat_map(|x| x.to_le_bytes()).collect(),
        })
        .collect();
    let mut args: Vec<Arg> = (0..7).map(Arg::Buffer).collect();
    args.push(Arg::Scalar(u64::from(n)));
    args.push(Arg::Scalar((launch_seed >> 17) & 1));
    args.push(Arg::Scalar(launch_seed & 0xffff_ffff));
    let tpb = params.threads_per_block;
    let cfg = LaunchConfig {
        grid: [a.blocks, 1, 1],
        block: [tpb, 1, 1],
    };
    let prog = ThreadProgram::new(&kernel, cfg, &args, &buffers).unwrap();
    assert!(prog.unsupported().is_empty(), "{:?}", prog.unsupported());
    // Shared memory starts as garbage: the kernel must initialise what it reads.
    let shared: Vec<u8> = std::iter::repeat_n(
        0xdead_beef_u32.to_le_bytes(),
        prog.shared_bytes().div_ceil(4) as usize,
    )
    .flatten()
    .collect();
    let mut memory = Memory {
        global: prog.global_init.clone(),
        shared: vec![shared; a.blocks as usize],
    };
    let count = (a.blocks * tpb) as usize;
    let mut threads: Vec<(ThreadState, St)> =
        (0..count).map(|_| (prog.start(), St::Running)).collect();
    let mut rng = Rng::new(launch_seed ^ 0xabc);
    let mut events = 0u64;
    loop {
        let runnable: Vec<usize> = (0..count)
            .filter(|&t| threads[t].1 == St::Running)
            .collect();
        if runnable.is_empty() {
            assert!(
                threads.iter().all(|t| t.1 == St::Done),
                "threads wait at a barrier nobody else reaches"
            );
            break;
        }
        let t = runnable[rng.below(runnable.len())];
        let (cta, tid) = (t / tpb as usize, t as u32 % tpb);
        let ids = ThreadIds {
            cta: [cta as u32, 0, 0],
            tid,
        };
        let st = &mut threads[t].0;
        let stop = prog.step(st, ids, BUDGET);
        match &stop {
            Stop::Access(_) => access(&prog, &mut memory, cta, st, &stop),
            Stop::Fence => prog.advance(st),
            Stop::BackEdge { .. } | Stop::StepLimit => {}
            Stop::Barrier {
                id: 0,
                count: None,
                arrive: false,
            } => threads[t].1 = St::Barrier,
            Stop::Exit => threads[t].1 = St::Done,
            other => panic!("thread {t} stopped at {other:?}"),
        }
        // A CTA's barrier opens when each of its threads waits there or has ended.
        let ts = &mut threads[cta * tpb as usize..(cta + 1) * tpb as usize];
        if ts.iter().any(|t| t.1 == St::Barrier) && ts.iter().all(|t| t.1 != St::Running) {
            for t in ts.iter_mut().filter(|t| t.1 == St::Barrier) {
                prog.advance(&mut t.0);
                t.1 = St::Running;
            }
        }
        events += 1;
        assert!(events < MAX_EVENTS, "the kernel does not terminate");
    }
    let buffer = |i: usize| -> Vec<u32> {
        let off = prog.buffer_offsets[i] as usize;
        memory.global[off..off + 4 * lens[i]]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    (buffer(3), buffer(2))
}

fn corpus() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/paper000"),
    )
    .unwrap()
    .flatten()
    .map(|e| e.path())
    .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
    .collect();
    let dat3m = Path::new("/work/shared/corpus/dat3m/litmus/PTX/Manual");
    for name in [
        "MP-cta-gpu",
        "SB+sc-cta",
        "CoRR-acquire-weak",
        "Atom-plus-register",
        "Atom-minus-location_",
        "LB+RMW-a",
        "MP-relaxed",
        "Red-plus-location_",
        "SB+acq_rel-cta",
        "Coherence",
    ] {
        let p = dat3m.join(format!("{name}.litmus"));
        if p.exists() {
            v.push(p);
        }
    }
    // GPUHarbor's WebGPU tests (JSON; relaxed atomics, some in workgroup memory).
    if let Ok(rd) = std::fs::read_dir(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/gpuharbor"),
    ) {
        v.extend(
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "json")),
        );
    }
    v.sort();
    v
}

fn check(path: &Path, params: &CudaParams, launches: u64) {
    check_form(path, params, launches, false)
}

/// `cuda_c`: run clang's PTX for the CUDA-C form instead of weft's PTX.
fn check_form(path: &Path, params: &CudaParams, launches: u64, cuda_c: bool) {
    // Non-test files (GPUHarbor's metadata JSON) are skipped.
    let Ok(p) = weft_litmus::parse(&std::fs::read_to_string(path).unwrap()) else {
        return;
    };
    let Ok(g) = generate(&p, params) else {
        return;
    };
    let sc = match classify(&p) {
        Ok(c) => c,
        Err(e) => {
            println!("{}: not classified ({e})", path.display());
            return;
        }
    };
    let ptx = if cuda_c {
        let Ok(c) = weft_cuda::Compiler::detect_clang() else {
            println!("skipping the CUDA-C form: no clang");
            return;
        };
        let opts = weft_cuda::CompileOptions {
            opt_level: 3,
            ..weft_cuda::CompileOptions::default()
        };
        c.compile_cuda(&g.cuda_c, "litmus.cu", &opts).unwrap().ptx
    } else {
        g.ptx.clone()
    };
    let mut hist: BTreeMap<Outcome, u64> = BTreeMap::new();
    let mut seeds = Rng::new(params.seed);
    for _ in 0..launches {
        let (res, gmem) = run_launch(&ptx, &g, params, seeds.next_u64());
        let d = layout::decode(&g.layout, params.instances_per_launch, &res, &gmem).unwrap();
        assert_eq!(
            d.stuck,
            0,
            "{}: an instance got stuck under SC",
            path.display()
        );
        layout::tally(&mut hist, d.outcomes);
    }
    let total = params.instances_per_launch as u64 * launches;
    let list = layout::finish(hist, 0, total).unwrap();
    if std::env::var_os("WEFT_SIM_PRINT").is_some() {
        println!("{}", path.display());
        for (o, c) in &list {
            println!("  {c:4} {:?} {:?} {:?}", o.regs, o.mem, sc.class_of(o));
        }
    }
    for (o, c) in &list {
        assert_ne!(
            sc.class_of(o),
            Class::Weak,
            "{}: {c} instances ended in {o:?}, which SC cannot reach (harness bug)",
            path.display()
        );
    }
}

#[test]
fn sc_execution_of_the_kernel_gives_only_sc_outcomes() {
    let plain = CudaParams {
        instances_per_launch: 12,
        iterations: 1,
        threads_per_block: 64,
        mem_stress: false,
        bank_conflicts: false,
        thread_randomisation: false,
        thread_sync: false,
        seed: 3,
        device: 0,
    };
    let all = CudaParams {
        mem_stress: true,
        bank_conflicts: true,
        thread_randomisation: true,
        thread_sync: true,
        ..plain.clone()
    };
    let files = corpus();
    assert!(files.len() >= 19);
    for f in &files {
        check(f, &plain, 2);
        check(f, &all, 2);
    }
}

#[test]
fn sc_execution_of_the_cuda_c_form_gives_only_sc_outcomes() {
    let all = CudaParams {
        instances_per_launch: 8,
        iterations: 1,
        threads_per_block: 64,
        mem_stress: true,
        bank_conflicts: true,
        thread_randomisation: true,
        thread_sync: true,
        seed: 5,
        device: 0,
    };
    let plain = CudaParams {
        mem_stress: false,
        bank_conflicts: false,
        thread_randomisation: false,
        thread_sync: false,
        ..all.clone()
    };
    for f in corpus() {
        check_form(&f, &plain, 1, true);
        check_form(&f, &all, 1, true);
    }
}

/// Runs `launches` launches and returns the outcomes and the stuck count.
fn run_all(
    p: &weft_ir::Program,
    params: &CudaParams,
    launches: u64,
    cuda_c: bool,
) -> (Vec<(Outcome, u64)>, u64) {
    let g = generate(p, params).unwrap();
    let ptx = if cuda_c {
        let c = weft_cuda::Compiler::detect_clang().unwrap();
        let opts = weft_cuda::CompileOptions {
            opt_level: 3,
            ..weft_cuda::CompileOptions::default()
        };
        c.compile_cuda(&g.cuda_c, "litmus.cu", &opts).unwrap().ptx
    } else {
        g.ptx.clone()
    };
    let mut hist: BTreeMap<Outcome, u64> = BTreeMap::new();
    let mut stuck = 0;
    let mut seeds = Rng::new(params.seed);
    for _ in 0..launches {
        let (res, gmem) = run_launch(&ptx, &g, params, seeds.next_u64());
        let d = layout::decode(&g.layout, params.instances_per_launch, &res, &gmem).unwrap();
        stuck += d.stuck;
        layout::tally(&mut hist, d.outcomes);
    }
    let total = params.instances_per_launch as u64 * launches;
    (layout::finish(hist, stuck, total).unwrap(), stuck)
}

#[test]
fn spin_locks_terminate_under_sc_and_keep_mutual_exclusion() {
    let dir = Path::new("/work/shared/corpus/dat3m/litmus/PTX/Manual");
    let params = CudaParams {
        instances_per_launch: 6,
        iterations: 1,
        threads_per_block: 64,
        mem_stress: true,
        bank_conflicts: false,
        thread_randomisation: true,
        thread_sync: true,
        seed: 11,
        device: 0,
    };
    // Ticket locks: under SC both threads never see x == 0 inside the critical section.
    for name in [
        "Ticketlock-same-gpu",
        "Ticketlock-acq2rlx-1",
        "Ticketlock-acq2rlx-2",
        "Ticketlock-rel2rlx",
    ] {
        let Ok(src) = std::fs::read_to_string(dir.join(format!("{name}.litmus"))) else {
            continue;
        };
        let p = weft_litmus::parse(&src).unwrap();
        let clang = weft_cuda::Compiler::detect_clang().is_ok();
        for cuda_c in [false, true] {
            if cuda_c && !clang {
                continue;
            }
            let (list, stuck) = run_all(&p, &params, 2, cuda_c);
            assert_eq!(stuck, 0, "{name}: stuck under SC");
            let prop = &p.condition.as_ref().unwrap().prop;
            for (o, c) in &list {
                assert!(
                    !o.satisfies(prop),
                    "{name}: {c} instances broke mutual exclusion under SC: {o:?}"
                );
            }
        }
    }
}

#[test]
fn a_loop_that_never_ends_marks_its_instances_stuck() {
    // P0 waits for x to change; nobody writes it.
    let src = "PTX spin\n{\nx=0;\nP0:r1=0;\n}\n P0@cta 0,gpu 0 ;\n LC00: ;\n ld.weak r0, x ;\n beq r0, r1, LC00 ;\nexists (P0:r0 == 1)\n";
    let p = weft_litmus::parse(src).unwrap();
    let params = CudaParams {
        instances_per_launch: 3,
        iterations: 1,
        threads_per_block: 32,
        mem_stress: false,
        bank_conflicts: false,
        thread_randomisation: false,
        thread_sync: false,
        seed: 1,
        device: 0,
    };
    let (list, stuck) = run_all(&p, &params, 1, false);
    assert_eq!(stuck, 3);
    assert!(list.is_empty());
    if weft_cuda::Compiler::detect_clang().is_ok() {
        let (list, stuck) = run_all(&p, &params, 1, true);
        assert_eq!(stuck, 3, "the CUDA-C form bounds the loop too");
        assert!(list.is_empty());
    }
}
