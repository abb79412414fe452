//! herd's header and final-part elements in every herd-style front-end: diy7/herd
//! `key=value` metadata lines (kept in `Program::meta`, printed back, JSON round trip),
//! `locations [...]`, `filter`, and `exists` / `~exists` / `forall` over `/\ \/ ~ ->`
//! with herd's precedence, parsed by the one shared condition parser (the same text gives
//! the same proposition in every format). Expected values are derived by hand from the
//! herd7 litmus format: `->` binds loosest and to the right (`a -> b` is `~a \/ b`), then
//! `\/`, then `/\`, then `~`.

use weft_ir::{CmpOp, Prop, Quantifier, Term};
use weft_litmus::{parse, print_native, Format};

const META: [(&str, &str); 7] = [
    ("Cycle", "FreRlxRlx PodWRRlxRlx FreRlxRlx PodWRRlxRlx"),
    ("Relax", "FreRlxRlx"),
    ("Safe", "PodWRRlxRlx"),
    ("Generator", "diy7 (version 7.57)"),
    ("Prefetch", "0:x=F,0:y=T,1:y=F,1:x=T"),
    ("Com", "Fr Fr"),
    ("Orig", "PodWRRlxRlx FreRlxRlx PodWRRlxRlx FreRlxRlx"),
];

fn meta_text() -> String {
    META.iter().map(|(k, v)| format!("{k}={v}\n")).collect()
}

fn meta_vec() -> Vec<(String, String)> {
    META.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn c_sb(final_part: &str) -> String {
    format!(
        "C SB+porlxrlxs\n\"PodWRRlxRlx FreRlxRlx PodWRRlxRlx FreRlxRlx\"\n{}\n{{}}\n\n\
         P0 (atomic_int* y,atomic_int* x) {{\n  atomic_store_explicit(x,1,memory_order_relaxed);\n  \
         int r0 = atomic_load_explicit(y,memory_order_relaxed);\n}}\n\n\
         P1 (atomic_int* y,atomic_int* x) {{\n  atomic_store_explicit(y,1,memory_order_relaxed);\n  \
         int r0 = atomic_load_explicit(x,memory_order_relaxed);\n}}\n\n{final_part}\n",
        meta_text()
    )
}

fn ptx_sb(final_part: &str) -> String {
    format!(
        "PTX SB\n\"doc\"\n{}{{\nx=0;\ny=0;\n}}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n \
         st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n ld.relaxed.gpu r0, y | ld.relaxed.gpu r0, x ;\n{final_part}\n",
        meta_text()
    )
}

fn gpuptx_sb(final_part: &str) -> String {
    format!(
        "GPU_PTX SB\n\"doc\"\n{}{{0:.reg .s32 r0; 1:.reg .s32 r0;}}\n T0 | T1 ;\n \
         st.cg.s32 [x],1 | st.cg.s32 [y],1 ;\n ld.cg.s32 r0,[y] | ld.cg.s32 r0,[x] ;\n\
         ScopeTree(grid(cta(warp T0)) (cta(warp T1)))\nx: global, y: global\n{final_part}\n",
        meta_text()
    )
}

/// The same final part in each format's spelling of registers and locations.
fn all_formats(c: &str, dat3m: &str) -> Vec<(&'static str, String)> {
    vec![
        ("C", c_sb(c)),
        ("PTX", ptx_sb(dat3m)),
        ("GPU_PTX", gpuptx_sb(c)),
    ]
}

fn reg(thread: usize) -> Term {
    Term::Reg {
        thread,
        reg: weft_ir::Reg(0),
    }
}

fn eq(t: Term, v: i64) -> Prop {
    Prop::Cmp(t, CmpOp::Eq, Term::Int(v))
}

#[test]
fn metadata_lines_are_kept_in_order_and_printed_back() {
    for (fmt, src) in all_formats(
        "exists (0:r0=0 /\\ 1:r0=0)",
        "exists (P0:r0 == 0 /\\ P1:r0 == 0)",
    ) {
        let p = parse(&src).unwrap_or_else(|e| panic!("{fmt}: {e}\n{src}"));
        assert_eq!(p.meta, meta_vec(), "{fmt}");
        assert_eq!(p.doc.len(), 1, "{fmt}");
        let text = print_native(&p).unwrap();
        assert!(
            text.contains(&meta_text()),
            "{fmt}: metadata not printed:\n{text}"
        );
        assert_eq!(parse(&text).unwrap(), p, "{fmt}: round trip\n{text}");
        // JSON keeps them too (C and Dat3M tests print as JSON when JSON can express them).
        if let Ok(json) = weft_litmus::print(&p, Format::Json) {
            assert_eq!(parse(&json).unwrap().meta, meta_vec(), "{fmt} via JSON");
        }
    }
}

#[test]
fn metadata_after_and_before_doc_strings_and_positions_unchanged() {
    // Metadata first, doc string after it; an error later in the file keeps its position.
    let src = "C t\nCycle=Fre PodWR\n\"doc\"\nHash=abc\n{}\nP0 (int* x) {\n  *x = 1;\n}\nexists (0:zz=1)\n";
    let e = parse(src).unwrap_err();
    assert_eq!((e.line, e.col), (9, 11), "{e}");
    let ok = src.replace("0:zz=1", "[x]=1");
    let p = parse(&ok).unwrap();
    assert_eq!(
        p.meta,
        vec![
            ("Cycle".to_string(), "Fre PodWR".to_string()),
            ("Hash".to_string(), "abc".to_string())
        ]
    );
    assert_eq!(p.doc, vec!["doc".to_string()]);
}

#[test]
fn one_condition_parser_gives_one_proposition_everywhere() {
    // `->` loosest and right-associative, then `\/`, then `/\`, then `~`.
    let cases = [
        (
            "exists (0:r0=0 /\\ 1:r0=0 \\/ ~0:r0=1)",
            "exists (P0:r0 == 0 /\\ P1:r0 == 0 \\/ ~P0:r0 == 1)",
            Quantifier::Exists,
            Prop::or(
                Prop::and(eq(reg(0), 0), eq(reg(1), 0)),
                Prop::negate(eq(reg(0), 1)),
            ),
        ),
        (
            "forall (0:r0=1 -> 1:r0=1 -> 0:r0=0)",
            "forall (P0:r0 == 1 -> P1:r0 == 1 -> P0:r0 == 0)",
            Quantifier::Forall,
            Prop::or(
                Prop::negate(eq(reg(0), 1)),
                Prop::or(Prop::negate(eq(reg(1), 1)), eq(reg(0), 0)),
            ),
        ),
        (
            "~exists (0:r0=0 /\\ (1:r0=0 \\/ 1:r0=1))",
            "~exists (P0:r0 == 0 /\\ (P1:r0 == 0 \\/ P1:r0 == 1))",
            Quantifier::NotExists,
            Prop::and(eq(reg(0), 0), Prop::or(eq(reg(1), 0), eq(reg(1), 1))),
        ),
    ];
    for (c, d, q, want) in cases {
        for (fmt, src) in all_formats(c, d) {
            let p = parse(&src).unwrap_or_else(|e| panic!("{fmt}: {e}\n{src}"));
            let cond = p.condition.clone().unwrap();
            assert_eq!(cond.quantifier, q, "{fmt}: {c}");
            assert_eq!(cond.prop, want, "{fmt}: {c}");
            let text = print_native(&p).unwrap();
            assert_eq!(parse(&text).unwrap(), p, "{fmt}: round trip\n{text}");
        }
    }
}

#[test]
fn locations_and_filter_everywhere() {
    for (fmt, src) in all_formats(
        "locations [x; 1:r0;]\nfilter ~(0:r0=2)\nexists (0:r0=0)",
        "locations [x; P1:r0;]\nfilter ~(P0:r0 == 2)\nexists (P0:r0 == 0)",
    ) {
        let p = parse(&src).unwrap_or_else(|e| panic!("{fmt}: {e}\n{src}"));
        assert_eq!(p.observed.len(), 2, "{fmt}");
        assert!(matches!(p.observed[0], Term::Mem { .. }), "{fmt}");
        assert_eq!(p.observed[1], reg(1), "{fmt}");
        assert_eq!(p.filter, Some(Prop::negate(eq(reg(0), 2))), "{fmt}");
        let text = print_native(&p).unwrap();
        assert_eq!(parse(&text).unwrap(), p, "{fmt}: round trip\n{text}");
    }
    // A test may end after `locations` (herd prints its states, checks no condition).
    let p = parse(&c_sb("locations [x; y;]")).unwrap();
    assert!(p.condition.is_none());
    assert_eq!(p.observed.len(), 2);
}

#[test]
fn final_part_errors_have_positions() {
    let src = c_sb("filter (0:r0=0)\nfilter (0:r0=1)\nexists (0:r0=0)");
    let e = parse(&src).unwrap_err();
    let line = src.lines().position(|l| l == "filter (0:r0=1)").unwrap() as u32 + 1;
    assert_eq!((e.line, e.col), (line, 1), "{e}");
    assert!(e.message.contains("twice"), "{e}");
    let src = gpuptx_sb("locations [x]\nlocations [y]\nexists (0:r0=0)");
    let e = parse(&src).unwrap_err();
    let line = src.lines().position(|l| l == "locations [y]").unwrap() as u32 + 1;
    assert_eq!((e.line, e.col), (line, 1), "{e}");
    let src = ptx_sb("exists (P0:r0 == 0 ->)");
    let e = parse(&src).unwrap_err();
    let line = src.lines().count() as u32;
    assert_eq!((e.line, e.col), (line, 22), "{e}");
    // Dat3M's `not exists` is `~exists`.
    let p = parse(&ptx_sb("not exists (P0:r0 == 0)")).unwrap();
    assert_eq!(p.condition.unwrap().quantifier, Quantifier::NotExists);
}

#[test]
fn vulkan_threads_need_all_three_columns() {
    let base = "VULKAN t\n{\nx=0;\n}\n P0@sg 0,wg 0,qf 0 | P1@sg 0,wg 1,qf 0 ;\n st.atom.wg.sc0 x, 1 | ld.atom.wg.sc0 r0, x ;\nexists (P1:r0 == 1)\n";
    parse(base).unwrap();
    // The error points at the token after the thread's last column.
    for (from, to, missing) in [
        ("P1@sg 0,wg 1,qf 0", "P1@sg 0,wg 1", "`qf N`"),
        ("P1@sg 0,wg 1,qf 0", "P1@wg 1,qf 0", "`sg N`"),
        ("P0@sg 0,wg 0,qf 0", "P0@qf 0", "`sg N`, `wg N`"),
    ] {
        let src = base.replace(from, to);
        let e = parse(&src).unwrap_err();
        let want_col = src
            .lines()
            .nth(4)
            .unwrap()
            .find(if from.starts_with("P0") { '|' } else { ';' })
            .unwrap() as u32
            + 1;
        assert_eq!((e.line, e.col), (5, want_col), "{e}\n{src}");
        assert!(e.message.contains(missing), "{e}");
    }
}

#[test]
fn json_keeps_metadata() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/corpus/gpuharbor/MP.json"
    ))
    .unwrap();
    let mut p = parse(&src).unwrap();
    assert!(p.meta.is_empty());
    p.meta = meta_vec();
    let json = weft_litmus::print(&p, Format::Json).unwrap();
    assert!(json.contains("\"meta\""), "{json}");
    assert_eq!(parse(&json).unwrap(), p);
    // Metadata that cannot be one `key=value` line is refused by the text printers.
    let mut c = parse(&c_sb("exists (0:r0=0)")).unwrap();
    c.meta.push(("Bad key".into(), "v".into()));
    assert!(print_native(&c).is_err());
}
