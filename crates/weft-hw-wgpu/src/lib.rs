//! weft-hw-wgpu: runs litmus tests on GPUs through wgpu with WGSL compute shaders, as
//! GPUHarbor does (paper 001 §3.2): many instances per dispatch, system stress
//! (`weft_stress::StressConfig`), a result-aggregation shader and checksums (§4).
//!
//! - [`generate`] checks what WGSL can express ([`lower`]) and prints the test and
//!   result shaders with their buffer layout ([`shader`]).
//! - [`validate_wgsl`] runs naga's front end and validator on a shader (no GPU needed).
//! - [`adapters`], [`WgpuRunner`] open a wgpu device (Vulkan, Metal or DX12; Mesa's
//!   lavapipe on machines without a GPU) and run a test ([`runner`]); [`plan`] draws the
//!   per-dispatch random choices from the run's seed.
//!
//! docs/hardware-wgpu.md describes the shader layout, thread roles, stress parameters and
//! what is refused.

pub mod error;
pub mod lower;
pub mod plan;
pub mod runner;
pub mod shader;

pub use error::{CodegenError, WgpuError};
pub use plan::{plan, skip_plan, DispatchPlan, HostRng};
pub use runner::{adapters, AdapterInfo, WgpuParams, WgpuRun, WgpuRunner};
pub use shader::{Layout, Slot};

use weft_litmus::classify::{classify, Classification};
use weft_stress::StressConfig;

/// The generated shaders of one test under one stress configuration.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The test shader (entry point `main`).
    pub test_wgsl: String,
    /// The result-aggregation shader (entry point `main`).
    pub result_wgsl: String,
    pub layout: Layout,
    /// Where the WGSL program is stronger than the test (empty when faithful).
    pub strengthened: Vec<String>,
    /// The SC classification of the (aliased, if `aliasedMemory`) test.
    pub classification: Classification,
}

/// Generates the WGSL shaders for `p` under `cfg`, or says what cannot be expressed.
pub fn generate(p: &weft_ir::Program, cfg: &StressConfig) -> Result<Generated, CodegenError> {
    cfg.validate()
        .map_err(|e| CodegenError::new(format!("stress configuration: {}", e.message)))?;
    let q = if cfg.aliased_memory {
        lower::alias_all(p)?
    } else {
        p.clone()
    };
    let l = lower::lower(&q)?;
    let classification = classify(&q)
        .map_err(|e| CodegenError::new(format!("cannot classify the outcomes: {e}")))?;
    let sh = shader::build(&q, &l, cfg, &classification)?;
    Ok(Generated {
        test_wgsl: sh.test,
        result_wgsl: sh.result,
        layout: sh.layout,
        strengthened: l.strengthened,
        classification,
    })
}

/// Parses and validates a WGSL shader with naga, as wgpu will before running it.
pub fn validate_wgsl(src: &str) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(src).map_err(|e| e.emit_to_string(src))?;
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    )
    .validate(&module)
    .map_err(|e| e.emit_to_string(src))?;
    Ok(module)
}
