//! The tests a campaign serves: GPUHarbor's corpus (`tests/corpus/gpuharbor`, embedded in
//! the binary at build time so the server needs no source tree), each with its role
//! (`mutant` tuning test or `conformance` test), its paired test (paper 001 §3.3: a
//! conformance test pairs with the mutant of its family, `MP-CO` with `MP`), its threads
//! its SC outcome classification and the WebGPU model's verdicts (simulated once at start).

use std::collections::BTreeMap;

use rust_embed::RustEmbed;
use serde::Serialize;
use sha2::{Digest, Sha256};
use weft_hw::judge::Judge;
use weft_ir::Program;
use weft_litmus::classify::{classify, Classification};

#[derive(RustEmbed)]
#[folder = "../../tests/corpus/gpuharbor/"]
struct Corpus;

/// One test of the campaign.
pub struct Entry {
    pub name: String,
    /// `mutant` or `conformance`.
    pub role: String,
    /// GPUHarbor's name (`messagePassingCoherency`).
    pub gpuharbor_name: String,
    /// The mutant a conformance test pairs with, or the conformance tests a mutant pairs
    /// with.
    pub pairs: Vec<String>,
    pub program: Program,
    /// The source text (GPUHarbor JSON) and its SHA-256, as `weft run` records it.
    pub source: String,
    pub digest: String,
    /// The file name, `MP.json`.
    pub file: String,
    pub classification: Classification,
    pub meta: serde_json::Value,
    /// The WebGPU model's allowed states of the test as written and with every location
    /// aliased (GPUHarbor's `aliasedMemory`); `None` when it cannot be simulated.
    pub judge: Option<Judge>,
    pub judge_aliased: Option<Judge>,
}

/// The model submissions are judged under.
pub const MODEL: &str = "webgpu";

/// Every test, by name.
pub struct Catalog {
    pub tests: BTreeMap<String, Entry>,
}

/// What `/api/tests` lists per test.
#[derive(Serialize)]
pub struct Summary<'a> {
    pub name: &'a str,
    pub role: &'a str,
    pub gpuharbor_name: &'a str,
    pub pairs: &'a [String],
    pub digest: &'a str,
    pub threads: usize,
}

impl Catalog {
    /// Loads the embedded corpus; a test that does not parse is an internal error (the
    /// corpus is checked by weft's own tests).
    pub fn load() -> Result<Catalog, String> {
        let model = weft_sim::models::load(MODEL)
            .map_err(|e| format!("bundled model {MODEL}: {}", e.render()))?;
        let mut tests = BTreeMap::new();
        for file in Corpus::iter() {
            let Some(stem) = file.strip_suffix(".meta.json") else {
                continue;
            };
            let meta: serde_json::Value = Corpus::get(&file)
                .and_then(|f| serde_json::from_slice(&f.data).ok())
                .ok_or_else(|| format!("corpus: {file} is not JSON"))?;
            let test_file = format!("{stem}.json");
            let Some(src) = Corpus::get(&test_file) else {
                continue;
            };
            let program = weft_litmus::parse_bytes(&src.data)
                .map_err(|e| format!("corpus: {}", e.render(&test_file)))?;
            let classification =
                classify(&program).map_err(|e| format!("corpus: {test_file}: {e}"))?;
            let judge = Judge::new(&program, MODEL, &model).ok();
            let judge_aliased = weft_hw_wgpu::lower::alias_all(&program)
                .ok()
                .and_then(|q| Judge::new(&q, MODEL, &model).ok());
            let role = meta["role"].as_str().unwrap_or("").to_string();
            let name = program.name.clone();
            tests.insert(
                name.clone(),
                Entry {
                    name,
                    role,
                    gpuharbor_name: meta["gpuharbor_name"].as_str().unwrap_or("").to_string(),
                    pairs: Vec::new(),
                    source: String::from_utf8_lossy(&src.data).into_owned(),
                    digest: Sha256::digest(&src.data)
                        .iter()
                        .map(|b| format!("{b:02x}"))
                        .collect(),
                    file: test_file,
                    program,
                    classification,
                    meta,
                    judge,
                    judge_aliased,
                },
            );
        }
        // Pairs: a conformance test with the mutant named by its family.
        let names: Vec<(String, String)> = tests
            .values()
            .map(|e| (e.name.clone(), e.role.clone()))
            .collect();
        for (name, role) in &names {
            if role != "conformance" {
                continue;
            }
            let fam = weft_hw::tune::family(name).to_string();
            if let Some(m) = tests.get_mut(&fam) {
                if m.role == "mutant" {
                    m.pairs.push(name.clone());
                    if let Some(c) = tests.get_mut(name) {
                        c.pairs.push(fam);
                    }
                }
            }
        }
        Ok(Catalog { tests })
    }

    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.tests.get(name)
    }

    pub fn summaries(&self) -> Vec<Summary<'_>> {
        self.tests
            .values()
            .map(|e| Summary {
                name: &e.name,
                role: &e.role,
                gpuharbor_name: &e.gpuharbor_name,
                pairs: &e.pairs,
                digest: &e.digest,
                threads: e.program.threads.len(),
            })
            .collect()
    }
}
