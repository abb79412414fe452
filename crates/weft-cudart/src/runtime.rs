//! The runtime's state: registered modules (one per translation unit's GPU binary), their
//! kernels and `__device__`/`__constant__` variables, host stubs and host shadows mapped to
//! them, device memory, the launch configuration stack of `<<<...>>>`, the last error,
//! streams and events on an emulated clock, and the run's report.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use weft_ir::kernel::Kernel;
use weft_ir::MemSpace;

use crate::config::{Config, Mode};
use crate::container::GpuBinary;
use crate::errors::{self, CudaError};
use crate::memory::{Kind, Memory};
use crate::report::{MemError, ProgramReport};

/// One translation unit's device code.
pub struct Module {
    pub source: String,
    /// Lowered kernels by PTX name (an `Err` holds why one does not lower).
    pub kernels: HashMap<String, Result<Arc<Kernel>, String>>,
    /// Device address of each module variable, by PTX name, with its size.
    pub vars: HashMap<String, (u64, u64)>,
    /// Device functions the module calls that the emulator does not implement (`malloc`,
    /// ...; `vprintf` and `__assertfail` are run): a launch stops the program (exit 3).
    pub unimplemented: Vec<String>,
}

/// A pending `<<<grid, block, shared, stream>>>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared: u64,
}

/// The whole runtime.
pub struct Runtime {
    pub config: Config,
    pub modules: Vec<Module>,
    /// Host stub address -> (module, kernel PTX name).
    pub functions: HashMap<usize, (usize, String)>,
    /// Host shadow address of a device variable -> (device address, size).
    pub symbols: HashMap<usize, (u64, u64)>,
    pub memory: Memory,
    pub configs: Vec<CallConfig>,
    /// Argument bytes of the old launch ABI (`cudaSetupArgument`).
    pub setup_args: Vec<u8>,
    pub last_error: CudaError,
    /// A kernel fault: every later call returns it.
    pub sticky: CudaError,
    pub device: i32,
    /// Host allocations of `cudaMallocHost`/`cudaHostAlloc`.
    pub host_allocs: HashMap<usize, usize>,
    pub streams: usize,
    /// Recorded time of each event (emulated nanoseconds), by handle - 1.
    pub events: Vec<Option<f64>>,
    /// Emulated device time in nanoseconds.
    pub clock_ns: f64,
    pub report: ProgramReport,
    /// Bounds of the executables' `weft_managed` sections (crate::managed).
    pub managed_sections: Vec<(usize, usize)>,
    /// The `__managed__` variables registered so far.
    pub managed_vars: Vec<crate::managed::ManagedVar>,
}

static RUNTIME: Mutex<Option<Runtime>> = Mutex::new(None);

/// Prints a fatal message and ends the program with exit code 3 (after writing the report).
pub fn fatal(msg: &str) -> ! {
    eprintln!("weft: {msg}");
    if let Ok(mut g) = RUNTIME.try_lock() {
        if let Some(rt) = g.as_mut() {
            rt.report.fatal = Some(msg.to_string());
            rt.write_report();
        }
    }
    // SAFETY: ends the process; no Rust state is used afterwards.
    unsafe { libc::_exit(3) }
}

extern "C" fn at_exit() {
    if let Ok(mut g) = RUNTIME.try_lock() {
        if let Some(rt) = g.as_mut() {
            rt.finish();
        }
    }
}

/// The runtime, created on first use (reads the environment, reserves device memory).
pub fn get() -> MutexGuard<'static, Option<Runtime>> {
    let mut g = RUNTIME.lock().unwrap_or_else(|e| e.into_inner());
    if g.is_none() {
        let config = match Config::from_env() {
            Ok(c) => c,
            Err(e) => {
                drop(g);
                fatal(&e)
            }
        };
        let memory = match Memory::new() {
            Ok(m) => m,
            Err(e) => {
                drop(g);
                fatal(&e)
            }
        };
        let mode = match config.mode {
            Mode::Exec => "exec",
            Mode::Race => "race",
            Mode::Memcheck => "memcheck",
        };
        let report = ProgramReport {
            mode: mode.into(),
            definition: config.definition.name().into(),
            ..ProgramReport::default()
        };
        *g = Some(Runtime {
            config,
            modules: Vec::new(),
            functions: HashMap::new(),
            symbols: HashMap::new(),
            memory,
            configs: Vec::new(),
            setup_args: Vec::new(),
            last_error: errors::SUCCESS,
            sticky: errors::SUCCESS,
            device: 0,
            host_allocs: HashMap::new(),
            streams: 0,
            events: Vec::new(),
            clock_ns: 0.0,
            report,
            managed_sections: Vec::new(),
            managed_vars: Vec::new(),
        });
        // SAFETY: registering a plain `extern "C"` function.
        unsafe {
            libc::atexit(at_exit);
        }
    }
    g
}

/// Runs `f` on the runtime.
pub fn with<R>(f: impl FnOnce(&mut Runtime) -> R) -> R {
    let mut g = get();
    let rt = g.as_mut().expect("runtime initialised");
    f(rt)
}

impl Runtime {
    /// Records `e` as the last error and returns it.
    pub fn ret(&mut self, e: CudaError) -> CudaError {
        if e != errors::SUCCESS {
            self.last_error = e;
        }
        e
    }

    /// Writes the report when a report file was asked for.
    pub fn write_report(&self) {
        if let Some(p) = &self.config.report {
            if let Err(e) = self.report.write(p) {
                eprintln!("weft: writing the report {p}: {e}");
            }
        }
    }

    /// At exit: leaks (memcheck), the final report.
    pub fn finish(&mut self) {
        if self.config.mode == Mode::Memcheck && self.config.leakcheck {
            self.report_leaks();
        }
        self.report.finished = true;
        self.write_report();
    }

    fn report_leaks(&mut self) {
        let leaks: Vec<(u64, u64)> = self
            .memory
            .allocs
            .iter()
            .filter(|a| a.kind != Kind::Symbol)
            .map(|a| (a.addr, a.size))
            .collect();
        for (addr, size) in leaks {
            self.report.memcheck.push(MemError {
                what: format!("Leaked {size} bytes at 0x{addr:x}"),
                detail: vec!["allocated by cudaMalloc/cudaMallocManaged and never freed".into()],
                kind: "leak".into(),
                at: "exit".into(),
                launch: None,
                count: 1,
            });
        }
    }

    /// A memcheck error of a host API call (compute-sanitizer's "Program hit ..." form).
    pub fn api_error(&mut self, func: &str, e: CudaError, detail: String) {
        if self.config.mode != Mode::Memcheck {
            return;
        }
        self.report.memcheck.push(MemError {
            what: format!(
                "Program hit {} (error {e}) due to \"{}\" on CUDA API call to {func}.",
                errors::name(e),
                errors::message(e)
            ),
            detail: vec![detail],
            kind: "api".into(),
            at: func.into(),
            launch: None,
            count: 1,
        });
    }

    /// Registers a GPU binary: parses and lowers every kernel, allocates and initialises
    /// every module variable. Returns the module's handle (index + 1).
    pub fn register_module(&mut self, bin: GpuBinary) -> usize {
        let module = match weft_ptx::parse(&bin.ptx) {
            Ok(m) => m,
            Err(e) => fatal(&format!(
                "{}: the embedded PTX does not parse: {e}",
                bin.source
            )),
        };
        let mut kernels = HashMap::new();
        let mut vars: HashMap<String, (u64, u64)> = HashMap::new();
        for f in module.kernels() {
            let k = weft_ptx::lower_kernel_with(&module, Some(&f.name), bin.havoc_externals)
                .map_err(|errs| {
                    errs.iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                });
            if let Ok(k) = &k {
                for v in &k.vars {
                    if !matches!(v.space, MemSpace::Global | MemSpace::Constant)
                        || vars.contains_key(&v.name)
                    {
                        continue;
                    }
                    let Some(addr) = self.memory.alloc(v.size.max(1), Kind::Symbol) else {
                        fatal("out of device memory for module variables")
                    };
                    let n = v.init.len().min(v.size as usize);
                    self.memory
                        .bytes_mut(addr, n as u64)
                        .copy_from_slice(&v.init[..n]);
                    if let Some(i) = self.memory.find(addr, 1) {
                        self.memory.allocs[i].set_init(0, v.size);
                    }
                    vars.insert(v.name.clone(), (addr, v.size));
                }
            }
            kernels.insert(f.name.clone(), k.map(Arc::new));
        }
        let unimplemented: Vec<String> = module
            .functions()
            .filter(|f| {
                f.body.is_none() && module.function(&f.name).is_some_and(|d| d.body.is_none())
            })
            .filter(|f| !f.name.starts_with("__weft_"))
            .filter(|f| weft_ir::kernel::SysFunc::from_name(&f.name).is_none())
            .map(|f| f.name.clone())
            .collect();
        self.modules.push(Module {
            source: bin.source,
            kernels,
            vars,
            unimplemented,
        });
        self.modules.len()
    }

    /// `__cudaRegisterVar`: the host shadow `host` of variable `name` of module `handle`.
    pub fn register_var(&mut self, handle: usize, host: usize, name: &str, size: u64) {
        let Some(m) = handle.checked_sub(1).and_then(|i| self.modules.get_mut(i)) else {
            return;
        };
        let entry = match m.vars.get(name) {
            Some(&v) => v,
            None => {
                // Not used by any kernel: storage of its own, so copies to it still work.
                let Some(addr) = self.memory.alloc(size.max(1), Kind::Symbol) else {
                    fatal("out of device memory for module variables")
                };
                m.vars.insert(name.to_string(), (addr, size));
                (addr, size)
            }
        };
        self.symbols.insert(host, entry);
        self.note_managed(host, entry.0, entry.1.min(size));
    }

    /// The device range `[addr, addr + n)` with the allocation holding it.
    pub fn device_range(&self, addr: u64, n: u64) -> Option<usize> {
        self.memory.find(addr, n)
    }
}
