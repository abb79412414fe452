//! The hardware judge (`weft_hw::judge`) with the simulator lent as the binary lends it:
//! verdicts of bundled models on GPUHarbor outcomes, against the verdicts stored with the
//! corpus (`tests/corpus/gpuharbor/*.meta.json`). These tests live in the binary crate
//! because `weft-hw` depends on no engine.

use weft_hw::judge::{Judge, Verdict};
use weft_ir::Program;
use weft_litmus::classify::Outcome;

fn load(name: &str) -> Program {
    let path = format!(
        "{}/../../tests/corpus/gpuharbor/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    weft_litmus::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn judge(p: &Program, model: &str) -> Judge {
    let m = weft_sim::models::load(model).unwrap();
    Judge::new(p, model, &m, weft_sim::simulate_default).unwrap()
}

/// MP's outcome with thread 1 reading `r0` from y and `r1` from x.
fn mp_outcome(r0: i64, r1: i64) -> Outcome {
    Outcome {
        regs: vec![vec![], vec![r0, r1]],
        mem: vec![vec![1], vec![1]],
    }
}

/// MP's weak outcome (r0 = 1, r1 = 0) is forbidden under SC and allowed under WebGPU's
/// model (relaxed atomics: only coherence); its sequential outcomes are allowed by both.
#[test]
fn sc_forbids_the_weak_mp_outcome_and_webgpu_allows_it() {
    let p = load("MP");
    let sc = judge(&p, "sc");
    assert!(sc.complete);
    assert_eq!(sc.verdict(&p, &mp_outcome(1, 0)), Verdict::Forbidden);
    assert_eq!(sc.verdict(&p, &mp_outcome(1, 1)), Verdict::Allowed);
    assert_eq!(sc.verdict(&p, &mp_outcome(0, 1)), Verdict::Allowed);
    let wg = judge(&p, "webgpu");
    assert_eq!(wg.verdict(&p, &mp_outcome(1, 0)), Verdict::Allowed);
    // A final memory value no execution writes is forbidden under both.
    let mut odd = mp_outcome(1, 1);
    odd.mem[0][0] = 7;
    assert_eq!(sc.verdict(&p, &odd), Verdict::Forbidden);
    assert_eq!(wg.verdict(&p, &odd), Verdict::Forbidden);
}

/// CoRR's weak outcome (r0 = 1, r1 = 0: reading x new then old) is forbidden by the
/// WebGPU model (coherence), per tests/corpus/gpuharbor/CoRR.meta.json.
#[test]
fn webgpu_forbids_the_corr_coherence_violation() {
    let p = load("CoRR");
    let j = judge(&p, "webgpu");
    let regs: Vec<Vec<i64>> = p.threads.iter().map(|t| vec![0; t.regs.len()]).collect();
    let reader = regs.iter().position(|r| r.len() == 2).unwrap();
    let mut o = Outcome {
        regs,
        mem: vec![vec![1]],
    };
    o.regs[reader] = vec![1, 0];
    assert_eq!(j.verdict(&p, &o), Verdict::Forbidden);
    o.regs[reader] = vec![0, 1];
    assert_eq!(j.verdict(&p, &o), Verdict::Allowed);
}
