//! GPUHarbor's tuning (paper 001 §3.3): seeded random stress configurations
//! (`weft_stress::configs`), every weak-behaviour test run under each, configurations
//! ranked by weak behaviours per second, then per instance; and the pairing of a
//! conformance test with its tuning test (the family: the name up to its first `-`).

use weft_stress::{Limits, ParkMiller, StressConfig};

use crate::{Device, Failure, Observation, Recorder, RunError, RunInfo, Status, Test};

/// The name of a test up to its first `-` (`MP-CO` → `MP`): a conformance test's tuning
/// partner.
pub fn family(name: &str) -> &str {
    name.split('-').next().unwrap_or(name)
}

/// Parses `--limits`.
pub fn parse_limits(s: &str) -> Result<Limits, Failure> {
    match s {
        "desktop" => Ok(Limits::DESKTOP),
        "mobile" => Ok(Limits::MOBILE),
        other => {
            let bad = || {
                Failure::bad_input(format!(
                    "--limits `{other}`: expected desktop, mobile or L,Ls (max workgroups, max workgroup size; 2..=65535 and 1..=1024)"
                ))
            };
            let (a, b) = other.split_once(',').ok_or_else(bad)?;
            let l: u32 = a.trim().parse().map_err(|_| bad())?;
            let ls: u32 = b.trim().parse().map_err(|_| bad())?;
            if !(2..=65535).contains(&l) || !(1..=1024).contains(&ls) {
                return Err(bad());
            }
            Ok(Limits {
                max_workgroups: l,
                max_workgroup_size: ls,
            })
        }
    }
}

/// Every conformance test among `names` with the mutant of its family (`MP`, `MP-CO`), as
/// (mutant, conformance) pairs in name order: the default pairs of a campaign analysis.
pub fn family_pairs(names: &[&str]) -> Vec<(String, String)> {
    let tests: std::collections::BTreeSet<&str> = names.iter().copied().collect();
    let mut pairs = Vec::new();
    for t in &tests {
        let fam = family(t);
        if fam != *t && tests.contains(fam) {
            pairs.push((fam.to_string(), t.to_string()));
        }
    }
    pairs
}

/// The tests a device's vector is made of: every test of `names` that is not the
/// conformance side of a pair, sorted, once each.
pub fn vector_tests(names: &[&str], pairs: &[(String, String)]) -> Vec<String> {
    let conformance: std::collections::BTreeSet<&str> =
        pairs.iter().map(|(_, c)| c.as_str()).collect();
    let tests: std::collections::BTreeSet<&str> = names
        .iter()
        .copied()
        .filter(|t| !conformance.contains(t))
        .collect();
    tests.into_iter().map(str::to_string).collect()
}

/// The configurations drawn from `seed`, each with its index and run seed
/// (`weft tune --list-configs --json`).
pub fn configs_json(seed: &str, configs: &[StressConfig]) -> serde_json::Value {
    configs
        .iter()
        .enumerate()
        .map(|(k, c)| serde_json::json!({"index": k, "seed": run_seed(seed, k), "config": c}))
        .collect()
}

/// The per-dispatch seed of configuration `k`: the generator's seeded state and `k`.
pub fn run_seed(seed: &str, k: usize) -> u64 {
    ((ParkMiller::new(seed).state() as u32 as u64) << 32) | k as u64
}

/// One line summarising a configuration.
pub fn summary(c: &StressConfig) -> String {
    format!(
        "testingWorkgroups {} (of {}), workgroupSize {}, shuffle {}%, barrier {}%, memStress {}% ×{}, preStress {}% ×{}, stressLineSize {} × {} lines, memStride {}",
        c.testing_workgroups,
        c.max_workgroups,
        c.workgroup_size,
        c.shuffle_pct,
        c.barrier_pct,
        c.mem_stress_pct,
        c.mem_stress_iterations,
        c.pre_stress_pct,
        c.pre_stress_iterations,
        c.stress_line_size,
        c.stress_target_lines,
        c.mem_stride
    )
}

/// The results of tuning: `cells[k][t]` is test `t` under configuration `k`.
pub struct Tuning {
    pub seed: String,
    pub configs: Vec<StressConfig>,
    pub tests: Vec<Test>,
    pub cells: Vec<Vec<Option<Observation>>>,
}

/// Totals of one configuration over some tests.
#[derive(Clone, Copy, Debug)]
pub struct Score {
    pub config: usize,
    pub instances: u64,
    pub weak: u64,
    pub seconds: f64,
}

impl Score {
    pub fn per_instance(&self) -> f64 {
        if self.instances == 0 {
            0.0
        } else {
            self.weak as f64 / self.instances as f64
        }
    }
    pub fn per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.weak as f64 / self.seconds
        } else {
            0.0
        }
    }
}

impl Tuning {
    /// The configurations ranked for test `t` (every test when `None`): weak behaviours
    /// per second, then per instance, then the lower index. Configurations under which
    /// the test(s) did not run at all are left out.
    pub fn ranking(&self, t: Option<usize>) -> Vec<Score> {
        let mut out: Vec<Score> = Vec::new();
        for (k, row) in self.cells.iter().enumerate() {
            let mut s = Score {
                config: k,
                instances: 0,
                weak: 0,
                seconds: 0.0,
            };
            let mut any = false;
            for (ti, cell) in row.iter().enumerate() {
                if t.is_some_and(|x| x != ti) {
                    continue;
                }
                if let Some(o) = cell {
                    any = true;
                    s.instances += o.instances;
                    s.weak += o.weak();
                    s.seconds += o.seconds();
                }
            }
            if any {
                out.push(s);
            }
        }
        out.sort_by(|a, b| {
            b.per_second()
                .total_cmp(&a.per_second())
                .then(b.per_instance().total_cmp(&a.per_instance()))
                .then(a.config.cmp(&b.config))
        });
        out
    }

    /// The stress name of configuration `k` in the results database.
    pub fn stress_name(&self, k: usize) -> String {
        format!("tune:{}#{k}", self.seed)
    }
}

/// Runs every test under every configuration, recording each run (kind `tune`).
#[allow(clippy::too_many_arguments)]
pub fn tune(
    dev: &Device,
    tests: Vec<Test>,
    seed: &str,
    configs: Vec<StressConfig>,
    iterations: u32,
    rec: &mut Recorder,
    log: &mut dyn FnMut(String),
    status: &mut Status,
) -> Tuning {
    let mut cells = Vec::new();
    for (k, cfg) in configs.iter().enumerate() {
        let mut row = Vec::new();
        let s = run_seed(seed, k);
        for t in &tests {
            let started_at = weft_store::now_utc();
            let label = format!("#{k} {}", t.program.name);
            match crate::observe_with_bar(dev, t, cfg, iterations, s, None, &label) {
                Ok(o) => {
                    let info = RunInfo {
                        kind: "tune",
                        label: None,
                        started_at,
                        stress_name: format!("tune:{seed}#{k}"),
                        stress: cfg,
                        seed: s,
                        iterations,
                    };
                    if let Err(f) = rec.record(dev, t, &info, &o) {
                        log(format!("weft: {}", f.message));
                        status.tool = true;
                    }
                    log(format!(
                        "#{k} {}: {} weak of {} instances in {:.3} s",
                        t.program.name,
                        o.weak(),
                        o.instances,
                        o.seconds()
                    ));
                    row.push(Some(o));
                }
                Err(e) => {
                    if let RunError::Tool(_) = e {
                        status.tool = true;
                    }
                    log(format!(
                        "{}: under configuration #{k}: {}: {}",
                        t.path.display(),
                        e.kind(),
                        e.message()
                    ));
                    row.push(None);
                }
            }
        }
        cells.push(row);
    }
    Tuning {
        seed: seed.to_string(),
        configs,
        tests,
        cells,
    }
}

fn score_json(s: &Score) -> serde_json::Value {
    serde_json::json!({
        "config": s.config,
        "instances": s.instances,
        "weak": s.weak,
        "seconds": s.seconds,
        "weak_per_instance": s.per_instance(),
        "weak_per_second": s.per_second(),
    })
}

fn table(scores: &[Score]) -> String {
    let mut s = format!(
        "  {:>4}  {:>6}  {:>12}  {:>10}  {:>12}  {:>10}\n",
        "rank", "config", "instances", "weak", "weak %", "weak/s"
    );
    for (r, sc) in scores.iter().enumerate() {
        s += &format!(
            "  {:>4}  {:>6}  {:>12}  {:>10}  {:>12.4}  {:>10.1}\n",
            r + 1,
            format!("#{}", sc.config),
            sc.instances,
            sc.weak,
            sc.per_instance() * 100.0,
            sc.per_second()
        );
    }
    s
}

/// The ranked tables (text).
pub fn ranking_text(tu: &Tuning) -> String {
    let mut s = String::new();
    for (ti, t) in tu.tests.iter().enumerate() {
        s += &format!("{} ({})\n", t.program.name, t.path.display());
        s += &table(&tu.ranking(Some(ti)));
        s += "\n";
    }
    s += "overall\n";
    s += &table(&tu.ranking(None));
    s
}

/// The configurations and rankings as JSON.
pub fn tuning_json(tu: &Tuning) -> serde_json::Value {
    let configs: Vec<serde_json::Value> = tu
        .configs
        .iter()
        .enumerate()
        .map(|(k, c)| {
            serde_json::json!({
                "index": k,
                "stress_name": tu.stress_name(k),
                "seed": run_seed(&tu.seed, k),
                "config": c,
            })
        })
        .collect();
    let per_test: Vec<serde_json::Value> = tu
        .tests
        .iter()
        .enumerate()
        .map(|(ti, t)| {
            serde_json::json!({
                "test": t.program.name,
                "path": t.path,
                "ranking": tu.ranking(Some(ti)).iter().map(score_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "seed": tu.seed,
        "configs": configs,
        "tests": per_test,
        "overall": tu.ranking(None).iter().map(score_json).collect::<Vec<_>>(),
    })
}

pub fn configs_text(seed: &str, limits: Limits, configs: &[StressConfig]) -> String {
    let mut s = format!(
        "configurations (seed {seed}, limits {} workgroups of up to {}):\n",
        limits.max_workgroups, limits.max_workgroup_size
    );
    for (k, c) in configs.iter().enumerate() {
        s += &format!("  #{k}  {}\n", summary(c));
    }
    s
}

#[cfg(test)]
mod analysis_tests {
    use super::*;

    #[test]
    fn pairs_and_vectors() {
        let names = ["MP-CO", "MP", "SB", "LB-CO", "MP"];
        let pairs = family_pairs(&names);
        assert_eq!(pairs, [("MP".to_string(), "MP-CO".to_string())]);
        assert_eq!(vector_tests(&names, &pairs), ["LB-CO", "MP", "SB"]);
    }
}
