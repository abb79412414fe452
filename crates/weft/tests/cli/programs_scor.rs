//! ScoR's 32 scoped-race microbenchmarks (csl-iisc/ScoR, ISCA 2020 ScoRD) run as whole
//! programs with default options (issue 26): each is built as ScoR's Makefile builds it
//! (`nvcc -arch=compute_60`, here `weft cc -arch=compute_60`), then `weft race -- ./app`,
//! `weft race FILE.cu` and `weft memcheck -- ./app` run it. The expected verdict of each
//! is the `program` column of `tests/race/scor-labels.tsv` (ScoR's label from the file name,
//! or, where weft's definition differs, the verdict that definition gives with the reason in
//! `program_why`; docs/race.md, "ScoR microbenchmarks"). The sources carry no licence, so
//! they are not in this repository: `WEFT_SCOR_DIR` names a checkout of ScoR at the TSV's
//! commit (its `microbenchmarks/src/*.cu`), by default `/work/scor`. Ignored: run by
//! `scripts/programs-suite.sh outside` (about 2 minutes in a debug build).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use serde_json::Value;

use crate::common::repo;

struct Bench {
    name: String,
    label: String,
    program: String,
}

fn benches() -> Vec<Bench> {
    let text = std::fs::read_to_string(repo().join("tests/race/scor-labels.tsv")).unwrap();
    let mut rows = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty());
    let header: Vec<&str> = rows.next().unwrap().split('\t').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    let (name, label, program) = (col("name"), col("label"), col("program"));
    rows.map(|r| {
        let f: Vec<&str> = r.split('\t').collect();
        Bench {
            name: f[name].into(),
            label: f[label].into(),
            program: f[program].into(),
        }
    })
    .collect()
}

fn weft(args: &[&str]) -> (Output, f64) {
    let t = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("run weft");
    (o, t.elapsed().as_secs_f64())
}

fn last_json(o: &Output) -> Value {
    let out = String::from_utf8_lossy(&o.stdout);
    let line = out
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or("{}");
    serde_json::from_str(line).unwrap_or(Value::Null)
}

/// `race` (exit 1 with races), `none` (exit 0, no race), or what went wrong.
fn verdict(o: &Output) -> String {
    let v = last_json(o);
    let races = v["races"].as_array().map_or(0, Vec::len);
    match (o.status.code(), races) {
        (Some(1), n) if n > 0 => "race".into(),
        (Some(0), 0) => "none".into(),
        (c, n) => format!("exit {c:?} with {n} races"),
    }
}

#[test]
#[ignore = "needs ScoR's sources (WEFT_SCOR_DIR, default /work/scor): run by scripts/programs-suite.sh outside"]
fn scor_programs_with_default_options() {
    let dir = PathBuf::from(std::env::var("WEFT_SCOR_DIR").unwrap_or("/work/scor".into()));
    let src_dir = dir.join("microbenchmarks/src");
    assert!(
        src_dir.is_dir(),
        "{}: no ScoR checkout (fetch csl-iisc/ScoR at the commit in tests/race/scor-labels.tsv and set WEFT_SCOR_DIR)",
        src_dir.display()
    );
    let bin_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("scor");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let (mut tp, mut fp, mut fneg, mut tn) = (0, 0, 0, 0);
    let mut problems = Vec::new();
    println!(
        "{:<48} {:>6} {:>6} {:>6} {:>7} {:>7} {:>9}",
        "benchmark", "label", "want", "race", "race s", "src s", "memcheck"
    );
    let benches = benches();
    assert_eq!(benches.len(), 32, "ScoR has 32 microbenchmarks");
    for b in &benches {
        let src = src_dir.join(format!("{}.cu", b.name));
        let (s, app) = (src.to_str().unwrap(), bin_dir.join(&b.name));
        let (o, _) = weft(&["cc", "-arch=compute_60", "-o", app.to_str().unwrap(), s]);
        if !o.status.success() {
            problems.push(format!(
                "{}: weft cc: {}",
                b.name,
                String::from_utf8_lossy(&o.stderr)
            ));
            continue;
        }
        let (ro, rs) = weft(&["race", "--json", "--", app.to_str().unwrap()]);
        let (so, ss) = weft(&["race", "--json", s]);
        // ScoR's `main` never frees its buffer: the one leak is real; access errors are
        // checked without the leak check.
        let (mo, _) = weft(&[
            "memcheck",
            "--leak-check",
            "no",
            "--json",
            "--",
            app.to_str().unwrap(),
        ]);
        let (got, from_src) = (verdict(&ro), verdict(&so));
        let mem = last_json(&mo)["memcheck"].as_array().map_or(0, Vec::len);
        println!(
            "{:<48} {:>6} {:>6} {:>6} {:>7.2} {:>7.2} {:>9}",
            b.name, b.label, b.program, got, rs, ss, mem
        );
        if got != b.program {
            problems.push(format!(
                "{}: weft race -- ./app: {got}, want {}",
                b.name, b.program
            ));
        }
        if from_src != got {
            problems.push(format!(
                "{}: weft race FILE.cu: {from_src}, ./app: {got}",
                b.name
            ));
        }
        if mo.status.code() != Some(0) || mem != 0 {
            problems.push(format!(
                "{}: memcheck: exit {:?}, {mem} errors",
                b.name,
                mo.status.code()
            ));
        }
        match (b.label == "race", got == "race") {
            (true, true) => tp += 1,
            (false, true) => fp += 1,
            (true, false) => fneg += 1,
            (false, false) => tn += 1,
        }
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / (a + b).max(1) as f64;
    println!(
        "against ScoR's labels, 32 programs: {tp} TP, {fp} FP, {fneg} FN, {tn} TN; precision {:.1}%, recall {:.1}%",
        pct(tp, fp),
        pct(tp, fneg)
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
