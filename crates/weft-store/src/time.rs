//! Timestamps as the database keeps them: `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339, UTC, whole
//! seconds). One fixed width means text order is time order, in SQLite and PostgreSQL alike,
//! so `since` filters are plain string comparisons; sub-second timing lives in
//! `duration_ms`.

use std::time::{SystemTime, UNIX_EPOCH};

/// The shape every stored timestamp has (`0` stands for a digit).
const TEMPLATE: &[u8] = b"0000-00-00T00:00:00Z";

/// The current time in the stored form.
pub fn now_utc() -> String {
    timestamp_utc(SystemTime::now())
}

/// `t` in the stored form (times before 1970 are clamped to the epoch).
pub fn timestamp_utc(t: SystemTime) -> String {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem / 60) % 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day) (H. Hinnant's
/// `civil_from_days` algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Whether `s` is a stored timestamp (`YYYY-MM-DDTHH:MM:SSZ` with plausible fields).
pub fn is_timestamp(s: &str) -> bool {
    s.len() == TEMPLATE.len() && is_prefix(s) && fields_plausible(s)
}

/// Whether `s` is a non-empty prefix of a stored timestamp (`2025`, `2025-03-01`,
/// `2025-03-01T12:00`...) whose fields can be completed into a plausible one (not
/// `2025-13`): what a `since` filter accepts.
pub fn is_prefix(s: &str) -> bool {
    let b = s.as_bytes();
    let shaped = !b.is_empty()
        && b.len() <= TEMPLATE.len()
        && b.iter().zip(TEMPLATE).all(|(c, t)| match t {
            b'0' => c.is_ascii_digit(),
            _ => c == t,
        });
    // Completed with the smallest plausible digits of each field.
    shaped && fields_plausible(&format!("{s}{}", &EARLIEST[s.len()..]))
}

/// The completion of a prefix: each field at its smallest plausible value.
const EARLIEST: &str = "2000-01-01T00:00:00Z";

fn fields_plausible(s: &str) -> bool {
    let n = |r: std::ops::Range<usize>| s[r].parse::<u32>().unwrap_or(99);
    (1..=12).contains(&n(5..7))
        && (1..=31).contains(&n(8..10))
        && n(11..13) < 24
        && n(14..16) < 60
        && n(17..19) < 61
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn known_instants() {
        assert_eq!(timestamp_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        // 2000-02-29T12:34:56Z is 951827696 s after the epoch.
        let t = UNIX_EPOCH + Duration::from_secs(951_827_696);
        assert_eq!(timestamp_utc(t), "2000-02-29T12:34:56Z");
        // 2024-12-31T23:59:59Z.
        let t = UNIX_EPOCH + Duration::from_secs(1_735_689_599);
        assert_eq!(timestamp_utc(t), "2024-12-31T23:59:59Z");
        assert!(is_timestamp(&now_utc()));
    }

    #[test]
    fn shapes() {
        assert!(is_timestamp("2025-03-01T00:00:00Z"));
        assert!(!is_timestamp("2025-03-01T00:00:00.5Z"));
        assert!(!is_timestamp("2025-03-01T00:00:00+00:00"));
        assert!(!is_timestamp("2025-13-01T00:00:00Z"));
        assert!(is_prefix("2025-03"));
        assert!(is_prefix("2025-03-01T12"));
        assert!(!is_prefix("2025/03"));
        assert!(!is_prefix(""));
        assert!(!is_prefix("2025-13"));
        assert!(!is_prefix("2025-00"));
        assert!(!is_prefix("2025-01-01T24"));
        assert!(is_prefix("2025-1"));
        assert!(is_prefix("2025-12-31T23:59:59Z"));
    }
}
