//! From a kernel file to reports: loads it through weft-cuda's kernel front-end (the one
//! every kernel command shares: GPUVerify-style header lines with `-D` defines, the PTX cache,
//! external functions, unsupported constructs named once), with the verifier's annotation
//! header force-included; maps the header's analysis flags onto [`Options`]; lowers and
//! verifies every kernel of the module, or the one asked for.

use std::path::{Path, PathBuf};

use crate::header::{apply_flags, ANNOTATIONS_H, ANNOTATIONS_NAME};
use crate::{verify, Names, Options, Report, Verdict, VerifyError};

/// Per-file options on top of [`Options`].
#[derive(Clone, Debug, Default)]
pub struct FileOptions {
    pub kernel: Option<String>,
    pub defines: Vec<String>,
    /// `--grid` / `--block` from the command line (override the header).
    pub grid: Option<[u32; 3]>,
    pub block: Option<[u32; 3]>,
    /// GPUVerify flags from the command line (applied after the header's).
    pub flags: Vec<String>,
    /// `Some(false)`: `--no-lockstep`; `Some(true)`: lock-step asked on the command line.
    pub lockstep: Option<bool>,
    /// Also verify without lock-step and report what relies on it.
    pub report_both: bool,
}

/// Verifies the kernels of `path`.
pub fn verify_file(
    path: &Path,
    base: &Options,
    fo: &FileOptions,
) -> Result<Vec<Report>, VerifyError> {
    let bad = VerifyError::Unsupported;
    if !crate::smt::available(base.solver) {
        return Err(VerifyError::Tool(format!(
            "the SMT solver `{}` is not installed (Debian package `{}`)",
            base.solver.name(),
            base.solver.name()
        )));
    }
    let mut cli = weft_cuda::LaunchSpec {
        kernel: fo.kernel.clone(),
        defines: fo.defines.clone(),
        force_includes: vec![annotation_header()?],
        ..weft_cuda::LaunchSpec::default()
    };
    // Postconditions of functions with a body are moved to their return
    // (`contract::ensures_on_return`): the rewritten source (same lines, same file name) is
    // compiled from the temporary directory, with the kernel's directory searched for its
    // includes.
    let original = std::fs::read_to_string(path).ok();
    let mut contracts = original
        .as_deref()
        .map(crate::contract::scan)
        .unwrap_or_default();
    let mut rewritten = match (&original, path.extension().and_then(|e| e.to_str())) {
        (Some(t), Some("cu" | "cl")) => crate::contract::ensures_on_return(t, &mut contracts),
        _ => None,
    };
    let compiled_path = match (&rewritten, path.file_name().and_then(|n| n.to_str())) {
        (Some(t), Some(name)) => {
            let dir = path.parent().unwrap_or(Path::new("."));
            cli.include_dirs.push(
                if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                }
                .to_path_buf(),
            );
            by_content(name, t)?
        }
        _ => path.to_path_buf(),
    };
    // Shared memory is compiled volatile (see `weft_verify.h`); a kernel that does not
    // compile so is compiled again with plain shared memory.
    let load = |file: &Path| match weft_cuda::frontend::load_module(file, &cli) {
        Ok(m) => Ok(m),
        Err(e) if e.exit_code() == weft_ir::exit::ExitCode::BadInput => {
            let mut plain = cli.clone();
            plain.defines.push("WEFT_VERIFY_PLAIN_SHARED".into());
            weft_cuda::frontend::load_module(file, &plain)
        }
        Err(e) => Err(e),
    };
    let m = match load(&compiled_path) {
        // The rewritten source does not compile (a member function, a construct the
        // rewrite does not foresee): the kernel as written, its postconditions unchecked.
        Err(e) if rewritten.is_some() && e.exit_code() == weft_ir::exit::ExitCode::BadInput => {
            rewritten = None;
            load(path)
        }
        r => r,
    }
    .map_err(|e| match e.exit_code() {
        weft_ir::exit::ExitCode::Internal => VerifyError::Tool(e.to_string()),
        _ => bad(e.report()),
    })?;
    let m = with_axioms(m).map_err(bad)?;
    let spec = &m.spec;
    let mut o = base.clone();
    if let Some(w) = spec.flags.warp_sync {
        o.lockstep = true;
        o.warp_size = w;
    }
    let mut notes = Vec::new();
    let mut header_flags: Vec<String> = Vec::new();
    for (on, name) in [
        (spec.flags.equality_abstraction, "--equality-abstraction"),
        (
            spec.flags.adversarial_abstraction,
            "--adversarial-abstraction",
        ),
        (spec.flags.only_intra_group, "--only-intra-group"),
        (spec.flags.check_array_bounds, "--check-array-bounds"),
        (
            spec.flags.no_barrier_access_checks,
            "--no-barrier-access-checks",
        ),
    ] {
        if on {
            header_flags.push(name.to_string());
        }
    }
    header_flags.extend(spec.ignored.iter().cloned());
    let unknown = apply_flags(&mut o, &header_flags);
    if !unknown.is_empty() {
        notes.push(format!("header flags ignored: {}", unknown.join(" ")));
    }
    let unknown = apply_flags(&mut o, &fo.flags);
    if !unknown.is_empty() {
        return Err(bad(format!(
            "unknown analysis flags: {}",
            unknown.join(" ")
        )));
    }
    if let Some(l) = fo.lockstep {
        o.lockstep = l;
    }
    let launch = if spec.has_geometry() {
        Some(
            spec.geometry()
                .map_err(|e| bad(format!("{}: {e}", path.display())))?,
        )
    } else {
        None
    };
    o.grid = fo.grid.or(launch.map(|l| l.grid)).ok_or_else(|| {
        bad(format!(
            "{}: no launch geometry: give --grid and --block (or a //--gridDim= --blockDim= header)",
            path.display()
        ))
    })?;
    o.block = fo.block.or(launch.map(|l| l.block)).unwrap_or([1, 1, 1]);
    if o.block.iter().chain(o.grid.iter()).any(|&d| d == 0) {
        return Err(bad("launch dimensions must be positive".into()));
    }
    let text = match original {
        Some(t) if rewritten.is_some() => t,
        _ => m.source.clone().unwrap_or_default(),
    };
    o.contracts = if rewritten.is_some() {
        contracts
    } else {
        crate::contract::scan(&text)
    };
    let names: Vec<String> = match &fo.kernel {
        Some(k) => vec![k.clone()],
        None => m.module.kernels().map(|k| k.name.clone()).collect(),
    };
    if names.is_empty() {
        return Err(bad(format!("{}: no kernel in the file", path.display())));
    }
    // GPUVerify's rule: a user invariant stands in its loop's condition, without branches.
    let misplaced = if o.ignore_invariants {
        Vec::new()
    } else {
        crate::placement::misplaced_invariants(&text)
    };
    if !misplaced.is_empty() {
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let findings: Vec<crate::Finding> = misplaced
            .iter()
            .map(|m| crate::Finding {
                kind: "invariant".into(),
                message: format!(
                    "user-specified invariant does not appear at the loop head: {}",
                    m.why
                ),
                array: None,
                access_s: None,
                access_t: None,
                loc_s: None,
                loc_t: format!("{file}:{}", m.line),
                thread_s: Default::default(),
                thread_t: Default::default(),
                values: Default::default(),
                pass: "all".into(),
            })
            .collect();
        return Ok(names
            .into_iter()
            .map(|n| Report {
                kernel: weft_cuda::compiler::demangle_simple(&n).to_string(),
                verdict: Verdict::Errors,
                findings: findings.clone(),
                undecided: 0,
                checks: 0,
                notes: notes.clone(),
                time_ms: 0,
            })
            .collect());
    }
    let mut reports = Vec::new();
    for n in names {
        let k = weft_cuda::frontend::lower(&m, Some(&n)).map_err(|e| bad(e.to_string()))?;
        let short = weft_cuda::compiler::demangle_simple(&k.name).to_string();
        let nm = Names {
            params: source_params(&text, &short),
        };
        let mut r = verify(&k, &o, &nm)?;
        r.kernel = short;
        r.notes.splice(0..0, notes.iter().cloned());
        if o.lockstep && fo.report_both && r.verdict == Verdict::Verified {
            let mut o2 = o.clone();
            o2.lockstep = false;
            if let Ok(r2) = verify(&k, &o2, &nm) {
                if r2.verdict == Verdict::Errors {
                    r.notes.push(format!(
                        "verified only under lock-step warps of {}: without lock-step (independent thread scheduling, Volta and later) {} possible error(s), e.g. {}",
                        o.warp_size,
                        r2.findings.len(),
                        r2.findings[0].message
                    ));
                }
            }
        }
        reports.push(r);
    }
    Ok(reports)
}

/// The annotation header, written once per content under the temporary directory (its
/// path names its content, so the front-end's PTX cache stays valid and concurrent
/// verifications share it).
fn annotation_header() -> Result<PathBuf, VerifyError> {
    by_content(ANNOTATIONS_NAME, ANNOTATIONS_H)
}

/// `text` written to `name` in a directory of the temporary directory named by the content's
/// hash, once (written under a unique name, then renamed: a reader never sees a partial file).
fn by_content(name: &str, text: &str) -> Result<PathBuf, VerifyError> {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let dir = std::env::temp_dir().join(format!("weft-verify-{hash:016x}"));
    let file = dir.join(name);
    if std::fs::read_to_string(&file).is_ok_and(|t| t == text) {
        return Ok(file);
    }
    let tool = |e: std::io::Error| VerifyError::Tool(format!("writing {}: {e}", file.display()));
    std::fs::create_dir_all(&dir).map_err(tool)?;
    let tmp = dir.join(format!("{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(tool)?;
    std::fs::rename(&tmp, &file).map_err(tool)?;
    Ok(file)
}

/// Parameter names of kernel `name` in the source (`__global__ void name(int *a, ...)`).
fn source_params(src: &str, name: &str) -> Vec<String> {
    let mut from = 0;
    while let Some(i) = src[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        let before = src[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = src[from..].trim_start();
        if !rest.starts_with('(') {
            continue;
        }
        let Some(close) = rest.find(')') else {
            continue;
        };
        return rest[1..close]
            .split(',')
            .map(|p| {
                p.trim()
                    .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
    }
    Vec::new()
}

/// GPUVerify's file-scope `__axiom(e)` (weft-cuda's header makes each one a function
/// `__weft_axiom_N` holding the annotation, never called): a call of every such function is
/// put at the start of every kernel of the PTX, so the kernel assumes the axioms on entry.
fn with_axioms(
    mut m: weft_cuda::frontend::FrontModule,
) -> Result<weft_cuda::frontend::FrontModule, String> {
    let axioms: Vec<String> = m
        .module
        .functions()
        .filter(|f| f.name.starts_with("__weft_axiom_"))
        .map(|f| f.name.clone())
        .collect();
    if axioms.is_empty() {
        return Ok(m);
    }
    let calls: String = axioms
        .iter()
        .map(|a| format!("\n\t{{\n\tcall.uni {a}, ();\n\t}}"))
        .collect();
    let mut out = String::with_capacity(m.ptx.len() + calls.len() * 4);
    let mut rest = m.ptx.as_str();
    while let Some(i) = rest.find(".entry ") {
        // The body opens at the first `{` after the parameter list.
        let after = &rest[i..];
        let Some(close) = after.find(')') else { break };
        let Some(open) = after[close..].find('{') else {
            break;
        };
        let at = i + close + open + 1;
        out.push_str(&rest[..at]);
        out.push_str(&calls);
        rest = &rest[at..];
    }
    out.push_str(rest);
    m.module = weft_ptx::parser::parse(&out).map_err(|e| format!("axioms: {e}"))?;
    m.ptx = out;
    Ok(m)
}
