//! The renderings of [`Diagnostic`], against texts written by hand: the one-line forms, the
//! report with its line and caret (caret width, labels, notes, help, a column past the end
//! of the line, multi-byte characters), the report without source text, and colour only
//! when asked for.

use weft_diag::{line_col, Diagnostic};

const SRC: &str = "PTX t\n{\nx=0;\n}\n P0@ctax 0,gpu 0 ;\n";

#[test]
fn one_line_forms() {
    let d = Diagnostic::new(5, 4, "unknown scope `ctax`");
    assert_eq!(d.to_string(), "5:4: unknown scope `ctax`");
    assert_eq!(d.render("a.litmus"), "a.litmus:5:4: unknown scope `ctax`");
    let f = d.clone().with_file("b.litmus");
    assert_eq!(f.to_string(), "b.litmus:5:4: unknown scope `ctax`");
    let none = Diagnostic::error("empty\nfile");
    assert_eq!(none.to_string(), "empty file");
    assert_eq!(none.render("c.litmus"), "c.litmus: empty file");
    let mut o = Diagnostic::new(3, 1, "unsupported");
    o.origin = Some(("k.cu".into(), 12, 0));
    o.occurrences = 2;
    assert_eq!(
        o.to_string(),
        "3:1: unsupported (from k.cu:12) [2 occurrences]"
    );
    let long = Diagnostic::new(1, 1, "x".repeat(300));
    assert_eq!(long.to_string(), format!("1:1: {}...", "x".repeat(197)));
}

#[test]
fn report_draws_the_line_and_a_caret_as_wide_as_the_span() {
    let start = SRC.find("ctax").unwrap();
    let d = Diagnostic::at_bytes(SRC, start..start + 4, "unknown scope `ctax`");
    assert_eq!((d.line, d.col, d.len), (5, 5, 4));
    let want = "\
error: unknown scope `ctax`
  --> t.litmus:5:5
  |
5 |  P0@ctax 0,gpu 0 ;
  |     ^^^^
";
    assert_eq!(
        d.report(Some("t.litmus"), Some(SRC), false).trim_end(),
        want.trim_end()
    );
    // The line alone gives the same picture.
    let alone = d.clone().with_source_line(" P0@ctax 0,gpu 0 ;");
    assert_eq!(
        alone.report(Some("t.litmus"), None, false).trim_end(),
        want.trim_end()
    );
    // The snippet alone: what goes under a one-line error.
    let snippet = "  |\n5 |  P0@ctax 0,gpu 0 ;\n  |     ^^^^";
    assert_eq!(d.snippet(Some(SRC), false).trim_end(), snippet);
}

#[test]
fn labels_notes_and_help() {
    let d = Diagnostic::new(5, 5, "unknown scope `ctax`")
        .with_len(4)
        .with_label(3, 1, 1, "x declared here")
        .with_note("scopes are cta, gpu and sys")
        .with_help("write `cta`");
    let want = "\
error: unknown scope `ctax`
  --> t.litmus:5:5
  |
3 | x=0;
  | - x declared here
4 | }
5 |  P0@ctax 0,gpu 0 ;
  |     ^^^^
  |
  = scopes are cta, gpu and sys
  = help: write `cta`
";
    assert_eq!(
        d.report(Some("t.litmus"), Some(SRC), false).trim_end(),
        want.trim_end()
    );
}

#[test]
fn a_column_past_the_end_of_the_line_keeps_its_number() {
    // Just past the last character (where "end of input" errors point): the caret follows
    // the line; further out it stays there, and the header keeps the parser's column.
    for col in [5, 9] {
        let d = Diagnostic::new(3, col, "expected `}`, found end of input");
        let want = format!(
            "error: expected `}}`, found end of input\n  --> t.litmus:3:{col}\n  |\n3 | x=0;\n  |     ^"
        );
        assert_eq!(
            d.report(Some("t.litmus"), Some(SRC), false).trim_end(),
            want
        );
    }
}

#[test]
fn columns_count_characters() {
    let src = "let é = ü\n";
    let d = Diagnostic::new(1, 9, "unknown name `ü`");
    let want = "\
error: unknown name `ü`
  --> m.cat:1:9
  |
1 | let é = ü
  |         ^
";
    assert_eq!(
        d.report(Some("m.cat"), Some(src), false).trim_end(),
        want.trim_end()
    );
    assert_eq!(line_col(src, src.find('ü').unwrap()), (1, 9));
}

#[test]
fn without_source_text_the_report_names_the_place() {
    let d = Diagnostic::new(9, 2, "bad").with_note("one note");
    let want = "error: bad\n  --> t.litmus:9:2\n  = one note\n";
    assert_eq!(d.report(Some("t.litmus"), None, false), want);
    // A line the text does not have is the same.
    assert_eq!(d.report(Some("t.litmus"), Some(SRC), false), want);
    assert_eq!(d.snippet(Some(SRC), false), "");
    let none = Diagnostic::error("no file at all");
    assert_eq!(none.report(None, None, false), "error: no file at all\n");
}

#[test]
fn colour_only_when_asked() {
    let d = Diagnostic::new(5, 5, "unknown scope `ctax`").with_len(4);
    let plain = d.report(Some("t.litmus"), Some(SRC), false);
    assert!(!plain.contains('\u{1b}'));
    let coloured = d.report(Some("t.litmus"), Some(SRC), true);
    assert!(coloured.contains("\u{1b}["));
    let stripped: String = {
        let mut out = String::new();
        let mut it = coloured.chars();
        while let Some(c) = it.next() {
            if c == '\u{1b}' {
                for c in it.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    };
    assert_eq!(stripped, plain);
    assert!(!weft_diag::color_for(false));
}

#[test]
fn binary_or_huge_lines_are_not_drawn() {
    let d = Diagnostic::new(1, 2, "not a text file");
    let want = "error: not a text file\n  --> b.litmus:1:2\n";
    assert_eq!(
        d.report(Some("b.litmus"), Some("\u{7f}E\u{1}LF\n"), false),
        want
    );
    let huge = format!("C t\n{}\n", "9".repeat(5000));
    let d = Diagnostic::new(2, 7, "number too large");
    assert_eq!(
        d.report(Some("h.litmus"), Some(&huge), false),
        "error: number too large\n  --> h.litmus:2:7\n"
    );
    assert_eq!(d.snippet(Some(&huge), false), "");
}
