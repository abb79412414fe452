//! `weft cc`: nvcc-like building of a whole program. Each `.cu` file is compiled twice: its
//! device side to PTX through weft's front-end (`weft_cuda::frontend::compile`, the same
//! path every kernel command takes; every kernel must lower, or the build fails with the
//! unsupported construct and its line), then its host side by clang-19 with that PTX
//! embedded as the GPU binary (`-Xclang -fcuda-include-gpubinary`, in
//! [`weft_cudart::GpuBinary`]'s container) and CUDA 12's launch ABI (or the old one with
//! `old_launch_abi`). `.cpp`/`.cc`/`.c` files are host code. Objects are linked with
//! `libweft_cudart.so`, found next to the `weft` executable (or in `$WEFT_CUDART_DIR`).

use std::path::{Path, PathBuf};
use std::process::Command;

use weft_cuda::frontend;
use weft_cuda::launch::LaunchSpec;
use weft_cudart::GpuBinary;
use weft_ir::exit::Failure;

/// What `weft cc` was asked.
#[derive(Clone, Debug, Default)]
pub struct CcOptions {
    pub inputs: Vec<PathBuf>,
    pub output: PathBuf,
    pub include_dirs: Vec<PathBuf>,
    pub defines: Vec<String>,
    /// `-std=` for host code (default c++17).
    pub std: Option<String>,
    /// `-O` level for host code.
    pub opt: Option<String>,
    /// `-l` libraries and `-L` directories, in order, as linker arguments.
    pub link_args: Vec<String>,
    /// Treat every input as CUDA (`-x cu`).
    pub all_cuda: bool,
    /// Emit the old launch ABI (`cudaConfigureCall`/`cudaSetupArgument`/`cudaLaunch`).
    pub old_launch_abi: bool,
}

/// The directory holding `libweft_cudart.so`.
pub fn runtime_dir() -> Result<PathBuf, Failure> {
    let name = "libweft_cudart.so";
    let mut cands: Vec<PathBuf> = Vec::new();
    if let Some(d) = std::env::var_os("WEFT_CUDART_DIR") {
        cands.push(PathBuf::from(d));
    }
    if let Ok(exe) = std::env::current_exe() {
        if let Some(d) = exe.parent() {
            cands.push(d.to_path_buf());
            cands.push(d.join("deps"));
            if let Some(p) = d.parent() {
                cands.push(p.to_path_buf());
            }
        }
    }
    // The newest copy: cargo leaves one in `deps/` and may have an older one beside the
    // executable.
    let mtime = |d: &PathBuf| {
        std::fs::metadata(d.join(name))
            .and_then(|m| m.modified())
            .ok()
    };
    cands
        .into_iter()
        .filter(|d| d.join(name).is_file())
        .max_by_key(mtime)
        .ok_or_else(|| {
            Failure::tool(format!(
                "{name} not found next to the weft executable or in $WEFT_CUDART_DIR (build it with `cargo build -p weft-cudart`)"
            ))
        })
}

fn is_cuda(p: &Path, all: bool) -> bool {
    all || matches!(p.extension().and_then(|e| e.to_str()), Some("cu" | "cuh"))
}

fn run_tool(cmd: &mut Command, what: &str) -> Result<(), Failure> {
    weft_cuda::child::die_with_parent(cmd);
    let out = cmd
        .output()
        .map_err(|e| Failure::tool(format!("{what}: cannot run {:?}: {e}", cmd.get_program())))?;
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr);
        return Err(Failure::bad_input(format!(
            "{what} failed:\n{}",
            msg.trim_end()
        )));
    }
    let warn = String::from_utf8_lossy(&out.stderr);
    if !warn.trim().is_empty() {
        eprint!("{warn}");
    }
    Ok(())
}

/// The device side of `path` as weft's GPU binary (checks that every kernel lowers).
fn device_binary(path: &Path, o: &CcOptions) -> Result<GpuBinary, Failure> {
    let source = std::fs::read_to_string(path)
        .map_err(|e| Failure::bad_input(format!("{}: {e}", path.display())))?;
    let spec = LaunchSpec {
        defines: o.defines.clone(),
        include_dirs: o.include_dirs.clone(),
        ..LaunchSpec::default()
    };
    let compiled = frontend::compile(path, &source, &spec).map_err(|e| Failure {
        code: e.exit_code(),
        message: e.report(),
    })?;
    let module = weft_ptx::parse(&compiled.ptx)
        .map_err(|e| Failure::bad_input(format!("{}: PTX {e}", path.display())))?;
    let externals = !weft_cuda::compiler::unresolved_functions(&compiled.ptx).is_empty();
    for k in module.kernels() {
        if let Err(errs) = weft_ptx::lower_kernel_with(&module, Some(&k.name), externals) {
            let msgs: Vec<String> = errs
                .iter()
                .map(|e| frontend::lower_error_message(path, e))
                .collect();
            return Err(Failure::bad_input(format!(
                "{}: kernel {} uses what weft's emulator does not support:\n{}",
                path.display(),
                k.name,
                msgs.join("\n")
            )));
        }
    }
    Ok(GpuBinary {
        source: path.display().to_string(),
        ptx: compiled.ptx,
        havoc_externals: externals,
    })
}

/// Builds the program; `Err` is bad input (exit 2: a compile error) or a missing tool (3).
pub fn build(o: &CcOptions) -> Result<(), Failure> {
    if o.inputs.is_empty() {
        return Err(Failure::bad_input("weft cc: no input files"));
    }
    let tmp = tempfile::Builder::new()
        .prefix("weft-cc-")
        .tempdir()
        .map_err(|e| Failure::tool(format!("temporary directory: {e}")))?;
    let inc = tmp.path().join("include");
    std::fs::create_dir_all(&inc).map_err(|e| Failure::tool(e.to_string()))?;
    weft_cuda::headers::write_to(&inc).map_err(|e| Failure::tool(e.to_string()))?;
    let std_flag = format!("-std={}", o.std.as_deref().unwrap_or("c++17"));
    let opt_flag = format!("-O{}", o.opt.as_deref().unwrap_or("0"));
    let mut objects = Vec::new();
    for (i, input) in o.inputs.iter().enumerate() {
        if !input.is_file() {
            return Err(Failure::bad_input(format!(
                "{}: no such file",
                input.display()
            )));
        }
        let obj = tmp.path().join(format!("{i}.o"));
        let is_c = input.extension().is_some_and(|e| e == "c") && !o.all_cuda;
        let mut cmd = Command::new(if is_c { "clang-19" } else { "clang++-19" });
        if is_cuda(input, o.all_cuda) {
            let bin = device_binary(input, o)?;
            let bin_path = tmp.path().join(format!("{i}.weftbin"));
            std::fs::write(&bin_path, bin.encode()).map_err(|e| Failure::tool(e.to_string()))?;
            cmd.args(["-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib"]);
            cmd.arg("-include").arg(inc.join("weft_cuda.h"));
            cmd.arg("-Xclang")
                .arg("-fcuda-include-gpubinary")
                .arg("-Xclang")
                .arg(&bin_path);
            if !o.old_launch_abi {
                cmd.args(["-Xclang", "-target-sdk-version=12.0"]);
            }
            cmd.arg(&std_flag);
        } else if !is_c {
            cmd.arg(&std_flag);
        }
        cmd.arg("-I").arg(&inc);
        for d in &o.include_dirs {
            cmd.arg("-I").arg(d);
        }
        for d in &o.defines {
            cmd.arg(format!("-D{d}"));
        }
        cmd.args([opt_flag.as_str(), "-g", "-fPIE", "-c"])
            .arg(input)
            .arg("-o")
            .arg(&obj);
        run_tool(&mut cmd, &format!("compiling {}", input.display()))?;
        objects.push(obj);
    }
    let rt = runtime_dir()?;
    let mut link = Command::new("clang++-19");
    link.args(&objects).arg("-o").arg(&o.output);
    link.arg(format!("-L{}", rt.display()))
        .arg("-lweft_cudart")
        .arg(format!("-Wl,-rpath,{}", rt.display()))
        // DT_RPATH, searched before LD_LIBRARY_PATH: the program loads the runtime it was
        // linked with, not another copy a test harness or shell has on its library path.
        .arg("-Wl,--disable-new-dtags");
    link.args(&o.link_args);
    link.args(["-lm", "-lpthread"]);
    run_tool(&mut link, "linking")
}
