//! The suite `weft gen --mutants` writes: GPUHarbor's coherence conformance tests (built by
//! aliasing the plain tests) and the tuning mutants, each printed as JSON with a metadata
//! object (role, GPUHarbor name, pairing, operator, the model's verdict, the SC class of
//! its target), and the `@all` index. The verdict comes from the caller's model, so that
//! this crate does not depend on a simulator.

use serde_json::{json, Value};
use weft_ir::Program;
use weft_litmus::Format;

use crate::mutants::{coherency_test, Mutant, COHERENCY};

/// One test of the suite: its name, its JSON text and its metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct MutantFile {
    pub name: String,
    pub text: String,
    pub meta: Value,
}

/// The conformance tests built from the plain tests `load` gives, then the mutants `ms`,
/// each with its first metadata; `Err`: every test that could not be built.
pub fn files(
    load: &dyn Fn(&str) -> Option<Program>,
    ms: Vec<Mutant>,
) -> Result<Vec<(Program, Value)>, Vec<String>> {
    let mut errors = Vec::new();
    let mut files: Vec<(Program, Value)> = Vec::new();
    for (plain, name, gname) in COHERENCY {
        let Some(p) = load(plain) else {
            errors.push(format!("missing {plain}.json"));
            continue;
        };
        match coherency_test(&p, name) {
            Ok(q) => files.push((
                q,
                json!({
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
            json!({
                "test": m.name,
                "gpuharbor_name": m.gpuharbor_name,
                "role": "mutant",
                "paired_with": m.paired_with,
                "operator": m.operator.name(),
                "target": m.target.name(),
            }),
        ));
    }
    if errors.is_empty() {
        Ok(files)
    } else {
        Err(errors)
    }
}

/// Each test judged by `verdict` (`allowed`/`forbidden` under the webgpu model), its
/// metadata completed and its JSON printed; `Err`: the first failure, `NAME: reason`.
pub fn finish(
    files: Vec<(Program, Value)>,
    verdict: &dyn Fn(&Program) -> Result<&'static str, String>,
) -> Result<Vec<MutantFile>, String> {
    let mut written = Vec::new();
    for (p, mut meta) in files {
        let v = verdict(&p).map_err(|e| format!("{}: simulation failed: {e}", p.name))?;
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
        meta["source"] = json!({
            "paper": "001",
            "title": "Levine et al., GPUHarbor: Testing GPU Memory Consistency at Large, ISSTA 2023",
            "section": "3.1 (MC-Mutants)",
        });
        meta["webgpu_model"] = json!(v);
        meta["sc_class"] = json!(sc);
        meta["generator"] = json!("weft gen --mutants");
        let text = weft_litmus::print(&p, Format::Json).map_err(|e| format!("{}: {e}", p.name))?;
        written.push(MutantFile {
            name: p.name.clone(),
            text,
            meta,
        });
    }
    Ok(written)
}

/// The `@all` index: one line per test with its role, GPUHarbor name and verdict.
pub fn index(written: &[MutantFile]) -> String {
    let mut index = String::from(
        "# weft gen --mutants: GPUHarbor's coherence conformance tests and 32 tuning mutants\n",
    );
    for f in written {
        let m = &f.meta;
        index.push_str(&format!(
            "{}.json # {} {} {}\n",
            f.name,
            m["role"].as_str().unwrap_or(""),
            m["gpuharbor_name"].as_str().unwrap_or(""),
            m["webgpu_model"].as_str().unwrap_or("")
        ));
    }
    index
}
