//! Errors name the offending text and point at file:line:col; no input panics.

use std::collections::HashMap;

use weft_cat::{CatError, ErrorKind, EvalOptions, Event, ExecutionBase, Model};

fn parse_err(src: &str) -> CatError {
    Model::parse("m.cat", src).expect_err("should not parse")
}

fn eval_err(src: &str) -> CatError {
    let m = Model::parse("m.cat", src).unwrap_or_else(|e| panic!("{}", e.render()));
    let mut x = ExecutionBase::new();
    let i = x.add_event(Event::init_write(0));
    let w = x.add_event(Event::write(0, 0));
    x.add_edge("co", i, w);
    m.evaluate(&x, &EvalOptions::default())
        .expect_err("should not evaluate")
}

#[track_caller]
fn at(e: &CatError, kind: ErrorKind, line: usize, col: usize, needle: &str) {
    assert_eq!(e.kind, kind, "{}", e.render());
    assert_eq!(
        (e.line(), e.col()),
        (Some(line), Some(col)),
        "{}",
        e.render()
    );
    assert!(
        e.message.contains(needle),
        "`{needle}` not in: {}",
        e.message
    );
    assert_eq!(e.location.as_ref().unwrap().file, "m.cat");
}

#[test]
fn parse_errors_point_at_the_offending_token() {
    at(
        &parse_err("\"M\"\nlet x = po | | rf"),
        ErrorKind::Parse,
        2,
        14,
        "expected an expression, found `|`",
    );
    at(
        &parse_err("let x = (po | rf"),
        ErrorKind::Parse,
        1,
        17,
        "found end of input",
    );
    at(
        &parse_err("acyclic po as"),
        ErrorKind::Parse,
        1,
        14,
        "check name",
    );
    at(
        &parse_err("let f(x = po"),
        ErrorKind::Parse,
        1,
        9,
        "`,` or `)`",
    );
    at(
        &parse_err("let x = po\nend"),
        ErrorKind::Parse,
        2,
        1,
        "`end` without a matching block",
    );
    at(
        &parse_err("let x = W * R * M"),
        ErrorKind::Parse,
        1,
        15,
        "not associative",
    );
    at(
        &parse_err("enum E = 'a || b"),
        ErrorKind::Parse,
        1,
        16,
        "expected a tag",
    );
    at(
        &parse_err("let x = po\n  )"),
        ErrorKind::Parse,
        2,
        3,
        "expected an instruction",
    );
    at(
        &parse_err("let x = match po with {} -> 0 || 'a -> po end"),
        ErrorKind::Parse,
        1,
        43,
        "cannot mix",
    );
    at(
        &parse_err("let x = po in po"),
        ErrorKind::Parse,
        1,
        12,
        "`let ... in` is an expression",
    );
    at(
        &parse_err("acyclic"),
        ErrorKind::Parse,
        1,
        8,
        "expected an expression",
    );
    at(
        &parse_err("~ let x = po"),
        ErrorKind::Parse,
        1,
        3,
        "`acyclic`, `irreflexive` or `empty`",
    );
    at(&parse_err("if po then"), ErrorKind::Parse, 1, 4, "variant");
}

#[test]
fn lexical_errors() {
    at(
        &parse_err("let x =\n  po $ rf"),
        ErrorKind::Lex,
        2,
        6,
        "`$`",
    );
    at(&parse_err("let x = 12"), ErrorKind::Lex, 1, 9, "`12`");
    at(
        &parse_err("let x = po (* never closed"),
        ErrorKind::Lex,
        1,
        12,
        "unterminated comment",
    );
    at(
        &parse_err("include \"a.cat"),
        ErrorKind::Lex,
        1,
        9,
        "unterminated string",
    );
    at(&parse_err("let x = r^2"), ErrorKind::Lex, 1, 10, "^-1");
    // Columns count characters, not bytes.
    at(
        &parse_err("(* é *) let x = po # rf"),
        ErrorKind::Lex,
        1,
        20,
        "`#`",
    );
}

#[test]
fn evaluation_errors_name_the_identifier_and_place() {
    at(
        &eval_err("let x = po | foo\nacyclic x"),
        ErrorKind::Eval,
        1,
        14,
        "unknown identifier `foo`",
    );
    at(
        &eval_err("\n  acyclic R"),
        ErrorKind::Eval,
        2,
        11,
        "`acyclic` expects a relation, got an event set",
    );
    at(
        &eval_err("let x = 'acq"),
        ErrorKind::Eval,
        1,
        9,
        "undeclared tag `'acq`",
    );
    at(
        &eval_err("let x = po ; W"),
        ErrorKind::Eval,
        1,
        14,
        "use `[S]`",
    );
    at(
        &eval_err("let x = po | W"),
        ErrorKind::Eval,
        1,
        14,
        "cannot combine a relation with an event set",
    );
    at(
        &eval_err("call nope()"),
        ErrorKind::Eval,
        1,
        1,
        "unknown procedure `nope`",
    );
    at(
        &eval_err("let x = po(rf)"),
        ErrorKind::Eval,
        1,
        9,
        "not a function",
    );
    at(
        &eval_err("let f(a, b) = a\nlet y = f(po)"),
        ErrorKind::Eval,
        2,
        11,
        "expected a tuple of 2 values",
    );
    at(
        &eval_err("enum E = 'a || 'b\nlet f(t) = match t with 'a -> po end\nlet y = f('b)"),
        ErrorKind::Eval,
        2,
        12,
        "no match clause for tag `'b`",
    );
    at(
        &eval_err("let rec (a, b) = (po, rf)"),
        ErrorKind::Eval,
        1,
        9,
        "binds names",
    );
    at(
        &eval_err("with x from 'a"),
        ErrorKind::Eval,
        1,
        13,
        "undeclared tag",
    );
    at(
        &eval_err("enum E = 'a\nwith x from 'a"),
        ErrorKind::Eval,
        2,
        13,
        "expected a set to range over",
    );
    at(
        &eval_err("let x = ~{po}"),
        ErrorKind::Eval,
        1,
        9,
        "`~` applies to event sets and relations",
    );
    at(
        &eval_err("let x = W+"),
        ErrorKind::Eval,
        1,
        9,
        "`+` applies to relations",
    );
    at(
        &eval_err("empty (po, rf)"),
        ErrorKind::Eval,
        1,
        7,
        "expects a set or a relation",
    );
    at(
        &eval_err("let x = W ++ W"),
        ErrorKind::Eval,
        1,
        9,
        "`++` adds an element",
    );
}

#[test]
fn render_shows_the_line_and_a_caret() {
    let e = parse_err("let a = po\nlet b = po | | rf\n");
    let r = e.render();
    assert!(r.starts_with("m.cat:2:14: expected an expression"), "{r}");
    assert!(r.contains("2 | let b = po | | rf"), "{r}");
    assert!(r.ends_with("  |              ^"), "{r:?}");
}

#[test]
fn limits_are_errors_not_crashes() {
    let deep = format!("let x = {}po{}", "(".repeat(500), ")".repeat(500));
    assert_eq!(parse_err(&deep).kind, ErrorKind::Limit);
    let tildes = format!("let x = {}po", "~".repeat(500));
    assert_eq!(parse_err(&tildes).kind, ErrorKind::Limit);
    let posts = format!("let x = po{}", "?".repeat(500));
    assert_eq!(parse_err(&posts).kind, ErrorKind::Limit);
    // Long flat chains are fine (kept n-ary, so no deep recursion).
    let long = format!("let x = po{}\nempty x \\ po", " | po".repeat(20_000));
    let m = Model::parse("m.cat", &long).unwrap();
    let mut x = ExecutionBase::new();
    x.add_event(Event::write(0, 0));
    assert!(m.evaluate(&x, &EvalOptions::default()).unwrap().allowed());
    // Many instructions: the environment chain is dropped without recursion.
    let many: String = (0..20_000).map(|i| format!("let v{i} = po\n")).collect();
    let m = Model::parse("m.cat", &many).unwrap();
    assert!(m.evaluate(&x, &EvalOptions::default()).is_ok());
}

#[test]
fn include_errors_report_the_included_file() {
    let files: HashMap<&str, &str> = HashMap::from([
        ("a.cat", "\"a\"\ninclude \"b.cat\""),
        ("b.cat", "\"b\"\nlet ok = po\ninclude \"a.cat\""),
        ("bad.cat", "\"bad\"\nlet x = po |"),
    ]);
    let mut resolve = |name: &str| files.get(name).map(|s| s.to_string());
    let e = Model::parse_with("main.cat", "include \"a.cat\"", &mut resolve).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Include);
    assert_eq!(e.message, "include cycle: a.cat -> b.cat -> a.cat");
    let loc = e.location.unwrap();
    assert_eq!((loc.file.as_str(), loc.line, loc.col), ("b.cat", 3, 1));

    let e =
        Model::parse_with("main.cat", "let y = po\ninclude \"bad.cat\"", &mut resolve).unwrap_err();
    let loc = e.location.clone().unwrap();
    assert_eq!(
        (loc.file.as_str(), loc.line, loc.col),
        ("bad.cat", 2, 13),
        "{}",
        e.render()
    );

    let e = Model::parse_with("main.cat", "\n  include \"missing.cat\"", &mut resolve).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Include);
    assert_eq!((e.line(), e.col()), (Some(2), Some(3)));
    assert!(e.message.contains("missing.cat"));

    // Including the main file itself is a cycle too.
    let mut self_ref =
        |name: &str| (name == "loop.cat").then(|| "include \"main.cat\"".to_string());
    let e = Model::parse_with("main.cat", "include \"loop.cat\"", &mut self_ref).unwrap_err();
    assert_eq!(e.message, "include cycle: main.cat -> loop.cat -> main.cat");

    // Without a resolver only the built-in library is available.
    assert_eq!(
        parse_err("include \"x86fences.cat\"").kind,
        ErrorKind::Include
    );
}
