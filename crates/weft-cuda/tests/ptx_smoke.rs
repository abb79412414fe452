//! Compiles every kernel in `tests/kernels/ptx-smoke/` with the real compiler (clang-19 or
//! nvcc), parses the PTX with weft-ptx, and checks facts written down here: which memory
//! instructions, orders, scopes, barriers and warp operations each kernel must contain.
//! Without a compiler the tests print why and pass (the PTX parser is still covered by the
//! checked-in PTX in `crates/weft-ptx/tests/data/`).
//!
//! `WEFT_REGEN_PTX_DATA=1` rewrites that checked-in PTX from these kernels.

use std::path::{Path, PathBuf};
use weft_cuda::{
    parse_header, CompileOptions, Compiler, CompilerKind, Expectation, Language, OpenClStd,
};
use weft_ptx::ast::{
    AtomOp, FunctionKind, Instruction, Opcode, Scope, Sem, ShflMode, StateSpace, VoteMode,
};
use weft_ptx::Module;

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels/ptx-smoke")
}

fn compiler(lang: Language) -> Option<Compiler> {
    match Compiler::detect_for(lang) {
        Ok(c) => Some(c),
        Err(e) => {
            println!("skipping: {e}");
            None
        }
    }
}

/// Compiles one smoke kernel and parses its PTX; `None` when no compiler is installed.
fn build(file: &str, std: OpenClStd) -> Option<(Module, CompilerKind)> {
    let path = kernels_dir().join(file);
    let lang = Language::from_path(&path, std).expect("known extension");
    let c = compiler(lang)?;
    let opts = CompileOptions {
        opencl_std: std,
        libclc: None,
        ..CompileOptions::default()
    };
    let out = c
        .compile_file(&path, &opts)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    if std::env::var_os("WEFT_REGEN_PTX_DATA").is_some() && c.kind == CompilerKind::Clang {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let name = match lang {
            Language::Cuda => format!("{stem}.ptx"),
            Language::OpenCl(OpenClStd::Cl12) => format!("{stem}.cl12.ptx"),
            Language::OpenCl(OpenClStd::Cl20) => format!("{stem}.cl20.ptx"),
        };
        let dest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../weft-ptx/tests/data");
        std::fs::write(dest.join(name), &out.ptx).unwrap();
    }
    let m = out
        .module()
        .unwrap_or_else(|e| panic!("{file}: PTX does not parse: {e}\n{}", out.ptx));
    assert_eq!(m.kernels().count(), 1, "{file}: exactly one kernel");
    Some((m, c.kind))
}

/// How many instructions of the (single) kernel satisfy `f`.
fn count(m: &Module, f: impl Fn(&Instruction) -> bool) -> usize {
    let k = m.kernels().next().expect("a kernel");
    k.instructions().into_iter().filter(|i| f(i)).count()
}

fn is(i: &Instruction, op: Opcode) -> bool {
    i.opcode == op
}

fn atom(i: &Instruction, op: AtomOp, sem: Option<Sem>, scope: Option<Scope>) -> bool {
    i.opcode == Opcode::Atom
        && i.mods.atom == Some(op)
        && i.mods.sem == sem
        && i.mods.scope == scope
}

fn special_reads(m: &Module, name: &str) -> usize {
    count(m, |i| {
        i.opcode == Opcode::Mov && i.operands.iter().any(|o| o.to_string() == name)
    })
}

#[test]
fn every_smoke_kernel_has_a_header() {
    let mut n = 0;
    for e in std::fs::read_dir(kernels_dir()).unwrap() {
        let p = e.unwrap().path();
        if Language::from_path(&p, OpenClStd::Cl20).is_none() {
            continue;
        }
        let h = parse_header(&std::fs::read_to_string(&p).unwrap()).unwrap();
        assert_eq!(h.expect, Some(Expectation::Pass), "{}", p.display());
        assert!(h.launch.is_some(), "{}: no geometry", p.display());
        n += 1;
    }
    assert_eq!(n, 10);
    let h =
        parse_header(&std::fs::read_to_string(kernels_dir().join("atomic_histogram.cu")).unwrap())
            .unwrap();
    let l = h.launch.unwrap();
    assert_eq!((l.grid, l.block), ([16, 1, 1], [64, 1, 1]));
    assert_eq!(l.total_threads(), 1024);
}

#[test]
fn vector_add() {
    let Some((m, _)) = build("vector_add.cu", OpenClStd::Cl20) else {
        return;
    };
    let k = m.kernels().next().unwrap();
    assert!(k.name.contains("vector_add"));
    assert_eq!(k.params.len(), 4);
    assert_eq!(
        count(&m, |i| is(i, Opcode::Ld)
            && i.mods.space == Some(StateSpace::Global)),
        2
    );
    assert_eq!(
        count(&m, |i| is(i, Opcode::St)
            && i.mods.space == Some(StateSpace::Global)),
        1
    );
    assert_eq!(special_reads(&m, "%tid.x"), 1);
    assert_eq!(special_reads(&m, "%ctaid.x"), 1);
    assert_eq!(special_reads(&m, "%ntid.x"), 1);
    // the bounds check is a guarded branch
    assert!(count(&m, |i| is(i, Opcode::Bra) && i.guard.is_some()) >= 1);
}

#[test]
fn shared_reduction() {
    let Some((m, _)) = build("shared_reduction.cu", OpenClStd::Cl20) else {
        return;
    };
    assert!(count(&m, |i| is(i, Opcode::Bar) && i.mods.sync) >= 2);
    let buf = m
        .all_variables()
        .into_iter()
        .find(|v| v.space == StateSpace::Shared)
        .expect("a .shared array");
    assert_eq!(buf.dims, vec![Some(512)]);
    assert!(
        count(&m, |i| is(i, Opcode::Ld)
            && i.mods.space == Some(StateSpace::Shared))
            >= 2
    );
    assert!(
        count(&m, |i| is(i, Opcode::St)
            && i.mods.space == Some(StateSpace::Shared))
            >= 2
    );
}

#[test]
fn atomic_histogram() {
    let Some((m, _)) = build("atomic_histogram.cu", OpenClStd::Cl20) else {
        return;
    };
    assert_eq!(
        count(&m, |i| atom(i, AtomOp::Add, None, None)
            && i.mods.space == Some(StateSpace::Global)),
        1
    );
    assert_eq!(count(&m, |i| is(i, Opcode::Rem)), 1);
}

#[test]
fn spin_lock() {
    let Some((m, _)) = build("spin_lock.cu", OpenClStd::Cl20) else {
        return;
    };
    assert!(count(&m, |i| atom(i, AtomOp::Cas, None, None)) >= 1);
    assert!(count(&m, |i| atom(i, AtomOp::Exch, None, None)) >= 1);
    // __threadfence() is membar.gl (a fence.sc.gpu on sm_70+); one before and one after
    let fences = count(&m, |i| {
        (is(i, Opcode::Membar) && i.mods.scope == Some(Scope::Gpu))
            || (is(i, Opcode::Fence)
                && i.mods.sem == Some(Sem::Sc)
                && i.mods.scope == Some(Scope::Gpu))
    });
    assert_eq!(fences, 2);
    // the CAS loop branches back
    assert!(count(&m, |i| is(i, Opcode::Bra)) >= 1);
}

#[test]
fn warp_shuffle_reduction() {
    let Some((m, _)) = build("warp_shuffle_reduction.cu", OpenClStd::Cl20) else {
        return;
    };
    // the halving loop: one shuffle-down inside it, and a guarded back-edge
    let down = count(&m, |i| {
        is(i, Opcode::Shfl) && i.mods.shfl == Some(ShflMode::Down)
    });
    assert!(down >= 1);
    assert!(count(&m, |i| is(i, Opcode::Bra) && i.guard.is_some()) >= 1);
    assert_eq!(
        count(&m, |i| is(i, Opcode::Shfl)
            && i.mods.shfl == Some(ShflMode::Idx)),
        1
    );
    assert_eq!(
        count(&m, |i| is(i, Opcode::Vote)
            && i.mods.vote == Some(VoteMode::Ballot)),
        1
    );
    assert_eq!(count(&m, |i| is(i, Opcode::Activemask)), 1);
    assert_eq!(count(&m, |i| is(i, Opcode::Bar) && i.mods.warp), 1);
}

#[test]
fn scoped_message_passing() {
    let Some((m, _)) = build("scoped_mp.cu", OpenClStd::Cl20) else {
        return;
    };
    let st_rel = count(&m, |i| {
        is(i, Opcode::St) && i.mods.sem == Some(Sem::Release) && i.mods.scope == Some(Scope::Gpu)
    });
    let ld_acq = count(&m, |i| {
        is(i, Opcode::Ld) && i.mods.sem == Some(Sem::Acquire) && i.mods.scope == Some(Scope::Gpu)
    });
    assert_eq!((st_rel, ld_acq), (1, 1));
    let printed: Vec<String> = m.instructions().iter().map(|i| i.mnemonic()).collect();
    assert!(
        printed.iter().any(|s| s == "st.release.gpu.b32"),
        "{printed:?}"
    );
    assert!(
        printed.iter().any(|s| s == "ld.acquire.gpu.b32"),
        "{printed:?}"
    );
}

#[test]
fn scoped_atomics_helpers() {
    let Some((m, _)) = build("scoped_atomics.cu", OpenClStd::Cl20) else {
        return;
    };
    use AtomOp::*;
    assert_eq!(
        count(&m, |i| atom(i, Add, Some(Sem::AcqRel), Some(Scope::Sys))),
        1
    );
    assert_eq!(
        count(&m, |i| atom(i, Exch, Some(Sem::Release), Some(Scope::Cta))),
        1
    );
    assert_eq!(
        count(&m, |i| atom(i, Cas, Some(Sem::Acquire), Some(Scope::Gpu))),
        1
    );
    assert_eq!(
        count(&m, |i| atom(i, Add, Some(Sem::Relaxed), Some(Scope::Gpu))),
        1
    );
    // weft::atomic_ref<unsigned, thread_scope_block>::fetch_add(release)
    assert_eq!(
        count(&m, |i| atom(i, Add, Some(Sem::Release), Some(Scope::Cta))),
        1
    );
    let fence = |sem, scope| {
        count(&m, |i| {
            is(i, Opcode::Fence) && i.mods.sem == Some(sem) && i.mods.scope == Some(scope)
        })
    };
    assert_eq!(fence(Sem::Sc, Scope::Gpu), 1);
    assert_eq!(fence(Sem::AcqRel, Scope::Cta), 1);
    let ld = |sem, scope| {
        count(&m, |i| {
            is(i, Opcode::Ld) && i.mods.sem == Some(sem) && i.mods.scope == Some(scope)
        })
    };
    assert_eq!(ld(Sem::Relaxed, Scope::Sys), 1);
    assert_eq!(ld(Sem::Acquire, Scope::Cta), 1);
    assert_eq!(
        count(&m, |i| is(i, Opcode::St)
            && i.mods.sem == Some(Sem::Relaxed)
            && i.mods.scope == Some(Scope::Cta)),
        1
    );
}

#[test]
fn opencl20_local_barrier_and_device_atomic() {
    let Some((m, _)) = build("local_barrier_atomic.cl", OpenClStd::Cl20) else {
        return;
    };
    let k = m.kernels().next().unwrap();
    assert_eq!(k.kind, FunctionKind::Entry);
    assert_eq!(k.name, "local_barrier_atomic");
    // the __local pointer parameter is marked `.ptr .shared`
    assert_eq!(
        k.params[1].ptr.and_then(|p| p.space),
        Some(StateSpace::Shared)
    );
    assert_eq!(count(&m, |i| is(i, Opcode::Bar) && i.mods.sync), 1);
    assert_eq!(
        count(&m, |i| atom(
            i,
            AtomOp::Add,
            Some(Sem::Relaxed),
            Some(Scope::Gpu)
        )),
        1
    );
    assert!(
        count(&m, |i| is(i, Opcode::St)
            && i.mods.space == Some(StateSpace::Shared))
            >= 1
    );
    assert!(
        count(&m, |i| is(i, Opcode::Ld)
            && i.mods.space == Some(StateSpace::Shared))
            >= 1
    );
}

#[test]
fn opencl12_histogram_in_both_versions() {
    for std in [OpenClStd::Cl12, OpenClStd::Cl20] {
        let Some((m, _)) = build("opencl12_histogram.cl", std) else {
            return;
        };
        let shared_inc = count(&m, |i| {
            atom(i, AtomOp::Add, None, None) && i.mods.space == Some(StateSpace::Shared)
        });
        let global_add = count(&m, |i| {
            atom(i, AtomOp::Add, None, None) && i.mods.space == Some(StateSpace::Global)
        });
        assert_eq!((shared_inc, global_add), (1, 1), "{std:?}");
        assert_eq!(
            count(&m, |i| is(i, Opcode::Bar) && i.mods.sync),
            2,
            "{std:?}"
        );
        assert!(m
            .all_variables()
            .iter()
            .any(|v| v.space == StateSpace::Shared && v.dims == vec![Some(64)]));
    }
}

#[test]
fn opencl20_message_passing() {
    let Some((m, _)) = build("opencl20_mp.cl", OpenClStd::Cl20) else {
        return;
    };
    let st_rel = count(&m, |i| {
        is(i, Opcode::St) && i.mods.sem == Some(Sem::Release) && i.mods.scope == Some(Scope::Gpu)
    });
    let ld_acq = count(&m, |i| {
        is(i, Opcode::Ld) && i.mods.sem == Some(Sem::Acquire) && i.mods.scope == Some(Scope::Gpu)
    });
    let fence = count(&m, |i| {
        is(i, Opcode::Fence) && i.mods.sem == Some(Sem::Sc) && i.mods.scope == Some(Scope::Cta)
    });
    assert_eq!((st_rel, ld_acq, fence), (1, 1, 1));
}

#[test]
fn compile_error_carries_diagnostics() {
    let Some(c) = compiler(Language::Cuda) else {
        return;
    };
    let e = c
        .compile_cuda(
            "__global__ void k(int *p) { p[0] = undeclared; }\n",
            "broken.cu",
            &CompileOptions::default(),
        )
        .unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("broken.cu:1:"), "{msg}");
    assert!(msg.contains("undeclared"), "{msg}");
}

#[test]
fn unsupported_ordered_atomic_gets_a_hint() {
    let Some(c) = compiler(Language::Cuda) else {
        return;
    };
    if c.kind != CompilerKind::Clang {
        return;
    }
    let e = c
        .compile_cuda(
            "__global__ void k(int *p) { p[1] = __atomic_load_n(p, __ATOMIC_ACQUIRE); }\n",
            "acq.cu",
            &CompileOptions::default(),
        )
        .unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("weft_ld_acquire_gpu"), "{msg}");
}

#[test]
fn unresolved_opencl_builtin_is_reported() {
    let Some(c) = compiler(Language::OpenCl(OpenClStd::Cl12)) else {
        return;
    };
    let src = "__kernel void k(__global float *p) { p[0] = cbrt(p[1]); }\n";
    let opts = CompileOptions {
        libclc: None,
        ..CompileOptions::default()
    };
    let e = c
        .compile_opencl(src, "k.cl", OpenClStd::Cl12, &opts)
        .unwrap_err();
    assert!(e.to_string().contains("cbrt"), "{e}");
    let ok = c
        .compile_opencl(
            src,
            "k.cl",
            OpenClStd::Cl12,
            &CompileOptions {
                allow_unresolved: true,
                ..opts
            },
        )
        .unwrap();
    assert!(ok.ptx.contains("call.uni"));
}
