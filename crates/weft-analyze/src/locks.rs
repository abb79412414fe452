//! The lock case study (paper 001 §5.3, Table 5): per device and lock test, how many test
//! instances failed to protect the critical section (the counter's final value is not the
//! number of increments), how many were cut at the WGSL spin cap (not counted as failures),
//! and how long the runs took.

use std::collections::BTreeMap;

use serde::Serialize;
use ts_rs::TS;
use weft_store::StoredRun;

/// A lock test of the campaign (`tests/corpus/locks/*.meta.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LockTest {
    pub test: String,
    /// `TAS`, `TTAS`, `CAS`, or `none` for the no-lock baseline.
    pub lock: String,
    /// With acquire/release fences.
    pub fenced: bool,
    /// The plain counter location and its value when every increment took effect.
    pub counter: String,
    pub expected: i64,
}

/// One row of Table 5: a device and a lock test.
#[derive(Clone, Debug, Default, PartialEq, Serialize, TS)]
pub struct LockRow {
    pub device: usize,
    pub test: String,
    pub lock: String,
    pub fenced: bool,
    pub runs: u64,
    pub instances: u64,
    /// Instances whose counter is not `expected` (and no thread was cut).
    pub failing: u64,
    /// Instances with a thread cut at the spin cap (every register `i32::MIN`).
    pub cut: u64,
    /// Lost increments summed over the failing instances.
    pub lost: u64,
    pub seconds: f64,
}

/// The register value of a thread cut at the spin cap (weft-hw-wgpu's `CUT_VALUE`).
pub const CUT_VALUE: i64 = i32::MIN as i64;

/// The value of `name` in an outcome's canonical text (`0:r0=1; x=2`).
fn value_of(outcome: &str, name: &str) -> Option<i64> {
    outcome
        .split(';')
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| k.trim() == name)
        .and_then(|(_, v)| v.trim().parse().ok())
}

fn is_cut(outcome: &str) -> bool {
    outcome
        .split(';')
        .filter_map(|kv| kv.trim().split_once('='))
        .any(|(k, v)| k.contains(':') && v.trim().parse::<i64>().ok() == Some(CUT_VALUE))
}

/// Table 5 over `runs`, devices numbered as `devices` lists them (see `Dataset`).
pub fn lock_table(
    runs: &[StoredRun],
    device_index: &dyn Fn(&StoredRun) -> usize,
    locks: &[LockTest],
) -> Vec<LockRow> {
    let mut rows: BTreeMap<(usize, String), LockRow> = BTreeMap::new();
    for r in runs {
        let Some(l) = locks.iter().find(|l| l.test == r.run.test.name) else {
            continue;
        };
        let d = device_index(r);
        let row = rows.entry((d, l.test.clone())).or_insert_with(|| LockRow {
            device: d,
            test: l.test.clone(),
            lock: l.lock.clone(),
            fenced: l.fenced,
            ..LockRow::default()
        });
        row.runs += 1;
        row.seconds += r.run.duration_ms as f64 / 1000.0;
        for o in &r.run.outcomes {
            row.instances += o.count;
            if is_cut(&o.outcome) {
                row.cut += o.count;
                continue;
            }
            match value_of(&o.outcome, &l.counter) {
                Some(v) if v == l.expected => {}
                Some(v) => {
                    row.failing += o.count;
                    row.lost += o.count * (l.expected - v).max(0) as u64;
                }
                None => row.failing += o.count,
            }
        }
    }
    rows.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_text_is_read_by_name() {
        let o = "0:r0=0; 0:r1=1; 1:r0=-2147483648; l=0; x=1";
        assert_eq!(value_of(o, "x"), Some(1));
        assert_eq!(value_of(o, "l"), Some(0));
        assert_eq!(value_of(o, "0:r1"), Some(1));
        assert!(is_cut(o));
        assert!(!is_cut("0:r0=0; x=-2147483648"));
    }
}
