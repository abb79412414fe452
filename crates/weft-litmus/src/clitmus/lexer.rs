//! Tokenizer for C11/OpenCL litmus tests: identifiers, integers, quoted strings and C/herd
//! punctuation, borrowing its text from the source so a 10 MB line costs no allocation per
//! token. Comments: `//`, `/* */` and herd's `(* *)`. Inside braces `(*` is a comment only
//! when whitespace or `*` follows it, so `if (*b)` stays C; outside braces it always is.

use super::MAX_NAME;
use crate::diag::{quote, ParseError};
use weft_ir::Span;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Int(i64),
    /// A `"..."` string; `text` holds the contents without the quotes.
    Str,
    Punct(&'static str),
}

/// One token with the source text it came from and its 1-based position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tok<'a> {
    pub kind: Kind,
    pub text: &'a str,
    pub line: u32,
    pub col: u32,
}

impl<'a> Tok<'a> {
    /// The token's position.
    pub fn span(&self) -> Span {
        Span::new(self.line, self.col)
    }

    /// Whether this is the punctuation `p`.
    pub fn is(&self, p: &str) -> bool {
        matches!(self.kind, Kind::Punct(q) if q == p)
    }

    /// Whether this is the identifier `s`.
    pub fn is_ident(&self, s: &str) -> bool {
        self.kind == Kind::Ident && self.text == s
    }

    /// The identifier's text, if this is one.
    pub fn ident(&self) -> Option<&'a str> {
        (self.kind == Kind::Ident).then_some(self.text)
    }

    /// A short description for "expected X, found Y" messages.
    pub fn describe(&self) -> String {
        match self.kind {
            Kind::Ident => quote(self.text),
            Kind::Int(n) => format!("`{n}`"),
            Kind::Str => "a string".to_string(),
            Kind::Punct(p) => format!("`{p}`"),
        }
    }
}

const PUNCT2: [&str; 18] = [
    "==", "!=", "<=", ">=", "&&", "||", "/\\", "\\/", "->", "<<", ">>", "++", "--", "+=", "-=",
    "|=", "&=", "^=",
];
const PUNCT1: [&str; 26] = [
    "{", "}", "(", ")", "[", "]", ";", ",", ":", "|", "=", "<", ">", "!", "~", "+", "-", "*", "/",
    "%", "&", "^", "@", ".", "?", "\\",
];

struct Pos {
    i: usize,
    line: u32,
    col: u32,
}

impl Pos {
    /// Moves to byte `j` (a char boundary of `src`), counting lines and characters on the
    /// way (with std's searches, which stay fast in unoptimised builds).
    fn advance(&mut self, src: &str, j: usize) {
        let seg = src.get(self.i..j).unwrap_or("");
        let mut rest = seg;
        while let Some(k) = rest.find('\n') {
            self.line = self.line.saturating_add(1);
            self.col = 1;
            rest = &rest[k + 1..];
        }
        let n = rest.chars().count();
        self.col = self
            .col
            .saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
        self.i = j;
    }
}

fn find(src: &str, from: usize, pat: &str) -> Option<usize> {
    src.get(from..)?.find(pat).map(|k| from + k)
}

fn ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// An incremental tokenizer: tokens are produced on demand, so an error early in a huge
/// input is found without lexing the rest.
pub(crate) struct Lexer<'a> {
    src: &'a str,
    p: Pos,
    /// Brace depth, which decides whether `(*` opens a comment.
    depth: u32,
}

impl<'a> Lexer<'a> {
    /// A lexer over `src`, whose first character sits at (`line`, `col`).
    pub fn new(src: &'a str, line: u32, col: u32) -> Self {
        Lexer {
            src,
            p: Pos { i: 0, line, col },
            depth: 0,
        }
    }

    /// The position just past the last character consumed.
    pub fn position(&self) -> (u32, u32) {
        (self.p.line, self.p.col)
    }

    /// The next token, `None` at the end of the input.
    pub fn next_tok(&mut self) -> Result<Option<Tok<'a>>, ParseError> {
        let src = self.src;
        let b = src.as_bytes();
        let p = &mut self.p;
        while p.i < b.len() {
            let i = p.i;
            let c = b[i];
            if matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0c) {
                // A run of (ASCII) whitespace, counted as it is skipped.
                let mut j = i;
                while let Some(&w) = b.get(j) {
                    match w {
                        b'\n' => {
                            p.line = p.line.saturating_add(1);
                            p.col = 1;
                        }
                        b' ' | b'\t' | b'\r' | 0x0c => p.col = p.col.saturating_add(1),
                        _ => break,
                    }
                    j += 1;
                }
                p.i = j;
                continue;
            }
            let (l0, c0) = (p.line, p.col);
            let next = b.get(i + 1).copied();
            if c == b'(' && next == Some(b'*') {
                let after = b.get(i + 2).copied();
                let herd = self.depth == 0
                    || matches!(after, Some(b' ' | b'\t' | b'\r' | b'\n' | b'*') | None);
                if herd {
                    let end = find(src, i + 2, "*)")
                        .ok_or_else(|| ParseError::new(l0, c0, "unterminated comment `(*`"))?;
                    p.advance(src, end + 2);
                    continue;
                }
            }
            if c == b'/' && next == Some(b'*') {
                let end = find(src, i + 2, "*/")
                    .ok_or_else(|| ParseError::new(l0, c0, "unterminated comment `/*`"))?;
                p.advance(src, end + 2);
                continue;
            }
            if c == b'/' && next == Some(b'/') {
                let end = find(src, i, "\n").unwrap_or(b.len());
                p.advance(src, end);
                continue;
            }
            let tok = |kind, j: usize| Tok {
                kind,
                text: &src[i..j],
                line: l0,
                col: c0,
            };
            if c == b'"' {
                let end = find(src, i + 1, "\"")
                    .ok_or_else(|| ParseError::new(l0, c0, "unterminated string"))?;
                let t = Tok {
                    kind: Kind::Str,
                    text: &src[i + 1..end],
                    line: l0,
                    col: c0,
                };
                p.advance(src, end + 1);
                return Ok(Some(t));
            }
            if c.is_ascii_digit() {
                let hex = c == b'0' && matches!(next, Some(b'x' | b'X'));
                let mut j = if hex { i + 2 } else { i };
                while j < b.len()
                    && j - i < 64
                    && (if hex {
                        b[j].is_ascii_hexdigit()
                    } else {
                        b[j].is_ascii_digit()
                    })
                {
                    j += 1;
                }
                if j - i >= 64 && b.get(j).is_some_and(u8::is_ascii_hexdigit) {
                    return Err(ParseError::new(
                        l0,
                        c0,
                        format!("integer {} out of range", quote(&src[i..j])),
                    ));
                }
                if j < b.len() && ident_char(b[j]) {
                    let mut k = j;
                    while k < b.len() && ident_char(b[k]) && k - i < 64 {
                        k += 1;
                    }
                    return Err(ParseError::new(
                        l0,
                        c0,
                        format!("malformed number {}", quote(&src[i..k])),
                    ));
                }
                let text = &src[i..j];
                let v = if hex {
                    i64::from_str_radix(&text[2..], 16).ok()
                } else {
                    text.parse::<i64>().ok()
                };
                let v = v.ok_or_else(|| {
                    ParseError::new(l0, c0, format!("integer {} out of range", quote(text)))
                })?;
                p.advance(src, j);
                return Ok(Some(tok(Kind::Int(v), j)));
            }
            if ident_start(c) {
                let mut j = i + 1;
                while j < b.len() && ident_char(b[j]) {
                    j += 1;
                    if j - i > MAX_NAME {
                        return Err(ParseError::new(
                            l0,
                            c0,
                            format!("identifier longer than {MAX_NAME} characters"),
                        ));
                    }
                }
                p.advance(src, j);
                return Ok(Some(tok(Kind::Ident, j)));
            }
            let punct = if next.is_some_and(|n| n.is_ascii_punctuation()) {
                PUNCT2.iter().find(|q| b[i..].starts_with(q.as_bytes()))
            } else {
                None
            }
            .or_else(|| PUNCT1.iter().find(|q| q.as_bytes()[0] == c));
            if let Some(q) = punct {
                match *q {
                    "{" => self.depth = self.depth.saturating_add(1),
                    "}" => self.depth = self.depth.saturating_sub(1),
                    _ => {}
                }
                p.advance(src, i + q.len());
                return Ok(Some(tok(Kind::Punct(q), i + q.len())));
            }
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err(ParseError::new(
                l0,
                c0,
                format!("unexpected character {ch:?}"),
            ));
        }
        Ok(None)
    }
}

/// Tokenizes all of `src` (first character at `line`:`col`); returns the tokens and the
/// position just past the end.
#[cfg(test)]
fn tokenize(src: &str, line: u32, col: u32) -> Result<(Vec<Tok<'_>>, (u32, u32)), ParseError> {
    let mut lx = Lexer::new(src, line, col);
    let mut out = Vec::new();
    while let Some(t) = lx.next_tok()? {
        out.push(t);
    }
    Ok((out, lx.position()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn herd_comments_versus_dereference() {
        let (t, _) = tokenize("(* c *) { if (*b) { (* note *) *a = 1; } }", 1, 1).unwrap();
        let texts: Vec<&str> = t.iter().map(|t| t.text).collect();
        assert_eq!(
            texts,
            ["{", "if", "(", "*", "b", ")", "{", "*", "a", "=", "1", ";", "}", "}"]
        );
    }

    #[test]
    fn positions_and_errors() {
        let (t, end) = tokenize("x\n  y", 1, 1).unwrap();
        assert_eq!((t[1].line, t[1].col), (2, 3));
        assert_eq!(end, (2, 4));
        let e = tokenize("a\n \u{1}", 1, 1).unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
        assert!(tokenize("12ab", 1, 1).is_err());
        assert!(tokenize("99999999999999999999", 1, 1).is_err());
    }
}
