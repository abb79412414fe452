//! Memory accounting for `--max-memory` and the peak-memory report: the resident set and
//! its high-water mark from `/proc/self/status` (Linux; `None` elsewhere).

fn status_field(name: &str) -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(name))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Current resident set size in bytes.
pub fn rss_bytes() -> Option<u64> {
    status_field("VmRSS:")
}

/// Peak resident set size in bytes.
pub fn peak_rss_bytes() -> Option<u64> {
    status_field("VmHWM:")
}
