//! Pruning partial candidates with a model's monotone checks must not change any result:
//! for every test of our corpus and of the shared Dat3M corpus's manual PTX, Vulkan and
//! OpenCL tests, the allowed final states and their execution counts are the same with
//! and without pruning.

use std::path::{Path, PathBuf};

use weft_sim::{models, simulate, SimOptions};

fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            // The spin-lock tests (paper 001 §5.3) unroll their loops: without pruning their
            // candidate space is far beyond a test's time (they are judged by `weft mc` in
            // crates/weft/tests/cli/locks_mc.rs).
            if p.file_name().is_some_and(|n| n == "locks") {
                continue;
            }
            litmus_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "litmus" || x == "json")
            && !p.to_string_lossy().ends_with(".meta.json")
        {
            out.push(p);
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(dirs: &[PathBuf], model_names: &[&str]) -> usize {
    let mut files = Vec::new();
    for d in dirs {
        litmus_files(d, &mut files);
    }
    files.sort();
    let mut compared = 0;
    for name in model_names {
        let model = models::load(name).unwrap();
        for f in &files {
            let Ok(src) = std::fs::read_to_string(f) else {
                continue;
            };
            let Ok(p) = weft_litmus::parse(&src) else {
                continue;
            };
            // Bounded: a test that does not finish is not compared (and not a hang).
            let on = SimOptions {
                timeout: Some(std::time::Duration::from_secs(30)),
                ..SimOptions::default()
            };
            let off = SimOptions {
                prune: false,
                ..on.clone()
            };
            let (Ok(a), Ok(b)) = (simulate(&p, &model, &on), simulate(&p, &model, &off)) else {
                continue;
            };
            if a.truncated || b.truncated || a.timed_out || b.timed_out {
                continue;
            }
            assert_eq!(a.states, b.states, "{name} {}: states differ", f.display());
            assert_eq!(
                (a.positive, a.negative, &a.flags),
                (b.positive, b.negative, &b.flags),
                "{name} {}",
                f.display()
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn pruning_keeps_every_result_on_our_corpus() {
    let n = check(
        &[root().join("tests/corpus")],
        &["ptx-asplos15", "ptx-v7.5", "scoped-rc11", "webgpu"],
    );
    assert!(n > 100, "only {n} comparisons");
}

#[test]
fn pruning_keeps_every_result_on_dat3m_manual_tests() {
    let shared = root().join("../shared/corpus/dat3m/litmus");
    if !shared.is_dir() {
        eprintln!("skipped: {} not found", shared.display());
        return;
    }
    let mut n = check(&[shared.join("PTX/Manual")], &["ptx-v7.5"]);
    // Every OpenCL test but TSan (its unpruned enumeration takes minutes): opencl.cat's
    // `na-visible` is judged on partial candidates with an upper bound of the candidate
    // (bounded checks).
    let mut cl = Vec::new();
    litmus_files(&shared.join("OPENCL"), &mut cl);
    let cl_tmp = std::env::temp_dir().join(format!("weft-prune-cl-{}", std::process::id()));
    std::fs::create_dir_all(&cl_tmp).unwrap();
    for (i, f) in cl
        .iter()
        .filter(|f| !f.to_string_lossy().contains("TSan"))
        .enumerate()
    {
        let name = f.file_name().unwrap().to_string_lossy();
        std::fs::copy(f, cl_tmp.join(format!("{i}-{name}"))).unwrap();
    }
    n += check(std::slice::from_ref(&cl_tmp), &["opencl"]);
    let _ = std::fs::remove_dir_all(&cl_tmp);
    // The Vulkan manual tests minus the xf-barrier family, whose full enumeration
    // without pruning takes minutes (that is what pruning is for).
    let mut vk = Vec::new();
    litmus_files(&shared.join("VULKAN/Manual"), &mut vk);
    let tmp = std::env::temp_dir().join(format!("weft-prune-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for f in vk
        .iter()
        .filter(|f| !f.to_string_lossy().contains("xf-barrier"))
    {
        std::fs::copy(f, tmp.join(f.file_name().unwrap())).unwrap();
    }
    n += check(std::slice::from_ref(&tmp), &["vulkan"]);
    std::fs::remove_dir_all(&tmp).ok();
    assert!(n > 100, "only {n} comparisons");
}
