//! optcheck on real compiler output: `tests/hw/sass/*.sass` are `cuobjdump -sass` listings
//! of the kernels weft generates, compiled by `ptxas -O3 -arch=sm_90` (CUDA 13.0, driver
//! 580, on an NVIDIA H100; captured by `scripts/gpu-check.sh`'s optcheck section, see
//! docs/gpu-runs.md). For each, the expected access sequences come from generating the same
//! kernel again, and the verdict must be the one recorded in `tests/hw/sass/verdicts.tsv`
//! (read off the listings by hand: every test access present, in the test's order).

use std::path::{Path, PathBuf};

use weft_hw_cuda::optcheck::{check_sass, Verdict};
use weft_hw_cuda::{generate, CudaParams};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn litmus(name: &str) -> PathBuf {
    for d in [
        "tests/hw/paper000-table6",
        "tests/hw/paper003-fig4",
        "tests/corpus/paper000",
    ] {
        let p = root().join(d).join(format!("{name}.litmus"));
        if p.exists() {
            return p;
        }
    }
    panic!("no litmus file for {name}");
}

#[test]
fn real_sass_gets_the_recorded_verdicts() {
    let table = std::fs::read_to_string(root().join("tests/hw/sass/verdicts.tsv")).unwrap();
    let mut n = 0;
    let mut wrong = Vec::new();
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (file, want) = (f[0], f[1]);
        // NAME.MODE.sm_XY.sass, where NAME may itself hold dots (mp+membar.cta+membar.gl).
        let stem = file.trim_end_matches(".sass");
        let arch_at = stem.rfind(".sm_").unwrap();
        let name_mode = &stem[..arch_at];
        let mode_at = name_mode.rfind('.').unwrap();
        let (name, mode) = (&name_mode[..mode_at], &name_mode[mode_at + 1..]);
        let all = mode == "all";
        let params = CudaParams {
            mem_stress: all,
            bank_conflicts: all,
            thread_randomisation: all,
            thread_sync: all,
            ..CudaParams::default()
        };
        let p = weft_litmus::parse(&std::fs::read_to_string(litmus(name)).unwrap()).unwrap();
        let g = generate(&p, &params).unwrap();
        let sass = std::fs::read_to_string(root().join("tests/hw/sass").join(file)).unwrap();
        let v = check_sass(&sass, &g.expected);
        let got = match &v {
            Verdict::Kept => "kept",
            Verdict::Reordered { .. } => "reordered",
            Verdict::Unavailable(_) => "unavailable",
        };
        if got != want {
            wrong.push(format!("{file}: want {want}, got {v:?}"));
        }
        n += 1;
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(n >= 20, "only {n} listings checked");
}
