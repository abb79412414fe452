//! The one entry point of the campaign analyses for every front end (`weft analyze` and
//! `GET /api/analyses`, issue 29 item 11): which tests make the device vectors and which
//! (mutant, conformance test) pairs are correlated come from the campaign's catalog (each
//! test's role and pairs as its metadata states them), never from test names, so both
//! front ends compute the same report from the same runs. A requested pair must name a
//! mutant and a conformance test of the catalog.

use serde::Serialize;
use weft_store::StoredRun;

use crate::{analyze, LockTest, Options, Report};

/// One test of the campaign's catalog, as the analyses need it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CatalogTest {
    pub name: String,
    /// `mutant`, `conformance` or `lock`.
    pub role: String,
    /// For a conformance test, the mutants it is correlated with; for a mutant, its
    /// conformance tests.
    pub pairs: Vec<String>,
}

/// The catalog: its tests and the lock tests of the case study.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    pub tests: Vec<CatalogTest>,
    pub locks: Vec<LockTest>,
}

/// What a front end asks for.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// The tuning seed of the vectors and correlations (default: the seed with most runs).
    pub seed: Option<String>,
    /// Number of clusters (default: the elbow).
    pub clusters: Option<usize>,
    /// Pairs to correlate, `MUTANT,CONFORMANCE` as typed; every catalog pair when empty.
    pub pairs: Vec<String>,
}

impl Catalog {
    fn role(&self, name: &str) -> Option<&str> {
        self.tests
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.role.as_str())
    }

    /// Every (mutant, conformance test) pair of the catalog, sorted, once each.
    pub fn pairs(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .tests
            .iter()
            .filter(|t| t.role == "conformance")
            .flat_map(|c| {
                c.pairs
                    .iter()
                    .filter(|m| self.role(m) == Some("mutant"))
                    .map(|m| (m.clone(), c.name.clone()))
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The tests of the device vectors: the catalog's mutants, sorted.
    pub fn vector_tests(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .tests
            .iter()
            .filter(|t| t.role == "mutant")
            .map(|t| t.name.clone())
            .collect();
        v.sort();
        v
    }

    /// Parses one requested pair and checks it against the catalog.
    pub fn pair(&self, text: &str) -> Result<(String, String), String> {
        let Some((m, c)) = text.split_once(',') else {
            return Err(format!(
                "pair `{text}`: expected MUTANT,CONFORMANCE (e.g. MP,MP-CO)"
            ));
        };
        let (m, c) = (m.trim(), c.trim());
        for (name, want) in [(m, "mutant"), (c, "conformance")] {
            match self.role(name) {
                None => return Err(format!("pair `{text}`: no test `{name}` in the catalog")),
                Some("") => {
                    return Err(format!(
                        "pair `{text}`: `{name}` is neither a mutant nor a conformance test"
                    ))
                }
                Some(r) if r != want => {
                    return Err(format!(
                        "pair `{text}`: `{name}` is a {r} test, not a {want} test"
                    ))
                }
                Some(_) => {}
            }
        }
        Ok((m.to_string(), c.to_string()))
    }

    /// The analyses' options for `q`, or why the query is refused.
    pub fn options(&self, q: &Query) -> Result<Options, String> {
        let pairs = if q.pairs.is_empty() {
            self.pairs()
        } else {
            q.pairs
                .iter()
                .map(|p| self.pair(p))
                .collect::<Result<_, _>>()?
        };
        Ok(Options {
            seed: q.seed.clone(),
            clusters: q.clusters,
            pairs,
            vector_tests: self.vector_tests(),
            locks: self.locks.clone(),
        })
    }
}

/// Every analysis of `runs` under the catalog, as both front ends show it.
pub fn report(runs: &[StoredRun], catalog: &Catalog, q: &Query) -> Result<Report, String> {
    Ok(analyze(runs, &catalog.options(q)?))
}
