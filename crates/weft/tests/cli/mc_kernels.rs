//! Labelled kernels for `weft mc` (issue 13): every `NAME.cu`/`NAME.cl` under `tests/mc/`
//! (recursively) with a `NAME.expect` beside it is model checked with `--json`, and the
//! expected result (`data-race`, `hetero-race`, `divergence`, `deadlock`, `assertion` or
//! `none`), the source lines of that error when given, and the exit code (1 on an error,
//! 0 otherwise) are compared. Expectations are derived by hand or from paper 004's tables,
//! with the reason in each `.expect`. A directory's `skip.tsv` (`NAME<TAB>reason`) lists
//! known limits, which are reported and not run. An `.expect` may name a kernel elsewhere
//! (`kernel: tests/kernels/X/kernel.cu`): kernels written for other engines, checked here
//! on a small grid given by `args:`.
//!
//! The heavy run behind a flag (docs/perf.md records it): `WEFT_MC_ALL=1 cargo test --release
//! -p weft --test cli mc_kernels::every_labelled` also runs the `skip.tsv` entries that are only
//! beyond CI time, with `WEFT_MC_TIMEOUT` seconds per kernel (default 60; the NR locks need
//! several minutes each).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use serde_json::Value;

use crate::common::repo;

struct Expect {
    result: String,
    lines: Option<Vec<u64>>,
    model: Option<String>,
    args: Vec<String>,
    /// A kernel elsewhere in the repository (`kernel: PATH`, from the root) instead of
    /// `NAME.cu`/`NAME.cl` beside the `.expect`.
    kernel: Option<String>,
}

fn parse_expect(path: &Path) -> Result<Expect, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut kv = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split(" #").next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (k, v) = line
            .split_once(':')
            .ok_or_else(|| format!("{}:{}: not `key: value`", path.display(), i + 1))?;
        kv.insert(k.trim().to_string(), v.trim().to_string());
    }
    let result = kv
        .get("result")
        .cloned()
        .ok_or_else(|| format!("{}: no `result:`", path.display()))?;
    let known = [
        "data-race",
        "hetero-race",
        "divergence",
        "deadlock",
        "assertion",
        "none",
    ];
    if !known.contains(&result.as_str()) {
        return Err(format!("{}: unknown result `{result}`", path.display()));
    }
    if !kv.contains_key("reason") {
        return Err(format!("{}: no `reason:`", path.display()));
    }
    let lines = match kv.get("lines") {
        Some(l) => Some(
            l.split(',')
                .map(|x| x.trim().parse::<u64>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("{}: lines: {e}", path.display()))?,
        ),
        None => None,
    };
    Ok(Expect {
        result,
        lines,
        model: kv.get("model").cloned(),
        args: kv
            .get("args")
            .map(|a| a.split_whitespace().map(String::from).collect())
            .unwrap_or_default(),
        kernel: kv.get("kernel").cloned(),
    })
}

fn skips(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Ok(t) = std::fs::read_to_string(dir.join("skip.tsv")) {
        for l in t
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let (n, r) = l.split_once('\t').unwrap_or((l, ""));
            out.insert(n.trim().to_string(), r.trim().to_string());
        }
    }
    out
}

/// Seconds per kernel: `WEFT_MC_TIMEOUT`, else 60.
fn per_kernel_timeout() -> u64 {
    std::env::var("WEFT_MC_TIMEOUT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60)
}

/// `WEFT_MC_ALL=1`: run the kernels skipped for CI time too.
fn run_all() -> bool {
    std::env::var("WEFT_MC_ALL").is_ok_and(|v| v == "1")
}

fn check(kernel: &Path, e: &Expect) -> Result<(), String> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_weft"));
    cmd.current_dir(repo())
        .arg("mc")
        .arg(kernel)
        .arg("--json")
        .args(["--timeout", &per_kernel_timeout().to_string()]);
    if let Some(m) = &e.model {
        cmd.args(["-m", m]);
    }
    if e.result != "none" {
        // An expected error only has to be found: the search stops at the first one.
        cmd.arg("--stop-on-first");
    }
    cmd.args(&e.args);
    let o = cmd.output().map_err(|x| x.to_string())?;
    let stderr = String::from_utf8_lossy(&o.stderr);
    let v: Value = serde_json::from_slice(&o.stdout).map_err(|x| {
        format!(
            "no JSON ({x}); exit {:?}; stderr: {stderr}",
            o.status.code()
        )
    })?;
    if !v["stopped"].is_null() && v["stopped"] != "first_error" {
        return Err(format!("stopped early: {}", v["stopped"]));
    }
    let errors = v["errors"].as_array().cloned().unwrap_or_default();
    let kinds: Vec<&str> = errors.iter().filter_map(|x| x["kind"].as_str()).collect();
    let code = o.status.code();
    // No run may pass for a verification without an execution explored to its end
    // (issue 28): such a run is `vacuous` and exits 3.
    let ended = v["complete"].as_u64().unwrap_or(0) + v["stuck"].as_u64().unwrap_or(0);
    if errors.is_empty() && ended == 0 && (code != Some(3) || v["vacuous"] != true) {
        return Err(format!(
            "no error and no execution explored to its end, but exit {code:?}, vacuous {}",
            v["vacuous"]
        ));
    }
    if e.result == "none" {
        if !errors.is_empty() || code != Some(0) {
            return Err(format!("expected no error, got {kinds:?} (exit {code:?})"));
        }
        // "No error" must come from explored executions, not from every execution being
        // blocked or cut (a vacuous verdict).
        if v["complete"].as_u64().unwrap_or(0) == 0 {
            return Err(format!(
                "no complete execution (blocked {}, cut {}): the verdict is vacuous",
                v["blocked"], v["cut"]
            ));
        }
        return Ok(());
    }
    if code != Some(1) {
        return Err(format!("expected exit 1, got {code:?}; stderr: {stderr}"));
    }
    let Some(err) = errors.iter().find(|x| x["kind"] == e.result.as_str()) else {
        return Err(format!("expected {}, got {kinds:?}", e.result));
    };
    if let Some(lines) = &e.lines {
        let got: Vec<u64> = err["lines"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        if &got != lines {
            return Err(format!(
                "{}: expected lines {lines:?}, got {got:?} ({})",
                e.result, err["message"]
            ));
        }
    }
    if err["witness"].as_str().is_none_or(str::is_empty) {
        return Err(format!("{}: no witness", e.result));
    }
    Ok(())
}

#[test]
fn every_labelled_kernel_gets_its_expected_result() {
    let root = repo().join("tests/mc");
    let mut cases = Vec::new();
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.expect("walk tests/mc");
        let p = entry.path();
        if p.extension().is_some_and(|x| x == "expect") {
            cases.push(p.to_path_buf());
        }
    }
    assert!(
        cases.len() >= 12,
        "at least 12 labelled kernels under tests/mc"
    );
    let mut failures = Vec::new();
    let (mut ran, mut skipped) = (0, 0);
    let t0 = Instant::now();
    for exp in &cases {
        let dir = exp.parent().expect("a directory");
        let name = exp
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .to_string();
        if let Some(reason) = skips(dir).get(&name) {
            if !run_all() || !reason.starts_with("beyond CI time") {
                eprintln!("skip {}: {reason}", exp.display());
                skipped += 1;
                continue;
            }
        }
        let e = match parse_expect(exp) {
            Ok(e) => e,
            Err(m) => {
                failures.push(m);
                continue;
            }
        };
        let kernel = match &e.kernel {
            Some(k) => Some(repo().join(k)).filter(|p| p.exists()),
            None => ["cu", "cl"]
                .iter()
                .map(|x| dir.join(format!("{name}.{x}")))
                .find(|p| p.exists()),
        };
        let Some(kernel) = kernel else {
            failures.push(format!(
                "{}: no NAME.cu or NAME.cl beside it (or `kernel:` path)",
                exp.display()
            ));
            continue;
        };
        let t = Instant::now();
        let r = check(&kernel, &e);
        ran += 1;
        if run_all() {
            eprintln!(
                "{} {}: {:.1} s wall",
                if r.is_ok() { "ok" } else { "FAIL" },
                exp.display(),
                t.elapsed().as_secs_f64()
            );
        }
        if let Err(m) = r {
            failures.push(format!("{}: {m}", kernel.display()));
        }
    }
    eprintln!(
        "{ran} kernels checked, {skipped} skipped, in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn unsupported_and_malformed_kernels_are_bad_input() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mc_kernels");
    std::fs::create_dir_all(&dir).unwrap();
    // A barrier reduction (`bar.red`) is not modelled: exit 2 naming file:line:col.
    let k = dir.join("barred.cu");
    std::fs::write(
        &k,
        "//--blockDim=2 --gridDim=1 --buffer=out=2\n__global__ void k(int *out) {\n  int v = __syncthreads_count((int)threadIdx.x);\n  out[threadIdx.x] = v;\n}\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["mc"])
        .arg(&k)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bar.red") && err.contains("barred.cu:"),
        "{err}"
    );
    // --launches is for kernels; 0 launches is not a launch sequence.
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(repo())
        .args([
            "mc",
            "--launches",
            "2",
            "tests/corpus/scoped-races/mp-wg-two-wg.litmus",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(repo())
        .args(["mc", "--launches", "0", "tests/mc/kernels/mp_fenced.cu"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    // A model that is not native: bad input.
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(repo())
        .args(["mc", "-m", "ptx-v7.5", "tests/mc/kernels/mp_fenced.cu"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    // Too many threads for the checker: bad input, not an endless run.
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(repo())
        .args(["mc", "tests/mc/kernels/mp_fenced.cu", "--grid", "300"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("at most"));
}

#[test]
fn loops_beyond_the_unroll_bound_are_cut_and_counted() {
    // `n` iterations of a loop with a store each. With `n` a kernel parameter the loop ends
    // by itself and runs to its end whatever `--unroll` says (issue 28; hand count: one
    // thread, one execution). With the bound read from memory (`*lim`, 5) `--unroll 2` cuts
    // the execution, says where (line 3) and verifies nothing (exit 3); `--unroll 8`
    // explores it.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mc_kernels");
    std::fs::create_dir_all(&dir).unwrap();
    let by_param = dir.join("loop.cu");
    std::fs::write(
        &by_param,
        "//--blockDim=1 --gridDim=1 --buffer=out=8 --arg=n=5\n__global__ void k(int *out, int n) {\n  for (int i = 0; i < n; i++) {\n    out[i] = i;\n  }\n}\n",
    )
    .unwrap();
    let by_memory = dir.join("loop_mem.cu");
    std::fs::write(
        &by_memory,
        "//--blockDim=1 --gridDim=1 --buffer=out=8 --buffer=lim=1:5\n__global__ void k(int *out, int *lim) {\n  for (int i = 0; i < *lim; i++) {\n    out[i] = i;\n  }\n}\n",
    )
    .unwrap();
    let run = |k: &Path, unroll: &str| -> (Option<i32>, Value) {
        let o = Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(["mc", "--json", "--unroll", unroll])
            .arg(k)
            .output()
            .unwrap();
        let v = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
        (o.status.code(), v)
    };
    for unroll in ["2", "8"] {
        let (code, v) = run(&by_param, unroll);
        assert_eq!(code, Some(0), "{v}");
        assert_eq!(v["cut"], 0);
        assert_eq!(v["executions"], 1);
    }
    let (code, v) = run(&by_memory, "2");
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(v["cut"], 1);
    assert_eq!(v["executions"], 0);
    assert_eq!(v["vacuous"], true);
    assert_eq!(v["cut_sites"][0]["line"], 3);
    let (code, v) = run(&by_memory, "8");
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["cut"], 0);
    assert_eq!(v["executions"], 1);
}

#[test]
fn a_witness_replays_to_the_same_error_in_one_execution() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mc_kernels");
    std::fs::create_dir_all(&dir).unwrap();
    let k = "tests/mc/kernels/caslock_nofence.cu";
    let run = |extra: &[&str]| -> (Option<i32>, Value) {
        let o = Command::new(env!("CARGO_BIN_EXE_weft"))
            .current_dir(repo())
            .args(["mc", k, "--json"])
            .args(extra)
            .output()
            .unwrap();
        let v = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
        (o.status.code(), v)
    };
    let (code, v) = run(&[]);
    assert_eq!(code, Some(1));
    assert!(v["executions"].as_u64().unwrap() > 1);
    let first = v["errors"][0].clone();
    let saved = dir.join("caslock_nofence.json");
    std::fs::write(&saved, serde_json::to_string(&v).unwrap()).unwrap();
    let (code, r) = run(&["--replay", saved.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert_eq!(r["executions"], 1);
    assert_eq!(r["replay"], first["kind"]);
    let again = r["errors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == first["kind"])
        .expect("the replayed error");
    assert_eq!(again["lines"], first["lines"]);
    assert_eq!(again["witness"], first["witness"]);
}

#[test]
fn the_vector_clock_check_agrees_with_the_relation_check() {
    // `WEFT_MC_CROSSCHECK` makes every consistency check of the vector-clock path
    // (`weft_mc::native::check_views`) also run the relation-algebra check and panic on any
    // difference (consistency, race flags, racing pairs). Kernels with release/acquire
    // flags, CTA barriers, SC fences, RMW locks and scoped atomics, explored exhaustively.
    let cases: &[(&str, &[&str])] = &[
        ("tests/mc/kernels/mp_fenced.cu", &[]),
        ("tests/mc/kernels/mp_cta_fence.cu", &[]),
        ("tests/mc/kernels/mp_opencl_wg.cl", &[]),
        ("tests/mc/kernels/caslock_cl.cl", &[]),
        ("tests/mc/kernels/tree_reduction.cu", &["--unroll", "3"]),
        (
            "tests/mc/bench/cbe_spinlock_fixed.cu",
            &["--buffer", "0=1", "--buffer", "1=1", "--buffer", "2=1"],
        ),
        (
            "tests/mc/bench/xf_barrier_div.cu",
            &[
                "--buffer", "0=32", "--buffer", "1=32", "--buffer", "2=32", "--buffer", "3=32",
                "--grid", "2",
            ],
        ),
        (
            "tests/mc/bench/xf_barrier.cu",
            &[
                "--buffer", "0=32", "--buffer", "1=32", "--buffer", "2=32", "--buffer", "3=32",
                "--grid", "2", "--block", "2",
            ],
        ),
    ];
    for (k, args) in cases {
        let o = Command::new(env!("CARGO_BIN_EXE_weft"))
            .current_dir(repo())
            .env("WEFT_MC_CROSSCHECK", "1")
            .args(["mc", k, "--json", "--timeout", "60"])
            .args(*args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            matches!(o.status.code(), Some(0) | Some(1)),
            "{k}: exit {:?}: {stderr}",
            o.status.code()
        );
        let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{k}: {e}"));
        assert!(v["stopped"].is_null(), "{k}: stopped {}", v["stopped"]);
        assert!(v["complete"].as_u64().unwrap_or(0) + v["stuck"].as_u64().unwrap_or(0) > 0);
    }
}

/// Spin loops are `assume`s from their first failed iteration (docs/mc.md, loops): the
/// paper's NR locks (paper 004 Table 1: no race) on a smaller grid of 2 CTAs of 2 threads
/// finish with no error and no cut execution. For the CAS lock and the ticket lock every
/// complete execution is fixed by the order in which the four threads hold the lock (a
/// successful CAS reads the previous holder's release, a ticket holder reads `serving` equal
/// to its ticket, and the counter accesses are ordered by happens-before), so there are
/// exactly 4! = 24; a failed iteration explored as part of a complete execution would make
/// more. The TTAS lock has (4!)² = 576: 4! lock orders, and the holder in position k has
/// exactly k writes of 0 its relaxed test load may read (the initial write or one of the
/// k − 1 earlier releases; its CAS reads the release of holder k − 1, and the load, po-before
/// the CAS, cannot read a write coherence-after it), 1·2·3·4 = 4! per order.
#[test]
fn nr_locks_block_spinning_threads_at_the_first_failed_iteration() {
    for (k, bufs, complete) in [
        ("caslock", &["0=1", "1=1"][..], Some(24)),
        ("ticketlock", &["0=1", "1=1", "2=1"][..], Some(24)),
        ("ttaslock", &["0=1", "1=1"][..], Some(576)),
    ] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_weft"));
        cmd.current_dir(repo())
            .arg("mc")
            .arg(format!("tests/mc/bench/{k}.cu"))
            .args(["--grid", "2", "--block", "2", "--json", "--timeout", "120"]);
        for b in bufs {
            cmd.args(["--buffer", b]);
        }
        let o = cmd.output().unwrap();
        let v: Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{k}: {e}: {}", String::from_utf8_lossy(&o.stderr)));
        assert_eq!(o.status.code(), Some(0), "{k}: {v}");
        assert!(v["stopped"].is_null(), "{k}: stopped {}", v["stopped"]);
        assert_eq!(v["errors"].as_array().map(|e| e.len()), Some(0), "{k}");
        assert_eq!(v["cut"], 0, "{k}: cut executions");
        let n = v["complete"].as_u64().unwrap();
        match complete {
            Some(c) => assert_eq!(n, c, "{k}: complete executions"),
            None => assert!(n > 0, "{k}: no complete execution"),
        }
    }
}

/// Stale await reads are not explored (explore.rs: a read whose value fails its spin loop's
/// iteration is added only reading the coherence-latest write): the counts of the two
/// kernels are derived by hand in their `.expect` files. `await_stale`: thread 0 writes 1
/// then 2 before the await read is added; of its three sources only 2 (coherence-latest)
/// is explored, and it exits: 1 complete, 0 blocked, 2 stale (before: 1 complete and 2
/// blocked executions, reading 0 and 1). `await_stale_deadlock`: thread 0 writes 1; the
/// await read explores only 1 (coherence-latest, stuck: the deadlock) and skips 0: 0
/// complete, 1 blocked and stuck, 1 stale (before: 2 blocked, 1 of them stuck).
#[test]
fn stale_await_reads_are_not_explored() {
    for (k, code, complete, blocked, stuck, stale) in [
        ("await_stale", 0, 1, 0, 0, 2),
        ("await_stale_deadlock", 1, 0, 1, 1, 1),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_weft"))
            .current_dir(repo())
            .arg("mc")
            .arg(format!("tests/mc/kernels/{k}.cu"))
            .args(["--json", "--timeout", "60"])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{k}: {e}: {}", String::from_utf8_lossy(&o.stderr)));
        assert_eq!(o.status.code(), Some(code), "{k}: {v}");
        assert!(v["stopped"].is_null(), "{k}: stopped {}", v["stopped"]);
        assert_eq!(v["complete"], complete, "{k}: complete");
        assert_eq!(v["blocked"], blocked, "{k}: blocked");
        assert_eq!(v["stuck"], stuck, "{k}: stuck");
        assert_eq!(v["stale_await_reads"], stale, "{k}: stale await reads");
    }
}

/// A run in which every execution is cut at `--unroll` verifies nothing (issue 28, item 3):
/// exit 3, "nothing is verified" and the loop's line instead of "Errors: none"; with a
/// bound past the loop's 9 iterations the same kernel is verified (1 complete execution,
/// exit 0). Expected values: `tests/mc/vacuous/README.md`.
#[test]
fn a_run_that_explores_nothing_is_not_a_verification() {
    let k = "tests/mc/vacuous/count_up.cu";
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_weft"))
            .current_dir(repo())
            .args(["mc", k])
            .args(extra)
            .output()
            .unwrap()
    };
    let o = run(&[]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{text}");
    assert!(!text.contains("Errors: none\n"), "{text}");
    assert!(text.contains("nothing is verified"), "{text}");
    assert!(text.contains("cut in the loop at line 6"), "{text}");
    let o = run(&["--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(v["vacuous"], true);
    assert_eq!(v["complete"], 0);
    assert_eq!(v["cut_sites"][0]["line"], 6);
    assert_eq!(v["cut_sites"][0]["self_bounded"], false);
    let o = run(&["--unroll", "9", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(0), "{v}");
    assert_eq!(v["vacuous"], false);
    assert_eq!(v["complete"], 1);
    assert_eq!(v["cut"], 0);
    // Repair does not call the empty search race-free either (nothing written, exit 1).
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mc_vacuous");
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("count_up.cu");
    std::fs::copy(repo().join(k), &copy).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["mc", "--repair"])
        .arg(&copy)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("race freedom is not established"), "{text}");
    assert!(!dir.join("count_up.repaired.cu").exists());
}
