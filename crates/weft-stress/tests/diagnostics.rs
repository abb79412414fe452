//! A stress file with an out-of-range field reports `file:line:col: message` and, under it,
//! the file's line with a caret at the field, as the hand-written `.expected` file beside
//! `tests/stress/bad-range.json` says.

use std::path::Path;

#[test]
fn a_bad_field_is_shown_with_its_line_and_a_caret() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = repo.join("tests/stress/bad-range.json");
    let want = std::fs::read_to_string(repo.join("tests/stress/bad-range.json.expected")).unwrap();
    let want = want.trim_end().replacen(
        "tests/stress/bad-range.json",
        &path.display().to_string(),
        1,
    );
    let e = weft_stress::load(&path).unwrap_err();
    assert_eq!(e.report(), want);
}
