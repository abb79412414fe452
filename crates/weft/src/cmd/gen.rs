//! `weft gen`: litmus tests from cycles of relaxations, diy7-style (one cycle on stdout, or
//! an enumeration into a directory with an `@all` index), in any weft format, optionally
//! labelled allowed/forbidden by a model on the fly (docs/gen.md).

use std::path::PathBuf;

use weft_gen::build::{build, BuildOptions, Target};
use weft_gen::cycle::{seq_text, Cycle};
use weft_gen::edge::Edge;
use weft_gen::enumerate::{enumerate, Spec};
use weft_gen::name::normalise;
use weft_litmus::Format;

use crate::exit;

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

fn target_of(f: Format) -> Target {
    match f {
        Format::C => Target::C,
        Format::Ptx | Format::GpuPtx => Target::Ptx,
        Format::Vulkan => Target::Vulkan,
        Format::OpenCl => Target::OpenCl,
        Format::Json => Target::WebGpu,
    }
}

fn default_model(f: Format) -> &'static str {
    match f {
        Format::C => "rc11",
        Format::Ptx => "ptx-v7.5",
        Format::GpuPtx => "ptx-asplos15",
        Format::Vulkan => "vulkan",
        Format::OpenCl => "opencl",
        Format::Json => "webgpu",
    }
}

pub fn run(args: Args) -> i32 {
    let Some(format) = Format::from_name(&args.format) else {
        eprintln!(
            "weft gen: unknown format `{}` (expected c, ptx, gpu_ptx, vulkan, opencl or json)",
            args.format
        );
        return exit::BAD_INPUT;
    };
    let scope = match args.scope.as_str() {
        "cta" | "wg" => weft_ir::Scope::Cta,
        "gpu" | "dv" => weft_ir::Scope::Gpu,
        "sys" => weft_ir::Scope::System,
        s => {
            eprintln!("weft gen: unknown scope `{s}` (expected cta, gpu or sys)");
            return exit::BAD_INPUT;
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
                return exit::BAD_INPUT;
            }
        }
    } else {
        None
    };
    let target = target_of(format);
    if let Some(src) = &args.mutants {
        return mutants(src, args.out.as_deref());
    }
    if let Some(text) = &args.cycle {
        let c = match Cycle::parse(text) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("weft gen: {e}");
                return exit::BAD_INPUT;
            }
        };
        // As diyone7: the test keeps the cycle's rotation when its family names it;
        // otherwise it is built from the rotation diy7 would choose.
        let (c, name) = match weft_gen::name::name_of(&c) {
            Some(n) => (c, n),
            None => normalise(&c),
        };
        let p = match build(&c, &name, target, &opts) {
            Ok(mut p) => {
                // diyone7 writes no `Cycle=` line for a single cycle.
                p.meta.retain(|(k, _)| k != "Cycle");
                p
            }
            Err(e) => {
                eprintln!("weft gen: {name}: cannot build for {}: {e}", target.name());
                return exit::BAD_INPUT;
            }
        };
        let text = match weft_litmus::print(&p, format) {
            Ok(t) => t,
            Err(e) => {
                eprintln!(
                    "weft gen: {name}: {} cannot express this test: {e}",
                    format.name()
                );
                return exit::BAD_INPUT;
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
                    return exit::INTERNAL;
                }
            }
        }
        return exit::OK;
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
            return exit::BAD_INPUT;
        }
    };
    let Some(dir) = &args.out else {
        eprintln!("weft gen: give --cycle, or an enumeration with -o DIR");
        return exit::BAD_INPUT;
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
                weft_gen::enumerate::EnumError::TooMany(_) => exit::BAD_INPUT,
                weft_gen::enumerate::EnumError::Timeout => exit::INTERNAL,
            };
        }
    };
    // Build everything first so that nothing is half-written on error.
    let ext = if format == Format::Json {
        "json"
    } else {
        "litmus"
    };
    let mut files: Vec<(String, String, Option<bool>)> = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    // (name, text, verdict) of each test, or why it was skipped.
    type Built = Result<(String, String, Option<bool>), String>;
    let built: Vec<Built> = {
        use rayon::prelude::*;
        tests
            .par_iter()
            .map(|g| {
                let mut p = build(&g.cycle, &g.name, target, &opts)
                    .map_err(|e| format!("{}: {e}", g.name))?;
                p.meta.insert(1, ("Relax".into(), seq_text(&g.relax)));
                p.meta.insert(2, ("Safe".into(), seq_text(&g.safe)));
                let text = weft_litmus::print(&p, format)
                    .map_err(|e| format!("{}: {} cannot express it: {e}", g.name, format.name()))?;
                let v = match &model {
                    Some(m) => Some(
                        verdict(&p, m)
                            .map(|v| v == "allowed")
                            .map_err(|e| format!("{}: simulation failed: {e}", g.name))?,
                    ),
                    None => None,
                };
                Ok((g.name.clone(), text, v))
            })
            .collect()
    };
    for b in built {
        match b {
            Ok(f) => files.push(f),
            Err(e) => skipped.push(e),
        }
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("weft gen: cannot create {}: {e}", dir.display());
        return exit::INTERNAL;
    }
    let mut index = format!(
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
    let (mut allowed, mut forbidden) = (0, 0);
    for (name, text, v) in &files {
        let file = format!("{name}.{ext}");
        if let Err(e) = std::fs::write(dir.join(&file), text) {
            eprintln!("weft gen: cannot write {file}: {e}");
            return exit::INTERNAL;
        }
        match v {
            Some(true) => {
                allowed += 1;
                index.push_str(&format!("{file} # allowed\n"));
            }
            Some(false) => {
                forbidden += 1;
                index.push_str(&format!("{file} # forbidden\n"));
            }
            None => index.push_str(&format!("{file}\n")),
        }
    }
    for s in &skipped {
        index.push_str(&format!("# skipped {s}\n"));
    }
    if let Err(e) = std::fs::write(dir.join("@all"), index) {
        eprintln!("weft gen: cannot write @all: {e}");
        return exit::INTERNAL;
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
    exit::OK
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
fn mutants(src: &std::path::Path, out: Option<&std::path::Path>) -> i32 {
    use weft_gen::mutants::{coherency_test, gpuharbor_mutants, COHERENCY};
    let Some(out) = out else {
        eprintln!("weft gen: --mutants needs -o DIR");
        return exit::BAD_INPUT;
    };
    let mut errors = Vec::new();
    let load = |name: &str| -> Option<weft_ir::Program> {
        let path = src.join(format!("{name}.json"));
        crate::inputs::load(&path).ok()
    };
    let ms = match gpuharbor_mutants(&load) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("weft gen: {}: {e}", src.display());
            return exit::BAD_INPUT;
        }
    };
    let model = match weft_sim::models::load("webgpu") {
        Ok(m) => m,
        Err(e) => {
            eprintln!("weft gen: cannot load the webgpu model: {}", e.render());
            return exit::INTERNAL;
        }
    };
    // (program, meta) pairs, all built before anything is written.
    let mut files: Vec<(weft_ir::Program, serde_json::Value)> = Vec::new();
    for (plain, name, gname) in COHERENCY {
        let Some(p) = load(plain) else {
            errors.push(format!("missing {plain}.json"));
            continue;
        };
        match coherency_test(&p, name) {
            Ok(q) => files.push((
                q,
                serde_json::json!({
                    "test": name,
                    "gpuharbor_name": gname,
                    "role": "conformance",
                    "operator": "aliasing (x and y name one location, writes renumbered)",
                    "built_from": plain,
                }),
            )),
            Err(e) => errors.push(e.to_string()),
        }
    }
    for m in ms {
        files.push((
            m.program.clone(),
            serde_json::json!({
                "test": m.name,
                "gpuharbor_name": m.gpuharbor_name,
                "role": "mutant",
                "paired_with": m.paired_with,
                "operator": m.operator.name(),
                "target": m.target.name(),
            }),
        ));
    }
    if !errors.is_empty() {
        for e in errors {
            eprintln!("weft gen: {e}");
        }
        return exit::BAD_INPUT;
    }
    let mut written = Vec::new();
    for (p, mut meta) in files {
        let v = match verdict(&p, &model) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("weft gen: {}: simulation failed: {e}", p.name);
                return exit::INTERNAL;
            }
        };
        let sc = weft_litmus::classify::classify(&p)
            .map(|c| {
                c.class_of_prop(
                    &p.condition
                        .as_ref()
                        .map(|c| c.prop.clone())
                        .unwrap_or(weft_ir::Prop::True),
                )
                .name()
            })
            .unwrap_or("unknown");
        meta["source"] = serde_json::json!({
            "paper": "001",
            "title": "Levine et al., GPUHarbor: Testing GPU Memory Consistency at Large, ISSTA 2023",
            "section": "3.1 (MC-Mutants)",
        });
        meta["webgpu_model"] = serde_json::json!(v);
        meta["sc_class"] = serde_json::json!(sc);
        meta["generator"] = serde_json::json!("weft gen --mutants");
        let text = match weft_litmus::print(&p, Format::Json) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("weft gen: {}: {e}", p.name);
                return exit::INTERNAL;
            }
        };
        written.push((p.name.clone(), text, meta));
    }
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("weft gen: cannot create {}: {e}", out.display());
        return exit::INTERNAL;
    }
    let mut index = String::from(
        "# weft gen --mutants: GPUHarbor's coherence conformance tests and 32 tuning mutants\n",
    );
    for (name, text, meta) in &written {
        let meta_text = serde_json::to_string_pretty(meta).unwrap_or_default() + "\n";
        let r = std::fs::write(out.join(format!("{name}.json")), text)
            .and_then(|_| std::fs::write(out.join(format!("{name}.meta.json")), meta_text));
        if let Err(e) = r {
            eprintln!("weft gen: cannot write {name}: {e}");
            return exit::INTERNAL;
        }
        index.push_str(&format!(
            "{name}.json # {} {} {}\n",
            meta["role"].as_str().unwrap_or(""),
            meta["gpuharbor_name"].as_str().unwrap_or(""),
            meta["webgpu_model"].as_str().unwrap_or("")
        ));
    }
    if let Err(e) = std::fs::write(out.join("@all"), index) {
        eprintln!("weft gen: cannot write @all: {e}");
        return exit::INTERNAL;
    }
    crate::out::line(&format!(
        "wrote {} tests to {}",
        written.len(),
        out.display()
    ));
    exit::OK
}
