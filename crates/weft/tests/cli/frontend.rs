//! The front-end suite (`tests/kernels/frontend/`, issue 12): every kernel is compiled with
//! clang-19, parsed, lowered and run on the SIMT emulator; standard output and exit code must
//! equal the expected files, which were derived by hand:
//! - gpuverify_annotations: out[t] = 0+1+..+t for t < 8;
//! - assert_fails: out[l] = 10·l; `__assert(l < 2)` fails for work-items 2 and 3 (exit 1);
//! - opencl_local_param: each group of 4 reverses its chunk of 0..8 → 3 2 1 0 7 6 5 4;
//! - opencl_async_copy: p[g·4+l] = 2·p[g·4+3−l] + sqrt(4) → 8 6 4 2 16 14 12 10;
//!   q[i] = (i, min(l, 2));
//! - cuda_host_code: out[i] = 3·in[i] with in = iota;
//! - cuda_types_math: v[t] = (t, t+1, t+2, 7); f[t] = t + 1.5 + min(2, t); c = 0+1+2+3;
//!   ballot of the odd lanes of 4 = 0b1010 = 10;
//! - header_defines_star: `*` block = 32 threads, 2 blocks, A[g] = 3·g;
//! - grid_sync: out[g] = A[(g+32) mod 64] = (g+32) mod 64 after a grid barrier;
//! - function_pointers: out[t] = f(t) + 100·g(t), f = twice (even t) / square (odd t),
//!   g = negate (which = 1) → 0, 1−100, 4−200, 9−300;
//! - vector_pack: w = 2v; bytes 1 and 3 of w.y: 4.0f = 0x40800000 → 0 + 256·64 = 16384,
//!   −6.0f = 0xC0C00000 → 256·192 = 49152; the bytes equal those of v.y + v.y (1);
//! - external_function: out[t] = 3·t; the call of the declared-only function changes nothing.
//! - opencl_atomics_explicit: 8 work-items add 1 → total 8; max of g·4+l → 7; per group one
//!   CAS 0→7 wins (res[g] = 7, res[2+g] = 1 winner, the 3 losers read 7 → res[6+g] = 7);
//!   every work-item loads the work-group counter after a barrier → 4; the release store of
//!   100 is read after the next barrier → res[4+g] = 100; `atomic_add` returns 0..7 once
//!   each → old12 = (8, 0xff = 255);
//! - cuda_warp_shuffle (8-thread blocks): rot[t] = 10·((t+1) mod 8); up by 2 keeps lanes 0–1;
//!   down by 3 keeps lanes 5–7; xor 1 swaps pairs; the down-shuffle reduction of 1..8 = 36;
//!   system atomics: Σt over 2 blocks = 56, max i = 15, CAS 0→5; `atomicOr_block` of the 8
//!   lane bits = 255; len = |(3,4)| + t + max(0, 0.5) = 5.5 + t.
//! - struct_by_value: p = {scale 3, offset 10, bias 0.5}: out[t] = 3·t + (t + 10) = 4·t + 10
//!   → 10 14 18 22; fo[t] = 0.5 + t.
//!
//! Skipped (with a message) when no clang is installed.

use std::path::Path;
use std::process::Command;

use crate::common::temp_dir_of;

fn weft() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_weft"));
    c.env("WEFT_NO_CACHE", "1");
    c
}

fn have_clang() -> bool {
    ["clang-19", "clang"].iter().any(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn frontend_kernels_run_with_expected_outputs() {
    if !have_clang() {
        eprintln!("skipped: no clang");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels/frontend");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 8, "{} kernels", dirs.len());
    let mut failures = Vec::new();
    // OpenCL built-ins beyond weft's shim come from libclc (scripts/deps.sh installs it).
    let libclc = weft_cuda::compiler::default_libclc().is_some();
    for d in &dirs {
        if !libclc && d.ends_with("opencl_async_copy") {
            eprintln!("skipped {}: no libclc (install libclc-19)", d.display());
            continue;
        }
        let kernel = ["kernel.cu", "kernel.cl"]
            .iter()
            .map(|k| d.join(k))
            .find(|p| p.is_file())
            .unwrap();
        let args: Vec<String> = std::fs::read_to_string(d.join("args"))
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let out = weft()
            .arg("run-kernel")
            .arg(&kernel)
            .args(&args)
            .output()
            .unwrap();
        let expected = std::fs::read_to_string(d.join("expected.out")).unwrap();
        let code: i32 = std::fs::read_to_string(d.join("expected.code"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        if stdout != expected || out.status.code() != Some(code) {
            failures.push(format!(
                "{}: exit {:?} (expected {code})\n--- got\n{stdout}--- expected\n{expected}--- stderr\n{}",
                d.display(),
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        // `weft ptx` compiles, parses and lowers the same file (exit 0).
        let p = weft().arg("ptx").arg(&kernel).output().unwrap();
        if !p.status.success() {
            failures.push(format!(
                "{}: weft ptx failed: {}",
                d.display(),
                String::from_utf8_lossy(&p.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ptx_names_each_unsupported_construct_once_and_exits_2() {
    // A kernel with two different unsupported instructions, one of them twice.
    let dir = tempfile_dir();
    let f = dir.join("bad.ptx");
    std::fs::write(
        &f,
        ".version 7.0\n.target sm_70\n.address_size 64\n\
         .visible .entry k(.param .u64 k_param_0)\n{\n.reg .b32 %r<4>;\n\
         mul24.lo.s32 %r1, %r2, %r3;\nmul24.lo.s32 %r1, %r2, %r3;\n\
         sad.u32 %r1, %r2, %r3, %r1;\nret;\n}\n",
    )
    .unwrap();
    let out = weft().arg("ptx").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("unsupported")).collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].contains("bad.ptx:7:1:") && lines[0].contains("mul24"),
        "{err}"
    );
    assert!(lines[0].contains("[2 occurrences]"), "{err}");
    assert!(
        lines[1].contains("9:1:") && lines[1].contains("sad"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    // A PTX parse error is exit 2 too, never 0.
    std::fs::write(
        &f,
        ".version 7.0\n.target sm_70\n.entry k() { bogus %r1; }\n",
    )
    .unwrap();
    let out = weft().arg("ptx").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn ptx_of_a_cuda_source_names_the_unsupported_instruction_once_with_its_source_line() {
    if !have_clang() {
        return;
    }
    // `sad` (PTX ISA §9.7.1.9) written twice by inline asm on lines 5 and 7 of the source.
    let dir = tempfile_dir();
    let f = dir.join("unsup.cu");
    std::fs::write(
        &f,
        "//pass\n//--blockDim=2 --gridDim=1\n__global__ void k(unsigned *out) {\n  \
         unsigned a = threadIdx.x, r;\n  asm(\"sad.u32 %0, %1, %1, %1;\" : \"=r\"(r) : \"r\"(a));\n  \
         out[a] = r;\n  asm(\"sad.u32 %0, %1, %1, %1;\" : \"=r\"(r) : \"r\"(a + 1));\n  \
         out[a + 2] = r;\n}\n",
    )
    .unwrap();
    let out = weft().arg("ptx").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("unsupported")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].contains("unsupported instruction `sad.u32`"),
        "{err}"
    );
    assert!(lines[0].contains("unsup.cu:5"), "{err}");
    // Led by the source position, as `file:line:col: message`.
    assert!(lines[0].contains(&format!("{}:5:", f.display())), "{err}");
    assert!(lines[0].contains("[2 occurrences]"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn ptx_parse_errors_name_the_source_line_of_the_inline_asm_and_the_ptx_file_position() {
    if !have_clang() {
        return;
    }
    // `tex` (a texture fetch) is not PTX weft parses; it comes from the `asm` on line 4.
    let dir = tempfile_dir();
    let f = dir.join("texasm.cu");
    std::fs::write(
        &f,
        "__global__ void k(int *out) {\n  int v = threadIdx.x;\n  out[0] = v;\n  \
         asm volatile(\"tex.1d.v4.s32.s32 {%0,%0,%0,%0}, [%1, {%0}];\" : \"+r\"(v) : \"l\"(out));\n  \
         out[1] = v;\n}\n",
    )
    .unwrap();
    let out = weft().arg("ptx").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("texasm.cu:4:"), "{err}");
    assert!(err.contains("unknown instruction `tex`"), "{err}");
    // A .ptx input: the PTX position is the file position.
    let p = dir.join("garbage.ptx");
    std::fs::write(&p, ".version 7.0\n.target sm_70\ngarbage{\n").unwrap();
    let out = weft().arg("ptx").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("garbage.ptx:3:1: "), "{err}");
}

#[test]
fn header_and_command_line_launch_options() {
    if !have_clang() {
        return;
    }
    let k = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/kernels/frontend/header_defines_star/kernel.cu");
    // The command line overrides the header: 1 block of 4 threads, WIDTH=5.
    let out = weft()
        .args([
            "run-kernel",
            k.to_str().unwrap(),
            "--gridDim",
            "1",
            "--blockDim=4",
            "-D",
            "WIDTH=5",
        ])
        .args(["--buffer", "A=4"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "kernel _Z1kPj: grid 1x1x1, block 4x1x1, 4 threads\nA (u32 x 4): 0 5 10 15\n"
    );
    // A missing compiler is exit 3 with a message, never a backtrace.
    let out = weft()
        .env("WEFT_CLANG", "/nonexistent/clang")
        .args(["ptx", k.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no CUDA/OpenCL compiler found"));
}

#[test]
fn missing_builtins_are_named_and_declared_functions_noted() {
    if !have_clang() {
        return;
    }
    let dir = tempfile_dir();
    // Without libclc an OpenCL math built-in has no definition: exit 2 naming it.
    let f = dir.join("m.cl");
    std::fs::write(
        &f,
        "__kernel void k(__global float *a) { a[0] = sqrt(a[1]); }\n",
    )
    .unwrap();
    let out = weft()
        .env("WEFT_LIBCLC", "none")
        .args(["ptx", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("sqrt"), "{err}");
    // A function the source declares: a note, exit 0.
    let k = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/kernels/frontend/external_function/kernel.cu");
    let out = weft().args(["ptx", k.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("trace_value declared without a body"));
}

#[test]
#[cfg(unix)]
fn a_crashing_compiler_is_exit_3_without_a_backtrace() {
    use std::os::unix::fs::PermissionsExt;
    // A stand-in for a clang that aborts in its back-end: it prints LLVM's crash banner and
    // stack dump, then dies of SIGABRT (what clang-19 does on some built-in calls).
    let dir = tempfile_dir();
    let fake = dir.join("crashing-clang");
    std::fs::write(
        &fake,
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'clang version 19 (fake)'; exit 0; fi\n\
         echo 'fatal error: error in backend: Cannot select: intrinsic %llvm.nvvm.foo' >&2\n\
         echo 'PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/' >&2\n\
         echo 'Stack dump:' >&2\necho '0.\tProgram arguments: clang-19 ...' >&2\n\
         echo '#0 0x00007f llvm::sys::PrintStackTrace' >&2\nkill -ABRT $$\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let k = dir.join("k.cl");
    std::fs::write(&k, "__kernel void k(__global int *a) { a[0] = 1; }\n").unwrap();
    let out = weft()
        .env("WEFT_CLANG", &fake)
        .args(["ptx", k.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("crashed"), "{err}");
    assert!(err.contains("Cannot select"), "{err}");
    assert!(
        !err.contains("Stack dump") && !err.contains("PrintStackTrace"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

fn tempfile_dir() -> std::path::PathBuf {
    temp_dir_of("frontend")
}
