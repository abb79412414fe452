//! Where a user loop invariant may stand (GPUVerify's front-end rule, OOPSLA'12 §5's user
//! invariants): an `__invariant` / `__global_invariant` is a fact about the loop head, so it
//! must be written in the loop's condition (`for (..; __invariant(e), c; ..)`,
//! `while (__invariant(e), c)`) and its condition must not branch: a short-circuit `&&`,
//! `||` or `?:` inside it puts the check in a block of its own, not at the head. GPUVerify
//! rejects such an invariant ("user-specified invariant does not appear at loop head");
//! weft reports it as an invariant error instead of checking it where it stands.
//!
//! The check reads the source text (comments removed): it sees what the programmer wrote,
//! not what macros expand to.

/// An invariant written where GPUVerify does not accept it: 1-based line and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Misplaced {
    pub line: usize,
    pub why: &'static str,
}

/// The source with comments replaced by spaces (newlines kept, so lines stay where they
/// are); string and character literals are kept as they are.
pub(crate) fn strip_comments(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = skip_literal(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                let end = (i + 2).min(b.len());
                for c in out.iter_mut().take(end).skip(start) {
                    if *c != b'\n' {
                        *c = b' ';
                    }
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The user invariants of `src` that are not at a loop head.
pub fn misplaced_invariants(src: &str) -> Vec<Misplaced> {
    let s = strip_comments(src);
    let mut out = Vec::new();
    let names: [&[u8]; 2] = [b"__invariant", b"__global_invariant"];
    let mut i = 0;
    while i < s.len() {
        let Some(name) = names.iter().find(|n| s[i..].starts_with(n)) else {
            i += 1;
            continue;
        };
        let start = i;
        i += name.len();
        if start > 0 && is_ident(s[start - 1]) || s.get(i).copied().is_some_and(is_ident) {
            continue;
        }
        // A `#define` line names the macro, it does not use it.
        let line_start = s[..start]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        if s[line_start..start].trim_ascii_start().starts_with(b"#") {
            continue;
        }
        let mut j = i;
        while j < s.len() && s[j].is_ascii_whitespace() {
            j += 1;
        }
        if s.get(j) != Some(&b'(') {
            continue;
        }
        // The argument, up to the matching parenthesis.
        let k = matching(&s, j, b'(', b')');
        let arg = &s[j + 1..k.min(s.len())];
        let line = s[..start].iter().filter(|&&c| c == b'\n').count() + 1;
        let branches = arg.windows(2).any(|w| w == b"&&" || w == b"||") || arg.contains(&b'?');
        if branches {
            out.push(Misplaced {
                line,
                why: "a short-circuit `&&`, `||` or `?:` in the invariant branches before the loop head",
            });
        } else if !in_loop_condition(&s[..start]) {
            out.push(Misplaced {
                line,
                why: "the invariant is not in the loop's condition",
            });
        }
        i = k.max(i);
    }
    out
}

/// Whether the text before an annotation ends inside the parentheses of a `for` or `while`
/// header (the innermost open bracket is the `(` after `for` / `while`).
fn in_loop_condition(before: &[u8]) -> bool {
    let mut depth = 0i64;
    for p in (0..before.len()).rev() {
        match before[p] {
            b')' | b'}' | b']' => depth += 1,
            b'(' | b'{' | b'[' => {
                if depth > 0 {
                    depth -= 1;
                    continue;
                }
                if before[p] != b'(' {
                    return false;
                }
                let head = before[..p].trim_ascii_end();
                let word_start = head
                    .iter()
                    .rposition(|&c| !is_ident(c))
                    .map_or(0, |q| q + 1);
                let word = &head[word_start..];
                return word == b"for" || word == b"while";
            }
            _ => {}
        }
    }
    false
}

/// The index of the bracket `close` matching the `open` at `b[from]` (nesting counted), or
/// `b.len()` when it is never closed.
pub(crate) fn matching(b: &[u8], from: usize, open: u8, close: u8) -> usize {
    let mut depth = 0usize;
    for (k, &c) in b.iter().enumerate().skip(from) {
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return k;
            }
        }
    }
    b.len()
}

/// The index just after the string or character literal opening at `b[i]` (escapes
/// skipped; an unterminated literal ends at its line's end).
pub(crate) fn skip_literal(b: &[u8], mut i: usize) -> usize {
    let q = b[i];
    i += 1;
    while i < b.len() && b[i] != q && b[i] != b'\n' {
        if b[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    i + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_condition_invariants_are_accepted() {
        let src = "void f(int n) {\n  for (int i = 0; __invariant(i >= 0), __invariant(__implies(i > 0, n > 0)), i < n; i++) {}\n  while (__global_invariant(n == n), n < 4) { n++; }\n}\n";
        assert_eq!(misplaced_invariants(src), vec![]);
    }

    #[test]
    fn short_circuits_and_body_invariants_are_reported() {
        // GPUVerify's invariant_specification_mistakes tests: `&&`, `||`, `?:`, and an
        // invariant in the loop body.
        let src = "void f(int x) {\n  for (int i = 0; __invariant((i >= 0) && (i < 9)), i < 4; i++) {}\n  for (int i = 0; __invariant(x ? i == 1 : 1), i < 4; i++) {}\n  for (int i = 0; i < 4; i++) {\n    x++;\n    __invariant(x > 0);\n  }\n}\n";
        let m = misplaced_invariants(src);
        assert_eq!(m.iter().map(|x| x.line).collect::<Vec<_>>(), vec![2, 3, 6]);
    }

    #[test]
    fn comments_and_definitions_are_not_uses() {
        let src = "#define __invariant(c) ((void)0)\n// __invariant(a && b)\n/* __invariant(x) */\nvoid f() {}\n";
        assert_eq!(misplaced_invariants(src), vec![]);
    }
}
