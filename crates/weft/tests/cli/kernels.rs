//! Runs every kernel under `tests/kernels/<name>/` (those with a `kernel.json` manifest)
//! through `weft run-kernel --json`, once from the committed `kernel.ptx` and once from the
//! CUDA/OpenCL source compiled by clang-19 (skipped with a notice when clang-19 is missing),
//! and checks the exit code, the buffers (explicit values or a named CPU reference computed
//! here from the input buffers), the findings and the trace, all as the manifest says.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common::{repo as root, temp_dir_of};

fn kernel_dirs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/kernels"))
        .expect("tests/kernels")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.join("kernel.json").is_file() && !p.is_symlink())
        .collect();
    v.sort();
    v
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| {
            x.as_i64()
                .unwrap_or_else(|| x.as_f64().expect("number") as i64)
        })
        .collect()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect()
}

/// The paper 002 Fig. 3 work item of `work_queue/kernel.cu`, with C's truncating division.
fn mandel(i: i64, width: i64) -> i64 {
    let cx = (i % width) * 4 - 2 * width;
    let cy = (i / width) * 4 - 2 * width;
    let (mut zx, mut zy, mut it) = (0i64, 0i64, 0);
    while it < 64 {
        let x2 = (zx * zx) as i32 / width as i32;
        let y2 = (zy * zy) as i32 / width as i32;
        let (x2, y2) = (x2 as i64, y2 as i64);
        if x2 + y2 > 4 * width {
            break;
        }
        zy = (2 * zx * zy) as i32 as i64 / width + cy;
        zx = x2 - y2 + cx;
        it += 1;
    }
    it
}

/// Computes the expected contents of the reference's output buffer from the input buffers.
fn reference(r: &Value, bufs: &Value) -> (String, Vec<f64>) {
    let s = |k: &str| {
        r[k].as_str()
            .unwrap_or_else(|| panic!("reference needs `{k}`"))
            .to_string()
    };
    let n = |k: &str| {
        r[k].as_u64()
            .unwrap_or_else(|| panic!("reference needs `{k}`")) as usize
    };
    let name = s("name");
    let out = s("output");
    let input = || ints(&bufs[s("input")]);
    let wrap = |x: i64| x as i32 as f64;
    let v: Vec<f64> = match name.as_str() {
        "block_sum" => input()
            .chunks(n("block"))
            .map(|c| wrap(c.iter().sum()))
            .collect(),
        "total_sum" => vec![wrap(input().iter().sum())],
        "inclusive_scan" => input()
            .chunks(n("block"))
            .flat_map(|c| {
                let mut acc = 0i64;
                c.iter()
                    .map(move |x| {
                        acc += x;
                        wrap(acc)
                    })
                    .collect::<Vec<_>>()
            })
            .collect(),
        "histogram" => {
            let bins = n("bins");
            let mut h = vec![0f64; bins];
            for x in input() {
                h[x as usize % bins] += 1.0;
            }
            h
        }
        "transpose" => {
            let (w, h) = (n("width"), n("height"));
            let i = floats(&bufs[s("input")]);
            let mut o = vec![0f64; w * h];
            for y in 0..h {
                for x in 0..w {
                    o[x * h + y] = i[y * w + x];
                }
            }
            o
        }
        "dot" => {
            let (a, b) = (ints(&bufs[s("a")]), ints(&bufs[s("b")]));
            vec![wrap(a.iter().zip(&b).map(|(x, y)| x * y).sum())]
        }
        "mandelbrot" => (0..n("max") as i64)
            .map(|i| mandel(i, n("width") as i64) as f64)
            .collect(),
        "reverse_plus_sum" => input()
            .chunks(n("block"))
            .flat_map(|c| {
                let sum: i64 = c.iter().sum();
                c.iter()
                    .rev()
                    .map(move |x| wrap(x + sum))
                    .collect::<Vec<_>>()
            })
            .collect(),
        "square_plus_pairs" => input()
            .iter()
            .flat_map(|&x| {
                let v = if x > 10 { x * x + 3 } else { x + 3 };
                [wrap(v), wrap(v + 1)]
            })
            .collect(),
        other => panic!("unknown reference `{other}`"),
    };
    (out, v)
}

fn clang_available() -> bool {
    weft_cuda::Compiler::detect_for(weft_cuda::Language::Cuda).is_ok()
}

/// Runs one kernel file under the manifest; returns a list of failures.
fn check(dir: &Path, file: &Path, m: &Value) -> Vec<String> {
    let name = dir.file_name().unwrap().to_string_lossy().to_string();
    let what = format!("{name} ({})", file.file_name().unwrap().to_string_lossy());
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_weft"));
    cmd.arg("run-kernel").arg(file).arg("--json");
    for b in m["buffers"].as_array().into_iter().flatten() {
        cmd.arg("--buffer").arg(b.as_str().unwrap());
    }
    for a in m["args"].as_array().into_iter().flatten() {
        cmd.arg("--arg").arg(a.as_str().unwrap());
    }
    if let Some(s) = m["schedule"].as_str() {
        cmd.arg("--schedule").arg(s);
    }
    if let Some(s) = m["max_steps"].as_u64() {
        cmd.arg("--max-steps").arg(s.to_string());
    }
    let trace_path = std::env::temp_dir().join(format!(
        "weft-kernel-trace-{name}-{}.txt",
        std::process::id()
    ));
    let tracing = m["trace"].as_bool().unwrap_or(false);
    if tracing {
        cmd.arg("--trace").arg(&trace_path);
    }
    let out = cmd.output().expect("run weft");
    let mut fails = Vec::new();
    let e = &m["expect"];
    let code = out.status.code().unwrap_or(-1);
    let want = e["exit"].as_i64().unwrap_or(0) as i32;
    if code != want {
        fails.push(format!(
            "{what}: exit {code}, expected {want}; stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
        return fails;
    }
    let j: Value = match serde_json::from_slice(&out.stdout) {
        Ok(j) => j,
        Err(err) => {
            fails.push(format!("{what}: bad JSON output ({err})"));
            return fails;
        }
    };
    let bufs = &j["buffers"];
    let mut expected: Vec<(String, Vec<f64>)> = Vec::new();
    if e["reference"].is_object() {
        expected.push(reference(&e["reference"], bufs));
    }
    if let Some(obj) = e["buffers"].as_object() {
        for (k, v) in obj {
            expected.push((k.clone(), floats(v)));
        }
    }
    for (b, want) in expected {
        let got = floats(&bufs[&b]);
        if got != want {
            let first = got.iter().zip(&want).position(|(a, b)| a != b);
            fails.push(format!(
                "{what}: buffer `{b}` differs (len {} vs {}, first difference at {first:?})",
                got.len(),
                want.len()
            ));
        }
    }
    let findings: Vec<String> = j["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    for f in e["findings"].as_array().into_iter().flatten() {
        let f = f.as_str().unwrap();
        if !findings.iter().any(|x| x.contains(f)) {
            fails.push(format!(
                "{what}: no finding contains `{f}`; findings: {findings:?}"
            ));
        }
    }
    if e["findings"].is_null() && !findings.is_empty() {
        fails.push(format!("{what}: unexpected findings {findings:?}"));
    }
    if tracing {
        let t = std::fs::read_to_string(&trace_path).unwrap_or_default();
        let ops: std::collections::HashSet<&str> =
            t.lines().filter_map(|l| l.split(' ').next()).collect();
        for s in e["trace_contains"].as_array().into_iter().flatten() {
            if !ops.contains(s.as_str().unwrap()) {
                fails.push(format!("{what}: trace has no `{s}` operation"));
            }
        }
        for s in e["trace_lacks"].as_array().into_iter().flatten() {
            if ops.contains(s.as_str().unwrap()) {
                fails.push(format!("{what}: trace has a `{s}` operation"));
            }
        }
        let _ = std::fs::remove_file(&trace_path);
    }
    fails
}

#[test]
fn kernels_from_committed_ptx_and_from_source() {
    let dirs = kernel_dirs();
    assert!(
        dirs.len() >= 15,
        "expected the kernel suite, found {}",
        dirs.len()
    );
    let clang = clang_available();
    if !clang {
        eprintln!("NOTICE: clang-19 not found (scripts/deps.sh installs it): kernels run from their committed PTX only");
    }
    let mut fails = Vec::new();
    for d in &dirs {
        let m: Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("kernel.json")).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        fails.extend(check(d, &d.join("kernel.ptx"), &m));
        if clang {
            let src = d.join(m["source"].as_str().expect("source"));
            fails.extend(check(d, &src, &m));
        }
    }
    assert!(
        fails.is_empty(),
        "{} failures:\n{}",
        fails.len(),
        fails.join("\n")
    );
}

#[test]
fn bad_inputs_exit_2_with_a_message() {
    let bin = env!("CARGO_BIN_EXE_weft");
    let k = root().join("tests/kernels/tree_reduction/kernel.ptx");
    let run = |args: &[&str]| Command::new(bin).args(args).output().unwrap();
    let o = run(&["run-kernel", k.to_str().unwrap(), "--buffer", "in=4:iota"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("parameter `out` is not bound"));
    let o = run(&[
        "run-kernel",
        k.to_str().unwrap(),
        "--buffer",
        "nope=4",
        "--buffer",
        "out=4",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&[
        "run-kernel",
        k.to_str().unwrap(),
        "--grid",
        "0",
        "--buffer",
        "in=4",
        "--buffer",
        "out=4",
    ]);
    assert_eq!(o.status.code(), Some(2));
    // An unsupported instruction is named with its PTX position.
    let dir = tempfile_dir();
    let p = dir.join("bad.ptx");
    std::fs::write(
        &p,
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<3>;\nsad.u32 %r1, %r1, %r1, %r1;\nret;\n}\n",
    )
    .unwrap();
    let o = run(&[
        "run-kernel",
        p.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("7:1: unsupported instruction `sad.u32`"),
        "{err}"
    );
    // An out-of-bounds store is a finding (exit 1), not a crash.
    std::fs::write(
        &p,
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [k_param_0];\nst.global.u32 [%rd1+4096], 1;\nret;\n}\n",
    )
    .unwrap();
    let o = run(&[
        "run-kernel",
        p.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "1",
        "--buffer",
        "0=1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("memory fault"));
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> PathBuf {
    temp_dir_of("kernel-test")
}
