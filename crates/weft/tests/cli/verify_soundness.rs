//! No unsound "verified" (issue 15's acceptance): every kernel of `tests/race/` and
//! `tests/mc/` whose label says a race is reachable at its launch is run through
//! `weft verify` with that launch, and must get an error report (exit 1), never `verified`.
//!
//! The labels are the kernels' own `.expect` files, written by hand for other engines:
//!
//! - `tests/race/NAME.expect`: the `verifier:` label (GPUVerify's race definition as
//!   `weft verify` implements it, paper 002 Def. 2.2; `none` or the races), with the launch in
//!   `args:`. Run with the verifier's defaults.
//! - `tests/mc/**/NAME.expect` (`weft mc`'s labelled kernels): `result: data-race` or
//!   `hetero-race` (scoped RC11, paper 004 §2.1). RC11 races regardless of the values
//!   written, so these run with `--no-benign-tolerance`; every RC11 data race is a race
//!   under the verifier's definition too (only barriers order two threads there; atomic
//!   against plain access, and atomics not mutually in scope, race as well). The model
//!   checker's launch options map onto the verifier's: `--buffer`, `--arg`, `--grid`,
//!   `--block`, `-D` as they are; `--warp-size N` (synchronisation groups of N lanes, no
//!   lock-step) as `--warp-size N --no-lockstep`; each `--launch K<<<G,B>>>(..)` of a kernel
//!   sequence as one verifier run of `K` (launch boundaries order every access of two
//!   launches, so a race of the sequence is a race of one launch, and the verifier's
//!   arbitrary initial memory covers whatever the earlier launches left); `--unroll` is
//!   dropped (the verifier is run in its sound mode, with invariants, not bounded); the
//!   model checker's search options are dropped.
//!
//! Exceptions are data, `tests/verify/soundness-exceptions.tsv` (`PATH<TAB>KIND<TAB>REASON`,
//! PATH the `.expect` file from the repository root): `slow` — beyond CI time in a debug
//! build, run only with `WEFT_VERIFY_ALL=1` (then an error or a time-out, which is no
//! verdict, is accepted, and the time-outs are listed); `undecided` — the verifier cannot
//! decide the kernel and says so (exit 2 or 3), with the reason. Exit 0 is a failure for
//! every kernel, listed or not. An `undecided` kernel that reports an error is reported as a
//! stale entry (the list must shrink as the verifier improves).
//!
//! Race-free kernels are not run here: `verified` is asserted only for `tests/verify/`'s
//! `pass` kernels (weft-verify's `suite` test) and for `tests/race/` kernels race-free under
//! the verifier's definition (`cross_engine.rs`).
//!
//! `WEFT_VERIFY_TIMEOUT` sets the wall-clock limit per run in seconds (default 120; a run
//! past it fails unless listed `slow`). docs/verify.md records the test's time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde_json::Value;

use crate::common::repo;

/// One `weft verify` run of a case (a kernel sequence has one per launch).
#[derive(Clone, Debug)]
struct Run {
    src: PathBuf,
    args: Vec<String>,
}

#[derive(Clone, Debug)]
struct Case {
    /// The `.expect` file, relative to the repository root.
    expect: String,
    /// The race label it carries.
    label: String,
    runs: Vec<Run>,
}

/// `key: value` lines of an `.expect` file (`#` comments and blank lines skipped).
/// The `args:` line of an expect file, split into words.
fn args_of(kv: &BTreeMap<String, String>) -> Vec<String> {
    kv.get("args")
        .map(|a| a.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

fn read_expect(path: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut kv = BTreeMap::new();
    for line in text.lines() {
        let line = line.split(" #").next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (k, v) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("{}: not `key: value`: `{line}`", path.display()));
        kv.insert(k.trim().to_string(), v.trim().to_string());
    }
    kv
}

fn rel(p: &Path) -> String {
    p.strip_prefix(repo())
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}

/// The kernel source beside an `.expect` (`NAME.cu` or `NAME.cl`), or the one its `kernel:`
/// line names (from the repository root).
fn source(expect: &Path, kv: &BTreeMap<String, String>) -> PathBuf {
    if let Some(k) = kv.get("kernel") {
        return repo().join(k);
    }
    ["cu", "cl"]
        .iter()
        .map(|x| expect.with_extension(x))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{}: no kernel source", expect.display()))
}

/// `tests/race/`: the launch options `weft verify` shares with `weft race` (the emulator's
/// scheduling options are dropped).
fn race_args(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--buffer" | "--arg" | "--grid" | "--block" | "--local" | "--kernel" => {
                out.extend(args[i..(i + 2).min(args.len())].iter().cloned());
                i += 2;
            }
            _ if a.starts_with("-D") => {
                out.push(args[i].clone());
                i += 1;
            }
            _ if a.starts_with("--") && args.get(i + 1).is_some_and(|v| !v.starts_with("--")) => {
                i += 2
            }
            _ => i += 1,
        }
    }
    out
}

/// `K<<<G,B>>>(a,b,..)` of `weft mc --launch`: the kernel, grid, block and the scalar
/// arguments by parameter index (buffers are the verifier's arbitrary arrays).
fn launch(spec: &str) -> Option<(String, String, String, Vec<String>)> {
    let (name, rest) = spec.split_once("<<<")?;
    let (shape, rest) = rest.split_once(">>>")?;
    let (grid, block) = shape.split_once(',')?;
    let params = rest.trim().strip_prefix('(')?.strip_suffix(')')?;
    let scalars = params
        .split(',')
        .map(str::trim)
        .enumerate()
        .filter(|(_, a)| a.parse::<i64>().is_ok())
        .map(|(i, a)| format!("{i}={a}"))
        .collect();
    Some((
        name.trim().to_string(),
        grid.trim().to_string(),
        block.trim().to_string(),
        scalars,
    ))
}

/// `tests/mc/`: the model checker's launch options as verifier runs (see the module doc).
fn mc_runs(src: &Path, args: &[String]) -> Vec<Run> {
    let mut common = vec!["--no-benign-tolerance".to_string()];
    let mut launches = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match a {
            "--buffer" | "--arg" | "--grid" | "--block" | "--kernel" => {
                common.extend([a.to_string(), v]);
                i += 2;
            }
            "--warp-size" => {
                common.extend([a.to_string(), v, "--no-lockstep".to_string()]);
                i += 2;
            }
            "--launch" => {
                launches.push(v);
                i += 2;
            }
            _ if a.starts_with("-D") => {
                common.push(a.to_string());
                i += 1;
            }
            // --unroll, --launches, -m, --schedule.. with a value; flags without one.
            _ if a.starts_with("--") && args.get(i + 1).is_some_and(|v| !v.starts_with('-')) => {
                i += 2
            }
            _ => i += 1,
        }
    }
    if launches.is_empty() {
        return vec![Run {
            src: src.to_path_buf(),
            args: common,
        }];
    }
    launches
        .iter()
        .map(|l| {
            let (name, grid, block, scalars) =
                launch(l).unwrap_or_else(|| panic!("{}: bad --launch `{l}`", src.display()));
            // Buffers are bound by host name in a sequence: the verifier's are arbitrary.
            let mut args: Vec<String> = Vec::new();
            let mut it = common.iter();
            while let Some(a) = it.next() {
                if a == "--buffer" {
                    it.next();
                } else {
                    args.push(a.clone());
                }
            }
            args.extend(["--kernel".into(), name, "--grid".into(), grid]);
            args.extend(["--block".into(), block]);
            for s in scalars {
                args.extend(["--arg".to_string(), s]);
            }
            Run {
                src: src.to_path_buf(),
                args,
            }
        })
        .collect()
}

fn expects_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            expects_under(&p, out);
        } else if p.extension().is_some_and(|e| e == "expect") {
            out.push(p);
        }
    }
}

/// Every racy labelled kernel of `tests/race/` and `tests/mc/`.
fn racy_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut race = Vec::new();
    expects_under(&repo().join("tests/race"), &mut race);
    for e in race {
        let kv = read_expect(&e);
        let label = kv
            .get("verifier")
            .unwrap_or_else(|| panic!("{}: no `verifier:` label", e.display()));
        if label == "none" {
            continue;
        }
        let args = args_of(&kv);
        cases.push(Case {
            expect: rel(&e),
            label: format!("verifier: {label}"),
            runs: vec![Run {
                src: source(&e, &kv),
                args: race_args(&args),
            }],
        });
    }
    let mut mc = Vec::new();
    expects_under(&repo().join("tests/mc"), &mut mc);
    for e in mc {
        let kv = read_expect(&e);
        let result = kv
            .get("result")
            .unwrap_or_else(|| panic!("{}: no `result:`", e.display()));
        if result != "data-race" && result != "hetero-race" {
            continue;
        }
        let args = args_of(&kv);
        cases.push(Case {
            expect: rel(&e),
            label: format!("result: {result}"),
            runs: mc_runs(&source(&e, &kv), &args),
        });
    }
    cases
}

/// `tests/verify/soundness-exceptions.tsv`: PATH -> (KIND, REASON).
fn exceptions() -> BTreeMap<String, (String, String)> {
    let path = repo().join("tests/verify/soundness-exceptions.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = BTreeMap::new();
    for l in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = l.splitn(3, '\t').collect();
        assert!(
            f.len() == 3 && matches!(f[1], "slow" | "undecided") && f[2].trim().len() > 10,
            "soundness-exceptions.tsv: `{l}`: want PATH<TAB>slow|undecided<TAB>reason"
        );
        out.insert(f[0].to_string(), (f[1].to_string(), f[2].to_string()));
    }
    out
}

#[derive(Clone, Debug, PartialEq)]
enum Outcome {
    /// Exit 1 with at least one finding.
    Errors,
    Verified,
    /// Exit 2/3 (bad input, solver failure, undecided), with the message.
    Undecided(String),
    /// Past the wall-clock limit.
    Timeout,
}

fn wall_limit() -> Duration {
    Duration::from_secs(
        std::env::var("WEFT_VERIFY_TIMEOUT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(120),
    )
}

fn verify(run: &Run) -> Outcome {
    let mut child = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(repo())
        .arg("verify")
        .arg("--json")
        .args(["--solver-timeout", "30"])
        .arg(&run.src)
        .args(&run.args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run weft verify");
    // Drain the pipes while waiting (a large report must not block the child).
    let mut so = child.stdout.take().expect("stdout");
    let mut se = child.stderr.take().expect("stderr");
    let out_t = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut so, &mut b).ok();
        b
    });
    let err_t = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut se, &mut b).ok();
        b
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break Some(s);
        }
        if start.elapsed() > wall_limit() {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = out_t.join().unwrap_or_default();
    let stderr = err_t.join().unwrap_or_default();
    let Some(status) = status else {
        return Outcome::Timeout;
    };
    let code = status.code().unwrap_or(-1);
    let findings = serde_json::from_slice::<Value>(&stdout)
        .ok()
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .map(|k| k["findings"].as_array().map_or(0, Vec::len))
        .sum::<usize>();
    match code {
        0 => Outcome::Verified,
        1 if findings > 0 => Outcome::Errors,
        _ => Outcome::Undecided(format!(
            "exit {code}, {findings} findings: {}",
            String::from_utf8_lossy(&stderr)
                .lines()
                .last()
                .unwrap_or("")
                .trim()
        )),
    }
}

/// The outcome of a case: errors if any run reports one, else the worst of the others.
fn outcome(case: &Case) -> Outcome {
    let mut worst = Outcome::Verified;
    for r in &case.runs {
        match verify(r) {
            Outcome::Errors => return Outcome::Errors,
            Outcome::Verified => {}
            o => worst = o,
        }
    }
    worst
}

#[test]
fn exceptions_name_racy_labelled_kernels() {
    let cases = racy_cases();
    for (path, (kind, why)) in exceptions() {
        assert!(
            cases.iter().any(|c| c.expect == path),
            "soundness-exceptions.tsv: {path} ({kind}: {why}) is not a racy labelled kernel"
        );
    }
    // The scan found both suites (a moved directory must not empty the test).
    let race = cases
        .iter()
        .filter(|c| c.expect.starts_with("tests/race/"))
        .count();
    let mc = cases.len() - race;
    assert!(race >= 50 && mc >= 40, "racy kernels: {race} race, {mc} mc");
}

/// Hand-derived from the option mapping of the module doc.
#[test]
fn model_checker_launches_map_onto_verifier_runs() {
    let args: Vec<String> = "--buffer buf=4 --unroll 3 --launch p<<<2,4>>>(buf,7) --launch q<<<1,8>>>(buf) --warp-size 4 -DX"
        .split_whitespace()
        .map(String::from)
        .collect();
    let runs = mc_runs(Path::new("k.cu"), &args);
    let got: Vec<String> = runs.iter().map(|r| r.args.join(" ")).collect();
    assert_eq!(
        got,
        [
            "--no-benign-tolerance --warp-size 4 --no-lockstep -DX --kernel p --grid 2 --block 4 --arg 1=7",
            "--no-benign-tolerance --warp-size 4 --no-lockstep -DX --kernel q --grid 1 --block 8",
        ]
    );
    let one = mc_runs(
        Path::new("k.cu"),
        &["--buffer", "0=4", "--stop-on-first", "-m", "ptx"].map(String::from),
    );
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].args.join(" "), "--no-benign-tolerance --buffer 0=4");
}

#[test]
fn no_racy_labelled_kernel_is_verified() {
    if Command::new("clang-19").arg("--version").output().is_err()
        || Command::new("z3").arg("--version").output().is_err()
    {
        eprintln!("clang-19 or z3 not installed: verifier soundness check skipped");
        return;
    }
    let all = std::env::var("WEFT_VERIFY_ALL").is_ok_and(|v| v == "1");
    let exc = exceptions();
    let cases = racy_cases();
    let todo: Vec<usize> = (0..cases.len())
        .filter(|&i| all || exc.get(&cases[i].expect).is_none_or(|e| e.0 != "slow"))
        .collect();
    let skipped = cases.len() - todo.len();
    let results: Vec<(usize, Outcome, f64)> = todo
        .par_iter()
        .map(|&i| {
            let t = Instant::now();
            (i, outcome(&cases[i]), t.elapsed().as_secs_f64())
        })
        .collect();
    let mut problems = Vec::new();
    let mut stale = Vec::new();
    let mut errors = 0;
    for (i, o, secs) in &results {
        let c = &cases[*i];
        let listed = exc.get(&c.expect);
        eprintln!("{}\t{o:?}\t{secs:.1} s", c.expect);
        match o {
            Outcome::Errors => {
                errors += 1;
                if let Some((kind, _)) = listed {
                    if kind == "undecided" {
                        stale.push(format!("{}: reports an error now ({secs:.1} s)", c.expect));
                    }
                }
            }
            Outcome::Verified => problems.push(format!(
                "{}: VERIFIED, but labelled racy ({}) ({secs:.1} s)",
                c.expect, c.label
            )),
            Outcome::Undecided(m) => {
                if listed.is_none_or(|e| e.0 != "undecided") {
                    problems.push(format!(
                        "{}: no error reported ({m}), labelled racy ({}); not listed as undecided in soundness-exceptions.tsv",
                        c.expect, c.label
                    ));
                }
            }
            Outcome::Timeout if listed.is_some_and(|e| e.0 == "slow") => stale.push(format!(
                "{}: still no verdict in {} s (listed slow)",
                c.expect,
                wall_limit().as_secs()
            )),
            Outcome::Timeout => problems.push(format!(
                "{}: no verdict in {} s (labelled racy: {}); list it as slow if it is only CI time",
                c.expect,
                wall_limit().as_secs(),
                c.label
            )),
        }
    }
    eprintln!(
        "verify soundness: {} racy labelled kernels run, {errors} with an error reported, {skipped} slow ones skipped (WEFT_VERIFY_ALL=1 runs them)",
        results.len()
    );
    for s in &stale {
        eprintln!("exception: {s}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
