//! weft-hw-cuda: runs litmus tests on NVIDIA GPUs, following the testing harness of
//! paper 000 §4 (Alglave et al., ASPLOS'15).
//!
//! - [`generate`] turns a [`weft_ir::Program`] into a PTX kernel and an equivalent CUDA-C
//!   kernel that run many instances of the test per launch, keep every access's order,
//!   scope and cache operator (§2.3), honour the scope tree (§4.2) and implement the four
//!   incantations of §4.3 as [`CudaParams`] switches (module [`lower`], [`ptx`], [`cudac`],
//!   [`layout`]).
//! - [`CudaRunner`] loads the CUDA driver at run time through `cudarc` (no link-time CUDA
//!   dependency), launches the kernel and histograms the outcomes (module [`runner`]).
//! - [`emulated`] runs a launch bound for weft's SIMT emulator on the GPU (`--backend cuda`).
//! - [`optcheck`] compares the SASS that `ptxas` produces with the test's instruction order
//!   (§4.4), when the CUDA tools are installed.
//!
//! docs/hardware-cuda.md describes the kernel layout, the incantations and optcheck.

pub mod cudac;
pub mod emulated;
pub mod error;
pub mod kernel;
pub mod layout;
pub mod lower;
pub mod optcheck;
pub mod ptx;
pub mod runner;

pub use error::{CodegenError, CudaError};
pub use kernel::{KernelParam, KernelRun, KernelShape};
pub use layout::KernelLayout;
pub use lower::MemKind;
pub use optcheck::Verdict;
pub use runner::{CudaRun, CudaRunner, DeviceIdentity};

use serde::{Deserialize, Serialize};

/// How to run a test on a CUDA device: sizes and the incantations of paper 000 §4.3.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CudaParams {
    /// Test instances per kernel launch (1..=4194304).
    pub instances_per_launch: u32,
    /// Kernel launches; each gets fresh memory (and, with randomisation, a fresh layout).
    pub iterations: u32,
    /// Threads per block: a multiple of 32 in 32..=1024.
    pub threads_per_block: u32,
    /// §4.3.1: non-testing threads hammer a scratch array until the tests are done.
    pub mem_stress: bool,
    /// §4.3.2: free lanes of a testing warp repeat the testing thread's accesses at
    /// offsets that do or do not cause bank conflicts (chosen at random per launch).
    pub bank_conflicts: bool,
    /// §4.3.3: which physical thread plays which test thread, and the number of
    /// non-testing threads, are drawn at random per launch (respecting the scope tree).
    pub thread_randomisation: bool,
    /// §4.3.4: testing threads of an instance meet at a bounded spin barrier before the body.
    pub thread_sync: bool,
    /// Seed of every random choice.
    pub seed: u64,
    /// CUDA device ordinal.
    pub device: usize,
}

impl Default for CudaParams {
    fn default() -> Self {
        CudaParams {
            instances_per_launch: 4096,
            iterations: 25,
            threads_per_block: 256,
            mem_stress: true,
            bank_conflicts: false,
            thread_randomisation: true,
            thread_sync: true,
            seed: 0,
            device: 0,
        }
    }
}

/// A generated kernel in PTX and CUDA-C, with the layout the runner needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// PTX module with the entry [`ptx::KERNEL_NAME`].
    pub ptx: String,
    /// Equivalent CUDA-C (inline PTX for every test access and fence).
    pub cuda_c: String,
    /// Memory and result layout.
    pub layout: KernelLayout,
    /// Per test thread, its memory instructions and fences in program order, as written
    /// in the kernel: what optcheck checks the SASS against.
    pub expected: Vec<Vec<(MemKind, String)>>,
}

/// Generates the kernels for `p` under `params`, or says what cannot be expressed.
pub fn generate(p: &weft_ir::Program, params: &CudaParams) -> Result<Generated, CodegenError> {
    let l = lower::lower(p)?;
    layout::check_params(&l.shape, params)?;
    let layout = KernelLayout::new(&l, params.threads_per_block)?;
    layout::check_sizes(&layout, params)?;
    let ptx = ptx::print(&p.name, &l, &layout, params);
    let cuda_c = cudac::print(&p.name, &l, &layout, params);
    let expected = l
        .threads
        .iter()
        .map(|t| {
            let mut v = Vec::new();
            lower::mem_sequence(&t.body, &mut v);
            v
        })
        .collect();
    Ok(Generated {
        ptx,
        cuda_c,
        layout,
        expected,
    })
}
