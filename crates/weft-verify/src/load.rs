//! From a kernel file to reports: loads it through weft-cuda's kernel front-end (the one
//! every kernel command shares: GPUVerify-style header lines with `-D` defines, the PTX cache,
//! external functions, unsupported constructs named once), with the verifier's annotation
//! header force-included; maps the header's analysis flags onto [`Options`]; lowers and
//! verifies every kernel of the module, or the one asked for.

use std::path::{Path, PathBuf};

use crate::header::{apply_flags, ANNOTATIONS_H, ANNOTATIONS_NAME};
use crate::{verify, Names, Options, Report, Verdict, VerifyError};

/// Per-file options on top of [`Options`].
#[derive(Clone, Debug, Default)]
pub struct FileOptions {
    pub kernel: Option<String>,
    pub defines: Vec<String>,
    /// `--grid` / `--block` from the command line (override the header); a `*` component
    /// is any extent.
    pub grid: Option<weft_cuda::Dims>,
    pub block: Option<weft_cuda::Dims>,
    /// GPUVerify flags from the command line (applied after the header's).
    pub flags: Vec<String>,
    /// `Some(false)`: `--no-lockstep`; `Some(true)`: lock-step asked on the command line.
    pub lockstep: Option<bool>,
    /// Also verify without lock-step and report what relies on it.
    pub report_both: bool,
    /// `--template 'k<float>'`: instantiations of template kernels to verify.
    pub templates: Vec<String>,
    /// When errors are found (and `--assume-no-overflow` is off): verify again assuming no
    /// 32-bit wrap-around and say which errors need one.
    pub explain_overflow: bool,
}

/// Verifies the kernels of `path`.
pub fn verify_file(
    path: &Path,
    base: &Options,
    fo: &FileOptions,
) -> Result<Vec<Report>, VerifyError> {
    let bad = VerifyError::Unsupported;
    if !crate::smt::available(base.solver) {
        return Err(VerifyError::Tool(format!(
            "the SMT solver `{}` is not installed (Debian package `{}`)",
            base.solver.name(),
            base.solver.name()
        )));
    }
    let mut cli = launch_spec(fo)?;
    let mut notes = Vec::new();
    let (original, mut rewritten, contracts) = rewrite_source(path, fo, &mut notes);
    let m = compile(path, &mut cli, &original, &mut rewritten, &mut notes)?;
    let spec = &m.spec;
    let mut o = analysis_options(path, spec, base, fo, &mut notes)?;
    let text = match original {
        Some(t) if rewritten.is_some() => t,
        _ => m.source.clone().unwrap_or_default(),
    };
    o.contracts = if rewritten.is_some() {
        contracts
    } else {
        crate::contract::scan(&text)
    };
    let names: Vec<String> = match &fo.kernel {
        Some(k) => vec![k.clone()],
        None => m.module.kernels().map(|k| k.name.clone()).collect(),
    };
    if names.is_empty() {
        // A template kernel that nothing instantiates is not in the module: say why.
        let why: Vec<&String> = notes
            .iter()
            .filter(|n| n.contains("has no instantiation"))
            .collect();
        let mut msg = format!("{}: no kernel in the file", path.display());
        for w in why {
            msg.push_str(&format!(" ({w})"));
        }
        return Err(bad(msg));
    }
    if let Some(reports) = misplaced_invariant_reports(path, &o, &text, &names, &notes) {
        return Ok(reports);
    }
    let scope = RaceScope::of(spec.ignored.iter().chain(fo.flags.iter()));
    if let Some(missing) = scope.missing_array(&text) {
        return Err(bad(format!(
            "{}: array `{missing}` named by --vcgen-opt=/checkArrays is not in the file",
            path.display()
        )));
    }
    let uninit = uninitialised_reads(&m.warnings);
    let mut reports = Vec::new();
    for n in names {
        let k = weft_cuda::frontend::lower(&m, Some(&n)).map_err(|e| bad(e.to_string()))?;
        let short = weft_cuda::compiler::demangle_simple(&k.name).to_string();
        let nm = Names {
            params: source_params(&text, &short),
        };
        let o = with_int_params(&o, &m.module, &k.name);
        let mut r = verify(&k, &o, &nm)?;
        r.kernel = short;
        if !uninit.is_empty() {
            r.findings.splice(0..0, uninit.iter().cloned());
            r.verdict = Verdict::Errors;
        }
        r.notes.splice(0..0, notes.iter().cloned());
        scope.apply(&mut r);
        // The second run costs another verification (bounded, see `explain_overflow`): done
        // for kernels that took at most 20 s the first time.
        if fo.explain_overflow
            && !o.assume_no_overflow
            && r.verdict == Verdict::Errors
            && r.time_ms <= 20_000
        {
            explain_overflow(&k, &o, &nm, &mut r);
        }
        if o.lockstep && fo.report_both && r.verdict == Verdict::Verified {
            let mut o2 = o.clone();
            o2.lockstep = false;
            if let Ok(r2) = verify(&k, &o2, &nm) {
                if r2.verdict == Verdict::Errors {
                    r.notes.push(format!(
                        "verified only under lock-step warps of {}: without lock-step (independent thread scheduling, Volta and later) {} possible error(s), e.g. {}",
                        o.warp_size,
                        r2.findings.len(),
                        r2.findings[0].message
                    ));
                }
            }
        }
        // GPUVerify's flags that ignore annotations ignore postconditions too.
        if !o.ignore_assumes {
            r.not_checked = crate::unchecked::postconditions(&text, &o.contracts, &r.kernel);
            if !r.not_checked.is_empty()
                && matches!(r.verdict, Verdict::Verified | Verdict::Bounded)
            {
                r.verdict = Verdict::Incomplete;
            }
        }
        reports.push(r);
    }
    Ok(reports)
}

/// The front end's options for the verifier: the command line's kernel and defines, the
/// annotation header, and the compiler flags that keep undefined behaviour visible.
fn launch_spec(fo: &FileOptions) -> Result<weft_cuda::LaunchSpec, VerifyError> {
    Ok(weft_cuda::LaunchSpec {
        kernel: fo.kernel.clone(),
        // OpenCL's cos, sin, tan, pow and fmod as opaque PTX instructions, not libclc's
        // bit-level code (weft_opencl.h: `WEFT_OPAQUE_FLOAT_MATH`).
        defines: std::iter::once("WEFT_OPAQUE_FLOAT_MATH".to_string())
            .chain(fo.defines.iter().cloned())
            .collect(),
        force_includes: vec![annotation_header()?],
        // Undefined behaviour must not make code vanish: an access through a null pointer
        // stays an access (`-fno-delete-null-pointer-checks`: clang would delete the branch
        // that makes it), reported as a null-pointer access; other code clang finds
        // unreachable (an out-of-bounds access, a call through an invalid function pointer)
        // becomes a `trap`, reported where reachable (the one after a failed `assert`'s call,
        // which does not return, is the assertion's).
        compiler_args: [
            "-fno-delete-null-pointer-checks",
            "-mllvm",
            "-trap-unreachable",
        ]
        .map(String::from)
        .to_vec(),
        ..weft_cuda::LaunchSpec::default()
    })
}

/// The source as written and, where weft rewrites it (postconditions moved to their return,
/// template instantiations, enum parameters, `__device__ __shared__` locals), the rewritten
/// text, with the file's contracts; `notes` gets what the rewrites assume.
fn rewrite_source(
    path: &Path,
    fo: &FileOptions,
    notes: &mut Vec<String>,
) -> (Option<String>, Option<String>, crate::contract::Contracts) {
    // Postconditions of functions with a body are moved to their return
    // (`contract::ensures_on_return`): the rewritten source (same lines, same file name) is
    // compiled from the temporary directory, with the kernel's directory searched for its
    // includes.
    let original = std::fs::read_to_string(path).ok();
    let mut contracts = original
        .as_deref()
        .map(crate::contract::scan)
        .unwrap_or_default();
    let mut rewritten = match (&original, path.extension().and_then(|e| e.to_str())) {
        (Some(t), Some("cu" | "cl")) => crate::contract::ensures_on_return(t, &mut contracts),
        _ => None,
    };
    // Template kernels: the instantiations asked for (`--template`), else the template's
    // defaults where the file's host code launches none (weft-cuda's `templates`).
    if let (Some(t), Some("cu")) = (&original, path.extension().and_then(|e| e.to_str())) {
        let (extra, tnotes) = weft_cuda::templates::instantiations(t, &fo.templates);
        notes.extend(tnotes);
        if !extra.is_empty() {
            let mut r = rewritten.take().unwrap_or_else(|| t.clone());
            r.push_str(&extra);
            rewritten = Some(r);
        }
    }
    // Enum-typed kernel parameters take only their enumerators' values (assumed at the
    // kernel's entry, weft-cuda's `enums`).
    if let (Some(t), Some("cu" | "cl")) = (&original, path.extension().and_then(|e| e.to_str())) {
        let base = rewritten.clone().unwrap_or_else(|| t.clone());
        if let Some(r) = weft_cuda::enums::restrict_enum_params(&base) {
            rewritten = Some(r);
            notes.push(
                "enum-typed kernel parameters are assumed to hold one of their enumerators"
                    .to_string(),
            );
        }
    }
    // `__device__ __shared__` on a kernel's local array (gpgpu-sim's DG kernels; nvcc and
    // GPUVerify accept it): clang refuses `__device__` on a local variable, and `__shared__`
    // alone means the same, at file scope too.
    if let (Some(t), Some("cu")) = (&original, path.extension().and_then(|e| e.to_str())) {
        let base = rewritten.as_ref().unwrap_or(t);
        if base.contains("__device__ __shared__") {
            rewritten = Some(base.replace("__device__ __shared__", "__shared__"));
        }
    }
    (original, rewritten, contracts)
}

/// Compiles the kernel file (the rewritten source when there is one) through weft-cuda's
/// front end, with the retries below, and adds the file's axioms to every kernel.
fn compile(
    path: &Path,
    cli: &mut weft_cuda::LaunchSpec,
    original: &Option<String>,
    rewritten: &mut Option<String>,
    notes: &mut Vec<String>,
) -> Result<weft_cuda::frontend::FrontModule, VerifyError> {
    let bad = VerifyError::Unsupported;
    let compiled_path = match (&rewritten, path.file_name().and_then(|n| n.to_str())) {
        (Some(t), Some(name)) => {
            let dir = path.parent().unwrap_or(Path::new("."));
            cli.include_dirs.push(
                if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                }
                .to_path_buf(),
            );
            by_content(name, t)?
        }
        _ => path.to_path_buf(),
    };
    // Shared memory is compiled volatile (see `weft_verify.h`); a kernel that does not
    // compile so is compiled again with plain shared memory.
    // A program that declares a type name of the C library again with another type
    // (GPUVerify's kernels: `typedef unsigned int size_t;`) is compiled again with its
    // declaration renamed (`weft_cuda::headers::typedef_clash_defines`).
    let load = |file: &Path, cli: &weft_cuda::LaunchSpec| {
        let bad_input =
            |e: &weft_cuda::FrontendError| e.exit_code() == weft_ir::exit::ExitCode::BadInput;
        let e = match weft_cuda::frontend::load_module(file, cli) {
            Err(e) if bad_input(&e) => e,
            r => return r,
        };
        let mut retry = cli.clone();
        let renames = weft_cuda::headers::typedef_clash_defines(&format!("{e}\n{}", e.report()));
        if !renames.is_empty() {
            retry.defines.extend(renames);
            match weft_cuda::frontend::load_module(file, &retry) {
                Err(e) if bad_input(&e) => {}
                r => return r,
            }
        }
        retry.defines.push("WEFT_VERIFY_PLAIN_SHARED".into());
        weft_cuda::frontend::load_module(file, &retry)
    };
    let bad_input =
        |e: &weft_cuda::FrontendError| e.exit_code() == weft_ir::exit::ExitCode::BadInput;
    let m = match load(&compiled_path, cli) {
        // The rewritten source does not compile (a member function, a construct the
        // rewrite does not foresee): the kernel as written, its postconditions unchecked.
        Err(e) if rewritten.is_some() && bad_input(&e) => {
            *rewritten = None;
            load(path, cli)
        }
        r => r,
    };
    // A CUDA file-scope variable without `__device__` used in device code (clang: "reference
    // to __host__ variable"): GPUVerify reads it as global memory; so does weft, compiling
    // again with `__device__` put before its declaration line.
    let m = match m {
        Err(e) if bad_input(&e) => {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let lines = weft_cuda::headers::host_variable_lines(&e.report(), name);
            match rewritten.clone().or_else(|| original.clone()) {
                Some(t) if !lines.is_empty() => {
                    let fixed = weft_cuda::headers::declare_on_device(&t, &lines);
                    let mut c2 = cli.clone();
                    let dir = path.parent().unwrap_or(Path::new("."));
                    c2.include_dirs.push(if dir.as_os_str().is_empty() {
                        PathBuf::from(".")
                    } else {
                        dir.to_path_buf()
                    });
                    match load(&by_content(name, &fixed)?, &c2) {
                        Ok(m) => {
                            *rewritten = Some(fixed);
                            notes.push(format!(
                                "file-scope variable(s) without `__device__` used in device code (line(s) {}) read as `__device__` variables, as GPUVerify reads them",
                                lines.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", ")
                            ));
                            Ok(m)
                        }
                        Err(_) => Err(e),
                    }
                }
                _ => Err(e),
            }
        }
        r => r,
    }
    .map_err(|e| match e.exit_code() {
        weft_ir::exit::ExitCode::Internal => VerifyError::Tool(e.to_string()),
        _ => bad(e.report()),
    })?;
    let m = with_axioms(m).map_err(bad)?;
    Ok(m)
}

/// The analysis options: `base`, the header's GPUVerify flags, the command line's flags,
/// lock-step and the launch geometry; `notes` gets the ignored flags and the geometry.
fn analysis_options(
    path: &Path,
    spec: &weft_cuda::LaunchSpec,
    base: &Options,
    fo: &FileOptions,
    notes: &mut Vec<String>,
) -> Result<Options, VerifyError> {
    let bad = VerifyError::Unsupported;
    let mut o = base.clone();
    if let Some(w) = spec.flags.warp_sync {
        o.lockstep = true;
        o.warp_size = w;
    }
    let mut header_flags: Vec<String> = Vec::new();
    for (on, name) in [
        (spec.flags.equality_abstraction, "--equality-abstraction"),
        (
            spec.flags.adversarial_abstraction,
            "--adversarial-abstraction",
        ),
        (spec.flags.only_intra_group, "--only-intra-group"),
        (spec.flags.check_array_bounds, "--check-array-bounds"),
        (
            spec.flags.no_barrier_access_checks,
            "--no-barrier-access-checks",
        ),
    ] {
        if on {
            header_flags.push(name.to_string());
        }
    }
    header_flags.extend(spec.ignored.iter().cloned());
    let unknown = apply_flags(&mut o, &header_flags);
    if let (Some(k), false) = (&spec.kernel, spec.positional_args.is_empty()) {
        let vals = spec
            .positional_args
            .iter()
            .map(|v| crate::header::kernel_arg_value(v));
        o.kernel_args = Some((k.clone(), vals.collect()));
    }
    if !unknown.is_empty() {
        notes.push(format!("header flags ignored: {}", unknown.join(" ")));
    }
    let unknown = apply_flags(&mut o, &fo.flags);
    if !unknown.is_empty() {
        return Err(bad(format!(
            "unknown analysis flags: {}",
            unknown.join(" ")
        )));
    }
    if let Some(l) = fo.lockstep {
        o.lockstep = l;
    }
    let (grid, block) =
        launch_geometry(spec, fo).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    o.grid = grid.map(|d| d.unwrap_or(1));
    o.block = block.map(|d| d.unwrap_or(1));
    o.grid_any = grid.map(|d| d.is_none());
    o.block_any = block.map(|d| d.is_none());
    if let Some(n) = geometry_note(
        grid,
        block,
        spec.has_geometry() || fo.grid.is_some() || fo.block.is_some(),
    ) {
        notes.push(n);
    }
    Ok(o)
}

/// GPUVerify's rule: a user invariant stands in its loop's condition, without branches; a
/// file that breaks it gets one `invariant` error per kernel and nothing else is checked.
fn misplaced_invariant_reports(
    path: &Path,
    o: &Options,
    text: &str,
    names: &[String],
    notes: &[String],
) -> Option<Vec<Report>> {
    let misplaced = if o.ignore_invariants {
        Vec::new()
    } else {
        crate::placement::misplaced_invariants(text)
    };
    if !misplaced.is_empty() {
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let findings: Vec<crate::Finding> = misplaced
            .iter()
            .map(|m| crate::Finding {
                kind: "invariant".into(),
                message: format!(
                    "user-specified invariant does not appear at the loop head: {}",
                    m.why
                ),
                array: None,
                access_s: None,
                access_t: None,
                loc_s: None,
                loc_t: format!("{file}:{}", m.line),
                thread_s: Default::default(),
                thread_t: Default::default(),
                values: Default::default(),
                pass: "all".into(),
            })
            .collect();
        return Some(
            names
                .iter()
                .map(|n| Report {
                    kernel: weft_cuda::compiler::demangle_simple(n).to_string(),
                    verdict: Verdict::Errors,
                    findings: findings.clone(),
                    undecided: 0,
                    checks: 0,
                    notes: notes.to_vec(),
                    not_checked: Vec::new(),
                    time_ms: 0,
                })
                .collect(),
        );
    }
    None
}

/// GPUVerify's flags that narrow which races are checked, from the header line or the
/// command line: `--only-log` (accesses are logged, no race is checked) and
/// `--vcgen-opt=/checkArrays:A,B` (GPUVerify's suite also writes `--vcgen-op=`: races are
/// checked on those arrays only). Everything else (assertions, barrier divergence) is still
/// checked; a note says what was left out, so "verified" states the premise it holds under.
#[derive(Clone, Debug, Default)]
struct RaceScope {
    only_log: bool,
    arrays: Option<Vec<String>>,
}

impl RaceScope {
    fn of<'a>(flags: impl Iterator<Item = &'a String>) -> RaceScope {
        let mut s = RaceScope::default();
        for f in flags {
            if f == "--only-log" {
                s.only_log = true;
            }
            let v = f
                .strip_prefix("--vcgen-opt=")
                .or_else(|| f.strip_prefix("--vcgen-op="));
            if let Some(list) = v.and_then(|v| v.strip_prefix("/checkArrays:")) {
                let names = list.split(',').map(|n| n.trim().to_string());
                s.arrays
                    .get_or_insert_with(Vec::new)
                    .extend(names.filter(|n| !n.is_empty()));
            }
        }
        s
    }

    /// A `/checkArrays` name that is no identifier of the source (GPUVerify refuses it).
    fn missing_array(&self, text: &str) -> Option<String> {
        // The code's words, not the comments' (the header line itself names the arrays).
        let words: std::collections::HashSet<&str> = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or_default())
            .flat_map(|l| l.split(|c: char| !(c.is_alphanumeric() || c == '_')))
            .collect();
        self.arrays
            .as_ref()?
            .iter()
            .find(|a| !words.contains(a.as_str()))
            .cloned()
    }

    /// Drops the race findings the flags leave unchecked and says so.
    fn apply(&self, r: &mut Report) {
        if !self.only_log && self.arrays.is_none() {
            return;
        }
        r.findings.retain(|f| {
            f.kind != "race"
                || (!self.only_log
                    && self
                        .arrays
                        .as_ref()
                        .is_none_or(|a| f.array.as_ref().is_some_and(|n| a.iter().any(|x| x == n))))
        });
        if r.verdict == Verdict::Errors && r.findings.is_empty() {
            r.verdict = if r.undecided > 0 {
                Verdict::Unknown
            } else {
                Verdict::Verified
            };
        }
        r.notes.push(if self.only_log {
            "races not checked (--only-log): assertions and barriers only".to_string()
        } else {
            format!(
                "races checked on {} only (--vcgen-opt=/checkArrays)",
                self.arrays
                    .iter()
                    .flatten()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
    }
}

/// Launch extents per dimension, `None` for any.
pub type LaunchDims = [Option<u32>; 3];

/// The launch to verify for, per dimension (`None`: any extent): the command line's
/// `--grid`/`--block`, else the header's (`--gridDim`/`--num_groups`, or `--global_size`
/// divided by the block), a dimension given as `*` is any, and a launch option left out
/// entirely is `*`: any x extent (never one thread), y and z 1; the omitted y and z
/// components of a given option are 1 too, as in GPUVerify's headers.
pub fn launch_geometry(
    spec: &weft_cuda::LaunchSpec,
    fo: &FileOptions,
) -> Result<(LaunchDims, LaunchDims), String> {
    const ANY_X: LaunchDims = [None, Some(1), Some(1)];
    let block = fo.block.or(spec.block).map_or(ANY_X, |d| d.0);
    let grid = match (fo.grid.or(spec.grid), spec.global_size) {
        (Some(g), _) => g.0,
        (None, Some(gs)) => {
            let mut n = [None; 3];
            for i in 0..3 {
                n[i] = match (gs.0[i], block[i]) {
                    (Some(g), Some(b)) if g % b != 0 => {
                        return Err(format!(
                            "global size {} is not a multiple of the local size in dimension {i}",
                            gs
                        ))
                    }
                    (Some(g), Some(b)) => Some(g / b),
                    _ => None,
                };
            }
            n
        }
        (None, None) => ANY_X,
    };
    if grid.iter().chain(block.iter()).any(|&d| d == Some(0)) {
        return Err("launch dimensions must be positive".into());
    }
    Ok((grid, block))
}

/// The note saying what a launch with `*` dimensions means (none for a fixed launch).
fn geometry_note(grid: LaunchDims, block: LaunchDims, given: bool) -> Option<String> {
    if grid.iter().chain(block.iter()).all(Option::is_some) {
        return None;
    }
    let show = |d: [Option<u32>; 3]| {
        let v: Vec<String> = d
            .iter()
            .map(|x| x.map_or("*".into(), |v| v.to_string()))
            .collect();
        format!("[{}]", v.join(","))
    };
    let limits = "any extent within CUDA's launch limits: blocks of at most 1024 threads (x, y <= 1024, z <= 64), grids of at most 2^31-1 x 65535 x 65535 blocks";
    Some(if given {
        format!(
            "launch: grid {}, block {} (`*` or left out: {limits})",
            show(grid),
            show(block)
        )
    } else {
        format!("no launch geometry given: verifying for every 1-D launch, grid [*,1,1] and block [*,1,1] ({limits}; give --grid/--block, `*` allowed, for others)")
    })
}

/// Verifies `k` again under `--assume-no-overflow` and marks each finding of `r` that is
/// then gone: it exists only when some 32-bit integer addition, subtraction or multiplication
/// wraps around (real for huge grids or inputs, so it stays reported). Nothing is marked
/// when the second run does not decide every check.
fn explain_overflow(k: &weft_ir::kernel::Kernel, o: &Options, nm: &Names, r: &mut Report) {
    let mut o2 = o.clone();
    o2.assume_no_overflow = true;
    // The no-wrap assumptions make multiplications non-linear for the solver: the second run
    // gets twice the first one's time (at least 10 s); undecided, it marks nothing.
    let budget = std::time::Duration::from_millis((r.time_ms as u64).saturating_mul(2).max(10_000));
    let end = std::time::Instant::now() + budget;
    o2.deadline = Some(o.deadline.map_or(end, |d| d.min(end)));
    let Ok(r2) = verify(k, &o2, nm) else { return };
    if r2.undecided > 0 {
        return;
    }
    let key = |f: &crate::Finding| {
        (
            f.kind.clone(),
            f.loc_s.clone(),
            f.loc_t.clone(),
            f.array.clone(),
        )
    };
    let kept: Vec<_> = r2.findings.iter().map(key).collect();
    let mut n = 0;
    for f in r.findings.iter_mut() {
        if f.kind != "uninitialised" && !kept.contains(&key(f)) {
            f.message.push_str(
                " [only when 32-bit integer arithmetic wraps around: not reported with --assume-no-overflow]",
            );
            n += 1;
        }
    }
    if n > 0 {
        r.notes.push(format!(
            "{n} of the {} possible error(s) need a 32-bit integer wrap-around (index arithmetic over huge grids or inputs); --assume-no-overflow verifies under mathematical integers",
            r.findings.len()
        ));
    }
}

/// clang's `-Wuninitialized` / `-Wsometimes-uninitialized` warnings (enabled by
/// `weft_verify.h`) as findings: a read of an uninitialised local variable has no defined
/// value (GPUVerify havocs it), and the code clang emits for it is whatever its optimiser
/// chose, so weft reports the read instead of verifying that code. Every kernel of the file
/// gets them (the warning does not say which kernel it is in).
fn uninitialised_reads(warnings: &str) -> Vec<crate::Finding> {
    let mut out: Vec<crate::Finding> = Vec::new();
    for l in warnings.lines() {
        let Some((at, msg)) = l.split_once(": warning: ") else {
            continue;
        };
        if !(msg.contains("[-Wuninitialized]") || msg.contains("[-Wsometimes-uninitialized]")) {
            continue;
        }
        // `path:line:col`: keep the file name and the line.
        let mut parts = at.rsplitn(3, ':');
        let (_col, line, file) = (parts.next(), parts.next(), parts.next());
        let file = file
            .map(|f| f.rsplit('/').next().unwrap_or(f).to_string())
            .unwrap_or_default();
        let loc = format!("{file}:{}", line.unwrap_or("?"));
        let what = msg.split(" [-W").next().unwrap_or(msg);
        if out
            .iter()
            .any(|f| f.loc_t == loc && f.message.contains(what))
        {
            continue;
        }
        out.push(crate::Finding {
            kind: "uninitialised".into(),
            message: format!("possible read of an uninitialised local variable at {loc} (clang: {what}): its value is undefined"),
            array: None,
            access_s: None,
            access_t: None,
            loc_s: None,
            loc_t: loc,
            thread_s: Default::default(),
            thread_t: Default::default(),
            values: Default::default(),
            pass: "all".into(),
        });
    }
    out
}

/// The annotation header, written once per content under the temporary directory (its
/// path names its content, so the front-end's PTX cache stays valid and concurrent
/// verifications share it).
fn annotation_header() -> Result<PathBuf, VerifyError> {
    by_content(ANNOTATIONS_NAME, ANNOTATIONS_H)
}

/// `text` written to `name` in a directory of the temporary directory named by the content's
/// hash, once (written under a unique name, then renamed: a reader never sees a partial file).
fn by_content(name: &str, text: &str) -> Result<PathBuf, VerifyError> {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let dir = std::env::temp_dir().join(format!("weft-verify-{hash:016x}"));
    let file = dir.join(name);
    if std::fs::read_to_string(&file).is_ok_and(|t| t == text) {
        return Ok(file);
    }
    let tool = |e: std::io::Error| VerifyError::Tool(format!("writing {}: {e}", file.display()));
    std::fs::create_dir_all(&dir).map_err(tool)?;
    let tmp = dir.join(format!("{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(tool)?;
    std::fs::rename(&tmp, &file).map_err(tool)?;
    Ok(file)
}

/// Parameter names of kernel `name` in the source (`__global__ void name(int *a, ...)`).
fn source_params(src: &str, name: &str) -> Vec<String> {
    let mut from = 0;
    while let Some(i) = src[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        let before = src[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = src[from..].trim_start();
        if !rest.starts_with('(') {
            continue;
        }
        let Some(close) = rest.find(')') else {
            continue;
        };
        return rest[1..close]
            .split(',')
            .map(|p| {
                p.trim()
                    .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
    }
    Vec::new()
}

/// GPUVerify's file-scope `__axiom(e)` (weft-cuda's header makes each one a function
/// `__weft_axiom_N` holding the annotation, never called): a call of every such function is
/// put at the start of every kernel of the PTX, so the kernel assumes the axioms on entry.
fn with_axioms(
    mut m: weft_cuda::frontend::FrontModule,
) -> Result<weft_cuda::frontend::FrontModule, String> {
    let axioms: Vec<String> = m
        .module
        .functions()
        .filter(|f| f.name.starts_with("__weft_axiom_"))
        .map(|f| f.name.clone())
        .collect();
    if axioms.is_empty() {
        return Ok(m);
    }
    let calls: String = axioms
        .iter()
        .map(|a| format!("\n\t{{\n\tcall.uni {a}, ();\n\t}}"))
        .collect();
    let mut out = String::with_capacity(m.ptx.len() + calls.len() * 4);
    let mut rest = m.ptx.as_str();
    while let Some(i) = rest.find(".entry ") {
        // The body opens at the first `{` after the parameter list.
        let after = &rest[i..];
        let Some(close) = after.find(')') else { break };
        let Some(open) = after[close..].find('{') else {
            break;
        };
        let at = i + close + open + 1;
        out.push_str(&rest[..at]);
        out.push_str(&calls);
        rest = &rest[at..];
    }
    out.push_str(rest);
    m.module = weft_ptx::parser::parse(&out).map_err(|e| format!("axioms: {e}"))?;
    m.ptx = out;
    Ok(m)
}

/// `o` with [`Options::int_params`] for kernel `name` of `module`: when some parameter of the
/// entry carries a `.ptr` attribute (clang marks every OpenCL pointer parameter so), the
/// scalar parameters without one are integers. A byte-array parameter (a structure passed
/// by value, `.param .b8 p[N]`) may hold pointers and is left out.
fn with_int_params(o: &Options, module: &weft_ptx::ast::Module, name: &str) -> Options {
    let mut o = o.clone();
    if let Some(f) = module.kernels().find(|f| f.name == name) {
        if f.params.iter().any(|p| p.ptr.is_some()) {
            o.int_params = (0..f.params.len() as u32)
                .filter(|&i| {
                    let p = &f.params[i as usize];
                    p.ptr.is_none() && p.dims.is_empty()
                })
                .collect();
        }
    }
    o
}
