//! The budget of one simulation: a wall-clock deadline and a ceiling on the process's
//! resident memory (RSS, read from `/proc/self/status` on Linux), checked cheaply and
//! often by the enumeration so that no input can take the machine down.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// How often (in checks) the resident memory is read; reading it costs a few
/// microseconds, a time check a few tens of nanoseconds.
const MEMORY_EVERY: u32 = 256;
/// ... and also whenever this long has passed since the last reading.
const MEMORY_PERIOD: Duration = Duration::from_millis(20);

/// A deadline and a memory ceiling; [`Budget::exceeded`] says when either is passed and
/// stays true from then on.
pub struct Budget {
    deadline: Option<Instant>,
    max_memory: Option<u64>,
    calls: Cell<u32>,
    last_read: Cell<Option<Instant>>,
    over_time: Cell<bool>,
    over_memory: Cell<bool>,
}

impl Budget {
    /// A budget ending at `deadline` (none: no time limit) with at most `max_memory`
    /// bytes of resident memory (none: no limit).
    pub fn new(deadline: Option<Instant>, max_memory: Option<u64>) -> Self {
        Budget {
            deadline,
            max_memory,
            calls: Cell::new(0),
            last_read: Cell::new(None),
            over_time: Cell::new(false),
            over_memory: Cell::new(false),
        }
    }

    /// Whether the deadline or the memory ceiling has been passed.
    pub fn exceeded(&self) -> bool {
        if self.over_time.get() || self.over_memory.get() {
            return true;
        }
        let now = self.deadline.map(|_| Instant::now());
        if let (Some(d), Some(now)) = (self.deadline, now) {
            if now > d {
                self.over_time.set(true);
                return true;
            }
        }
        if let Some(limit) = self.max_memory {
            let k = self.calls.get().wrapping_add(1);
            self.calls.set(k);
            // Every MEMORY_EVERY checks, or when MEMORY_PERIOD has passed since the last
            // reading (checks may be rare when each candidate is expensive).
            let now = now.unwrap_or_else(Instant::now);
            let due = k.is_multiple_of(MEMORY_EVERY)
                || self
                    .last_read
                    .get()
                    .is_none_or(|t| now.duration_since(t) >= MEMORY_PERIOD);
            if due {
                self.last_read.set(Some(now));
                if resident_bytes().is_some_and(|rss| rss > limit) {
                    self.over_memory.set(true);
                    return true;
                }
            }
        }
        false
    }

    /// Whether the memory ceiling (rather than the deadline) stopped the simulation.
    pub fn memory_exceeded(&self) -> bool {
        self.over_memory.get()
    }
}

/// The resident memory of this process in bytes (`VmRSS`), where the system tells it.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// Parses a size such as `4G`, `512M`, `64k`, `1.5GiB` or a number of bytes.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let v: f64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a size (e.g. 4G, 512M, 100000)"))?;
    let mult: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" | "kib" => 1024.0,
        "m" | "mb" | "mib" => 1024.0 * 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tb" | "tib" => 1024.0f64.powi(4),
        _ => {
            return Err(format!(
                "`{s}`: unknown size unit `{unit}` (use K, M, G or T)"
            ))
        }
    };
    let bytes = v * mult;
    if !bytes.is_finite() || !(1.0..=1e18).contains(&bytes) {
        return Err(format!("`{s}` is not a usable size"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("4X").is_err());
        assert!(parse_size("0").is_err());
    }

    #[test]
    fn resident_memory_is_known_on_linux_and_a_tiny_ceiling_trips() {
        if cfg!(target_os = "linux") {
            assert!(resident_bytes().is_some_and(|b| b > 0));
            let b = Budget::new(None, Some(1));
            let tripped = (0..MEMORY_EVERY * 2).any(|_| b.exceeded());
            assert!(tripped && b.memory_exceeded());
        }
    }
}
