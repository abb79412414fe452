//! The analyses on a synthetic campaign whose answers are known by construction (each
//! expected value is derived in the comments):
//!
//! Nine devices, tuning seed `S`, six configurations, mutants MP, SB and LB, 10 000
//! instances per run. A device's non-sequential counts per configuration follow one base
//! pattern `b = [10, 20, 30, 40, 50, 30]` in one test and are 0 in the others:
//! - cluster A (MP): A0 = b, A1 = b + e, A2 = 2 (b - e), with e = +5 at configuration 5;
//! - cluster B (SB): B0 = b, B1 = b + e, B2 = 2 (b - e);
//! - cluster C (LB): C0 = b, C1 = b + e, C2 = 2 (b - e).
//!
//! Vendors: A* and C0, C1 are `Alpha`; B* are `Beta`, B1 reporting only vendor and
//! architecture; C2 is `Gamma`. A0 also runs the conformance test MP-CO under
//! configurations 0..4 with violation counts [20, 40, 50, 40, 50].

use weft_analyze::{analyze, LockTest, Options};
use weft_store::{DeviceRecord, OutcomeRecord, RunRecord, StoredRun, TestRecord};

const N: u64 = 10_000;
const BASE: [u64; 6] = [10, 20, 30, 40, 50, 30];

fn device(name: &str, vendor: &str) -> DeviceRecord {
    DeviceRecord {
        backend: "webgpu".into(),
        name: name.into(),
        vendor: vendor.into(),
        driver: String::new(),
        api: "WebGPU".into(),
        architecture: "arch".into(),
        browser: "Chrome 131".into(),
        os: "Linux".into(),
        extra: serde_json::json!({}),
    }
}

fn run(
    id: i64,
    dev: &DeviceRecord,
    test: &str,
    k: usize,
    weak: u64,
    forbidden: bool,
    ms: u64,
) -> StoredRun {
    let mut outcomes = vec![OutcomeRecord {
        outcome: "seq".into(),
        class: "seq".into(),
        model_verdict: forbidden.then(|| "allowed".into()),
        count: N - weak,
    }];
    if weak > 0 {
        outcomes.push(OutcomeRecord {
            outcome: "weak".into(),
            class: "weak".into(),
            model_verdict: forbidden.then(|| "forbidden".into()),
            count: weak,
        });
    }
    StoredRun {
        id,
        run: RunRecord {
            kind: "tune".into(),
            label: None,
            started_at: format!("2025-01-01T00:{:02}:{:02}Z", id / 60 % 60, id % 60),
            duration_ms: ms,
            device: dev.clone(),
            test: TestRecord {
                name: test.into(),
                path: String::new(),
                format: "json".into(),
                digest: "d".into(),
            },
            stress_name: format!("tune:S#{k}"),
            stress_config: serde_json::json!({}),
            seed: k as u64,
            iterations: 1,
            instances: N,
            model: None,
            weft_version: "0".into(),
            outcomes,
        },
    }
}

fn dataset() -> (Vec<StoredRun>, Vec<DeviceRecord>) {
    let pattern = |variant: usize| -> [u64; 6] {
        let mut b = BASE;
        match variant {
            1 => b[5] += 5,
            2 => {
                b[5] -= 5;
                for x in &mut b {
                    *x *= 2;
                }
            }
            _ => {}
        }
        b
    };
    let devs = [
        ("A0", "Alpha", "MP"),
        ("A1", "Alpha", "MP"),
        ("A2", "Alpha", "MP"),
        ("B0", "Beta", "SB"),
        ("Beta arch", "Beta", "SB"),
        ("B2", "Beta", "SB"),
        ("C0", "Alpha", "LB"),
        ("C1", "Alpha", "LB"),
        ("C2", "Gamma", "LB"),
    ];
    let mut runs = Vec::new();
    let mut records = Vec::new();
    let mut id = 0;
    for (i, (name, vendor, hot)) in devs.iter().enumerate() {
        let d = device(name, vendor);
        let p = pattern(i % 3);
        for test in ["MP", "SB", "LB"] {
            for (k, &pk) in p.iter().enumerate() {
                id += 1;
                let weak = if test == *hot { pk } else { 0 };
                // A0's MP run under configuration 3 took 90 s (the machine slept).
                let ms = if *name == "A0" && test == "MP" && k == 3 {
                    90_000
                } else {
                    1000
                };
                runs.push(run(id, &d, test, k, weak, false, ms));
            }
        }
        if *name == "A0" {
            for (k, v) in [20u64, 40, 50, 40, 50].into_iter().enumerate() {
                id += 1;
                runs.push(run(id, &d, "MP-CO", k, v, true, 1000));
            }
        }
        records.push(d);
    }
    (runs, records)
}

fn options() -> Options {
    Options {
        seed: None,
        clusters: None,
        pairs: vec![("MP".into(), "MP-CO".into())],
        vector_tests: vec!["MP".into(), "SB".into(), "LB".into()],
        locks: Vec::new(),
    }
}

fn index(r: &weft_analyze::Report, name: &str) -> usize {
    r.devices.iter().position(|d| d.name == name).unwrap()
}

#[test]
fn best_rates_and_vendor_statistics() {
    let (runs, _) = dataset();
    let r = analyze(&runs, &options());
    let best = |dev: &str, test: &str| {
        let d = index(&r, dev);
        r.best_rates
            .iter()
            .find(|b| b.device == d && b.test == test)
            .unwrap()
            .clone()
    };
    // A0's MP peaks at configuration 4 (50 of 10 000 = 0.5 %); A2 = 2 (b - e) peaks at
    // 100 at configuration 4 (1 %); A1's best is 50 too (configuration 4; 35 at 5).
    assert_eq!(best("A0", "MP").rate, 0.005);
    assert_eq!(best("A0", "MP").stress_name, "tune:S#4");
    assert_eq!(best("A2", "MP").rate, 0.01);
    assert_eq!(best("C0", "MP").rate, 0.0);
    // Alpha's MP best rates: A0 .005, A1 .005, A2 .01, C0 0, C1 0: mean .004, median .005.
    let alpha = r
        .vendor_rates
        .iter()
        .find(|v| v.vendor == "Alpha" && v.test == "MP")
        .unwrap();
    assert_eq!(alpha.devices, 5);
    assert!((alpha.mean - 0.004).abs() < 1e-12, "{}", alpha.mean);
    assert!((alpha.median - 0.005).abs() < 1e-12);
    let all = r
        .vendor_rates
        .iter()
        .find(|v| v.vendor == "All" && v.test == "MP")
        .unwrap();
    assert_eq!(all.devices, 9);
}

#[test]
fn similarity_finds_the_clusters_and_the_nearest_known_device() {
    let (runs, _) = dataset();
    let r = analyze(&runs, &options());
    let s = r.similarity.as_ref().unwrap();
    assert_eq!(s.seed, "S");
    // 3 tests × 6 configurations (MP-CO is not a vector test).
    assert_eq!(s.dimensions.len(), 18);
    let pos = |name: &str| {
        s.devices
            .iter()
            .position(|&d| d == index(&r, name))
            .unwrap()
    };
    // Different clusters are orthogonal; A0 and A2 point the same way up to e.
    assert_eq!(s.matrix[pos("A0")][pos("B0")], 0.0);
    assert!(s.matrix[pos("A0")][pos("A2")] > 0.98);
    // Alpha has 10 pairs: A0A1, A0A2, A1A2, C0C1 near 1 and six cross pairs at 0, so the
    // median (5th and 6th of 10 sorted) is 0, the minimum 0, the mean about 0.4.
    let alpha = s.vendors.iter().find(|v| v.vendor == "Alpha").unwrap();
    assert_eq!(alpha.pairs, 10);
    assert_eq!((alpha.median, alpha.min), (0.0, 0.0));
    assert!((alpha.avg - 0.4).abs() < 0.01, "{}", alpha.avg);
    let all = s.vendors.last().unwrap();
    assert_eq!((all.vendor.as_str(), all.pairs), ("All", 36));
    // "Beta arch" reported only vendor and architecture: its nearest known device is in
    // its own cluster (B0 or B2).
    let n = s
        .nearest
        .iter()
        .find(|n| n.device == index(&r, "Beta arch"))
        .unwrap();
    assert!(n.unknown_model);
    let near = &r.devices[n.nearest_known.unwrap()].name;
    assert!(near == "B0" || near == "B2", "{near}");
    assert!(n.similarity > 0.98);
}

#[test]
fn kmeans_with_the_elbow_finds_three_clusters_and_suggests_their_centres() {
    let (runs, _) = dataset();
    let r = analyze(&runs, &options());
    let c = r.clustering.as_ref().unwrap();
    // Distortion by hand (unit vectors, three orthogonal groups of three): k=1: 9 × 2/3 = 6;
    // k=2: 6 × 1/2 = 3; k=3: about 0. The elbow of 6, 3, ~0, ~0... is k = 3.
    assert!((c.distortions[0] - 6.0).abs() < 0.05, "{:?}", c.distortions);
    assert_eq!(c.k, 3, "{:?}", c.distortions);
    let cluster = |name: &str| {
        let d = index(&r, name);
        c.assignment.iter().find(|(x, _)| *x == d).unwrap().1
    };
    for group in [
        ["A0", "A1", "A2"],
        ["B0", "Beta arch", "B2"],
        ["C0", "C1", "C2"],
    ] {
        assert_eq!(cluster(group[0]), cluster(group[1]));
        assert_eq!(cluster(group[0]), cluster(group[2]));
    }
    assert_ne!(cluster("A0"), cluster("B0"));
    assert_ne!(cluster("A0"), cluster("C0"));
    // Each cluster's centre is nearest its unperturbed member (b lies between b + e and
    // b - e): A0, B0, C0.
    let mut suggested: Vec<&str> = c
        .suggested
        .iter()
        .map(|&d| r.devices[d].name.as_str())
        .collect();
    suggested.sort();
    assert_eq!(suggested, ["A0", "B0", "C0"]);
}

#[test]
fn correlation_of_mp_with_mp_co() {
    let (runs, _) = dataset();
    let r = analyze(&runs, &options());
    assert_eq!(r.correlations.len(), 1);
    let c = &r.correlations[0];
    assert_eq!(r.devices[c.device].name, "A0");
    assert_eq!(c.n, 5);
    // x = [10, 20, 30, 40, 50], y = [20, 40, 50, 40, 50] (per 10 000): dx = -2..2 (×10),
    // dy = [-2, 0, 1, 0, 1] (×10); r = 6 / sqrt(10 × 6) = 0.774597; t = r sqrt(3 / (1 -
    // r²)) = 2.12132 on 3 degrees of freedom; two-sided p = 0.1240 (Student t tables:
    // t = 2.353 gives 0.10 and t = 1.638 gives 0.20).
    let x = c.result.as_ref().unwrap();
    assert!((x.r - 0.774597).abs() < 1e-5, "{}", x.r);
    assert!((x.t - 2.12132).abs() < 1e-4, "{}", x.t);
    assert_eq!(x.dof, 3);
    assert!(
        x.p > 0.10 && x.p < 0.20 && (x.p - 0.124).abs() < 0.002,
        "{}",
        x.p
    );
}

#[test]
fn durations_drop_runs_over_a_minute() {
    let (runs, _) = dataset();
    let r = analyze(&runs, &options());
    // A0: 18 mutant runs + 5 MP-CO runs of 1 s, one of them recorded as 90 s and imputed
    // from the run before it (1 s): 23 s.
    let a0 = r
        .durations
        .iter()
        .find(|d| d.device == index(&r, "A0"))
        .unwrap();
    assert_eq!(a0.imputed, 1);
    assert!((a0.minutes - 23.0 / 60.0).abs() < 1e-9);
    let csv = weft_analyze::tables_csv(&r);
    let names: Vec<&str> = csv.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"similarity.csv") && names.contains(&"clusters.csv"));
    let best = &csv.iter().find(|(n, _)| n == "best_rates.csv").unwrap().1;
    assert!(
        best.lines()
            .any(|l| l.starts_with("\"A0 (Chrome 131, Linux)\",Alpha,MP,0.500000,tune:S#4")),
        "{best}"
    );
}

#[test]
fn identical_devices_give_no_empty_cluster() {
    // Three devices with the same vector asked for 3 clusters: farthest-point seeding
    // picks the same point thrice; the empty clusters are dropped.
    let v = vec![vec![1.0, 2.0]; 3];
    let c = weft_analyze::kmeans(&v, &[0, 1, 2], Some(3));
    assert_eq!(c.k, c.suggested.len());
    assert!(c.assignment.iter().all(|(_, k)| *k < c.k));
    assert!(c.suggested.iter().all(|d| *d < 3));
}

#[test]
fn lock_table_counts_failing_and_cut_instances() {
    // Table 5 by hand: device A ran TAS-UF twice (1000 instances each): 990 + 995 with
    // x == 2, 7 + 5 with x == 1 (one lost increment each), 3 with a thread cut at the spin
    // cap (i32::MIN registers: neither a success nor a failure), and TAS-F once with no
    // failure; device B ran the no-lock baseline: 600 of 1000 instances lost an increment.
    let a = device("A", "Alpha");
    let b = device("B", "Beta");
    let with = |mut r: StoredRun, outs: &[(&str, u64)]| {
        r.run.outcomes = outs
            .iter()
            .map(|(o, n)| OutcomeRecord {
                outcome: o.to_string(),
                class: "seq".into(),
                model_verdict: None,
                count: *n,
            })
            .collect();
        r.run.instances = outs.iter().map(|(_, n)| n).sum();
        r
    };
    let runs = vec![
        with(
            run(1, &a, "TAS-UF", 0, 0, false, 2000),
            &[
                ("0:r0=0; 1:r0=0; l=0; x=2", 990),
                ("0:r0=0; 1:r0=0; l=0; x=1", 7),
                ("0:r0=0; 1:r0=-2147483648; l=1; x=1", 3),
            ],
        ),
        with(
            run(2, &a, "TAS-UF", 0, 0, false, 1000),
            &[
                ("0:r0=0; 1:r0=0; l=0; x=2", 995),
                ("0:r0=0; 1:r0=0; l=0; x=1", 5),
            ],
        ),
        with(
            run(3, &a, "TAS-F", 0, 0, false, 500),
            &[("0:r0=0; 1:r0=0; l=0; x=2", 1000)],
        ),
        with(
            run(4, &b, "no-lock", 0, 0, false, 100),
            &[("0:r1=0; 1:r1=0; x=1", 600), ("0:r1=0; 1:r1=1; x=2", 400)],
        ),
    ];
    let lock = |test: &str, lock: &str, fenced: bool| LockTest {
        test: test.into(),
        lock: lock.into(),
        fenced,
        counter: "x".into(),
        expected: 2,
    };
    let opts = Options {
        locks: vec![
            lock("TAS-UF", "TAS", false),
            lock("TAS-F", "TAS", true),
            lock("no-lock", "none", false),
        ],
        ..options()
    };
    let r = analyze(&runs, &opts);
    let row = |dev: &str, test: &str| {
        let d = index(&r, dev);
        r.locks
            .iter()
            .find(|l| l.device == d && l.test == test)
            .unwrap()
            .clone()
    };
    let uf = row("A", "TAS-UF");
    assert_eq!(
        (uf.runs, uf.instances, uf.failing, uf.cut, uf.lost),
        (2, 2000, 12, 3, 12)
    );
    assert!((uf.seconds - 3.0).abs() < 1e-9);
    let f = row("A", "TAS-F");
    assert_eq!((f.failing, f.cut, f.fenced), (0, 0, true));
    let nl = row("B", "no-lock");
    assert_eq!((nl.failing, nl.lost, nl.lock.as_str()), (600, 600, "none"));
    assert_eq!(r.locks.len(), 3);
    let csv = weft_analyze::tables_csv(&r);
    let t5 = &csv.iter().find(|(n, _)| n == "locks.csv").unwrap().1;
    assert!(t5.contains("TAS-UF,TAS,false,2,2000,12,3,12,3.000"), "{t5}");
}

/// Issue 29 item 3: device names and vendors that a spreadsheet would read as formulas
/// (`=`, `+`, `-`, `@` first) are written to the CSV tables with a leading `'`; numbers,
/// negative ones included, are written as they are.
#[test]
fn csv_tables_neutralise_formulas() {
    let evil = device("=HYPERLINK(\"http://x\",\"y\")", "@SUM(A1)");
    let plus = device("+cmd", "-2+3");
    let runs = vec![
        run(1, &evil, "MP", 0, 10, false, 100),
        run(2, &plus, "MP", 0, 20, false, 100),
    ];
    let r = analyze(&runs, &options());
    let csv = weft_analyze::tables_csv(&r);
    let mut cells = Vec::new();
    for (_, text) in &csv {
        let mut rd = csv::Reader::from_reader(text.as_bytes());
        for rec in rd.records() {
            cells.extend(rec.unwrap().iter().map(String::from).collect::<Vec<_>>());
        }
    }
    for expected in [
        "'=HYPERLINK(\"http://x\",\"y\")",
        "'@SUM(A1)",
        "'+cmd",
        "'-2+3",
    ] {
        assert!(
            cells.iter().any(|c| c.starts_with(expected)),
            "{expected} in {cells:?}"
        );
    }
    for (name, text) in &csv {
        let mut rd = csv::Reader::from_reader(text.as_bytes());
        for rec in rd.records() {
            for c in rec.unwrap().iter() {
                let risky = c.starts_with(['=', '+', '-', '@', '\t', '\r']);
                assert!(
                    !risky || c.parse::<f64>().is_ok(),
                    "{name}: a formula cell {c:?}"
                );
            }
        }
    }
}

/// The catalog of the campaign decides the pairs and the vectors (issue 29 item 11): MP
/// and SB are mutants, MP-CO a conformance test paired with MP, SB-CO one with no mutant,
/// LB a test of no role. Pairs: exactly (MP, MP-CO); vectors: MP and SB; a requested pair
/// must be a mutant and a conformance test of the catalog, in that order.
#[test]
fn the_catalog_decides_pairs_and_vectors() {
    use weft_analyze::{Catalog, CatalogTest, Query};
    let t = |name: &str, role: &str, pairs: &[&str]| CatalogTest {
        name: name.into(),
        role: role.into(),
        pairs: pairs.iter().map(|p| p.to_string()).collect(),
    };
    let catalog = Catalog {
        tests: vec![
            t("MP", "mutant", &["MP-CO"]),
            t("MP-CO", "conformance", &["MP"]),
            t("SB", "mutant", &[]),
            t("SB-CO", "conformance", &[]),
            t("LB", "", &[]),
        ],
        locks: Vec::new(),
    };
    assert_eq!(
        catalog.pairs(),
        vec![("MP".to_string(), "MP-CO".to_string())]
    );
    assert_eq!(
        catalog.vector_tests(),
        vec!["MP".to_string(), "SB".to_string()]
    );
    let opts = catalog
        .options(&Query {
            pairs: vec!["SB,SB-CO".into()],
            ..Query::default()
        })
        .unwrap();
    assert_eq!(opts.pairs, vec![("SB".to_string(), "SB-CO".to_string())]);
    for (pair, why) in [
        ("MP,NOPE", "no test `NOPE`"),
        ("MP-CO,MP", "`MP-CO` is a conformance test"),
        ("MP,SB", "`SB` is a mutant test"),
        (
            "LB,MP-CO",
            "`LB` is neither a mutant nor a conformance test",
        ),
        ("MP", "expected MUTANT,CONFORMANCE"),
    ] {
        let q = Query {
            pairs: vec![pair.into()],
            ..Query::default()
        };
        let e = catalog.options(&q).unwrap_err();
        assert!(e.contains(why), "{pair}: {e}");
        // The report refuses the same query.
        assert!(weft_analyze::campaign::report(&[], &catalog, &q).is_err());
    }
    // The synthetic campaign under this catalog: MP's vector only, (MP, MP-CO) correlated.
    let (runs, _) = dataset();
    let r = weft_analyze::campaign::report(&runs, &catalog, &Query::default()).unwrap();
    assert!(r
        .correlations
        .iter()
        .all(|c| c.mutant == "MP" && c.conformance == "MP-CO"));
    let dims = &r.similarity.as_ref().unwrap().dimensions;
    assert!(dims.iter().all(|(t, _)| t == "MP" || t == "SB"), "{dims:?}");
}
