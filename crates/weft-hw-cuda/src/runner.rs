//! Runs generated kernels on a CUDA device through `cudarc`, which loads `libcuda.so` at
//! run time (`dynamic-loading`): weft builds and runs without a CUDA toolkit, and
//! [`CudaRunner::open`] answers [`CudaError::NoDriver`] where no driver is installed.
//! The loop follows paper 000 §4.2: fresh memory per launch, many instances per launch,
//! results copied back and histogrammed, with the instance checksum enforced.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg};
use weft_litmus::classify::Outcome;

use crate::error::CudaError;
use crate::layout::{self, Rng, SCRATCH_WORDS};
use crate::optcheck::{self, Verdict};
use crate::{generate, CudaParams};

/// Which device ran a test.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DeviceIdentity {
    /// Device name (`NVIDIA H100 80GB HBM3`).
    pub name: String,
    /// Compute capability (major, minor).
    pub compute_capability: (i32, i32),
    /// Driver version as `cuDriverGetVersion` reports it (12040 = 12.4).
    pub driver_version: i32,
}

impl DeviceIdentity {
    /// The `sm_XY` architecture name of the device.
    pub fn arch(&self) -> String {
        format!(
            "sm_{}{}",
            self.compute_capability.0, self.compute_capability.1
        )
    }
}

/// The result of running one test.
#[derive(Clone, Debug)]
pub struct CudaRun {
    /// Each distinct outcome with how many instances produced it.
    pub outcomes: Vec<(Outcome, u64)>,
    /// Instances that ran (the sum of the counts).
    pub instances: u64,
    /// Instances abandoned because a spin loop spent its budget (`layout::LOOP_LIMIT`
    /// backward branches): they have no outcome; `outcomes` plus `stuck` make `instances`.
    pub stuck: u64,
    /// Wall time of the launches and copies.
    pub elapsed: std::time::Duration,
    /// optcheck's verdict on the compiled kernel (paper 000 §4.4).
    pub optcheck: Verdict,
    /// Whether weak outcomes may be attributed to the hardware: false when optcheck found
    /// the compiler reordered the test's instructions.
    pub hardware_attributable: bool,
}

/// An open CUDA device.
pub struct CudaRunner {
    ctx: Arc<CudaContext>,
    identity: DeviceIdentity,
}

/// Whether the CUDA driver library can be loaded on this machine.
pub fn driver_present() -> bool {
    for name in ["libcuda.so.1", "libcuda.so"] {
        // SAFETY: loading the NVIDIA driver library runs its initialisers, which is what
        // any CUDA program does; the handle is dropped at once.
        if unsafe { libloading::Library::new(name) }.is_ok() {
            return true;
        }
    }
    false
}

pub(crate) fn drv(context: &str) -> impl Fn(cudarc::driver::DriverError) -> CudaError + '_ {
    move |e| CudaError::Driver {
        context: context.to_string(),
        message: format!("{e:?}"),
    }
}

pub(crate) fn guarded<T>(
    what: &str,
    f: impl FnOnce() -> Result<T, CudaError>,
) -> Result<T, CudaError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            Err(CudaError::NoDriver(format!(
                "the CUDA driver failed while {what} (missing symbol?): {msg}"
            )))
        }
    }
}

/// Loads `ptx` again with the JIT's error log requested, to say why it was rejected.
/// Needs the runner's context current on this thread (it is after `load_module`).
pub(crate) fn jit_error_log(ptx: &str) -> Option<String> {
    use cudarc::driver::sys;
    use std::ffi::c_void;
    let src = std::ffi::CString::new(ptx).ok()?;
    let mut log = vec![0u8; 1 << 14];
    let mut opts = [
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    // The size option's value is passed in the pointer itself, as the driver API says.
    let mut vals: [*mut c_void; 2] = [log.as_mut_ptr() as *mut c_void, log.len() as *mut c_void];
    let mut module: sys::CUmodule = std::ptr::null_mut();
    // SAFETY: `src` is NUL-terminated PTX; `opts` and `vals` hold two matching entries; the
    // log buffer outlives the call and its size is the one given.
    let r = unsafe {
        sys::cuModuleLoadDataEx(
            &mut module,
            src.as_ptr() as *const c_void,
            opts.len() as u32,
            opts.as_mut_ptr(),
            vals.as_mut_ptr(),
        )
    };
    if r == sys::CUresult::CUDA_SUCCESS {
        // SAFETY: the module was just loaded and is not used elsewhere.
        unsafe { sys::cuModuleUnload(module) };
        return None;
    }
    let end = log.iter().position(|b| *b == 0).unwrap_or(log.len());
    Some(String::from_utf8_lossy(&log[..end]).into_owned())
}

impl CudaRunner {
    /// Opens device `device`; never panics (a missing driver is [`CudaError::NoDriver`]).
    pub fn open(device: usize) -> Result<Self, CudaError> {
        if !driver_present() {
            return Err(CudaError::NoDriver(
                "libcuda.so could not be loaded (is the NVIDIA driver installed?)".into(),
            ));
        }
        guarded("opening the device", || {
            let count = CudaContext::device_count().map_err(drv("counting devices"))?;
            if device >= count.max(0) as usize {
                return Err(CudaError::BadParams(format!(
                    "device {device} does not exist ({count} CUDA devices)"
                )));
            }
            let ctx = CudaContext::new(device).map_err(drv("creating a context"))?;
            let name = ctx.name().map_err(drv("reading the device name"))?;
            let cc = ctx
                .compute_capability()
                .map_err(drv("reading the compute capability"))?;
            let mut v: std::ffi::c_int = 0;
            // SAFETY: cuDriverGetVersion writes one int through a valid pointer.
            unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut v) };
            Ok(CudaRunner {
                ctx,
                identity: DeviceIdentity {
                    name,
                    compute_capability: cc,
                    driver_version: v,
                },
            })
        })
    }

    /// The device's context (current on the calling thread when used through cudarc).
    pub(crate) fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// The device's name, compute capability and driver version.
    pub fn identity(&self) -> DeviceIdentity {
        self.identity.clone()
    }

    /// Runs `params.iterations` launches of `params.instances_per_launch` instances,
    /// calling `progress(done, total)` in instances after each launch.
    pub fn run(
        &self,
        p: &weft_ir::Program,
        params: &CudaParams,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<CudaRun, CudaError> {
        let gen = generate(p, params)?;
        let verdict = optcheck::check_ptx(&gen.ptx, &gen.expected, &self.identity.arch());
        guarded("running the test", || {
            self.run_generated(&gen, params, verdict, progress)
        })
    }

    fn run_generated(
        &self,
        gen: &crate::Generated,
        params: &CudaParams,
        verdict: Verdict,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<CudaRun, CudaError> {
        let start = Instant::now();
        let lay = &gen.layout;
        let n = params.instances_per_launch;
        let total = n as u64 * params.iterations as u64;
        let module = match self
            .ctx
            .load_module(cudarc::nvrtc::Ptx::from_src(gen.ptx.clone()))
        {
            Ok(m) => m,
            Err(e) => {
                let log = jit_error_log(&gen.ptx).unwrap_or_default();
                return Err(CudaError::Driver {
                    context: "JIT-compiling the generated PTX".into(),
                    message: format!("{e:?}: {}", log.trim()),
                });
            }
        };
        let func = module
            .load_function(crate::ptx::KERNEL_NAME)
            .map_err(drv("finding the kernel"))?;
        let stream = self.ctx.default_stream();
        let mut scratch = stream
            .alloc_zeros::<u32>(SCRATCH_WORDS as usize)
            .map_err(drv("allocating scratch memory"))?;
        let shinit = stream
            .clone_htod(&lay.shared_image())
            .map_err(drv("copying shared initial values"))?;
        let mut seeds = Rng::new(params.seed);
        let mut hist: BTreeMap<Outcome, u64> = BTreeMap::new();
        let mut stuck = 0u64;
        let words = (lay.words_per_instance as usize * n as usize).max(1);
        for it in 0..params.iterations {
            let launch_seed = seeds.next_u64();
            let a = layout::assign(lay, params, launch_seed)?;
            let roles = stream.clone_htod(&a.roles).map_err(drv("copying roles"))?;
            let slots = stream.clone_htod(&a.slots).map_err(drv("copying slots"))?;
            let mut image = lay.global_image(n);
            if image.is_empty() {
                image.push(0);
            }
            let mut gmem = stream.clone_htod(&image).map_err(drv("copying memory"))?;
            let mut results = stream
                .alloc_zeros::<u32>(words)
                .map_err(drv("allocating results"))?;
            let mut sync = stream
                .alloc_zeros::<u32>(n as usize + 1)
                .map_err(drv("allocating sync counters"))?;
            let flags: u32 = (launch_seed >> 17) as u32 & 1;
            let seed32 = launch_seed as u32;
            let cfg = LaunchConfig {
                grid_dim: (a.blocks, 1, 1),
                block_dim: (params.threads_per_block, 1, 1),
                shared_mem_bytes: 0,
            };
            let mut b = stream.launch_builder(&func);
            b.arg(&roles)
                .arg(&slots)
                .arg(&mut gmem)
                .arg(&mut results)
                .arg(&mut sync)
                .arg(&mut scratch)
                .arg(&shinit)
                .arg(&n)
                .arg(&flags)
                .arg(&seed32);
            // SAFETY: the arguments match the kernel's parameter list (ptx.rs) in number,
            // order and type; every buffer is as large as the layout says.
            unsafe { b.launch(cfg) }.map_err(drv("launching the kernel"))?;
            stream.synchronize().map_err(drv("running the kernel"))?;
            let res = stream
                .clone_dtoh(&results)
                .map_err(drv("copying results"))?;
            let mem = stream.clone_dtoh(&gmem).map_err(drv("copying memory"))?;
            let d = layout::decode(lay, n, &res, &mem)?;
            stuck += d.stuck;
            layout::tally(&mut hist, d.outcomes);
            progress((it as u64 + 1) * n as u64, total);
        }
        let outcomes = layout::finish(hist, stuck, total)?;
        let attributable = !matches!(verdict, Verdict::Reordered { .. });
        Ok(CudaRun {
            outcomes,
            instances: total,
            stuck,
            elapsed: start.elapsed().max(Duration::from_nanos(1)),
            optcheck: verdict,
            hardware_attributable: attributable,
        })
    }
}
