//! The incremental consistency check (happens-before views cached in each graph and
//! extended by the event just added, `weft_mc::native::check_incremental`) against its
//! oracles: with the cross-check on, every incremental verdict and every cached view is
//! compared with the whole-graph vector-clock check and the relation-algebra check
//! (a difference panics), and the executions counted are compared with `models/rc11.cat`
//! judging every complete execution. Programs: seeded random C litmus tests mixing
//! relaxed, release/acquire and SC accesses, RMWs and fences, and the corpus's C tests (`tests/corpus/c`; the diy tests and the GPU formats run with the
//! cross-check in `mc_kernels` and by `WEFT_MC_CROSSCHECK=1` over the ground-truth test).

use std::path::Path;

use weft_mc::{check_litmus, native, McOptions};

/// A small deterministic generator (64-bit LCG, Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A random C litmus test: 2 or 3 threads of 2 or 3 operations on `x`/`y`, at least one of
/// them not relaxed (relaxed-only programs take another check).
fn random_program(seed: u64) -> String {
    let mut r = Lcg(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let nt = 2 + r.next(2);
    let mut s = format!("C rand{seed}\n{{ x = 0; y = 0; }}\n");
    let mut strong = false;
    for t in 0..nt {
        s += &format!("P{t} (atomic_int* x, atomic_int* y) {{\n");
        let ops = 2 + r.next(2);
        for k in 0..ops {
            let loc = ["x", "y"][r.next(2) as usize];
            let v = 1 + r.next(2);
            let (op, order) = match r.next(5) {
                0 => (
                    "store",
                    ["relaxed", "release", "seq_cst"][r.next(3) as usize],
                ),
                1 => (
                    "load",
                    ["relaxed", "acquire", "seq_cst"][r.next(3) as usize],
                ),
                2 => (
                    "fadd",
                    ["relaxed", "acquire", "release", "acq_rel"][r.next(4) as usize],
                ),
                3 => ("xchg", ["relaxed", "acq_rel"][r.next(2) as usize]),
                _ => (
                    "fence",
                    ["acquire", "release", "acq_rel", "seq_cst"][r.next(4) as usize],
                ),
            };
            strong |= order != "relaxed";
            let order = if !strong && t == nt - 1 && k == ops - 1 {
                "release"
            } else {
                order
            };
            s += &match op {
                "store" => format!("  atomic_store_explicit({loc}, {v}, memory_order_{order});\n"),
                "load" => {
                    format!("  int r{k} = atomic_load_explicit({loc}, memory_order_{order});\n")
                }
                "fadd" => format!(
                    "  int r{k} = atomic_fetch_add_explicit({loc}, {v}, memory_order_{order});\n"
                ),
                "xchg" => format!(
                    "  int r{k} = atomic_exchange_explicit({loc}, {v}, memory_order_{order});\n"
                ),
                _ => format!("  atomic_thread_fence(memory_order_{order});\n"),
            };
        }
        s += "}\n";
    }
    s + "exists (x=1 /\\ y=1)\n"
}

/// Native (incremental, cross-checked) and `.cat` runs of one program: the number of
/// consistent executions of each.
fn both(src: &str) -> Option<(u64, u64)> {
    let p = match weft_litmus::parse(src) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("parse: {e:?}\n{src}");
            return None;
        }
    };
    let cat = weft_exec::models::load("rc11").unwrap();
    let opts = McOptions {
        threads: 1,
        // Generous: these programs take well under a second idle, but a loaded machine
        // (several builds at once) timed 10 of 48 out at 10 s, which this test would count
        // as "not compared" rather than as a failure of the check.
        timeout: Some(std::time::Duration::from_secs(40)),
        ..McOptions::default()
    };
    let a = match check_litmus(&p, "rc11", &cat, &opts) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("mc: {e:?}\n{src}");
            return None;
        }
    };
    let b = check_litmus(
        &p,
        "rc11",
        &cat,
        &McOptions {
            force_cat: true,
            ..opts
        },
    )
    .ok()?;
    if a.stopped.is_some() || b.stopped.is_some() || a.checker != "native" {
        return None;
    }
    Some((a.sim.consistent, b.sim.consistent))
}

#[test]
fn incremental_check_agrees_with_the_full_checks_and_rc11_cat() {
    native::set_crosscheck(true);
    let mut compared = 0;
    for seed in 0..48 {
        let src = random_program(seed);
        let Some((native, cat)) = both(&src) else {
            continue;
        };
        assert_eq!(native, cat, "executions, native vs rc11.cat:\n{src}");
        compared += 1;
    }
    // The generator's programs all parse and run natively (a generator gone wrong must
    // not turn this test into one that compares nothing).
    assert!(compared >= 40, "only {compared} random programs compared");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
    let mut files = Vec::new();
    litmus_files(&root.join("c"), &mut files);
    files.sort();
    let mut corpus = 0;
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        if let Some((native, cat)) = both(&src) {
            assert_eq!(
                native,
                cat,
                "executions, native vs rc11.cat: {}",
                f.display()
            );
            corpus += 1;
        }
    }
    assert!(corpus >= 8, "only {corpus} corpus tests compared");
}

fn litmus_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let f = e.unwrap().path();
        if f.is_dir() {
            litmus_files(&f, out);
        } else if f.extension().is_some_and(|x| x == "litmus") {
            out.push(f);
        }
    }
}
