//! Typed errors of the compiler driver, each with a message a user can act on.

use crate::geometry::HeaderError;
use std::path::PathBuf;

/// What can go wrong while turning a kernel source into PTX.
#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    /// No usable compiler: lists what was tried and what to install.
    #[error("no CUDA/OpenCL compiler found (tried {}); {hint}", tried.join(", "))]
    CompilerNotFound {
        /// The names or paths looked for.
        tried: Vec<String>,
        /// What to install or set.
        hint: String,
    },
    /// Reading a source or writing a temporary file failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The compiler ran and rejected the source (or crashed); carries its diagnostics.
    #[error("{}", compile_failed(compiler, command, *status, diagnostics, hint.as_deref()))]
    CompileFailed {
        /// The compiler executable.
        compiler: PathBuf,
        /// The command line, shell-quoted.
        command: String,
        /// Exit status, when the process exited normally.
        status: Option<i32>,
        /// The compiler's standard error.
        diagnostics: String,
        /// A weft-specific explanation of a known failure, if recognised.
        hint: Option<String>,
    },
    /// The PTX calls functions that neither the source nor weft's shim defines.
    #[error(
        "the PTX calls functions that are not defined: {} (weft's shim does not \
         provide them; define them in the kernel or allow unresolved calls)",
        names.join(", ")
    )]
    UnresolvedFunctions {
        /// The functions, demangled where simple (`sqrt (_Z4sqrtf)`).
        names: Vec<String>,
    },
    /// The file extension names no language weft compiles (`.cu`, `.cuh`, `.cl`).
    #[error("{}: unknown kernel language (expected .cu, .cuh or .cl)", path.display())]
    UnknownLanguage {
        /// The file.
        path: PathBuf,
    },
    /// The GPUVerify-style header comment is malformed.
    #[error("kernel header: {0}")]
    Header(#[from] HeaderError),
}

/// [`CudaError::CompileFailed`]'s text: the failure, the command line, the compiler's
/// diagnostics and weft's hint.
fn compile_failed(
    compiler: &std::path::Path,
    command: &str,
    status: Option<i32>,
    diagnostics: &str,
    hint: Option<&str>,
) -> String {
    let mut m = format!("{} failed", compiler.display());
    match status {
        Some(s) => m.push_str(&format!(" with exit status {s}")),
        None => m.push_str(" (killed by a signal)"),
    }
    m.push_str(&format!("\ncommand: {command}\n{}", diagnostics.trim_end()));
    if let Some(h) = hint {
        m.push_str(&format!("\nhint: {h}"));
    }
    m
}
