//! Which function of the kernel source an annotation stands in (GPUVerify's modular
//! contracts, OOPSLA'12 §5 / GPUVerify's documentation on `__requires` and `__ensures`): a
//! `__requires` is the kernel's precondition (assumed) in a kernel, and a precondition checked
//! at each call site in any other function; `__global_requires` / `__global_ensures` of a
//! called function must hold for every thread, called or not; a `__spec_*` function has only a
//! contract. clang inlines every call, so the verifier finds the function of an annotation
//! from its source line: this module reads the top-level function definitions of the source
//! text (comments removed, preprocessor lines skipped) and records each non-kernel one's body
//! lines, whether its body is a contract only, and whether it is a specification function.
//! It also rewrites the source, lines kept, so that a function's `__ensures` is evaluated on
//! its return and a specification function's `__writes_to` frame is written
//! ([`ensures_on_return`]).

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
    /// Its `__ensures` / `__global_ensures` were moved to a wrapper that evaluates them on
    /// return ([`ensures_on_return`]): they are checked there.
    pub ensures_on_return: bool,
    /// Byte offsets in the source: the definition head (return type, name, parameters) and
    /// the body's braces.
    pub head: (usize, usize),
    pub braces: (usize, usize),
}

/// The non-kernel functions of one source file, by line (annotations give their line with
/// `__LINE__`: one written in an included header is read as a line of this file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contracts {
    pub callees: Vec<Callee>,
    /// The kernels defined in the file: name and the 1-based lines of their body's braces.
    pub kernels: Vec<(String, usize, usize)>,
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
    name_span(head).map(|(a, b)| head[a..b].to_string())
}

/// The byte range of the function name in a definition head, see [`function_name`].
fn name_span(head: &str) -> Option<(usize, usize)> {
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
    Some((start, pre.len()))
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

/// The source with comments and preprocessor lines (with their continuations) replaced by
/// spaces, byte for byte (newlines kept).
pub(crate) fn code_text(src: &str) -> String {
    let mut t = crate::placement::strip_comments(src);
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
    String::from_utf8_lossy(&t).into_owned()
}

/// The non-kernel functions defined in `src`.
pub fn scan(src: &str) -> Contracts {
    let s = code_text(src);
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
                    if kernel {
                        out.kernels
                            .push((name, line_of(i), line_of(j.min(b.len()))));
                    } else {
                        let body = &s[i + 1..j.min(b.len())];
                        out.callees.push(Callee {
                            spec: name.starts_with("__spec"),
                            contract_only: only_annotations(body),
                            writes: has_word(body, "__writes_to"),
                            first: line_of(i),
                            last: line_of(j.min(b.len())),
                            ensures_on_return: false,
                            head: (head_start, i),
                            braces: (i, j.min(b.len())),
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

/// The parameter names of a parameter list (the text between the parentheses), in order;
/// `None` when one has no name or is not a plain declarator (a function pointer).
fn param_names(params: &str) -> Option<Vec<String>> {
    let t = params.trim();
    if t.is_empty() || t == "void" {
        return Some(Vec::new());
    }
    let b = t.as_bytes();
    let mut parts = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (k, &c) in b.iter().enumerate() {
        match c {
            b'(' | b'[' | b'<' => depth += 1,
            b')' | b']' | b'>' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&t[from..k]);
                from = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&t[from..]);
    parts
        .iter()
        .map(|p| {
            let p = p.trim();
            if p.contains('(') || p.contains("...") {
                return None;
            }
            // `int a[4]`: the name stands before the array suffix.
            let p = p.split('[').next().unwrap_or("").trim_end();
            let pb = p.as_bytes();
            let start = pb.iter().rposition(|&c| !is_ident(c)).map_or(0, |i| i + 1);
            let name = &p[start..];
            // A type alone (`int`, `float *`) has no name: its last word is a type word.
            let typeish = start == 0
                || name.is_empty()
                || name.as_bytes()[0].is_ascii_digit()
                || matches!(
                    name,
                    "int"
                        | "unsigned"
                        | "signed"
                        | "char"
                        | "short"
                        | "long"
                        | "float"
                        | "double"
                        | "bool"
                        | "void"
                        | "const"
                        | "volatile"
                        | "restrict"
                        | "__restrict__"
                        | "size_t"
                );
            (!typeish).then(|| name.to_string())
        })
        .collect()
}

/// Replaces every call `NAME...(args)` of a macro whose name starts with `prefix` in `e` by
/// `f(name, args)`.
fn replace_calls(e: &str, prefix: &str, f: &mut dyn FnMut(&str, &str) -> String) -> String {
    let b = e.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let at_word = i == 0 || !is_ident(b[i - 1]);
        if at_word && e[i..].starts_with(prefix) {
            let mut j = i + prefix.len();
            while j < b.len() && is_ident(b[j]) {
                j += 1;
            }
            let mut k = j;
            while k < b.len() && b[k] == b' ' {
                k += 1;
            }
            if k < b.len() && b[k] == b'(' {
                let close = crate::placement::matching(b, k, b'(', b')');
                if close < b.len() {
                    out.push_str(&f(&e[i..j], &e[k + 1..close]));
                    i = close + 1;
                    continue;
                }
            }
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// The calls `word(args)` in `body` (whole identifier), as (start, end past `)`, args).
fn calls_in(body: &str, word: &str) -> Vec<(usize, usize, String)> {
    let bb = body.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = body[from..].find(word) {
        let at = from + k;
        let end = at + word.len();
        from = end;
        if (at > 0 && is_ident(bb[at - 1])) || (end < bb.len() && is_ident(bb[end])) {
            continue;
        }
        let mut p = end;
        while p < bb.len() && bb[p].is_ascii_whitespace() {
            p += 1;
        }
        if p >= bb.len() || bb[p] != b'(' {
            continue;
        }
        let close = crate::placement::matching(bb, p, b'(', b')');
        if close >= bb.len() {
            continue;
        }
        out.push((at, close + 1, body[p + 1..close].to_string()));
    }
    out
}

/// The first top-level comma of `args` splits it in two.
fn split_first_arg(args: &str) -> Option<(&str, &str)> {
    let mut depth = 0i32;
    for (k, c) in args.bytes().enumerate() {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b',' if depth == 0 => return Some((args[..k].trim(), args[k + 1..].trim())),
            _ => {}
        }
    }
    None
}

/// A specification function's frame (`__writes_to(p)` of a `__spec_` function): the call
/// writes p's array. Each `__writes_to(p)` becomes a write by the calling thread of an
/// arbitrary value to one element of p at an arbitrary index, assumed to satisfy every
/// `__ensures(__write_implies(p, C))` of the function (C with `__write_offset(p)` /
/// `__write_offset_bytes(p)` the byte offset of that element): the access the race check
/// sees is a write wherever the specification allows one. Under the adversarial abstraction
/// every read of p is arbitrary anyway; under the equality abstraction only that element
/// changes (the rest of the array is not havocked). Edits for [`ensures_on_return`].
fn frame_writes(s: &str, c: &Callee) -> Vec<(usize, usize, String)> {
    let (o, cl) = c.braces;
    if cl >= s.len() {
        return Vec::new();
    }
    let body = &s[o + 1..cl];
    let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let implies: Vec<(String, String)> = calls_in(body, "__ensures")
        .iter()
        .filter_map(|(_, _, e)| {
            let e = e.trim();
            let inner = calls_in(e, "__write_implies");
            match inner.as_slice() {
                [(0, z, args)] if *z == e.len() => {
                    let (p, cond) = split_first_arg(args)?;
                    Some((flat(p), flat(cond)))
                }
                _ => None,
            }
        })
        .collect();
    let mut edits = Vec::new();
    for (a, z, p) in calls_in(body, "__writes_to") {
        let p = flat(&p);
        let off = "(__weft_wo * (unsigned)sizeof(*(__weft_wp)))";
        let mut assumes = String::new();
        for (q, cond) in implies.iter().filter(|(q, _)| *q == p) {
            let _ = q;
            let cond = replace_calls(cond, "__write_offset", &mut |name, arg| {
                if (name == "__write_offset" || name == "__write_offset_bytes") && flat(arg) == p {
                    off.to_string()
                } else {
                    format!("{name}({arg})")
                }
            });
            assumes.push_str(&format!("__weft_frame_assume({cond}); "));
        }
        let text = format!(
            "{{ __typeof__(({p})) __weft_wp = ({p}); unsigned __weft_wo = (unsigned)__weft_query_return_val_int(); {assumes}((volatile __typeof__(*(__weft_wp)) *)(__weft_wp))[__weft_wo] = (__typeof__(*(__weft_wp)))__weft_query_return_val_int(); }}"
        );
        edits.push((o + 1 + a, o + 1 + z, text));
    }
    edits
}

/// GPUVerify evaluates a function's `__ensures` on return, with `__old_*(e)` the value of
/// `e` on entry and `__return_val_*()` the returned value (GPUVerify's annotation
/// documentation). clang inlines every call, so an `__ensures` of a function with a body
/// would be evaluated where it is written. This rewrites the source, keeping every line
/// where it is: each such function `f` (not a `__spec_` function, not a contract only) is
/// renamed `__weft_body_f` with its `__ensures` / `__global_ensures` blanked out, and a
/// wrapper `f` with the same head is appended on the line of its closing brace: it takes
/// the `__old_*` values, calls `__weft_body_f`, then evaluates the postconditions over the
/// returned value. The wrapper's annotations carry the line of the closing brace, inside
/// the function, and `ensures_on_return` tells the verifier to check them there. Returns the
/// new source, or `None` when no function needs it. A function whose parameters cannot be
/// named (function pointers, unnamed parameters) is left as it is.
pub fn ensures_on_return(src: &str, contracts: &mut Contracts) -> Option<String> {
    let s = code_text(src);
    if s.len() != src.len() {
        return None;
    }
    // (byte range, replacement), applied from the end.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for c in contracts.callees.iter_mut() {
        if c.spec && c.writes {
            edits.extend(frame_writes(&s, c));
            continue;
        }
        if c.spec || c.contract_only {
            continue;
        }
        let (h0, h1) = c.head;
        let (o, cl) = c.braces;
        if cl >= s.len() || h1 > o {
            continue;
        }
        let body = &s[o + 1..cl];
        let mut ens: Vec<(usize, usize, &str, String)> = Vec::new();
        for word in ["__ensures", "__global_ensures"] {
            for (at, end, cond) in calls_in(body, word) {
                ens.push((o + 1 + at, o + 1 + end, word, cond));
            }
        }
        if ens.is_empty() {
            continue;
        }
        ens.sort_by_key(|e| e.0);
        let head = &s[h0..h1];
        let Some((n0, n1)) = name_span(head) else {
            continue;
        };
        let Some(popen) = head[n1..].find('(').map(|k| n1 + k) else {
            continue;
        };
        let pclose = crate::placement::matching(head.as_bytes(), popen, b'(', b')');
        if pclose >= head.len() {
            continue;
        }
        let Some(args) = param_names(&head[popen + 1..pclose]) else {
            continue;
        };
        let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        let prefix = flat(&head[..n0]);
        let body_name = format!("__weft_body_{}", c.name);
        let call = format!("{body_name}({})", args.join(", "));
        let is_void = has_word(&prefix, "void") && !prefix.contains('*');
        let mut olds = String::new();
        let mut n_old = 0;
        let mut posts = String::new();
        for (_, _, word, e) in &ens {
            let e = replace_calls(&flat(e), "__old_", &mut |name, x| {
                let v = format!("__weft_old_{n_old}");
                n_old += 1;
                olds.push_str(&match name {
                    "__old_int" => format!("int {v} = (int)({x}); "),
                    "__old_bool" => format!("int {v} = !!({x}); "),
                    _ => format!("__typeof__({x}) {v} = ({x}); "),
                });
                format!("({v})")
            });
            let e = if is_void {
                e
            } else {
                replace_calls(&e, "__return_val_", &mut |_, _| "(__weft_ret)".into())
            };
            posts.push_str(&format!("{word}({e}); "));
        }
        let wrapper = if is_void {
            format!(
                " {prefix} {}({}) {{ {olds}{call}; {posts}}}",
                c.name,
                flat(&head[popen + 1..pclose])
            )
        } else {
            format!(
                " {prefix} {}({}) {{ {olds}__typeof__({call}) __weft_ret = {call}; {posts}return __weft_ret; }}",
                c.name,
                flat(&head[popen + 1..pclose])
            )
        };
        edits.push((h0 + n0, h0 + n1, body_name));
        for (a, z, _, _) in &ens {
            let blank: String = src[*a..*z]
                .chars()
                .map(|ch| if ch == '\n' { '\n' } else { ' ' })
                .collect();
            edits.push((*a, *z, blank));
        }
        edits.push((cl + 1, cl + 1, wrapper));
        c.ensures_on_return = true;
    }
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|e| (e.0, e.1));
    let mut out = src.to_string();
    for (a, z, r) in edits.into_iter().rev() {
        out.replace_range(a..z, &r);
    }
    Some(out)
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

    /// Hand-derived: `inc`'s postcondition is blanked where it is written, `inc` is renamed
    /// `__weft_body_inc`, and the wrapper on the closing brace's line takes `__old_int(x)`
    /// before the call and reads the returned value; every line stays where it was. The
    /// contract-only `bar` and the `__spec_` function are left alone.
    #[test]
    fn ensures_move_to_the_return() {
        let src = "#include <x.h>\n__device__ int inc(int x,\n    int *p) {\n  __ensures(__return_val_int() ==\n      __old_int(x) + 1); // c\n  x = 3;\n  return x;\n}\nvoid bar(int q) { __ensures(q == __old_int(q)); }\nvoid __spec_s(int *p) { __ensures(*p == 0); }\n";
        let mut c = scan(src);
        let out = ensures_on_return(src, &mut c).expect("rewritten");
        assert_eq!(out.lines().count(), src.lines().count());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], "__device__ int __weft_body_inc(int x,");
        assert_eq!(lines[3].trim(), "");
        assert_eq!(lines[4].trim(), "; // c");
        assert_eq!(
            lines[7],
            "} __device__ int inc(int x, int *p) { int __weft_old_0 = (int)(x); __typeof__(__weft_body_inc(x, p)) __weft_ret = __weft_body_inc(x, p); __ensures((__weft_ret) == (__weft_old_0) + 1); return __weft_ret; }"
        );
        assert_eq!(&lines[8..], &src.lines().collect::<Vec<_>>()[8..]);
        let flags: Vec<bool> = c.callees.iter().map(|c| c.ensures_on_return).collect();
        assert_eq!(flags, [true, false, false]);
        // A void function: no returned value; an unnamed parameter: left as it is.
        let src = "void f(int a) { a = a + 1; __global_ensures(__old_bool(a)); }\nint g(int) { __ensures(1); return 0; }\n";
        let mut c = scan(src);
        let out = ensures_on_return(src, &mut c).expect("rewritten");
        assert_eq!(
            out,
            "void __weft_body_f(int a) { a = a + 1;                                ; } void f(int a) { int __weft_old_0 = !!(a); __weft_body_f(a); __global_ensures((__weft_old_0)); }\nint g(int) { __ensures(1); return 0; }\n"
        );
        assert_eq!(
            ensures_on_return(
                "int h(int y) { return y; }\n",
                &mut scan("int h(int y) { return y; }\n")
            ),
            None
        );
    }

    /// Hand-derived: the frame `__writes_to(p)` of a `__spec_` function becomes a write of an
    /// arbitrary value at an arbitrary index, whose byte offset is assumed to satisfy the
    /// `__write_implies(p, ..)` postcondition (one about another pointer is not used); the
    /// postconditions stay where they are (not assumed for a function with a frame).
    #[test]
    fn frame_writes_are_bounded_by_write_implies() {
        let src = "void __spec_f(int *p, int *q) {\n  __ensures(__write_implies(p, __write_offset_bytes(p) / 4 == 3));\n  __ensures(__write_implies(q, __write_offset(q) == 0));\n  __writes_to(p);\n}\n";
        let mut c = scan(src);
        assert!(c.callees[0].spec && c.callees[0].writes);
        let out = ensures_on_return(src, &mut c).expect("rewritten");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(&lines[..3], &src.lines().collect::<Vec<_>>()[..3]);
        assert_eq!(
            lines[3],
            "  { __typeof__((p)) __weft_wp = (p); unsigned __weft_wo = (unsigned)__weft_query_return_val_int(); __weft_frame_assume((__weft_wo * (unsigned)sizeof(*(__weft_wp))) / 4 == 3); ((volatile __typeof__(*(__weft_wp)) *)(__weft_wp))[__weft_wo] = (__typeof__(*(__weft_wp)))__weft_query_return_val_int(); };"
        );
        assert!(!c.callees[0].ensures_on_return);
    }
}
