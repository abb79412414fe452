//! `weft gen` as a user runs it: one cycle on stdout (the diy7 test, SB+porlxrlxs as
//! diy7 names it), an enumeration into a directory with its `@all` index and verdicts
//! (diy7 7.57's 327 tests for the stored `mix6` command), the GPU formats, MC-Mutants,
//! and bad input (exit 2, one-line reason, nothing written).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{repo, stderr, stdout, weft};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("weft-gen-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn one_cycle_prints_the_diy7_test() {
    let o = weft(&[
        "gen",
        "--cycle",
        "PodWRRlxRlx FreRlxRlx PodWRRlxRlx FreRlxRlx",
        "--check",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("C SB+porlxrlxs\n"), "{out}");
    assert!(
        out.contains("atomic_store_explicit(x, 1, memory_order_relaxed)")
            || out.contains("atomic_store_explicit(x,1,memory_order_relaxed)"),
        "{out}"
    );
    assert!(out.contains("exists (0:r0=0 /\\ 1:r0=0)"), "{out}");
    // SB with relaxed atomics is allowed by RC11.
    assert!(
        stderr(&o).contains("SB+porlxrlxs: allowed"),
        "{}",
        stderr(&o)
    );
    // The output parses back.
    let f = tmp("sb").with_extension("litmus");
    std::fs::write(&f, out).unwrap();
    let p = weft(&["parse", f.to_str().unwrap()]);
    assert_eq!(p.status.code(), Some(0), "{}", stdout(&p));
}

#[test]
fn enumeration_writes_the_diy7_names_and_an_index() {
    let d = tmp("mix6");
    let o = weft(&[
        "gen",
        "--size",
        "6",
        "--nprocs",
        "4",
        "--relax",
        "PodWR,PodWW,PodRR,PodRW,Rfe,Fre,Coe,DpAddrdW,DpDatadW,DpCtrldR",
        "--mix",
        "--check",
        "-o",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("generated 327 tests"),
        "{}",
        stdout(&o)
    );
    let mut ours: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".litmus"))
        .collect();
    let mut diy: Vec<String> = std::fs::read_dir(repo().join("tests/gen/diy7/mix6"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".litmus"))
        .collect();
    ours.sort();
    diy.sort();
    assert_eq!(ours, diy);
    let index = std::fs::read_to_string(d.join("@all")).unwrap();
    assert!(index.contains("MP.litmus # allowed"), "{index}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn gpu_formats_and_skips() {
    let o = weft(&[
        "gen",
        "--cycle",
        "MembardWW.gl.cg Rfe.gpu.ca MembardRR.gl.ca Fre.gpu.cg",
        "--format",
        "gpu_ptx",
        "--check",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("membar.gl") && out.contains("ld.ca.s32") && out.contains("st.cg.s32"),
        "{out}"
    );
    assert!(out.contains("ScopeTree(grid(cta"), "{out}");
    // Paper 000 Fig. 3: mp-L1 with membar.gl is forbidden by its model.
    assert!(stderr(&o).contains("forbidden"), "{}", stderr(&o));
    // A false dependency in GPU_PTX: and.b32 with 0x80000000, never xor.
    let o = weft(&[
        "gen",
        "--cycle",
        "PodWW Rfe DpAddrdR Fre",
        "--format",
        "gpu_ptx",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("and.b32") && out.contains("2147483648") && !out.contains("xor"),
        "{out}"
    );
    // Dat3M's Vulkan dialect has no seq_cst fence: refused with the reason, exit 2.
    let o = weft(&[
        "gen",
        "--cycle",
        "FenceScdWWRlxRlx Rfe FenceScdRRRlxRlx Fre",
        "--format",
        "vulkan",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot express"), "{}", stderr(&o));
    // WebGPU has no dependencies.
    let o = weft(&[
        "gen",
        "--cycle",
        "PodWW Rfe DpAddrdR Fre",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no dependencies"), "{}", stderr(&o));
}

#[test]
fn mutants_from_the_gpuharbor_corpus() {
    let d = tmp("mutants");
    let o = weft(&[
        "gen",
        "--mutants",
        "tests/corpus/gpuharbor",
        "-o",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("wrote 38 tests"), "{}", stdout(&o));
    let index = std::fs::read_to_string(d.join("@all")).unwrap();
    assert_eq!(index.matches(" mutant ").count(), 32);
    assert!(
        index.contains("CoRR-mutant.json # mutant rrMutant allowed"),
        "{index}"
    );
    assert!(
        index.contains("LB-CO.json # conformance loadBufferCoherency forbidden"),
        "{index}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_input_exits_2_and_writes_nothing() {
    for (args, needle) in [
        (vec!["gen", "--cycle", "PodWR Fre PodRR Fre"], "starts with"),
        (vec!["gen", "--cycle", "PodXY Fre"], "bad edge `PodXY`"),
        (
            vec!["gen", "--cycle", "PodWR Fre", "--format", "cobol"],
            "unknown format",
        ),
        (
            vec!["gen", "--cycle", "Rfe.foo PodRR Fre"],
            "unknown qualifier",
        ),
        (vec!["gen", "--relax", "Pod"], "bad edge"),
        (
            vec![
                "gen",
                "--cycle",
                "PodWR Fre PodWR Fre",
                "--check",
                "-m",
                "nosuchmodel",
            ],
            "cannot load model",
        ),
    ] {
        let o = weft(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
    // Bounded: more tests than --max-tests is refused before anything is written.
    let d = tmp("bounded");
    let o = weft(&[
        "gen",
        "--size",
        "8",
        "--relax",
        "PodWR,PodWW,PodRR,PodRW,Rfe,Fre,Coe",
        "--mix",
        "--max-tests",
        "50",
        "-o",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("more than 50 tests"), "{}", stderr(&o));
    assert!(!d.exists());
    let d = tmp("bad");
    let o = weft(&["gen", "--relax", "PodWR,Nope", "-o", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!d.exists());
}

#[test]
fn generated_webgpu_tests_run_on_lavapipe() {
    // A generated WebGPU suite (two threads, relaxed atomics and workgroup barriers) runs
    // through `weft run` on the machine's wgpu adapter (lavapipe in CI) with its
    // checksums holding; lavapipe shows no outcome the webgpu model forbids (exit 0).
    let d = tmp("lavapipe");
    let o = weft(&[
        "gen",
        "--size",
        "4",
        "--nprocs",
        "2",
        "--relax",
        "PodWW,PodWR,PodRW,PodRR,BardWW,BardRR",
        "--safe",
        "Rfe,Fre,Coe",
        "--mix",
        "--format",
        "json",
        "--check",
        "-o",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let n = std::fs::read_dir(&d)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "json")
        })
        .count();
    assert!(n >= 6, "{n}");
    let db = d.join("results.db");
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(repo())
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .args([
            "run",
            d.to_str().unwrap(),
            "--iterations",
            "4",
            "--stress",
            "none",
            "-m",
            "webgpu",
            "--db",
            db.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}\n{}", stderr(&o));
    assert_eq!(out.matches("checksum   ok").count(), n, "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Without `--relax`/`--safe`, an enumeration uses diy7's `-arch C` defaults: the same
/// tests as `diy7 -arch C -size 6` (`tests/gen/diy7/defaults-c6`, 89 files).
#[test]
fn no_edge_sets_enumerate_diy7_defaults() {
    let d = tmp("defaults");
    let o = weft(&["gen", "--size", "6", "-o", d.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let names = |dir: &Path| -> std::collections::BTreeSet<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| {
                let n = e.unwrap().file_name().to_string_lossy().to_string();
                n.strip_suffix(".litmus").map(str::to_string)
            })
            .collect()
    };
    let theirs = names(&repo().join("tests/gen/diy7/defaults-c6"));
    assert_eq!(theirs.len(), 89);
    assert_eq!(names(&d), theirs);
    let _ = std::fs::remove_dir_all(&d);
}
