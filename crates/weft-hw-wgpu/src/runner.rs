//! Runs generated shaders through wgpu (paper 001 §3.2–§4): opens an adapter (Vulkan,
//! Metal or DX12; lavapipe on a machine without a GPU), dispatches the test shader and
//! the result-aggregation shader once per iteration with fresh memory and fresh
//! per-dispatch random choices, histograms the instances' outcomes and enforces the
//! checksum (GPU class counts = instances run = host histogram, class by class).

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use weft_litmus::classify::{Class, Outcome};
use weft_stress::StressConfig;

use crate::error::WgpuError;
use crate::plan::{plan, DispatchPlan, HostRng};
use crate::shader::{Layout, Slot, RESULT_WG};
use crate::{generate, validate_wgsl, Generated};

/// One adapter wgpu can open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdapterInfo {
    /// Index for [`WgpuRunner::open`].
    pub index: usize,
    pub name: String,
    /// PCI vendor id (0x10de NVIDIA, 0x1002 AMD, 0x8086 Intel, 0x10005 Mesa).
    pub vendor: u32,
    /// `DiscreteGpu`, `IntegratedGpu`, `VirtualGpu`, `Cpu` or `Other`.
    pub device_type: String,
    /// Driver name and version (`llvmpipe`, `Mesa 22.3.6 (LLVM 15.0.6)`).
    pub driver: String,
    /// `Vulkan`, `Metal` or `Dx12`.
    pub backend: String,
}

/// How to run a test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WgpuParams {
    /// Dispatches; each runs `testingWorkgroups × workgroupSize` instances.
    pub iterations: u32,
    pub stress: StressConfig,
    /// Seed of every per-dispatch random choice.
    pub seed: u64,
}

impl Default for WgpuParams {
    fn default() -> Self {
        WgpuParams {
            iterations: 100,
            stress: StressConfig::default(),
            seed: 0,
        }
    }
}

/// The result of running one test.
#[derive(Clone, Debug)]
pub struct WgpuRun {
    /// Each distinct outcome with how many instances produced it.
    pub outcomes: Vec<(Outcome, u64)>,
    /// Instances run (the sum of the counts).
    pub instances: u64,
    /// seq, interleaved, weak as counted by the result-aggregation shader.
    pub gpu_class_counts: [u64; 3],
    /// Wall time of the dispatches and copies.
    pub elapsed: Duration,
    /// Where the WGSL program is stronger than the test (empty when faithful).
    pub strengthened: Vec<String>,
}

fn backends() -> wgpu::Backends {
    wgpu::Backends::VULKAN | wgpu::Backends::METAL | wgpu::Backends::DX12
}

/// Mesa's Vulkan loader paths (lavapipe's WSI setup included) print `error:
/// XDG_RUNTIME_DIR is invalid or not set in the environment.` on every run where that
/// variable is missing or does not name a private directory, although nothing fails:
/// litmus runs need no display. Before the first instance, point it at a private
/// directory of our own (`$TMPDIR/weft-runtime-<uid>`, mode 0700) when the inherited
/// value is unusable; a valid value is left alone.
fn ensure_runtime_dir() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR") {
            if runtime_dir_ok(std::path::Path::new(&dir)) {
                return;
            }
        }
        if let Some(dir) = private_runtime_dir() {
            // Called once, before wgpu starts any thread of its own.
            std::env::set_var("XDG_RUNTIME_DIR", dir);
        }
    });
}

/// An existing directory owned by us with no access for others (what Mesa checks).
#[cfg(unix)]
fn runtime_dir_ok(p: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match std::fs::metadata(p) {
        Ok(m) => m.is_dir() && m.uid() == current_uid() && m.mode() & 0o077 == 0,
        Err(_) => false,
    }
}

#[cfg(not(unix))]
fn runtime_dir_ok(_: &std::path::Path) -> bool {
    true
}

#[cfg(unix)]
fn current_uid() -> u32 {
    use std::os::unix::fs::MetadataExt;
    // The owner of a directory we just created is us; `/proc/self` says the same
    // without a libc dependency.
    std::fs::metadata("/proc/self")
        .map(|m| m.uid())
        .unwrap_or(u32::MAX)
}

/// `$TMPDIR/weft-runtime-<uid>`, created with mode 0700 when missing.
#[cfg(unix)]
fn private_runtime_dir() -> Option<std::path::PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    let dir = std::env::temp_dir().join(format!("weft-runtime-{}", current_uid()));
    if !dir.exists() {
        std::fs::DirBuilder::new().mode(0o700).create(&dir).ok()?;
    }
    if !runtime_dir_ok(&dir) {
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).ok()?;
    }
    runtime_dir_ok(&dir).then_some(dir)
}

#[cfg(not(unix))]
fn private_runtime_dir() -> Option<std::path::PathBuf> {
    None
}

fn instance() -> wgpu::Instance {
    ensure_runtime_dir();
    let mut d = wgpu::InstanceDescriptor::new_without_display_handle();
    d.backends = backends();
    // Validation layers only when asked for (WGPU_VALIDATION=1): they slow lavapipe down.
    d.flags = wgpu::InstanceFlags::empty().with_env();
    wgpu::Instance::new(d)
}

fn info_of(index: usize, a: &wgpu::Adapter) -> AdapterInfo {
    let i = a.get_info();
    AdapterInfo {
        index,
        name: i.name,
        vendor: i.vendor,
        device_type: format!("{:?}", i.device_type),
        driver: if i.driver_info.is_empty() {
            i.driver
        } else {
            format!("{} ({})", i.driver, i.driver_info)
        },
        backend: format!("{:?}", i.backend),
    }
}

fn enumerate() -> Vec<wgpu::Adapter> {
    let inst = instance();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pollster::block_on(inst.enumerate_adapters(backends()))
    }))
    .unwrap_or_default()
}

/// Every adapter wgpu finds (an empty list where there is none).
pub fn adapters() -> Vec<AdapterInfo> {
    enumerate()
        .iter()
        .enumerate()
        .map(|(i, a)| info_of(i, a))
        .collect()
}

/// An open wgpu device.
pub struct WgpuRunner {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: AdapterInfo,
    limits: wgpu::Limits,
}

fn rank(t: wgpu::DeviceType) -> u8 {
    match t {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Cpu => 3,
        wgpu::DeviceType::Other => 4,
    }
}

fn block<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}

impl WgpuRunner {
    /// Opens adapter `device` (an index of [`adapters`]), or the best one (a discrete GPU
    /// before an integrated, virtual or CPU one) when `None`.
    pub fn open(device: Option<usize>) -> Result<WgpuRunner, WgpuError> {
        let list = enumerate();
        if list.is_empty() {
            return Err(WgpuError::NoAdapter(
                "wgpu found no Vulkan, Metal or DX12 adapter (install a GPU driver, or Mesa's lavapipe: mesa-vulkan-drivers)".into(),
            ));
        }
        let index = match device {
            Some(i) if i >= list.len() => {
                return Err(WgpuError::BadDevice {
                    index: i,
                    available: list.len(),
                })
            }
            Some(i) => i,
            None => (0..list.len())
                .min_by_key(|i| rank(list[*i].get_info().device_type))
                .unwrap_or(0),
        };
        let adapter = &list[index];
        let info = info_of(index, adapter);
        let limits = adapter.limits();
        let (device, queue) = block(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("weft"),
            required_features: wgpu::Features::empty(),
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .map_err(|e| WgpuError::Device(e.to_string()))?;
        // Errors are caught by error scopes; never let wgpu's default handler panic.
        device.on_uncaptured_error(std::sync::Arc::new(|e| {
            eprintln!("weft-hw-wgpu: uncaptured wgpu error: {e}");
        }));
        Ok(WgpuRunner {
            device,
            queue,
            info,
            limits,
        })
    }

    /// Which adapter runs the tests.
    pub fn identity(&self) -> &AdapterInfo {
        &self.info
    }

    /// The device's limits (workgroup size, buffer sizes).
    pub fn limits(&self) -> &wgpu::Limits {
        &self.limits
    }

    fn check_limits(&self, ly: &Layout, cfg: &StressConfig) -> Result<(), WgpuError> {
        let l = &self.limits;
        let wg = cfg.workgroup_size;
        if wg > l.max_compute_invocations_per_workgroup || wg > l.max_compute_workgroup_size_x {
            return Err(WgpuError::BadParams(format!(
                "workgroupSize = {wg} exceeds this device's limit of {} invocations per workgroup",
                l.max_compute_invocations_per_workgroup
                    .min(l.max_compute_workgroup_size_x)
            )));
        }
        if cfg.max_workgroups > l.max_compute_workgroups_per_dimension {
            return Err(WgpuError::BadParams(format!(
                "maxWorkgroups = {} exceeds this device's limit of {} workgroups per dispatch",
                cfg.max_workgroups, l.max_compute_workgroups_per_dimension
            )));
        }
        let biggest = [
            ly.mem_words * 4,
            ly.instances * ly.row_words as u64 * 4,
            cfg.scratch_memory_size as u64 * 4,
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        if biggest > l.max_storage_buffer_binding_size || biggest > l.max_buffer_size {
            return Err(WgpuError::BadParams(format!(
                "a test buffer needs {biggest} bytes but this device binds at most {}",
                l.max_storage_buffer_binding_size
            )));
        }
        if l.max_storage_buffers_per_shader_stage < 6 {
            return Err(WgpuError::BadParams(
                "this device binds fewer than 6 storage buffers per shader".into(),
            ));
        }
        Ok(())
    }

    /// A bind-group layout for group 0: `kinds[i]` is binding i (`'w'` read-write
    /// storage, `'r'` read-only storage, `'u'` uniform). Explicit, so that a binding the
    /// shader happens not to use is still accepted.
    fn bind_layout(&self, kinds: &str) -> wgpu::BindGroupLayout {
        let entries: Vec<wgpu::BindGroupLayoutEntry> = kinds
            .chars()
            .enumerate()
            .map(|(i, k)| wgpu::BindGroupLayoutEntry {
                binding: i as u32,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: match k {
                        'u' => wgpu::BufferBindingType::Uniform,
                        'r' => wgpu::BufferBindingType::Storage { read_only: true },
                        _ => wgpu::BufferBindingType::Storage { read_only: false },
                    },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            })
            .collect();
        self.device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(kinds),
                entries: &entries,
            })
    }

    fn pipeline(
        &self,
        which: &'static str,
        src: &str,
        bgl: &wgpu::BindGroupLayout,
    ) -> Result<wgpu::ComputePipeline, WgpuError> {
        validate_wgsl(src).map_err(|message| WgpuError::Shader { which, message })?;
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = self
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(which),
                source: wgpu::ShaderSource::Wgsl(src.into()),
            });
        let layout = self
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(which),
                bind_group_layouts: &[Some(bgl)],
                immediate_size: 0,
            });
        let pipe = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(which),
                layout: Some(&layout),
                module: &module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            });
        if let Some(e) = block(scope.pop()) {
            return Err(WgpuError::Shader {
                which,
                message: e.to_string(),
            });
        }
        Ok(pipe)
    }

    fn buffer(&self, label: &str, bytes: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.max(16).next_multiple_of(4),
            usage,
            mapped_at_creation: false,
        })
    }

    /// Runs `p` under `params`, calling `progress(done, total)` after every dispatch.
    pub fn run(
        &self,
        p: &weft_ir::Program,
        params: &WgpuParams,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<WgpuRun, WgpuError> {
        if params.iterations == 0 {
            return Err(WgpuError::BadParams("iterations must be at least 1".into()));
        }
        let cfg = &params.stress;
        cfg.validate()
            .map_err(|e| WgpuError::BadParams(e.message))?;
        let g = generate(p, cfg)?;
        self.check_limits(&g.layout, cfg)?;
        self.execute(&g, params, progress)
    }

    fn execute(
        &self,
        g: &Generated,
        params: &WgpuParams,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<WgpuRun, WgpuError> {
        let cfg = &params.stress;
        let ly = &g.layout;
        let test_bgl = self.bind_layout("wwwwrru");
        let result_bgl = self.bind_layout("wwrw");
        let test_pipe = self.pipeline("test", &g.test_wgsl, &test_bgl)?;
        let result_pipe = self.pipeline("result-aggregation", &g.result_wgsl, &result_bgl)?;

        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let b = self.buffers(ly, cfg);
        fn entries<'a>(bufs: &[&'a wgpu::Buffer]) -> Vec<wgpu::BindGroupEntry<'a>> {
            bufs.iter()
                .enumerate()
                .map(|(i, b)| wgpu::BindGroupEntry {
                    binding: i as u32,
                    resource: b.as_entire_binding(),
                })
                .collect()
        }
        let test_bufs = [
            &b.mem, &b.res, &b.scratch, &b.sync, &b.shuffle, &b.lines, &b.uparams,
        ];
        let test_bg = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("test"),
            layout: &test_bgl,
            entries: &entries(&test_bufs),
        });
        let result_bufs = [&b.mem, &b.res, &b.table, &b.counts];
        let result_bg = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("result"),
            layout: &result_bgl,
            entries: &entries(&result_bufs),
        });
        if let Some(e) = block(oom.pop()) {
            return Err(WgpuError::Runtime(format!("out of memory: {e}")));
        }
        if let Some(e) = block(scope.pop()) {
            return Err(WgpuError::Runtime(e.to_string()));
        }

        let result_groups = ly.instances.div_ceil(RESULT_WG as u64);
        let max_dim = self.limits.max_compute_workgroups_per_dimension.max(1) as u64;
        let (rx, ry) = if result_groups > max_dim {
            (max_dim, result_groups.div_ceil(max_dim))
        } else {
            (result_groups.max(1), 1)
        };
        let total = params.iterations as u64 * ly.instances;
        let mut rng = HostRng::new(params.seed);
        let mut hist: HashMap<Vec<i32>, u64> = HashMap::new();
        let mut gpu = [0u64; 3];
        let start = Instant::now();
        let row = ly.row_words as usize;
        for it in 0..params.iterations as u64 {
            let pl = plan(cfg, &mut rng);
            self.dispatch(
                &pl,
                &b,
                ly,
                (&test_pipe, &test_bg),
                (&result_pipe, &result_bg, rx, ry),
            )?;
            let words = self.read(&b.res_read)?;
            let c = self.read(&b.counts_read)?;
            for k in 0..3 {
                gpu[k] += c[k] as u32 as u64;
            }
            if row == 0 {
                *hist.entry(Vec::new()).or_default() += ly.instances;
            } else {
                for r in words.chunks_exact(row).take(ly.instances as usize) {
                    match hist.get_mut(r) {
                        Some(n) => *n += 1,
                        None => {
                            hist.insert(r.to_vec(), 1);
                        }
                    }
                }
            }
            progress((it + 1) * ly.instances, total);
        }
        let elapsed = start.elapsed();
        finish(g, hist, gpu, total, elapsed)
    }

    /// The run's buffers (their layout: docs/hardware-wgpu.md), the lookup table written
    /// and the initial memory prepared.
    fn buffers(&self, ly: &Layout, cfg: &StressConfig) -> Buffers {
        use wgpu::BufferUsages as U;
        let storage = U::STORAGE | U::COPY_DST | U::COPY_SRC;
        let mem = self.buffer("mem", ly.mem_words * 4, storage);
        let res_bytes = ly.instances * ly.row_words as u64 * 4;
        let res = self.buffer("res", res_bytes, storage);
        let scratch = self.buffer("scratch", cfg.scratch_memory_size as u64 * 4, storage);
        let sync = self.buffer("sync", 16, storage);
        let shuffle = self.buffer("shuffle", cfg.max_workgroups as u64 * 4, storage);
        let lines = self.buffer("lines", cfg.max_workgroups as u64 * 4, storage);
        let uparams = self.buffer("params", 32, U::UNIFORM | U::COPY_DST);
        let table = self.buffer("table", ly.table.len() as u64 * 4, storage);
        let counts = self.buffer("counts", 16, storage);
        let res_read = self.buffer("res-read", res_bytes, U::MAP_READ | U::COPY_DST);
        let counts_read = self.buffer("counts-read", 16, U::MAP_READ | U::COPY_DST);
        self.queue
            .write_buffer(&table, 0, bytemuck::cast_slice(&ly.table));
        // Initial memory: every storage slot j of every instance holds its init value.
        let nonzero = ly.storage_init.iter().any(|v| *v != 0);
        let init = if nonzero {
            let mut words = vec![0i32; ly.mem_words as usize];
            let nl = ly.storage_locs.max(1) as u64;
            for m in 0..ly.instances {
                for (j, v) in ly.storage_init.iter().enumerate() {
                    let idx = (m * nl + j as u64) * ly.mem_stride as u64;
                    words[idx as usize] = *v;
                }
            }
            let b = self.buffer("mem-init", ly.mem_words * 4, storage);
            self.queue.write_buffer(&b, 0, bytemuck::cast_slice(&words));
            Some(b)
        } else {
            None
        };
        Buffers {
            mem,
            res,
            scratch,
            sync,
            shuffle,
            lines,
            uparams,
            table,
            counts,
            res_read,
            counts_read,
            init,
            res_bytes,
        }
    }

    /// One iteration: the dispatch's random choices written, memory reset, the test and
    /// result shaders dispatched, the results copied for reading.
    fn dispatch(
        &self,
        pl: &DispatchPlan,
        b: &Buffers,
        ly: &Layout,
        test: (&wgpu::ComputePipeline, &wgpu::BindGroup),
        result: (&wgpu::ComputePipeline, &wgpu::BindGroup, u64, u64),
    ) -> Result<(), WgpuError> {
        let (test_pipe, test_bg) = test;
        let (result_pipe, result_bg, rx, ry) = result;
        let Buffers {
            mem,
            res,
            sync,
            shuffle,
            lines,
            uparams,
            counts,
            res_read,
            counts_read,
            init,
            res_bytes,
            ..
        } = b;
        let res_bytes = *res_bytes;
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        self.queue
            .write_buffer(shuffle, 0, bytemuck::cast_slice(&pl.shuffle));
        self.queue
            .write_buffer(lines, 0, bytemuck::cast_slice(&pl.lines));
        let pv: [u32; 8] = [
            pl.workgroups,
            pl.barrier as u32,
            pl.mem_stress as u32,
            pl.pre_stress as u32,
            pl.mem_pattern,
            pl.pre_pattern,
            pl.bank_mode,
            0,
        ];
        self.queue
            .write_buffer(uparams, 0, bytemuck::cast_slice(&pv));
        let mut enc = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("run") });
        match init {
            Some(b) => enc.copy_buffer_to_buffer(b, 0, mem, 0, ly.mem_words * 4),
            None => enc.clear_buffer(mem, 0, None),
        }
        enc.clear_buffer(res, 0, None);
        enc.clear_buffer(sync, 0, None);
        enc.clear_buffer(counts, 0, None);
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("test"),
                timestamp_writes: None,
            });
            pass.set_pipeline(test_pipe);
            pass.set_bind_group(0, test_bg, &[]);
            pass.dispatch_workgroups(pl.workgroups, 1, 1);
        }
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("result"),
                timestamp_writes: None,
            });
            pass.set_pipeline(result_pipe);
            pass.set_bind_group(0, result_bg, &[]);
            pass.dispatch_workgroups(rx as u32, ry as u32, 1);
        }
        enc.copy_buffer_to_buffer(res, 0, res_read, 0, res_bytes.max(16));
        enc.copy_buffer_to_buffer(counts, 0, counts_read, 0, 16);
        self.queue.submit([enc.finish()]);
        if let Some(e) = block(scope.pop()) {
            return Err(WgpuError::Runtime(e.to_string()));
        }
        Ok(())
    }

    fn read(&self, b: &wgpu::Buffer) -> Result<Vec<i32>, WgpuError> {
        let slice = b.slice(..);
        let (tx, rx) = mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| WgpuError::Runtime(format!("waiting for the GPU: {e}")))?;
        match rx.recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(WgpuError::Runtime(format!("mapping a buffer: {e}"))),
            Err(_) => return Err(WgpuError::Runtime("the buffer was never mapped".into())),
        }
        let out = {
            let view = slice
                .get_mapped_range()
                .map_err(|e| WgpuError::Runtime(format!("reading a buffer: {e:?}")))?;
            bytemuck::cast_slice::<u8, i32>(&view).to_vec()
        };
        b.unmap();
        Ok(out)
    }
}

/// The buffers of one run.
struct Buffers {
    mem: wgpu::Buffer,
    res: wgpu::Buffer,
    scratch: wgpu::Buffer,
    sync: wgpu::Buffer,
    shuffle: wgpu::Buffer,
    lines: wgpu::Buffer,
    uparams: wgpu::Buffer,
    table: wgpu::Buffer,
    counts: wgpu::Buffer,
    res_read: wgpu::Buffer,
    counts_read: wgpu::Buffer,
    /// Initial memory to copy into `mem` (none when every initial value is 0).
    init: Option<wgpu::Buffer>,
    res_bytes: u64,
}

/// The histogram decoded into outcomes, and the checksum: the GPU's class counts, the
/// instances run and the host's classification of the histogram agree.
fn finish(
    g: &Generated,
    hist: HashMap<Vec<i32>, u64>,
    gpu: [u64; 3],
    total: u64,
    elapsed: Duration,
) -> Result<WgpuRun, WgpuError> {
    let ly = &g.layout;
    let mut outcomes: Vec<(Outcome, u64)> =
        hist.into_iter().map(|(r, n)| (decode(ly, &r), n)).collect();
    outcomes.sort();
    let mut host = [0u64; 3];
    for (o, n) in &outcomes {
        let k = match g.classification.class_of(o) {
            Class::Seq => 0,
            Class::Interleaved => 1,
            Class::Weak => 2,
        };
        host[k] += n;
    }
    let counted: u64 = gpu.iter().sum();
    let decoded: u64 = host.iter().sum();
    if counted != total || decoded != total || gpu != host {
        return Err(WgpuError::Checksum {
            what: if counted != total {
                "the result shader's counts do not add up to the instances run".into()
            } else if decoded != total {
                "the host decoded a different number of instances".into()
            } else {
                "the GPU and the host classify the instances differently".into()
            },
            gpu,
            host,
            instances: total,
        });
    }
    Ok(WgpuRun {
        outcomes,
        instances: total,
        gpu_class_counts: gpu,
        elapsed,
        strengthened: g.strengthened.clone(),
    })
}

/// Turns a result row into an outcome: every register of every thread, then every
/// location (constant-address registers take their address value).
pub fn decode(ly: &Layout, row: &[i32]) -> Outcome {
    let mut s = 0;
    let mut regs = Vec::with_capacity(ly.reg_counts.len());
    for n in &ly.reg_counts {
        let mut v = Vec::with_capacity(*n);
        for _ in 0..*n {
            v.push(value(ly.slots.get(s).copied(), row));
            s += 1;
        }
        regs.push(v);
    }
    let mut mem = Vec::with_capacity(ly.loc_count);
    for _ in 0..ly.loc_count {
        mem.push(vec![value(ly.slots.get(s).copied(), row)]);
        s += 1;
    }
    Outcome { regs, mem }
}

fn value(slot: Option<Slot>, row: &[i32]) -> i64 {
    match slot {
        Some(Slot::Gpu(i)) => row.get(i as usize).copied().unwrap_or(0) as i64,
        Some(Slot::Const(v)) => v,
        None => 0,
    }
}
