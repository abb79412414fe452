//! Running a program built by `weft cc` in one of the runtime's modes: the runtime learns the
//! mode and its options from environment variables (`weft_cudart::config`), writes its report
//! to a file in a temporary directory after every launch and at exit, and the program's
//! standard streams are the caller's. A `--timeout` kills the program (the report of the
//! launches before is kept); a program killed by a signal is reported with the signal.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use weft_cudart::ProgramReport;
use weft_ir::exit::Failure;

/// The runtime's mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Exec,
    Race,
    Memcheck,
}

/// How to run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub mode: Option<Mode>,
    /// Race definition name (`scoped`, `barracuda`).
    pub definition: Option<String>,
    /// `rr` or a seed.
    pub schedule: Option<String>,
    /// Race mode: schedules per launch (`None`: the runtime's default rule,
    /// `weft_cudart::config::race_schedules`).
    pub schedules: Option<u32>,
    pub max_steps: Option<u64>,
    pub initcheck: bool,
    pub leakcheck: bool,
    /// Seconds before the program is killed.
    pub timeout: Option<f64>,
    /// `WEFT_DEVICE` (the emulated device's properties).
    pub device: Option<String>,
}

/// How the program ended.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// Its exit code (128 + signal when killed by a signal, as shells report it).
    pub code: i32,
    /// The signal that killed it, if one did.
    pub signal: Option<i32>,
    pub timed_out: bool,
    /// The runtime's report (none when the program never used the runtime).
    pub report: Option<ProgramReport>,
    pub seconds: f64,
}

impl RunResult {
    /// One line saying how the program ended abnormally (a signal, the timeout), if it did.
    pub fn abnormal(&self, timeout: Option<f64>) -> Option<String> {
        if self.timed_out {
            return Some(format!(
                "the program did not finish within --timeout {}s and was stopped (a launch that never ends: a deadlocked barrier or a spin loop?)",
                timeout.unwrap_or(0.0)
            ));
        }
        self.signal.map(|s| {
            let name = match s {
                libc::SIGSEGV => "SIGSEGV: a host access to an invalid address, e.g. a device pointer dereferenced on the host",
                libc::SIGABRT => "SIGABRT",
                libc::SIGFPE => "SIGFPE",
                libc::SIGBUS => "SIGBUS",
                libc::SIGKILL => "SIGKILL",
                _ => "",
            };
            format!("the program was killed by signal {s} ({name})")
        })
    }

    /// The runtime's report, or, for a program that made no CUDA call (the runtime never
    /// started), an empty one that says so (`unchecked`).
    pub fn report_or_empty(&self, mode: &str) -> ProgramReport {
        self.report.clone().unwrap_or_else(|| ProgramReport {
            mode: mode.into(),
            finished: self.signal.is_none() && !self.timed_out,
            ..ProgramReport::default()
        })
    }

    /// The exit code of `weft race`/`weft memcheck` after this run, given whether the check
    /// `found` something: 3 on timeout; `error_exitcode` on a finding; the program's own when
    /// it failed (non-zero, or killed by a signal); 3 ("incomplete") when no launch ran to its
    /// end under the checker, so that an unchecked run never reads as a clean one; else 0.
    pub fn checker_code(&self, report: &ProgramReport, found: bool, error_exitcode: i32) -> i32 {
        if self.timed_out {
            return 3;
        }
        if found {
            return error_exitcode;
        }
        if self.code != 0 {
            return self.code;
        }
        if report.unchecked().is_some() {
            return 3;
        }
        0
    }
}

/// Runs `app` with `args`.
pub fn run_program(app: &Path, args: &[String], o: &RunOptions) -> Result<RunResult, Failure> {
    let app: PathBuf = if app.components().count() == 1 && !app.starts_with(".") {
        Path::new(".").join(app)
    } else {
        app.to_path_buf()
    };
    if !app.is_file() {
        return Err(Failure::bad_input(format!(
            "{}: no such program",
            app.display()
        )));
    }
    let tmp = tempfile::Builder::new()
        .prefix("weft-run-")
        .tempdir()
        .map_err(|e| Failure::tool(format!("temporary directory: {e}")))?;
    let report_path = tmp.path().join("report.json");
    let mut cmd = Command::new(&app);
    cmd.args(args)
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit());
    let mode = match o.mode.unwrap_or(Mode::Exec) {
        Mode::Exec => "exec",
        Mode::Race => "race",
        Mode::Memcheck => "memcheck",
    };
    cmd.env("WEFT_CUDART_MODE", mode);
    cmd.env("WEFT_CUDART_REPORT", &report_path);
    if let Some(d) = &o.definition {
        cmd.env("WEFT_CUDART_DEFINITION", d);
    }
    if let Some(s) = &o.schedule {
        cmd.env("WEFT_CUDART_SCHEDULE", s);
    }
    if let Some(n) = o.schedules {
        cmd.env("WEFT_CUDART_SCHEDULES", n.to_string());
    }
    if let Some(s) = o.max_steps {
        cmd.env("WEFT_CUDART_MAX_STEPS", s.to_string());
    }
    cmd.env("WEFT_CUDART_INITCHECK", if o.initcheck { "1" } else { "0" });
    cmd.env("WEFT_CUDART_LEAKCHECK", if o.leakcheck { "1" } else { "0" });
    if let Some(d) = &o.device {
        cmd.env("WEFT_DEVICE", d);
    }
    weft_cuda::child::die_with_parent(&mut cmd);
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| Failure::bad_input(format!("{}: cannot run: {e}", app.display())))?;
    let deadline = o.timeout.map(|t| start + Duration::from_secs_f64(t));
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) => {}
            Err(e) => return Err(Failure::tool(format!("waiting for the program: {e}"))),
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            timed_out = true;
            let _ = child.kill();
            break child
                .wait()
                .map_err(|e| Failure::tool(format!("waiting for the program: {e}")))?;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    use std::os::unix::process::ExitStatusExt;
    let signal = if timed_out { None } else { status.signal() };
    let code = status.code().unwrap_or(128 + signal.unwrap_or(0));
    let report = if report_path.is_file() {
        Some(ProgramReport::read(&report_path).map_err(Failure::tool)?)
    } else {
        None
    };
    Ok(RunResult {
        code,
        signal,
        timed_out,
        report,
        seconds: start.elapsed().as_secs_f64(),
    })
}
