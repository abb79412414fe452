//! Kernel repair (`weft mc FILE.cu|.cl --repair`, paper 004 §4.1) against expected results
//! stored as data: every `tests/mc/repair/NAME.expect-repair` names a kernel (`NAME.cu` /
//! `NAME.cl` beside it, or `kernel: PATH` from the repository root, such as a Table 1
//! benchmark) with the launch `args:`, the expected outcome (`result: race-free` or
//! `refused`, with a `refused:` substring of the reason), the number of racing statement
//! pairs (`races:`), the number of lines changed (`lines:`) and every edit
//! (`edit: FILE:LINE: new text`), all derived by hand (the derivation is the `reason:`).
//! The kernel (with the local files it includes) is copied to a scratch directory, repaired
//! there, and a race-free repair is verified again: `weft mc NAME.repaired.EXT` with the same
//! launch must find no race.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common::repo;

struct Expect {
    kernel: PathBuf,
    args: Vec<String>,
    race_free: bool,
    refused: Option<String>,
    races: u64,
    lines: u64,
    edits: BTreeSet<(String, String)>,
}

fn parse(path: &Path) -> Expect {
    let text = std::fs::read_to_string(path).unwrap();
    let mut kv = BTreeMap::new();
    let mut edits = BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (k, v) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("{}: `{line}` is not `key: value`", path.display()));
        if k == "edit" {
            // FILE:LINE: text
            let mut it = v.splitn(3, ':');
            let (f, l, t) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
            edits.insert((format!("{f}:{l}"), t.trim().to_string()));
        } else {
            kv.insert(k.to_string(), v.trim().to_string());
        }
    }
    assert!(kv.contains_key("reason"), "{}: no reason", path.display());
    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
    let kernel = match kv.get("kernel") {
        Some(k) => repo().join(k),
        None => {
            let cu = path.with_file_name(format!("{stem}.cu"));
            if cu.exists() {
                cu
            } else {
                path.with_file_name(format!("{stem}.cl"))
            }
        }
    };
    let result = kv.get("result").expect("result:").clone();
    assert!(
        result == "race-free" || result == "refused",
        "{}: result `{result}`",
        path.display()
    );
    Expect {
        kernel,
        args: kv
            .get("args")
            .map(|a| a.split_whitespace().map(String::from).collect())
            .unwrap_or_default(),
        race_free: result == "race-free",
        refused: kv.get("refused").cloned(),
        races: kv["races"].parse().unwrap(),
        lines: kv["lines"].parse().unwrap(),
        edits,
    }
}

/// Copies `kernel` and the local files it includes (`#include "X"`) into `dir`.
fn copy_with_includes(kernel: &Path, dir: &Path) -> PathBuf {
    let src = std::fs::read_to_string(kernel).unwrap();
    let to = dir.join(kernel.file_name().unwrap());
    std::fs::write(&to, &src).unwrap();
    for l in src.lines() {
        if let Some(name) = l
            .trim()
            .strip_prefix("#include \"")
            .and_then(|r| r.split_once('"'))
            .map(|x| x.0)
        {
            let inc = kernel.with_file_name(name);
            if inc.exists() {
                copy_with_includes(&inc, dir);
            }
        }
    }
    to
}

fn weft(args: &[&str], extra: &[String]) -> (Option<i32>, Value, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    let v = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
    (o.status.code(), v, stderr)
}

fn check(exp: &Path, scratch: &Path) -> Result<(), String> {
    let e = parse(exp);
    let dir = scratch.join(exp.file_stem().unwrap());
    std::fs::create_dir_all(&dir).unwrap();
    let k = copy_with_includes(&e.kernel, &dir);
    let ks = k.display().to_string();
    let (code, v, stderr) = weft(&["mc", &ks, "--repair", "--json"], &e.args);
    if v.is_null() {
        return Err(format!("no JSON; exit {code:?}; stderr: {stderr}"));
    }
    if code != Some(1) {
        return Err(format!("expected exit 1 (races found), got {code:?}"));
    }
    if v["race_free"].as_bool() != Some(e.race_free) {
        return Err(format!(
            "race_free {} (refused: {})",
            v["race_free"], v["refused"]
        ));
    }
    if let Some(r) = &e.refused {
        if !v["refused"].as_str().unwrap_or("").contains(r.as_str()) {
            return Err(format!("refused `{}`, expected `{r}`", v["refused"]));
        }
    }
    if v["races"].as_u64() != Some(e.races) || v["lines_changed"].as_u64() != Some(e.lines) {
        return Err(format!(
            "races {} lines {}, expected {} and {}",
            v["races"], v["lines_changed"], e.races, e.lines
        ));
    }
    let mut got = BTreeSet::new();
    for round in v["rounds"].as_array().cloned().unwrap_or_default() {
        for ed in round["edits"].as_array().cloned().unwrap_or_default() {
            let f = ed["file"].as_str().unwrap_or("");
            let f = f.rsplit('/').next().unwrap_or(f);
            got.insert((
                format!("{f}:{}", ed["line"]),
                ed["new"].as_str().unwrap_or("").trim().to_string(),
            ));
        }
    }
    if got != e.edits {
        return Err(format!("edits {got:?}, expected {:?}", e.edits));
    }
    if e.race_free {
        let out = v["repaired_file"].as_str().unwrap_or("").to_string();
        if !Path::new(&out).exists() {
            return Err(format!("no repaired file `{out}`"));
        }
        // The repaired kernel, checked again on its own: no race.
        let (code, w, stderr) = weft(&["mc", &out, "--json"], &e.args);
        let kinds: Vec<String> = w["errors"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .filter_map(|x| x["kind"].as_str().map(String::from))
            .collect();
        if w.is_null() || kinds.iter().any(|k| k.contains("race")) || !w["stopped"].is_null() {
            return Err(format!(
                "re-check of {out}: errors {kinds:?}, stopped {}, exit {code:?}, {stderr}",
                w["stopped"]
            ));
        }
    } else if dir.read_dir().unwrap().any(|f| {
        f.unwrap()
            .file_name()
            .to_string_lossy()
            .contains(".repaired.")
    }) {
        return Err("a refused repair wrote a file".into());
    }
    Ok(())
}

#[test]
fn kernels_are_repaired_with_the_expected_edits() {
    let root = repo().join("tests/mc/repair");
    let scratch = std::env::temp_dir().join(format!("weft-mc-repair-{}", std::process::id()));
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "expect-repair"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 6, "at least 6 kernel repair cases");
    let mut failures = Vec::new();
    for c in &cases {
        if let Err(m) = check(c, &scratch) {
            failures.push(format!("{}: {m}", c.display()));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ptx_and_race_free_kernels() {
    let dir = std::env::temp_dir().join(format!("weft-mc-repair-free-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A race-free kernel: exit 0, nothing written.
    let k = dir.join("free.cu");
    std::fs::write(
        &k,
        "//--blockDim=1 --gridDim=2\n#include <weft_cuda.h>\n__global__ void free_add(int *x) {\n  atomicAdd(&x[0], 1);\n}\n",
    )
    .unwrap();
    let (code, v, _) = weft(
        &["mc", &k.display().to_string(), "--repair", "--json"],
        &["--buffer".into(), "0=1".into()],
    );
    assert_eq!(code, Some(0));
    assert_eq!(v["races"], 0);
    assert!(!dir.join("free.repaired.cu").exists());
    // PTX is not edited: bad input.
    let p = dir.join("k.ptx");
    std::fs::write(&p, "").unwrap();
    let (code, _, stderr) = weft(&["mc", &p.display().to_string(), "--repair"], &[]);
    assert_eq!(code, Some(2), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
