//! `weft run-kernel` and `weft ptx` from the command line: seeded schedules are reproducible,
//! different schedules agree on race-free kernels, the trace streams to stdout, and `weft ptx`
//! prints PTX that weft parses.

use std::process::Output;

use crate::common::{repo as root, weft};

fn lock_dot(schedule: &str) -> Output {
    let k = root().join("tests/kernels/lock_dot_fenced/kernel.ptx");
    weft(&[
        "run-kernel",
        k.to_str().unwrap(),
        "--buffer",
        "a=300:rand:1:9",
        "--buffer",
        "b=300:rand:2:9",
        "--buffer",
        "c=1",
        "--buffer",
        "mutex=1",
        "--arg",
        "n=300",
        "--schedule",
        schedule,
        "--quantum",
        "5",
        "--trace",
        "-",
    ])
}

#[test]
fn seeded_schedules_reproduce_and_agree() {
    let a = lock_dot("17");
    let b = lock_dot("17");
    let c = lock_dot("99");
    let r = lock_dot("rr");
    for o in [&a, &b, &c, &r] {
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // The trace went to stdout, the result to stderr.
    assert_eq!(a.stdout, b.stdout, "same seed, same trace");
    assert_ne!(a.stdout, c.stdout, "another seed interleaves differently");
    let result = |o: &Output| {
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .find(|l| l.starts_with("c (i32 x 1)"))
            .unwrap()
            .to_string()
    };
    assert_eq!(result(&a), result(&c));
    assert_eq!(result(&a), result(&r));
    let trace = String::from_utf8_lossy(&a.stdout);
    assert!(trace.lines().any(|l| l.starts_with("acqGlb ")));
    assert!(trace.lines().any(|l| l.starts_with("endi ")));
}

#[test]
fn ptx_command_prints_parsable_ptx() {
    if weft_cuda::Compiler::detect_for(weft_cuda::Language::Cuda).is_err() {
        eprintln!("NOTICE: clang-19 not found (scripts/deps.sh installs it): skipping `weft ptx`");
        return;
    }
    let src = root().join("tests/kernels/tree_reduction/kernel.cu");
    let o = weft(&["ptx", src.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    let m = weft_ptx::parse(&text).unwrap();
    assert_eq!(m.kernels().count(), 1);
    let o = weft(&["ptx", "/nonexistent/k.cu"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn geometry_from_header_and_digest_for_big_buffers() {
    let k = root().join("tests/kernels/tree_reduction/kernel.ptx");
    let o = weft(&[
        "run-kernel",
        k.to_str().unwrap(),
        "--buffer",
        "in=512:1",
        "--buffer",
        "out=4",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("grid 4x1x1, block 128x1x1, 512 threads"),
        "{out}"
    );
    assert!(out.contains("out (i32 x 4): 128 128 128 128"), "{out}");
    assert!(out.contains("in (i32 x 512): digest fnv1a64=0x"), "{out}");
}

#[test]
fn kernels_on_cuda_without_a_driver_are_a_tool_error() {
    if weft_hw_cuda::runner::driver_present() {
        eprintln!("a CUDA driver is installed: skipping the no-driver check");
        return;
    }
    let k = root().join("tests/kernels/lock_dot_fenced/kernel.ptx");
    let k = k.to_str().unwrap();
    let args = [
        "--buffer",
        "a=32:iota",
        "--buffer",
        "b=32:iota",
        "--buffer",
        "c=1",
        "--buffer",
        "mutex=1",
        "--arg",
        "n=32",
        "--backend",
        "cuda",
    ];
    for cmd in ["run-kernel", "race"] {
        let mut v = vec![cmd, k];
        v.extend(args);
        let o = weft(&v);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "{cmd}: {err}");
        assert!(err.contains("no CUDA driver"), "{cmd}: {err}");
    }
    // The emulator-only options are refused with --backend cuda, before the driver is needed.
    let mut v = vec!["run-kernel", k];
    v.extend(args);
    v.extend(["--trace", "-"]);
    let o = weft(&v);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--trace needs --backend emu"), "{err}");
}
