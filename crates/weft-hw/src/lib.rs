//! weft's hardware orchestration, shared by the commands `weft run`, `weft tune` and
//! `weft conform` and by the campaign server (issues 5 and 16): opening a device of either
//! backend (wgpu or CUDA), mapping a stress configuration onto the CUDA incantations,
//! running one test with a progress bar, classifying and judging its outcomes, rendering
//! histograms and recording runs in the results database. Tuning lives in [`tune`], the
//! conformance step's plans and summaries in [`conform`], `weft run`'s loop in [`run`]. docs/running.md describes the commands.

pub mod conform;
pub mod judge;
pub mod run;
pub mod tune;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};
use weft_hw_cuda::{CudaError, CudaParams, CudaRunner};
use weft_hw_wgpu::{WgpuError, WgpuParams, WgpuRunner};
use weft_ir::Program;
use weft_litmus::classify::{classify, Class};
use weft_store::{DeviceRecord, OutcomeRecord, RunRecord, Store, StoreError, TestRecord};
use weft_stress::{Preset, StressConfig};

use judge::{Judge, Verdict};

pub use weft_ir::exit::{ExitCode, Failure};

/// Which API runs the tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Backend {
    /// WGSL compute shaders through wgpu (Vulkan, Metal, DX12; lavapipe without a GPU).
    Wgpu,
    /// PTX kernels through the CUDA driver.
    Cuda,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Wgpu => "wgpu",
            Backend::Cuda => "cuda",
        }
    }
}

/// The exit status of a command over many tests. A forbidden outcome (1) outranks a tool
/// error (3), which outranks bad input (2).
#[derive(Clone, Copy, Debug, Default)]
pub struct Status {
    pub violation: bool,
    pub tool: bool,
    pub bad: bool,
}

impl Status {
    pub fn code(&self) -> ExitCode {
        if self.violation {
            ExitCode::Violation
        } else if self.tool {
            ExitCode::Internal
        } else if self.bad {
            ExitCode::BadInput
        } else {
            ExitCode::Ok
        }
    }
}

/// Why one test could not run; the others go on.
#[derive(Debug)]
pub enum RunError {
    /// The backend cannot express the test (exit 2 when the test was named directly).
    Refused(String),
    /// Bad parameters for this device or test (exit 2).
    BadInput(String),
    /// The driver, the device or the checksum failed (exit 3).
    Tool(String),
}

impl RunError {
    pub fn message(&self) -> &str {
        match self {
            RunError::Refused(m) | RunError::BadInput(m) | RunError::Tool(m) => m,
        }
    }
    pub fn kind(&self) -> &'static str {
        match self {
            RunError::Refused(_) => "refused",
            RunError::BadInput(_) => "bad input",
            RunError::Tool(_) => "error",
        }
    }
}

/// Resolves `--stress`: a preset name, else a stress file. An unknown name that is not a
/// file lists the presets.
pub fn resolve_stress(spec: &str) -> Result<StressConfig, Failure> {
    if Preset::from_name(spec).is_none() && !Path::new(spec).exists() {
        let names: Vec<String> = Preset::all()
            .iter()
            .map(|(p, d)| format!("  {:<11} {d}", p.name()))
            .collect();
        return Err(Failure::bad_input(format!(
            "unknown stress preset `{spec}` (and no such file); presets:\n{}",
            names.join("\n")
        )));
    }
    StressConfig::resolve(spec).map_err(|e| Failure::bad_input(e.report()))
}

/// Loads a `.cat` model by bundled name or path.
pub fn load_model(name: &str) -> Result<weft_cat::Model, Failure> {
    weft_exec::models::load(name).map_err(|e| {
        Failure::bad_input(format!(
            "cannot load model `{name}`: {}\nbundled models: {}",
            e.render(),
            weft_exec::models::names().join(", ")
        ))
    })
}

/// One parsed test.
pub struct Test {
    pub path: PathBuf,
    pub program: Program,
    /// SHA-256 of the file's bytes, lower-case hex.
    pub digest: String,
    /// Found by walking a directory (a refusal is then reported and skipped).
    pub from_dir: bool,
}

/// Files larger than this are refused rather than read into memory.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

impl Test {
    /// Reads and parses one litmus file; the error is one `path[:line:col]: message` line.
    pub fn load(path: &Path, from_dir: bool) -> Result<Test, String> {
        let shown = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
        if meta.len() > MAX_FILE_BYTES {
            return Err(format!(
                "{shown}: file too large ({} bytes; limit {MAX_FILE_BYTES})",
                meta.len()
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
        let program = weft_litmus::parse_bytes(&bytes).map_err(|e| e.render(&shown))?;
        Ok(Test {
            path: path.to_path_buf(),
            program,
            digest: hex(&Sha256::digest(&bytes)),
            from_dir,
        })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An open device of either backend.
pub enum Device {
    Wgpu(Box<WgpuRunner>),
    Cuda(CudaRunner, usize),
}

/// The devices of a backend (both when `None`), one per line, for `--list-devices` and
/// for the message of a missing device.
pub fn list_devices(only: Option<Backend>) -> String {
    let mut s = String::new();
    if only != Some(Backend::Cuda) {
        let a = weft_hw_wgpu::adapters();
        s += &format!("wgpu adapters ({}):\n", a.len());
        if a.is_empty() {
            s += "  none (install a GPU driver, or Mesa's lavapipe: mesa-vulkan-drivers)\n";
        }
        for i in &a {
            s += &format!(
                "  --device {}: {} ({}, {}, vendor 0x{:04x}; driver {})\n",
                i.index, i.name, i.backend, i.device_type, i.vendor, i.driver
            );
        }
    }
    if only != Some(Backend::Wgpu) {
        if !weft_hw_cuda::runner::driver_present() {
            s += "CUDA devices: none (no CUDA driver: libcuda.so.1 cannot be loaded)\n";
        } else {
            let mut lines = Vec::new();
            let mut why = None;
            for i in 0..64 {
                match CudaRunner::open(i) {
                    Ok(r) => {
                        let id = r.identity();
                        lines.push(format!(
                            "  --device {i}: {} ({}, driver {})\n",
                            id.name,
                            id.arch(),
                            cuda_version(id.driver_version)
                        ));
                    }
                    Err(CudaError::BadParams(_)) => break,
                    Err(e) => {
                        why = Some(e.to_string());
                        break;
                    }
                }
            }
            s += &format!("CUDA devices ({}):\n", lines.len());
            s += &lines.concat();
            if let Some(w) = why {
                s += &format!("  ({w})\n");
            }
        }
    }
    s
}

fn cuda_version(v: i32) -> String {
    format!("{}.{} ({v})", v / 1000, (v % 1000) / 10)
}

/// The largest launch the CUDA runner accepts.
pub const CUDA_MAX_INSTANCES: u64 = 4_194_304;

/// Maps a stress configuration onto the CUDA runner's incantations (paper 000 §4.3):
/// instances per launch = testingWorkgroups × workgroupSize; memory stress when
/// memStressPct > 0; thread randomisation when shufflePct > 0; thread synchronisation when
/// barrierPct > 0; bank conflicts when bankConflicts; threads per block stay 256.
pub fn cuda_params(
    cfg: &StressConfig,
    iterations: u32,
    seed: u64,
    device: usize,
) -> Result<CudaParams, String> {
    let n = cfg.instances_per_dispatch();
    if n == 0 || n > CUDA_MAX_INSTANCES {
        return Err(format!(
            "testingWorkgroups × workgroupSize = {n} instances per launch; the CUDA backend runs 1..={CUDA_MAX_INSTANCES}"
        ));
    }
    if cfg.aliased_memory {
        return Err(
            "aliasedMemory has no CUDA mapping (write the test with one location instead)".into(),
        );
    }
    Ok(CudaParams {
        instances_per_launch: n as u32,
        iterations,
        mem_stress: cfg.mem_stress_pct > 0,
        thread_randomisation: cfg.shuffle_pct > 0,
        thread_sync: cfg.barrier_pct > 0,
        bank_conflicts: cfg.bank_conflicts,
        seed,
        device,
        ..CudaParams::default()
    })
}

impl Device {
    /// Opens device `index` of `backend` (wgpu: the best adapter when `None`; CUDA: 0).
    pub fn open(backend: Backend, index: Option<usize>) -> Result<Device, Failure> {
        match backend {
            Backend::Wgpu => WgpuRunner::open(index)
                .map(|r| Device::Wgpu(Box::new(r)))
                .map_err(|e| match e {
                    WgpuError::BadDevice { .. } => Failure::bad_input(format!(
                        "{e}\n{}",
                        list_devices(Some(Backend::Wgpu)).trim_end()
                    )),
                    WgpuError::NoAdapter(_) => Failure::tool(e.to_string()),
                    other => Failure::tool(other.to_string()),
                }),
            Backend::Cuda => {
                let i = index.unwrap_or(0);
                CudaRunner::open(i).map(|r| Device::Cuda(r, i)).map_err(|e| match e {
                    CudaError::NoDriver(why) => Failure::tool(format!(
                        "no CUDA driver: {why}; --backend cuda needs an NVIDIA GPU with its driver (libcuda.so.1); use --backend wgpu otherwise"
                    )),
                    CudaError::BadParams(m) => Failure::bad_input(format!(
                        "{m}\n{}",
                        list_devices(Some(Backend::Cuda)).trim_end()
                    )),
                    other => Failure::tool(other.to_string()),
                })
            }
        }
    }

    pub fn backend(&self) -> Backend {
        match self {
            Device::Wgpu(_) => Backend::Wgpu,
            Device::Cuda(..) => Backend::Cuda,
        }
    }

    /// The device identity the results database keeps.
    pub fn record(&self) -> DeviceRecord {
        match self {
            Device::Wgpu(r) => {
                let i = r.identity();
                let l = r.limits();
                DeviceRecord {
                    backend: "wgpu".into(),
                    name: i.name.clone(),
                    vendor: format!("0x{:04x}", i.vendor),
                    driver: i.driver.clone(),
                    api: i.backend.clone(),
                    architecture: String::new(),
                    browser: String::new(),
                    os: std::env::consts::OS.to_string(),
                    extra: serde_json::json!({
                        "index": i.index,
                        "device_type": i.device_type,
                        "max_invocations_per_workgroup": l.max_compute_invocations_per_workgroup,
                        "max_workgroups_per_dimension": l.max_compute_workgroups_per_dimension,
                        "max_storage_buffer_binding_size": l.max_storage_buffer_binding_size,
                    }),
                }
            }
            Device::Cuda(r, index) => {
                let id = r.identity();
                DeviceRecord {
                    backend: "cuda".into(),
                    name: id.name.clone(),
                    vendor: "NVIDIA".into(),
                    driver: format!("CUDA driver {}", cuda_version(id.driver_version)),
                    api: id.arch(),
                    architecture: id.arch(),
                    browser: String::new(),
                    os: std::env::consts::OS.to_string(),
                    extra: serde_json::json!({
                        "index": index,
                        "compute_capability": [id.compute_capability.0, id.compute_capability.1],
                    }),
                }
            }
        }
    }

    /// One line naming the device.
    pub fn describe(&self) -> String {
        let d = self.record();
        match self {
            Device::Wgpu(r) => format!(
                "{} (wgpu {}, {}, vendor {}; driver {}; --device {})",
                d.name,
                d.api,
                r.identity().device_type,
                d.vendor,
                d.driver,
                r.identity().index
            ),
            Device::Cuda(_, i) => {
                format!("{} (cuda {}; {}; --device {i})", d.name, d.api, d.driver)
            }
        }
    }

    /// Runs `p` (already aliased when the stress asks) and returns the raw histogram.
    fn execute(
        &self,
        p: &Program,
        stress: &StressConfig,
        iterations: u32,
        seed: u64,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<Raw, RunError> {
        match self {
            Device::Wgpu(r) => {
                let params = WgpuParams {
                    iterations,
                    stress: stress.clone(),
                    seed,
                };
                let run = r.run(p, &params, progress).map_err(|e| match e {
                    WgpuError::Codegen(c) => RunError::Refused(c.to_string()),
                    WgpuError::BadParams(m) => RunError::BadInput(m),
                    other => RunError::Tool(other.to_string()),
                })?;
                let [s, i, w] = run.gpu_class_counts;
                let mut notes: Vec<String> = run
                    .strengthened
                    .iter()
                    .map(|n| format!("strengthened: {n}"))
                    .collect();
                notes.dedup();
                Ok(Raw {
                    outcomes: run.outcomes,
                    instances: run.instances,
                    stuck: 0,
                    elapsed: run.elapsed,
                    checksum: format!(
                        "ok (result shader counted {s} seq + {i} interleaved + {w} weak = {} instances = host histogram)",
                        run.instances
                    ),
                    notes,
                    attributable: true,
                })
            }
            Device::Cuda(r, index) => {
                let params =
                    cuda_params(stress, iterations, seed, *index).map_err(RunError::BadInput)?;
                let run = r.run(p, &params, progress).map_err(|e| match e {
                    CudaError::Codegen(c) => RunError::Refused(c.to_string()),
                    CudaError::BadParams(m) => RunError::BadInput(m),
                    other => RunError::Tool(other.to_string()),
                })?;
                let counted: u64 = run.outcomes.iter().map(|(_, n)| n).sum();
                let mut notes = vec![match &run.optcheck {
                    weft_hw_cuda::Verdict::Kept => {
                        "optcheck: kept (the SASS keeps every test access in order)".to_string()
                    }
                    weft_hw_cuda::Verdict::Reordered { details } => format!(
                        "optcheck: REORDERED, weak outcomes are not attributable to the hardware: {details}"
                    ),
                    weft_hw_cuda::Verdict::Unavailable(why) => {
                        format!("optcheck: unavailable ({why})")
                    }
                }];
                if run.stuck > 0 {
                    notes.push(format!(
                        "{} instances spent their spin-loop budget and have no outcome",
                        run.stuck
                    ));
                }
                Ok(Raw {
                    outcomes: run.outcomes,
                    instances: run.instances,
                    stuck: run.stuck,
                    elapsed: run.elapsed,
                    checksum: format!(
                        "ok ({counted} outcomes + {} stuck = {} instances)",
                        run.stuck, run.instances
                    ),
                    notes,
                    attributable: run.hardware_attributable,
                })
            }
        }
    }
}

struct Raw {
    outcomes: Vec<(weft_litmus::classify::Outcome, u64)>,
    instances: u64,
    stuck: u64,
    elapsed: Duration,
    checksum: String,
    notes: Vec<String>,
    attributable: bool,
}

/// One line of a histogram.
#[derive(Clone, Debug)]
pub struct Row {
    pub text: String,
    pub count: u64,
    pub class: Class,
    pub verdict: Option<Verdict>,
}

/// What one run of one test observed.
#[derive(Clone, Debug)]
pub struct Observation {
    pub rows: Vec<Row>,
    pub instances: u64,
    pub stuck: u64,
    pub elapsed: Duration,
    pub checksum: String,
    pub notes: Vec<String>,
    /// False when optcheck says the compiler reordered the test (CUDA).
    pub attributable: bool,
    /// The model the outcomes were judged against.
    pub model: Option<String>,
}

impl Observation {
    fn count(&self, f: impl Fn(&Row) -> bool) -> u64 {
        self.rows.iter().filter(|r| f(r)).map(|r| r.count).sum()
    }
    pub fn weak(&self) -> u64 {
        self.count(|r| r.class == Class::Weak)
    }
    pub fn forbidden(&self) -> u64 {
        self.count(|r| r.verdict == Some(Verdict::Forbidden))
    }
    pub fn seconds(&self) -> f64 {
        self.elapsed.as_secs_f64()
    }
    pub fn per_second(&self, n: u64) -> f64 {
        let s = self.seconds();
        if s > 0.0 {
            n as f64 / s
        } else {
            0.0
        }
    }
    pub fn weak_rate(&self) -> f64 {
        if self.instances == 0 {
            0.0
        } else {
            self.weak() as f64 / self.instances as f64
        }
    }
}

/// A progress bar with an ETA on a terminal; hidden when stderr is not one.
pub struct Progress(indicatif::ProgressBar);

impl Progress {
    pub fn new(label: &str) -> Progress {
        let bar = if std::io::stderr().is_terminal() {
            let b = indicatif::ProgressBar::new(0);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{prefix} [{bar:30}] {pos}/{len} instances, {per_sec}, ETA {eta}",
            ) {
                b.set_style(style.progress_chars("=> "));
            }
            b.set_prefix(label.to_string());
            b
        } else {
            indicatif::ProgressBar::hidden()
        };
        Progress(bar)
    }
    pub fn update(&self, done: u64, total: u64) {
        self.0.set_length(total);
        self.0.set_position(done);
    }
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// [`observe`] with a terminal progress bar labelled `label` (hidden off a terminal).
pub fn observe_with_bar(
    dev: &Device,
    t: &Test,
    stress: &StressConfig,
    iterations: u32,
    seed: u64,
    model: Option<(&str, &weft_cat::Model, judge::Simulate)>,
    label: &str,
) -> Result<Observation, RunError> {
    let bar = Progress::new(label);
    let r = observe(dev, t, stress, iterations, seed, model, &mut |d, n| {
        bar.update(d, n)
    });
    bar.finish();
    r
}

/// Runs one test under one stress configuration: classifies its outcomes (sequential,
/// interleaved, weak) and judges them under `model` when given (computing its allowed states
/// with the simulator the caller lends).
pub fn observe(
    dev: &Device,
    t: &Test,
    stress: &StressConfig,
    iterations: u32,
    seed: u64,
    model: Option<(&str, &weft_cat::Model, judge::Simulate)>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Observation, RunError> {
    // The program that runs: with aliasedMemory every location is one cell (wgpu).
    let ran = if stress.aliased_memory && dev.backend() == Backend::Wgpu {
        weft_hw_wgpu::lower::alias_all(&t.program).map_err(|e| RunError::Refused(e.to_string()))?
    } else {
        t.program.clone()
    };
    let classes = classify(&ran)
        .map_err(|e| RunError::Refused(format!("cannot classify its outcomes: {e}")))?;
    let judge = match model {
        Some((name, m, simulate)) => Some(
            Judge::new(&ran, name, m, simulate)
                .map_err(|e| RunError::BadInput(format!("cannot simulate it under {name}: {e}")))?,
        ),
        None => None,
    };
    let raw = dev.execute(&ran, stress, iterations, seed, progress)?;
    let mut rows: Vec<Row> = raw
        .outcomes
        .iter()
        .map(|(o, n)| Row {
            text: judge::outcome_text(&ran, o),
            count: *n,
            class: classes.class_of(o),
            verdict: judge.as_ref().map(|j| j.verdict(&ran, o)),
        })
        .collect();
    rows.sort_by(|a, b| a.class.cmp(&b.class).then_with(|| a.text.cmp(&b.text)));
    let mut notes = raw.notes;
    if let Some(j) = &judge {
        if let Some(why) = &j.note {
            notes.push(format!(
                "{}'s allowed states are incomplete ({why}): outcomes outside them get no verdict",
                j.model
            ));
        }
    }
    Ok(Observation {
        rows,
        instances: raw.instances,
        stuck: raw.stuck,
        elapsed: raw.elapsed,
        checksum: raw.checksum,
        notes,
        attributable: raw.attributable,
        model: judge.map(|j| j.model),
    })
}

/// Human-readable instance rate.
pub fn rate_text(r: f64) -> String {
    if r >= 1e6 {
        format!("{:.2} M/s", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1} k/s", r / 1e3)
    } else {
        format!("{r:.1}/s")
    }
}

/// The histogram of one observation, with totals, checksum, rate and notes.
pub fn histogram_text(o: &Observation) -> String {
    let w = o
        .rows
        .iter()
        .map(|r| r.text.len())
        .max()
        .unwrap_or(0)
        .max("outcome".len());
    let total: u64 = o.rows.iter().map(|r| r.count).sum();
    let pct = |n: u64| {
        if total == 0 {
            0.0
        } else {
            n as f64 * 100.0 / total as f64
        }
    };
    let mut s = format!(
        "  {:<w$}  {:>12}  {:>7}  {:<11}",
        "outcome", "count", "%", "class"
    );
    if let Some(m) = &o.model {
        s += &format!("  {m}");
    }
    s = s.trim_end().to_string() + "\n";
    for r in &o.rows {
        let mut line = format!(
            "  {:<w$}  {:>12}  {:>7.3}  {:<11}",
            r.text,
            r.count,
            pct(r.count),
            r.class.name()
        );
        if let Some(v) = r.verdict {
            line += &format!("  {}", v.name());
        }
        s += line.trim_end();
        s += "\n";
    }
    s += &format!("  {:<w$}  {:>12}  {:>7.3}\n", "total", total, pct(total));
    s += &format!("  instances  {}\n", o.instances);
    s += &format!("  checksum   {}\n", o.checksum);
    s += &format!(
        "  rate       {} instances in {:.3} s: {}\n",
        o.instances,
        o.seconds(),
        rate_text(o.per_second(o.instances))
    );
    s += &format!("  weak       {} ({:.4} %)", o.weak(), o.weak_rate() * 100.0);
    if let Some(m) = &o.model {
        s += &format!("; forbidden by {m}: {}", o.forbidden());
    }
    s += "\n";
    for n in &o.notes {
        s += &format!("  note       {n}\n");
    }
    s
}

/// The observation as JSON.
pub fn observation_json(o: &Observation) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = o
        .rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "outcome": r.text,
                "count": r.count,
                "class": r.class.name(),
                "verdict": r.verdict.map(|v| v.name()),
            })
        })
        .collect();
    serde_json::json!({
        "outcomes": rows,
        "instances": o.instances,
        "stuck": o.stuck,
        "seconds": o.seconds(),
        "instances_per_second": o.per_second(o.instances),
        "weak": o.weak(),
        "weak_per_instance": o.weak_rate(),
        "weak_per_second": o.per_second(o.weak()),
        "model": o.model,
        "forbidden": o.forbidden(),
        "checksum": o.checksum,
        "notes": o.notes,
        "hardware_attributable": o.attributable,
    })
}

/// Where runs are recorded (nowhere with `--no-db`).
pub struct Recorder {
    store: Option<Store>,
}

/// What identifies a run besides its observation.
pub struct RunInfo<'a> {
    pub kind: &'a str,
    pub label: Option<String>,
    pub started_at: String,
    pub stress_name: String,
    pub stress: &'a StressConfig,
    pub seed: u64,
    pub iterations: u32,
}

impl Recorder {
    /// Opens `db` (or the default database), or nothing when `no_db`.
    pub fn open(db: Option<&Path>, no_db: bool) -> Result<Recorder, Failure> {
        if no_db {
            return Ok(Recorder { store: None });
        }
        let path = match db {
            Some(p) => p.to_path_buf(),
            None => Store::default_path().map_err(store_failure)?,
        };
        Ok(Recorder {
            store: Some(Store::open(path).map_err(store_failure)?),
        })
    }

    /// Records one run; the new run's id, or `None` without a database.
    pub fn record(
        &mut self,
        dev: &Device,
        t: &Test,
        info: &RunInfo,
        o: &Observation,
    ) -> Result<Option<i64>, Failure> {
        let Some(store) = self.store.as_mut() else {
            return Ok(None);
        };
        let mut config = serde_json::to_value(info.stress).unwrap_or(serde_json::Value::Null);
        if let (Device::Cuda(_, i), serde_json::Value::Object(m)) = (dev, &mut config) {
            if let Ok(p) = cuda_params(info.stress, info.iterations, info.seed, *i) {
                m.insert(
                    "cuda".into(),
                    serde_json::to_value(p).unwrap_or(serde_json::Value::Null),
                );
            }
        }
        let rec = RunRecord {
            kind: info.kind.to_string(),
            label: info.label.clone(),
            started_at: info.started_at.clone(),
            duration_ms: o.elapsed.as_millis() as u64,
            device: dev.record(),
            test: TestRecord {
                name: t.program.name.clone(),
                path: t.path.display().to_string(),
                format: t.program.arch.name().to_ascii_lowercase(),
                digest: t.digest.clone(),
            },
            stress_name: info.stress_name.clone(),
            stress_config: config,
            seed: info.seed,
            iterations: info.iterations as u64,
            instances: o.instances,
            model: o.model.clone(),
            weft_version: env!("CARGO_PKG_VERSION").to_string(),
            outcomes: o
                .rows
                .iter()
                .map(|r| OutcomeRecord {
                    outcome: r.text.clone(),
                    class: r.class.name().to_string(),
                    model_verdict: r.verdict.and_then(|v| v.stored()),
                    count: r.count,
                })
                .collect(),
        };
        store.record(&rec).map(Some).map_err(store_failure)
    }

    pub fn path(&self) -> Option<&Path> {
        self.store.as_ref().map(|s| s.path())
    }
}

fn store_failure(e: StoreError) -> Failure {
    match e {
        StoreError::Path { .. }
        | StoreError::NotWeft { .. }
        | StoreError::SchemaTooNew { .. }
        | StoreError::NoDefaultPath
        | StoreError::Missing { .. } => {
            Failure::bad_input(format!("results database: {e} (or pass --no-db)"))
        }
        other => Failure::tool(format!("results database: {other}")),
    }
}

/// A run's default seed when none is given: from the clock (printed, so the run can be
/// repeated with `--seed`).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 % 1_000_000_000)
        .unwrap_or(0)
}

/// Tests of the GPUHarbor corpus with the given `role` in their `.meta.json`
/// (`conformance` or `mutant`), from `tests/corpus/gpuharbor` under the current directory
/// or else under the source tree weft was built from.
pub fn corpus_tests(role: &str) -> Result<Vec<PathBuf>, Failure> {
    let candidates = [
        PathBuf::from("tests/corpus/gpuharbor"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/gpuharbor"),
    ];
    let Some(dir) = candidates.iter().find(|d| d.is_dir()) else {
        return Err(Failure::bad_input(
            "no tests given and no tests/corpus/gpuharbor here: name the tests to run",
        ));
    };
    let mut out = Vec::new();
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Failure::bad_input(format!("{}: {e}", dir.display())))?;
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let Some(stem) = name.strip_suffix(".meta.json") else {
            continue;
        };
        let meta: serde_json::Value = std::fs::read_to_string(&p)
            .ok()
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or(serde_json::Value::Null);
        if meta.get("role").and_then(|r| r.as_str()) == Some(role) {
            let test = dir.join(format!("{stem}.json"));
            if test.is_file() {
                out.push(test);
            }
        }
    }
    out.sort();
    Ok(out)
}
