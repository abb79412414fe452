//! The kernel front-end in one call: a `.cu`/`.cuh`/`.cl`/`.ptx` file and a [`LaunchSpec`]
//! from the command line become a compiled, parsed and lowered [`Kernel`] with its merged
//! launch description ([`load_kernel`]), so every engine (`run-kernel`, `mc`, `race`,
//! `verify`) starts from the same thing.
//!
//! Sources are compiled with clang-19 (or nvcc) with line tables (`-gline-tables-only`) so
//! findings name source lines; when clang crashes with them (clang-19 does on some
//! built-in calls) the file is compiled again without. Compiled PTX is cached by content
//! hash ([`crate::cache`]). Errors carry the exit code they deserve
//! ([`FrontendError::exit_code`]): 2 for bad input, 3 for a missing or crashing tool.

use std::path::{Path, PathBuf};

use weft_ir::exit::ExitCode;
use weft_ir::kernel::Kernel;

use crate::cache;
use crate::compiler::{CompileOptions, Compiler, Language, OpenClStd};
use crate::error::CudaError;
use crate::geometry::LaunchConfig;
use crate::launch::LaunchSpec;

/// A front-end failure, with the exit code it maps to.
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    /// Bad input (exit 2): unreadable file, compile error, PTX parse or lowering error,
    /// malformed header or launch option. Each line is `file:line:col: message` where a
    /// position is known.
    #[error("{0}")]
    BadInput(String),
    /// Bad input pointing into files: `message` as for [`FrontendError::BadInput`], and
    /// `report`, the same lines each followed by the source line and a caret when the
    /// file's text is at hand ([`FrontendError::report`]).
    #[error("{message}")]
    BadInputAt { message: String, report: String },
    /// A missing or crashing tool (exit 3).
    #[error("{0}")]
    Tool(String),
}

impl FrontendError {
    /// Exit 2 for [`FrontendError::BadInput`], 3 for [`FrontendError::Tool`].
    pub fn exit_code(&self) -> ExitCode {
        match self {
            FrontendError::BadInput(_) | FrontendError::BadInputAt { .. } => ExitCode::BadInput,
            FrontendError::Tool(_) => ExitCode::Internal,
        }
    }

    /// What a command prints: the message, with a snippet under each line that points
    /// into a file weft read.
    pub fn report(&self) -> String {
        match self {
            FrontendError::BadInputAt { report, .. } => report.clone(),
            e => e.to_string(),
        }
    }
}

/// Bad input given as lines, each with the diagnostic (carrying its source line) to draw
/// under it when there is one.
fn bad_at(lines: Vec<(String, Option<weft_diag::Diagnostic>)>) -> FrontendError {
    let message = lines
        .iter()
        .map(|(l, _)| l.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let report = lines
        .iter()
        .map(|(l, d)| {
            let snippet = d
                .as_ref()
                .map(|d| d.snippet(None, false))
                .unwrap_or_default();
            let snippet = snippet.trim_end();
            if snippet.is_empty() {
                l.clone()
            } else {
                format!("{l}\n{snippet}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    FrontendError::BadInputAt { message, report }
}

/// `e` with the text of its line in `text` attached, for a snippet.
fn with_line(e: &weft_diag::Diagnostic, text: &str) -> Option<weft_diag::Diagnostic> {
    let line = text.lines().nth((e.line as usize).checked_sub(1)?)?;
    Some(e.clone().with_source_line(line))
}

/// The diagnostic for a position `(file, line, col)` in compiled code's source, when `file`
/// is `path` itself and its text is at hand.
fn at_source(
    path: &Path,
    source: Option<&str>,
    (file, line, col): (&str, u32, u32),
) -> Option<weft_diag::Diagnostic> {
    if path.file_name()?.to_string_lossy() != *file {
        return None;
    }
    with_line(&weft_diag::Diagnostic::new(line, col, ""), source?)
}

/// A kernel file turned into PTX (not yet lowered), with its launch description.
#[derive(Clone, Debug)]
pub struct FrontModule {
    /// The file given.
    pub path: PathBuf,
    /// The CUDA/OpenCL source (for `.ptx`: a sibling `.cu`/`.cl` with the same stem, if any).
    pub source: Option<String>,
    /// The PTX text.
    pub ptx: String,
    /// The parsed PTX.
    pub module: weft_ptx::Module,
    /// The header's launch description overridden by the command line's.
    pub spec: LaunchSpec,
    /// The compiler's warnings.
    pub warnings: String,
    /// Whether the PTX came from the cache.
    pub cached: bool,
    /// Whether line tables had to be dropped because clang crashed with them.
    pub without_line_tables: bool,
    /// Functions the kernel's source declares without defining them: calls are lowered as
    /// GPUVerify treats them (no memory effect, arbitrary results).
    pub external_functions: Vec<String>,
}

/// A lowered kernel, ready for an engine.
#[derive(Clone, Debug)]
pub struct FrontKernel {
    /// The module it came from.
    pub module: FrontModule,
    /// The lowered kernel.
    pub kernel: Kernel,
    /// The concrete geometry, when the header or command line gives one.
    pub launch: Option<LaunchConfig>,
}

fn bad(m: String) -> FrontendError {
    FrontendError::BadInput(m)
}

/// Maps a driver error to a front-end error with `path` in front.
pub fn from_cuda_error(path: &Path, e: CudaError) -> FrontendError {
    let p = path.display();
    match e {
        CudaError::CompilerNotFound { .. } => FrontendError::Tool(format!("{p}: {e}")),
        CudaError::CompileFailed {
            ref diagnostics,
            status,
            ref compiler,
            ..
        } if is_crash(status, diagnostics) => FrontendError::Tool(format!(
            "{p}: {} crashed compiling this file ({}); this is a compiler bug, not an error \
             in the kernel{}",
            compiler.display(),
            crash_summary(diagnostics),
            match status {
                Some(s) => format!(" (exit status {s})"),
                None => " (killed by a signal)".into(),
            }
        )),
        CudaError::Io { .. } => FrontendError::Tool(format!("{p}: {e}")),
        CudaError::CompileFailed {
            diagnostics, hint, ..
        } => {
            let mut m = format!("{p}: compilation failed:\n{}", diagnostics.trim_end());
            if let Some(h) = hint {
                m.push_str(&format!("\nhint: {h}"));
            }
            bad(m)
        }
        other => bad(format!("{p}: {other}")),
    }
}

/// Whether a failed compiler run was a crash rather than a diagnosed error.
pub fn is_crash(status: Option<i32>, diagnostics: &str) -> bool {
    status.is_none()
        || diagnostics.contains("PLEASE submit a bug report")
        || diagnostics.contains("Stack dump:")
        || diagnostics.contains("LLVM ERROR")
        || matches!(status, Some(134 | 139))
}

/// The first informative line of a crash report (never the backtrace).
fn crash_summary(diagnostics: &str) -> String {
    diagnostics
        .lines()
        .map(str::trim)
        .find(|l| {
            !l.is_empty()
                && !l.starts_with("PLEASE")
                && !l.starts_with("Stack dump")
                && !l.starts_with('#')
                && !l.starts_with("0.")
        })
        .unwrap_or("no message")
        .chars()
        .take(200)
        .collect()
}

/// Reads and compiles `path` with the launch description of its header overridden by
/// `cli`; parses the PTX. `.ptx` files are read as they are.
pub fn load_module(path: &Path, cli: &LaunchSpec) -> Result<FrontModule, FrontendError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let header_of = |src: &str| {
        LaunchSpec::from_header(src).map_err(|e| {
            bad_at(vec![(
                format!("{}:{e}", path.display()),
                with_line(&e, src),
            )])
        })
    };
    let (ptx, source, header, warnings, cached, nolines) = if ext == "ptx" {
        let sibling = ["cu", "cl"]
            .iter()
            .map(|e| path.with_extension(e))
            .find(|p| p.is_file())
            .and_then(|p| std::fs::read_to_string(p).ok());
        let header = sibling
            .as_deref()
            .map(|s| LaunchSpec::from_header(s).unwrap_or_default())
            .unwrap_or_default();
        (text, sibling, header, String::new(), false, false)
    } else {
        let header = header_of(&text)?;
        let spec = LaunchSpec::overridden_by(&header, cli);
        spec.validate()
            .map_err(|m| bad(format!("{}: {m}", path.display())))?;
        let c = compile(path, &text, &spec)?;
        (
            c.ptx,
            Some(text),
            header,
            c.warnings,
            c.cached,
            c.without_line_tables,
        )
    };
    let module = weft_ptx::parse(&ptx).map_err(|e| {
        let at = if ext == "ptx" {
            with_line(&e, &ptx)
        } else {
            source_position_before(&ptx, e.line)
                .and_then(|(f, l, c)| at_source(path, source.as_deref(), (&f, l, c)))
        };
        bad_at(vec![(parse_error_message(path, ext, &ptx, &e), at)])
    })?;
    let external_functions = match (&source, ext) {
        (Some(src), e) if e != "ptx" => external_functions(path, &module, src)?,
        _ => Vec::new(),
    };
    Ok(FrontModule {
        path: path.to_path_buf(),
        source,
        ptx,
        module,
        spec: LaunchSpec::overridden_by(&header, cli),
        warnings,
        cached,
        without_line_tables: nolines,
        external_functions,
    })
}

/// The functions the PTX calls but nothing defines, split: those the kernel's own source
/// declares (returned: GPUVerify treats them as bodiless procedures) and the rest (built-ins
/// weft lacks, such as an OpenCL math function without libclc: an error naming them).
pub fn external_functions(
    path: &Path,
    module: &weft_ptx::Module,
    source: &str,
) -> Result<Vec<String>, FrontendError> {
    let mut user = Vec::new();
    let mut missing = Vec::new();
    for f in module.functions() {
        if f.body.is_some()
            || crate::compiler::is_marker(&f.name)
            || weft_ir::kernel::SysFunc::from_name(&f.name).is_some()
            || module.function(&f.name).is_some_and(|d| d.body.is_some())
        {
            continue;
        }
        let short = crate::compiler::demangle_simple(&f.name).to_string();
        if declared_in(source, &short) {
            if !user.contains(&short) {
                user.push(short);
            }
        } else {
            let n = if short == f.name {
                short
            } else {
                format!("{short} ({})", f.name)
            };
            if !missing.contains(&n) {
                missing.push(n);
            }
        }
    }
    if !missing.is_empty() {
        return Err(bad(format!(
            "{}: {}",
            path.display(),
            CudaError::UnresolvedFunctions { names: missing }
        )));
    }
    Ok(user)
}

/// Whether `source` declares a function `name`: `name(` preceded by a type (a word other
/// than `return`, or `*`/`&`), not by an operator as in a call.
fn declared_in(source: &str, name: &str) -> bool {
    let b = source.as_bytes();
    let mut from = 0;
    while let Some(i) = source[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        if at > 0 && ident(b[at - 1]) {
            continue;
        }
        if !source[from..].trim_start().starts_with('(') {
            continue;
        }
        let head = source[..at].trim_end();
        let Some(&last) = head.as_bytes().last() else {
            continue;
        };
        if last == b'*' || last == b'&' {
            return true;
        }
        if ident(last) {
            let word_start = head
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |p| p + 1);
            if &head[word_start..] != "return" {
                return true;
            }
        }
    }
    false
}

/// A PTX parse error as `file:line:col: message`: for a `.ptx` input the PTX position itself;
/// for compiled CUDA/OpenCL the source line of the last `.loc` before the error (inline `asm`
/// and shim functions are where unknown instructions come from), with the PTX position after.
fn parse_error_message(path: &Path, ext: &str, ptx: &str, e: &weft_ptx::ParseError) -> String {
    if ext == "ptx" {
        return format!("{}:{e}", path.display());
    }
    let msg: String = e
        .message
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match source_position_before(ptx, e.line) {
        Some((file, line, col)) => format!(
            "{file}:{line}:{col}: unsupported PTX: {msg} (compiled PTX {}:{})",
            e.line, e.col
        ),
        None => format!(
            "{}: unsupported PTX: {msg} (compiled PTX {}:{})",
            path.display(),
            e.line,
            e.col
        ),
    }
}

/// A lowering error as `file:line:col: message`: a `.ptx` input's own position; for compiled
/// CUDA/OpenCL the source position of the instruction's `.loc` (the input's path when the
/// `.loc` names the input itself), with the PTX position after.
pub fn lower_error_message(path: &Path, e: &weft_ptx::ParseError) -> String {
    if path.extension().is_some_and(|x| x == "ptx") {
        return format!("{}:{e}", path.display());
    }
    let Some((file, line, col)) = &e.origin else {
        return format!("{}: PTX {e}", path.display());
    };
    let mut bare = e.clone();
    bare.origin = None;
    bare.occurrences = 1;
    let shown = if path
        .file_name()
        .is_some_and(|n| n.to_string_lossy() == *file)
    {
        path.display().to_string()
    } else {
        file.clone()
    };
    let col = if *col > 0 {
        format!(":{col}")
    } else {
        String::new()
    };
    let count = if e.occurrences > 1 {
        format!(" [{} occurrences]", e.occurrences)
    } else {
        String::new()
    };
    format!(
        "{shown}:{line}{col}: {} (compiled PTX {}:{}){count}",
        bare.full_message(),
        e.line,
        e.col
    )
}

/// The source `(file, line, col)` of the last `.loc FILE LINE COL` at or before 1-based PTX
/// line `line`, with the file named by its `.file N "name"` directive.
fn source_position_before(ptx: &str, line: u32) -> Option<(String, u32, u32)> {
    let mut files = std::collections::HashMap::new();
    let mut last = None;
    for (i, l) in ptx.lines().enumerate() {
        let mut w = l.split_whitespace();
        match w.next() {
            Some(".file") => {
                if let (Some(n), Some(name)) = (w.next(), w.next()) {
                    files.insert(n.to_string(), name.trim_matches(['"', ',']).to_string());
                }
            }
            Some(".loc") if i < line as usize => {
                let f = w.next()?.to_string();
                let ln: u32 = w.next()?.trim_end_matches(',').parse().ok()?;
                let col: u32 = w
                    .next()
                    .and_then(|c| c.trim_end_matches(',').parse().ok())
                    .unwrap_or(0);
                if ln > 0 {
                    last = Some((f, ln, col));
                }
            }
            _ => {}
        }
    }
    let (f, ln, col) = last?;
    Some((files.get(&f).cloned().unwrap_or(f), ln, col.max(1)))
}

/// Lowers every kernel of `m` (or only the spec's `--kernel`): `Err` lists every kernel that
/// does not lower, or says that the module defines none (`weft ptx`).
pub fn lower_all(m: &FrontModule) -> Result<Vec<Kernel>, Vec<FrontendError>> {
    let names: Vec<String> = match &m.spec.kernel {
        Some(k) => vec![k.clone()],
        None => m.module.kernels().map(|k| k.name.clone()).collect(),
    };
    if names.is_empty() {
        return Err(vec![bad(format!(
            "{}: the module defines no kernel (no `__global__`/`__kernel` function)",
            m.path.display()
        ))]);
    }
    let (mut kernels, mut errors) = (Vec::new(), Vec::new());
    for n in &names {
        match lower(m, Some(n)) {
            Ok(k) => kernels.push(k),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(kernels)
    } else {
        Err(errors)
    }
}

/// Compiles, parses and lowers `path` (the kernel `cli.kernel` or the header's
/// `--kernel-args` names, else the only one); see the module doc.
pub fn load_kernel(path: &Path, cli: &LaunchSpec) -> Result<FrontKernel, FrontendError> {
    let module = load_module(path, cli)?;
    let kernel = lower(&module, module.spec.kernel.as_deref())?;
    let launch = if module.spec.has_geometry() {
        Some(
            module
                .spec
                .launch_config()
                .map_err(|e| bad(format!("{}: {e}", path.display())))?,
        )
    } else {
        None
    };
    Ok(FrontKernel {
        module,
        kernel,
        launch,
    })
}

/// Lowers kernel `name` (or the only kernel) of a loaded module; every unsupported
/// construct is reported once, as `file:line:col: message` lines.
pub fn lower(m: &FrontModule, name: Option<&str>) -> Result<Kernel, FrontendError> {
    let name = name.map(|n| {
        // A source name may be mangled in the PTX: find the kernel by its short name too.
        m.module
            .kernels()
            .find(|k| k.name == n || crate::compiler::demangle_simple(&k.name) == n)
            .map_or(n.to_string(), |k| k.name.clone())
    });
    let havoc = !m.external_functions.is_empty();
    let is_ptx = m.path.extension().is_some_and(|x| x == "ptx");
    weft_ptx::lower::lower_kernel_with(&m.module, name.as_deref(), havoc).map_err(|errs| {
        bad_at(
            errs.iter()
                .map(|e| {
                    let at = match &e.origin {
                        _ if is_ptx => with_line(e, &m.ptx),
                        Some((f, l, c)) => at_source(&m.path, m.source.as_deref(), (f, *l, *c)),
                        None => None,
                    };
                    (lower_error_message(&m.path, e), at)
                })
                .collect(),
        )
    })
}

/// A compilation result.
pub struct Compiled {
    /// The PTX.
    pub ptx: String,
    /// The compiler's warnings.
    pub warnings: String,
    /// Whether it came from the cache.
    pub cached: bool,
    /// Whether clang crashed with line tables and the file was compiled without.
    pub without_line_tables: bool,
}

/// The compile options a launch description asks for.
pub fn compile_options(spec: &LaunchSpec, line_tables: bool) -> CompileOptions {
    let mut o = CompileOptions {
        defines: spec.defines.clone(),
        include_dirs: spec.include_dirs.clone(),
        // Unresolved calls are sorted out by `external_functions` after compilation.
        allow_unresolved: true,
        ..CompileOptions::default()
    };
    if let Some(s) = spec.opencl_std {
        o.opencl_std = s;
    }
    if line_tables {
        o.extra_args.push("-gline-tables-only".into());
    }
    for h in &spec.force_includes {
        o.extra_args.push("-include".into());
        o.extra_args.push(h.display().to_string());
    }
    o.extra_args.extend(spec.compiler_args.iter().cloned());
    o
}

/// Compiles `source` (the text of `path`) through the cache, retrying without line tables
/// when the compiler crashes with them.
pub fn compile(path: &Path, source: &str, spec: &LaunchSpec) -> Result<Compiled, FrontendError> {
    let std = spec.opencl_std.unwrap_or(OpenClStd::Cl20);
    let lang = Language::from_path(path, std).ok_or_else(|| {
        bad(format!(
            "{}: unknown kernel language (expected .cu, .cuh, .cl or .ptx)",
            path.display()
        ))
    })?;
    let compiler = Compiler::detect_for(lang).map_err(|e| from_cuda_error(path, e))?;
    let mut last_err = None;
    for line_tables in [true, false] {
        let opts = compile_options(spec, line_tables);
        let key = cache::key(&compiler, lang, path, source, &opts);
        if let Some(ptx) = key.as_deref().and_then(cache::get) {
            return Ok(Compiled {
                ptx,
                warnings: key.as_deref().map(cache::get_warnings).unwrap_or_default(),
                cached: true,
                without_line_tables: !line_tables,
            });
        }
        match compiler.compile_file(path, &opts) {
            Ok(c) => {
                if let Some(k) = &key {
                    cache::put(k, &c.ptx);
                    cache::put_warnings(k, &c.warnings);
                }
                return Ok(Compiled {
                    ptx: c.ptx,
                    warnings: c.warnings,
                    cached: false,
                    without_line_tables: !line_tables,
                });
            }
            Err(CudaError::CompileFailed {
                compiler: cpath,
                command,
                status,
                diagnostics,
                hint,
            }) if line_tables && is_crash(status, &diagnostics) => {
                last_err = Some(CudaError::CompileFailed {
                    compiler: cpath,
                    command,
                    status,
                    diagnostics,
                    hint,
                });
            }
            Err(e) => return Err(from_cuda_error(path, e)),
        }
    }
    Err(from_cuda_error(
        path,
        last_err.unwrap_or(CudaError::UnknownLanguage {
            path: path.to_path_buf(),
        }),
    ))
}

/// Bytes per work-item of a `__local` pointer parameter's default allocation.
pub const DEFAULT_LOCAL_BYTES_PER_ITEM: u64 = 16;

/// A work-group-local allocation made for an OpenCL `__local` pointer parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalAlloc {
    /// The parameter's index.
    pub param: usize,
    /// Its name (source name when known).
    pub name: String,
    /// Bytes allocated.
    pub bytes: u64,
    /// The parameter's value: the allocation's offset in each CTA's shared memory.
    pub offset: u64,
    /// Whether the size is the default (no `--local`/`--buffer` gave one).
    pub defaulted: bool,
}

/// Gives every `.ptr .shared` (OpenCL `__local`) pointer parameter of `kernel` its own
/// work-group-local allocation: a shared variable appended to the kernel, whose offset is
/// the value to pass for the parameter. Sizes come from `--local NAME=SIZE` (`NAME`: source
/// name, `param_N`, `N` or the PTX name), else [`DEFAULT_LOCAL_BYTES_PER_ITEM`] bytes per
/// work-item of `launch`.
pub fn attach_locals(
    m: &FrontModule,
    kernel: &mut Kernel,
    source_names: &[String],
    launch: Option<&LaunchConfig>,
) -> Vec<LocalAlloc> {
    let Some(f) = m.module.function(&kernel.name) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, p) in f.params.iter().enumerate() {
        let shared = p.ptr.as_ref().and_then(|a| a.space).is_some_and(|s| {
            matches!(
                s,
                weft_ptx::ast::StateSpace::Shared | weft_ptx::ast::StateSpace::SharedCta
            )
        });
        if !shared {
            continue;
        }
        let mut names = vec![p.name.clone(), format!("param_{i}"), i.to_string()];
        if let Some(n) = source_names.get(i) {
            names.insert(0, n.clone());
        }
        let given = m
            .spec
            .locals
            .iter()
            .rev()
            .find(|(n, _)| names.contains(n))
            .map(|(_, b)| *b);
        let threads = launch.map_or(1, |l| l.block.iter().map(|&d| d as u64).product::<u64>());
        let bytes = given.unwrap_or(DEFAULT_LOCAL_BYTES_PER_ITEM * threads.max(1));
        kernel.vars.push(weft_ir::kernel::KVar {
            name: format!("{}$local", names[0]),
            space: weft_ir::attrs::MemSpace::Shared,
            size: bytes,
            align: 16,
            init: Vec::new(),
        });
        let (offs, _) = kernel.layout(weft_ir::attrs::MemSpace::Shared);
        out.push(LocalAlloc {
            param: i,
            name: names[0].clone(),
            bytes,
            offset: offs[kernel.vars.len() - 1],
            defaulted: given.is_none(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crash_detection_and_summary() {
        let d = "fatal error: error in backend: Cannot select: intrinsic\n\
                 PLEASE submit a bug report to https://...\nStack dump:\n0. Program arguments";
        assert!(is_crash(Some(1), d));
        assert_eq!(
            crash_summary(d),
            "fatal error: error in backend: Cannot select: intrinsic"
        );
        assert!(!is_crash(
            Some(1),
            "k.cu:3:1: error: unknown type name 'foo'"
        ));
        assert!(is_crash(None, ""));
    }

    #[test]
    fn declarations_are_told_from_calls() {
        assert!(declared_in("__device__ void bar(s x);", "bar"));
        assert!(declared_in("void baz(int);", "baz"));
        assert!(declared_in("float *get (int);", "get"));
        assert!(!declared_in("a[0] = sqrt(a[1]);", "sqrt"));
        assert!(!declared_in("return sqrt(x);", "sqrt"));
        assert!(!declared_in("foo(bar(1));", "bar"));
        assert!(!declared_in("int sqrtf(1)", "sqrt"));
    }

    #[test]
    fn missing_file_is_bad_input() {
        let e = load_kernel(Path::new("/nonexistent/k.cu"), &LaunchSpec::default()).unwrap_err();
        assert_eq!(e.exit_code(), ExitCode::BadInput);
    }
}
