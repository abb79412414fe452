//! Finding a compiler and running it to turn CUDA or OpenCL C into PTX text.
//!
//! Compiler choice (DESIGN.md "Real parts, not stand-ins"): `$WEFT_CLANG` when set; else
//! `nvcc` on `PATH` for CUDA; else `clang-19`, else `clang`. OpenCL always uses clang.
//! The exact command lines are in [`Compiler::command`]; for clang-19 they are
//!
//! ```text
//! CUDA:   clang-19 -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_70
//!           --cuda-feature=+ptx70 -fno-crash-diagnostics -S -O1 -include DIR/weft_cuda.h
//!           -o - kernel.cu
//! OpenCL: clang-19 -x cl -cl-std=CL2.0 (or CL1.2) -target nvptx64-nvidia-nvcl -march=sm_70
//!           -Xclang -target-feature -Xclang +ptx70 -fno-crash-diagnostics -S -O1
//!           -include DIR/weft_opencl.h -o - kernel.cl
//! ```
//!
//! `--cuda-feature=+ptx70` is needed because without a CUDA installation clang targets PTX
//! 6.0 or older and refuses the `*_sync` warp builtins; `-fno-crash-diagnostics` keeps a
//! back-end abort from littering `/tmp` with reproducers.

use crate::error::CudaError;
use crate::headers;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Which compiler a [`Compiler`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompilerKind {
    /// LLVM clang with the NVPTX back-end.
    Clang,
    /// NVIDIA's nvcc (CUDA only).
    Nvcc,
}

/// The OpenCL C language version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OpenClStd {
    /// OpenCL C 1.2: no generic address space, `atomic_add`-style atomics.
    Cl12,
    /// OpenCL C 2.0: `atomic_*_explicit` with `memory_order` and `memory_scope`.
    #[default]
    Cl20,
}

impl OpenClStd {
    /// The `-cl-std=` value.
    pub fn flag(self) -> &'static str {
        match self {
            OpenClStd::Cl12 => "CL1.2",
            OpenClStd::Cl20 => "CL2.0",
        }
    }
}

/// A kernel source language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// CUDA C++ (`.cu`, `.cuh`).
    Cuda,
    /// OpenCL C (`.cl`) at the given version.
    OpenCl(OpenClStd),
}

impl Language {
    /// The language of a file by its extension (`.cl` gets `std`).
    pub fn from_path(path: &Path, std: OpenClStd) -> Option<Language> {
        match path.extension()?.to_str()? {
            "cu" | "cuh" => Some(Language::Cuda),
            "cl" => Some(Language::OpenCl(std)),
            _ => None,
        }
    }
}

/// Options for one compilation.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// GPU architecture, `sm_70` by default (the first with the scoped PTX memory model).
    pub arch: String,
    /// PTX ISA version as clang's feature number (`70` means PTX 7.0).
    pub ptx_version: u32,
    /// Optimisation level 0..=3 (`-O1` by default: readable PTX with registers promoted).
    pub opt_level: u8,
    /// OpenCL version for `.cl` files.
    pub opencl_std: OpenClStd,
    /// `-D` definitions (`NAME` or `NAME=VALUE`).
    pub defines: Vec<String>,
    /// `-I` directories.
    pub include_dirs: Vec<PathBuf>,
    /// Further arguments passed verbatim before the source file.
    pub extra_args: Vec<String>,
    /// libclc bitcode to link for OpenCL built-ins the shim lacks (also `$WEFT_LIBCLC`).
    pub libclc: Option<PathBuf>,
    /// Accept PTX that calls functions defined nowhere (otherwise an error).
    pub allow_unresolved: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            arch: "sm_70".into(),
            ptx_version: 70,
            opt_level: 1,
            opencl_std: OpenClStd::Cl20,
            defines: Vec::new(),
            include_dirs: Vec::new(),
            extra_args: Vec::new(),
            libclc: default_libclc(),
            allow_unresolved: false,
        }
    }
}

/// The architecture nvcc is asked for: CUDA 13 dropped every target below `sm_75` ("nvcc
/// fatal: Unsupported gpu architecture 'sm_70'", seen with nvcc 13.0 on an H100), so an
/// older request becomes `sm_75`, which has the same scoped PTX memory model.
pub fn nvcc_arch(arch: &str) -> String {
    match arch
        .strip_prefix("sm_")
        .and_then(|n| n.trim_end_matches('a').parse::<u32>().ok())
    {
        Some(n) if n < 75 => "sm_75".to_string(),
        _ => arch.to_string(),
    }
}

/// Where Debian's libclc-19 puts the NVPTX OpenCL library.
pub const DEBIAN_LIBCLC: &str = "/usr/lib/clc/nvptx64--nvidiacl.bc";

/// `$WEFT_LIBCLC` (empty or `none`: no libclc), else Debian's libclc when installed.
pub fn default_libclc() -> Option<PathBuf> {
    match std::env::var_os("WEFT_LIBCLC") {
        Some(v) if v.is_empty() || v == "none" => None,
        Some(v) => Some(PathBuf::from(v)),
        None => Some(PathBuf::from(DEBIAN_LIBCLC)).filter(|p| p.is_file()),
    }
}

/// The result of a compilation.
#[derive(Clone, Debug)]
pub struct CompiledPtx {
    /// The PTX text.
    pub ptx: String,
    /// The command that produced it.
    pub command: Vec<String>,
    /// The compiler's warnings (standard error of a successful run).
    pub warnings: String,
    /// Which compiler ran.
    pub compiler: CompilerKind,
}

impl CompiledPtx {
    /// Parses the PTX with weft-ptx.
    pub fn module(&self) -> Result<weft_ptx::Module, weft_ptx::ParseError> {
        weft_ptx::parse(&self.ptx)
    }
}

/// A compiler executable weft can drive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiler {
    /// clang or nvcc.
    pub kind: CompilerKind,
    /// The executable.
    pub path: PathBuf,
}

const INSTALL_HINT: &str = "install Debian's clang-19 (`apt-get install clang-19`; it includes \
    the NVPTX back-end), put nvcc on PATH, or set WEFT_CLANG to a clang executable";

/// Looks `name` up like a shell: a path with a `/` as is, else each `PATH` entry.
pub fn find_executable(name: &str) -> Option<PathBuf> {
    let is_exe = |p: &Path| {
        p.is_file() && {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                p.metadata()
                    .map(|m| m.permissions().mode() & 0o111 != 0)
                    .unwrap_or(false)
            }
            #[cfg(not(unix))]
            {
                true
            }
        }
    };
    if name.contains('/') {
        let p = PathBuf::from(name);
        return is_exe(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_exe(p))
}

impl Compiler {
    /// The compiler for CUDA: `$WEFT_CLANG`, else `nvcc`, else `clang-19`, else `clang`.
    pub fn detect() -> Result<Compiler, CudaError> {
        Self::detect_inner(true)
    }

    /// A clang (needed for OpenCL): `$WEFT_CLANG`, else `clang-19`, else `clang`.
    pub fn detect_clang() -> Result<Compiler, CudaError> {
        Self::detect_inner(false)
    }

    /// The compiler for a language: [`Compiler::detect`] for CUDA, a clang for OpenCL.
    pub fn detect_for(lang: Language) -> Result<Compiler, CudaError> {
        match lang {
            Language::Cuda => Self::detect(),
            Language::OpenCl(_) => Self::detect_clang(),
        }
    }

    fn detect_inner(allow_nvcc: bool) -> Result<Compiler, CudaError> {
        if let Some(v) = std::env::var_os("WEFT_CLANG").filter(|v| !v.is_empty()) {
            let name = v.to_string_lossy().into_owned();
            return match find_executable(&name) {
                Some(path) => Ok(Compiler {
                    kind: CompilerKind::Clang,
                    path,
                }),
                None => Err(CudaError::CompilerNotFound {
                    tried: vec![format!("WEFT_CLANG={name}")],
                    hint: format!("WEFT_CLANG names no executable; {INSTALL_HINT}"),
                }),
            };
        }
        let mut tried = Vec::new();
        if allow_nvcc {
            tried.push("nvcc".to_string());
            if let Some(path) = find_executable("nvcc") {
                return Ok(Compiler {
                    kind: CompilerKind::Nvcc,
                    path,
                });
            }
        }
        for name in ["clang-19", "clang"] {
            tried.push(name.to_string());
            if let Some(path) = find_executable(name) {
                return Ok(Compiler {
                    kind: CompilerKind::Clang,
                    path,
                });
            }
        }
        Err(CudaError::CompilerNotFound {
            tried,
            hint: INSTALL_HINT.to_string(),
        })
    }

    /// A clang at `path`.
    pub fn clang(path: impl Into<PathBuf>) -> Compiler {
        Compiler {
            kind: CompilerKind::Clang,
            path: path.into(),
        }
    }

    /// The arguments (without the executable) that compile `source` in `lang` to PTX, with
    /// the shim headers in `include_dir` and the PTX written to `out` (`-` = stdout).
    pub fn command(
        &self,
        lang: Language,
        source: &Path,
        include_dir: &Path,
        out: &str,
        opts: &CompileOptions,
    ) -> Vec<OsString> {
        let mut a: Vec<OsString> = Vec::new();
        let mut s = |x: &str| a.push(x.into());
        match (self.kind, lang) {
            (CompilerKind::Nvcc, _) => {
                s("--ptx");
                s(&format!("-arch={}", nvcc_arch(&opts.arch)));
                s(&format!("-O{}", opts.opt_level.min(3)));
                s("-include");
                a.push(include_dir.join(headers::CUDA_HEADER_NAME).into());
                a.push("-include".into());
                a.push(include_dir.join(headers::GPUVERIFY_HEADER_NAME).into());
            }
            (CompilerKind::Clang, Language::Cuda) => {
                for x in [
                    "-x",
                    "cuda",
                    "--cuda-device-only",
                    "-nocudainc",
                    "-nocudalib",
                ] {
                    s(x);
                }
                s(&format!("--cuda-gpu-arch={}", opts.arch));
                s(&format!("--cuda-feature=+ptx{}", opts.ptx_version));
                s("-fno-crash-diagnostics");
                s("-S");
                s(&format!("-O{}", opts.opt_level.min(3)));
                s("-include");
                a.push(include_dir.join(headers::CUDA_HEADER_NAME).into());
                a.push("-include".into());
                a.push(include_dir.join(headers::GPUVERIFY_HEADER_NAME).into());
                a.push("-I".into());
                a.push(include_dir.into());
            }
            (CompilerKind::Clang, Language::OpenCl(std)) => {
                s("-x");
                s("cl");
                s(&format!("-cl-std={}", std.flag()));
                s("-target");
                s("nvptx64-nvidia-nvcl");
                s(&format!("-march={}", opts.arch));
                for x in ["-Xclang", "-target-feature", "-Xclang"] {
                    s(x);
                }
                s(&format!("+ptx{}", opts.ptx_version));
                s("-fno-crash-diagnostics");
                s("-S");
                s(&format!("-O{}", opts.opt_level.min(3)));
                s("-include");
                a.push(include_dir.join(headers::OPENCL_HEADER_NAME).into());
                a.push("-include".into());
                a.push(include_dir.join(headers::GPUVERIFY_HEADER_NAME).into());
                a.push("-I".into());
                a.push(include_dir.into());
                if let Some(lib) = &opts.libclc {
                    for x in ["-Wno-linker-warnings", "-Xclang", "-mlink-builtin-bitcode"] {
                        a.push(x.into());
                    }
                    a.push("-Xclang".into());
                    a.push(lib.into());
                }
            }
        }
        for d in &opts.include_dirs {
            a.push("-I".into());
            a.push(d.into());
        }
        for d in &opts.defines {
            a.push(format!("-D{d}").into());
        }
        for x in &opts.extra_args {
            // nvcc spells clang's line tables `-lineinfo`.
            if self.kind == CompilerKind::Nvcc && x == "-gline-tables-only" {
                a.push("-lineinfo".into());
            } else {
                a.push(x.into());
            }
        }
        a.push("-o".into());
        a.push(out.into());
        a.push(source.into());
        a
    }

    /// Compiles the file at `path` (language from its extension) to PTX.
    pub fn compile_file(
        &self,
        path: &Path,
        opts: &CompileOptions,
    ) -> Result<CompiledPtx, CudaError> {
        let lang = Language::from_path(path, opts.opencl_std).ok_or_else(|| {
            CudaError::UnknownLanguage {
                path: path.to_path_buf(),
            }
        })?;
        self.compile_path(lang, path, opts)
    }

    /// Compiles CUDA source text; `name` is the file name diagnostics use (`kernel.cu`).
    pub fn compile_cuda(
        &self,
        source: &str,
        name: &str,
        opts: &CompileOptions,
    ) -> Result<CompiledPtx, CudaError> {
        self.compile_source(Language::Cuda, source, name, opts)
    }

    /// Compiles OpenCL C source text at version `std`.
    pub fn compile_opencl(
        &self,
        source: &str,
        name: &str,
        std: OpenClStd,
        opts: &CompileOptions,
    ) -> Result<CompiledPtx, CudaError> {
        self.compile_source(Language::OpenCl(std), source, name, opts)
    }

    /// Compiles source text in `lang`, written to a temporary file called `name`.
    pub fn compile_source(
        &self,
        lang: Language,
        source: &str,
        name: &str,
        opts: &CompileOptions,
    ) -> Result<CompiledPtx, CudaError> {
        let dir = tempfile::Builder::new()
            .prefix("weft-src-")
            .tempdir()
            .map_err(|e| io_err("creating a temporary directory", e))?;
        let base = Path::new(name)
            .file_name()
            .map(|s| s.to_os_string())
            .unwrap_or_else(|| "kernel".into());
        let path = dir.path().join(base);
        std::fs::write(&path, source).map_err(|e| io_err("writing the kernel source", e))?;
        self.compile_path(lang, &path, opts)
    }

    fn compile_path(
        &self,
        lang: Language,
        path: &Path,
        opts: &CompileOptions,
    ) -> Result<CompiledPtx, CudaError> {
        if self.kind == CompilerKind::Nvcc && lang != Language::Cuda {
            return Err(CudaError::CompilerNotFound {
                tried: vec![self.path.display().to_string()],
                hint: "nvcc cannot compile OpenCL; use Compiler::detect_clang()".into(),
            });
        }
        let inc = headers::write_headers()?;
        let out_file = inc.path().join("out.ptx");
        let out = match self.kind {
            CompilerKind::Clang => "-".to_string(),
            CompilerKind::Nvcc => out_file.display().to_string(),
        };
        let args = self.command(lang, path, inc.path(), &out, opts);
        let command: Vec<String> = std::iter::once(self.path.display().to_string())
            .chain(args.iter().map(|a| a.to_string_lossy().into_owned()))
            .collect();
        let output = crate::child::die_with_parent(Command::new(&self.path).args(&args))
            .output()
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::NotFound {
                    CudaError::CompilerNotFound {
                        tried: vec![self.path.display().to_string()],
                        hint: INSTALL_HINT.to_string(),
                    }
                } else {
                    io_err(&format!("running {}", self.path.display()), e)
                }
            })?;
        let diagnostics = String::from_utf8_lossy(&output.stderr).into_owned();
        if !output.status.success() {
            return Err(CudaError::CompileFailed {
                compiler: self.path.clone(),
                command: shell_join(&command),
                status: output.status.code(),
                hint: hint_for(&diagnostics),
                diagnostics,
            });
        }
        let ptx = match self.kind {
            CompilerKind::Clang => String::from_utf8_lossy(&output.stdout).into_owned(),
            CompilerKind::Nvcc => std::fs::read_to_string(&out_file)
                .map_err(|e| io_err("reading nvcc's PTX output", e))?,
        };
        let compiled = CompiledPtx {
            ptx,
            command,
            warnings: diagnostics,
            compiler: self.kind,
        };
        if !opts.allow_unresolved {
            let names = unresolved_functions(&compiled.ptx);
            if !names.is_empty() {
                return Err(CudaError::UnresolvedFunctions { names });
            }
        }
        Ok(compiled)
    }
}

fn io_err(context: &str, source: std::io::Error) -> CudaError {
    CudaError::Io {
        context: context.to_string(),
        source,
    }
}

/// Explains failures weft knows about.
fn hint_for(diagnostics: &str) -> Option<String> {
    if diagnostics.contains("Cannot select") {
        Some(
            "clang's NVPTX back-end cannot compile ordered atomics or fences \
             (__atomic_* with acquire/release/seq_cst, __atomic_thread_fence); use weft's \
             helpers instead (weft_ld_acquire_gpu, weft_st_release_gpu, weft_fence_sc_gpu, \
             weft::atomic_ref)"
                .into(),
        )
    } else if diagnostics.contains("needs target feature ptx") {
        Some("raise CompileOptions::ptx_version (clang's --cuda-feature=+ptxNN)".into())
    } else {
        None
    }
}

fn shell_join(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_=+./,:".contains(c))
            {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `_Z4sqrtf` → `sqrt`: the name of a simple Itanium-mangled function, else the input.
pub fn demangle_simple(name: &str) -> &str {
    let Some(rest) = name.strip_prefix("_Z") else {
        return name;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    match rest[..digits].parse::<usize>() {
        Ok(n) if n > 0 && digits + n <= rest.len() => &rest[digits..digits + n],
        _ => name,
    }
}

/// Whether `name` is one of weft's annotation/query marker functions (lowered to IR
/// statements, never called).
pub fn is_marker(name: &str) -> bool {
    name.starts_with("__weft_annot_") || name.starts_with("__weft_query_")
}

/// Functions the PTX declares and calls but defines nowhere (demangled where simple).
pub fn unresolved_functions(ptx: &str) -> Vec<String> {
    let Ok(m) = weft_ptx::parse(ptx) else {
        return Vec::new();
    };
    let mut out: Vec<String> = m
        .functions()
        .filter(|f| f.body.is_none() && m.function(&f.name).is_some_and(|d| d.body.is_none()))
        .filter(|f| !is_marker(&f.name))
        // CUDA's system calls (device printf and assert) are run by the emulator.
        .filter(|f| weft_ir::kernel::SysFunc::from_name(&f.name).is_none())
        .map(|f| {
            let d = demangle_simple(&f.name);
            if d == f.name {
                f.name.clone()
            } else {
                format!("{d} ({})", f.name)
            }
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demangling() {
        assert_eq!(demangle_simple("_Z4sqrtf"), "sqrt");
        assert_eq!(demangle_simple("_Z12get_local_idj"), "get_local_id");
        assert_eq!(demangle_simple("vprintf"), "vprintf");
        assert_eq!(demangle_simple("_Z99x"), "_Z99x");
    }

    #[test]
    fn command_lines() {
        let c = Compiler::clang("/usr/bin/clang-19");
        let o = CompileOptions {
            libclc: None,
            ..CompileOptions::default()
        };
        let a: Vec<String> = c
            .command(
                Language::Cuda,
                Path::new("k.cu"),
                Path::new("/inc"),
                "-",
                &o,
            )
            .into_iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            a.join(" "),
            "-x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_70 \
             --cuda-feature=+ptx70 -fno-crash-diagnostics -S -O1 -include /inc/weft_cuda.h \
             -include /inc/weft_gpuverify.h -I /inc -o - k.cu"
        );
        let a: Vec<String> = c
            .command(
                Language::OpenCl(OpenClStd::Cl12),
                Path::new("k.cl"),
                Path::new("/inc"),
                "-",
                &o,
            )
            .into_iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            a.join(" "),
            "-x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -march=sm_70 -Xclang \
             -target-feature -Xclang +ptx70 -fno-crash-diagnostics -S -O1 -include \
             /inc/weft_opencl.h -include /inc/weft_gpuverify.h -I /inc -o - k.cl"
        );
    }

    #[test]
    fn unresolved() {
        let ptx = ".version 7.0\n.target sm_70\n.address_size 64\n\
            .func (.param .b32 r) _Z4sqrtf(.param .b32 a);\n\
            .func f() { ret; }\n.func f();\n";
        assert_eq!(unresolved_functions(ptx), vec!["sqrt (_Z4sqrtf)"]);
    }

    #[test]
    fn missing_compiler_is_a_clear_error() {
        let c = Compiler::clang("/nonexistent/clang-19");
        let e = c
            .compile_cuda("", "k.cu", &CompileOptions::default())
            .unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("clang-19"), "{msg}");
        assert!(matches!(e, CudaError::CompilerNotFound { .. }));
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(
            shell_join(&["a".into(), "b c".into(), "it's".into()]),
            "a 'b c' 'it'\\''s'"
        );
    }
}
