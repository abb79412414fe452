//! Race flags under `filter`, against Dat3M's data-race verdicts (issue 28, item 5;
//! `tests/mc/dat3m-vulkan-dr.csv`): Dat3M checks races only in the executions a test's
//! `filter` keeps, and so do `weft sim` and `weft mc` (both drop filtered executions before
//! the model's flags are counted). Each row's test is the Kronos-Group test of the shared
//! corpus with its condition made a filter, as Dat3M's `Data-Race/NAME-filter.litmus` is;
//! the `data-race` flag must be raised by both engines exactly when Dat3M's verdict is 0.
//! Five of these (ssw0, ssw1, ssw5, ssw6, ssw7) were flagged before 2026-11-28 because
//! `models/vulkan.cat` let only non-private accesses of one storage class take part in
//! the device domain (avdevice/visdevice) and did not order a read before a
//! system-synchronizes-with chain with the accesses after it.

use std::path::{Path, PathBuf};

use weft_mc::{check_litmus, McOptions};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `src` with its final condition replaced by `filter COND` (the Kronos condition when
/// `cond` is `None`).
fn as_filter(src: &str, cond: Option<&str>) -> String {
    let at = src
        .rfind("\nexists")
        .or_else(|| src.rfind("\n~exists"))
        .or_else(|| src.rfind("\nforall"))
        .expect("a final condition");
    let head = &src[..at];
    let tail = src[at + 1..].trim_start_matches('~');
    let old = tail
        .trim_start_matches("exists")
        .trim_start_matches("forall")
        .trim();
    format!("{head}\nfilter\n{}\n", cond.unwrap_or(old))
}

#[test]
fn vulkan_race_flags_follow_the_filter_as_dat3m() {
    let kronos = root().join("../shared/corpus/dat3m/litmus/VULKAN/Kronos-Group");
    if !kronos.is_dir() {
        eprintln!("skipped: {} not found", kronos.display());
        return;
    }
    let rows = std::fs::read_to_string(root().join("tests/mc/dat3m-vulkan-dr.csv")).unwrap();
    let model = weft_sim::models::load("vulkan").unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    for l in rows
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut f = l.splitn(3, ',');
        let (name, verdict, cond) = (f.next().unwrap(), f.next().unwrap(), f.next());
        let racy = verdict.trim() == "0";
        let src = std::fs::read_to_string(kronos.join(format!("{name}.litmus"))).unwrap();
        let text = as_filter(&src, cond);
        let p = weft_litmus::parse(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(p.filter.is_some(), "{name}: no filter");
        let sim = weft_sim::sim::simulate(&p, &model, &weft_sim::sim::SimOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let mc = check_litmus(&p, "vulkan", &model, &McOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let s = sim.flags.contains_key("data-race");
        let m = mc.sim.flags.contains_key("data-race");
        if s != racy || m != racy {
            failures.push(format!(
                "{name}: Dat3M {}, weft sim {}, weft mc {}",
                if racy { "racy" } else { "race-free" },
                if s { "racy" } else { "race-free" },
                if m { "racy" } else { "race-free" }
            ));
        }
        n += 1;
    }
    assert!(n >= 11, "{n} rows");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
