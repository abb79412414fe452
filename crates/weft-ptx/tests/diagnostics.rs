//! Rendered PTX errors: each `.ptx` under `tests/malformed` with a `.expected` file beside
//! it fails to parse and renders exactly as that file (written by hand from the input) says.

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn malformed_ptx_renders_with_its_line_and_a_caret() {
    let dir = repo().join("tests/malformed");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(input) = name.strip_suffix(".expected") else {
            continue;
        };
        if !input.ends_with(".ptx") {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(input)).unwrap();
        let want = std::fs::read_to_string(dir.join(&name)).unwrap();
        let e = weft_ptx::parse(&text).expect_err("should not parse");
        let got = e.report(
            Some(&format!("tests/malformed/{input}")),
            Some(&text),
            false,
        );
        assert_eq!(got.trim_end(), want.trim_end(), "{input}");
        checked += 1;
    }
    assert!(checked >= 1);
}
