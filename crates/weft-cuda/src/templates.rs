//! Template kernels: which instantiations of a CUDA file's `template <...> __global__`
//! kernels an engine should see. clang emits a template kernel only where something
//! instantiates it (the file's host code launching `k<float><<<...>>>`); for a file without
//! such a launch, [`instantiations`] writes the lines that instantiate a kernel with the
//! template arguments asked for (`--template 'k<float>'`), or else with the template's
//! default arguments (`k<>`), or else, when every parameter without a default is a type,
//! with `int` for each of them (`k<int>`), and says which.

/// A `template <...> __global__ void NAME` kernel of the source: its name and whether every
/// template parameter has a default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateKernel {
    pub name: String,
    pub all_defaults: bool,
    /// The arguments that instantiate it with `int` for each type parameter without a
    /// default (`int, int` for `template <typename T, class U, int N = 4>`); `None` when a
    /// parameter without a default is not a type (`int N`: no value is a fair guess).
    pub int_args: Option<String>,
}

/// The template kernels of `src`, in order.
pub fn template_kernels(src: &str) -> Vec<TemplateKernel> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = src[from..].find("template") {
        let at = from + i;
        from = at + "template".len();
        let before_ok = src[..at]
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let rest = src[from..].trim_start();
        if !before_ok || !rest.starts_with('<') {
            continue;
        }
        // The parameter list, with nested angle brackets.
        let mut depth = 0;
        let mut end = None;
        for (j, c) in rest.char_indices() {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(j);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { continue };
        let params = &rest[1..end];
        let head = rest[end + 1..].trim_start();
        let Some(after) = head
            .strip_prefix("__global__")
            .or_else(|| head.strip_prefix("__attribute__((global))"))
        else {
            continue;
        };
        let after = after.trim_start();
        let Some(after) = after.strip_prefix("void") else {
            continue;
        };
        let name: String = after
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        let parts = split_top(params);
        let all_defaults = parts.iter().all(|p| p.contains('='));
        out.push(TemplateKernel {
            name,
            all_defaults,
            int_args: int_args(&parts),
        });
    }
    out
}

/// `int` for each leading type parameter without a default (the rest take their defaults);
/// `None` when a parameter without a default is not a type parameter or is a pack.
fn int_args(parts: &[&str]) -> Option<String> {
    let mut args = Vec::new();
    for p in parts {
        if p.contains('=') {
            break;
        }
        let p = p.trim();
        let is_type = ["typename", "class"].iter().any(|k| {
            p.strip_prefix(k)
                .is_some_and(|r| r.is_empty() || r.starts_with(char::is_whitespace))
        });
        if !is_type || p.contains("...") {
            return None;
        }
        args.push("int");
    }
    Some(args.join(", "))
}

/// `a, b<c, d>, e` split at the commas outside angle brackets and parentheses.
fn split_top(s: &str) -> Vec<&str> {
    let mut v = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                v.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        v.push(&s[start..]);
    }
    v
}

/// Whether `src` launches `name<...>` from host code (`name<...><<<`).
fn launched(src: &str, name: &str) -> bool {
    let mut from = 0;
    while let Some(i) = src[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        if src[..at]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = src[from..].trim_start();
        if rest.starts_with('<') && !rest.starts_with("<<<") {
            if let Some(j) = rest.find("<<<") {
                if !rest[..j].contains(';') {
                    return true;
                }
            }
        }
    }
    false
}

/// The lines to append to `src` so that the template kernels are instantiated, and one note
/// per template kernel saying which instantiation is verified. `requested` holds
/// `--template` values (`k<float>`); a kernel named there is instantiated with them; one
/// the host code launches is left to those launches; any other with its default arguments
/// (`k<>`) when every parameter has one, else with `int` for each type parameter without a
/// default (`k<int>`: a type every index and value expression of a kernel compiles with; the
/// note names the instantiation and `--template` for others), else it is not instantiated
/// (a non-type parameter without a default: the note says to give `--template`).
pub fn instantiations(src: &str, requested: &[String]) -> (String, Vec<String>) {
    let mut text = String::new();
    let mut notes = Vec::new();
    let mut n = 0;
    let mut add = |text: &mut String, inst: &str| {
        text.push_str(&format!(
            "\nstatic void *__weft_template_instance_{n} = (void *)&{inst};"
        ));
        n += 1;
    };
    for k in template_kernels(src) {
        let asked: Vec<&String> = requested
            .iter()
            .filter(|r| r.split('<').next().map(str::trim) == Some(k.name.as_str()))
            .collect();
        if !asked.is_empty() {
            for a in &asked {
                add(&mut text, a.trim());
            }
            let list: Vec<&str> = asked.iter().map(|a| a.trim()).collect();
            notes.push(format!(
                "template kernel `{}` verified as {} (--template)",
                k.name,
                list.join(", ")
            ));
        } else if launched(src, &k.name) {
            notes.push(format!(
                "template kernel `{}` verified for the instantiations the file's host code launches",
                k.name
            ));
        } else if k.all_defaults {
            add(&mut text, &format!("{}<>", k.name));
            notes.push(format!(
                "template kernel `{}` verified as {}<> (the template's default arguments; --template '{}<TYPE>' for others)",
                k.name, k.name, k.name
            ));
        } else if let Some(args) = &k.int_args {
            let inst = format!("{}<{args}>", k.name);
            add(&mut text, &inst);
            notes.push(format!(
                "template kernel `{}` instantiated as {inst} only (no launch in the file, no default arguments: `int` for each type parameter; --template '{}<TYPE>' for others)",
                k.name, k.name
            ));
        } else {
            notes.push(format!(
                "template kernel `{}` has no instantiation (no launch in the file, no default arguments): give --template '{}<TYPE>'",
                k.name, k.name
            ));
        }
    }
    if !text.is_empty() {
        text.push('\n');
    }
    (text, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_template_kernels_and_their_defaults() {
        let src = "template <typename T, int N = 4> __global__ void a(T *p) {}\n\
                   template <typename T = float> __global__ void b(T *p) {}\n\
                   template <typename T> __device__ T f(T x) { return x; }\n\
                   __global__ void c(int *p) {}\n";
        let ks = template_kernels(src);
        assert_eq!(
            ks,
            vec![
                TemplateKernel {
                    name: "a".into(),
                    all_defaults: false,
                    int_args: Some("int".into()),
                },
                TemplateKernel {
                    name: "b".into(),
                    all_defaults: true,
                    int_args: Some(String::new()),
                }
            ]
        );
    }

    #[test]
    fn instantiates_as_asked_by_default_or_not_at_all() {
        let src = "template <typename T> __global__ void a(T *p) {}\n\
                   template <typename T = int> __global__ void b(T *p) {}\n\
                   template <int N> __global__ void c(int *p) {}\n\
                   template <typename T> __global__ void d(T *p) {}\n\
                   void host(float *x) { d<float><<<1, 32>>>(x); }\n\
                   template <class T, typename U, int N = 2> __global__ void e(T *p, U u) {}\n";
        let (text, notes) = instantiations(src, &["a<float>".to_string()]);
        assert!(text.contains("(void *)&a<float>;"));
        assert!(text.contains("(void *)&b<>;"));
        assert!(!text.contains("&c<") && !text.contains("&d<"));
        assert!(text.contains("(void *)&e<int, int>;"));
        assert_eq!(notes.len(), 5);
        assert!(notes[2].contains("give --template 'c<TYPE>'"));
        assert!(notes[3].contains("host code launches"));
        assert!(notes[4].contains("instantiated as e<int, int> only"));
    }
}
