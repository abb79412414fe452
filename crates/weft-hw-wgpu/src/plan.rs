//! Per-dispatch random choices (GPUHarbor's runner, gpuharbor-facts.md "Parameters"): the
//! number of workgroups, the workgroup-id shuffle, the coin flips for the spin barrier,
//! memory stress and pre-stress, their access patterns, the stressed scratch lines and the
//! bank-conflict mode. Unlike GPUHarbor, they are drawn from the run's seed, so a run is
//! reproducible in everything the host decides.

use weft_stress::StressConfig;

/// A small deterministic generator (SplitMix64) for the host's per-dispatch choices.
#[derive(Clone, Debug)]
pub struct HostRng(u64);

impl HostRng {
    pub fn new(seed: u64) -> HostRng {
        HostRng(seed)
    }

    /// Advances the generator by `n` draws without computing them (SplitMix64's state
    /// moves by a constant per draw), so skipping dispatches costs no work per draw.
    pub fn advance(&mut self, n: u64) {
        self.0 = self
            .0
            .wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(n));
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// True with probability `pct` %.
    pub fn percent(&mut self, pct: u32) -> bool {
        self.below(100) < pct as u64
    }
}

/// Everything the host decides for one dispatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DispatchPlan {
    /// Workgroups dispatched: in `[testingWorkgroups, maxWorkgroups)`, or exactly
    /// `testingWorkgroups` when the two are equal.
    pub workgroups: u32,
    /// `shuffle[workgroup_id]` = the id the workgroup plays (identity unless shuffled);
    /// ids below `testingWorkgroups` run tests.
    pub shuffle: Vec<u32>,
    pub barrier: bool,
    pub mem_stress: bool,
    pub pre_stress: bool,
    /// Access patterns: (S,S)=0, (S,L)=1, (L,S)=2, (L,L)=3.
    pub mem_pattern: u32,
    pub pre_pattern: u32,
    /// Per dispatched workgroup, the first scratch word of its stressed line.
    pub lines: Vec<u32>,
    /// Bank-conflict incantation: 1 = conflicting offsets, 0 = conflict-free.
    pub bank_mode: u32,
}

fn pattern(rng: &mut HostRng, first_pct: u32, second_pct: u32) -> u32 {
    let first_store = rng.percent(first_pct);
    let second_store = rng.percent(second_pct);
    match (first_store, second_store) {
        (true, true) => 0,
        (true, false) => 1,
        (false, true) => 2,
        (false, false) => 3,
    }
}

/// Draws one dispatch's choices from `rng` (a pure function of the generator's state).
pub fn plan(cfg: &StressConfig, rng: &mut HostRng) -> DispatchPlan {
    let t = cfg.testing_workgroups;
    let workgroups = if cfg.max_workgroups > t {
        t + rng.below((cfg.max_workgroups - t) as u64) as u32
    } else {
        t
    };
    let mut shuffle: Vec<u32> = (0..workgroups).collect();
    if rng.percent(cfg.shuffle_pct) {
        for i in (1..shuffle.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            shuffle.swap(i, j);
        }
    }
    let barrier = rng.percent(cfg.barrier_pct);
    let mem_stress = rng.percent(cfg.mem_stress_pct);
    let pre_stress = rng.percent(cfg.pre_stress_pct);
    let mem_pattern = pattern(
        rng,
        cfg.mem_stress_store_first_pct,
        cfg.mem_stress_store_second_pct,
    );
    let pre_pattern = pattern(
        rng,
        cfg.pre_stress_store_first_pct,
        cfg.pre_stress_store_second_pct,
    );
    // stressTargetLines distinct lines of the scratchpad, then workgroups mapped to them
    // round-robin (probability stressStrategyBalancePct) or in chunks.
    let avail = (cfg.scratch_memory_size / cfg.stress_line_size).max(1) as u64;
    let targets = (cfg.stress_target_lines as u64).min(avail);
    // A partial Fisher-Yates shuffle of `0..avail` kept sparse (only the swapped slots are
    // stored), so a large scratchpad costs memory in the lines chosen, not in its size.
    let mut moved: std::collections::HashMap<u64, u64> = std::collections::HashMap::new();
    let mut chosen = Vec::with_capacity(targets as usize);
    for i in 0..targets {
        let j = i + rng.below(avail - i);
        let at_j = moved.get(&j).copied().unwrap_or(j);
        let at_i = moved.get(&i).copied().unwrap_or(i);
        moved.insert(j, at_i);
        chosen.push(at_j);
    }
    let balanced = rng.percent(cfg.stress_strategy_balance_pct);
    let lines = (0..workgroups as u64)
        .map(|w| {
            let k = if balanced {
                w % targets
            } else {
                (w * targets / workgroups as u64).min(targets - 1)
            };
            (chosen[k as usize] * cfg.stress_line_size as u64) as u32
        })
        .collect();
    let bank_mode = if cfg.bank_conflicts {
        rng.below(2) as u32
    } else {
        0
    };
    DispatchPlan {
        workgroups,
        shuffle,
        barrier,
        mem_stress,
        pre_stress,
        mem_pattern,
        pre_pattern,
        lines,
        bank_mode,
    }
}

/// Advances `rng` past one dispatch exactly as [`plan`] would, in constant time and memory:
/// the draws of the shuffle and of the stressed lines, whose count is known once the
/// workgroups and the shuffle coin are drawn, are skipped without being computed. A spec
/// for dispatches `from..` costs work in what it returns, not in `from`.
pub fn skip_plan(cfg: &StressConfig, rng: &mut HostRng) {
    let t = cfg.testing_workgroups;
    let workgroups = if cfg.max_workgroups > t {
        t + rng.below((cfg.max_workgroups - t) as u64) as u32
    } else {
        t
    };
    if rng.percent(cfg.shuffle_pct) {
        rng.advance((workgroups as u64).saturating_sub(1));
    }
    // barrier, mem_stress, pre_stress, two patterns of two coins each.
    rng.advance(7);
    let avail = (cfg.scratch_memory_size / cfg.stress_line_size).max(1) as u64;
    let targets = (cfg.stress_target_lines as u64).min(avail);
    rng.advance(targets);
    rng.advance(1); // balanced
    if cfg.bank_conflicts {
        rng.advance(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Skipping a dispatch leaves the generator where drawing it does, for configurations
    /// with and without a shuffle, spare workgroups, bank conflicts and a large scratchpad.
    #[test]
    fn skip_plan_leaves_the_generator_where_plan_does() {
        let mut cfgs = weft_stress::configs("skip", 20, weft_stress::Limits::DESKTOP);
        let mut big = cfgs[0].clone();
        big.scratch_memory_size = 1 << 26;
        big.stress_line_size = 1;
        big.stress_target_lines = 1 << 16;
        big.bank_conflicts = true;
        big.shuffle_pct = 100;
        cfgs.push(big);
        for cfg in &cfgs {
            for seed in [0u64, 1, 0xdead_beef, u64::MAX] {
                let mut a = HostRng::new(seed);
                let mut b = HostRng::new(seed);
                for _ in 0..5 {
                    let drawn = plan(cfg, &mut a);
                    skip_plan(cfg, &mut b);
                    assert_eq!(a.0, b.0, "after {drawn:?}");
                }
            }
        }
    }

    /// The sparse partial shuffle chooses the lines the dense one chose (the dense
    /// algorithm written out here as the reference).
    #[test]
    fn sparse_line_choice_matches_the_dense_shuffle() {
        for (avail, targets, seed) in [(1u64, 1u64, 3u64), (16, 4, 9), (64, 64, 1), (1000, 7, 42)] {
            let mut r = HostRng::new(seed);
            let mut pool: Vec<u64> = (0..avail).collect();
            for i in 0..targets as usize {
                let j = i + r.below(avail - i as u64) as usize;
                pool.swap(i, j);
            }
            let mut r2 = HostRng::new(seed);
            let mut moved = std::collections::HashMap::new();
            let mut chosen = Vec::new();
            for i in 0..targets {
                let j = i + r2.below(avail - i);
                let at_j = moved.get(&j).copied().unwrap_or(j);
                let at_i = moved.get(&i).copied().unwrap_or(i);
                moved.insert(j, at_i);
                chosen.push(at_j);
            }
            assert_eq!(chosen, pool[..targets as usize].to_vec());
        }
    }
}
