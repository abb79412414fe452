//! Random inputs never panic: token soups and mutated models either parse or give a
//! positioned error, and whatever parses evaluates to a result or an error.

use proptest::prelude::*;
use weft_cat::{EvalOptions, Event, ExecutionBase, Model};

const TOKENS: &[&str] = &[
    "let ",
    "rec ",
    "and ",
    "in ",
    "fun ",
    "->",
    "match ",
    "with ",
    "end ",
    "||",
    "|",
    "&",
    "\\",
    ";",
    "*",
    "+",
    "++",
    "?",
    "^-1",
    "~",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    ",",
    "=",
    "0",
    "_",
    "po",
    "rf",
    "co",
    "fr",
    "W",
    "R",
    "M",
    "IW",
    "x",
    "y",
    "f",
    "'a",
    "acyclic ",
    "irreflexive ",
    "empty ",
    "as ",
    "flag ",
    "undefined_unless ",
    "include ",
    "\"f.cat\"",
    "enum ",
    "E ",
    "procedure ",
    "call ",
    "forall ",
    "do ",
    "from ",
    "if ",
    "then ",
    "else ",
    "variant ",
    "try ",
    "show ",
    "(*",
    "*)",
    "\n",
    " ",
    "domain",
    "range",
    "fencerel",
    "linearisations",
    "cross",
    "classes-loc",
    "WW",
    "begin ",
    "instructions ",
    "po-loc",
    "ext",
];

fn soup() -> impl Strategy<Value = String> {
    proptest::collection::vec(0..TOKENS.len(), 0..60)
        .prop_map(|v| v.into_iter().map(|i| TOKENS[i]).collect::<String>())
}

const SEED: &str = r#""seed"
enum E = 'a || 'b
let com = rf | co | fr
let f(x) = x | po
let rec t = po | (t ; t)
let g = fun (a, b) -> a \ b
acyclic f(com) as sc
irreflexive t ; fr? as coh
flag ~empty g(po, rf) as diff
with s from {po, rf}
empty s \ (po | rf) as chosen
let h(t) = match t with 'a -> po || _ -> rf end
forall t in E do empty h(t) \ (po | rf) end
"#;

fn exec() -> ExecutionBase {
    let mut x = ExecutionBase::new();
    let i = x.add_event(Event::init_write(0));
    let w = x.add_event(Event::write(0, 0));
    let r = x.add_event(Event::read(1, 0));
    let f = x.add_event(Event::fence(1));
    x.add_edge("co", i, w);
    x.add_edge("rf", w, r);
    x.add_edge("po", r, f);
    x
}

fn run(src: &str) {
    let mut resolve = |name: &str| (name == "f.cat").then(|| "let fromfile = po".to_string());
    if let Ok(m) = Model::parse_with("fuzz.cat", src, &mut resolve) {
        let opts = EvalOptions {
            max_runs: 200,
            max_enumeration: 200,
            max_fixpoint_iterations: 200,
            ..EvalOptions::default()
        };
        let _ = m.evaluate(&exec(), &opts);
    } else if let Err(e) = Model::parse_with("fuzz.cat", src, &mut resolve) {
        assert!(e.location.is_some(), "error without position: {e}");
        let _ = e.render();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn token_soup_never_panics(src in soup()) {
        run(&src);
    }

    #[test]
    fn mutated_models_never_panic(cut in 0usize..SEED.len(), len in 0usize..20, insert in soup()) {
        let mut s = SEED.to_string();
        let cut = (0..=cut).rev().find(|&c| s.is_char_boundary(c)).unwrap_or(0);
        let end = (cut + len).min(s.len());
        let end = (end..=s.len()).find(|&c| s.is_char_boundary(c)).unwrap_or(s.len());
        s.replace_range(cut..end, &insert);
        run(&s);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        run(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn the_seed_model_runs() {
    let m = Model::parse("seed.cat", SEED).unwrap();
    let e = m.evaluate(&exec(), &EvalOptions::default()).unwrap();
    assert_eq!(e.runs.len(), 2);
}
