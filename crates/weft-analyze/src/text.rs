//! A campaign analysis as text tables (`weft analyze`): best weak rates, device similarity,
//! clusters, correlations, testing time and the lock case study.

use crate::Report;

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
    s += &vendor_rates(r);
    s += &similarity(r);
    s += &clusters(r);
    s += &correlations(r);
    s += &locks(r, w);
    s += &durations(r, w);
    s
}

/// Fig. 6: the vendors' mean and median best rates.
fn vendor_rates(r: &Report) -> String {
    let mut s = String::new();
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
    s
}

/// Table 3: cosine similarity per vendor and each device's nearest known device.
fn similarity(r: &Report) -> String {
    let dev = |i: usize| r.devices[i].label();
    let mut s = String::new();
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
    s
}

/// Table 4: the k-means clusters and the device suggested to test in each.
fn clusters(r: &Report) -> String {
    let dev = |i: usize| r.devices[i].label();
    let mut s = String::new();
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
    s
}

/// §5.1: mutant weak rate against conformance violation rate per device.
fn correlations(r: &Report) -> String {
    let dev = |i: usize| r.devices[i].label();
    let mut s = String::new();
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
    s
}

/// Table 5: the lock case study.
fn locks(r: &Report, w: usize) -> String {
    let dev = |i: usize| r.devices[i].label();
    let mut s = String::new();
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
    s
}

/// Fig. 5: testing time per device.
fn durations(r: &Report, w: usize) -> String {
    let dev = |i: usize| r.devices[i].label();
    let mut s = String::new();
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
