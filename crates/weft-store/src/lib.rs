//! weft's results database: what running litmus tests on GPUs observed (issue 5,
//! deliverable 6). One [`RunRecord`] per run of one test on one device under one stress
//! configuration: the device and driver identity, the test (name, path, format and the
//! SHA-256 of its source), the stress configuration and seed, the count of every outcome
//! with its class and model verdict, and the duration.
//!
//! Storage is SQLite (the `bundled` build, no system library) at
//! `$XDG_DATA_HOME/weft/results.db` by default. The schema is plain portable SQL (see
//! [`schema`]) so that a campaign server can hold the same model in PostgreSQL:
//! devices, tests and stress configurations are normalised into their own tables and
//! deduplicated, runs point at them, and outcomes hang off runs. Schema versions are tracked
//! in a `schema_version` table and migrated on open; a database newer than this code is
//! refused. Each recorded run is one write transaction; handles on one file from several
//! processes coexist (WAL journal, busy timeout).
//!
//! Stored forms: timestamps `YYYY-MM-DDTHH:MM:SSZ` ([`now_utc`]); JSON values as canonical
//! text (object keys sorted, no spaces); `u64` seeds as the `BIGINT` with the same bits
//! (seeds above `i64::MAX` read as negative in SQL, and come back exactly through this API);
//! other counts must fit in `i64`.
//!
//! [`render`] shows records as a person reads them (`weft results`).

pub mod render;
pub mod schema;
mod store;
mod time;

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

pub use store::{
    csv_cell, read_runs, validate, write_csv, Store, CLASSES, CSV_COLUMNS, KINDS, VERDICTS,
};
pub use time::{is_prefix, is_timestamp, now_utc, timestamp_utc};

/// The GPU (or CPU Vulkan device) a run used. Runs on the same backend, name, vendor,
/// driver and API share one `devices` row; `extra` is kept with each run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceRecord {
    /// `wgpu` or `cuda`.
    pub backend: String,
    pub name: String,
    pub vendor: String,
    /// Driver name and version.
    pub driver: String,
    /// `Vulkan 1.3`, `sm_90`...
    pub api: String,
    /// The architecture the driver reports (WebGPU's `GPUAdapterInfo.architecture`:
    /// `ampere`, `gen-12lp`...); empty when unknown.
    #[serde(default)]
    pub architecture: String,
    /// The browser a web run used (`Chrome 131`); empty for native runs.
    #[serde(default)]
    pub browser: String,
    /// The operating system (`Linux`, `Windows 11`); empty when unknown.
    #[serde(default)]
    pub os: String,
    /// Anything else the backend reports (limits, PCI id...), as observed at this run.
    pub extra: serde_json::Value,
}

impl DeviceRecord {
    /// The `devices` table's key columns and this device's values for them, in one order
    /// (the SQLite store and the PostgreSQL campaign server insert with them).
    pub fn key(&self) -> ([&'static str; 8], [&String; 8]) {
        (
            [
                "backend",
                "name",
                "vendor",
                "driver",
                "api",
                "architecture",
                "browser",
                "os",
            ],
            [
                &self.backend,
                &self.name,
                &self.vendor,
                &self.driver,
                &self.api,
                &self.architecture,
                &self.browser,
                &self.os,
            ],
        )
    }
}

/// A campaign submission: a batch of runs uploaded to a server together.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Submission {
    /// Chosen by the client; a retry with the same key is stored once.
    pub idempotency_key: String,
    /// Who sent it (the client's address as the server saw it).
    pub client: String,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub received_at: String,
    /// SHA-256 of the submission's canonical content: the same key with other content is
    /// refused.
    pub digest: String,
    /// An optional contact the visitor gave.
    pub contact: Option<String>,
}

/// A stored submission with its id and number of runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredSubmission {
    pub id: i64,
    #[serde(flatten)]
    pub submission: Submission,
    pub runs: u64,
}

/// The litmus test a run ran. Tests with the same name, format and source digest share one
/// `tests` row; `path` is kept with each run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestRecord {
    pub name: String,
    pub path: String,
    pub format: String,
    /// SHA-256 of the test source text, lower-case hex.
    pub digest: String,
}

/// One observed outcome and how often it was seen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeRecord {
    /// Canonical text, e.g. `0:r0=1; 1:r1=0; x=1`.
    pub outcome: String,
    /// `seq`, `interleaved` or `weak`.
    pub class: String,
    /// `allowed` or `forbidden` when the run was judged against a model.
    pub model_verdict: Option<String>,
    pub count: u64,
}

/// Everything about one run: what [`Store::record`] stores and [`Store::run`] gives back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// `run`, `tune` or `conform`.
    pub kind: String,
    pub label: Option<String>,
    /// `YYYY-MM-DDTHH:MM:SSZ` (see [`now_utc`]).
    pub started_at: String,
    pub duration_ms: u64,
    pub device: DeviceRecord,
    pub test: TestRecord,
    /// A preset name, a stress file path, or `tune#k`.
    pub stress_name: String,
    pub stress_config: serde_json::Value,
    pub seed: u64,
    pub iterations: u64,
    /// Test instances run in all (iterations × instances per iteration).
    pub instances: u64,
    /// The `.cat` model outcomes were judged against, if any.
    pub model: Option<String>,
    pub weft_version: String,
    /// The histogram, in the order it was recorded.
    pub outcomes: Vec<OutcomeRecord>,
}

/// A stored run with its id: the element of [`Store::export_json`]'s array.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredRun {
    pub id: i64,
    #[serde(flatten)]
    pub run: RunRecord,
}

/// Which runs a listing or an export covers; every set field must match.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Filter {
    /// Substring of the test name.
    pub test: Option<String>,
    /// Substring of the device name.
    pub device: Option<String>,
    /// Backend, exactly.
    pub backend: Option<String>,
    /// Run kind, exactly.
    pub kind: Option<String>,
    /// Runs started at or after this timestamp, or a prefix of one (`2025-03-01`).
    pub since: Option<String>,
    /// Only the most recent N of the matching runs.
    pub limit: Option<usize>,
}

/// One line of a listing: a run's identity and its counts per class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub id: i64,
    pub started_at: String,
    pub kind: String,
    pub label: Option<String>,
    pub backend: String,
    pub device: String,
    pub test: String,
    pub stress_name: String,
    pub seed: u64,
    pub instances: u64,
    /// The model outcomes were judged against (`forbidden` is 0 without one).
    pub model: Option<String>,
    pub seq: u64,
    pub interleaved: u64,
    pub weak: u64,
    /// Instances whose outcome the run's model forbids.
    pub forbidden: u64,
    pub duration_ms: u64,
}

/// Totals for one (test, stress configuration name) over the matching runs: what the tuner
/// ranks configurations by.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeakRate {
    pub test: String,
    pub stress_name: String,
    pub runs: u64,
    pub instances: u64,
    pub weak: u64,
}

impl WeakRate {
    /// Weak outcomes per instance (0 when no instance ran).
    pub fn rate(&self) -> f64 {
        if self.instances == 0 {
            0.0
        } else {
            self.weak as f64 / self.instances as f64
        }
    }
}

/// What can go wrong with the results database.
#[derive(Debug)]
pub enum StoreError {
    /// The path cannot hold a database (a directory, an uncreatable parent, unwritable...).
    Path { path: PathBuf, message: String },
    /// A read-only command found no database at the path.
    Missing { path: PathBuf },
    /// The file exists but is not a weft results database.
    NotWeft { path: PathBuf, message: String },
    /// The database was written by a newer weft.
    SchemaTooNew {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    /// No default path: neither `XDG_DATA_HOME` nor `HOME` is set.
    NoDefaultPath,
    /// A record that cannot be stored as given (bad timestamp, unknown class...).
    Invalid(String),
    /// SQLite reported an error.
    Sqlite(rusqlite::Error),
    /// A stored JSON column could not be read, or JSON output could not be written.
    Json(serde_json::Error),
    /// CSV output could not be written.
    Csv(csv::Error),
    /// Output could not be written.
    Io(std::io::Error),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Path { path, message } => write!(f, "{}: {message}", path.display()),
            StoreError::Missing { path } => {
                write!(f, "{}: no results database there", path.display())
            }
            StoreError::NotWeft { path, message } => write!(
                f,
                "{}: not a weft results database ({message})",
                path.display()
            ),
            StoreError::SchemaTooNew { path, found, known } => write!(
                f,
                "{}: schema version {found} is newer than this weft knows ({known}); \
                 use a newer weft",
                path.display()
            ),
            StoreError::NoDefaultPath => write!(
                f,
                "no default results database: set XDG_DATA_HOME or HOME, or give a path"
            ),
            StoreError::Invalid(m) => write!(f, "invalid record: {m}"),
            StoreError::Sqlite(e) => write!(f, "database error: {e}"),
            StoreError::Json(e) => write!(f, "JSON error: {e}"),
            StoreError::Csv(e) => write!(f, "CSV error: {e}"),
            StoreError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Sqlite(e) => Some(e),
            StoreError::Json(e) => Some(e),
            StoreError::Csv(e) => Some(e),
            StoreError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sqlite(e)
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError::Json(e)
    }
}

impl From<csv::Error> for StoreError {
    fn from(e: csv::Error) -> Self {
        StoreError::Csv(e)
    }
}

impl From<std::io::Error> for StoreError {
    fn from(e: std::io::Error) -> Self {
        StoreError::Io(e)
    }
}

/// `Result` with [`StoreError`].
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// `v` as canonical JSON text: object keys sorted at every level, no whitespace. Equal
/// values give equal text, whatever order their keys were built in.
pub fn canonical_json(v: &serde_json::Value) -> String {
    fn sorted(v: &serde_json::Value) -> serde_json::Value {
        match v {
            serde_json::Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                let mut out = serde_json::Map::new();
                for k in keys {
                    out.insert(k.clone(), sorted(&m[k]));
                }
                serde_json::Value::Object(out)
            }
            serde_json::Value::Array(a) => serde_json::Value::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(v).to_string()
}
