//! Launches a user's kernel on a CUDA device: the PTX weft's front-end compiled (or its
//! instrumented form, paper 003 §4.1-4.2), with buffers copied in, scalar and aggregate
//! parameters bound by value, one launch whose results are copied back, and optional
//! repeated launches on fresh copies of the inputs, timed with CUDA events (paper 003
//! Fig. 10 compares these kernel times for the native and the instrumented PTX).

use std::time::{Duration, Instant};

use cudarc::driver::{sys, DevicePtrMut};

use crate::error::CudaError;
use crate::runner::{drv, guarded, jit_error_log, CudaRunner};

/// One kernel parameter, in the kernel's parameter order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelParam {
    /// A pointer to buffer `i` of the launch.
    Buffer(usize),
    /// A value passed by value (a scalar's or a struct's bytes, little-endian).
    Value(Vec<u8>),
}

/// Launch shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelShape {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub dynamic_shared: u32,
}

/// The result of [`CudaRunner::launch_ptx`].
#[derive(Clone, Debug)]
pub struct KernelRun {
    /// Every buffer's bytes after the first launch.
    pub buffers: Vec<Vec<u8>>,
    /// JIT compilation of the module (`cuModuleLoadData`).
    pub load_time: Duration,
    /// Kernel time of each launch (CUDA events around the launch alone).
    pub kernel_times: Vec<Duration>,
}

impl KernelRun {
    /// The median kernel time.
    pub fn median_kernel_time(&self) -> Duration {
        let mut v = self.kernel_times.clone();
        v.sort();
        v.get(v.len() / 2).copied().unwrap_or_default()
    }

    /// What `weft run-kernel --backend cuda --json` adds to its report: the backend, the
    /// device `id`, the JIT time and the kernel times in milliseconds.
    pub fn summary_json(&self, id: &crate::DeviceIdentity) -> serde_json::Value {
        let ms = |t: &Duration| t.as_secs_f64() * 1e3;
        serde_json::json!({
            "backend": "cuda",
            "device": id.name,
            "arch": id.arch(),
            "driver": id.driver_version,
            "jit_ms": ms(&self.load_time),
            "kernel_ms": ms(&self.median_kernel_time()),
            "kernel_ms_all": self.kernel_times.iter().map(ms).collect::<Vec<_>>(),
        })
    }

    /// `ran on DEVICE (ARCH, driver N): JIT .. ms, kernel .. ms (median of N launches)`.
    pub fn timing_text(&self, id: &crate::DeviceIdentity) -> String {
        format!(
            "ran on {} ({}, driver {}): JIT {:.1} ms, kernel {:.3} ms (median of {} launches)",
            id.name,
            id.arch(),
            id.driver_version,
            self.load_time.as_secs_f64() * 1e3,
            self.median_kernel_time().as_secs_f64() * 1e3,
            self.kernel_times.len()
        )
    }
}

/// The PTX as the driver's JIT accepts it: clang's DWARF-5 `.file N "dir" "name"` (emitted
/// for OpenCL) becomes `.file N "dir/name"` (ptxas 13.0 rejects the two-string form with
/// "Parsing error near ..."; seen on an H100, driver 580), and weft's `__assert(e)`
/// ([`define_assert`]) gets a definition.
pub fn driver_ptx(ptx: &str) -> String {
    define_assert(&join_file_directives(ptx))
}

/// weft's `__assert(e)` (`weft_gpuverify.h`, used by the model checker's kernels) calls the
/// external function `__weft_annot_assert`, which only weft's engines implement; the driver
/// cannot link it. Here it becomes a function that executes `trap` when its argument is 0,
/// so a failing assertion aborts the launch (the run then fails with the driver's error for
/// a trap) and a holding one does nothing.
fn define_assert(ptx: &str) -> String {
    const DECL: &str = ".extern .func __weft_annot_assert";
    let Some(i) = ptx.find(DECL) else {
        return ptx.to_string();
    };
    let Some(len) = ptx[i..].find(';') else {
        return ptx.to_string();
    };
    let decl = &ptx[i..i + len];
    let param = decl
        .split_once('(')
        .and_then(|(_, r)| r.split_once(')'))
        .map(|(p, _)| p.trim())
        .filter(|p| p.starts_with(".param .b32 ") && !p.contains(','));
    let Some(name) = param.and_then(|p| p.split_whitespace().nth(2)) else {
        return ptx.to_string();
    };
    format!(
        "{}.func __weft_annot_assert(.param .b32 {name})\n{{\n\t.reg .b32 %wa_r;\n\t.reg .pred %wa_p;\n\tld.param.b32 %wa_r, [{name}];\n\tsetp.eq.b32 %wa_p, %wa_r, 0;\n\t@%wa_p trap;\n\tret;\n}}{}",
        &ptx[..i],
        &ptx[i + len + 1..]
    )
}

/// `.file N "dir" "name"` → `.file N "dir/name"`.
fn join_file_directives(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len());
    for line in ptx.split_inclusive('\n') {
        let t = line.trim_start();
        let fixed = t.strip_prefix(".file").and_then(|rest| {
            let rest = rest.trim_start();
            let (num, strs) = rest.split_once(char::is_whitespace)?;
            let parts: Vec<&str> = strs.trim().split('"').collect();
            // `"dir" "name"` splits into ["", dir, " ", name, ""] (and a trailing newline).
            if parts.len() == 5 && parts[0].is_empty() && parts[2].trim().is_empty() {
                let (dir, name) = (parts[1], parts[3]);
                let path = if name.starts_with('/') || dir.is_empty() {
                    name.to_string()
                } else {
                    format!("{}/{name}", dir.trim_end_matches('/'))
                };
                Some(format!("\t.file\t{num} \"{path}\"\n"))
            } else {
                None
            }
        });
        match fixed {
            Some(f) => out.push_str(&f),
            None => out.push_str(line),
        }
    }
    out
}

/// The arguments of one [`CudaRunner::launch_ptx`] call.
struct Job<'a> {
    ptx: &'a str,
    entry: &'a str,
    shape: &'a KernelShape,
    params: &'a [KernelParam],
    buffers: &'a [Vec<u8>],
    extra_launches: u32,
}

impl CudaRunner {
    /// JIT-compiles `ptx`, launches `entry` once with `buffers` (copied in and back), then
    /// `extra_launches` more times on fresh copies of the inputs for timing. The caller
    /// bounds the run's wall time (a kernel that never terminates cannot be interrupted
    /// from the host).
    pub fn launch_ptx(
        &self,
        ptx: &str,
        entry: &str,
        shape: &KernelShape,
        params: &[KernelParam],
        buffers: &[Vec<u8>],
        extra_launches: u32,
    ) -> Result<KernelRun, CudaError> {
        for p in params {
            if let KernelParam::Buffer(i) = p {
                if *i >= buffers.len() {
                    return Err(CudaError::BadParams(format!(
                        "parameter names buffer {i}; the launch has {}",
                        buffers.len()
                    )));
                }
            }
        }
        if shape.grid.contains(&0) || shape.block.contains(&0) {
            return Err(CudaError::BadParams(format!(
                "empty launch: grid {:?}, block {:?}",
                shape.grid, shape.block
            )));
        }
        let job = Job {
            ptx,
            entry,
            shape,
            params,
            buffers,
            extra_launches,
        };
        guarded("launching the kernel", || self.launch_inner(&job))
    }

    fn launch_inner(&self, job: &Job<'_>) -> Result<KernelRun, CudaError> {
        let (entry, shape, params, buffers) = (job.entry, job.shape, job.params, job.buffers);
        let ctx = self.context();
        let ptx = driver_ptx(job.ptx);
        let ptx = ptx.as_str();
        let t0 = Instant::now();
        let module = match ctx.load_module(cudarc::nvrtc::Ptx::from_src(ptx.to_string())) {
            Ok(m) => m,
            Err(e) => {
                let log = jit_error_log(ptx).unwrap_or_default();
                return Err(CudaError::Driver {
                    context: "JIT-compiling the kernel's PTX".into(),
                    message: format!("{e:?}: {}", log.trim()),
                });
            }
        };
        let load_time = t0.elapsed();
        let func = module
            .load_function(entry)
            .map_err(drv("finding the kernel entry"))?;
        let stream = ctx.default_stream();
        let mut first: Option<Vec<Vec<u8>>> = None;
        let mut kernel_times = Vec::new();
        for _ in 0..=job.extra_launches {
            let mut dev = Vec::with_capacity(buffers.len());
            for b in buffers {
                // A zero-length buffer still gets a valid (one-byte) allocation.
                let bytes: Vec<u8> = if b.is_empty() { vec![0] } else { b.clone() };
                dev.push(stream.clone_htod(&bytes).map_err(drv("copying a buffer"))?);
            }
            let flags = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
            let (start, end);
            {
                let mut guards = Vec::with_capacity(dev.len());
                let mut ptrs: Vec<u64> = Vec::with_capacity(dev.len());
                for d in dev.iter_mut() {
                    let (p, g) = d.device_ptr_mut(&stream);
                    ptrs.push(p);
                    guards.push(g);
                }
                // Each parameter's storage, 8-byte aligned; the driver reads as many bytes
                // as the kernel's parameter declares.
                let storage: Vec<Vec<u64>> = params
                    .iter()
                    .map(|p| match p {
                        KernelParam::Buffer(i) => vec![ptrs[*i]],
                        KernelParam::Value(bytes) => {
                            let mut w = vec![0u64; bytes.len().div_ceil(8).max(1)];
                            for (k, b) in bytes.iter().enumerate() {
                                w[k / 8] |= u64::from(*b) << (8 * (k % 8));
                            }
                            w
                        }
                    })
                    .collect();
                let mut argv: Vec<*mut std::ffi::c_void> = storage
                    .iter()
                    .map(|w| w.as_ptr() as *mut std::ffi::c_void)
                    .collect();
                start = stream
                    .record_event(flags)
                    .map_err(drv("recording an event"))?;
                // SAFETY: `argv` holds one pointer per kernel parameter, each to storage at
                // least as large as the parameter (checked by the caller against the
                // kernel's parameter list); the storage and device buffers outlive the
                // launch, which is synchronised below before they are dropped.
                let r = unsafe {
                    sys::cuLaunchKernel(
                        func.cu_function(),
                        shape.grid[0],
                        shape.grid[1],
                        shape.grid[2],
                        shape.block[0],
                        shape.block[1],
                        shape.block[2],
                        shape.dynamic_shared,
                        stream.cu_stream(),
                        argv.as_mut_ptr(),
                        std::ptr::null_mut(),
                    )
                };
                if r != sys::CUresult::CUDA_SUCCESS {
                    return Err(CudaError::Driver {
                        context: "launching the kernel".into(),
                        message: format!("{r:?}"),
                    });
                }
                end = stream
                    .record_event(flags)
                    .map_err(drv("recording an event"))?;
                stream.synchronize().map_err(drv("running the kernel"))?;
                drop(guards);
            }
            let ms = start.elapsed_ms(&end).map_err(drv("timing the kernel"))?;
            kernel_times.push(Duration::from_secs_f64(f64::from(ms.max(0.0)) / 1e3));
            if first.is_none() {
                let mut out = Vec::with_capacity(dev.len());
                for (d, b) in dev.iter().zip(buffers) {
                    let mut v = stream.clone_dtoh(d).map_err(drv("copying a buffer back"))?;
                    v.truncate(b.len());
                    out.push(v);
                }
                first = Some(out);
            }
        }
        Ok(KernelRun {
            buffers: first.unwrap_or_default(),
            load_time,
            kernel_times,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::driver_ptx;

    #[test]
    fn two_string_file_directives_are_joined() {
        let p = ".version 7.0\n\t.file\t1 \"/work/main\" \"tests/race/k.cl\"\n\t.file 2 \"/abs/x.cu\"\nret;\n";
        let d = driver_ptx(p);
        assert!(
            d.contains("\t.file\t1 \"/work/main/tests/race/k.cl\"\n"),
            "{d}"
        );
        assert!(d.contains("\t.file 2 \"/abs/x.cu\"\n"), "{d}");
        assert!(d.starts_with(".version 7.0\n") && d.ends_with("ret;\n"));
    }

    /// clang's declaration of weft's assertion (from `weft ptx tests/mc/kernels/assert_fail.cu`).
    const ASSERTING: &str = ".version 7.0\n.target sm_70\n.address_size 64\n\
        .extern .func __weft_annot_assert\n(\n\t.param .b32 __weft_annot_assert_param_0\n)\n;\n\
        .visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n\t.reg .b32 %r<3>;\n\
        \tmov.u32 %r2, 1;\n\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0+0], %r2;\n\
        \tcall.uni __weft_annot_assert, (param0);\n\t}\n\tret;\n}\n";

    #[test]
    fn the_assertion_becomes_a_function_that_traps_when_false() {
        let d = driver_ptx(ASSERTING);
        assert!(!d.contains(".extern"), "{d}");
        let def = ".func __weft_annot_assert(.param .b32 __weft_annot_assert_param_0)\n{\n\
            \t.reg .b32 %wa_r;\n\t.reg .pred %wa_p;\n\
            \tld.param.b32 %wa_r, [__weft_annot_assert_param_0];\n\
            \tsetp.eq.b32 %wa_p, %wa_r, 0;\n\t@%wa_p trap;\n\tret;\n}\n";
        assert!(d.contains(def), "{d}");
        // Declared before the entry that calls it, as the declaration was.
        assert!(d.find(def) < d.find(".visible .entry"), "{d}");
        // Still PTX that weft's own parser reads, with the function defined.
        let m = weft_ptx::parse(&d).expect("parses");
        assert!(format!("{m:?}").contains("__weft_annot_assert"));
    }

    #[test]
    fn ptx_without_the_assertion_is_unchanged_and_odd_declarations_are_left_alone() {
        let plain = ".version 7.0\n.visible .entry k()\n{\n\tret;\n}\n";
        assert_eq!(driver_ptx(plain), plain);
        let two = ".extern .func __weft_annot_assert\n(\n\t.param .b32 a,\n\t.param .b32 b\n)\n;\n";
        assert_eq!(driver_ptx(two), two);
        let cut = ".extern .func __weft_annot_assert\n(\n\t.param .b32 a\n";
        assert_eq!(driver_ptx(cut), cut);
    }
}
