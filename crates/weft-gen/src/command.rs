//! `weft gen`'s work below its argument parsing: the format and scope named on the command
//! line, an enumeration run and written into a directory with its `@all` index, and the
//! `--mutants` suite written with its metadata files. Each returns the line the command
//! prints, or a [`Failure`] whose message the binary prints after `weft gen: `. The model
//! that labels tests (`--check`, the mutants' verdicts) is the caller's, so that this crate
//! does not depend on a simulator.

use std::path::Path;

use weft_ir::exit::Failure;
use weft_ir::{Program, Scope};
use weft_litmus::Format;

use crate::build::BuildOptions;
use crate::edge::Edge;
use crate::enumerate::{enumerate, EnumError, Spec};
use crate::suite::{build_suite, Labeller};

/// The output format named by `--format`.
pub fn format(name: &str) -> Result<Format, Failure> {
    Format::from_name(name).ok_or_else(|| {
        Failure::bad_input(format!(
            "unknown format `{name}` (expected c, ptx, gpu_ptx, vulkan, opencl or json)"
        ))
    })
}

/// The build options of `--scope` (the scope of accesses and fences without a qualifier).
pub fn build_options(scope: &str) -> Result<BuildOptions, Failure> {
    let default_scope = match scope {
        "cta" | "wg" => Scope::Cta,
        "gpu" | "dv" => Scope::Gpu,
        "sys" => Scope::System,
        s => {
            return Err(Failure::bad_input(format!(
                "unknown scope `{s}` (expected cta, gpu or sys)"
            )))
        }
    };
    Ok(BuildOptions {
        default_scope,
        ..BuildOptions::default()
    })
}

/// An enumeration as the command line gives it (diy7's options).
#[derive(Clone, Debug, Default)]
pub struct Enumeration {
    /// Relaxed and safe edges, comma-separated; both absent: diy7's defaults for `-arch C`.
    pub relax: Option<String>,
    pub safe: Option<String>,
    pub size: usize,
    pub nprocs: usize,
    pub max_tests: usize,
    /// Seconds before the enumeration gives up.
    pub timeout: Option<u64>,
    pub ins: usize,
    pub mix: bool,
    pub max_relax: Option<usize>,
}

fn edges(s: &Option<String>) -> Result<Vec<Edge>, String> {
    match s {
        Some(t) => Edge::parse_list(t).map_err(|e| e.to_string()),
        None => Ok(Vec::new()),
    }
}

/// Enumerates `e`, builds every test in `format` (labelled by `label` when given) and
/// writes them into `dir` with the `@all` index; returns the summary line. Nothing is
/// written when the enumeration fails.
pub fn write_enumeration(
    e: &Enumeration,
    dir: Option<&Path>,
    format: Format,
    opts: &BuildOptions,
    label: Option<&Labeller>,
) -> Result<String, Failure> {
    let (relax, safe) = match (edges(&e.relax), edges(&e.safe)) {
        (Ok(r), Ok(s)) => (r, s),
        (Err(m), _) | (_, Err(m)) => return Err(Failure::bad_input(m)),
    };
    let Some(dir) = dir else {
        return Err(Failure::bad_input(
            "give --cycle, or an enumeration with -o DIR",
        ));
    };
    let defaults = relax.is_empty() && safe.is_empty();
    let spec = Spec {
        relax,
        safe,
        size: e.size,
        nprocs: e.nprocs,
        mix: e.mix || e.max_relax.is_some(),
        max_relax: e.max_relax.unwrap_or(usize::MAX),
        placement: opts.default_placement,
        ins: e.ins,
        max_tests: e.max_tests,
        deadline: e
            .timeout
            .map(|s| std::time::Instant::now() + std::time::Duration::from_secs(s)),
    };
    // No edge sets: diy7's defaults for -arch C (composite edges such as ACFenceScdRW).
    let found = if defaults {
        let (r, s) = crate::enumerate::diy7_c_defaults();
        let g = crate::enumerate::enumerate_sequences(&r, &s, spec.size, spec.nprocs, spec.ins);
        if g.len() > spec.max_tests {
            Err(EnumError::TooMany(spec.max_tests))
        } else {
            Ok(g)
        }
    } else {
        enumerate(&spec)
    };
    let tests = found.map_err(|e| match e {
        EnumError::TooMany(_) => Failure::bad_input(e.to_string()),
        EnumError::Timeout => Failure::tool(e.to_string()),
    })?;
    // Build everything first so that nothing is half-written on error.
    let ext = if format == Format::Json {
        "json"
    } else {
        "litmus"
    };
    let (files, skipped) = build_suite(&tests, opts, format, label);
    std::fs::create_dir_all(dir)
        .map_err(|err| Failure::tool(format!("cannot create {}: {err}", dir.display())))?;
    let header = format!(
        "# weft gen --size {} --nprocs {}{}{}{} --format {}\n",
        e.size,
        e.nprocs,
        e.relax
            .as_ref()
            .map(|r| format!(" --relax {r}"))
            .unwrap_or_default(),
        e.safe
            .as_ref()
            .map(|r| format!(" --safe {r}"))
            .unwrap_or_default(),
        if spec.mix { " --mix" } else { "" },
        format.name()
    );
    let (index, allowed, forbidden) = crate::suite::index(&header, ext, &files, &skipped);
    for f in &files {
        let file = format!("{}.{ext}", f.name);
        std::fs::write(dir.join(&file), &f.text)
            .map_err(|err| Failure::tool(format!("cannot write {file}: {err}")))?;
    }
    std::fs::write(dir.join("@all"), index)
        .map_err(|err| Failure::tool(format!("cannot write @all: {err}")))?;
    let mut msg = format!("generated {} tests in {}", files.len(), dir.display());
    if label.is_some() {
        msg.push_str(&format!(" ({allowed} allowed, {forbidden} forbidden)"));
    }
    if !skipped.is_empty() {
        msg.push_str(&format!(
            "; skipped {} that {} cannot express (reasons in @all)",
            skipped.len(),
            format.name()
        ));
    }
    Ok(msg)
}

/// `--mutants SRC -o DIR`: GPUHarbor's tests read by `load` (by weft name), the mutants and
/// conformance tests judged by `verdict` and written into `out` with their `.meta.json`
/// files and the `@all` index; returns the summary line. Several tests that cannot be
/// built are reported together, one per line.
pub fn write_mutants(
    src: &Path,
    out: Option<&Path>,
    load: &dyn Fn(&str) -> Option<Program>,
    verdict: &dyn Fn(&Program) -> Result<&'static str, String>,
) -> Result<String, Failure> {
    let Some(out) = out else {
        return Err(Failure::bad_input("--mutants needs -o DIR"));
    };
    let ms = crate::mutants::gpuharbor_mutants(load)
        .map_err(|e| Failure::bad_input(format!("{}: {e}", src.display())))?;
    let files = crate::mutant_suite::files(load, ms)
        .map_err(|errors| Failure::bad_input(errors.join("\nweft gen: ")))?;
    let written = crate::mutant_suite::finish(files, verdict).map_err(Failure::tool)?;
    std::fs::create_dir_all(out)
        .map_err(|e| Failure::tool(format!("cannot create {}: {e}", out.display())))?;
    for f in &written {
        let meta_text = serde_json::to_string_pretty(&f.meta).unwrap_or_default() + "\n";
        std::fs::write(out.join(format!("{}.json", f.name)), &f.text)
            .and_then(|_| std::fs::write(out.join(format!("{}.meta.json", f.name)), meta_text))
            .map_err(|e| Failure::tool(format!("cannot write {}: {e}", f.name)))?;
    }
    let index = crate::mutant_suite::index(&written);
    std::fs::write(out.join("@all"), index)
        .map_err(|e| Failure::tool(format!("cannot write @all: {e}")))?;
    Ok(format!(
        "wrote {} tests to {}",
        written.len(),
        out.display()
    ))
}
