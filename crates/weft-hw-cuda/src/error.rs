//! Typed errors of code generation ([`CodegenError`]) and of running on a device
//! ([`CudaError`]).

/// Why a litmus program cannot be turned into a CUDA kernel. The message names the
/// instruction or construct and the thread, so the user knows what to change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot generate CUDA code: {message}")]
pub struct CodegenError {
    /// What cannot be expressed, and where.
    pub message: String,
}

impl CodegenError {
    pub fn new(message: impl Into<String>) -> Self {
        CodegenError {
            message: message.into(),
        }
    }
}

/// Why a run on a CUDA device failed.
#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    /// The driver library could not be loaded (no NVIDIA driver on this machine).
    #[error("no CUDA driver: {0}")]
    NoDriver(String),
    /// The driver reported an error (with the operation that failed).
    #[error("CUDA driver error while {context}: {message}")]
    Driver { context: String, message: String },
    /// The program cannot be run (see [`CodegenError`]).
    #[error("{0}")]
    Codegen(#[from] CodegenError),
    /// Parameters out of range.
    #[error("bad CUDA parameters: {0}")]
    BadParams(String),
    /// The result buffer does not account for every instance (paper 000 harness checksum).
    #[error("result checksum failed: outcomes add up to {counted} but {expected} instances ran")]
    Checksum { counted: u64, expected: u64 },
}
