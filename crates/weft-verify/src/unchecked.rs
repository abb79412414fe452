//! What `weft verify` deliberately does not check that GPUVerify does (issue 27), found in
//! the kernel's source: each is reported as "not checked: WHAT (line N)", and a kernel with
//! no possible error but one of these is not verified ([`crate::Verdict::Incomplete`], exit
//! 3), never "verified".
//!
//! - A kernel's own postcondition (`__ensures` / `__global_ensures` in a kernel's body):
//!   GPUVerify checks it at the kernel's exit; weft does not evaluate it.
//! - A called function's postcondition is checked at each call the kernel makes (every call
//!   is inlined, `contract::ensures_on_return`), not modularly for every argument the
//!   function's `__requires` allows, as GPUVerify does: a postcondition that fails only for
//!   arguments the kernel never passes goes unseen.
//! - The postcondition of a function with a body that `contract::ensures_on_return` could
//!   not rewrite (parameters without names, function pointers) or of a function that is not
//!   a specification function but writes a `__writes_to` frame: not checked at all.
//!
//! A `__spec_` function's postconditions are assumed, not checked, as in GPUVerify (its
//! contract is its definition); those it cannot assume (a `__writes_to` frame) only weaken
//! what the verifier knows, which is sound, and are a note elsewhere.
//!
//! - Races on OpenCL images: `write_image*` has no effect in weft's model (reads of an image
//!   are arbitrary values), so a kernel that writes an image is never "verified".
//! - Binary barrier invariants (`__barrier_invariant_binary*`, GPUVerify's conditions over a
//!   pair of threads): neither checked nor assumed (`weft_verify.h` drops them; their reads
//!   may see cells a third thread writes, which the pair's race check cannot tell).
//!
//! Detection is textual, on the source with comments and preprocessor lines blanked, so a
//! postcondition clang folds away (a constant condition) is listed too.

use crate::contract::{code_text, Contracts};

/// The postconditions of `src` that weft does not check for `kernel` (its name as the
/// report shows it), each "WHAT (line N)". `contracts` is the file's function table as the
/// verifier uses it (after `contract::ensures_on_return`; lines are the source's).
pub fn postconditions(src: &str, contracts: &Contracts, kernel: &str) -> Vec<String> {
    let s = code_text(src);
    let mut out: Vec<String> = Vec::new();
    let mut push = |m: String| {
        if !out.contains(&m) {
            out.push(m);
        }
    };
    for (line, what) in annotation_lines(&s) {
        let at = format!(" (line {line})");
        if let Some(c) = contracts.callee_at(line) {
            if c.spec {
                continue;
            }
            if c.ensures_on_return || (c.contract_only && !c.writes) {
                push(format!(
                    "`{what}` of `{}` for arguments the kernel does not pass: weft checks it at each of the kernel's calls, GPUVerify for every argument its `__requires` allows{at}",
                    c.name
                ));
            } else {
                push(format!(
                    "`{what}` of `{}` (a function whose parameters cannot be named, or that writes a `__writes_to` frame){at}",
                    c.name
                ));
            }
            continue;
        }
        let owner = contracts
            .kernels
            .iter()
            .find(|(_, first, last)| *first <= line && line <= *last);
        match owner {
            Some((name, _, _)) if name != kernel && !kernel.starts_with(&format!("{name}<")) => {}
            _ => push(format!(
                "the kernel's postcondition `{what}` (GPUVerify checks it at the kernel's exit){at}"
            )),
        }
    }
    if let Some(line) = first_call_line(&s, "__barrier_invariant_binary") {
        push(format!(
            "binary barrier invariants (`__barrier_invariant_binary`): neither checked nor assumed after the barrier (line {line})"
        ));
    }
    if let Some(line) = first_call_line(&s, "write_image") {
        push(format!(
            "races on OpenCL images: `write_image*` is not modelled as an access (reads of an image are arbitrary values), so two work-items writing one pixel are not reported (line {line})"
        ));
    }
    out
}

/// The 1-based line of the first call `word...(` in code text `s` (`write_image`: GPUVerify's
/// `imagetests/fail2dimagecopy`, a write-write race on an image).
fn first_call_line(s: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = s[from..].find(word) {
        let at = from + i;
        from = at + word.len();
        let before_ok = at == 0 || {
            let c = s.as_bytes()[at - 1];
            !(c.is_ascii_alphanumeric() || c == b'_')
        };
        let rest = s[from..].trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if before_ok && rest.trim_start().starts_with('(') {
            return Some(s.as_bytes()[..at].iter().filter(|&&c| c == b'\n').count() + 1);
        }
    }
    None
}

/// The 1-based lines of the `__ensures(` and `__global_ensures(` calls in code text `s`.
fn annotation_lines(s: &str) -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    for word in ["__ensures", "__global_ensures"] {
        let mut from = 0;
        while let Some(i) = s[from..].find(word) {
            let at = from + i;
            let end = at + word.len();
            from = end;
            let before_ok = at == 0 || {
                let c = s.as_bytes()[at - 1];
                !(c.is_ascii_alphanumeric() || c == b'_')
            };
            if !before_ok {
                continue;
            }
            if !s[end..].trim_start().starts_with('(') {
                continue;
            }
            let line = s.as_bytes()[..at].iter().filter(|&&c| c == b'\n').count() + 1;
            out.push((line, word));
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::scan;

    #[test]
    fn kernel_and_callee_postconditions() {
        let src = "__device__ int f(int x) {\n  __requires(x > 0);\n  __ensures(__return_val_int() > 0);\n  return x;\n}\n\
                   __global__ void k(int *A) {\n  __ensures(A[0] == 0);\n  A[0] = f(3);\n}\n\
                   __global__ void other(int *A) {\n  // __ensures(no) in a comment\n  A[0] = 1;\n}\n";
        let mut c = scan(src);
        let _ = crate::contract::ensures_on_return(src, &mut c);
        let k = postconditions(src, &c, "k");
        assert_eq!(k.len(), 2, "{k:?}");
        assert!(k[0].starts_with("`__ensures` of `f` for arguments") && k[0].ends_with("(line 3)"));
        assert!(
            k[1].starts_with("the kernel's postcondition `__ensures`")
                && k[1].ends_with("(line 7)")
        );
        // The other kernel calls nothing and has no postcondition of its own; f's contract
        // is still unchecked for every argument (weft checks it at no call).
        let o = postconditions(src, &c, "other");
        assert_eq!(o.len(), 1, "{o:?}");
        assert!(o[0].contains("of `f`"));
    }

    #[test]
    fn image_writes_are_listed() {
        let src = "kernel void k(write_only image2d_t d) {\n  // write_imagef(d, p, v) in a comment\n  write_imagef(d, (int2)(0, 0), (float4)(1));\n}\n";
        let n = postconditions(src, &scan(src), "k");
        assert_eq!(n.len(), 1, "{n:?}");
        assert!(n[0].starts_with("races on OpenCL images") && n[0].ends_with("(line 3)"));
        assert!(
            postconditions("kernel void k(global int *a) { a[0] = 1; }", &scan(""), "k").is_empty()
        );
    }

    #[test]
    fn binary_barrier_invariants_are_listed() {
        let src = "kernel void k() {\n  local int A[8];\n  A[0] = 1;\n  __barrier_invariant_binary_1(A[0] == 1, 0, 1);\n  barrier(1);\n}\n";
        let n = postconditions(src, &scan(src), "k");
        assert_eq!(n.len(), 1, "{n:?}");
        assert!(n[0].starts_with("binary barrier invariants") && n[0].ends_with("(line 4)"));
        let unary = "kernel void k() {\n  __barrier_invariant_1(1, 0);\n}\n";
        assert!(postconditions(unary, &scan(unary), "k").is_empty());
    }

    #[test]
    fn spec_functions_and_macros_are_not_listed() {
        let src = "#define E(c) __ensures(c)\n__device__ void __spec_g(int *p) {\n  __ensures(p != 0);\n}\n\
                   __global__ void k(int *A) {\n  __spec_g(A);\n  A[0] = 1;\n}\n";
        let c = scan(src);
        assert!(postconditions(src, &c, "k").is_empty());
    }
}
