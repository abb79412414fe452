//! `weft analyze [--db PATH] [--seed S] [--clusters K] [--pair MUTANT,CONFORMANCE]...
//! [--json | --csv DIR]`: paper 001 §4-5's analyses of a campaign's runs
//! (crates/weft-analyze): best weak rate per device and test with vendor mean/median,
//! cosine similarity between devices with vendor statistics and the nearest known
//! device, k-means with the elbow method, mutant/conformance correlations with p-values,
//! testing time per device, and the lock case study (§5.3 Table 5: failing instances per
//! device and lock test).
//!
//! Exit codes: 0 success; 2 bad input (no such database, a bad pair); 3 a database error.

use std::path::PathBuf;

use weft_analyze::{Options, Report};

#[derive(clap::Args)]
pub struct Args {
    /// Results or campaign database (default ~/.local/share/weft/results.db).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Tuning seed whose configurations make the device vectors (default: the seed with
    /// the most runs).
    #[arg(long)]
    seed: Option<String>,
    /// Number of k-means clusters (default: the elbow).
    #[arg(long)]
    clusters: Option<usize>,
    /// A (mutant, conformance test) pair to correlate, e.g. MP,MP-CO (repeatable; default
    /// every conformance test with the mutant of its family).
    #[arg(long)]
    pair: Vec<String>,
    /// Print the report as JSON.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Write the tables as CSV files into this directory.
    #[arg(long)]
    csv: Option<PathBuf>,
}

pub fn run(args: Args) -> i32 {
    let path = match args.db.clone() {
        Some(p) => p,
        None => match weft_store::Store::default_path() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("weft: {e}");
                return crate::exit::BAD_INPUT;
            }
        },
    };
    let store = match weft_store::Store::open_existing(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("weft: results database: {e}");
            return crate::exit::BAD_INPUT;
        }
    };
    let runs = match store.stored_runs(&weft_store::Filter::default()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("weft: results database: {e}");
            return crate::exit::INTERNAL;
        }
    };
    let mut pairs = Vec::new();
    for p in &args.pair {
        match p.split_once(',') {
            Some((a, b)) if !a.is_empty() && !b.is_empty() => {
                pairs.push((a.to_string(), b.to_string()))
            }
            _ => {
                eprintln!("weft: --pair `{p}`: expected MUTANT,CONFORMANCE (e.g. MP,MP-CO)");
                return crate::exit::BAD_INPUT;
            }
        }
    }
    if args.pair.is_empty() {
        // Every conformance test with the mutant of its family, among the tests present.
        let tests: std::collections::BTreeSet<&str> =
            runs.iter().map(|r| r.run.test.name.as_str()).collect();
        for t in &tests {
            let fam = weft_hw::tune::family(t);
            if fam != *t && tests.contains(fam) {
                pairs.push((fam.to_string(), t.to_string()));
            }
        }
    }
    // The vectors are made of the mutants: every test that is not a pair's conformance side.
    let conformance: std::collections::BTreeSet<&String> = pairs.iter().map(|(_, c)| c).collect();
    let vector_tests: Vec<String> = runs
        .iter()
        .map(|r| &r.run.test.name)
        .filter(|t| !conformance.contains(t))
        .cloned()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let opts = Options {
        seed: args.seed.clone(),
        clusters: args.clusters,
        vector_tests,
        pairs,
        // The lock case study's tests (tests/corpus/locks, embedded in the server).
        locks: weft_server::catalog::lock_tests(),
    };
    let report = weft_analyze::analyze(&runs, &opts);
    if let Some(dir) = &args.csv {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("weft: {}: {e}", dir.display());
            return crate::exit::BAD_INPUT;
        }
        for (name, text) in weft_analyze::tables_csv(&report) {
            let p = dir.join(&name);
            if let Err(e) = std::fs::write(&p, text) {
                eprintln!("weft: {}: {e}", p.display());
                return crate::exit::BAD_INPUT;
            }
            crate::out::line(&p.display().to_string());
        }
        return crate::exit::OK;
    }
    if args.json {
        crate::out::line(&serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        crate::out::print(&text(&report));
    }
    crate::exit::OK
}

/// The report as text tables.
pub fn text(r: &Report) -> String {
    let dev = |i: usize| r.devices[i].label();
    let mut s = format!(
        "{} runs, {} devices, {} tests\n\n",
        r.runs,
        r.devices.len(),
        r.tests.len()
    );
    s += "best weak rate per device and test (paper 001 Table 2; % of instances, best configuration)\n";
    let w = r
        .devices
        .iter()
        .map(|d| d.label().len())
        .max()
        .unwrap_or(6)
        .max(6);
    s += &format!("  {:<w$}", "device");
    for t in &r.tests {
        s += &format!("  {:>9}", t);
    }
    s += "\n";
    for (i, _) in r.devices.iter().enumerate() {
        s += &format!("  {:<w$}", dev(i));
        for t in &r.tests {
            match r.best_rates.iter().find(|b| b.device == i && &b.test == t) {
                Some(b) => s += &format!("  {:>9.4}", b.rate * 100.0),
                None => s += &format!("  {:>9}", "-"),
            }
        }
        s += "\n";
    }
    s += "\nvendor mean / median of the best rates (Fig. 6; %)\n";
    for v in &r.vendor_rates {
        s += &format!(
            "  {:<10} {:<12} {:>3} devices  mean {:>8.4}  median {:>8.4}\n",
            v.vendor,
            v.test,
            v.devices,
            v.mean * 100.0,
            v.median * 100.0
        );
    }
    if let Some(sim) = &r.similarity {
        s += &format!(
            "\ncosine similarity (seed {}, {} dimensions; Table 3)\n  {:<10} {:>5} {:>7} {:>7} {:>7} {:>7}\n",
            sim.seed,
            sim.dimensions.len(),
            "vendor",
            "pairs",
            "avg",
            "median",
            "min",
            "max"
        );
        for v in &sim.vendors {
            s += &format!(
                "  {:<10} {:>5} {:>7.3} {:>7.3} {:>7.3} {:>7.3}\n",
                v.vendor, v.pairs, v.avg, v.median, v.min, v.max
            );
        }
        s += "nearest known device\n";
        for n in &sim.nearest {
            s += &format!(
                "  {}{} -> {} ({:.3})\n",
                dev(n.device),
                if n.unknown_model {
                    " [model unknown]"
                } else {
                    ""
                },
                n.nearest_known.map(dev).unwrap_or_else(|| "-".into()),
                n.similarity
            );
        }
    }
    if let Some(c) = &r.clustering {
        s += &format!(
            "\nk-means: {} clusters (distortion by k: {}; Table 4)\n",
            c.k,
            c.distortions
                .iter()
                .map(|d| format!("{d:.3}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        for k in 0..c.k {
            let members: Vec<String> = c
                .assignment
                .iter()
                .filter(|(_, x)| *x == k)
                .map(|(d, _)| dev(*d))
                .collect();
            s += &format!(
                "  cluster {k}: test on {}; members: {}\n",
                c.suggested.get(k).map(|&d| dev(d)).unwrap_or_default(),
                members.join(", ")
            );
        }
    }
    if !r.correlations.is_empty() {
        s += "\nmutant weak rate vs conformance violation rate (§5.1)\n";
        for c in &r.correlations {
            match &c.result {
                Some(x) => {
                    s += &format!(
                        "  {} {} vs {}: n {} r {:.3} t {:.3} p {:.3e} ({} dof)\n",
                        dev(c.device),
                        c.mutant,
                        c.conformance,
                        c.n,
                        x.r,
                        x.t,
                        x.p,
                        x.dof
                    )
                }
                None => {
                    s += &format!(
                        "  {} {} vs {}: n {} (undefined: fewer than 3 configurations or a constant rate)\n",
                        dev(c.device),
                        c.mutant,
                        c.conformance,
                        c.n
                    )
                }
            }
        }
    }
    if !r.locks.is_empty() {
        s += "\nlock case study (§5.3 Table 5): failing instances (counter != increments) / instances; cut = a thread stopped at the spin cap\n";
        s += &format!(
            "  {:<w$}  {:<8} {:<5} {:>7} {:>10} {:>10} {:>6} {:>9}\n",
            "device", "test", "lock", "fenced", "failing", "instances", "cut", "seconds"
        );
        for l in &r.locks {
            s += &format!(
                "  {:<w$}  {:<8} {:<5} {:>7} {:>10} {:>10} {:>6} {:>9.2}\n",
                dev(l.device),
                l.test,
                l.lock,
                if l.fenced { "F" } else { "UF" },
                l.failing,
                l.instances,
                l.cut,
                l.seconds
            );
        }
    }
    s += "\ntesting time per device (Fig. 5; runs over 1 min imputed)\n";
    for d in &r.durations {
        s += &format!(
            "  {:<10} {:<w$} {:>8.2} min  ({} imputed)\n",
            d.vendor,
            dev(d.device),
            d.minutes,
            d.imputed
        );
    }
    s
}
