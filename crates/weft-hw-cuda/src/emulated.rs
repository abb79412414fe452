//! A launch prepared for the SIMT emulator (kernel, arguments, buffers) run on the GPU
//! through this crate's kernel launcher (`--backend cuda` of `weft run-kernel` and `weft
//! race`), so the same options bind the same bytes on the GPU as on the emulator.

use weft_ir::exit::Failure;
use weft_ir::kernel::Kernel;
use weft_simt::{Arg, Buffer, LaunchConfig};

use crate::{CudaError, CudaRunner, KernelParam, KernelRun, KernelShape};

/// Opens CUDA device `device` (exit 3 without a driver, 2 for a device that does not exist).
pub fn open(device: usize) -> Result<CudaRunner, Failure> {
    CudaRunner::open(device).map_err(|e| match e {
        CudaError::BadParams(m) => Failure::bad_input(m),
        e => Failure::tool(e.to_string()),
    })
}

/// Launches `kernel` (whose PTX text is `ptx`) with the emulator's arguments and buffers;
/// `extra` more launches on fresh inputs time it. `local_params`: OpenCL `__local` pointer
/// parameters, which the emulator places in work-group memory and the CUDA launcher does not.
#[allow(clippy::too_many_arguments)]
pub fn launch(
    gpu: &CudaRunner,
    kernel: &Kernel,
    ptx: &str,
    launch: LaunchConfig,
    args: &[Arg],
    buffers: &[Buffer],
    local_params: usize,
    extra: u32,
) -> Result<KernelRun, Failure> {
    if local_params > 0 {
        return Err(Failure::bad_input(
            "--backend cuda: OpenCL __local pointer parameters are not supported (use --backend emu)",
        ));
    }
    if args.len() != kernel.params.len() {
        return Err(Failure::tool(format!(
            "{} arguments bound for {} kernel parameters",
            args.len(),
            kernel.params.len()
        )));
    }
    let params: Vec<KernelParam> = args
        .iter()
        .zip(&kernel.params)
        .map(|(a, p)| match a {
            Arg::Buffer(i) => KernelParam::Buffer(*i),
            Arg::Scalar(v) => {
                let n = (p.size as usize).clamp(1, 8);
                KernelParam::Value(v.to_le_bytes()[..n].to_vec())
            }
            Arg::Bytes(b) => KernelParam::Value(b.clone()),
        })
        .collect();
    let data: Vec<Vec<u8>> = buffers.iter().map(|b| b.data.clone()).collect();
    let shape = KernelShape {
        grid: launch.grid,
        block: launch.block,
        dynamic_shared: 0,
    };
    gpu.launch_ptx(ptx, &kernel.name, &shape, &params, &data, extra)
        .map_err(|e| match e {
            CudaError::BadParams(m) => Failure::bad_input(m),
            e => Failure::tool(e.to_string()),
        })
}
