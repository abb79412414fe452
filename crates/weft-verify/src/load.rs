//! From a kernel file to reports: reads the GPUVerify-style header (launch geometry and
//! analysis flags), compiles `.cu`/`.cl` with clang-19 through weft-cuda (with the
//! annotation header force-included), parses and lowers the PTX (weft-ptx) and verifies
//! every kernel of the module, or the one asked for.

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
    let text =
        std::fs::read_to_string(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    let header =
        weft_cuda::parse_header(&text).map_err(|e| bad(format!("{}:{e}", path.display())))?;
    let mut o = base.clone();
    if let Some(w) = header.warp_size {
        o.lockstep = true;
        o.warp_size = w;
    }
    let mut notes = Vec::new();
    let unknown = apply_flags(&mut o, &header.other_flags);
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
    let launch = header.launch;
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
    let ptx = compile(path, &text, fo)?;
    let module =
        weft_ptx::parse(&ptx).map_err(|e| bad(format!("{} (PTX): {e}", path.display())))?;
    let names: Vec<String> = match &fo.kernel {
        Some(k) => vec![k.clone()],
        None => module.kernels().map(|k| k.name.clone()).collect(),
    };
    if names.is_empty() {
        return Err(bad(format!("{}: no kernel in the file", path.display())));
    }
    let mut reports = Vec::new();
    for n in names {
        let k = weft_ptx::lower_kernel(&module, Some(&n))
            .map_err(|e| bad(format!("{} (PTX): {e}", path.display())))?;
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

fn compile(path: &Path, text: &str, fo: &FileOptions) -> Result<String, VerifyError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext == "ptx" {
        return Ok(text.to_string());
    }
    // One directory per compilation: kernels may be verified concurrently in one process.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("weft-verify-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .map_err(|e| VerifyError::Tool(format!("creating {}: {e}", dir.display())))?;
    let hdr: PathBuf = dir.join(ANNOTATIONS_NAME);
    std::fs::write(&hdr, ANNOTATIONS_H)
        .map_err(|e| VerifyError::Tool(format!("writing {}: {e}", hdr.display())))?;
    let opts = weft_cuda::CompileOptions {
        extra_args: vec![
            "-gline-tables-only".into(),
            "-include".into(),
            hdr.display().to_string(),
        ],
        defines: fo.defines.clone(),
        ..weft_cuda::CompileOptions::default()
    };
    let r = weft_cuda::compile_kernel_file(path, &opts);
    let _ = std::fs::remove_file(&hdr);
    let _ = std::fs::remove_dir(&dir);
    match r {
        Ok(k) => Ok(k.ptx.ptx),
        Err(e) => Err(VerifyError::Unsupported(format!("{}: {e}", path.display()))),
    }
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
