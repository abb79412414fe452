//! CUDA's error codes (the numbers of `cudaError_t`), their names and messages as
//! `cudaGetErrorName`/`cudaGetErrorString` return them, and which errors are sticky (a
//! kernel fault corrupts the context: every later call returns it).

/// `cudaError_t`.
pub type CudaError = i32;

pub const SUCCESS: CudaError = 0;
pub const INVALID_VALUE: CudaError = 1;
pub const MEMORY_ALLOCATION: CudaError = 2;
pub const INVALID_CONFIGURATION: CudaError = 9;
pub const INVALID_SYMBOL: CudaError = 13;
pub const INVALID_DEVICE_POINTER: CudaError = 17;
pub const INVALID_MEMCPY_DIRECTION: CudaError = 21;
pub const MISSING_CONFIGURATION: CudaError = 52;
pub const INVALID_DEVICE_FUNCTION: CudaError = 98;
pub const INVALID_DEVICE: CudaError = 101;
pub const INVALID_KERNEL_IMAGE: CudaError = 200;
pub const INVALID_RESOURCE_HANDLE: CudaError = 400;
pub const ILLEGAL_ADDRESS: CudaError = 700;
pub const LAUNCH_TIMEOUT: CudaError = 702;
pub const ASSERT: CudaError = 710;
pub const MISALIGNED_ADDRESS: CudaError = 716;
pub const LAUNCH_FAILURE: CudaError = 719;
pub const UNKNOWN: CudaError = 999;

const TABLE: &[(CudaError, &str, &str)] = &[
    (SUCCESS, "cudaSuccess", "no error"),
    (INVALID_VALUE, "cudaErrorInvalidValue", "invalid argument"),
    (
        MEMORY_ALLOCATION,
        "cudaErrorMemoryAllocation",
        "out of memory",
    ),
    (3, "cudaErrorInitializationError", "initialization error"),
    (4, "cudaErrorCudartUnloading", "driver shutting down"),
    (
        INVALID_CONFIGURATION,
        "cudaErrorInvalidConfiguration",
        "invalid configuration argument",
    ),
    (
        INVALID_SYMBOL,
        "cudaErrorInvalidSymbol",
        "invalid device symbol",
    ),
    (
        INVALID_DEVICE_POINTER,
        "cudaErrorInvalidDevicePointer",
        "invalid device pointer",
    ),
    (
        INVALID_MEMCPY_DIRECTION,
        "cudaErrorInvalidMemcpyDirection",
        "invalid copy direction for memcpy",
    ),
    (
        MISSING_CONFIGURATION,
        "cudaErrorMissingConfiguration",
        "__global__ function call is not configured",
    ),
    (
        INVALID_DEVICE_FUNCTION,
        "cudaErrorInvalidDeviceFunction",
        "invalid device function",
    ),
    (
        100,
        "cudaErrorNoDevice",
        "no CUDA-capable device is detected",
    ),
    (
        INVALID_DEVICE,
        "cudaErrorInvalidDevice",
        "invalid device ordinal",
    ),
    (
        INVALID_KERNEL_IMAGE,
        "cudaErrorInvalidKernelImage",
        "device kernel image is invalid",
    ),
    (
        INVALID_RESOURCE_HANDLE,
        "cudaErrorInvalidResourceHandle",
        "invalid resource handle",
    ),
    (600, "cudaErrorNotReady", "device not ready"),
    (
        ILLEGAL_ADDRESS,
        "cudaErrorIllegalAddress",
        "an illegal memory access was encountered",
    ),
    (
        701,
        "cudaErrorLaunchOutOfResources",
        "too many resources requested for launch",
    ),
    (
        LAUNCH_TIMEOUT,
        "cudaErrorLaunchTimeout",
        "the launch timed out and was terminated",
    ),
    (ASSERT, "cudaErrorAssert", "device-side assert triggered"),
    (
        MISALIGNED_ADDRESS,
        "cudaErrorMisalignedAddress",
        "misaligned address",
    ),
    (
        LAUNCH_FAILURE,
        "cudaErrorLaunchFailure",
        "unspecified launch failure",
    ),
    (801, "cudaErrorNotSupported", "operation not supported"),
    (UNKNOWN, "cudaErrorUnknown", "unknown error"),
];

/// `cudaGetErrorName`.
pub fn name(e: CudaError) -> &'static str {
    TABLE
        .iter()
        .find(|t| t.0 == e)
        .map_or("unrecognized error code", |t| t.1)
}

/// `cudaGetErrorString`.
pub fn message(e: CudaError) -> &'static str {
    TABLE
        .iter()
        .find(|t| t.0 == e)
        .map_or("unrecognized error code", |t| t.2)
}

/// NUL-terminated copies for the C ABI.
pub fn c_str(s: &'static str) -> *const libc::c_char {
    use std::collections::HashMap;
    use std::ffi::CString;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<&'static str, CString>>> = OnceLock::new();
    let m = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut m = m.lock().unwrap_or_else(|e| e.into_inner());
    m.entry(s)
        .or_insert_with(|| CString::new(s).unwrap_or_default())
        .as_ptr()
}

/// Errors that corrupt the context (every later call returns them).
pub fn is_sticky(e: CudaError) -> bool {
    matches!(
        e,
        ILLEGAL_ADDRESS | LAUNCH_TIMEOUT | ASSERT | LAUNCH_FAILURE | MISALIGNED_ADDRESS
    )
}
