//! The shim headers shipped in `include/`, embedded in the library and written to a
//! temporary directory for each compilation (force-included with `-include`; the directory
//! is also on the include path, so `#include "cuda.h"` finds weft's `cuda.h`).

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

/// File name of the GPUVerify specification dialect header.
pub const GPUVERIFY_HEADER_NAME: &str = "weft_gpuverify.h";
/// GPUVerify's annotation functions as marker calls (`include/weft_gpuverify.h`).
pub const GPUVERIFY_H: &str = include_str!("../include/weft_gpuverify.h");

/// Every header weft ships, by file name.
pub const ALL: &[(&str, &str)] = &[
    (CUDA_HEADER_NAME, WEFT_CUDA_H),
    (OPENCL_HEADER_NAME, WEFT_OPENCL_H),
    (GPUVERIFY_HEADER_NAME, GPUVERIFY_H),
    (
        "weft_cuda_runtime.h",
        include_str!("../include/weft_cuda_runtime.h"),
    ),
    (
        "weft_cuda_math.h",
        include_str!("../include/weft_cuda_math.h"),
    ),
    ("cuda.h", include_str!("../include/cuda.h")),
    ("cuda_runtime.h", include_str!("../include/cuda_runtime.h")),
    (
        "cooperative_groups.h",
        include_str!("../include/cooperative_groups.h"),
    ),
    (
        "cuda_runtime_api.h",
        include_str!("../include/cuda_runtime_api.h"),
    ),
    (
        "device_launch_parameters.h",
        include_str!("../include/device_launch_parameters.h"),
    ),
];

/// Writes every header into `dir`.
pub fn write_to(dir: &std::path::Path) -> std::io::Result<()> {
    for (name, text) in ALL {
        std::fs::write(dir.join(name), text)?;
    }
    Ok(())
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
