//! Typed errors of the compiler driver, each with a message a user can act on.

use crate::geometry::HeaderError;
use std::fmt;
use std::path::PathBuf;

/// What can go wrong while turning a kernel source into PTX.
#[derive(Debug)]
pub enum CudaError {
    /// No usable compiler: lists what was tried and what to install.
    CompilerNotFound {
        /// The names or paths looked for.
        tried: Vec<String>,
        /// What to install or set.
        hint: String,
    },
    /// Reading a source or writing a temporary file failed.
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The compiler ran and rejected the source (or crashed); carries its diagnostics.
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
    UnresolvedFunctions {
        /// The functions, demangled where simple (`sqrt (_Z4sqrtf)`).
        names: Vec<String>,
    },
    /// The file extension names no language weft compiles (`.cu`, `.cuh`, `.cl`).
    UnknownLanguage {
        /// The file.
        path: PathBuf,
    },
    /// The GPUVerify-style header comment is malformed.
    Header(HeaderError),
}

impl fmt::Display for CudaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CudaError::CompilerNotFound { tried, hint } => {
                write!(
                    f,
                    "no CUDA/OpenCL compiler found (tried {}); {hint}",
                    tried.join(", ")
                )
            }
            CudaError::Io { context, source } => write!(f, "{context}: {source}"),
            CudaError::CompileFailed {
                compiler,
                command,
                status,
                diagnostics,
                hint,
            } => {
                write!(f, "{} failed", compiler.display())?;
                match status {
                    Some(s) => write!(f, " with exit status {s}")?,
                    None => write!(f, " (killed by a signal)")?,
                }
                write!(f, "\ncommand: {command}\n{}", diagnostics.trim_end())?;
                if let Some(h) = hint {
                    write!(f, "\nhint: {h}")?;
                }
                Ok(())
            }
            CudaError::UnresolvedFunctions { names } => write!(
                f,
                "the PTX calls functions that are not defined: {} (weft's shim does not \
                 provide them; define them in the kernel or allow unresolved calls)",
                names.join(", ")
            ),
            CudaError::UnknownLanguage { path } => write!(
                f,
                "{}: unknown kernel language (expected .cu, .cuh or .cl)",
                path.display()
            ),
            CudaError::Header(e) => write!(f, "kernel header: {e}"),
        }
    }
}

impl std::error::Error for CudaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CudaError::Io { source, .. } => Some(source),
            CudaError::Header(e) => Some(e),
            _ => None,
        }
    }
}

impl From<HeaderError> for CudaError {
    fn from(e: HeaderError) -> Self {
        CudaError::Header(e)
    }
}
