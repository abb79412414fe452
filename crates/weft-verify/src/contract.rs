//! Which function of the kernel source an annotation stands in (GPUVerify's modular
//! contracts, OOPSLA'12 §5 / GPUVerify's documentation on `__requires` and `__ensures`): a
//! `__requires` is the kernel's precondition (assumed) in a kernel, and a precondition checked
//! at each call site in any other function; `__global_requires` / `__global_ensures` of a
//! called function must hold for every thread, called or not; a `__spec_*` function has only a
//! contract. clang inlines every call, so the verifier finds the function of an annotation
//! from its source line: this module reads the top-level function definitions of the source
//! text (comments removed, preprocessor lines skipped) and records each non-kernel one's body
//! lines, whether its body is a contract only, and whether it is a specification function.

/// A function other than a kernel, defined in the kernel's source file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Callee {
    pub name: String,
    /// 1-based lines of the opening and closing braces of its body.
    pub first: usize,
    pub last: usize,
    /// Every statement of the body is an annotation (`__requires(..);`, ...): the function
    /// does nothing, so its state on entry is its state on return.
    pub contract_only: bool,
    /// GPUVerify's specification function (`__spec_` prefix): its postconditions are assumed.
    pub spec: bool,
    /// Its body names a frame it writes (`__writes_to`): the verifier does not havoc it, so
    /// a postcondition relating old and new values cannot be assumed.
    pub writes: bool,
}

/// The non-kernel functions of one source file, by line (annotations give their line with
/// `__LINE__`: one written in an included header is read as a line of this file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contracts {
    pub callees: Vec<Callee>,
}

impl Contracts {
    /// The function other than a kernel whose body holds `line`, if any.
    pub fn callee_at(&self, line: usize) -> Option<&Callee> {
        self.callees
            .iter()
            .find(|c| c.first <= line && line <= c.last)
    }
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Whether `word` stands in `text` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let end = at + word.len();
        let before = at == 0 || !is_ident(b[at - 1]);
        let after = end >= b.len() || !is_ident(b[end]);
        if before && after {
            return true;
        }
        from = end;
    }
    false
}

/// The function name of a definition head (`void f(int x)` → `f`): the identifier before
/// the parenthesis that matches the head's last `)`. `None` when the head is not a function
/// (no trailing parameter list, or an initialiser).
fn function_name(head: &str) -> Option<String> {
    let b = head.trim_end().as_bytes();
    if b.last() != Some(&b')') {
        return None;
    }
    let mut depth = 0i32;
    let mut open = None;
    for i in (0..b.len()).rev() {
        match b[i] {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let open = open?;
    if head[..open].contains('=') {
        return None;
    }
    let pre = head[..open].trim_end().as_bytes();
    let start = pre.iter().rposition(|&c| !is_ident(c)).map_or(0, |p| p + 1);
    let name = std::str::from_utf8(&pre[start..]).ok()?;
    if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    // Control statements at top level do not exist, but macros may look like them.
    if matches!(name, "if" | "for" | "while" | "switch" | "__attribute__") {
        return None;
    }
    Some(name.to_string())
}

/// Whether every statement of a body (the text between its braces) is an annotation call.
fn only_annotations(body: &str) -> bool {
    if body.contains('{') {
        return false;
    }
    body.split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .all(|s| s.starts_with("__"))
}

/// The non-kernel functions defined in `src`.
pub fn scan(src: &str) -> Contracts {
    let text = crate::placement::strip_comments(src);
    // Preprocessor lines (with their continuations) are not code.
    let mut t = text.clone();
    let mut i = 0;
    let mut line_start = true;
    while i < t.len() {
        if line_start {
            let mut j = i;
            while j < t.len() && (t[j] == b' ' || t[j] == b'\t') {
                j += 1;
            }
            if t.get(j) == Some(&b'#') {
                while j < t.len() && !(t[j] == b'\n' && t[j - 1] != b'\\') {
                    t[j] = b' ';
                    j += 1;
                }
                i = j;
                continue;
            }
        }
        line_start = t[i] == b'\n';
        i += 1;
    }
    let s = String::from_utf8_lossy(&t).into_owned();
    let b = s.as_bytes();
    let line_of = |pos: usize| b[..pos].iter().filter(|&&c| c == b'\n').count() + 1;
    let mut out = Contracts::default();
    // Braces at "top level" (file scope, or inside a namespace / extern "C" / struct body):
    // a definition head is the text since the last `;`, `{` or `}` at that level.
    let mut head_start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                i = crate::placement::skip_literal(b, i);
                continue;
            }
            b';' | b'}' => head_start = i + 1,
            b'{' => {
                let head = &s[head_start..i];
                if let Some(name) = function_name(head) {
                    // The body: up to the matching brace.
                    let j = crate::placement::matching(b, i, b'{', b'}');
                    let kernel = has_word(head, "__kernel")
                        || has_word(head, "kernel")
                        || has_word(head, "__global__");
                    if !kernel {
                        let body = &s[i + 1..j.min(b.len())];
                        out.callees.push(Callee {
                            spec: name.starts_with("__spec"),
                            contract_only: only_annotations(body),
                            writes: has_word(body, "__writes_to"),
                            first: line_of(i),
                            last: line_of(j.min(b.len())),
                            name,
                        });
                    }
                    i = j + 1;
                    head_start = i;
                    continue;
                }
                // A namespace, extern "C" block, struct or initialiser: look inside.
                head_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-derived: `bar` spans lines 2-5 and holds only annotations; the kernel is not a
    /// callee; `__spec_w` is a specification function; `helper` has a statement.
    #[test]
    fn finds_callees_and_their_kinds() {
        let src = "#include <x.h>\nvoid bar(int x) {\n  __requires(x == 1); // c\n  __global_ensures(x);\n}\n__kernel void foo(__global int *A) {\n  bar(1);\n}\nvoid __spec_w(__global int *p) { __writes_to(p); }\nint helper(int y) { return y + 1; }\n";
        let c = scan(src);
        let names: Vec<&str> = c.callees.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["bar", "__spec_w", "helper"]);
        let bar = &c.callees[0];
        assert_eq!(
            (bar.first, bar.last, bar.contract_only, bar.spec),
            (2, 5, true, false)
        );
        assert!(c.callees[1].spec && c.callees[1].contract_only && c.callees[1].writes);
        assert!(!bar.writes);
        assert!(!c.callees[2].contract_only);
        assert_eq!(c.callee_at(3).map(|c| c.name.as_str()), Some("bar"));
        assert!(c.callee_at(7).is_none());
    }

    /// CUDA: `__global__` kernels, `__device__` callees inside a namespace, a struct with an
    /// initialiser before them.
    #[test]
    fn cuda_namespaces_and_initialisers() {
        let src = "int tab[2] = {1, 2};\nnamespace n {\n__device__ int f(int a) {\n  return a;\n}\n}\n__global__ void k(int *A) {\n  A[0] = n::f(1);\n}\n";
        let c = scan(src);
        assert_eq!(c.callees.len(), 1);
        assert_eq!(
            (
                c.callees[0].name.as_str(),
                c.callees[0].first,
                c.callees[0].last
            ),
            ("f", 3, 5)
        );
    }
}
