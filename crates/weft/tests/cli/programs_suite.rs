//! The labelled suite of whole CUDA programs (`tests/programs/`, issue 26 item 5): every
//! `FAMILY/VARIANT.TAG.expect` names one run of the program `FAMILY/FAMILY.cu` built with
//! `-DVARIANT` (uppercased; `ok` builds without a define), its arguments, whether its own
//! CPU check must pass, and the expected `weft race` and `weft memcheck` reports as data:
//! races as `SPACE @A @B` (the memory space and the two source lines, named by `// @MARK`
//! comments), memcheck errors as `KIND SPACE @LINE` (`leak` alone for leaks), or `none`.
//! Each program is built once with `weft cc` (cached under cargo's target directory, rebuilt
//! when its source, the shared header or the `weft` binary is newer), then run with
//! `weft exec`, `weft race --json` and `weft memcheck --json`; precision and recall over the
//! whole suite must both be 100%, and every `output: pass` run must print PASS and exit 0.
//! `WEFT_PROGRAMS=FAMILY[,FAMILY...]` restricts the run, `WEFT_PROGRAMS_DEFINITION=D`
//! passes `--definition D` to `weft race` (the default is what is checked); `scripts/programs-suite.sh` prints
//! the per-run table (this test's output with `--nocapture`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Instant, SystemTime};

use serde_json::Value;

use crate::common::repo;

/// A race (space, lower line, higher line) or a memcheck error (kind, space, line).
type Item = (String, String, u32, u32);

struct Run {
    /// `FAMILY/VARIANT.TAG` or `outside/SUITE/NAME`.
    name: String,
    /// The program: its source (relative to `tests/programs`) and `weft cc` flags.
    program: (String, Vec<String>),
    args: Vec<String>,
    output_pass: bool,
    races: BTreeSet<Item>,
    memcheck: BTreeSet<Item>,
    /// `gap:` a known shortcoming of weft that makes this run differ from its labels (the
    /// labels stay what the program's design implies); reported, not asserted, and the
    /// test fails once the run matches (the line must then go).
    gap: Option<String>,
}

/// `@MARK` -> line number in the program's source (each name on one line only).
fn markers(src: &str) -> HashMap<String, u32> {
    let mut m = HashMap::new();
    for (i, l) in src.lines().enumerate() {
        if let Some(c) = l.find("//") {
            for w in l[c..].split_whitespace() {
                if let Some(name) = w.strip_prefix('@') {
                    // One line per name, whatever `#ifdef` branch it sits in: a name used
                    // twice could not say which line a label means.
                    let old = m.insert(name.to_string(), i as u32 + 1);
                    assert!(old.is_none(), "`// @{name}` names two lines");
                }
            }
        }
    }
    m
}

fn mark(marks: &HashMap<String, u32>, w: &str, what: &str) -> u32 {
    if let Ok(line) = w.parse() {
        return line;
    }
    let n = w
        .strip_prefix('@')
        .unwrap_or_else(|| panic!("{what}: `{w}` is not a @marker"));
    *marks
        .get(n)
        .unwrap_or_else(|| panic!("{what}: no `// @{n}` in the program"))
}

/// `race:` items: `SPACE @A @B; ...` or `none`.
fn parse_races(text: &str, marks: &HashMap<String, u32>, what: &str) -> BTreeSet<Item> {
    let mut s = BTreeSet::new();
    if text.trim() == "none" {
        return s;
    }
    for part in text.split(';') {
        let w: Vec<&str> = part.split_whitespace().collect();
        assert!(
            w.len() == 3,
            "{what}: bad race `{part}` (want `SPACE @A @B`)"
        );
        let (a, b) = (mark(marks, w[1], what), mark(marks, w[2], what));
        s.insert(("race".into(), w[0].to_string(), a.min(b), a.max(b)));
    }
    s
}

/// `memcheck:` items: `KIND SPACE @LINE; leak; ...` or `none`.
fn parse_memcheck(text: &str, marks: &HashMap<String, u32>, what: &str) -> BTreeSet<Item> {
    let mut s = BTreeSet::new();
    if text.trim() == "none" {
        return s;
    }
    for part in text.split(';') {
        let w: Vec<&str> = part.split_whitespace().collect();
        match w.as_slice() {
            ["leak"] => s.insert(("leak".into(), String::new(), 0, 0)),
            [kind, space, m] => {
                let l = mark(marks, m, what);
                s.insert((kind.to_string(), space.to_string(), l, l))
            }
            _ => panic!("{what}: bad memcheck item `{part}` (want `KIND SPACE @LINE` or `leak`)"),
        };
    }
    s
}

/// The `key: value` lines of an expectation file (comments start with `#`).
fn fields(path: &Path, what: &str) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut fields = BTreeMap::new();
    for l in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (k, v) = l
            .split_once(':')
            .unwrap_or_else(|| panic!("{what}: bad line `{l}`"));
        fields.insert(k.trim().to_string(), v.trim().to_string());
    }
    fields
}

/// One run from its fields; `program` is the source and flags to build.
fn run_of(
    name: String,
    f: &BTreeMap<String, String>,
    program: (String, Vec<String>),
    root: &Path,
) -> Run {
    let field = |k: &str| {
        f.get(k)
            .cloned()
            .unwrap_or_else(|| panic!("{name}: no `{k}:` line"))
    };
    let marks = markers(&std::fs::read_to_string(root.join(&program.0)).unwrap());
    let output = field("output");
    assert!(
        output == "pass" || output == "any",
        "{name}: output is pass or any"
    );
    Run {
        args: field("args")
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        output_pass: output == "pass",
        races: parse_races(&field("race"), &marks, &name),
        memcheck: parse_memcheck(&field("memcheck"), &marks, &name),
        gap: f.get("gap").cloned(),
        program,
        name,
    }
}

fn expect_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "expect"))
        .collect();
    files.sort();
    files
}

/// The suite written here: `FAMILY/VARIANT.TAG.expect` runs `FAMILY/FAMILY.cu` built with
/// `-DVARIANT` (uppercased; `ok`: no define).
fn family_runs(root: &Path) -> Vec<Run> {
    let only: Option<Vec<String>> = std::env::var("WEFT_PROGRAMS")
        .ok()
        .map(|v| v.split(',').map(str::to_string).collect());
    let mut families: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    families.sort();
    let mut runs = Vec::new();
    for dir in families {
        let family = dir.file_name().unwrap().to_string_lossy().into_owned();
        if !dir.join(format!("{family}.cu")).exists()
            || only.as_ref().is_some_and(|o| !o.contains(&family))
        {
            continue;
        }
        for f in expect_files(&dir) {
            let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
            let (variant, _tag) = stem
                .split_once('.')
                .unwrap_or_else(|| panic!("{}: name is not VARIANT.TAG.expect", f.display()));
            let name = format!("{family}/{stem}");
            let flags = if variant == "ok" {
                vec![]
            } else {
                vec![format!("-D{}", variant.to_uppercase())]
            };
            let program = (format!("{family}/{family}.cu"), flags);
            runs.push(run_of(name.clone(), &fields(&f, &name), program, root));
        }
    }
    runs
}

/// Programs written elsewhere (`outside/SUITE/NAME.expect`): `source:` (relative to
/// `tests/programs`) and `flags:` (the suite's own build flags) name the program; lines in
/// the labels are plain numbers (the sources are kept unchanged).
fn outside_runs(root: &Path) -> Vec<Run> {
    let mut runs = Vec::new();
    let Ok(suites) = std::fs::read_dir(root.join("outside")) else {
        return runs;
    };
    let mut suites: Vec<PathBuf> = suites
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    suites.sort();
    for dir in suites {
        for f in expect_files(&dir) {
            let name = format!(
                "outside/{}/{}",
                dir.file_name().unwrap().to_string_lossy(),
                f.file_stem().unwrap().to_string_lossy()
            );
            let fl = fields(&f, &name);
            let source = fl
                .get("source")
                .cloned()
                .unwrap_or_else(|| panic!("{name}: no `source:`"));
            let flags = fl
                .get("flags")
                .map(|x| x.split_whitespace().map(str::to_string).collect())
                .unwrap_or_default();
            runs.push(run_of(name.clone(), &fl, (source, flags), root));
        }
    }
    runs
}

fn mtime(p: &Path) -> SystemTime {
    std::fs::metadata(p)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// Newest modification time of `dir`'s files (headers the sources include).
fn newest_in(dir: &Path) -> SystemTime {
    std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| mtime(&e.path())).max())
        .ok()
        .flatten()
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// Builds a program with `weft cc` unless a newer build is cached; the binary's path.
fn build(root: &Path, cache: &Path, program: &(String, Vec<String>)) -> Result<PathBuf, String> {
    let (source, flags) = program;
    let src = root.join(source);
    let mut key = source.trim_end_matches(".cu").replace('/', "-");
    for f in flags {
        key.push('_');
        key.extend(f.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_'));
    }
    let bin = cache.join(key);
    let dir = src.parent().unwrap();
    let newest = [
        mtime(&src),
        newest_in(&root.join("common")),
        newest_in(&dir.join("../lib")),
        mtime(Path::new(env!("CARGO_BIN_EXE_weft"))),
    ]
    .into_iter()
    .max()
    .unwrap();
    if bin.exists() && mtime(&bin) > newest {
        return Ok(bin);
    }
    let o = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(root)
        .arg("cc")
        .arg("-o")
        .arg(&bin)
        .args(flags)
        .arg(source)
        .output()
        .expect("run weft cc");
    if o.status.success() {
        Ok(bin)
    } else {
        Err(format!(
            "weft cc {} {source}: exit {:?}\n{}",
            flags.join(" "),
            o.status.code(),
            String::from_utf8_lossy(&o.stderr)
        ))
    }
}

fn weft_in(root: &Path, args: &[&str], bin: &Path, prog_args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(root)
        .args(args)
        .arg("--timeout")
        .arg("300")
        .arg("--")
        .arg(bin)
        .args(prog_args)
        .output()
        .expect("run weft")
}

/// The JSON report: the last stdout line that is a JSON object (the program's own output
/// comes first).
fn report(o: &Output) -> Option<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .and_then(|l| serde_json::from_str(l).ok())
}

fn line_of(pos: &str) -> u32 {
    pos.rsplit(':')
        .next()
        .and_then(|x| x.parse().ok())
        .unwrap_or(0)
}

fn reported_races(v: &Value) -> BTreeSet<Item> {
    let mut s = BTreeSet::new();
    for r in v["races"].as_array().into_iter().flatten() {
        let a = line_of(r["first"]["line"].as_str().unwrap_or(""));
        let b = line_of(r["second"]["line"].as_str().unwrap_or(""));
        let space = r["space"].as_str().unwrap_or("?").to_string();
        s.insert(("race".into(), space, a.min(b), a.max(b)));
    }
    s
}

/// What `weft memcheck --json` reported, in the label's terms. Two entries are not
/// compute-sanitizer's own: `fault` (the emulator stopped the launch at an access outside
/// every mapped range) is the access it names — `oob` at its line, `global` for an address
/// in the device range, `?` otherwise — and is dropped when an `oob` entry already names
/// that line; `leak` entries of a run whose program stopped on a CUDA error (a launch that
/// ended with one) are the abort's, not a planted leak, and are dropped.
fn reported_memcheck(v: &Value) -> BTreeSet<Item> {
    let mut s = BTreeSet::new();
    let mut faults = Vec::new();
    let aborted = v["launches"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|l| l["error"].as_str().is_some_and(|e| e != "cudaSuccess"));
    for e in v["memcheck"].as_array().into_iter().flatten() {
        let kind = e["kind"].as_str().unwrap_or("?").to_string();
        let what = e["what"].as_str().unwrap_or("");
        match kind.as_str() {
            "leak" if aborted => {}
            "leak" => {
                s.insert(("leak".into(), String::new(), 0, 0));
            }
            "fault" => faults.extend(
                e["detail"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|d| d.as_str())
                    .filter_map(fault_item),
            ),
            _ => {
                let space = ["global", "shared", "local"]
                    .into_iter()
                    .find(|sp| what.contains(&format!("__{sp}__")))
                    .unwrap_or("?");
                let l = line_of(e["at"].as_str().unwrap_or(""));
                s.insert((kind, space.to_string(), l, l));
            }
        }
    }
    for f in faults {
        if !s.iter().any(|(k, _, l, _)| k == "oob" && *l == f.2) {
            s.insert(f);
        }
    }
    s
}

/// `memory fault at FILE:LINE: CTA ... at address 0xA` -> an `oob` item.
fn fault_item(d: &str) -> Option<Item> {
    let rest = d.strip_prefix("memory fault at ")?;
    let pos = rest.split(": ").next()?;
    let line = line_of(pos);
    let addr = rest
        .rsplit("address 0x")
        .next()
        .and_then(|a| u64::from_str_radix(a.trim(), 16).ok())
        .unwrap_or(0);
    let space = if addr >= 1 << 32 { "global" } else { "?" };
    Some(("oob".into(), space.into(), line, line))
}

/// Emulator findings of every launch (memory faults, deadlocks, step limits).
fn findings(v: &Value) -> Vec<String> {
    v["launches"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|l| l["findings"].as_array().into_iter().flatten())
        .filter_map(|f| f.as_str().map(str::to_string))
        .collect()
}

#[derive(Default)]
struct Tally {
    tp: usize,
    fp: usize,
    fneg: usize,
}

impl Tally {
    fn add(&mut self, want: &BTreeSet<Item>, got: &BTreeSet<Item>) -> (usize, usize, usize) {
        let tp = want.intersection(got).count();
        let fp = got.difference(want).count();
        let fneg = want.difference(got).count();
        self.tp += tp;
        self.fp += fp;
        self.fneg += fneg;
        (tp, fp, fneg)
    }

    fn line(&self, what: &str) -> String {
        let p = if self.tp + self.fp == 0 {
            1.0
        } else {
            self.tp as f64 / (self.tp + self.fp) as f64
        };
        let r = if self.tp + self.fneg == 0 {
            1.0
        } else {
            self.tp as f64 / (self.tp + self.fneg) as f64
        };
        format!(
            "{what}: {} expected, {} reported, {} true positives, {} false positives, {} missed; precision {:.1}%, recall {:.1}%",
            self.tp + self.fneg,
            self.tp + self.fp,
            self.tp,
            self.fp,
            self.fneg,
            100.0 * p,
            100.0 * r
        )
    }
}

fn show(s: &BTreeSet<Item>) -> String {
    if s.is_empty() {
        return "none".into();
    }
    s.iter()
        .map(|(k, sp, a, b)| {
            if a == b {
                format!("{k} {sp} {a}")
            } else {
                format!("{k} {sp} {a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Builds every program once, runs every run under `weft exec`, `weft race --json` and
/// `weft memcheck --json`, prints the per-run table and the totals; the problems found.
fn check(runs: &[Run]) -> (usize, Vec<String>) {
    let root = repo().join("tests/programs");
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("programs");
    std::fs::create_dir_all(&cache).unwrap();
    let programs: BTreeSet<(String, Vec<String>)> =
        runs.iter().map(|r| r.program.clone()).collect();
    let t0 = Instant::now();
    let mut bins = HashMap::new();
    let mut problems = Vec::new();
    for p in &programs {
        bins.insert(p.clone(), build(&root, &cache, p));
    }
    let build_s = t0.elapsed().as_secs_f64();
    let (mut races, mut mem) = (Tally::default(), Tally::default());
    let (mut out_ok, mut out_checked) = (0, 0);
    println!(
        "{:<44} {:>6} {:>8} {:>8}  reported race | memcheck",
        "run", "output", "race", "memcheck"
    );
    let mut gaps = Vec::new();
    for r in runs {
        let name = &r.name;
        let before = problems.len();
        let bin = match &bins[&r.program] {
            Ok(b) => b,
            Err(e) => {
                // Nothing reported: every expected item is missed.
                races.add(&r.races, &BTreeSet::new());
                mem.add(&r.memcheck, &BTreeSet::new());
                problems.push(format!("{name}: {e}"));
                if let Some(g) = &r.gap {
                    gaps.push(format!(
                        "{name}: known gap ({g}): {}",
                        problems.pop().unwrap_or_default()
                    ));
                }
                println!("{name:<44} {:>6} {:>8} {:>8}  build failed", "-", "-", "-");
                continue;
            }
        };
        let ex = weft_in(&root, &["exec"], bin, &r.args);
        let out = String::from_utf8_lossy(&ex.stdout).into_owned();
        let passed = ex.status.code() == Some(0) && out.contains("PASS");
        if r.output_pass {
            out_checked += 1;
            if passed {
                out_ok += 1;
            } else {
                problems.push(format!(
                    "{name}: weft exec: exit {:?}, want PASS\n{out}{}",
                    ex.status.code(),
                    String::from_utf8_lossy(&ex.stderr)
                ));
            }
        }
        let definition = std::env::var("WEFT_PROGRAMS_DEFINITION").ok();
        let mut race_args = vec!["race", "--json"];
        if let Some(d) = &definition {
            race_args.extend(["--definition", d.as_str()]);
        }
        let ro = weft_in(&root, &race_args, bin, &r.args);
        let mo = weft_in(&root, &["memcheck", "--json"], bin, &r.args);
        let (rv, mv) = (report(&ro), report(&mo));
        let got_r = rv.as_ref().map(reported_races).unwrap_or_default();
        let got_m = mv.as_ref().map(reported_memcheck).unwrap_or_default();
        if rv.is_none() || mv.is_none() {
            problems.push(format!(
                "{name}: no JSON report (race exit {:?}, memcheck exit {:?})\n{}{}",
                ro.status.code(),
                mo.status.code(),
                String::from_utf8_lossy(&ro.stderr),
                String::from_utf8_lossy(&mo.stderr)
            ));
        }
        let (_, rfp, rfn) = races.add(&r.races, &got_r);
        let (_, mfp, mfn) = mem.add(&r.memcheck, &got_m);
        if rfp + rfn > 0 {
            problems.push(format!(
                "{name}: race: expected {}, reported {}",
                show(&r.races),
                show(&got_r)
            ));
        }
        if mfp + mfn > 0 {
            problems.push(format!(
                "{name}: memcheck: expected {}, reported {}",
                show(&r.memcheck),
                show(&got_m)
            ));
        }
        // A clean run is clean everywhere: no emulator finding, exit 0 under both tools.
        if r.races.is_empty() && r.memcheck.is_empty() {
            let f = rv.as_ref().map(findings).unwrap_or_default();
            if !f.is_empty() {
                problems.push(format!("{name}: findings in a clean run: {f:?}"));
            }
            if r.output_pass && (ro.status.code() != Some(0) || mo.status.code() != Some(0)) {
                problems.push(format!(
                    "{name}: clean run exits race {:?}, memcheck {:?}",
                    ro.status.code(),
                    mo.status.code()
                ));
            }
        } else if !r.races.is_empty() && ro.status.code() != Some(1) {
            problems.push(format!(
                "{name}: race found but exit {:?}",
                ro.status.code()
            ));
        }
        if let Some(g) = &r.gap {
            let found: Vec<String> = problems.drain(before..).collect();
            if found.is_empty() {
                problems.push(format!("{name}: matches its labels now; remove `gap: {g}`"));
            } else {
                gaps.push(format!("{name}: known gap ({g}): {}", found.join("; ")));
            }
        }
        println!(
            "{name:<44} {:>6} {:>8} {:>8}  {} | {}",
            if passed { "PASS" } else { "-" },
            if rfp + rfn == 0 { "ok" } else { "MISMATCH" },
            if mfp + mfn == 0 { "ok" } else { "MISMATCH" },
            show(&got_r),
            show(&got_m)
        );
    }
    println!(
        "{} programs, {} runs; builds {build_s:.1} s, all {:.1} s",
        programs.len(),
        runs.len(),
        t0.elapsed().as_secs_f64()
    );
    println!(
        "outputs: {out_ok} of {out_checked} runs labelled `pass` printed PASS under weft exec"
    );
    println!("{}", races.line("races"));
    println!("{}", mem.line("memcheck"));
    println!(
        "{} runs with a known gap (counted above, not asserted):",
        gaps.len()
    );
    for g in &gaps {
        println!("  {g}");
    }
    (programs.len(), problems)
}

#[test]
fn programs_suite_precision_and_recall() {
    let runs = family_runs(&repo().join("tests/programs"));
    let (programs, problems) = check(&runs);
    assert!(
        programs >= 60 || std::env::var("WEFT_PROGRAMS").is_ok(),
        "the suite has {programs} programs"
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Planted-bug programs written elsewhere (Indigo3, `tests/programs/outside/`), built with
/// their suite's own flags and run as their authors run them.
#[test]
#[ignore = "about 40 s more in a debug build: run by scripts/programs-suite.sh outside"]
fn outside_programs_precision_and_recall() {
    let runs = outside_runs(&repo().join("tests/programs"));
    let (_, problems) = check(&runs);
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
