//! The labelled race suite (`tests/race/`): every kernel `NAME.cu`/`NAME.cl` has
//! `NAME.expect` with its launch arguments and, per race definition, the races (kind and
//! the two source lines, named by `// @MARK` comments in the kernel) or `none`. Each kernel
//! is compiled once (clang-19) and checked with `weft race --json` under the definitions
//! `weft race` implements (`barracuda`, `scoped`); precision and recall must both be 100%.
//! Labels for other engines (`scoped-rc11`, `verifier`) are data for cross-engine tests and
//! are not checked here. A second pass runs the instrumented-PTX path with preemption on
//! the kernels that synchronise through atomics or fences (`barracuda` labels).

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use crate::common::repo as root;

type Item = (String, u32, u32);

/// `@MARK` → line number.
fn markers(src: &str) -> HashMap<String, u32> {
    let mut m = HashMap::new();
    for (i, l) in src.lines().enumerate() {
        if let Some(c) = l.find("//") {
            for w in l[c..].split_whitespace() {
                if let Some(name) = w.strip_prefix('@') {
                    let name = name.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_');
                    m.insert(name.to_string(), i as u32 + 1);
                }
            }
        }
    }
    m
}

/// `kind @A @B; kind @C @D` or `none`.
fn parse_label(text: &str, marks: &HashMap<String, u32>, what: &str) -> BTreeSet<Item> {
    let mut s = BTreeSet::new();
    let text = text.trim();
    if text == "none" {
        return s;
    }
    for part in text.split(';') {
        let w: Vec<&str> = part.split_whitespace().collect();
        assert!(
            w.len() == 3,
            "{what}: bad race `{part}` (want `kind @A @B`)"
        );
        let line = |m: &str| -> u32 {
            let n = m
                .strip_prefix('@')
                .unwrap_or_else(|| panic!("{what}: `{m}` is not a @marker"));
            *marks
                .get(n)
                .unwrap_or_else(|| panic!("{what}: no `// @{n}` in the kernel"))
        };
        let (a, b) = (line(w[1]), line(w[2]));
        s.insert((w[0].to_string(), a.min(b), a.max(b)));
    }
    s
}

fn line_of(pos: &str) -> u32 {
    pos.rsplit(':')
        .next()
        .and_then(|x| x.parse().ok())
        .unwrap_or(0)
}

/// What `weft race --json` reported, in the label's terms.
fn reported(v: &Value, file_name: &str) -> BTreeSet<Item> {
    let mut s = BTreeSet::new();
    for r in v["races"].as_array().expect("races") {
        let a = line_of(r["first"]["line"].as_str().unwrap_or(""));
        let b = line_of(r["second"]["line"].as_str().unwrap_or(""));
        s.insert((r["kind"].as_str().unwrap().to_string(), a.min(b), a.max(b)));
    }
    for f in v["findings"].as_array().expect("findings") {
        let f = f.as_str().unwrap();
        let kind = if f.starts_with("barrier divergence") {
            "barrier-divergence"
        } else if f.starts_with("deadlock") {
            "deadlock"
        } else if f.starts_with("warp-sync divergence") {
            "warp-sync-divergence"
        } else {
            s.insert((format!("finding: {f}"), 0, 0));
            continue;
        };
        let lines: Vec<u32> = f
            .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
            .filter_map(|w| w.strip_prefix(&format!("{file_name}:")))
            .filter_map(|n| {
                n.trim_end_matches(|c: char| !c.is_ascii_digit())
                    .parse()
                    .ok()
            })
            .collect();
        let (a, b) = (
            lines.iter().copied().min().unwrap_or(0),
            lines.iter().copied().max().unwrap_or(0),
        );
        s.insert((kind.into(), a, b));
    }
    s
}

#[test]
fn race_suite_precision_and_recall() {
    check_suite(&["barracuda", "scoped"], &[], |_| true, 70);
}

/// The instrumented-PTX path (paper 003 §4.1) with preemption: three schedules, warps
/// switched every 64 instructions, on every kernel that synchronises through atomics or
/// fences. The decoder replays the queue in ticket order, so a lock's acquisition must
/// not be replayed before the release it read (the ticket-order fix in
/// `weft_instrument::rewrite`; before it, 13 of these kernels showed false races).
#[test]
fn instrumented_traces_keep_the_labels_under_preemption() {
    let syncs = |src: &str| {
        ["atomic", "threadfence", "volatile", "mem_fence"]
            .iter()
            .any(|w| src.contains(w))
    };
    check_suite(
        &["barracuda"],
        &["--instrumented", "--schedules", "3"],
        syncs,
        50,
    );
}

/// Runs `weft race --json` with `extra` on every suite kernel whose source `select`
/// accepts, under each definition of `defs`, and requires exactly the labelled races.
fn check_suite(defs: &[&str], extra: &[&str], select: impl Fn(&str) -> bool, at_least: usize) {
    if Command::new("clang-19").arg("--version").output().is_err() {
        eprintln!("clang-19 not installed: race suite skipped");
        return;
    }
    let weft = env!("CARGO_BIN_EXE_weft");
    let dir = root().join("tests/race");
    let mut expects: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/race")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "expect"))
        .collect();
    expects.sort();
    let tmp = std::env::temp_dir().join(format!(
        "weft-race-suite-{}-{}",
        std::process::id(),
        extra.len()
    ));
    std::fs::create_dir_all(&tmp).unwrap();
    let (mut tp, mut fp, mut fneg, mut kernels, mut racy, mut free) = (0, 0, 0, 0, 0, 0);
    let mut problems = Vec::new();
    for e in &expects {
        let stem = e.file_stem().unwrap().to_str().unwrap().to_string();
        let src = ["cu", "cl"]
            .iter()
            .map(|x| e.with_extension(x))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("{}: no kernel source", e.display()));
        let ext = src.extension().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&src).unwrap();
        if !select(&text) {
            continue;
        }
        let marks = markers(&text);
        let exp = std::fs::read_to_string(e).unwrap();
        let mut labels: HashMap<String, String> = HashMap::new();
        let mut args: Vec<String> = Vec::new();
        for l in exp.lines() {
            let l = l.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let (k, v) = l
                .split_once(':')
                .unwrap_or_else(|| panic!("{stem}.expect: `{l}`"));
            if k.trim() == "args" {
                args = v.split_whitespace().map(String::from).collect();
            } else {
                labels.insert(k.trim().to_string(), v.trim().to_string());
            }
        }
        kernels += 1;
        // Compile once: the PTX beside a copy of the source (parameter names, header).
        let csrc = tmp.join(format!("{stem}.{ext}"));
        std::fs::copy(&src, &csrc).unwrap();
        let ptx = Command::new(weft).arg("ptx").arg(&src).output().unwrap();
        assert!(
            ptx.status.success(),
            "{stem}: weft ptx failed: {}",
            String::from_utf8_lossy(&ptx.stderr)
        );
        let ptx_path = tmp.join(format!("{stem}.ptx"));
        std::fs::write(&ptx_path, &ptx.stdout).unwrap();
        let bar = labels
            .get("barracuda")
            .unwrap_or_else(|| panic!("{stem}: no barracuda label"))
            .clone();
        for &def in defs {
            let label = match labels.get(def).map(String::as_str) {
                None | Some("same") => bar.clone(),
                Some(x) => x.to_string(),
            };
            let want = parse_label(&label, &marks, &format!("{stem}.expect {def}"));
            if def == "barracuda" {
                if want.is_empty() {
                    free += 1
                } else {
                    racy += 1
                }
            }
            let out = Command::new(weft)
                .arg("race")
                .arg(&ptx_path)
                .args(&args)
                .args(extra)
                .args(["--json", "--definition", def])
                .output()
                .unwrap();
            let code = out.status.code().unwrap_or(-1);
            let v: Value = match serde_json::from_slice(&out.stdout) {
                Ok(v) => v,
                Err(_) => {
                    problems.push(format!(
                        "{stem} [{def}]: exit {code}, no JSON: {}",
                        String::from_utf8_lossy(&out.stderr)
                    ));
                    fneg += want.len();
                    continue;
                }
            };
            let got = reported(&v, &format!("{stem}.{ext}"));
            let expected_code = if want.is_empty() { 0 } else { 1 };
            if code != expected_code {
                problems.push(format!(
                    "{stem} [{def}]: exit {code}, expected {expected_code}"
                ));
            }
            for w in &want {
                if got.contains(w) {
                    tp += 1;
                } else {
                    fneg += 1;
                    problems.push(format!("{stem} [{def}]: missed {w:?}"));
                }
            }
            for g in &got {
                if !want.contains(g) {
                    fp += 1;
                    problems.push(format!("{stem} [{def}]: unexpected {g:?}"));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "race suite {extra:?}: {kernels} kernels ({racy} racy, {free} race-free under barracuda); {tp} expected reports found, {fp} false positives, {fneg} missed"
    );
    assert!(
        kernels >= at_least,
        "the suite has {kernels} selected kernels (at least {at_least} expected)"
    );
    assert!(
        problems.is_empty(),
        "precision/recall below 100%:\n{}",
        problems.join("\n")
    );
}
