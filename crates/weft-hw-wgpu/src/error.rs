//! Typed errors of WGSL code generation ([`CodegenError`]) and of running on a wgpu
//! device ([`WgpuError`]).

use std::fmt;

/// Why a litmus program cannot be expressed in WGSL under a stress configuration. The
/// message names the thread, the instruction and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodegenError {
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
        write!(f, "cannot generate WGSL: {}", self.message)
    }
}

impl std::error::Error for CodegenError {}

/// Why a run through wgpu failed.
#[derive(Debug)]
pub enum WgpuError {
    /// No adapter at all (no Vulkan/Metal/DX12 driver, not even lavapipe).
    NoAdapter(String),
    /// The device index names no adapter.
    BadDevice { index: usize, available: usize },
    /// The device could not be opened or lacks a limit the run needs.
    Device(String),
    /// The program cannot be expressed (see [`CodegenError`]).
    Codegen(CodegenError),
    /// Parameters out of range (stress configuration, iterations).
    BadParams(String),
    /// A generated shader failed naga or wgpu validation (a bug in weft).
    Shader {
        which: &'static str,
        message: String,
    },
    /// wgpu reported an error while running (validation, out of memory, device lost).
    Runtime(String),
    /// The result checksum failed (paper 001 §4): the GPU's class counts, the instances
    /// run and the host's histogram do not agree.
    Checksum {
        what: String,
        /// seq, interleaved, weak as counted by the result shader.
        gpu: [u64; 3],
        /// The same classes counted over the host's decoded histogram.
        host: [u64; 3],
        instances: u64,
    },
}

impl fmt::Display for WgpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WgpuError::NoAdapter(why) => write!(f, "no wgpu adapter: {why}"),
            WgpuError::BadDevice { index, available } => write!(
                f,
                "no wgpu device {index}: {available} adapter(s) available (indices 0..{available})"
            ),
            WgpuError::Device(m) => write!(f, "cannot open the wgpu device: {m}"),
            WgpuError::Codegen(e) => write!(f, "{e}"),
            WgpuError::BadParams(m) => write!(f, "bad parameters: {m}"),
            WgpuError::Shader { which, message } => {
                write!(f, "generated {which} shader is invalid: {message}")
            }
            WgpuError::Runtime(m) => write!(f, "wgpu error: {m}"),
            WgpuError::Checksum {
                what,
                gpu,
                host,
                instances,
            } => write!(
                f,
                "result checksum failed ({what}): GPU counted seq/interleaved/weak {gpu:?}, host histogram {host:?}, {instances} instances ran"
            ),
        }
    }
}

impl std::error::Error for WgpuError {}

impl From<CodegenError> for WgpuError {
    fn from(e: CodegenError) -> Self {
        WgpuError::Codegen(e)
    }
}
