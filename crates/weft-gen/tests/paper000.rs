//! Paper 000's cycle-shaped tests (Figs. 1, 3-5), generated from their cycles, are the
//! tests of `tests/corpus/paper000`: same threads (accesses, cache operators, volatile,
//! fences and their scopes), scope tree, memory map and condition, up to register and
//! thread naming (registers holding constants, `mov r0,1`, count as the constant).

use std::path::Path;

use weft_gen::build::{build, BuildOptions, Target};
use weft_gen::compare::same_test;
use weft_gen::cycle::Cycle;

const CASES: &[(&str, &str)] = &[
    // Fig. 12: values and addresses pass through registers there (`mov r0,1`,
    // `.reg .b64 r1 = x`); the comparison reads registers holding constants as them.
    ("SB", "PodWR.cg Fre.cta.cg PodWR.cg Fre.cta.shared.cg"),
    ("coRR", "Rfe.cta.cg PosRR.cg Fre.cta.cg"),
    ("coRR-L2-L1", "Rfe.cta.cg PosRR.ca Fre.cta.cg"),
    (
        "coRR-L2-L1+membar.cta",
        "Rfe.cta.cg MembarsRR.cta.ca Fre.cta.cg",
    ),
    (
        "coRR-L2-L1+membar.gl",
        "Rfe.cta.cg MembarsRR.gl.ca Fre.cta.cg",
    ),
    (
        "coRR-L2-L1+membar.sys",
        "Rfe.cta.cg MembarsRR.sys.ca Fre.cta.cg",
    ),
    ("mp-L1", "PodWW.cg Rfe.gpu.ca PodRR.ca Fre.gpu.cg"),
    (
        "mp-L1+membar.cta",
        "MembardWW.cta.cg Rfe.gpu.ca MembardRR.cta.ca Fre.gpu.cg",
    ),
    (
        "mp-L1+membar.gl",
        "MembardWW.gl.cg Rfe.gpu.ca MembardRR.gl.ca Fre.gpu.cg",
    ),
    (
        "mp-L1+membar.sys",
        "MembardWW.sys.cg Rfe.gpu.ca MembardRR.sys.ca Fre.gpu.cg",
    ),
    (
        "mp-volatile",
        "PodWW.vol Rfe.cta.vol.shared PodRR.vol Fre.cta.vol.shared",
    ),
];

#[test]
fn paper000_tests_from_cycles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/paper000");
    let mut failures = Vec::new();
    for (name, cycle) in CASES {
        let src = std::fs::read_to_string(dir.join(format!("{name}.litmus"))).unwrap();
        let theirs = weft_litmus::parse(&src).unwrap();
        let c = Cycle::parse(cycle).unwrap();
        let ours = build(&c, name, Target::Ptx, &BuildOptions::default()).unwrap();
        // The generated test prints as GPU_PTX and parses back to the same test.
        let text = weft_litmus::print(&ours, weft_litmus::Format::GpuPtx).unwrap();
        let back = weft_litmus::parse(&text).unwrap();
        if let Err(m) = same_test(&back, &theirs) {
            failures.push(format!("{name}: {m}\n{text}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
