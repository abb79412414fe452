//! `weft cc`, `weft exec`, `weft memcheck` and the program form of `weft race`: whole CUDA
//! programs built against weft's CUDA runtime and run with their kernels on the SIMT
//! emulator (crate `weft-program`; the runtime is `weft-cudart`). Here: argument parsing,
//! one library call, printing. docs/programs.md.
//!
//! Exit codes: `weft cc` 0, 2 (compile error, unsupported construct), 3 (missing tool or
//! runtime library); `weft exec` the program's own (128 + N when killed by signal N), 3 when
//! `--timeout` stopped it or the runtime met an unimplemented API; `race`/`memcheck`: the
//! `--error-exitcode` (default 1) when something was found, else the program's own, or 3 when
//! no launch ran to its end under the checker (nothing was checked).

use weft_program::{CcOptions, Mode, RunOptions, RunResult};

use crate::exit::{ExitCode, Failure};
use crate::out;

#[derive(clap::Args)]
pub struct CcArgs {
    /// nvcc-like options and files: -o OUT, -I DIR, -D X, -std=X, -O N, -arch=X (accepted),
    /// -lineinfo, -x cu, -l LIB, -L DIR, --old-launch-abi; .cu/.cpp/.c inputs.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
    words: Vec<String>,
}

/// Options shared by the commands that run a program.
#[derive(clap::Args, Clone)]
pub struct RunArgs {
    /// Stop the program after this many seconds (exit 3; the report so far is kept).
    #[arg(long)]
    pub timeout: Option<f64>,
    /// The emulated device: `name=..,sms=N,shared=BYTES,threads=N,major=N,minor=N,mem=BYTES`.
    #[arg(long = "device-props")]
    pub device: Option<String>,
    /// Warp-instructions per launch before it is stopped as a livelock.
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// Warp schedule of every launch: `rr` or a seed.
    #[arg(long)]
    pub schedule: Option<String>,
    /// `-I`/`-D` for building .cu sources given instead of a program.
    #[arg(short = 'I')]
    pub include: Vec<std::path::PathBuf>,
    #[arg(short = 'D')]
    pub define: Vec<String>,
}

#[derive(clap::Args)]
pub struct ExecArgs {
    #[command(flatten)]
    run: RunArgs,
    /// `[--] ./app ARGS...` or `app.cu [more.cu] [-- ARGS...]`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
    command: Vec<String>,
}

#[derive(clap::Args)]
pub struct MemcheckArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Report reads of device memory that was never written.
    #[arg(long)]
    initcheck: bool,
    /// `full` (default): report device allocations not freed at exit; `no`: do not.
    #[arg(long, default_value = "full")]
    leak_check: String,
    /// Exit code when an error was found (the program's own otherwise).
    #[arg(long, default_value_t = 1)]
    error_exitcode: i32,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// `[--] ./app ARGS...` or `app.cu [more.cu] [-- ARGS...]`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
    command: Vec<String>,
}

/// `weft cc`.
pub fn cc(a: CcArgs) -> ExitCode {
    let r = weft_program::parse_cc_args(&a.words).and_then(|o| weft_program::build(&o));
    crate::exit::finish(r.map(|()| ExitCode::Ok))
}

fn cc_options(r: &RunArgs) -> CcOptions {
    CcOptions {
        include_dirs: r.include.clone(),
        defines: r.define.clone(),
        ..CcOptions::default()
    }
}

fn run_options(r: &RunArgs, mode: Mode) -> Result<RunOptions, Failure> {
    let (device, schedule) = (r.device.clone(), r.schedule.clone());
    weft_program::outcome::run_options(mode, r.timeout, device, r.max_steps, schedule)
}

/// Runs the program the command line names; `Err` for bad input or a build failure.
pub fn launch(words: &[String], r: &RunArgs, o: &RunOptions) -> Result<RunResult, Failure> {
    let (target, args) = weft_program::split_invocation(words)?;
    weft_program::run_target(&target, &args, &cc_options(r), o)
}

/// The exit code after a run: 3 for a timeout or a fatal runtime message, the program's own
/// otherwise; prints how the program ended when it did not end normally.
fn program_code(res: &RunResult, timeout: Option<f64>) -> i32 {
    let (code, abnormal) = res.status(timeout);
    if let Some(m) = abnormal {
        eprintln!("weft: {m}");
    }
    code
}

/// `weft exec`.
pub fn exec(a: ExecArgs) -> ExitCode {
    let r = run_options(&a.run, Mode::Exec).and_then(|o| launch(&a.command, &a.run, &o));
    match r {
        Ok(res) => std::process::exit(program_code(&res, a.run.timeout)),
        Err(f) => crate::exit::report(&f),
    }
}

/// `weft memcheck`.
pub fn memcheck(a: MemcheckArgs) -> ExitCode {
    let leak = match a.leak_check.as_str() {
        "full" => true,
        "no" => false,
        v => {
            return crate::exit::report(&Failure::bad_input(format!(
                "--leak-check {v}: expected `full` or `no`"
            )))
        }
    };
    let r = run_options(&a.run, Mode::Memcheck)
        .map(|o| RunOptions {
            initcheck: a.initcheck,
            leakcheck: leak,
            ..o
        })
        .and_then(|o| launch(&a.command, &a.run, &o));
    let res = match r {
        Ok(res) => res,
        Err(f) => return crate::exit::report(&f),
    };
    program_code(&res, a.run.timeout);
    let (text, found) = res.memcheck_output(a.json);
    out::print(&text);
    std::process::exit(res.checked_status("memcheck", found, a.error_exitcode))
}

/// The program form of `weft race`: every launch checked; races grouped by source-line pair
/// across launches.
pub fn race(
    words: &[String],
    r: &RunArgs,
    (definition, schedules): (&str, Option<u32>),
    json: bool,
    error_exitcode: i32,
) -> ExitCode {
    let res = run_options(r, Mode::Race)
        .map(|o| RunOptions {
            definition: Some(definition.to_string()),
            schedules,
            ..o
        })
        .and_then(|o| launch(words, r, &o));
    let res = match res {
        Ok(res) => res,
        Err(f) => return crate::exit::report(&f),
    };
    program_code(&res, r.timeout);
    let (text, summary, found) = res.race_output(json);
    out::print(&text);
    eprintln!("weft: {summary}");
    std::process::exit(res.checked_status("race", found, error_exitcode))
}
