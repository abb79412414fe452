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

/// `--max-memory SIZE` of `weft mc`: bytes, or a whole number with `K`, `M` or `G`
/// (`512M`, `2G`).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, mul) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M') => (&t[..t.len() - 1], 1 << 20),
        Some('G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    match num.trim().parse::<u64>() {
        Ok(v) if v > 0 => v
            .checked_mul(mul)
            .ok_or_else(|| format!("`{s}` is too large")),
        _ => Err(format!("`{s}` is not a size (e.g. 512M, 2G)")),
    }
}
