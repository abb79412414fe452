//! Launch binding (feature `bind`): a kernel file and a [`LaunchSpec`] become a launch ready
//! for the SIMT emulator and the engines built on its launch types — the kernel compiled and
//! lowered, its geometry, its arguments bound to values and buffers (`--buffer`, `--arg`,
//! GPUVerify's `--kernel-args`), and its OpenCL `__local` pointer parameters given
//! work-group memory. Every kernel command (run-kernel, race, mc, the server) prepares a
//! launch through [`prepare`]; [`prepare_sequence`] binds a host-ordered sequence of
//! launches ([`LaunchCall`], `weft mc --launch`) to one set of buffers.
//!
//! Notes for the user (ignored header flags, defaulted `__local` sizes) go to the `note`
//! callback as they arise, so a caller prints them in order with its own errors.

mod call;
mod sequence;

pub use call::LaunchCall;
pub use sequence::{prepare_sequence, PreparedSeq};

use std::path::Path;

use weft_ir::exit::Failure;
use weft_ir::kernel::Kernel;
use weft_simt::spec::{bind, parse_buffer_spec, source_params, BufferSpec, SourceParam};
use weft_simt::{Arg, Buffer, LaunchConfig};

use crate::frontend::{FrontModule, LocalAlloc};
use crate::launch::LaunchSpec;

/// A kernel ready to launch on the emulator: compiled, lowered, with its geometry, its
/// arguments bound and its `__local` parameters given work-group memory.
pub struct Prepared {
    pub kernel: Kernel,
    pub launch: LaunchConfig,
    pub args: Vec<Arg>,
    pub buffers: Vec<Buffer>,
    pub module: FrontModule,
    /// OpenCL `__local` pointer parameters given work-group memory (emulator only).
    pub local_params: usize,
}

/// What a module tells the user before it runs (without the `weft: ` prefix): the launch
/// description's notes (ignored flags, `*` dimensions) and the functions declared without a
/// body.
pub fn module_notes(m: &FrontModule) -> Vec<String> {
    let mut v = m.spec.notes();
    if !m.external_functions.is_empty() {
        v.push(format!(
            "note: {} declared without a body: calls have no effect on memory and return arbitrary values (GPUVerify's meaning)",
            m.external_functions.join(", ")
        ));
    }
    v
}

/// Loads `file` with the launch options `cli` (merged over its header lines) and binds its
/// arguments. Notes go to `note` as they arise.
pub fn prepare(
    file: &Path,
    cli: &LaunchSpec,
    note: &mut dyn FnMut(&str),
) -> Result<Prepared, Failure> {
    let fk = crate::load_kernel(file, cli).map_err(|e| Failure::new(e.exit_code(), e.report()))?;
    for n in module_notes(&fk.module) {
        note(&n);
    }
    let spec = fk.module.spec.clone();
    let mut kernel = fk.kernel;
    let launch = match fk.launch {
        Some(l) => LaunchConfig {
            grid: l.grid,
            block: l.block,
        },
        None => return Err(Failure::bad_input(
            "no launch geometry: give --grid and --block (or a //--gridDim= --blockDim= header)",
        )),
    };
    let src_params = fk.module.source.as_deref().and_then(|s| {
        let short = crate::compiler::demangle_simple(&kernel.name);
        source_params(s, short)
    });
    let params = Params::new(
        &kernel,
        src_params,
        local_param_indices(&fk.module, &kernel),
    );
    let mut specs: Vec<BufferSpec> = spec
        .buffers
        .iter()
        .map(|s| parse_buffer_spec(s))
        .collect::<Result<_, _>>()
        .map_err(|e| Failure::bad_input(format!("--buffer {e}")))?;
    // `__local` pointer parameters: a `--buffer` naming one gives its size.
    let mut module = fk.module;
    let extra_locals = params.take_local_buffers(&mut specs);
    module.spec.locals.extend(extra_locals);
    let locals = crate::frontend::attach_locals(
        &module,
        &mut kernel,
        &params.source_names,
        Some(&crate::LaunchConfig {
            grid: launch.grid,
            block: launch.block,
        }),
    );
    let scalars = params.scalars(&kernel, &spec, &locals, note);
    let (args, buffers) =
        bind(&kernel, params.source.as_deref(), &specs, &scalars).map_err(Failure::bad_input)?;
    Ok(Prepared {
        kernel,
        launch,
        args,
        buffers,
        module,
        local_params: locals.len(),
    })
}

/// The names a kernel's parameters go by (PTX name, `param_N`, `N`, source name), its
/// source-level parameters when known, and which are `__local` pointers.
struct Params {
    ptx_names: Vec<String>,
    source: Option<Vec<SourceParam>>,
    source_names: Vec<String>,
    local_idx: Vec<usize>,
}

impl Params {
    fn new(kernel: &Kernel, source: Option<Vec<SourceParam>>, local_idx: Vec<usize>) -> Params {
        let source_names = source
            .as_ref()
            .map(|v| v.iter().map(|p| p.name.clone()).collect())
            .unwrap_or_default();
        Params {
            ptx_names: kernel.params.iter().map(|p| p.name.clone()).collect(),
            source,
            source_names,
            local_idx,
        }
    }

    /// The names parameter `i` may be given by.
    fn names_of(&self, i: usize) -> Vec<String> {
        let mut v = vec![
            self.ptx_names[i].clone(),
            format!("param_{i}"),
            i.to_string(),
        ];
        if let Some(n) = self.source_names.get(i) {
            v.push(n.clone());
        }
        v
    }

    /// Removes the `--buffer`s that name a `__local` parameter; returns their sizes in
    /// bytes as `--local`s.
    fn take_local_buffers(&self, specs: &mut Vec<BufferSpec>) -> Vec<(String, u64)> {
        let mut extra_locals = Vec::new();
        specs.retain(|b| {
            match self
                .local_idx
                .iter()
                .find(|&&i| self.names_of(i).contains(&b.name))
            {
                Some(&i) => {
                    let elem = b
                        .elem
                        .or_else(|| {
                            self.source
                                .as_ref()
                                .and_then(|s| s.get(i))
                                .and_then(|p| p.elem)
                        })
                        .map_or(4, |e| e.size() as u64);
                    extra_locals.push((b.name.clone(), (b.count as u64 * elem).max(1)));
                    false
                }
                None => true,
            }
        });
        extra_locals
    }

    /// The scalar arguments: `--arg`s, the `__local` parameters' offsets, and GPUVerify's
    /// `--kernel-args` values for the scalar parameters in order (`*`: left free).
    fn scalars(
        &self,
        kernel: &Kernel,
        spec: &LaunchSpec,
        locals: &[LocalAlloc],
        note: &mut dyn FnMut(&str),
    ) -> Vec<(String, String)> {
        let mut scalars: Vec<(String, String)> = spec.args.clone();
        for l in locals {
            if l.defaulted {
                note(&format!(
                    "warning: __local parameter `{}` gets {} bytes per work-group (give --local {}=SIZE)",
                    l.name, l.bytes, l.name
                ));
            }
            scalars.push((format!("param_{}", l.param), l.offset.to_string()));
        }
        if spec.positional_args.is_empty() {
            return scalars;
        }
        let scalar_params: Vec<usize> = (0..kernel.params.len())
            .filter(|&i| {
                !self.local_idx.contains(&i)
                    && self
                        .source
                        .as_ref()
                        .and_then(|s| s.get(i))
                        .map_or(kernel.params[i].ty.bits != 64, |p| !p.pointer)
            })
            .collect();
        for (v, &i) in spec.positional_args.iter().zip(&scalar_params) {
            let bound = self
                .names_of(i)
                .iter()
                .any(|n| scalars.iter().any(|(s, _)| s == n));
            if v != "*" && !bound {
                scalars.push((format!("param_{i}"), v.clone()));
            }
        }
        scalars
    }
}

/// Indices of the `__local` (`.ptr .shared`) pointer parameters of `kernel`.
fn local_param_indices(m: &FrontModule, kernel: &Kernel) -> Vec<usize> {
    m.module
        .function(&kernel.name)
        .map(|f| {
            f.params
                .iter()
                .enumerate()
                .filter(|(_, p)| {
                    p.ptr.as_ref().and_then(|a| a.space).is_some_and(|s| {
                        matches!(
                            s,
                            weft_ptx::ast::StateSpace::Shared
                                | weft_ptx::ast::StateSpace::SharedCta
                        )
                    })
                })
                .map(|(i, _)| i)
                .collect()
        })
        .unwrap_or_default()
}

/// `weft ptx`: the PTX `file` compiles to (or, with `ir`, its kernels' lowered IR), every
/// kernel (or the spec's `--kernel`) lowered. Notes, and each construct a kernel uses that
/// the lowering does not support, go to `note`; `Ok(None)` when a kernel did not lower.
pub fn listing(
    file: &Path,
    cli: &LaunchSpec,
    ir: bool,
    note: &mut dyn FnMut(&str),
) -> Result<Option<String>, Failure> {
    let m = crate::load_module(file, cli).map_err(|e| Failure::new(e.exit_code(), e.report()))?;
    for n in module_notes(&m) {
        note(&n);
    }
    if m.without_line_tables {
        note(
            "note: clang crashed compiling with line tables; compiled without (findings name PTX lines)",
        );
    }
    let kernels = match crate::frontend::lower_all(&m) {
        Ok(k) => k,
        Err(errors) => {
            errors.iter().for_each(|e| note(&e.to_string()));
            return Ok(None);
        }
    };
    Ok(Some(if ir {
        kernels
            .iter()
            .map(weft_ptx::irprint::print_kernel)
            .collect::<String>()
    } else {
        m.ptx
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_ir::exit::ExitCode;

    const PTX: &str = "\
.version 7.0
.target sm_70
.address_size 64

.visible .entry k(
\t.param .u64 k_param_0,
\t.param .u32 k_param_1,
\t.param .u64 .ptr .shared .align 4 k_param_2
)
{
\tret;
}
";

    /// `k.ptx` in a fresh directory (no sibling source: PTX parameter names only); without
    /// `local`, the kernel has no `__local` parameter.
    fn kernel_file_with(local: bool) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.ptx");
        let text = if local {
            PTX.to_string()
        } else {
            PTX.replace(",\n\t.param .u64 .ptr .shared .align 4 k_param_2", "")
        };
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    fn kernel_file() -> (tempfile::TempDir, std::path::PathBuf) {
        kernel_file_with(true)
    }

    fn spec(flags: &[&str]) -> LaunchSpec {
        let mut s = LaunchSpec::default();
        for f in flags {
            s.apply_flag(f).unwrap();
        }
        s
    }

    #[test]
    fn binds_buffers_scalars_and_local_memory() {
        let (_d, path) = kernel_file();
        let s = LaunchSpec {
            buffers: vec!["0=16xi32:iota".into(), "param_2=8xf32".into()],
            ..spec(&["--grid=2", "--block=4", "--arg=1=7"])
        };
        let mut notes = Vec::new();
        let p = prepare(&path, &s, &mut |n| notes.push(n.to_string())).unwrap();
        assert_eq!(p.launch.grid, [2, 1, 1]);
        assert_eq!(p.launch.block, [4, 1, 1]);
        assert_eq!(p.local_params, 1);
        assert_eq!(p.buffers.len(), 1);
        assert_eq!(p.buffers[0].data.len(), 64);
        assert_eq!(p.args[0], Arg::Buffer(0));
        assert_eq!(p.args[1], Arg::Scalar(7));
        // The `__local` parameter is an offset into work-group memory.
        assert!(matches!(p.args[2], Arg::Scalar(_)));
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn defaulted_local_memory_is_noted() {
        let (_d, path) = kernel_file();
        let s = LaunchSpec {
            buffers: vec!["0=4".into()],
            ..spec(&["--grid=1", "--block=1", "--arg=1=0"])
        };
        let mut notes = Vec::new();
        prepare(&path, &s, &mut |n| notes.push(n.to_string())).unwrap();
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].starts_with("warning: __local parameter"),
            "{notes:?}"
        );
    }

    #[test]
    fn bad_launches_are_bad_input() {
        let (_d, path) = kernel_file();
        let none = &mut |_: &str| {};
        let no_geometry = prepare(&path, &spec(&[]), none).err().unwrap();
        assert_eq!(no_geometry.code, ExitCode::BadInput);
        assert!(no_geometry.message.starts_with("no launch geometry"));
        let s = LaunchSpec {
            buffers: vec!["0=4x?".into()],
            ..spec(&["--grid=1", "--block=1"])
        };
        let bad_buffer = prepare(&path, &s, none).err().unwrap();
        assert_eq!(bad_buffer.code, ExitCode::BadInput);
        assert!(bad_buffer.message.starts_with("--buffer "));
        let missing = prepare(Path::new("/nonexistent/k.ptx"), &spec(&[]), none)
            .err()
            .unwrap();
        assert_eq!(missing.code, ExitCode::BadInput);
    }

    #[test]
    fn a_sequence_shares_its_buffers() {
        let (_d, path) = kernel_file();
        let calls = [
            LaunchCall::parse("k<<<1, 4>>>(buf, 3)").unwrap(),
            LaunchCall::parse("k<<<2, 2>>>(buf, 5)").unwrap(),
        ];
        let none = &mut |_: &str| {};
        // Every parameter takes an argument.
        let one = LaunchSpec {
            buffers: vec!["buf=16xi32".into()],
            ..LaunchSpec::default()
        };
        let e = prepare_sequence(&path, &one, &calls, none).err().unwrap();
        assert_eq!(e.code, ExitCode::BadInput);
        assert_eq!(
            e.message,
            "--launch k<<<1,4>>>(buf, 3): k takes 3 arguments, 2 given"
        );
        // `__local` parameters have no place in a sequence.
        let base = LaunchSpec {
            buffers: vec!["buf=16xi32".into(), "lbuf=8".into()],
            ..LaunchSpec::default()
        };
        let local = [LaunchCall::parse("k<<<1, 4>>>(buf, 3, lbuf)").unwrap()];
        let e = prepare_sequence(&path, &base, &local, none).err().unwrap();
        assert!(
            e.message.contains("__local parameters are not supported"),
            "{}",
            e.message
        );
        // Options a launch gives itself are refused on the command line.
        let e = prepare_sequence(&path, &spec(&["--grid=1"]), &calls, none)
            .err()
            .unwrap();
        assert!(e.message.starts_with("with --launch"), "{}", e.message);
        let (_d2, plain) = kernel_file_with(false);
        let base = LaunchSpec {
            buffers: vec!["buf=16xi32".into()],
            ..LaunchSpec::default()
        };
        let seq = prepare_sequence(&plain, &base, &calls, none).unwrap();
        assert_eq!(seq.labels, ["k<<<1,4>>>(buf, 3)", "k<<<2,2>>>(buf, 5)"]);
        assert_eq!(seq.buffers.len(), 1);
        assert_eq!(seq.buffers[0].name, "buf");
        assert_eq!(seq.args[0], [Arg::Buffer(0), Arg::Scalar(3)]);
        assert_eq!(seq.args[1], [Arg::Buffer(0), Arg::Scalar(5)]);
        assert_eq!(seq.launches[1].grid, [2, 1, 1]);
        let unused = LaunchSpec {
            buffers: vec!["other=4".into()],
            ..LaunchSpec::default()
        };
        let e = prepare_sequence(&path, &unused, &calls[..0], none)
            .err()
            .unwrap();
        assert_eq!(e.message, "--buffer other is passed to no --launch");
    }
}
