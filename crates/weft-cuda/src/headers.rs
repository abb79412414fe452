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

/// Type names the CUDA shim declares (itself or through the C library headers it includes)
/// that kernels written for GPUVerify's header-less front end declare again with another
/// type (`typedef unsigned int size_t;`, `typedef unsigned int clock_t;`). `weft_cuda.h`
/// saves and restores a macro of each name around itself, so that compiling with
/// `-DNAME=__weft_user_NAME` gives the program's declaration its own name
/// ([`typedef_clash_defines`]).
pub const SHIM_TYPE_NAMES: &[&str] = &[
    "size_t",
    "ptrdiff_t",
    "clock_t",
    "time_t",
    "uint",
    "ushort",
    "uchar",
    "ulong",
];

/// For a failed compilation's diagnostics: the `-D` definitions that rename each shim type
/// name a program typedefs to another type ("typedef redefinition with different types",
/// the program's line `typedef ... NAME;` quoted under it); empty when there is none.
pub fn typedef_clash_defines(diagnostics: &str) -> Vec<String> {
    let lines: Vec<&str> = diagnostics.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !l.contains("error: typedef redefinition with different types") {
            continue;
        }
        // clang quotes the offending line next: `    2 | typedef unsigned int size_t;`.
        let Some(src) = lines
            .get(i + 1)
            .and_then(|q| q.split_once("| "))
            .map(|p| p.1)
        else {
            continue;
        };
        let src = src.trim_end();
        for name in SHIM_TYPE_NAMES {
            let d = format!("{name}=__weft_user_{name}");
            if src.contains("typedef") && src.ends_with(&format!(" {name};")) && !out.contains(&d) {
                out.push(d);
            }
        }
    }
    out
}

/// The lines (1-based) of `file_name` where clang's diagnostics say a host variable used in
/// device code is declared ("reference to __host__ variable 'x' in __global__ function",
/// then "FILE:L:C: note: host variable declared here"): CUDA file-scope variables written
/// without `__device__`, which GPUVerify reads as global memory.
pub fn host_variable_lines(diagnostics: &str, file_name: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for l in diagnostics.lines() {
        let Some(at) = l.strip_suffix(": note: host variable declared here") else {
            continue;
        };
        // `DIR/NAME.cu:4:7`: the file's last path component, then the line.
        let mut parts = at.rsplitn(3, ':');
        let (_col, line, file) = (parts.next(), parts.next(), parts.next());
        let same = file.is_some_and(|f| f.rsplit('/').next() == Some(file_name));
        if let (true, Some(Ok(n))) = (same, line.map(str::parse::<usize>)) {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// `src` with `__device__ ` put before each of `lines` (1-based; the line count and every
/// other line unchanged): a file-scope variable declared there becomes device memory.
pub fn declare_on_device(src: &str, lines: &[usize]) -> String {
    let mut out = String::with_capacity(src.len() + 11 * lines.len());
    for (i, l) in src.split_inclusive('\n').enumerate() {
        if lines.contains(&(i + 1)) && !l.contains("__device__") {
            out.push_str("__device__ ");
        }
        out.push_str(l);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// clang-19's diagnostics for GPUVerify's `atomics/pointer_add` (`char *buffer;` at file
    /// scope, line 4, used in the kernel).
    #[test]
    fn host_variables_used_in_kernels_become_device_variables() {
        let diag = "/tmp/x/kernel.cu:8:31: error: reference to __host__ variable 'buffer' in __global__ function\n\
                    /tmp/x/kernel.cu:4:7: note: host variable declared here\n\
                    /tmp/x/other.h:2:7: note: host variable declared here\n";
        assert_eq!(host_variable_lines(diag, "kernel.cu"), vec![4]);
        let src = "//pass\n//--gridDim=2\n\nchar *buffer;\n__device__ int y;\n";
        assert_eq!(
            declare_on_device(src, &[4, 5]),
            "//pass\n//--gridDim=2\n\n__device__ char *buffer;\n__device__ int y;\n"
        );
    }

    #[test]
    fn typedef_clashes_from_clang_diagnostics() {
        // clang-19's diagnostic for fluidsGL's common.h (GPUVerifyBenchmarks).
        let d = "common.h:2:22: error: typedef redefinition with different types \
                 ('unsigned int' vs 'unsigned long')\n    2 | typedef unsigned int size_t;\n      \
                 |                      ^\n";
        assert_eq!(typedef_clash_defines(d), vec!["size_t=__weft_user_size_t"]);
        // Another name, or another error, is left alone.
        let d = "k.cu:4:22: error: typedef redefinition with different types ('int' vs \
                 'float')\n    4 | typedef int real;\n";
        assert!(typedef_clash_defines(d).is_empty());
        assert!(typedef_clash_defines("k.cu:1:1: error: unknown type name 'uint'").is_empty());
    }
}
