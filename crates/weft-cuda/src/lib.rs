//! weft-cuda: brings real CUDA and OpenCL kernels into weft by compiling them to PTX with a
//! real compiler (Debian's clang-19 with its NVPTX back-end, or nvcc when present), with
//! weft's shim headers in place of NVIDIA's (DESIGN.md "Real parts, not stand-ins").
//!
//! - [`compiler`]: finding clang/nvcc and running it ([`Compiler`], [`CompileOptions`]);
//! - [`headers`]: the embedded `weft_cuda.h` and `weft_opencl.h` shims;
//! - [`geometry`]: launch geometry and expected verdicts from GPUVerify-style header
//!   comments (`//--blockDim=64 --gridDim=4`, `//xfail:BOOGIE_ERROR`; paper 002 §2);
//! - [`error`]: typed errors ([`CudaError`]);
//! - [`launch`]: the launch description shared by every kernel command ([`LaunchSpec`]);
//! - [`frontend`]: file + [`LaunchSpec`] → compiled, parsed, lowered kernel ([`load_kernel`]);
//! - [`cache`]: compiled PTX cached by content hash;
//! - `bind` (feature `bind`): a kernel and launch options bound to the SIMT emulator's
//!   launch (arguments, buffers, `__local` memory), one launch or a host-ordered sequence.
//!
//! The PTX is parsed by `weft-ptx` ([`CompiledPtx::module`]).

#[cfg(feature = "bind")]
pub mod bind;
pub mod cache;
pub mod child;
pub mod compiler;
pub mod enums;
pub mod error;
pub mod frontend;
pub mod geometry;
pub mod headers;
pub mod launch;
pub mod templates;

pub use compiler::{CompileOptions, CompiledPtx, Compiler, CompilerKind, Language, OpenClStd};
pub use error::CudaError;
pub use frontend::{load_kernel, load_module, FrontKernel, FrontModule, FrontendError};
pub use geometry::{parse_header, Expectation, KernelHeader, LaunchConfig};
pub use launch::{AnalysisFlags, Dims, LaunchSpec};

use std::path::Path;

/// A kernel file compiled to PTX, with what its header comment says.
#[derive(Clone, Debug)]
pub struct CompiledKernel {
    /// The header comment (geometry, expected verdict).
    pub header: KernelHeader,
    /// The PTX.
    pub ptx: CompiledPtx,
}

/// Reads a `.cu`/`.cl` file, parses its header and compiles it with the compiler
/// [`Compiler::detect_for`] picks for its language.
pub fn compile_kernel_file(
    path: &Path,
    opts: &CompileOptions,
) -> Result<CompiledKernel, CudaError> {
    let lang =
        Language::from_path(path, opts.opencl_std).ok_or_else(|| CudaError::UnknownLanguage {
            path: path.to_path_buf(),
        })?;
    let source = std::fs::read_to_string(path).map_err(|e| CudaError::Io {
        context: format!("reading {}", path.display()),
        source: e,
    })?;
    let header = parse_header(&source)?;
    let compiler = Compiler::detect_for(lang)?;
    let ptx = compiler.compile_file(path, opts)?;
    Ok(CompiledKernel { header, ptx })
}
