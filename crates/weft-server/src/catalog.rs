//! The tests a campaign serves: GPUHarbor's corpus (`tests/corpus/gpuharbor`) and the 32
//! tuning mutants with their coherence conformance tests (`tests/corpus/gpuharbor-mutants`,
//! paper 001 §3.1) and the spin locks of the lock case study (`tests/corpus/locks`, role
//! `lock`, paper 001 §5.3), all embedded in
//! the binary at build time so the server needs no source tree, each with its role
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

#[derive(RustEmbed)]
#[folder = "../../tests/corpus/gpuharbor-mutants/"]
struct Mutants;

#[derive(RustEmbed)]
#[folder = "../../tests/corpus/locks/"]
struct Locks;

/// The corpus directories under `tests/corpus`, in load order: a test of the second with
/// a name already loaded (MP, LB, S, MP-CO: the same program) joins the first's entry.
const CORPORA: [&str; 3] = ["gpuharbor", "gpuharbor-mutants", "locks"];

fn corpus_get(corpus: usize, file: &str) -> Option<rust_embed::EmbeddedFile> {
    match corpus {
        0 => Corpus::get(file),
        1 => Mutants::get(file),
        _ => Locks::get(file),
    }
}

fn corpus_files(corpus: usize) -> Vec<String> {
    let names: Vec<std::borrow::Cow<'static, str>> = match corpus {
        0 => Corpus::iter().collect(),
        1 => Mutants::iter().collect(),
        _ => Locks::iter().collect(),
    };
    names.into_iter().map(|f| f.into_owned()).collect()
}

/// The lock tests of the case study (paper 001 §5.3) as the analyses read them, from the
/// embedded `tests/corpus/locks/*.meta.json` (no test is parsed or simulated).
pub fn lock_tests() -> Vec<weft_analyze::LockTest> {
    let mut out = Vec::new();
    for file in corpus_files(2) {
        if !file.ends_with(".meta.json") {
            continue;
        }
        let Some(meta) = corpus_get(2, &file)
            .and_then(|f| serde_json::from_slice::<serde_json::Value>(&f.data).ok())
        else {
            continue;
        };
        if let Some(l) = lock_test(&meta) {
            out.push(l);
        }
    }
    out
}

fn lock_test(meta: &serde_json::Value) -> Option<weft_analyze::LockTest> {
    if meta["role"] != "lock" {
        return None;
    }
    Some(weft_analyze::LockTest {
        test: meta["test"].as_str()?.to_string(),
        lock: meta["lock"].as_str()?.to_string(),
        fenced: meta["fenced"].as_bool()?,
        counter: meta["counter"].as_str()?.to_string(),
        expected: meta["expected"].as_i64()?,
    })
}

/// Every test's name, role and the test its metadata pairs it with (`paired_with`), from
/// the embedded `*.meta.json` alone (nothing parsed or simulated), in load order: a name
/// already seen in an earlier corpus keeps its first entry, as [`Catalog::load`] does.
fn meta_tests() -> Vec<(String, String, Option<String>)> {
    let mut out: Vec<(String, String, Option<String>)> = Vec::new();
    for ci in 0..CORPORA.len() {
        let mut files = corpus_files(ci);
        files.sort();
        for file in files {
            let Some(stem) = file.strip_suffix(".meta.json") else {
                continue;
            };
            let Some(meta) = corpus_get(ci, &file)
                .and_then(|f| serde_json::from_slice::<serde_json::Value>(&f.data).ok())
            else {
                continue;
            };
            let name = meta["test"].as_str().unwrap_or(stem).to_string();
            if out.iter().any(|(n, _, _)| *n == name) {
                continue;
            }
            let role = meta["role"].as_str().unwrap_or("").to_string();
            let paired = meta["paired_with"].as_str().map(str::to_string);
            out.push((name, role, paired));
        }
    }
    out
}

/// The pairs of every test, from the metadata alone: each test's `paired_with` names the
/// other side of its pair (a conformance test its family's mutant, e.g. `MP-CO` and
/// `MP-barrier` name `MP`: paper 001 §3.3 and §5.1; a mutant its conformance test), kept
/// only between a test whose metadata says `mutant` and one that says `conformance`.
fn pairs_of(tests: &[(String, String, Option<String>)]) -> BTreeMap<String, Vec<String>> {
    let role = |n: &str| {
        tests
            .iter()
            .find(|(x, _, _)| x == n)
            .map(|(_, r, _)| r.as_str())
    };
    let mut links: Vec<(String, String)> = Vec::new();
    let mut by_name: Vec<&(String, String, Option<String>)> = tests.iter().collect();
    by_name.sort();
    // Conformance tests' pairs first, then mutants', so each test lists its pairs in the
    // same order whichever side names them.
    for side in ["conformance", "mutant"] {
        for (name, r, paired) in by_name.iter().copied() {
            let Some(other) = paired else { continue };
            match (r.as_str(), role(other)) {
                ("conformance", Some("mutant")) if side == "conformance" => {
                    links.push((other.clone(), name.clone()))
                }
                ("mutant", Some("conformance")) if side == "mutant" => {
                    links.push((name.clone(), other.clone()))
                }
                _ => {}
            }
        }
    }
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (m, c) in links {
        let e = out.entry(m.clone()).or_default();
        if !e.contains(&c) {
            e.push(c.clone());
            out.entry(c).or_default().push(m);
        }
    }
    out
}

/// The catalog as the analyses read it (`weft analyze` and `/api/analyses` alike): every
/// test's role and pairs, and the lock tests.
pub fn analysis_catalog() -> weft_analyze::Catalog {
    let tests = meta_tests();
    let pairs = pairs_of(&tests);
    weft_analyze::Catalog {
        tests: tests
            .into_iter()
            .map(|(name, role, _)| weft_analyze::CatalogTest {
                pairs: pairs.get(&name).cloned().unwrap_or_default(),
                name,
                role,
            })
            .collect(),
        locks: lock_tests(),
    }
}

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
    /// The corpus directory under `tests/corpus` it comes from (`gpuharbor`).
    pub corpus: &'static str,
    /// One of the 32 tuning mutants of paper 001 §3.1 (`tests/corpus/gpuharbor-mutants`):
    /// what the Tune and Campaign pages run.
    pub tuning: bool,
    /// The class of the behaviour a mutant targets (`weak`, or `interleaved` for the
    /// coherence mutants whose target is an SC interleaving); empty for conformance tests.
    pub target: String,
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
#[derive(Serialize, ts_rs::TS)]
#[ts(rename = "TestSummary")]
pub struct Summary<'a> {
    pub name: &'a str,
    pub role: &'a str,
    pub gpuharbor_name: &'a str,
    pub pairs: &'a [String],
    pub digest: &'a str,
    pub threads: usize,
    pub corpus: &'a str,
    /// The file under `tests/corpus/CORPUS` (`MP.json`, `TAS-UF.litmus`).
    pub file: &'a str,
    pub tuning: bool,
    pub target: &'a str,
}

impl Catalog {
    /// Loads the embedded corpus; a test that does not parse is an internal error (the
    /// corpus is checked by weft's own tests).
    pub fn load() -> Result<Catalog, String> {
        let model = weft_sim::models::load(MODEL)
            .map_err(|e| format!("bundled model {MODEL}: {}", e.render()))?;
        let mut tests: BTreeMap<String, Entry> = BTreeMap::new();
        for (ci, corpus) in CORPORA.iter().enumerate() {
            for file in corpus_files(ci) {
                let Some(stem) = file.strip_suffix(".meta.json") else {
                    continue;
                };
                let meta: serde_json::Value = corpus_get(ci, &file)
                    .and_then(|f| serde_json::from_slice(&f.data).ok())
                    .ok_or_else(|| format!("corpus {corpus}: {file} is not JSON"))?;
                let mut test_file = format!("{stem}.json");
                if corpus_get(ci, &test_file).is_none() {
                    test_file = format!("{stem}.litmus");
                }
                let Some(src) = corpus_get(ci, &test_file) else {
                    continue;
                };
                let program = weft_litmus::parse_bytes(&src.data)
                    .map_err(|e| format!("corpus {corpus}: {}", e.render(&test_file)))?;
                let role = meta["role"].as_str().unwrap_or("").to_string();
                let tuning = ci == 1 && role == "mutant";
                let target = match (role.as_str(), meta["target"].as_str()) {
                    ("mutant", Some("interleaving")) => "interleaved",
                    ("mutant", _) => "weak",
                    _ => "",
                }
                .to_string();
                let name = program.name.clone();
                if let Some(e) = tests.get_mut(&name) {
                    // The same test in both corpora: one entry, marked as a tuning mutant.
                    e.tuning |= tuning;
                    if e.target.is_empty() {
                        e.target = target;
                    }
                    continue;
                }
                let classification =
                    classify(&program).map_err(|e| format!("corpus {corpus}: {test_file}: {e}"))?;
                // The lock tests' verdict is their counter (Table 5), not a model's:
                // they are not simulated (spin loops; their fenced forms are Vulkan's).
                let (judge, judge_aliased) = if role == "lock" {
                    (None, None)
                } else {
                    (
                        Judge::new(&program, MODEL, &model, weft_sim::simulate_default).ok(),
                        weft_hw_wgpu::lower::alias_all(&program).ok().and_then(|q| {
                            Judge::new(&q, MODEL, &model, weft_sim::simulate_default).ok()
                        }),
                    )
                };
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
                        corpus,
                        tuning,
                        target,
                        program,
                        classification,
                        meta,
                        judge,
                        judge_aliased,
                    },
                );
            }
        }
        // Pairs: one definition with the analyses (`analysis_catalog`), from the metadata.
        let pairs = pairs_of(&meta_tests());
        for e in tests.values_mut() {
            e.pairs = pairs.get(&e.name).cloned().unwrap_or_default();
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
                corpus: e.corpus,
                file: &e.file,
                tuning: e.tuning,
                target: &e.target,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(name: &str, role: &str, paired: Option<&str>) -> (String, String, Option<String>) {
        (name.into(), role.into(), paired.map(str::to_string))
    }

    /// Pairs come from `paired_with` and the roles alone, never from a shared name prefix.
    #[test]
    fn pairs_follow_metadata_not_names() {
        let tests = vec![
            t("MP", "mutant", None),
            t("MP-CO", "conformance", Some("MP")),
            t("MP-CO-tuning", "mutant", Some("MP-CO")),
            // same prefix, no `paired_with`: not a pair
            t("SB", "mutant", None),
            t("SB-CO", "conformance", None),
            // named but with the wrong roles: not a pair
            t("LB", "conformance", None),
            t("LB-x", "conformance", Some("LB")),
        ];
        let p = pairs_of(&tests);
        assert_eq!(p["MP"], vec!["MP-CO".to_string()]);
        assert_eq!(
            p["MP-CO"],
            vec!["MP".to_string(), "MP-CO-tuning".to_string()]
        );
        assert_eq!(p["MP-CO-tuning"], vec!["MP-CO".to_string()]);
        assert!(!p.contains_key("SB") && !p.contains_key("SB-CO"));
        assert!(!p.contains_key("LB") && !p.contains_key("LB-x"));
    }

    /// Every conformance test of the embedded catalog whose family has a mutant names it.
    #[test]
    fn embedded_catalog_pairs_every_family() {
        let cat = analysis_catalog();
        let pairs = cat.pairs();
        for c in [
            "MP-CO",
            "MP-barrier",
            "SB-CO",
            "LB-barrier",
            "2+2W-RMW-barrier",
        ] {
            let fam = c.split('-').next().unwrap();
            assert!(
                pairs.contains(&(fam.to_string(), c.to_string())),
                "{c} is not paired with {fam}"
            );
        }
    }
}
