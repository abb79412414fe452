//! The JSON answers of the API that are not stored records, as Rust types, and the list
//! of every type the web app reads or sends: `declarations` gives their TypeScript
//! declarations (ts-rs), which `tests/ts_types.rs` compares with the committed
//! `web/src/api-types.ts` (issue 29 item 13: the web app's API client is typed from the
//! server's own types, and a stale file fails the test).

use serde::Serialize;
use ts_rs::TS;

/// One SC outcome of a test and its class.
#[derive(Serialize, TS)]
pub struct ScOutcome {
    pub outcome: String,
    /// `seq` or `interleaved`.
    pub class: String,
}

/// `GET /api/tests/{name}`.
#[derive(Serialize, TS)]
pub struct TestDetail {
    pub name: String,
    pub role: String,
    pub gpuharbor_name: String,
    pub pairs: Vec<String>,
    pub digest: String,
    pub corpus: String,
    pub tuning: bool,
    pub target: String,
    pub source: String,
    pub threads: usize,
    /// The threads as C11 litmus text (`weft show --to c`).
    pub text: String,
    pub sc_outcomes: Vec<ScOutcome>,
    /// The test's `*.meta.json`.
    #[ts(type = "Record<string, unknown>")]
    pub meta: serde_json::Value,
}

/// `GET /api/presets`: one stress preset.
#[derive(Serialize, TS)]
pub struct PresetInfo {
    pub name: String,
    pub description: String,
    /// GPUHarbor's parameter names (camelCase) and values.
    #[ts(type = "Record<string, number | boolean>")]
    pub config: weft_stress::StressConfig,
}

/// `GET /api/configs`: configuration `index` of a tuning seed.
#[derive(Serialize, TS)]
pub struct TuneConfig {
    pub index: usize,
    pub stress_name: String,
    /// The run seed as decimal text (above 2^53, past what a JavaScript number holds).
    pub seed: String,
    #[ts(type = "Record<string, number | boolean>")]
    pub config: weft_stress::StressConfig,
}

/// `POST /api/submissions`: the submission's id and its runs' ids; `stored` is false for
/// a retry of a submission already stored.
#[derive(Serialize, TS)]
pub struct SubmitAnswer {
    pub submission: i64,
    pub runs: Vec<i64>,
    pub stored: bool,
}

/// `GET /api/submissions`: the public list.
#[derive(Serialize, TS)]
pub struct SubmissionListItem {
    pub id: i64,
    pub received_at: String,
    pub runs: u64,
}

/// The TypeScript declarations of every type of the API the web app uses, in file order.
pub fn declarations() -> Vec<String> {
    let cfg = ts_rs::Config::new().with_large_int("number");
    vec![
        crate::catalog::Summary::decl(&cfg),
        TestDetail::decl(&cfg),
        ScOutcome::decl(&cfg),
        PresetInfo::decl(&cfg),
        TuneConfig::decl(&cfg),
        crate::submit::SubmissionIn::decl(&cfg),
        crate::submit::DeviceIn::decl(&cfg),
        crate::submit::RunIn::decl(&cfg),
        crate::submit::RowIn::decl(&cfg),
        crate::submit::OutcomeIn::decl(&cfg),
        SubmitAnswer::decl(&cfg),
        SubmissionListItem::decl(&cfg),
        weft_analyze::Report::decl(&cfg),
        weft_analyze::Device::decl(&cfg),
        weft_analyze::BestRate::decl(&cfg),
        weft_analyze::VendorRate::decl(&cfg),
        weft_analyze::Similarity::decl(&cfg),
        weft_analyze::VendorSimilarity::decl(&cfg),
        weft_analyze::Nearest::decl(&cfg),
        weft_analyze::Clustering::decl(&cfg),
        weft_analyze::PairCorrelation::decl(&cfg),
        weft_analyze::Correlation::decl(&cfg),
        weft_analyze::DeviceTime::decl(&cfg),
        weft_analyze::LockRow::decl(&cfg),
    ]
}

/// The whole `web/src/api-types.ts`.
pub fn typescript() -> String {
    let mut s = String::from(
        "// Generated from weft-server's and weft-analyze's Rust types by ts-rs: do not edit.\n\
         // Regenerate with `WEFT_UPDATE=1 cargo test -p weft-server --test ts_types`.\n\n",
    );
    for d in declarations() {
        s += "export ";
        s += &d;
        s += "\n\n";
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    s
}
