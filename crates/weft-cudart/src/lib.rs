//! weft-cudart: a CUDA runtime for whole programs on weft's SIMT emulator (issue 26).
//!
//! A `.cu` program built by `weft cc` has its host side compiled by clang-19
//! (`--cuda-host-only`) with weft's PTX of the device side embedded as its GPU binary, and is
//! linked with this library (`libweft_cudart.so`), which exports the C ABI clang emits for
//! host code: registration of the GPU binary, kernels and module variables, both launch ABIs,
//! and the runtime API (memory, symbols, device, errors, streams, events). Kernels run on
//! `weft-simt`; under `weft race` every launch is checked by `weft-race`, under
//! `weft memcheck` by [`memcheck`]. The run's report goes to a file `weft` reads.
//!
//! - [`container`]: the embedded GPU binary (weft's PTX in a small container);
//! - [`config`]: the run's mode and the emulated device, from the environment;
//! - [`errors`]: CUDA's error codes, names and messages;
//! - [`memory`]: the device address space (reserved without host access) and allocations;
//! - [`runtime`]: the state: modules, kernels, symbols, configuration stack, last error;
//! - [`launch`]: checking a launch configuration, arguments, running a kernel;
//! - [`managed`]: `__managed__` variables (host shadow and device copy kept coherent);
//! - [`memcheck`]: the memory checker's trace sink;
//! - [`report`]: the run's report (races across launches, memcheck errors);
//! - [`api`], [`api_mem`], [`api_stream`]: the exported C functions.
//!
//! What is implemented and what is not: `docs/programs.md`.

pub mod api;
pub mod api_mem;
pub mod api_stream;
pub mod config;
pub mod container;
pub mod errors;
pub mod launch;
pub mod managed;
pub mod memcheck;
pub mod memory;
pub mod report;
pub mod runtime;

pub use container::GpuBinary;
pub use report::ProgramReport;
