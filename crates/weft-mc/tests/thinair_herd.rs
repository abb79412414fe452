//! Executions with dependency cycles built by value speculation (`weft_mc::speculate`)
//! against herd7 7.57's output on the same C tests with the same `.cat` models
//! (`tests/mc/thinair/herd/`: `herd7-MODEL.txt` is herd7's output, its README says how it
//! was produced): the same states (herd7's symbolic values `S8`, `S9`, ... read as weft's
//! `S`), verdict, positive and negative counts, and no no-thin-air note.

use std::path::{Path, PathBuf};

use weft_mc::{check_litmus, McOptions};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/mc/thinair/herd")
}

/// A herd block reduced to what both tools must agree on: state lines sorted, symbolic
/// values unnamed, `Time`/`Hash` lines dropped.
fn normalise(block: &str) -> Vec<String> {
    let mut head = Vec::new();
    let mut states = Vec::new();
    let mut in_states = false;
    for l in block.lines().map(str::trim_end) {
        if l.is_empty() || l.starts_with("Time ") || l.starts_with("Hash=") {
            continue;
        }
        if l.starts_with("States ") {
            in_states = true;
            head.push(l.to_string());
            continue;
        }
        if in_states && l.contains('=') && l.ends_with(';') {
            let mut s = String::new();
            let mut chars = l.chars().peekable();
            while let Some(c) = chars.next() {
                s.push(c);
                if c == '=' && chars.peek() == Some(&'S') {
                    s.push(chars.next().unwrap());
                    while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                        chars.next();
                    }
                }
            }
            states.push(s);
            continue;
        }
        in_states = false;
        head.push(l.to_string());
    }
    states.sort();
    head.extend(states);
    head
}

#[test]
fn speculated_executions_match_herd7() {
    let mut compared = 0;
    for model in ["rc11-nonta", "coherence-only"] {
        let cat_path = dir().join(format!("{model}.cat"));
        let name = cat_path.to_str().unwrap().to_string();
        let cat = weft_exec::models::load(&name).unwrap();
        let herd = std::fs::read_to_string(dir().join(format!("herd7-{model}.txt"))).unwrap();
        for block in herd.split("\nTest ").map(|b| b.trim_start_matches("Test ")) {
            let test = block.split_whitespace().next().unwrap();
            let path = dir().join(format!("{test}.litmus"));
            let src = std::fs::read_to_string(&path).unwrap();
            let p = weft_litmus::parse(&src).unwrap_or_else(|e| panic!("{test}: {e:?}"));
            let r = check_litmus(&p, &name, &cat, &McOptions::default()).unwrap();
            assert!(
                r.dep_cycles.is_empty(),
                "{model} {test}: note {:?}",
                r.dep_cycles
            );
            assert!(
                !weft_mc::thinair::dep_cycles(&p, false).is_empty(),
                "{test} has no dependency cycle: it tests nothing here"
            );
            let mut out = Vec::new();
            r.sim.herd_write(&p, &mut out).unwrap();
            let ours = String::from_utf8(out).unwrap();
            assert_eq!(
                normalise(&ours),
                normalise(&format!("Test {block}")),
                "{model} {test}:\n{ours}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 16);
}
