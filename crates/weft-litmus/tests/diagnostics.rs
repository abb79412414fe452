//! Rendered parse errors of every litmus dialect: each malformed litmus or JSON input under
//! `tests/malformed` with a `.expected` file beside it renders exactly as that file says.
//! The files were written by hand from the inputs: the message, ` --> file:line:col`, the
//! offending line and a caret under the column.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn malformed_inputs_render_with_their_line_and_a_caret() {
    let dir = repo().join("tests/malformed");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".expected").map(str::to_string))
        .filter(|n| n.ends_with(".litmus") || n.ends_with(".json"))
        .collect();
    names.sort();
    let mut formats = BTreeSet::new();
    let mut failures = Vec::new();
    for name in &names {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let want = std::fs::read_to_string(dir.join(format!("{name}.expected"))).unwrap();
        if let Ok(f) = weft_litmus::detect(&text) {
            formats.insert(f.name());
        }
        let e = match weft_litmus::parse_bytes(&bytes) {
            Ok(_) => {
                failures.push(format!("{name}: parsed"));
                continue;
            }
            Err(e) => e,
        };
        let got = e.report(Some(&format!("tests/malformed/{name}")), Some(&text), false);
        if got.trim_end() != want.trim_end() {
            failures.push(format!("{name}: want\n{want}\ngot\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let want: BTreeSet<&str> = ["c", "gpu_ptx", "json", "opencl", "ptx"].into();
    assert!(
        want.is_subset(&formats),
        "dialects without a rendered case: {:?}",
        want.difference(&formats).collect::<Vec<_>>()
    );
}
