//! `weft run`'s loop: every test run once on a device under one stress configuration,
//! judged by an optional model, recorded (kind `run`), and reported per test — its
//! histogram as text, or one JSON item — while the command's [`Status`] collects what
//! went wrong.

use weft_stress::StressConfig;

use crate::{
    histogram_text, observation_json, observe_with_bar, Device, ExitCode, Recorder, RunError,
    RunInfo, Status, Test,
};

/// How the tests are run and recorded.
pub struct RunPlan<'a> {
    pub stress_name: &'a str,
    pub stress: &'a StressConfig,
    pub iterations: u32,
    pub seed: u64,
    /// The model judging the outcomes, with its name.
    pub model: Option<(&'a str, &'a weft_cat::Model, crate::judge::Simulate)>,
    /// The label recorded with each run.
    pub label: Option<String>,
    /// One JSON item per test instead of text.
    pub json: bool,
}

/// What running the tests gave: the JSON items (with `json`) and how many tests ran.
pub struct RunOutcome {
    pub items: Vec<serde_json::Value>,
    pub ran: usize,
}

/// Runs each test of `tests` on `dev`; each text report goes to `say` (stdout), errors to
/// stderr as `PATH: KIND: MESSAGE`. A forbidden outcome, a refused test named directly, a
/// tool error or a recording failure is noted in `status`.
pub fn run_tests(
    dev: &Device,
    tests: &[Test],
    plan: &RunPlan,
    rec: &mut Recorder,
    say: &mut dyn FnMut(&str),
    status: &mut Status,
) -> RunOutcome {
    let mut out = RunOutcome {
        items: Vec::new(),
        ran: 0,
    };
    for t in tests {
        let started_at = weft_store::now_utc();
        let label = t.program.name.clone();
        let r = observe_with_bar(
            dev,
            t,
            plan.stress,
            plan.iterations,
            plan.seed,
            plan.model,
            &label,
        );
        let o = match r {
            Ok(o) => o,
            Err(e) => {
                match &e {
                    RunError::Refused(_) if t.from_dir => {}
                    RunError::Refused(_) | RunError::BadInput(_) => status.bad = true,
                    RunError::Tool(_) => status.tool = true,
                }
                eprintln!("{}: {}: {}", t.path.display(), e.kind(), e.message());
                if plan.json {
                    out.items.push(serde_json::json!({
                        "path": t.path,
                        "test": t.program.name,
                        "status": e.kind(),
                        "message": e.message(),
                    }));
                }
                continue;
            }
        };
        out.ran += 1;
        let info = RunInfo {
            kind: "run",
            label: plan.label.clone(),
            started_at,
            stress_name: plan.stress_name.to_string(),
            stress: plan.stress,
            seed: plan.seed,
            iterations: plan.iterations,
        };
        let id = match rec.record(dev, t, &info, &o) {
            Ok(id) => id,
            Err(f) => {
                eprintln!("weft: {}", f.message);
                status.tool |= f.code == ExitCode::Internal;
                status.bad |= f.code == ExitCode::BadInput;
                None
            }
        };
        if o.forbidden() > 0 {
            status.violation = true;
        }
        if plan.json {
            let mut j = observation_json(&o);
            j["path"] = serde_json::json!(t.path);
            j["test"] = serde_json::json!(t.program.name);
            j["status"] = serde_json::json!("ok");
            j["run_id"] = serde_json::json!(id);
            out.items.push(j);
        } else {
            let mut s = format!("{} ({})\n", t.program.name, t.path.display());
            s += &histogram_text(&o);
            if let Some(id) = id {
                s += &format!("  recorded   run {id}\n");
            }
            if o.forbidden() > 0 {
                s += &format!(
                    "  FAIL       {} instances show outcomes {} forbids\n",
                    o.forbidden(),
                    o.model.clone().unwrap_or_default()
                );
            }
            say(&s);
        }
    }
    out
}

/// The tests named by `paths` (files, or directories searched as `weft sim` searches
/// them), in order; one that cannot be read or parsed is reported on stderr and noted as
/// bad input in `status`.
pub fn load_tests(paths: &[std::path::PathBuf], status: &mut Status) -> Vec<Test> {
    let mut out = Vec::new();
    for arg in paths {
        let from_dir = arg.is_dir();
        for f in weft_litmus::files::collect(std::slice::from_ref(arg)) {
            match f {
                Ok(path) => match Test::load(&path, from_dir) {
                    Ok(t) => out.push(t),
                    Err(m) => {
                        eprintln!("{m}");
                        status.bad = true;
                    }
                },
                Err((p, m)) => {
                    eprintln!("{}: {m}", p.display());
                    status.bad = true;
                }
            }
        }
    }
    out
}
