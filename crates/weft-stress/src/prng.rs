//! GPUHarbor's seeded configuration generator (paper 001 §4: 50 random configurations per
//! campaign; gpuharbor-facts.md "Seeded configuration generator"): the Park-Miller PRNG
//! with GPUHarbor's seeding and modulus, and the draw order of one configuration.

use crate::StressConfig;

/// Park-Miller "minimal standard" generator as GPUHarbor implements it: multiplier 16807,
/// 32-bit wrapping product, modulus 2147483646 (not 2^31 − 1), seeded by Java's
/// `String.hashCode`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParkMiller {
    state: i32,
}

const MODULUS: i32 = 2147483646;

/// Java's `String.hashCode`: `h = 31·h + c` over UTF-16 code units, wrapping in 32 bits.
pub fn java_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

impl ParkMiller {
    /// Seeds from a string: its Java hash, plus 2147483646 when not positive.
    pub fn new(seed: &str) -> ParkMiller {
        let mut s = java_hash(seed);
        if s <= 0 {
            s = s.wrapping_add(MODULUS);
        }
        ParkMiller { state: s }
    }

    /// The current state (the last output, or the seed before the first draw).
    pub fn state(&self) -> i32 {
        self.state
    }

    /// Next output: `s = (s · 16807 mod 2^32, signed) % 2147483646`, made non-negative.
    pub fn next_u32(&mut self) -> u32 {
        let mut s = self.state.wrapping_mul(16807) % MODULUS;
        if s < 0 {
            s += MODULUS;
        }
        self.state = s;
        s as u32
    }

    /// GPUHarbor's `rg(min, max)`: `prng() % (max − min + 1) + min` (inclusive).
    pub fn range(&mut self, min: u32, max: u32) -> u32 {
        let span = max.saturating_sub(min) as u64 + 1;
        (self.next_u32() as u64 % span) as u32 + min
    }

    /// True with probability `pct` % (`range(0, 99) < pct`).
    pub fn percent(&mut self, pct: u32) -> bool {
        self.range(0, 99) < pct
    }
}

/// Device limits bounding a random configuration: GPUHarbor's `L` (workgroups) and `Ls`
/// (workgroup size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_workgroups: u32,
    pub max_workgroup_size: u32,
}

impl Limits {
    /// GPUHarbor's desktop limits: L = 1024, Ls = 256.
    pub const DESKTOP: Limits = Limits {
        max_workgroups: 1024,
        max_workgroup_size: 256,
    };
    /// GPUHarbor's mobile limits: 32 and 32.
    pub const MOBILE: Limits = Limits {
        max_workgroups: 32,
        max_workgroup_size: 32,
    };
}

/// One random configuration, drawn in GPUHarbor's order (unsmoothed percentages).
pub fn random_config(rng: &mut ParkMiller, limits: Limits) -> StressConfig {
    random_config_with(rng, limits, false)
}

/// [`random_config`], optionally "smoothing" the four stress percentages down to
/// multiples of 5 as GPUHarbor's option does.
pub fn random_config_with(rng: &mut ParkMiller, limits: Limits, smoothed: bool) -> StressConfig {
    let l = limits.max_workgroups.max(2);
    let ls = limits.max_workgroup_size.max(1);
    let smooth = |v: u32| if smoothed { v / 5 * 5 } else { v };
    let testing_workgroups = rng.range(2, l);
    let workgroup_size = rng.range(1, ls);
    let max_workgroups = rng.range(testing_workgroups, l);
    let stress_line_size = 1u32 << rng.range(2, 10);
    let stress_target_lines = rng.range(1, 16);
    let mem_stride = rng.range(1, 7);
    let shuffle_pct = smooth(rng.range(0, 100));
    let barrier_pct = smooth(rng.range(0, 100));
    let mem_stress_pct = smooth(rng.range(0, 100));
    let pre_stress_pct = smooth(rng.range(0, 100));
    let mem_stress_iterations = rng.range(0, 1024);
    let pre_stress_iterations = rng.range(0, 128);
    let stress_strategy_balance_pct = rng.range(0, 100);
    let mem_stress_store_first_pct = rng.range(0, 100);
    let mem_stress_store_second_pct = rng.range(0, 100);
    let pre_stress_store_first_pct = rng.range(0, 100);
    let pre_stress_store_second_pct = rng.range(0, 100);
    StressConfig {
        testing_workgroups,
        max_workgroups,
        workgroup_size,
        shuffle_pct,
        barrier_pct,
        scratch_memory_size: 32 * stress_line_size * stress_target_lines,
        mem_stride,
        mem_stress_pct,
        mem_stress_iterations,
        mem_stress_store_first_pct,
        mem_stress_store_second_pct,
        pre_stress_pct,
        pre_stress_iterations,
        pre_stress_store_first_pct,
        pre_stress_store_second_pct,
        stress_line_size,
        stress_target_lines,
        stress_strategy_balance_pct,
        ..StressConfig::default()
    }
}

/// The first `n` configurations of the campaign seeded by `seed`.
pub fn configs(seed: &str, n: usize, limits: Limits) -> Vec<StressConfig> {
    let mut rng = ParkMiller::new(seed);
    (0..n).map(|_| random_config(&mut rng, limits)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // gpuharbor-facts.md "Test vector".
    #[test]
    fn test_vector_of_the_notes() {
        assert_eq!(java_hash("rbjnMzXroA"), -749273587);
        let mut r = ParkMiller::new("rbjnMzXroA");
        assert_eq!(r.state(), -749273587 + 2147483646);
        let got: Vec<u32> = (0..5).map(|_| r.next_u32()).collect();
        assert_eq!(
            got,
            [1950385197, 933602907, 1548525661, 716454313, 506824253]
        );
    }

    #[test]
    fn configuration_zero_of_the_public_campaign() {
        let c = &configs("rbjnMzXroA", 50, Limits::DESKTOP)[0];
        assert_eq!(c.workgroup_size, 92);
        assert_eq!(c.stress_line_size, 512);
        assert_eq!(c.stress_target_lines, 14);
        assert_eq!(c.mem_stride, 7);
        assert_eq!((c.shuffle_pct, c.barrier_pct), (27, 32));
        assert_eq!((c.mem_stress_pct, c.pre_stress_pct), (5, 95));
        assert_eq!(
            (c.mem_stress_iterations, c.pre_stress_iterations),
            (926, 110)
        );
        assert_eq!(c.scratch_memory_size, 32 * 512 * 14);
        let small = Limits {
            max_workgroups: 16,
            max_workgroup_size: 256,
        };
        let c16 = &configs("rbjnMzXroA", 1, small)[0];
        assert_eq!((c16.testing_workgroups, c16.max_workgroups), (14, 15));
        assert_eq!(c16.workgroup_size, 92);
    }

    #[test]
    fn campaign_configs_validate_and_are_reproducible() {
        let a = configs("rbjnMzXroA", 50, Limits::DESKTOP);
        assert_eq!(a, configs("rbjnMzXroA", 50, Limits::DESKTOP));
        for c in &a {
            c.validate().unwrap();
            assert!(c.testing_workgroups >= 2 && c.max_workgroups >= c.testing_workgroups);
            assert!(c.workgroup_size <= 256 && c.max_workgroups <= 1024);
        }
        let m = configs("x", 20, Limits::MOBILE);
        assert!(m
            .iter()
            .all(|c| c.max_workgroups <= 32 && c.workgroup_size <= 32));
        let mut r = ParkMiller::new("s");
        let s = random_config_with(&mut r, Limits::DESKTOP, true);
        assert_eq!(s.shuffle_pct % 5, 0);
        assert_eq!(s.pre_stress_pct % 5, 0);
    }
}
