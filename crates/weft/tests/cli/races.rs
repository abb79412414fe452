//! Race flags of the bundled models (issue 11, item 3), checked through `weft sim
//! --expect-races` as a user runs it, against our own race tests whose verdicts were
//! derived by hand from the specifications (each test's reason is in its doc string and
//! in the README of its directory): Vulkan (`tests/corpus/vulkan-races`, the Vulkan
//! memory model's data races), PTX (`tests/corpus/ptx-races`, data races of the PTX
//! memory model: neither morally strong nor causality-ordered) and scoped RC11
//! (`tests/corpus/scoped-races`, paper 004 §2.1's data and heterogeneous races).

use crate::common::{repo, weft};

/// (model, test directory, rows in its expected-races.csv).
const SUITES: &[(&str, &str, usize)] = &[
    ("vulkan", "tests/corpus/vulkan-races", 27),
    ("vulkan-nochains", "tests/corpus/vulkan-races", 27),
    ("ptx-v7.5", "tests/corpus/ptx-races", 11),
    ("ptx-v6.0", "tests/corpus/ptx-races", 11),
    ("scoped-rc11", "tests/corpus/scoped-races", 9),
];

#[test]
fn race_flags_match_the_hand_derived_verdicts() {
    let mut failures = Vec::new();
    for (model, dir, rows) in SUITES {
        let csv = format!("{dir}/expected-races.csv");
        let o = weft(&["sim", "-m", model, "--expect-races", &csv, dir]);
        let text = String::from_utf8_lossy(&o.stdout);
        let want = format!("{rows} passed, 0 failed");
        if !o.status.success() || text.lines().last() != Some(want.as_str()) {
            failures.push(format!("{model} on {dir}: want `{want}`, got\n{text}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_suite_has_racy_and_race_free_tests() {
    // A suite of only one verdict could not tell a flag that never (or always) fires.
    for (_, dir, rows) in SUITES {
        let text = std::fs::read_to_string(repo().join(dir).join("expected-races.csv")).unwrap();
        let verdicts: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("//") && !l.trim().is_empty())
            .filter_map(|l| l.rsplit(',').next())
            .collect();
        assert_eq!(verdicts.len(), *rows, "{dir}");
        assert!(verdicts.contains(&"0") && verdicts.contains(&"1"), "{dir}");
    }
}

#[test]
fn vulkan_suite_has_twenty_tests_covering_each_category() {
    let dir = repo().join("tests/corpus/vulkan-races");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".litmus"))
        .collect();
    assert!(names.len() >= 20);
    let src = |needle: &str| {
        names.iter().any(|n| {
            std::fs::read_to_string(dir.join(n))
                .unwrap()
                .contains(needle)
        })
    };
    for needle in [
        ".sg.", ".qf.", ".wg.", "filter", "st.sc0", ".av.", ".vis.", "semav",
    ] {
        assert!(src(needle), "no Vulkan race test uses `{needle}`");
    }
}

/// The flag a racy scoped-RC11 test raises is the one its README row names.
#[test]
fn scoped_rc11_names_heterogeneous_and_data_races_apart() {
    for (file, flag) in [
        ("wg-two-wg", "heterogeneous-race"),
        ("sg-two-sg", "heterogeneous-race"),
        ("dev-vs-wg", "heterogeneous-race"),
        ("na-two-threads", "data-race"),
        ("mp-dev-nofilter", "data-race"),
    ] {
        let path = format!("tests/corpus/scoped-races/{file}.litmus");
        let o = weft(&["sim", "-m", "scoped-rc11", "--json", &path]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let flags = v[0]["flags"].as_object().unwrap();
        assert!(flags.contains_key(flag), "{file}: flags {flags:?}");
        let other = if flag == "data-race" {
            "heterogeneous-race"
        } else {
            "data-race"
        };
        assert!(!flags.contains_key(other), "{file}: flags {flags:?}");
    }
}

/// The Vulkan race flag is the data-race flag `--expect-races` reads, and it is raised
/// for the racy tests only in allowed executions that pass the test's filter.
#[test]
fn vulkan_filter_decides_the_race() {
    let flags = |file: &str| {
        let path = format!("tests/corpus/vulkan-races/{file}.litmus");
        let o = weft(&["sim", "-m", "vulkan", "--json", &path]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (v[0]["flags"].clone(), v[0]["filtered"].as_u64().unwrap())
    };
    let (f, filtered) = flags("mp-avvis-filter");
    assert!(f.as_object().unwrap().is_empty() && filtered > 0);
    let (f, _) = flags("mp-avvis-nofilter");
    assert!(f.as_object().unwrap().contains_key("data-race"));
}
