//! GPUHarbor's conformance step (paper 001 §3.3, §5.1) after tuning: which configurations
//! each conformance test runs under ([`plans`]: the overall best, and the best of its
//! paired tuning test), and the summary of the runs ([`ConformLine`]) as a table or JSON.

use weft_stress::StressConfig;

use crate::tune::{family, run_seed, Tuning};
use crate::{histogram_text, observe_with_bar, Device, Recorder, RunError, RunInfo, Status, Test};

/// One configuration a test runs under: stress name, configuration, seed.
pub type Plan = (String, StressConfig, u64);

/// Per test, the configurations it runs under: the tuning's overall best `best`, then the
/// best of its family's tuning test when that differs; seeds from `seed` as tuning drew
/// them.
pub fn plans(tu: &Tuning, best: usize, tests: &[Test], seed: &str) -> Vec<Vec<Plan>> {
    let mut plans = Vec::new();
    for t in tests {
        let mut ks = vec![best];
        if let Some(ti) = tu
            .tests
            .iter()
            .position(|m| m.program.name == family(&t.program.name))
        {
            if let Some(s) = tu.ranking(Some(ti)).first() {
                if !ks.contains(&s.config) {
                    ks.push(s.config);
                }
            }
        }
        plans.push(
            ks.into_iter()
                .map(|k| (tu.stress_name(k), tu.configs[k].clone(), run_seed(seed, k)))
                .collect(),
        );
    }
    plans
}

/// One conformance run's summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConformLine {
    pub test: String,
    pub config: String,
    pub instances: u64,
    pub weak: u64,
    pub forbidden: u64,
    pub run_id: Option<i64>,
}

/// Runs that observed an outcome the model forbids.
pub fn failures(lines: &[ConformLine]) -> usize {
    lines.iter().filter(|l| l.forbidden > 0).count()
}

/// The runs as a table, then `N runs, M with outcomes MODEL forbids`.
pub fn summary_text(lines: &[ConformLine], model_name: &str) -> String {
    let w = lines.iter().map(|l| l.test.len()).max().unwrap_or(4).max(4);
    let cw = lines
        .iter()
        .map(|l| l.config.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut s = format!(
        "{:<w$}  {:<cw$}  {:>12}  {:>8}  {:>9}\n",
        "test", "config", "instances", "weak", "forbidden"
    );
    for l in lines {
        s += &format!(
            "{:<w$}  {:<cw$}  {:>12}  {:>8}  {:>9}\n",
            l.test, l.config, l.instances, l.weak, l.forbidden
        );
    }
    s += &format!(
        "{} runs, {} with outcomes {model_name} forbids\n",
        lines.len(),
        failures(lines)
    );
    s
}

/// The runs as JSON rows (keys sorted).
pub fn summary_rows(lines: &[ConformLine]) -> Vec<serde_json::Value> {
    lines
        .iter()
        .map(|l| {
            serde_json::json!({
                "test": l.test, "config": l.config, "instances": l.instances,
                "weak": l.weak, "forbidden": l.forbidden, "run_id": l.run_id,
            })
        })
        .collect()
}

/// Runs each test under each configuration of its plan (kind `conform`), judged by `model`
/// (name, model); a run that shows a forbidden outcome is reported to `say` (stdout) with
/// its histogram, errors go to stderr. Returns the summaries and how many runs ran.
#[allow(clippy::too_many_arguments)]
pub fn run_plans(
    dev: &Device,
    tests: &[Test],
    plans: &[Vec<Plan>],
    iterations: u32,
    model: (&str, &weft_cat::Model, crate::judge::Simulate),
    rec: &mut Recorder,
    say: &mut dyn FnMut(&str),
    status: &mut Status,
) -> (Vec<ConformLine>, usize) {
    let mut lines: Vec<ConformLine> = Vec::new();
    let mut ran = 0usize;
    for (t, plan) in tests.iter().zip(plans) {
        for (name, cfg, seed) in plan {
            let started_at = weft_store::now_utc();
            let label = format!("{} {name}", t.program.name);
            match observe_with_bar(dev, t, cfg, iterations, *seed, Some(model), &label) {
                Ok(o) => {
                    ran += 1;
                    let info = RunInfo {
                        kind: "conform",
                        label: None,
                        started_at,
                        stress_name: name.clone(),
                        stress: cfg,
                        seed: *seed,
                        iterations,
                    };
                    let id = match rec.record(dev, t, &info, &o) {
                        Ok(id) => id,
                        Err(f) => {
                            eprintln!("weft: {}", f.message);
                            status.tool = true;
                            None
                        }
                    };
                    if o.forbidden() > 0 {
                        status.violation = true;
                        say(&format!(
                            "FAIL {} under {name}: outcomes {} forbids were observed\n{}",
                            t.program.name,
                            model.0,
                            histogram_text(&o)
                        ));
                    }
                    lines.push(ConformLine {
                        test: t.program.name.clone(),
                        config: name.clone(),
                        instances: o.instances,
                        weak: o.weak(),
                        forbidden: o.forbidden(),
                        run_id: id,
                    });
                }
                Err(e) => {
                    match &e {
                        RunError::Refused(_) if t.from_dir => {}
                        RunError::Refused(_) | RunError::BadInput(_) => status.bad = true,
                        RunError::Tool(_) => status.tool = true,
                    }
                    eprintln!(
                        "{}: under {name}: {}: {}",
                        t.path.display(),
                        e.kind(),
                        e.message()
                    );
                }
            }
        }
    }
    (lines, ran)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_rows() {
        let lines = [ConformLine {
            test: "MP-CO".into(),
            config: "tuned-0".into(),
            instances: 1000,
            weak: 0,
            forbidden: 3,
            run_id: Some(7),
        }];
        assert_eq!(
            summary_text(&lines, "webgpu"),
            "test   config      instances      weak  forbidden\n\
             MP-CO  tuned-0          1000         0          3\n\
             1 runs, 1 with outcomes webgpu forbids\n"
        );
        assert_eq!(
            summary_rows(&lines)[0].to_string(),
            r#"{"config":"tuned-0","forbidden":3,"instances":1000,"run_id":7,"test":"MP-CO","weak":0}"#
        );
    }
}
