//! Conformance with Dat3M's expected verdicts (issue 3): every file of
//! `../shared/corpus/dat3m/expected` against the bundled model of the same name, through
//! `weft sim --expect` / `--expect-races`, as a user runs it. The verdicts are Dat3M's data,
//! not weft's output; `docs/conformance.md` records the runs.

use std::process::Command;

use crate::common::repo;

/// (expected file, flag, bundled model, litmus directory, rows).
const FILES: &[(&str, &str, &str, &str, usize)] = &[
    ("PTXv6_0", "--expect", "ptx-v6.0", "PTX", 109),
    ("PTXv7_5", "--expect", "ptx-v7.5", "PTX", 238),
    ("VULKAN", "--expect", "vulkan", "VULKAN", 147),
    (
        "VULKAN-NOCHAINS",
        "--expect",
        "vulkan-nochains",
        "VULKAN",
        6,
    ),
    ("OPENCL", "--expect", "opencl", "OPENCL", 160),
    ("OPENCL-DR", "--expect-races", "opencl", "OPENCL", 23),
];

#[test]
fn dat3m_expected_verdicts_all_agree() {
    let corpus = repo().join("../shared/corpus/dat3m");
    if !corpus.is_dir() {
        eprintln!(
            "skipped: {} not found (shared/ is beside the repo in CI)",
            corpus.display()
        );
        return;
    }
    let mut failures = Vec::new();
    for (file, flag, model, dir, rows) in FILES {
        let csv = corpus.join(format!("expected/{file}-expected.csv"));
        let out = Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(["sim", "-m", model, flag])
            .arg(&csv)
            .arg(corpus.join("litmus").join(dir))
            .output()
            .expect("run weft");
        let text = String::from_utf8_lossy(&out.stdout);
        let want = format!("{rows} passed, 0 failed");
        if !out.status.success() || text.lines().last() != Some(want.as_str()) {
            failures.push(format!(
                "{file} under {model}: want `{want}`, got exit {:?}\n{}{}",
                out.status.code(),
                text.lines()
                    .filter(|l| !l.starts_with("ok "))
                    .collect::<Vec<_>>()
                    .join("\n"),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
