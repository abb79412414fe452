//! A tokenizer shared by the litmus front-ends: identifiers (optionally with dots, as in
//! `ld.acquire.gpu`), integers, quoted strings, punctuation including herd's `/\` and `\/`,
//! and the comment styles litmus files use (`(* *)`, `//`, `/* */`). Every token carries its
//! 1-based line and column; the lexer is linear and never panics on any input.

use crate::diag::{quote, ParseError};
use weft_ir::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Int(i64),
    Str(String),
    /// Punctuation: one or two characters (`==`, `!=`, `<=`, `>=`, `&&`, `||`, `/\`, `\/`,
    /// `->`, `<<`, `>>`, `++`, `--`).
    Punct(&'static str),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

impl Token {
    pub fn span(&self) -> Span {
        Span::new(self.line, self.col)
    }

    pub fn describe(&self) -> String {
        match &self.tok {
            Tok::Ident(s) => quote(s),
            Tok::Int(n) => format!("`{n}`"),
            Tok::Str(_) => "a string".to_string(),
            Tok::Punct(p) => format!("`{p}`"),
        }
    }

    pub fn is_punct(&self, p: &str) -> bool {
        matches!(&self.tok, Tok::Punct(q) if *q == p)
    }

    pub fn is_ident(&self, s: &str) -> bool {
        matches!(&self.tok, Tok::Ident(t) if t == s)
    }
}

/// Lexer options for one dialect.
#[derive(Clone, Copy, Debug, Default)]
pub struct LexOptions {
    /// `.` may continue an identifier (`ld.acquire.gpu`, `.reg`, `%tid.x`).
    pub dotted_idents: bool,
    /// `%` and `$` may start an identifier (PTX special registers).
    pub percent_idents: bool,
    /// `@` starts nothing special (it is punctuation either way); kept for symmetry.
    pub line_comments: bool,
}

const PUNCT2: [&str; 13] = [
    "==", "!=", "<=", ">=", "&&", "||", "/\\", "\\/", "->", "<<", ">>", "++", "--",
];
const PUNCT1: [&str; 26] = [
    "{", "}", "(", ")", "[", "]", ";", ",", ":", "|", "=", "<", ">", "!", "~", "+", "-", "*", "/",
    "%", "&", "^", "@", ".", "?", "\\",
];

/// Tokenizes `src`, whose first character is at (`line`, `col`).
pub fn tokenize(
    src: &str,
    line: u32,
    col: u32,
    opts: LexOptions,
) -> Result<Vec<Token>, ParseError> {
    let mut out = Vec::new();
    let b = src.as_bytes();
    let (mut i, mut line, mut col) = (0usize, line, col);
    // Advances over b[i..j], updating line/col (j is always at a char boundary).
    let advance = |i: &mut usize, j: usize, line: &mut u32, col: &mut u32| {
        for &c in &b[*i..j] {
            if c == b'\n' {
                *line += 1;
                *col = 1;
            } else if c & 0xC0 != 0x80 {
                *col += 1;
            }
        }
        *i = j;
    };
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            {
                let j = i + 1;
                advance(&mut i, j, &mut line, &mut col);
            }
            continue;
        }
        let (l0, c0) = (line, col);
        // Comments.
        if c == b'(' && b.get(i + 1) == Some(&b'*') {
            let end = find(b, i + 2, b"*)")
                .ok_or_else(|| ParseError::new(l0, c0, "unterminated comment `(*`"))?;
            advance(&mut i, end + 2, &mut line, &mut col);
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let end = find(b, i + 2, b"*/")
                .ok_or_else(|| ParseError::new(l0, c0, "unterminated comment `/*`"))?;
            advance(&mut i, end + 2, &mut line, &mut col);
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            let end = b[i..]
                .iter()
                .position(|x| *x == b'\n')
                .map(|p| i + p)
                .unwrap_or(b.len());
            advance(&mut i, end, &mut line, &mut col);
            continue;
        }
        if c == b'"' {
            let end = b[i + 1..]
                .iter()
                .position(|x| *x == b'"')
                .map(|p| i + 1 + p)
                .ok_or_else(|| ParseError::new(l0, c0, "unterminated string"))?;
            let s = src[i + 1..end].to_string();
            advance(&mut i, end + 1, &mut line, &mut col);
            out.push(Token {
                tok: Tok::Str(s),
                line: l0,
                col: c0,
            });
            continue;
        }
        if c.is_ascii_digit() {
            let mut j = i;
            let hex = c == b'0' && matches!(b.get(i + 1), Some(b'x') | Some(b'X'));
            if hex {
                j += 2;
                while j < b.len() && b[j].is_ascii_hexdigit() {
                    j += 1;
                }
            } else {
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
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
            // PTX integer suffix `U` (e.g. `0U`) is accepted and ignored.
            if j < b.len()
                && (b[j] == b'U' || b[j] == b'u')
                && !(j + 1 < b.len() && is_ident_char(b[j + 1], opts))
            {
                j += 1;
            }
            if j < b.len() && is_ident_start(b[j], opts) {
                return Err(ParseError::new(
                    l0,
                    c0,
                    format!("malformed number {}", quote(&src[i..(j + 1).min(b.len())])),
                ));
            }
            advance(&mut i, j, &mut line, &mut col);
            out.push(Token {
                tok: Tok::Int(v),
                line: l0,
                col: c0,
            });
            continue;
        }
        if is_ident_start(c, opts) {
            let mut j = i + 1;
            while j < b.len() && is_ident_char(b[j], opts) {
                j += 1;
            }
            let s = src[i..j].to_string();
            advance(&mut i, j, &mut line, &mut col);
            out.push(Token {
                tok: Tok::Ident(s),
                line: l0,
                col: c0,
            });
            continue;
        }
        if let Some(p) = PUNCT2.iter().find(|p| b[i..].starts_with(p.as_bytes())) {
            {
                let j = i + 2;
                advance(&mut i, j, &mut line, &mut col);
            }
            out.push(Token {
                tok: Tok::Punct(p),
                line: l0,
                col: c0,
            });
            continue;
        }
        if let Some(p) = PUNCT1.iter().find(|p| b[i] == p.as_bytes()[0]) {
            {
                let j = i + 1;
                advance(&mut i, j, &mut line, &mut col);
            }
            out.push(Token {
                tok: Tok::Punct(p),
                line: l0,
                col: c0,
            });
            continue;
        }
        let ch = src[i..].chars().next().unwrap_or('?');
        return Err(ParseError::new(
            l0,
            c0,
            format!("unexpected character {ch:?}"),
        ));
    }
    Ok(out)
}

fn is_ident_start(c: u8, opts: LexOptions) -> bool {
    c.is_ascii_alphabetic()
        || c == b'_'
        || (opts.percent_idents && (c == b'%' || c == b'$'))
        || (opts.dotted_idents && c == b'.')
}

fn is_ident_char(c: u8, opts: LexOptions) -> bool {
    c.is_ascii_alphanumeric()
        || c == b'_'
        || (opts.dotted_idents && c == b'.')
        || (opts.percent_idents && c == b'$')
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    if from > b.len() {
        return None;
    }
    b[from..]
        .windows(pat.len())
        .position(|w| w == pat)
        .map(|p| from + p)
}

impl Iterator for Cursor {
    type Item = Token;

    /// Takes the next token.
    fn next(&mut self) -> Option<Token> {
        let t = self.toks.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }
}

/// A cursor over tokens with the error-reporting helpers parsers need.
pub struct Cursor {
    toks: Vec<Token>,
    pos: usize,
    /// Position reported for "unexpected end of input".
    end: (u32, u32),
}

impl Cursor {
    pub fn new(toks: Vec<Token>, end: (u32, u32)) -> Self {
        Cursor { toks, pos: 0, end }
    }

    pub fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    pub fn peek_at(&self, k: usize) -> Option<&Token> {
        self.toks.get(self.pos + k)
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Position of the next token (or of the end of input).
    pub fn here(&self) -> (u32, u32) {
        self.peek().map(|t| (t.line, t.col)).unwrap_or(self.end)
    }

    pub fn span(&self) -> Span {
        let (l, c) = self.here();
        Span::new(l, c)
    }

    pub fn error(&self, msg: impl Into<String>) -> ParseError {
        let (l, c) = self.here();
        ParseError::new(l, c, msg)
    }

    /// "expected X, found Y" at the next token.
    pub fn expected(&self, what: &str) -> ParseError {
        match self.peek() {
            Some(t) => self.error(format!("expected {what}, found {}", t.describe())),
            None => self.error(format!("expected {what}, found end of input")),
        }
    }

    pub fn eat_punct(&mut self, p: &str) -> bool {
        if self.peek().is_some_and(|t| t.is_punct(p)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub fn eat_ident(&mut self, s: &str) -> bool {
        if self.peek().is_some_and(|t| t.is_ident(s)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub fn expect_punct(&mut self, p: &str) -> Result<Token, ParseError> {
        if self.peek().is_some_and(|t| t.is_punct(p)) {
            Ok(self.next().expect("peeked"))
        } else {
            Err(self.expected(&format!("`{p}`")))
        }
    }

    pub fn ident(&mut self, what: &str) -> Result<(String, Span), ParseError> {
        match self.peek() {
            Some(Token {
                tok: Tok::Ident(s),
                line,
                col,
            }) => {
                let r = (s.clone(), Span::new(*line, *col));
                self.pos += 1;
                Ok(r)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// An integer, with an optional leading minus sign.
    pub fn int(&mut self, what: &str) -> Result<i64, ParseError> {
        let neg = self.peek().is_some_and(|t| t.is_punct("-"));
        let k = if neg { 1 } else { 0 };
        match self.peek_at(k) {
            Some(Token {
                tok: Tok::Int(n), ..
            }) => {
                let n = *n;
                self.pos += k + 1;
                Ok(if neg { n.wrapping_neg() } else { n })
            }
            _ => Err(self.expected(what)),
        }
    }

    pub fn remaining(&self) -> &[Token] {
        &self.toks[self.pos.min(self.toks.len())..]
    }

    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.toks.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptx() -> LexOptions {
        LexOptions {
            dotted_idents: true,
            percent_idents: true,
            line_comments: true,
        }
    }

    #[test]
    fn dotted_mnemonics_and_positions() {
        let t = tokenize(
            "ld.acquire.gpu r0, x\n  (* c *) exists (P0:r0 == 1 /\\ x=2)",
            1,
            1,
            ptx(),
        )
        .unwrap();
        assert_eq!(t[0].tok, Tok::Ident("ld.acquire.gpu".into()));
        let ex = t.iter().find(|t| t.is_ident("exists")).unwrap();
        assert_eq!((ex.line, ex.col), (2, 11));
        assert!(t.iter().any(|t| t.is_punct("/\\")));
        assert!(t.iter().any(|t| t.is_punct("==")));
    }

    #[test]
    fn errors_have_positions() {
        let e = tokenize("x = 1;\n  \u{1}", 1, 1, ptx()).unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        let e = tokenize("(* never closed", 1, 1, ptx()).unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        assert!(tokenize("99999999999999999999999", 1, 1, ptx()).is_err());
    }

    #[test]
    fn utf8_columns_count_characters() {
        let t = tokenize("\"é\" x", 1, 1, ptx()).unwrap();
        assert_eq!(t[1].col, 5);
    }
}
