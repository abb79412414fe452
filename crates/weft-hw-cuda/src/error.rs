//! Typed errors of code generation ([`CodegenError`]) and of running on a device
//! ([`CudaError`]).

use std::fmt;

/// Why a litmus program cannot be turned into a CUDA kernel. The message names the
/// instruction or construct and the thread, so the user knows what to change.
#[derive(Clone, Debug, PartialEq, Eq)]
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

impl fmt::Display for CodegenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot generate CUDA code: {}", self.message)
    }
}

impl std::error::Error for CodegenError {}

/// Why a run on a CUDA device failed.
#[derive(Debug)]
pub enum CudaError {
    /// The driver library could not be loaded (no NVIDIA driver on this machine).
    NoDriver(String),
    /// The driver reported an error (with the operation that failed).
    Driver { context: String, message: String },
    /// The program cannot be run (see [`CodegenError`]).
    Codegen(CodegenError),
    /// Parameters out of range.
    BadParams(String),
    /// The result buffer does not account for every instance (paper 000 harness checksum).
    Checksum { counted: u64, expected: u64 },
}

impl fmt::Display for CudaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CudaError::NoDriver(why) => write!(f, "no CUDA driver: {why}"),
            CudaError::Driver { context, message } => {
                write!(f, "CUDA driver error while {context}: {message}")
            }
            CudaError::Codegen(e) => write!(f, "{e}"),
            CudaError::BadParams(m) => write!(f, "bad CUDA parameters: {m}"),
            CudaError::Checksum { counted, expected } => write!(
                f,
                "result checksum failed: outcomes add up to {counted} but {expected} instances ran"
            ),
        }
    }
}

impl std::error::Error for CudaError {}

impl From<CodegenError> for CudaError {
    fn from(e: CodegenError) -> Self {
        CudaError::Codegen(e)
    }
}
