//! Bad input never panics: the committed kernels' PTX with random lines deleted, duplicated
//! or swapped either fails to parse/lower with an error, or runs to completion or a finding
//! under a small step limit. A panic fails the test.

use std::path::Path;

use proptest::prelude::*;
use weft_simt::{run, Arg, Buffer, ElemType, LaunchConfig, Options, Schedule};

fn sources() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels");
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("kernel.ptx"))
        .filter(|p| p.is_file())
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    v.sort();
    v
}

#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Duplicate(usize),
    Swap(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn mutated_kernels_never_panic(which in any::<usize>(), edits in prop::collection::vec(edit(), 1..4), seed in any::<u64>()) {
        let srcs = sources();
        let src = &srcs[which % srcs.len()];
        let mut lines: Vec<&str> = src.lines().collect();
        for e in edits {
            let n = lines.len();
            if n == 0 {
                break;
            }
            match e {
                Edit::Delete(i) => {
                    lines.remove(i % n);
                }
                Edit::Duplicate(i) => {
                    let l = lines[i % n];
                    lines.insert(i % n, l);
                }
                Edit::Swap(a, b) => lines.swap(a % n, b % n),
            }
        }
        let text = lines.join("\n");
        let Ok(m) = weft_ptx::parse(&text) else { return Ok(()); };
        let Ok(k) = weft_ptx::lower_kernel(&m, None) else { return Ok(()); };
        let args: Vec<Arg> = k
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| if p.ty.bits == 64 { Arg::Buffer(i) } else { Arg::Scalar(64) })
            .collect();
        let bufs: Vec<Buffer> = (0..k.params.len()).map(|i| Buffer::zeroed(format!("b{i}"), ElemType::I32, 256)).collect();
        let opts = Options { schedule: Schedule::Random(seed), max_steps: 20_000, max_resident_ctas: 2, ..Options::default() };
        let cfg = LaunchConfig { grid: [2, 1, 1], block: [64, 1, 1] };
        let _ = run(&k, cfg, &args, bufs, &opts, Some(&mut std::io::sink()));
    }
}
