//! The analyses of a litmus-testing campaign (GPUHarbor, paper 001 §4-5), computed from
//! the runs of the results database:
//!
//! - [`best_rates`]: a device's weak-behaviour rate for a test is its rate in the stress
//!   configuration that maximises it (§4.1 Fig. 6, §4.2 Table 2), with per-vendor mean and
//!   median;
//! - [`similarity`]: a device's vector is its non-sequential (interleaved + weak) rate for
//!   every test under every configuration of one tuning seed; cosine similarity between
//!   devices, per-vendor and overall statistics (§5.2 Table 3), the nearest known device;
//! - [`kmeans`]: k-means over the vectors with the elbow method and one suggested device
//!   per cluster (§5.2 Table 4);
//! - [`correlation`]: Pearson's r between a mutant's weak rate and its conformance test's
//!   violation rate over the configurations, with a two-sided Student t-test on N − 2
//!   degrees of freedom (§5.1);
//! - [`durations`]: testing time per device by vendor, runs over one minute dropped and
//!   imputed from a neighbouring run (§4, Fig. 5);
//! - [`lock_table`]: the lock case study (§5.3 Table 5), failing instances per device and
//!   lock test, fenced and unfenced, with the no-lock baseline.
//!
//! [`analyze`] runs them all into one serialisable [`Report`]; [`tables_csv`] exports its
//! tables as CSV, [`text`] as text tables.

pub mod campaign;
pub mod cluster;
pub mod locks;
pub mod stats;
pub mod text;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use ts_rs::TS;
use weft_store::{DeviceRecord, StoredRun};

pub use campaign::{Catalog, CatalogTest, Query};
pub use cluster::{kmeans, Clustering};
pub use locks::{lock_table, LockRow, LockTest};
pub use stats::{cosine, mean, median, pearson, Correlation};

/// Which analyses to run and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The tuning seed whose configurations make the device vectors and correlations
    /// (stress names `tune:<seed>#<k>`); default: the seed with the most runs.
    pub seed: Option<String>,
    /// Number of clusters; default: the elbow of the distortion curve.
    pub clusters: Option<usize>,
    /// (mutant, conformance test) pairs to correlate.
    pub pairs: Vec<(String, String)>,
    /// The tests whose runs make the device vectors (the mutants; paper 001 §5.2); every
    /// test when empty.
    pub vector_tests: Vec<String>,
    /// The lock tests of the case study (§5.3 Table 5) and how to read their counter.
    pub locks: Vec<LockTest>,
}

/// A device as the analyses name it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, TS)]
pub struct Device {
    pub vendor: String,
    pub architecture: String,
    pub name: String,
    pub backend: String,
    pub browser: String,
    pub os: String,
    pub driver: String,
}

impl Device {
    fn of(d: &DeviceRecord) -> Device {
        Device {
            vendor: d.vendor.clone(),
            architecture: d.architecture.clone(),
            name: d.name.clone(),
            backend: d.backend.clone(),
            browser: d.browser.clone(),
            os: d.os.clone(),
            driver: d.driver.clone(),
        }
    }

    /// One line naming the device.
    pub fn label(&self) -> String {
        let mut s = self.name.clone();
        let extra: Vec<&str> = [self.browser.as_str(), self.os.as_str()]
            .into_iter()
            .filter(|x| !x.is_empty())
            .collect();
        if !extra.is_empty() {
            s += &format!(" ({})", extra.join(", "));
        }
        s
    }

    /// A device known only by vendor and architecture (WebGPU hides the model).
    pub fn is_unknown_model(&self) -> bool {
        let n = self.name.trim();
        n.is_empty() || n == format!("{} {}", self.vendor, self.architecture).trim()
    }
}

/// Totals of the runs of one device, test and stress configuration.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Cell {
    pub runs: u64,
    pub instances: u64,
    pub seq: u64,
    pub interleaved: u64,
    pub weak: u64,
    /// Instances whose outcome the run's model forbids (conformance violations).
    pub violations: u64,
    pub seconds: f64,
}

impl Cell {
    fn rate(&self, n: u64) -> f64 {
        if self.instances == 0 {
            0.0
        } else {
            n as f64 / self.instances as f64
        }
    }
    pub fn weak_rate(&self) -> f64 {
        self.rate(self.weak)
    }
    pub fn violation_rate(&self) -> f64 {
        self.rate(self.violations)
    }
    pub fn non_seq_rate(&self) -> f64 {
        self.rate(self.interleaved + self.weak)
    }
}

/// The runs grouped by device, test and stress name.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub devices: Vec<Device>,
    /// `(device index, test, stress name)` → totals.
    pub cells: BTreeMap<(usize, String, String), Cell>,
    /// Per device, its runs' (start time, run id, duration in ms), for durations.
    pub times: Vec<Vec<(String, i64, u64)>>,
}

impl Dataset {
    pub fn from_runs(runs: &[StoredRun]) -> Dataset {
        let mut index: BTreeMap<Device, usize> = BTreeMap::new();
        let mut ds = Dataset::default();
        for r in runs {
            let d = Device::of(&r.run.device);
            let di = *index.entry(d.clone()).or_insert_with(|| {
                ds.devices.push(d);
                ds.times.push(Vec::new());
                ds.devices.len() - 1
            });
            let c = ds
                .cells
                .entry((di, r.run.test.name.clone(), r.run.stress_name.clone()))
                .or_default();
            c.runs += 1;
            c.instances += r.run.instances;
            c.seconds += r.run.duration_ms as f64 / 1000.0;
            for o in &r.run.outcomes {
                match o.class.as_str() {
                    "seq" => c.seq += o.count,
                    "interleaved" => c.interleaved += o.count,
                    _ => c.weak += o.count,
                }
                if o.model_verdict.as_deref() == Some("forbidden") {
                    c.violations += o.count;
                }
            }
            ds.times[di].push((r.run.started_at.clone(), r.id, r.run.duration_ms));
        }
        ds
    }

    /// The tests present, sorted.
    pub fn tests(&self) -> Vec<String> {
        let s: BTreeSet<&String> = self.cells.keys().map(|(_, t, _)| t).collect();
        s.into_iter().cloned().collect()
    }

    /// The tuning seed with the most runs (`tune:<seed>#k` stress names).
    pub fn main_seed(&self) -> Option<String> {
        let mut n: BTreeMap<String, u64> = BTreeMap::new();
        for ((_, _, s), c) in &self.cells {
            if let Some(seed) = tune_seed(s) {
                *n.entry(seed.0.to_string()).or_default() += c.runs;
            }
        }
        n.into_iter().max_by_key(|(_, v)| *v).map(|(s, _)| s)
    }
}

/// `tune:<seed>#<k>` → `(seed, k)`.
pub fn tune_seed(stress_name: &str) -> Option<(&str, usize)> {
    let rest = stress_name.strip_prefix("tune:")?;
    let (seed, k) = rest.rsplit_once('#')?;
    Some((seed, k.parse().ok()?))
}

/// One device's best rate for one test.
#[derive(Clone, Debug, Serialize, TS)]
pub struct BestRate {
    pub device: usize,
    pub test: String,
    /// Weak behaviours per instance in the configuration that maximises it.
    pub rate: f64,
    pub stress_name: String,
    pub instances: u64,
    pub weak: u64,
}

/// Per vendor and test: the mean and median of its devices' best rates (Fig. 6).
#[derive(Clone, Debug, Serialize, TS)]
pub struct VendorRate {
    pub vendor: String,
    pub test: String,
    pub devices: usize,
    pub mean: f64,
    pub median: f64,
}

/// The best rate of every device for every test it ran (paper 001 §4.1-4.2).
pub fn best_rates(ds: &Dataset) -> Vec<BestRate> {
    let mut best: BTreeMap<(usize, String), BestRate> = BTreeMap::new();
    for ((d, t, s), c) in &ds.cells {
        let r = c.weak_rate();
        let e = best.entry((*d, t.clone())).or_insert_with(|| BestRate {
            device: *d,
            test: t.clone(),
            rate: -1.0,
            stress_name: s.clone(),
            instances: 0,
            weak: 0,
        });
        if r > e.rate {
            e.rate = r;
            e.stress_name = s.clone();
            e.instances = c.instances;
            e.weak = c.weak;
        }
    }
    best.into_values().collect()
}

/// Mean and median of the best rates per vendor and test, plus an `All` vendor.
pub fn vendor_rates(ds: &Dataset, best: &[BestRate]) -> Vec<VendorRate> {
    let mut groups: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
    for b in best {
        let v = ds.devices[b.device].vendor.clone();
        groups.entry((v, b.test.clone())).or_default().push(b.rate);
        groups
            .entry(("All".into(), b.test.clone()))
            .or_default()
            .push(b.rate);
    }
    groups
        .into_iter()
        .map(|((vendor, test), xs)| VendorRate {
            vendor,
            test,
            devices: xs.len(),
            mean: mean(&xs),
            median: median(&xs),
        })
        .collect()
}

/// The similarity analysis of one seed (paper 001 §5.2).
#[derive(Clone, Debug, Serialize, TS)]
pub struct Similarity {
    pub seed: String,
    /// The devices with a vector (indices into the report's devices).
    pub devices: Vec<usize>,
    /// The vector's dimensions: `(test, configuration index)`.
    pub dimensions: Vec<(String, usize)>,
    pub vectors: Vec<Vec<f64>>,
    /// `matrix[i][j]`: cosine similarity of `devices[i]` and `devices[j]`.
    pub matrix: Vec<Vec<f64>>,
    /// Per vendor over its pairs, then `All` over every pair (Table 3).
    pub vendors: Vec<VendorSimilarity>,
    /// For every device, the most similar other device.
    pub nearest: Vec<Nearest>,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct VendorSimilarity {
    pub vendor: String,
    pub pairs: usize,
    pub avg: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

#[derive(Clone, Debug, Serialize, TS)]
pub struct Nearest {
    pub device: usize,
    /// The most similar device with a known model (not only vendor and architecture).
    pub nearest_known: Option<usize>,
    pub similarity: f64,
    /// Whether `device` itself reported only vendor and architecture.
    pub unknown_model: bool,
}

/// Device vectors of `seed`'s configurations (over `tests`, every test when empty), their cosine similarities and statistics.
pub fn similarity(ds: &Dataset, seed: &str, tests: &[String]) -> Similarity {
    let mut dims: BTreeSet<(String, usize)> = BTreeSet::new();
    let mut devs: BTreeSet<usize> = BTreeSet::new();
    for (d, t, s) in ds.cells.keys() {
        if !tests.is_empty() && !tests.contains(t) {
            continue;
        }
        if let Some((sd, k)) = tune_seed(s) {
            if sd == seed {
                dims.insert((t.clone(), k));
                devs.insert(*d);
            }
        }
    }
    let dims: Vec<(String, usize)> = dims.into_iter().collect();
    let devices: Vec<usize> = devs.into_iter().collect();
    let vectors: Vec<Vec<f64>> = devices
        .iter()
        .map(|&d| {
            dims.iter()
                .map(|(t, k)| {
                    ds.cells
                        .get(&(d, t.clone(), format!("tune:{seed}#{k}")))
                        .map(|c| c.non_seq_rate())
                        .unwrap_or(0.0)
                })
                .collect()
        })
        .collect();
    let n = devices.len();
    let matrix: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| cosine(&vectors[i], &vectors[j])).collect())
        .collect();
    let mut by_vendor: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut all = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let s = matrix[i][j];
            all.push(s);
            let (a, b) = (&ds.devices[devices[i]], &ds.devices[devices[j]]);
            if a.vendor == b.vendor {
                by_vendor.entry(a.vendor.clone()).or_default().push(s);
            }
        }
    }
    let stat = |vendor: String, xs: &[f64]| VendorSimilarity {
        vendor,
        pairs: xs.len(),
        avg: mean(xs),
        median: median(xs),
        min: xs.iter().copied().fold(f64::INFINITY, f64::min),
        max: xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    };
    let mut vendors: Vec<VendorSimilarity> =
        by_vendor.into_iter().map(|(v, xs)| stat(v, &xs)).collect();
    if !all.is_empty() {
        vendors.push(stat("All".into(), &all));
    }
    let nearest = (0..n)
        .map(|i| {
            let best = (0..n)
                .filter(|&j| j != i && !ds.devices[devices[j]].is_unknown_model())
                .max_by(|&a, &b| matrix[i][a].total_cmp(&matrix[i][b]));
            Nearest {
                device: devices[i],
                nearest_known: best.map(|j| devices[j]),
                similarity: best.map(|j| matrix[i][j]).unwrap_or(0.0),
                unknown_model: ds.devices[devices[i]].is_unknown_model(),
            }
        })
        .collect();
    Similarity {
        seed: seed.to_string(),
        devices,
        dimensions: dims,
        vectors,
        matrix,
        vendors,
        nearest,
    }
}

/// The correlation of one pair on one device (paper 001 §5.1).
#[derive(Clone, Debug, Serialize, TS)]
pub struct PairCorrelation {
    pub device: usize,
    pub mutant: String,
    pub conformance: String,
    /// Configurations where both tests ran.
    pub n: usize,
    /// `None` when n < 3 or a rate is constant.
    pub result: Option<Correlation>,
}

/// Pearson correlation of `mutant`'s weak rate with `conformance`'s violation rate over
/// the configurations of `seed`, on every device that ran both.
pub fn correlation(
    ds: &Dataset,
    seed: &str,
    mutant: &str,
    conformance: &str,
) -> Vec<PairCorrelation> {
    let mut out = Vec::new();
    for d in 0..ds.devices.len() {
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for ((dd, t, s), c) in &ds.cells {
            if *dd != d || t != mutant {
                continue;
            }
            let Some((sd, _)) = tune_seed(s) else {
                continue;
            };
            if sd != seed {
                continue;
            }
            if let Some(cc) = ds.cells.get(&(d, conformance.to_string(), s.clone())) {
                xs.push(c.weak_rate());
                ys.push(cc.violation_rate());
            }
        }
        if xs.is_empty() {
            continue;
        }
        out.push(PairCorrelation {
            device: d,
            mutant: mutant.to_string(),
            conformance: conformance.to_string(),
            n: xs.len(),
            result: pearson(&xs, &ys),
        });
    }
    out
}

/// One device's testing time (Fig. 5).
#[derive(Clone, Debug, Serialize, TS)]
pub struct DeviceTime {
    pub device: usize,
    pub vendor: String,
    pub minutes: f64,
    /// Runs over one minute, dropped and replaced by a neighbour's duration.
    pub imputed: usize,
}

/// Longest plausible run; longer ones are taken as the machine sleeping (paper 001 §4).
pub const MAX_RUN_MS: u64 = 60_000;

/// Testing time per device: runs longer than a minute are replaced by the duration of
/// the previous run of the same device (the next one for the first run), in start order.
pub fn durations(ds: &Dataset) -> Vec<DeviceTime> {
    let mut out = Vec::new();
    for (d, times) in ds.times.iter().enumerate() {
        let mut t = times.clone();
        t.sort();
        let ok: Vec<Option<u64>> = t
            .iter()
            .map(|(_, _, ms)| (*ms <= MAX_RUN_MS).then_some(*ms))
            .collect();
        let mut total = 0u64;
        let mut imputed = 0;
        for i in 0..ok.len() {
            match ok[i] {
                Some(ms) => total += ms,
                None => {
                    imputed += 1;
                    let prev = ok[..i].iter().rev().flatten().next();
                    let next = ok[i + 1..].iter().flatten().next();
                    total += prev.or(next).copied().unwrap_or(0);
                }
            }
        }
        out.push(DeviceTime {
            device: d,
            vendor: ds.devices[d].vendor.clone(),
            minutes: total as f64 / 60_000.0,
            imputed,
        });
    }
    out
}

/// Everything, for the JSON API and `weft analyze`.
#[derive(Clone, Debug, Serialize, TS)]
#[ts(rename = "AnalysisReport")]
pub struct Report {
    pub devices: Vec<Device>,
    pub tests: Vec<String>,
    pub runs: usize,
    pub best_rates: Vec<BestRate>,
    pub vendor_rates: Vec<VendorRate>,
    pub similarity: Option<Similarity>,
    pub clustering: Option<Clustering>,
    pub correlations: Vec<PairCorrelation>,
    pub durations: Vec<DeviceTime>,
    /// Table 5: failing instances per device and lock test.
    pub locks: Vec<LockRow>,
}

/// Runs every analysis on `runs`.
pub fn analyze(runs: &[StoredRun], opts: &Options) -> Report {
    let ds = Dataset::from_runs(runs);
    let best = best_rates(&ds);
    let vendor = vendor_rates(&ds, &best);
    let seed = opts.seed.clone().or_else(|| ds.main_seed());
    let similarity = seed
        .as_deref()
        .map(|s| similarity(&ds, s, &opts.vector_tests));
    let clustering = similarity.as_ref().and_then(|s| {
        if s.devices.is_empty() {
            return None;
        }
        Some(kmeans(&s.vectors, &s.devices, opts.clusters))
    });
    let correlations = match &seed {
        Some(s) => opts
            .pairs
            .iter()
            .flat_map(|(m, c)| correlation(&ds, s, m, c))
            .collect(),
        None => Vec::new(),
    };
    let devices = &ds.devices;
    let locks = lock_table(
        runs,
        &|r| {
            let d = Device::of(&r.run.device);
            devices.iter().position(|x| *x == d).unwrap_or(0)
        },
        &opts.locks,
    );
    Report {
        locks,
        tests: ds.tests(),
        runs: runs.len(),
        best_rates: best,
        vendor_rates: vendor,
        similarity,
        clustering,
        correlations,
        durations: durations(&ds),
        devices: ds.devices,
    }
}

fn csv_of(header: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(header);
    // Device names and vendors come from the public: neutralised against formulas.
    for r in rows {
        let _ = w.write_record(r.iter().map(|c| weft_store::csv_cell(c).into_owned()));
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// The report's tables as CSV files: `(file name, contents)`.
pub fn tables_csv(r: &Report) -> Vec<(String, String)> {
    let mut out = rates_csv(r);
    out.extend(similarity_csv(r));
    out.extend(clusters_csv(r));
    out.extend(correlations_csv(r));
    out.extend(times_csv(r));
    out
}

/// `best_rates.csv` and `vendor_rates.csv`.
fn rates_csv(r: &Report) -> Vec<(String, String)> {
    let dev = |i: usize| r.devices[i].label();
    let mut out = Vec::new();
    out.push((
        "best_rates.csv".to_string(),
        csv_of(
            &[
                "device",
                "vendor",
                "test",
                "weak_percent",
                "stress_name",
                "instances",
                "weak",
            ],
            r.best_rates
                .iter()
                .map(|b| {
                    vec![
                        dev(b.device),
                        r.devices[b.device].vendor.clone(),
                        b.test.clone(),
                        format!("{:.6}", b.rate * 100.0),
                        b.stress_name.clone(),
                        b.instances.to_string(),
                        b.weak.to_string(),
                    ]
                })
                .collect(),
        ),
    ));
    out.push((
        "vendor_rates.csv".to_string(),
        csv_of(
            &[
                "vendor",
                "test",
                "devices",
                "mean_percent",
                "median_percent",
            ],
            r.vendor_rates
                .iter()
                .map(|v| {
                    vec![
                        v.vendor.clone(),
                        v.test.clone(),
                        v.devices.to_string(),
                        format!("{:.6}", v.mean * 100.0),
                        format!("{:.6}", v.median * 100.0),
                    ]
                })
                .collect(),
        ),
    ));
    out
}

/// `similarity.csv` and `similarity_by_vendor.csv` (when the report has a similarity).
fn similarity_csv(r: &Report) -> Vec<(String, String)> {
    let dev = |i: usize| r.devices[i].label();
    let mut out = Vec::new();
    if let Some(s) = &r.similarity {
        let mut header = vec!["device".to_string()];
        header.extend(s.devices.iter().map(|&d| dev(d)));
        let h: Vec<&str> = header.iter().map(String::as_str).collect();
        out.push((
            "similarity.csv".to_string(),
            csv_of(
                &h,
                s.devices
                    .iter()
                    .enumerate()
                    .map(|(i, &d)| {
                        let mut row = vec![dev(d)];
                        row.extend(s.matrix[i].iter().map(|x| format!("{x:.4}")));
                        row
                    })
                    .collect(),
            ),
        ));
        out.push((
            "similarity_by_vendor.csv".to_string(),
            csv_of(
                &["vendor", "pairs", "avg", "median", "min", "max"],
                s.vendors
                    .iter()
                    .map(|v| {
                        vec![
                            v.vendor.clone(),
                            v.pairs.to_string(),
                            format!("{:.4}", v.avg),
                            format!("{:.4}", v.median),
                            format!("{:.4}", v.min),
                            format!("{:.4}", v.max),
                        ]
                    })
                    .collect(),
            ),
        ));
    }
    out
}

/// `clusters.csv` (when the report has a clustering).
fn clusters_csv(r: &Report) -> Vec<(String, String)> {
    let dev = |i: usize| r.devices[i].label();
    let mut out = Vec::new();
    if let Some(c) = &r.clustering {
        out.push((
            "clusters.csv".to_string(),
            csv_of(
                &["device", "vendor", "cluster", "suggested"],
                c.assignment
                    .iter()
                    .map(|(d, k)| {
                        vec![
                            dev(*d),
                            r.devices[*d].vendor.clone(),
                            k.to_string(),
                            (c.suggested.get(*k) == Some(d)).to_string(),
                        ]
                    })
                    .collect(),
            ),
        ));
    }
    out
}

/// `correlations.csv`.
fn correlations_csv(r: &Report) -> Vec<(String, String)> {
    let dev = |i: usize| r.devices[i].label();
    let mut out = Vec::new();
    out.push((
        "correlations.csv".to_string(),
        csv_of(
            &["device", "mutant", "conformance", "n", "r", "t", "p"],
            r.correlations
                .iter()
                .map(|c| {
                    let (rr, t, p) = c
                        .result
                        .as_ref()
                        .map(|x| {
                            (
                                format!("{:.4}", x.r),
                                format!("{:.4}", x.t),
                                format!("{:.3e}", x.p),
                            )
                        })
                        .unwrap_or_default();
                    vec![
                        dev(c.device),
                        c.mutant.clone(),
                        c.conformance.clone(),
                        c.n.to_string(),
                        rr,
                        t,
                        p,
                    ]
                })
                .collect(),
        ),
    ));
    out
}

/// `durations.csv` and `locks.csv`.
fn times_csv(r: &Report) -> Vec<(String, String)> {
    let dev = |i: usize| r.devices[i].label();
    let mut out = Vec::new();
    out.push((
        "durations.csv".to_string(),
        csv_of(
            &["device", "vendor", "minutes", "imputed_runs"],
            r.durations
                .iter()
                .map(|d| {
                    vec![
                        dev(d.device),
                        d.vendor.clone(),
                        format!("{:.3}", d.minutes),
                        d.imputed.to_string(),
                    ]
                })
                .collect(),
        ),
    ));
    out.push((
        "locks.csv".to_string(),
        csv_of(
            &[
                "device",
                "vendor",
                "test",
                "lock",
                "fenced",
                "runs",
                "instances",
                "failing",
                "cut",
                "lost_increments",
                "seconds",
            ],
            r.locks
                .iter()
                .map(|l| {
                    vec![
                        dev(l.device),
                        r.devices[l.device].vendor.clone(),
                        l.test.clone(),
                        l.lock.clone(),
                        l.fenced.to_string(),
                        l.runs.to_string(),
                        l.instances.to_string(),
                        l.failing.to_string(),
                        l.cut.to_string(),
                        l.lost.to_string(),
                        format!("{:.3}", l.seconds),
                    ]
                })
                .collect(),
        ),
    ));
    out
}

/// `weft analyze --csv DIR`: writes [`tables_csv`] of `report` into `dir` (created if
/// needed); the paths written, and the error (`PATH: reason`) that stopped the writing.
pub fn write_csv(
    dir: &std::path::Path,
    report: &Report,
) -> (Vec<std::path::PathBuf>, Option<String>) {
    let mut written = Vec::new();
    if let Err(e) = std::fs::create_dir_all(dir) {
        return (written, Some(format!("{}: {e}", dir.display())));
    }
    for (name, text) in tables_csv(report) {
        let p = dir.join(&name);
        if let Err(e) = std::fs::write(&p, text) {
            return (written, Some(format!("{}: {e}", p.display())));
        }
        written.push(p);
    }
    (written, None)
}
