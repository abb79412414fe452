//! Typed errors of WGSL code generation ([`CodegenError`]) and of running on a wgpu
//! device ([`WgpuError`]).

/// Why a litmus program cannot be expressed in WGSL under a stress configuration. The
/// message names the thread, the instruction and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot generate WGSL: {message}")]
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

/// Why a run through wgpu failed.
#[derive(Debug, thiserror::Error)]
pub enum WgpuError {
    /// No adapter at all (no Vulkan/Metal/DX12 driver, not even lavapipe).
    #[error("no wgpu adapter: {0}")]
    NoAdapter(String),
    /// The device index names no adapter.
    #[error("no wgpu device {index}: {available} adapter(s) available (indices 0..{available})")]
    BadDevice { index: usize, available: usize },
    /// The device could not be opened or lacks a limit the run needs.
    #[error("cannot open the wgpu device: {0}")]
    Device(String),
    /// The program cannot be expressed (see [`CodegenError`]).
    #[error("{0}")]
    Codegen(#[from] CodegenError),
    /// Parameters out of range (stress configuration, iterations).
    #[error("bad parameters: {0}")]
    BadParams(String),
    /// A generated shader failed naga or wgpu validation (a bug in weft).
    #[error("generated {which} shader is invalid: {message}")]
    Shader {
        which: &'static str,
        message: String,
    },
    /// wgpu reported an error while running (validation, out of memory, device lost).
    #[error("wgpu error: {0}")]
    Runtime(String),
    /// The result checksum failed (paper 001 §4): the GPU's class counts, the instances
    /// run and the host's histogram do not agree.
    #[error(
        "result checksum failed ({what}): GPU counted seq/interleaved/weak {gpu:?}, host histogram {host:?}, {instances} instances ran"
    )]
    Checksum {
        what: String,
        /// seq, interleaved, weak as counted by the result shader.
        gpu: [u64; 3],
        /// The same classes counted over the host's decoded histogram.
        host: [u64; 3],
        instances: u64,
    },
}
