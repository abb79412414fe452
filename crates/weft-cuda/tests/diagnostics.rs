//! Rendered kernel-header errors: each `.cu` under `tests/malformed` with a `.expected` file
//! beside it has a malformed header, which both header readers reject at the place and with
//! the rendering that file (written by hand from the input) gives; the front-end prints the
//! same line and caret under its one-line `file:line:col: message`.

use std::path::{Path, PathBuf};

use weft_cuda::LaunchSpec;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn malformed_headers_render_with_their_line_and_a_caret() {
    let dir = repo().join("tests/malformed");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(input) = name.strip_suffix(".expected") else {
            continue;
        };
        if !input.ends_with(".cu") {
            continue;
        }
        let shown = format!("tests/malformed/{input}");
        let text = std::fs::read_to_string(dir.join(input)).unwrap();
        let want = std::fs::read_to_string(dir.join(&name)).unwrap();
        let want = want.trim_end();
        let e = LaunchSpec::from_header(&text).expect_err("should be rejected");
        let got = e.report(Some(&shown), Some(&text), false);
        assert_eq!(got.trim_end(), want, "{input} (launch spec)");
        let e = weft_cuda::parse_header(&text).expect_err("should be rejected");
        let got = e.report(Some(&shown), Some(&text), false);
        assert_eq!(got.trim_end(), want, "{input} (header)");

        // The front-end: `path:line:col: message`, then the snippet lines of the report.
        let path = dir.join(input);
        let e =
            weft_cuda::load_module(&path, &LaunchSpec::default()).expect_err("should be rejected");
        assert_eq!(e.exit_code(), weft_ir::exit::ExitCode::BadInput);
        let mut lines = want.lines();
        let message = lines.next().unwrap().trim_start_matches("error: ");
        let arrow = lines.next().unwrap();
        let pos = arrow.rsplit(':').take(2).collect::<Vec<_>>();
        let head = format!("{}:{}:{}: {message}", path.display(), pos[1], pos[0]);
        let snippet: Vec<&str> = lines.collect();
        let report = e.report();
        assert_eq!(e.to_string(), head, "{input}: one-line form");
        assert_eq!(
            report,
            format!("{head}\n{}", snippet.join("\n")),
            "{input}: report"
        );
        checked += 1;
    }
    assert!(checked >= 1);
}
