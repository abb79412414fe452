//! Tokeniser for PTX source text (PTX ISA §4 "Syntax": §4.1 source format, §4.2 comments,
//! §4.4 identifiers, §4.5 constants).
//!
//! The lexer works on bytes, tracks 1-based line and column numbers (columns count
//! characters, so a multi-byte UTF-8 character is one column), and never panics: every
//! malformed input becomes a [`ParseError`] at the offending position.

use crate::error::ParseError;
use serde::Serialize;

/// A 1-based source position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
}

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier (§4.4): `ld`, `%r1`, `$L__BB0_2`, `_Z3fooi`, `_`.
    Ident(String),
    /// A dotted word: a directive (`.reg`) or an instruction qualifier (`.global`,
    /// `.shared::cta`, `.L2::cache_hint`); the text keeps the leading dot.
    Dot(String),
    /// An integer constant (§4.5.1), already converted; `unsigned` when written with a `U`
    /// suffix. Values above `i64::MAX` are kept as their two's-complement bit pattern.
    Int {
        /// The value (bit pattern for large unsigned constants).
        value: i64,
        /// Whether the literal was too large for `i64` or had a `U` suffix.
        unsigned: bool,
    },
    /// A single-precision hex float `0fXXXXXXXX` (§4.5.2), as raw bits.
    F32Bits(u32),
    /// A double-precision hex float `0dXXXXXXXXXXXXXXXX` (§4.5.2), as raw bits.
    F64Bits(u64),
    /// A decimal floating-point literal such as `1.5` or `1e-3` (always double precision),
    /// with its source text (`.version 7.10` needs the digits as written).
    Float {
        /// The value.
        value: f64,
        /// The literal as written.
        text: String,
    },
    /// A string literal (used by `.file` and `.pragma`).
    Str(String),
    /// Punctuation: one of `, ; : { } [ ] ( ) < > + - ! @ | =`.
    Punct(char),
}

/// A token with its position.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Where it starts.
    pub span: Span,
}

impl Tok {
    /// A short human description used in error messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Dot(s) => format!("`{s}`"),
            Tok::Int { value, unsigned } => {
                if *unsigned && *value < 0 {
                    format!("`{}`", *value as u64)
                } else {
                    format!("`{value}`")
                }
            }
            Tok::F32Bits(b) => format!("`0f{b:08X}`"),
            Tok::F64Bits(b) => format!("`0d{b:016X}`"),
            Tok::Float { text, .. } => format!("`{text}`"),
            Tok::Str(s) => format!("string {s:?}"),
            Tok::Punct(c) => format!("`{c}`"),
        }
    }
}

/// Whether `c` may start an identifier (§4.4: a letter, or `_`, `$`, `%` followed by more).
fn ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%'
}

/// Whether `c` may continue an identifier.
fn ident_cont(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    col: u32,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.src.get(self.pos + k).copied()
    }

    fn span(&self) -> Span {
        Span {
            line: self.line,
            col: self.col,
        }
    }

    /// Advances one byte, keeping line/column (columns count UTF-8 characters).
    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += 1;
            if c == b'\n' {
                self.line = self.line.saturating_add(1);
                self.col = 1;
            } else if (c & 0xC0) != 0x80 {
                self.col = self.col.saturating_add(1);
            } else {
                // continuation byte: the character's column was already counted
            }
        }
    }

    fn err(&self, span: Span, msg: impl Into<String>) -> ParseError {
        ParseError::new(span.line, span.col, msg)
    }

    /// Skips whitespace and comments (§4.2: `//` to end of line, `/* */` not nested).
    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r' | b'\n' | 0x0B | 0x0C) => self.bump(),
                Some(b'/') if self.peek_at(1) == Some(b'/') => {
                    while let Some(c) = self.peek() {
                        if c == b'\n' {
                            break;
                        }
                        self.bump();
                    }
                }
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    let start = self.span();
                    self.bump();
                    self.bump();
                    loop {
                        match self.peek() {
                            None => return Err(self.err(start, "unterminated `/*` comment")),
                            Some(b'*') if self.peek_at(1) == Some(b'/') => {
                                self.bump();
                                self.bump();
                                break;
                            }
                            Some(_) => self.bump(),
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn take_while(&mut self, f: impl Fn(u8) -> bool) -> &'a str {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !f(c) {
                break;
            }
            self.bump();
        }
        // Only ASCII bytes pass the predicates used here, so this slice is valid UTF-8.
        std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("")
    }

    fn number(&mut self, span: Span) -> Result<Tok, ParseError> {
        let c0 = self.peek().unwrap_or(b'0');
        let c1 = self.peek_at(1);
        if c0 == b'0' && matches!(c1, Some(b'f' | b'F' | b'd' | b'D')) {
            let double = matches!(c1, Some(b'd' | b'D'));
            self.bump();
            self.bump();
            let digits = self.take_while(|c| c.is_ascii_hexdigit());
            let want = if double { 16 } else { 8 };
            if digits.len() != want {
                return Err(self.err(
                    span,
                    format!(
                        "hex float constant `0{}{digits}` needs exactly {want} hex digits",
                        if double { 'd' } else { 'f' }
                    ),
                ));
            }
            self.no_trailing_ident(span)?;
            return Ok(if double {
                Tok::F64Bits(u64::from_str_radix(digits, 16).unwrap_or(0))
            } else {
                Tok::F32Bits(u32::from_str_radix(digits, 16).unwrap_or(0))
            });
        }
        let (radix, digits) = if c0 == b'0' && matches!(c1, Some(b'x' | b'X')) {
            self.bump();
            self.bump();
            (16, self.take_while(|c| c.is_ascii_hexdigit()))
        } else if c0 == b'0' && matches!(c1, Some(b'b' | b'B')) {
            self.bump();
            self.bump();
            (2, self.take_while(|c| c == b'0' || c == b'1'))
        } else {
            let d = self.take_while(|c| c.is_ascii_digit());
            // A decimal float: digits '.' digits, or an exponent.
            let is_float = (self.peek() == Some(b'.')
                && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()))
                || matches!(self.peek(), Some(b'e' | b'E'));
            if is_float {
                let mut text = d.to_string();
                if self.peek() == Some(b'.') {
                    self.bump();
                    text.push('.');
                    text.push_str(self.take_while(|c| c.is_ascii_digit()));
                }
                if matches!(self.peek(), Some(b'e' | b'E')) {
                    self.bump();
                    text.push('e');
                    if let Some(s @ (b'+' | b'-')) = self.peek() {
                        self.bump();
                        text.push(s as char);
                    }
                    let e = self.take_while(|c| c.is_ascii_digit());
                    if e.is_empty() {
                        return Err(self.err(span, "floating-point exponent has no digits"));
                    }
                    text.push_str(e);
                }
                self.no_trailing_ident(span)?;
                return match text.parse::<f64>() {
                    Ok(value) if value.is_finite() => Ok(Tok::Float { value, text }),
                    _ => Err(self.err(span, format!("bad floating-point constant `{text}`"))),
                };
            }
            if d.len() > 1 && d.starts_with('0') {
                // §4.5.1: a leading 0 means octal.
                if !d.bytes().all(|c| (b'0'..=b'7').contains(&c)) {
                    return Err(self.err(span, format!("bad octal constant `{d}`")));
                }
                (8, &d[1..])
            } else {
                (10, d)
            }
        };
        if digits.is_empty() {
            return Err(self.err(span, "integer constant has no digits"));
        }
        let mut unsigned = false;
        if matches!(self.peek(), Some(b'U' | b'u')) {
            self.bump();
            unsigned = true;
        }
        self.no_trailing_ident(span)?;
        let v = u64::from_str_radix(digits, radix)
            .map_err(|_| self.err(span, "integer constant does not fit in 64 bits"))?;
        if v > i64::MAX as u64 {
            unsigned = true;
        }
        Ok(Tok::Int {
            value: v as i64,
            unsigned,
        })
    }

    fn no_trailing_ident(&self, span: Span) -> Result<(), ParseError> {
        if self.peek().is_some_and(ident_cont) {
            Err(self.err(span, "malformed numeric constant"))
        } else {
            Ok(())
        }
    }

    fn string(&mut self, span: Span) -> Result<Tok, ParseError> {
        self.bump();
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None | Some(b'\n') => return Err(self.err(span, "unterminated string literal")),
                Some(b'"') => {
                    self.bump();
                    break;
                }
                Some(b'\\') => {
                    self.bump();
                    match self.peek() {
                        None => return Err(self.err(span, "unterminated string literal")),
                        Some(c) => {
                            out.push(match c {
                                b'n' => b'\n',
                                b't' => b'\t',
                                other => other,
                            });
                            self.bump();
                        }
                    }
                }
                Some(c) => {
                    out.push(c);
                    self.bump();
                }
            }
        }
        Ok(Tok::Str(String::from_utf8_lossy(&out).into_owned()))
    }

    fn next(&mut self) -> Result<Option<Token>, ParseError> {
        self.skip_trivia()?;
        let span = self.span();
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let tok = if ident_start(c) {
            let start = self.pos;
            self.bump();
            while self.peek().is_some_and(ident_cont) {
                self.bump();
            }
            let s = std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("");
            if s.len() == 1 && (c == b'%' || c == b'$') {
                return Err(self.err(span, format!("`{s}` must be followed by a name")));
            }
            Tok::Ident(s.to_string())
        } else if c == b'.' && self.peek_at(1).is_some_and(|d| ident_cont(d) || d == b'_') {
            let start = self.pos;
            self.bump();
            loop {
                while self.peek().is_some_and(ident_cont) {
                    self.bump();
                }
                // `::` sub-qualifiers: `.shared::cta`, `.L2::cache_hint`, `.L2::64B`.
                if self.peek() == Some(b':')
                    && self.peek_at(1) == Some(b':')
                    && self.peek_at(2).is_some_and(ident_cont)
                {
                    self.bump();
                    self.bump();
                    continue;
                }
                break;
            }
            Tok::Dot(
                std::str::from_utf8(&self.src[start..self.pos])
                    .unwrap_or("")
                    .to_string(),
            )
        } else if c.is_ascii_digit() {
            self.number(span)?
        } else if c == b'"' {
            self.string(span)?
        } else if b",;:{}[]()<>+-!@|=".contains(&c) {
            self.bump();
            Tok::Punct(c as char)
        } else {
            let ch = std::str::from_utf8(&self.src[self.pos..])
                .ok()
                .and_then(|s| s.chars().next());
            let shown = match ch {
                Some(ch) if !ch.is_control() => format!("`{ch}`"),
                _ => format!("byte 0x{c:02X}"),
            };
            return Err(self.err(span, format!("unexpected character {shown}")));
        };
        Ok(Some(Token { tok, span }))
    }
}

/// Splits PTX text into tokens (comments and whitespace dropped), or the first lexical
/// error with its position.
pub fn tokenize(src: &str) -> Result<Vec<Token>, ParseError> {
    let mut lx = Lexer {
        src: src.as_bytes(),
        pos: 0,
        line: 1,
        col: 1,
    };
    let mut out = Vec::new();
    while let Some(t) = lx.next()? {
        out.push(t);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokenize(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn words_and_qualifiers() {
        assert_eq!(
            toks("ld.global.acquire.gpu.u32 %r1, [%rd1+4];"),
            vec![
                Tok::Ident("ld".into()),
                Tok::Dot(".global".into()),
                Tok::Dot(".acquire".into()),
                Tok::Dot(".gpu".into()),
                Tok::Dot(".u32".into()),
                Tok::Ident("%r1".into()),
                Tok::Punct(','),
                Tok::Punct('['),
                Tok::Ident("%rd1".into()),
                Tok::Punct('+'),
                Tok::Int {
                    value: 4,
                    unsigned: false
                },
                Tok::Punct(']'),
                Tok::Punct(';'),
            ]
        );
        assert_eq!(
            toks(".shared::cta .L2::cache_hint"),
            vec![
                Tok::Dot(".shared::cta".into()),
                Tok::Dot(".L2::cache_hint".into())
            ]
        );
    }

    #[test]
    fn constants() {
        assert_eq!(toks("0f3F800000"), vec![Tok::F32Bits(0x3F80_0000)]);
        assert_eq!(
            toks("0d3FF0000000000000"),
            vec![Tok::F64Bits(0x3FF0_0000_0000_0000)]
        );
        assert_eq!(
            toks("0x1F 017 0b101 7U"),
            vec![
                Tok::Int {
                    value: 31,
                    unsigned: false
                },
                Tok::Int {
                    value: 15,
                    unsigned: false
                },
                Tok::Int {
                    value: 5,
                    unsigned: false
                },
                Tok::Int {
                    value: 7,
                    unsigned: true
                },
            ]
        );
        assert_eq!(
            toks("1.5"),
            vec![Tok::Float {
                value: 1.5,
                text: "1.5".into()
            }]
        );
        assert_eq!(
            toks("0xFFFFFFFFFFFFFFFF"),
            vec![Tok::Int {
                value: -1,
                unsigned: true
            }]
        );
    }

    #[test]
    fn comments_and_positions() {
        let t = tokenize("// x\n  /* a\n b */ ret;").unwrap();
        assert_eq!(t[0].tok, Tok::Ident("ret".into()));
        assert_eq!(t[0].span, Span { line: 3, col: 7 });
    }

    #[test]
    fn errors() {
        let e = tokenize("ret;\n  /* open").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        assert!(e.message.contains("unterminated"));
        let e = tokenize("mov.f32 %f1, 0f3F80;").unwrap_err();
        assert_eq!((e.line, e.col), (1, 14));
        let e = tokenize("add #").unwrap_err();
        assert_eq!((e.line, e.col), (1, 5));
        assert!(tokenize("0x").is_err());
        assert!(tokenize("09").is_err());
        assert!(tokenize("\"abc").is_err());
        assert!(tokenize("é\u{0}").is_err());
    }
}
