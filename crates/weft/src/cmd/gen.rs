//! `weft gen`: litmus tests from cycles of relaxations, diy7-style (one cycle on stdout, or
//! an enumeration into a directory with an `@all` index), in any weft format, optionally
//! labelled allowed/forbidden by a model on the fly (docs/gen.md).

use std::path::PathBuf;

use weft_gen::build::BuildOptions;
use weft_gen::edge::Edge;
use weft_gen::enumerate::{enumerate, Spec};
use weft_gen::suite::{build_suite, default_model};
use weft_litmus::Format;

use crate::exit::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// One cycle, edges separated by spaces (`"PodWR Fre PodWR Fre"`); the test goes to
    /// stdout.
    #[arg(long, conflicts_with_all = ["relax", "safe"])]
    cycle: Option<String>,
    /// Relaxed edges (comma-separated), as diy7's -relax.
    #[arg(long)]
    relax: Option<String>,
    /// Safe edges (comma-separated), as diy7's -safe.
    #[arg(long)]
    safe: Option<String>,
    /// Largest number of edges in a cycle (diy7 -size).
    #[arg(long, default_value_t = 6)]
    size: usize,
    /// Largest number of threads (diy7 -nprocs).
    #[arg(long, default_value_t = 4)]
    nprocs: usize,
    /// Most tests an enumeration may produce (exit 2 beyond).
    #[arg(long, default_value_t = 100_000)]
    max_tests: usize,
    /// Give up an enumeration after this many seconds (exit 3).
    #[arg(long)]
    timeout: Option<u64>,
    /// Most accesses per thread (diy7 -ins).
    #[arg(long, default_value_t = 4)]
    ins: usize,
    /// Mix relaxations in one cycle (diy7 -mix true).
    #[arg(long)]
    mix: bool,
    /// With mixing, at most N kinds of relaxed edges per cycle (diy7 -maxrelax; implies --mix).
    #[arg(long)]
    max_relax: Option<usize>,
    /// Output directory of an enumeration (one file per test, plus `@all`).
    #[arg(short = 'o', long)]
    out: Option<PathBuf>,
    /// Output format: c (default), ptx, gpu_ptx, vulkan, opencl or json (WebGPU).
    #[arg(long, default_value = "c")]
    format: String,
    /// Scope of atomic accesses and fences without a scope qualifier: cta, gpu or sys.
    #[arg(long, default_value = "gpu")]
    scope: String,
    /// Simulate every test under this model and label it allowed/forbidden.
    #[arg(long)]
    check: bool,
    /// Model for --check (bundled name or .cat path).
    #[arg(short = 'm', long)]
    model: Option<String>,
    /// MC-Mutants: read GPUHarbor's conformance tests (weft names, JSON) from this
    /// directory and write its 32 tuning mutants and the coherence conformance tests into
    /// -o DIR, each with a .meta.json (pairing, operator, target, webgpu verdict).
    #[arg(long, conflicts_with_all = ["cycle", "relax", "safe"])]
    mutants: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    let Some(format) = Format::from_name(&args.format) else {
        eprintln!(
            "weft gen: unknown format `{}` (expected c, ptx, gpu_ptx, vulkan, opencl or json)",
            args.format
        );
        return ExitCode::BadInput;
    };
    let scope = match args.scope.as_str() {
        "cta" | "wg" => weft_ir::Scope::Cta,
        "gpu" | "dv" => weft_ir::Scope::Gpu,
        "sys" => weft_ir::Scope::System,
        s => {
            eprintln!("weft gen: unknown scope `{s}` (expected cta, gpu or sys)");
            return ExitCode::BadInput;
        }
    };
    let opts = BuildOptions {
        default_scope: scope,
        ..BuildOptions::default()
    };
    let model = if args.check {
        let name = args
            .model
            .clone()
            .unwrap_or_else(|| default_model(format).into());
        match weft_sim::models::load(&name) {
            Ok(m) => Some(m),
            Err(e) => {
                eprintln!("weft gen: cannot load model `{name}`: {}", e.render());
                return ExitCode::BadInput;
            }
        }
    } else {
        None
    };
    if let Some(src) = &args.mutants {
        return mutants(src, args.out.as_deref());
    }
    if let Some(text) = &args.cycle {
        let (name, p, text) = match weft_gen::suite::one(text, format, &opts) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("weft gen: {e}");
                return ExitCode::BadInput;
            }
        };
        crate::out::print(&text);
        if !text.ends_with('\n') {
            crate::out::line("");
        }
        if let Some(m) = &model {
            match verdict(&p, m) {
                Ok(v) => eprintln!("{name}: {v}"),
                Err(e) => {
                    eprintln!("weft gen: {name}: simulation failed: {e}");
                    return ExitCode::Internal;
                }
            }
        }
        return ExitCode::Ok;
    }
    let parse = |s: &Option<String>| -> Result<Vec<Edge>, String> {
        match s {
            Some(t) => Edge::parse_list(t).map_err(|e| e.to_string()),
            None => Ok(Vec::new()),
        }
    };
    let (relax, safe) = match (parse(&args.relax), parse(&args.safe)) {
        (Ok(r), Ok(s)) => (r, s),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("weft gen: {e}");
            return ExitCode::BadInput;
        }
    };
    let Some(dir) = &args.out else {
        eprintln!("weft gen: give --cycle, or an enumeration with -o DIR");
        return ExitCode::BadInput;
    };
    let defaults = relax.is_empty() && safe.is_empty();
    let spec = Spec {
        relax,
        safe,
        size: args.size,
        nprocs: args.nprocs,
        mix: args.mix || args.max_relax.is_some(),
        max_relax: args.max_relax.unwrap_or(usize::MAX),
        placement: opts.default_placement,
        ins: args.ins,
        max_tests: args.max_tests,
        deadline: args
            .timeout
            .map(|s| std::time::Instant::now() + std::time::Duration::from_secs(s)),
    };
    // No edge sets: diy7's defaults for -arch C (composite edges such as ACFenceScdRW).
    let found = if defaults {
        let (r, s) = weft_gen::enumerate::diy7_c_defaults();
        let g = weft_gen::enumerate::enumerate_sequences(&r, &s, spec.size, spec.nprocs, spec.ins);
        if g.len() > spec.max_tests {
            Err(weft_gen::enumerate::EnumError::TooMany(spec.max_tests))
        } else {
            Ok(g)
        }
    } else {
        enumerate(&spec)
    };
    let tests = match found {
        Ok(t) => t,
        Err(e) => {
            eprintln!("weft gen: {e}");
            return match e {
                weft_gen::enumerate::EnumError::TooMany(_) => ExitCode::BadInput,
                weft_gen::enumerate::EnumError::Timeout => ExitCode::Internal,
            };
        }
    };
    // Build everything first so that nothing is half-written on error.
    let ext = if format == Format::Json {
        "json"
    } else {
        "litmus"
    };
    let label = |p: &weft_ir::Program| match &model {
        Some(m) => verdict(p, m).map(|v| v == "allowed"),
        None => Ok(false),
    };
    let (files, skipped) = build_suite(
        &tests,
        &opts,
        format,
        model.as_ref().map(|_| &label as &weft_gen::suite::Labeller),
    );
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("weft gen: cannot create {}: {e}", dir.display());
        return ExitCode::Internal;
    }
    let header = format!(
        "# weft gen --size {} --nprocs {}{}{}{} --format {}\n",
        args.size,
        args.nprocs,
        args.relax
            .as_ref()
            .map(|r| format!(" --relax {r}"))
            .unwrap_or_default(),
        args.safe
            .as_ref()
            .map(|r| format!(" --safe {r}"))
            .unwrap_or_default(),
        if spec.mix { " --mix" } else { "" },
        format.name()
    );
    let (index, allowed, forbidden) = weft_gen::suite::index(&header, ext, &files, &skipped);
    for f in &files {
        let file = format!("{}.{ext}", f.name);
        if let Err(e) = std::fs::write(dir.join(&file), &f.text) {
            eprintln!("weft gen: cannot write {file}: {e}");
            return ExitCode::Internal;
        }
    }
    if let Err(e) = std::fs::write(dir.join("@all"), index) {
        eprintln!("weft gen: cannot write @all: {e}");
        return ExitCode::Internal;
    }
    let mut msg = format!("generated {} tests in {}", files.len(), dir.display());
    if model.is_some() {
        msg.push_str(&format!(" ({allowed} allowed, {forbidden} forbidden)"));
    }
    if !skipped.is_empty() {
        msg.push_str(&format!(
            "; skipped {} that {} cannot express (reasons in @all)",
            skipped.len(),
            format.name()
        ));
    }
    crate::out::line(&msg);
    ExitCode::Ok
}

/// Whether the cycle's outcome (the condition) is reachable under the model.
fn verdict(p: &weft_ir::Program, m: &weft_cat::Model) -> Result<&'static str, String> {
    let opts = weft_sim::SimOptions {
        stop_at_verdict: Some(weft_sim::StopAt::Condition),
        timeout: Some(std::time::Duration::from_secs(60)),
        ..weft_sim::SimOptions::default()
    };
    let r = weft_sim::simulate(p, m, &opts).map_err(|e| e.to_string())?;
    Ok(if r.validated { "allowed" } else { "forbidden" })
}

/// `weft gen --mutants SRC -o DIR`.
fn mutants(src: &std::path::Path, out: Option<&std::path::Path>) -> ExitCode {
    use weft_gen::mutants::gpuharbor_mutants;
    let Some(out) = out else {
        eprintln!("weft gen: --mutants needs -o DIR");
        return ExitCode::BadInput;
    };
    let load = |name: &str| -> Option<weft_ir::Program> {
        let path = src.join(format!("{name}.json"));
        crate::inputs::load(&path).ok()
    };
    let ms = match gpuharbor_mutants(&load) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("weft gen: {}: {e}", src.display());
            return ExitCode::BadInput;
        }
    };
    let model = match weft_sim::models::load("webgpu") {
        Ok(m) => m,
        Err(e) => {
            eprintln!("weft gen: cannot load the webgpu model: {}", e.render());
            return ExitCode::Internal;
        }
    };
    let files = match weft_gen::mutant_suite::files(&load, ms) {
        Ok(f) => f,
        Err(errors) => {
            for e in errors {
                eprintln!("weft gen: {e}");
            }
            return ExitCode::BadInput;
        }
    };
    let written = match weft_gen::mutant_suite::finish(files, &|p| verdict(p, &model)) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("weft gen: {e}");
            return ExitCode::Internal;
        }
    };
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("weft gen: cannot create {}: {e}", out.display());
        return ExitCode::Internal;
    }
    for f in &written {
        let meta_text = serde_json::to_string_pretty(&f.meta).unwrap_or_default() + "\n";
        let r = std::fs::write(out.join(format!("{}.json", f.name)), &f.text)
            .and_then(|_| std::fs::write(out.join(format!("{}.meta.json", f.name)), meta_text));
        if let Err(e) = r {
            eprintln!("weft gen: cannot write {}: {e}", f.name);
            return ExitCode::Internal;
        }
    }
    let index = weft_gen::mutant_suite::index(&written);
    if let Err(e) = std::fs::write(out.join("@all"), index) {
        eprintln!("weft gen: cannot write @all: {e}");
        return ExitCode::Internal;
    }
    crate::out::line(&format!(
        "wrote {} tests to {}",
        written.len(),
        out.display()
    ));
    ExitCode::Ok
}
