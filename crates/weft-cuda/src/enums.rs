//! Enum-typed kernel parameters: a parameter whose type is an enumeration declared in the
//! file takes only the enumerators' values. [`restrict_enum_params`] rewrites the source so
//! that each such kernel starts by assuming it (`__assume(m == A || m == B)`, GPUVerify's
//! annotation, which every engine that reads annotations honours), on the line of the
//! kernel's opening brace, so that no other line moves.

/// An enumeration of the source: its name and its enumerators (as the source names them:
/// `A`, or `Name::A` for a scoped `enum class`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enum {
    pub name: String,
    pub values: Vec<String>,
}

fn ident_at(s: &str) -> String {
    s.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

fn word_before_ok(src: &str, at: usize) -> bool {
    src[..at]
        .chars()
        .last()
        .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
}

/// The enumerations declared in `src` (`enum N {..}`, `enum class N : T {..}`,
/// `typedef enum {..} N;`).
pub fn enums(src: &str) -> Vec<Enum> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = src[from..].find("enum") {
        let at = from + i;
        from = at + 4;
        let rest = &src[from..];
        if !word_before_ok(src, at) || rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let mut r = rest.trim_start();
        let scoped = r.starts_with("class ") || r.starts_with("struct ");
        if scoped {
            r = r.split_once(' ').map_or("", |x| x.1);
        }
        let mut name = ident_at(r);
        let Some(open) = r.find('{') else { continue };
        if r[..open].contains(';') {
            continue;
        }
        let Some(close) = r[open..].find('}') else {
            continue;
        };
        let body = &r[open + 1..open + close];
        if name.is_empty() {
            // `typedef enum { ... } Name;`
            name = ident_at(&r[open + close + 1..]);
        }
        if name.is_empty() {
            continue;
        }
        let values: Vec<String> = body
            .split(',')
            .map(|e| ident_at(e.split('=').next().unwrap_or("")))
            .filter(|v| !v.is_empty())
            .map(|v| if scoped { format!("{name}::{v}") } else { v })
            .collect();
        if !values.is_empty() {
            out.push(Enum { name, values });
        }
    }
    out
}

/// `src` with an assumption at the start of each kernel (`__global__`, `__kernel`,
/// `kernel`) that its enum-typed parameters hold one of their enumerators; `None` when no
/// kernel has one.
pub fn restrict_enum_params(src: &str) -> Option<String> {
    let es = enums(src);
    if es.is_empty() {
        return None;
    }
    let mut inserts: Vec<(usize, String)> = Vec::new();
    for key in ["__global__", "__kernel", "kernel"] {
        let mut from = 0;
        while let Some(i) = src[from..].find(key) {
            let at = from + i;
            from = at + key.len();
            if !word_before_ok(src, at)
                || src[from..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            let Some(open) = src[from..].find('(').map(|p| from + p) else {
                continue;
            };
            let Some(close) = src[open..].find(')').map(|p| open + p) else {
                continue;
            };
            let Some(brace) = src[close..].find('{').map(|p| close + p) else {
                continue;
            };
            if src[close + 1..brace].contains(';') {
                continue; // a declaration
            }
            let mut conds = Vec::new();
            for p in src[open + 1..close].split(',') {
                let words: Vec<&str> = p
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .filter(|w| !w.is_empty())
                    .collect();
                if words.len() < 2 || p.contains('*') || p.contains('&') {
                    continue;
                }
                let pname = words[words.len() - 1];
                let ty = &words[..words.len() - 1];
                if let Some(e) = es.iter().find(|e| ty.contains(&e.name.as_str())) {
                    let alts: Vec<String> =
                        e.values.iter().map(|v| format!("{pname} == {v}")).collect();
                    conds.push(format!("__assume({});", alts.join(" || ")));
                }
            }
            if !conds.is_empty() && !inserts.iter().any(|x| x.0 == brace + 1) {
                inserts.push((brace + 1, format!(" {}", conds.join(" "))));
            }
        }
    }
    if inserts.is_empty() {
        return None;
    }
    inserts.sort();
    let mut out = src.to_string();
    for (at, text) in inserts.into_iter().rev() {
        out.insert_str(at, &text);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_scoped_and_typedef_enums() {
        let src = "enum Mode { LEFT, RIGHT = 4 };\nenum class Op : int { Add = 1, Mul };\n\
                   typedef enum { RED, GREEN } Colour;\n";
        let es = enums(src);
        assert_eq!(es.len(), 3);
        assert_eq!(es[0].values, vec!["LEFT", "RIGHT"]);
        assert_eq!(es[1].values, vec!["Op::Add", "Op::Mul"]);
        assert_eq!(es[2].name, "Colour");
    }

    #[test]
    fn assumes_enumerators_on_the_brace_line() {
        let src =
            "enum Mode { A, B };\n__global__ void k(int *p, Mode m, int n)\n{\n  p[0] = m;\n}\n";
        let out = restrict_enum_params(src).unwrap();
        assert!(out.contains("{ __assume(m == A || m == B);\n"), "{out}");
        assert_eq!(out.lines().count(), src.lines().count());
        assert!(restrict_enum_params("__global__ void k(int *p) {}").is_none());
    }
}
