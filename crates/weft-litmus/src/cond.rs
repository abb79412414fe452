//! The one parser of herd's final part, shared by every herd-style front-end (Dat3M
//! PTX/Vulkan, C/OpenCL, GPU_PTX): `locations [t; ...]`, `filter P`, and the condition
//! `exists P` / `~exists P` / `forall P` over propositions built from comparisons,
//! `true`, `false`, `~`, `/\`, `\/` and `->` (herd7 litmus format; paper 000 §4.1).
//!
//! Precedence, loosest first: `->` (right-associative; `a -> b` is read as `~a \/ b`),
//! `\/`, `/\`, then `~` and parentheses. The term syntax (`P0:r0`, `0:r0`, `x`, `[x]`,
//! `x[1]`, integers, addresses) differs per format, so each front-end implements
//! [`CondSyntax`] over its own token cursor and term rules; everything else is here.
//! Every recursion is bounded by the dialect's limits, so no input overflows the stack.

use weft_ir::{CmpOp, Condition, Prop, Quantifier, Span, Term};

use crate::diag::ParseError;

type R<T> = Result<T, ParseError>;

/// A front-end's view of its tokens and terms, as the condition parser needs it.
pub(crate) trait CondSyntax {
    /// Whether the token `k` places ahead is the punctuation `p`.
    fn is_punct(&self, k: usize, p: &str) -> bool;
    /// Whether the token `k` places ahead is the identifier `w`.
    fn is_word(&self, k: usize, w: &str) -> bool;
    /// Whether there is no token `k` places ahead.
    fn is_end(&self, k: usize) -> bool;
    /// Consumes one token.
    fn bump(&mut self);
    /// Position of the next token (or of the end of input).
    fn here(&self) -> Span;
    /// "expected X, found Y" at the next token.
    fn expected(&self, what: &str) -> ParseError;
    /// One term in the front-end's syntax; `rhs` is true on the right of a comparison.
    fn term(&mut self, rhs: bool) -> R<Term>;
}

/// The limits and spellings of one front-end.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dialect {
    /// How deeply parentheses and negations may nest.
    pub max_nest: usize,
    /// How deep the proposition's tree may be (a chain of `n` conjuncts is `n` deep).
    pub max_depth: usize,
    /// How the comparison operators are shown in "expected a comparison" messages.
    pub cmp_hint: &'static str,
    /// Whether the word `not` negates (Dat3M) besides `~`.
    pub not_word: bool,
    /// Whether `!` negates (C) besides `~`.
    pub bang: bool,
}

/// What the final part of a test holds.
#[derive(Debug, Default)]
pub(crate) struct Final {
    pub observed: Vec<Term>,
    pub filter: Option<Prop>,
    pub condition: Option<Condition>,
}

/// Parses `locations [...]` and `filter P` (each at most once, in any order), then an
/// optional quantified condition and an optional `;`. Stops there: the caller decides
/// what may follow.
pub(crate) fn final_part<S: CondSyntax>(s: &mut S, d: &Dialect) -> R<Final> {
    let mut out = Final::default();
    let mut seen_locations = false;
    loop {
        if s.is_word(0, "locations") {
            let at = s.here();
            if seen_locations {
                return Err(ParseError::at(at, "`locations` given twice"));
            }
            seen_locations = true;
            s.bump();
            expect(s, "[")?;
            loop {
                if s.is_punct(0, "]") {
                    s.bump();
                    break;
                }
                if s.is_punct(0, ";") {
                    s.bump();
                    continue;
                }
                if out.observed.len() >= d.max_depth {
                    return Err(ParseError::at(
                        s.here(),
                        format!("more than {} terms in `locations`", d.max_depth),
                    ));
                }
                let t = s.term(false)?;
                out.observed.push(t);
                if !s.is_punct(0, "]") && !s.is_punct(0, ";") {
                    return Err(s.expected("`;` or `]`"));
                }
            }
        } else if s.is_word(0, "filter") {
            let at = s.here();
            if out.filter.is_some() {
                return Err(ParseError::at(at, "`filter` given twice"));
            }
            s.bump();
            out.filter = Some(prop(s, d)?);
            if s.is_punct(0, ";") {
                s.bump();
            }
        } else {
            break;
        }
    }
    let quantifier = if s.is_word(0, "exists") {
        s.bump();
        Quantifier::Exists
    } else if s.is_word(0, "forall") {
        s.bump();
        Quantifier::Forall
    } else if (s.is_punct(0, "~") || (d.not_word && s.is_word(0, "not"))) && s.is_word(1, "exists")
    {
        s.bump();
        s.bump();
        Quantifier::NotExists
    } else if s.is_end(0) {
        return Ok(out);
    } else {
        return Err(s.expected("a final condition (`exists`, `~exists` or `forall`)"));
    };
    let p = prop(s, d)?;
    out.condition = Some(Condition {
        quantifier,
        prop: p,
    });
    if s.is_punct(0, ";") {
        s.bump();
    }
    Ok(out)
}

fn expect<S: CondSyntax>(s: &mut S, p: &str) -> R<()> {
    if s.is_punct(0, p) {
        s.bump();
        Ok(())
    } else {
        Err(s.expected(&format!("`{p}`")))
    }
}

/// A whole proposition.
pub(crate) fn prop<S: CondSyntax>(s: &mut S, d: &Dialect) -> R<Prop> {
    implies(s, d, 0).map(|(p, _)| p)
}

fn too_deep(at: Span, d: &Dialect) -> ParseError {
    ParseError::at(
        at,
        format!(
            "condition nested too deeply or too long (more than {} levels)",
            d.max_depth
        ),
    )
}

fn too_nested(at: Span, d: &Dialect) -> ParseError {
    ParseError::at(
        at,
        format!(
            "condition nested too deeply (more than {} levels of parentheses or negations)",
            d.max_nest
        ),
    )
}

/// `a -> b -> c` is `a -> (b -> c)`; returns the proposition and its tree depth.
fn implies<S: CondSyntax>(s: &mut S, d: &Dialect, nest: usize) -> R<(Prop, usize)> {
    let mut chain = vec![disj(s, d, nest)?];
    while s.is_punct(0, "->") {
        let at = s.here();
        s.bump();
        if chain.len() >= d.max_depth {
            return Err(too_deep(at, d));
        }
        chain.push(disj(s, d, nest)?);
    }
    let (mut acc, mut depth) = chain.pop().expect("one operand");
    while let Some((a, da)) = chain.pop() {
        depth = depth.max(da + 1) + 1;
        if depth > d.max_depth {
            return Err(too_deep(s.here(), d));
        }
        acc = Prop::or(Prop::negate(a), acc);
    }
    Ok((acc, depth))
}

/// `a \/ b \/ ...` (left-associative).
fn disj<S: CondSyntax>(s: &mut S, d: &Dialect, nest: usize) -> R<(Prop, usize)> {
    let (mut p, mut depth) = conj(s, d, nest)?;
    while s.is_punct(0, "\\/") {
        let at = s.here();
        s.bump();
        let (q, dq) = conj(s, d, nest)?;
        depth = depth.max(dq) + 1;
        if depth > d.max_depth {
            return Err(too_deep(at, d));
        }
        p = Prop::or(p, q);
    }
    Ok((p, depth))
}

/// `a /\ b /\ ...` (left-associative).
fn conj<S: CondSyntax>(s: &mut S, d: &Dialect, nest: usize) -> R<(Prop, usize)> {
    let (mut p, mut depth) = unary(s, d, nest)?;
    while s.is_punct(0, "/\\") {
        let at = s.here();
        s.bump();
        let (q, dq) = unary(s, d, nest)?;
        depth = depth.max(dq) + 1;
        if depth > d.max_depth {
            return Err(too_deep(at, d));
        }
        p = Prop::and(p, q);
    }
    Ok((p, depth))
}

fn cmp_op<S: CondSyntax>(s: &S, k: usize) -> Option<CmpOp> {
    Some(if s.is_punct(k, "=") || s.is_punct(k, "==") {
        CmpOp::Eq
    } else if s.is_punct(k, "!=") {
        CmpOp::Ne
    } else if s.is_punct(k, "<=") {
        CmpOp::Le
    } else if s.is_punct(k, ">=") {
        CmpOp::Ge
    } else if s.is_punct(k, "<") {
        CmpOp::Lt
    } else if s.is_punct(k, ">") {
        CmpOp::Gt
    } else {
        return None;
    })
}

/// `~a`, `(a)`, `true`, `false` or a comparison `t op t`.
fn unary<S: CondSyntax>(s: &mut S, d: &Dialect, nest: usize) -> R<(Prop, usize)> {
    if nest > d.max_nest {
        return Err(too_nested(s.here(), d));
    }
    // A word followed by a comparison or `:` is a term (`not == 1`, `true:r0`).
    let term_follows = cmp_op(s, 1).is_some() || s.is_punct(1, ":") || s.is_punct(1, "[");
    let negation = s.is_punct(0, "~")
        || (d.bang && s.is_punct(0, "!"))
        || (d.not_word && !term_follows && s.is_word(0, "not"));
    if negation {
        let at = s.here();
        s.bump();
        let (p, dp) = unary(s, d, nest + 1)?;
        if dp + 1 > d.max_depth {
            return Err(too_deep(at, d));
        }
        return Ok((Prop::negate(p), dp + 1));
    }
    if s.is_punct(0, "(") {
        let open = s.here();
        s.bump();
        let r = implies(s, d, nest + 1)?;
        if s.is_punct(0, ")") {
            s.bump();
            return Ok(r);
        }
        return Err(if s.is_end(0) {
            ParseError::at(
                s.here(),
                format!(
                    "unbalanced parentheses: expected `)` to close the `(` at {open}, found end of input"
                ),
            )
        } else {
            s.expected("`)`, `/\\`, `\\/` or `->`")
        });
    }
    if !term_follows {
        if s.is_word(0, "true") {
            s.bump();
            return Ok((Prop::True, 1));
        }
        if s.is_word(0, "false") {
            s.bump();
            return Ok((Prop::False, 1));
        }
    }
    let a = s.term(false)?;
    let Some(op) = cmp_op(s, 0) else {
        return Err(s.expected(&format!("a comparison ({})", d.cmp_hint)));
    };
    s.bump();
    let b = s.term(true)?;
    Ok((Prop::Cmp(a, op, b), 1))
}

/// herd/diy7 `key=value` metadata lines between a test's header line and its initial
/// state (`Cycle=...`, `Relax=...`, `Generator=diy7 (version 7.57)`, `Hash=...`).
///
/// Returns the source with those lines blanked (their bytes replaced by spaces, so every
/// other token keeps its line and column) and the pairs in file order, or `None` when
/// the test has no such line. A line is metadata when, outside a quoted doc string and
/// before the first `{`, it starts with a key (a letter or `_`, then letters, digits,
/// `_`, `-` or `.`) followed by `=`.
pub(crate) fn take_meta(src: &str) -> Option<(String, Vec<(String, String)>)> {
    let mut meta = Vec::new();
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut offset = 0usize;
    let mut header_seen = false;
    let mut in_quote = false;
    for line in src.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        if !header_seen {
            if body.trim().is_empty() {
                continue;
            }
            header_seen = true;
            if let Some(rest) = body.find('"').map(|q| &body[q..]) {
                in_quote = rest.matches('"').count() % 2 == 1;
            }
            if !in_quote && body.contains('{') {
                break;
            }
            continue;
        }
        if !in_quote {
            if let Some((k, v)) = meta_line(body) {
                meta.push((k.to_string(), v.to_string()));
                blank.push((start, start + body.len()));
                continue;
            }
        }
        // Find the first `{` outside quotes; track quotes across lines.
        let mut brace = false;
        for c in body.chars() {
            match c {
                '"' => in_quote = !in_quote,
                '{' if !in_quote => {
                    brace = true;
                    break;
                }
                _ => {}
            }
        }
        if brace {
            break;
        }
    }
    if meta.is_empty() {
        return None;
    }
    let mut out = src.as_bytes().to_vec();
    for (a, b) in blank {
        for c in &mut out[a..b] {
            *c = b' ';
        }
    }
    // Only whole lines of valid UTF-8 were replaced by ASCII spaces.
    String::from_utf8(out).ok().map(|s| (s, meta))
}

/// Runs a front-end's parser on `src` with its metadata lines blanked, and keeps them in
/// [`weft_ir::Program::meta`].
pub(crate) fn with_meta(
    src: &str,
    parse: impl FnOnce(&str) -> R<weft_ir::Program>,
) -> R<weft_ir::Program> {
    match take_meta(src) {
        None => parse(src),
        Some((blanked, meta)) => {
            let mut p = parse(&blanked)?;
            p.meta = meta;
            Ok(p)
        }
    }
}

/// `key=value` (key as described at [`take_meta`]), with blanks around both trimmed.
fn meta_line(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let (k, v) = t.split_once('=')?;
    let k = k.trim_end();
    let mut chars = k.chars();
    let first = chars.next()?;
    if !(first.is_ascii_alphabetic() || first == '_')
        || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return None;
    }
    Some((k, v.trim()))
}

/// Whether a metadata pair prints back as one `key=value` line that reads back equal.
pub(crate) fn printable_meta(k: &str, v: &str) -> bool {
    let line = format!("{k}={v}");
    meta_line(&line) == Some((k, v)) && !v.contains(['\n', '\r']) && !k.is_empty() && v.trim() == v
}

/// The metadata lines of a program, each `key=value` and a newline, or why they cannot
/// be printed.
pub(crate) fn print_meta(meta: &[(String, String)]) -> Result<String, crate::PrintError> {
    let mut s = String::new();
    for (k, v) in meta {
        if !printable_meta(k, v) {
            return Err(crate::PrintError::new(format!(
                "the metadata line {}={} cannot be written as one `key=value` line",
                crate::diag::quote(k),
                crate::diag::quote(v)
            )));
        }
        s += &format!("{k}={v}\n");
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_lines_are_blanked_in_place() {
        let src = "C SB\n\"doc\"\nCycle=Fre PodWR\nGenerator=diy7 (version 7.57)\n\n{}\n";
        let (s, meta) = take_meta(src).unwrap();
        assert_eq!(
            meta,
            vec![
                ("Cycle".to_string(), "Fre PodWR".to_string()),
                ("Generator".to_string(), "diy7 (version 7.57)".to_string())
            ]
        );
        assert_eq!(s.len(), src.len());
        assert_eq!(s.lines().nth(2).unwrap().trim(), "");
        assert_eq!(s.lines().nth(5).unwrap(), "{}");
    }

    #[test]
    fn no_meta_in_doc_strings_or_init() {
        assert!(take_meta("C a\n\"x=1\ny=2\"\n{x=0;}\n").is_none());
        assert!(take_meta("C a\n{\nx=0;\n}\n").is_none());
        assert!(take_meta("C a {x=1}\nP0(){}\n").is_none());
    }

    #[test]
    fn printable() {
        assert!(printable_meta("Cycle", "Fre PodWR"));
        assert!(!printable_meta("Cy cle", "x"));
        assert!(!printable_meta("Cycle", "a\nb"));
        assert!(!printable_meta("", "x"));
    }
}
