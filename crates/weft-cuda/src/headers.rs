//! The shim headers shipped in `include/`, embedded in the library and written to a
//! temporary directory for each compilation (then force-included with `-include`).

use crate::error::CudaError;

/// File name of the CUDA shim.
pub const CUDA_HEADER_NAME: &str = "weft_cuda.h";
/// File name of the OpenCL shim.
pub const OPENCL_HEADER_NAME: &str = "weft_opencl.h";
/// The CUDA shim: qualifiers, `threadIdx`..., barriers, fences, atomics, warp votes and
/// shuffles, and weft's scoped acquire/release helpers (`include/weft_cuda.h`).
pub const WEFT_CUDA_H: &str = include_str!("../include/weft_cuda.h");
/// The OpenCL shim: work-item functions, barriers, 1.2 atomics and 2.0 scoped atomics
/// (`include/weft_opencl.h`).
pub const WEFT_OPENCL_H: &str = include_str!("../include/weft_opencl.h");

/// Writes both headers into `dir`.
pub fn write_to(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::write(dir.join(CUDA_HEADER_NAME), WEFT_CUDA_H)?;
    std::fs::write(dir.join(OPENCL_HEADER_NAME), WEFT_OPENCL_H)
}

/// A fresh temporary directory holding both headers (removed when dropped).
pub fn write_headers() -> Result<tempfile::TempDir, CudaError> {
    let dir = tempfile::Builder::new()
        .prefix("weft-inc-")
        .tempdir()
        .map_err(|e| CudaError::Io {
            context: "creating a temporary include directory".into(),
            source: e,
        })?;
    write_to(dir.path()).map_err(|e| CudaError::Io {
        context: "writing the shim headers".into(),
        source: e,
    })?;
    Ok(dir)
}
