//! The cat lexer: turns model text into tokens with byte spans.
//!
//! Lexical rules follow the herd manual (§"Identifiers" and §"Model definitions"):
//! identifiers start with a letter and continue with letters, digits, `_`, `.` and `-`
//! (so `po-loc` and `membar.cta` are single names), optionally ending with `'`; tags are
//! `'name`; comments are `(* ... *)` (nested) or `//` to end of line; strings are
//! double-quoted on one line; `0` is the only numeral. Keywords are reserved except
//! `variant`, which the parser recognises only after `if`.

use crate::error::{CatError, ErrorKind, SourceFile};

/// Reserved words of the cat language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keyword {
    /// `let`
    Let,
    /// `rec`
    Rec,
    /// `and`
    And,
    /// `in`
    In,
    /// `fun`
    Fun,
    /// `match`
    Match,
    /// `with`
    With,
    /// `end`
    End,
    /// `begin`
    Begin,
    /// `acyclic`
    Acyclic,
    /// `irreflexive`
    Irreflexive,
    /// `empty`
    Empty,
    /// `as`
    As,
    /// `flag`
    Flag,
    /// `undefined_unless`
    UndefinedUnless,
    /// `show`
    Show,
    /// `unshow`
    Unshow,
    /// `include`
    Include,
    /// `enum`
    Enum,
    /// `procedure`
    Procedure,
    /// `call`
    Call,
    /// `forall`
    Forall,
    /// `do`
    Do,
    /// `from`
    From,
    /// `if`
    If,
    /// `then`
    Then,
    /// `else`
    Else,
    /// `try`
    Try,
    /// `instructions`
    Instructions,
}

impl Keyword {
    fn from_word(w: &str) -> Option<Keyword> {
        use Keyword::*;
        Some(match w {
            "let" => Let,
            "rec" => Rec,
            "and" => And,
            "in" => In,
            "fun" => Fun,
            "match" => Match,
            "with" => With,
            "end" => End,
            "begin" => Begin,
            "acyclic" => Acyclic,
            "irreflexive" => Irreflexive,
            "empty" => Empty,
            "as" => As,
            "flag" => Flag,
            "undefined_unless" => UndefinedUnless,
            "show" => Show,
            "unshow" => Unshow,
            "include" => Include,
            "enum" => Enum,
            "procedure" => Procedure,
            "call" => Call,
            "forall" => Forall,
            "do" => Do,
            "from" => From,
            "if" => If,
            "then" => Then,
            "else" => Else,
            "try" => Try,
            "instructions" => Instructions,
            _ => return None,
        })
    }

    /// The keyword as written.
    pub fn text(self) -> &'static str {
        use Keyword::*;
        match self {
            Let => "let",
            Rec => "rec",
            And => "and",
            In => "in",
            Fun => "fun",
            Match => "match",
            With => "with",
            End => "end",
            Begin => "begin",
            Acyclic => "acyclic",
            Irreflexive => "irreflexive",
            Empty => "empty",
            As => "as",
            Flag => "flag",
            UndefinedUnless => "undefined_unless",
            Show => "show",
            Unshow => "unshow",
            Include => "include",
            Enum => "enum",
            Procedure => "procedure",
            Call => "call",
            Forall => "forall",
            Do => "do",
            From => "from",
            If => "if",
            Then => "then",
            Else => "else",
            Try => "try",
            Instructions => "instructions",
        }
    }
}

/// A token of cat text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name such as `po`, `po-loc`, `membar.cta`, `hb'`.
    Ident(String),
    /// A double-quoted string, without the quotes.
    Str(String),
    /// A tag `'name`, without the quote.
    Tag(String),
    /// A reserved word.
    Kw(Keyword),
    /// `0`, the empty relation.
    Zero,
    /// `_`, the universal set.
    Underscore,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `,`
    Comma,
    /// `=`
    Equals,
    /// `->`
    Arrow,
    /// `|`
    Bar,
    /// `||`
    BarBar,
    /// `&`
    Amp,
    /// `\`
    Backslash,
    /// `;`
    Semi,
    /// `*` (cartesian product or reflexive-transitive closure)
    Star,
    /// `+` (transitive closure)
    Plus,
    /// `++` (set addition)
    PlusPlus,
    /// `?` (reflexive closure)
    Question,
    /// `^-1` (inverse)
    Inverse,
    /// `^+`: explicit transitive closure (an extension of herd's syntax, as are `^*`, `^?`).
    CaretPlus,
    /// `^*`
    CaretStar,
    /// `^?`
    CaretQuestion,
    /// `~` (complement, or negation of a check)
    Tilde,
    /// End of input.
    Eof,
}

impl Tok {
    /// A short human description for error messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("identifier `{s}`"),
            Tok::Str(s) => format!("string \"{s}\""),
            Tok::Tag(s) => format!("tag `'{s}`"),
            Tok::Kw(k) => format!("keyword `{}`", k.text()),
            Tok::Eof => "end of input".to_string(),
            other => format!("`{}`", other.symbol()),
        }
    }

    fn symbol(&self) -> &'static str {
        match self {
            Tok::Zero => "0",
            Tok::Underscore => "_",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Equals => "=",
            Tok::Arrow => "->",
            Tok::Bar => "|",
            Tok::BarBar => "||",
            Tok::Amp => "&",
            Tok::Backslash => "\\",
            Tok::Semi => ";",
            Tok::Star => "*",
            Tok::Plus => "+",
            Tok::PlusPlus => "++",
            Tok::Question => "?",
            Tok::Inverse => "^-1",
            Tok::CaretPlus => "^+",
            Tok::CaretStar => "^*",
            Tok::CaretQuestion => "^?",
            Tok::Tilde => "~",
            _ => "?",
        }
    }
}

/// A token and the byte range it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic()
}

fn is_ident_continue(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-')
}

/// Splits `file`'s text into tokens, ending with [`Tok::Eof`].
pub fn tokenize(file: &SourceFile) -> Result<Vec<Token>, CatError> {
    let src = file.text.as_bytes();
    let err = |pos: usize, msg: String| file.error(ErrorKind::Lex, pos, msg);
    let mut toks = Vec::new();
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        let start = i;
        // Whitespace.
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // Comments.
        if c == b'(' && src.get(i + 1) == Some(&b'*') {
            let mut depth = 1usize;
            i += 2;
            while depth > 0 {
                if i >= src.len() {
                    return Err(err(start, "unterminated comment `(*`".into()));
                }
                if src[i] == b'(' && src.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if src[i] == b'*' && src.get(i + 1) == Some(&b')') {
                    depth -= 1;
                    i += 2;
                } else {
                    i += 1;
                }
            }
            continue;
        }
        if c == b'/' && src.get(i + 1) == Some(&b'/') {
            while i < src.len() && src[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let underscore_name = c == b'_'
            && src
                .get(i + 1)
                .is_some_and(|&d| d.is_ascii_alphanumeric() || d == b'_');
        let tok = if is_ident_start(c) || underscore_name {
            i += 1;
            // `-` continues a name (`po-loc`) unless it starts an arrow (`fun x->e`).
            while i < src.len()
                && is_ident_continue(src[i])
                && !(src[i] == b'-' && src.get(i + 1) == Some(&b'>'))
            {
                i += 1;
            }
            if src.get(i) == Some(&b'\'') {
                i += 1;
            }
            let word = &file.text[start..i];
            match Keyword::from_word(word) {
                Some(k) => Tok::Kw(k),
                None => Tok::Ident(word.to_string()),
            }
        } else if c == b'\'' {
            i += 1;
            if i >= src.len() || !(is_ident_start(src[i]) || src[i] == b'_') {
                return Err(err(start, "expected a tag name after `'`".into()));
            }
            let s = i;
            while i < src.len() && is_ident_continue(src[i]) {
                i += 1;
            }
            Tok::Tag(file.text[s..i].to_string())
        } else if c == b'"' {
            i += 1;
            let s = i;
            while i < src.len() && src[i] != b'"' && src[i] != b'\n' {
                i += 1;
            }
            if i >= src.len() || src[i] != b'"' {
                return Err(err(start, "unterminated string".into()));
            }
            let text = file.text[s..i].to_string();
            i += 1;
            Tok::Str(text)
        } else if c.is_ascii_digit() {
            while i < src.len() && (src[i].is_ascii_alphanumeric() || src[i] == b'_') {
                i += 1;
            }
            let lit = &file.text[start..i];
            if lit != "0" {
                return Err(err(
                    start,
                    format!("unexpected number `{lit}` (the only numeral in cat is `0`, the empty relation)"),
                ));
            }
            Tok::Zero
        } else {
            let two = |a: u8| src.get(i + 1) == Some(&a);
            let (t, len) = match c {
                b'_' => (Tok::Underscore, 1),
                b'(' => (Tok::LParen, 1),
                b')' => (Tok::RParen, 1),
                b'{' => (Tok::LBrace, 1),
                b'}' => (Tok::RBrace, 1),
                b'[' => (Tok::LBracket, 1),
                b']' => (Tok::RBracket, 1),
                b',' => (Tok::Comma, 1),
                b'=' => (Tok::Equals, 1),
                b'-' if two(b'>') => (Tok::Arrow, 2),
                b'|' if two(b'|') => (Tok::BarBar, 2),
                b'|' => (Tok::Bar, 1),
                b'&' => (Tok::Amp, 1),
                b'\\' => (Tok::Backslash, 1),
                b';' => (Tok::Semi, 1),
                b'*' => (Tok::Star, 1),
                b'+' if two(b'+') => (Tok::PlusPlus, 2),
                b'+' => (Tok::Plus, 1),
                b'?' => (Tok::Question, 1),
                b'~' => (Tok::Tilde, 1),
                b'^' => match (src.get(i + 1), src.get(i + 2)) {
                    (Some(b'-'), Some(b'1')) => (Tok::Inverse, 3),
                    (Some(b'+'), _) => (Tok::CaretPlus, 2),
                    (Some(b'*'), _) => (Tok::CaretStar, 2),
                    (Some(b'?'), _) => (Tok::CaretQuestion, 2),
                    _ => {
                        return Err(err(
                            start,
                            "expected `^-1`, `^+`, `^*` or `^?` after `^`".into(),
                        ))
                    }
                },
                _ => {
                    let ch = file.text[start..].chars().next().unwrap_or('?');
                    return Err(err(
                        start,
                        format!("unexpected character `{}`", ch.escape_debug()),
                    ));
                }
            };
            i += len;
            t
        };
        toks.push(Token { tok, start, end: i });
    }
    toks.push(Token {
        tok: Tok::Eof,
        start: src.len(),
        end: src.len(),
    });
    Ok(toks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(s: &str) -> Vec<Tok> {
        tokenize(&SourceFile::new("t.cat", s))
            .unwrap()
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn names_with_dashes_dots_and_primes() {
        assert_eq!(
            lex("po-loc membar.cta hb' _x"),
            vec![
                Tok::Ident("po-loc".into()),
                Tok::Ident("membar.cta".into()),
                Tok::Ident("hb'".into()),
                Tok::Ident("_x".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn operators_and_nested_comments() {
        assert_eq!(
            lex("(* a (* b *) c *) rf^-1 ; co ++ {} // tail\n'acq ~ _*_"),
            vec![
                Tok::Ident("rf".into()),
                Tok::Inverse,
                Tok::Semi,
                Tok::Ident("co".into()),
                Tok::PlusPlus,
                Tok::LBrace,
                Tok::RBrace,
                Tok::Tag("acq".into()),
                Tok::Tilde,
                Tok::Underscore,
                Tok::Star,
                Tok::Underscore,
                Tok::Eof
            ]
        );
    }

    #[test]
    fn errors_have_positions() {
        let e = tokenize(&SourceFile::new("m.cat", "let x =\n  po $ rf")).unwrap_err();
        assert_eq!((e.line(), e.col()), (Some(2), Some(6)));
        assert!(e.message.contains('$'));
        let e = tokenize(&SourceFile::new("m.cat", "(* (* *)")).unwrap_err();
        assert_eq!((e.line(), e.col()), (Some(1), Some(1)));
        let e = tokenize(&SourceFile::new("m.cat", "let x = 12")).unwrap_err();
        assert!(e.message.contains("12"));
    }
}
