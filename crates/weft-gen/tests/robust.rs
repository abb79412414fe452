//! Any sequence of edges either is refused with a reason or gives tests that every
//! format prints (or refuses with a reason) and that parse back: nothing panics.

use proptest::prelude::*;
use weft_gen::build::{build, BuildOptions, Target};
use weft_gen::cycle::Cycle;
use weft_gen::name::normalise;
use weft_litmus::Format;

const EDGES: &[&str] = &[
    "PodWR",
    "PodWW",
    "PodRR",
    "PodRW",
    "PosWR",
    "PosRR",
    "PosWW",
    "PosRW",
    "Rfe",
    "Rfi",
    "Fre",
    "Fri",
    "Coe",
    "Coi",
    "DpAddrdW",
    "DpAddrdR",
    "DpDatadW",
    "DpCtrldR",
    "DpCtrlsW",
    "FenceScdWR",
    "FenceARdRW",
    "MembardWW.cta",
    "BardRR",
    "PodWRRlxRlx",
    "RfeRelAcq",
    "FreRlxRlx",
    "Rfe.cta",
    "Fre.wp",
    "Coe.sys",
    "PodWW.shared.cg",
    "Rfe.ca",
    "PodRR.vol",
    "PodWWRlxRel.gpu",
    "PodRRAcqRlx",
    "CoeRlxRlx",
    "Fre.qf",
];

static BUILT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn cycles_never_panic(idx in proptest::collection::vec(0..EDGES.len(), 2..8)) {
        // Chain the edges: each picks the next edge of the list whose source direction is
        // the previous edge's target, so most sequences close into cycles.
        let parsed: Vec<weft_gen::Edge> =
            EDGES.iter().map(|e| weft_gen::Edge::parse(e).unwrap()).collect();
        let mut seq: Vec<weft_gen::Edge> = Vec::new();
        for &i in &idx {
            let pick = (0..parsed.len())
                .map(|k| parsed[(i + k) % parsed.len()])
                .find(|e| seq.last().is_none_or(|l| l.tgt == e.src));
            if let Some(e) = pick {
                seq.push(e);
            }
        }
        if let (Some(f), Some(l)) = (seq.first(), seq.last()) {
            if l.tgt != f.src {
                let close = parsed.iter().find(|e| e.src == l.tgt && e.tgt == f.src && e.is_ext());
                if let Some(e) = close {
                    seq.push(*e);
                }
            }
        }
        let text: Vec<String> = seq.iter().map(|e| e.to_string()).collect();
        let Ok(c) = Cycle::parse(&text.join(" ")) else { return Ok(()); };
        BUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let _ = c.diy_valid();
        let (c, name) = normalise(&c);
        for (target, formats) in [
            (Target::C, vec![Format::C]),
            (Target::Ptx, vec![Format::Ptx, Format::GpuPtx]),
            (Target::Vulkan, vec![Format::Vulkan]),
            (Target::OpenCl, vec![Format::OpenCl]),
            (Target::WebGpu, vec![Format::Json]),
        ] {
            let Ok(p) = build(&c, &name, target, &BuildOptions::default()) else { continue; };
            for f in formats {
                if let Ok(t) = weft_litmus::print(&p, f) {
                    prop_assert!(weft_litmus::parse(&t).is_ok(), "{name} as {}:\n{t}", f.name());
                }
            }
        }
    }
}

#[test]
fn most_random_chains_are_cycles() {
    // Run the property's generator by hand a few times: the chaining makes real cycles.
    let mut ok = 0;
    for seed in 0..200usize {
        let idx: Vec<usize> = (0..6).map(|k| (seed * 7 + k * 13) % EDGES.len()).collect();
        let parsed: Vec<weft_gen::Edge> = EDGES
            .iter()
            .map(|e| weft_gen::Edge::parse(e).unwrap())
            .collect();
        let mut seq: Vec<weft_gen::Edge> = Vec::new();
        for &i in &idx {
            if let Some(e) = (0..parsed.len())
                .map(|k| parsed[(i + k) % parsed.len()])
                .find(|e| seq.last().is_none_or(|l| l.tgt == e.src))
            {
                seq.push(e);
            }
        }
        if let (Some(f), Some(l)) = (seq.first(), seq.last()) {
            if let Some(e) = parsed
                .iter()
                .find(|e| e.src == l.tgt && e.tgt == f.src && e.is_ext())
            {
                seq.push(*e);
            }
        }
        if Cycle::new(seq).is_ok() {
            ok += 1;
        }
    }
    assert!(ok >= 50, "{ok}");
}
