//! End-to-end tests of `weft mc`: its herd7 block is `weft sim`'s (the `Time` line aside)
//! on the herd C tests, exit codes (0 no error, 1 an error found, 2 bad input), the JSON
//! report, witnesses as DOT, `--timeout` with partial counts, and assertion violations.

use std::path::Path;
use std::process::Command;

use crate::common::{repo, weft};

/// herd's block without the timing line.
fn herd_block(out: &[u8]) -> String {
    String::from_utf8_lossy(out)
        .lines()
        .take_while(|l| !l.starts_with("Time "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn mc_prints_the_same_herd_block_as_sim() {
    let mut n = 0;
    for e in std::fs::read_dir(repo().join("tests/corpus/c")).unwrap() {
        let f = e.unwrap().path();
        let f = f.to_str().unwrap();
        for m in ["rc11", "sc"] {
            let a = weft(&["sim", "-m", m, f]);
            let b = weft(&["mc", "-m", m, f]);
            assert_eq!(herd_block(&a.stdout), herd_block(&b.stdout), "{m} {f}");
            n += 1;
        }
    }
    assert!(n >= 20);
}

#[test]
fn exit_codes_and_json() {
    // SB under RC11: the relaxed outcome is allowed (exists ... Ok): no error, exit 0.
    let o = weft(&["mc", "-m", "rc11", "--json", "tests/corpus/c/SB.litmus"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["validated"], true);
    // 4 executions: each read sees 0 or 1 (one write per location).
    assert_eq!(v["executions"]["explored"], 4);
    assert_eq!(v["checker"], "native");
    // An unknown model and a missing file are bad input.
    assert_eq!(
        weft(&["mc", "-m", "nope", "tests/corpus/c/SB.litmus"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(weft(&["mc", "no/such.litmus"]).status.code(), Some(2));
    // A kernel whose buffers are not given: bad input naming the parameter, not a panic.
    let o = weft(&["mc", "tests/kernels/spinlock_livelock/kernel.cu"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("`mutex` is not bound"));
    assert_eq!(
        weft(&["mc", "--max-memory", "lots", "tests/corpus/c/SB.litmus"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn violated_condition_and_assertion_exit_1_with_a_witness() {
    let dir = std::env::temp_dir().join(format!("weft-mc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // MP with relaxed accesses under RC11: ~exists (r0=1 /\ r1=0) is violated (the weak
    // outcome is allowed by RC11 for relaxed atomics), so mc reports the condition.
    let mp = dir.join("MP-rlx.litmus");
    std::fs::write(
        &mp,
        "C MP-rlx\n{ x = 0; y = 0; }\n\
         P0 (atomic_int* x, atomic_int* y) {\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n  atomic_store_explicit(y, 1, memory_order_relaxed);\n}\n\
         P1 (atomic_int* x, atomic_int* y) {\n  int r0 = atomic_load_explicit(y, memory_order_relaxed);\n  int r1 = atomic_load_explicit(x, memory_order_relaxed);\n}\n\
         ~exists (1:r0=1 /\\ 1:r1=0)\n",
    )
    .unwrap();
    let g = dir.join("graphs");
    let o = weft(&[
        "mc",
        "-m",
        "rc11",
        "--graph",
        g.to_str().unwrap(),
        mp.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("Error condition: 1 executions"), "{out}");
    assert!(out.contains("Witness"), "{out}");
    assert!(std::fs::read_dir(&g).unwrap().count() >= 1);
    // The same test with release/acquire: forbidden, exit 0.
    let mpra = dir.join("MP-ra.litmus");
    std::fs::write(
        &mpra,
        std::fs::read_to_string(&mp)
            .unwrap()
            .replace(
                "atomic_store_explicit(y, 1, memory_order_relaxed)",
                "atomic_store_explicit(y, 1, memory_order_release)",
            )
            .replace(
                "atomic_load_explicit(y, memory_order_relaxed)",
                "atomic_load_explicit(y, memory_order_acquire)",
            ),
    )
    .unwrap();
    assert_eq!(
        weft(&["mc", "-m", "rc11", mpra.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn timeout_stops_with_partial_counts() {
    let dir = std::env::temp_dir().join(format!("weft-mc-to-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let o = Command::new("bash")
        .arg(repo().join("scripts/gen-mc-family.sh"))
        .args(["lb", "24", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success());
    let f = dir.join("lb-24.litmus");
    let o = weft(&[
        "mc",
        "-m",
        "rc11",
        "--timeout",
        "0.5",
        "--json",
        f.to_str().unwrap(),
    ]);
    // No error found, but the search is partial: undecided, exit 3 (never 0).
    assert_eq!(o.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["stopped"], "timeout");
    let explored = v["executions"]["explored"].as_u64().unwrap();
    assert!(explored < (1 << 24) - 1);
    std::fs::remove_dir_all(&dir).ok();
}

/// `--timeout` with worker threads: the deadline is checked per worker thread, not per
/// task. Twelve threads each storing to one location have 12! coherence orders (479,001,600
/// executions), and every graph has fewer events than the parallel split bound, so a
/// two-worker run splits into single-graph tasks; a per-task deadline check never fired
/// there and the run went on far past `--timeout`.
#[test]
fn timeout_stops_parallel_runs_split_into_small_tasks() {
    let dir = std::env::temp_dir().join(format!("weft-mc-to2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let n = 12;
    let mut src = format!("C W{n}\n\"{n} stores to x\"\n{{ x = 0; }}\n");
    for i in 0..n {
        src += &format!(
            "\nP{i} (atomic_int* x) {{\n  atomic_store_explicit(x, {}, memory_order_relaxed);\n}}\n",
            i + 1
        );
    }
    src += "\nexists (x=1)\n";
    let f = dir.join("w12.litmus");
    std::fs::write(&f, src).unwrap();
    let t = std::time::Instant::now();
    let o = weft(&[
        "mc",
        "-m",
        "rc11",
        "--threads",
        "2",
        "--timeout",
        "1",
        "--json",
        f.to_str().unwrap(),
    ]);
    let wall = t.elapsed().as_secs_f64();
    assert_eq!(
        o.status.code(),
        Some(3),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        wall < 8.0,
        "--timeout 1 with 2 workers stopped after {wall:.1} s"
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["stopped"], "timeout");
    let explored = v["executions"]["explored"].as_u64().unwrap();
    assert!(
        explored > 0 && explored < 479_001_600,
        "explored {explored}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `--replay` on litmus tests: the JSON's `witness_graph` re-runs exactly one execution,
/// and it is the one reported: IRIW's condition state under rc11 (herd7: allowed), and the
/// heterogeneous race of `dev-vs-wg` under scoped-rc11 (its `.expect`-style label in
/// tests/corpus/scoped-races/README.md), with the same witness interleaving.
#[test]
fn litmus_witnesses_replay_in_one_execution() {
    let dir = std::env::temp_dir().join(format!("weft-mc-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (model, test, error) in [
        ("rc11", "tests/corpus/c/IRIW.litmus", None),
        (
            "scoped-rc11",
            "tests/corpus/scoped-races/dev-vs-wg.litmus",
            Some("heterogeneous-race"),
        ),
    ] {
        let full = weft(&["mc", "-m", model, "--json", test]);
        let v: serde_json::Value = serde_json::from_slice(&full.stdout).unwrap();
        assert!(v["executions"]["explored"].as_u64().unwrap() > 1, "{test}");
        let j = dir.join("out.json");
        std::fs::write(&j, &full.stdout).unwrap();
        let again = weft(&[
            "mc",
            "-m",
            model,
            "--json",
            "--replay",
            j.to_str().unwrap(),
            test,
        ]);
        let r: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
        assert_eq!(r["executions"]["explored"], 1, "{test}: {r}");
        assert_eq!(r["witness"], v["witness"], "{test}");
        assert_eq!(r["witness_graph"], v["witness_graph"], "{test}");
        match error {
            None => {
                assert_eq!(r["positive"], 1, "{test}: the condition's state");
                assert_eq!(again.status.code(), Some(0));
            }
            Some(kind) => {
                assert_eq!(r["errors"][0]["kind"], kind, "{test}");
                assert_eq!(again.status.code(), Some(1));
            }
        }
    }
    // Bad replay files are bad input.
    let j = dir.join("empty.json");
    std::fs::write(&j, "{}").unwrap();
    let o = weft(&[
        "mc",
        "--replay",
        j.to_str().unwrap(),
        "tests/corpus/c/SB.litmus",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no witness to replay"));
    let o = weft(&[
        "mc",
        "--rf",
        "--replay",
        j.to_str().unwrap(),
        "tests/corpus/c/SB.litmus",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `weft mc --launch`: bad launch statements and options are bad input (exit 2, no panic);
/// a witness found in a launch sequence names the launches and replays only with the same
/// ones; `--warp-size` is range-checked and kernel-only.
#[test]
fn launch_sequences_bad_input_and_replay() {
    let k = "tests/mc/launches/seq_produce_consume.cu";
    let bufs = ["--buffer", "buf=4", "--buffer", "out=4"];
    let run = |extra: &[&str]| {
        let mut a = vec!["mc", k];
        a.extend_from_slice(&bufs);
        a.extend_from_slice(extra);
        weft(&a)
    };
    for bad in [
        &["--launch", "produce<<<2>>>(buf, 4)"][..],
        &["--launch", "produce<<<2,2>>>buf"],
        &["--launch", "nosuch<<<2,2>>>(buf, 4)"],
        // produce takes two arguments.
        &["--launch", "produce<<<2,2>>>(buf)"],
        // --grid belongs in the launch statement.
        &["--grid", "2", "--launch", "produce<<<2,2>>>(buf, 4)"],
        // `out` is passed to no launch.
        &["--launch", "produce<<<2,2>>>(buf, 4)"],
        &["--warp-size", "0"],
        &["--warp-size", "33"],
    ] {
        let o = run(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {o:?}");
    }
    let o = weft(&["mc", "tests/corpus/c/SB.litmus", "--warp-size", "4"]);
    assert_eq!(o.status.code(), Some(2));
    // The consumer first: its assertion fails (hand-derived in seq_consume_first.expect).
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mc_launch_seq");
    std::fs::create_dir_all(&dir).unwrap();
    let order = [
        "--launch",
        "consume<<<2,2>>>(buf, out, 4)",
        "--launch",
        "produce<<<2,2>>>(buf, 4)",
    ];
    let mut a = order.to_vec();
    a.push("--json");
    let o = run(&a);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["launch_sequence"],
        serde_json::json!(["consume<<<2,2>>>(buf, out, 4)", "produce<<<2,2>>>(buf, 4)"])
    );
    assert_eq!(v["errors"][0]["kind"], "assertion");
    let w = v["errors"][0]["witness"].as_str().unwrap();
    assert!(
        w.starts_with("launches (host-ordered): l0 = consume<<<2,2>>>(buf, out, 4), l1 = produce"),
        "{w}"
    );
    assert!(w.contains("l0b0t0#0"), "{w}");
    let saved = dir.join("seq.json");
    std::fs::write(&saved, &o.stdout).unwrap();
    let saved = saved.to_str().unwrap();
    let mut a = order.to_vec();
    a.extend(["--replay", saved]);
    let o = run(&a);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("Replay: the witness of the first error (assertion)"),
        "{text}"
    );
    assert!(text.contains("Executions explored: 1 "), "{text}");
    // Other launches: the witness does not belong to them.
    let o = run(&[
        "--launch",
        "consume<<<1,4>>>(buf, out, 4)",
        "--launch",
        "produce<<<2,2>>>(buf, 4)",
        "--replay",
        saved,
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

/// The litmus files under `dir`, in the order `weft mc DIR` checks them (sorted paths).
fn litmus_under(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            litmus_under(&p, out);
        } else if p.extension().is_some_and(|e| e == "litmus") {
            out.push(p);
        }
    }
}

/// Issue 28 item 1: `weft mc -m rc11 DIR` over the diy7-generated C tests
/// (`tests/corpus/diy`, generated with diy7 7.57, README there) prints, per test, herd7's
/// own output (`NAME.rc11.herd7`: `herd7 -model rc11.cat NAME.litmus`, herd7 7.57) line for
/// line, `Time`/`Hash` lines aside, then the exploration; a summary line ends it. One command.
#[test]
fn mc_over_a_directory_of_diy7_tests_gives_herd7_output_for_each() {
    let dir = repo().join("tests/corpus/diy");
    let mut files = Vec::new();
    litmus_under(&dir, &mut files);
    assert!(files.len() >= 80, "{} diy7 tests", files.len());
    let out = weft(&["mc", "-m", "rc11", dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    // Each test's herd block: from its `Test` line to its `Time` line.
    let mut blocks: Vec<Vec<String>> = Vec::new();
    let mut inside = false;
    for l in text.lines() {
        if l.starts_with("Test ") {
            blocks.push(Vec::new());
            inside = true;
        }
        if inside && !l.starts_with("Time ") && !l.trim().is_empty() {
            blocks.last_mut().unwrap().push(l.trim_end().to_string());
        }
        if l.starts_with("Time ") {
            inside = false;
        }
    }
    assert_eq!(blocks.len(), files.len(), "{text}");
    let mut differ = Vec::new();
    let (mut errors, mut clean) = (0, 0);
    for (f, block) in files.iter().zip(&blocks) {
        let herd = std::fs::read_to_string(f.with_extension("rc11.herd7")).unwrap();
        let herd: Vec<String> = herd
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty() && !l.starts_with("Time ") && !l.starts_with("Hash="))
            .map(str::to_string)
            .collect();
        if &herd != block {
            differ.push(format!(
                "{}:\n{}\n---\n{}",
                f.display(),
                herd.join("\n"),
                block.join("\n")
            ));
        }
        // An error: a racy execution is undefined under rc11.cat (herd's `Undef`), or a
        // `~exists`/`forall` condition fails (herd's `No`).
        let must_hold = herd
            .iter()
            .any(|l| l.starts_with("Condition ~exists") || l.starts_with("Condition forall"));
        if herd
            .iter()
            .any(|l| l == "Undef" || (must_hold && l == "No"))
        {
            errors += 1;
        } else {
            clean += 1;
        }
    }
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n\n")
    );
    let summary = text.lines().last().unwrap_or_default();
    assert_eq!(
        summary,
        format!(
            "Tests: {}, no error: {clean}, error: {errors}, undecided: 0, bad input: 0",
            files.len()
        ),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(if errors > 0 { 1 } else { 0 }));
}

/// Several paths: files and directories mixed; a missing path is bad input (exit 2) and
/// counted, the others are still checked; `--json` gives one array with each test's path.
#[test]
fn mc_takes_several_files_and_reports_bad_paths() {
    let c = repo().join("tests/corpus/c");
    let sb = c.join("SB.litmus");
    let missing = c.join("no-such-test.litmus");
    let out = weft(&[
        "mc",
        "-m",
        "rc11",
        sb.to_str().unwrap(),
        missing.to_str().unwrap(),
        c.join("LB.litmus").to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert_eq!(text.matches("Test ").count(), 2, "{text}");
    assert!(
        text.ends_with("Tests: 3, no error: 2, error: 0, undecided: 0, bad input: 1\n"),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-test.litmus"));
    let out = weft(&[
        "mc",
        "-m",
        "rc11",
        "--json",
        sb.to_str().unwrap(),
        c.join("LB.litmus").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let a = v.as_array().unwrap();
    assert_eq!(a.len(), 2);
    assert!(a[0]["path"].as_str().unwrap().ends_with("SB.litmus"));
    assert_eq!(a[1]["test"], "LB");
    // Options that take one file are refused with several.
    let out = weft(&["mc", "--repair", sb.to_str().unwrap(), sb.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}

/// Issue 28 item 2: past `--max-states` the final states are printed in product form, as
/// `weft sim` prints them. LBF-8 (`scripts/gen-mc-family.sh lbf 8`: the load-buffering ring
/// of 8 threads whose condition names every register) has every combination of the eight
/// reads but all ones (the only (po ∪ rf) cycle): 255 states; in product form, one term
/// per thread i (threads before i read 1, thread i reads 0, the others anything): 8 lines.
#[test]
fn mc_prints_many_states_in_product_form() {
    let f = repo().join("tests/mc/states/LBF-8.litmus");
    let f = f.to_str().unwrap();
    let listed = weft(&["mc", "-m", "rc11", f]);
    let text = String::from_utf8_lossy(&listed.stdout).to_string();
    assert!(text.contains("States 255\n"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("0:r0=")).count(), 255);
    let out = weft(&["mc", "-m", "rc11", "--max-states", "100", f]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.contains("States 255\n"), "{text}");
    let terms: Vec<&str> = text.lines().filter(|l| l.starts_with("0:r0")).collect();
    assert_eq!(terms.len(), 8, "{text}");
    for i in 0..8 {
        let want: String = (0..8)
            .map(|j| match j.cmp(&i) {
                std::cmp::Ordering::Less => format!("{j}:r0=1;"),
                std::cmp::Ordering::Equal => format!("{j}:r0=0;"),
                std::cmp::Ordering::Greater => format!("{j}:r0∈{{0,1}};"),
            })
            .collect::<Vec<_>>()
            .join(" ");
        assert!(terms.contains(&want.as_str()), "{want} not in {terms:?}");
    }
    assert!(text.contains("Positive: 0 Negative: 255"), "{text}");
    assert!(text.contains("Products LBF-8 8 lines"), "{text}");
    let json = weft(&["mc", "-m", "rc11", "--max-states", "100", "--json", f]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["state_count"], "255");
    assert_eq!(v["terms"].as_array().unwrap().len(), 8);
}
