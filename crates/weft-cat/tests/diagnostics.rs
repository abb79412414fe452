//! Rendered `.cat` errors: each model under `tests/malformed` with a `.expected` file beside
//! it fails to parse and renders exactly as that file (written by hand from the model) says.

use std::path::{Path, PathBuf};

use weft_cat::Model;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn malformed_models_render_with_their_line_and_a_caret() {
    let dir = repo().join("tests/malformed");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(model) = name.strip_suffix(".cat.expected") else {
            continue;
        };
        let file = format!("tests/malformed/{model}.cat");
        let text = std::fs::read_to_string(repo().join(&file)).unwrap();
        let want = std::fs::read_to_string(dir.join(&name)).unwrap();
        let e = Model::parse(&file, &text).expect_err("should not parse");
        let got = e.diagnostic().report(None, Some(&text), false);
        assert_eq!(got.trim_end(), want.trim_end(), "{file}");
        // Without the file's text the diagnostic still draws its own line.
        let alone = e.diagnostic().report(None, None, false);
        assert_eq!(alone.trim_end(), want.trim_end(), "{file} (no text)");
        checked += 1;
    }
    assert!(checked >= 1);
}
