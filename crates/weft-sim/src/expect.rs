//! Dat3M-style expected verdicts (`weft sim --expect CSV`): `path,1|0` lines read from a
//! file, the row that names a test (the longest path suffix of the test's path), and how a
//! result disagrees with its expected verdict.

use std::collections::HashMap;
use std::path::Path;

use crate::SimResult;

/// Reads a Dat3M expected-verdict file: `path,1|0` lines, `//` comments.
pub fn read_expected(path: &Path) -> Result<Vec<(String, bool)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with("//") || l.starts_with('#') {
            continue;
        }
        let Some((p, v)) = l.rsplit_once(',') else {
            return Err(format!("{}:{}: expected `path,1|0`", path.display(), i + 1));
        };
        let v = match v.trim() {
            "1" => true,
            "0" => false,
            other => {
                return Err(format!(
                    "{}:{}: verdict `{other}` is not 1 or 0",
                    path.display(),
                    i + 1
                ))
            }
        };
        rows.push((p.trim().trim_start_matches("./").to_string(), v));
    }
    Ok(rows)
}

/// The row whose path is the longest suffix of `test` (on a `/` boundary).
pub fn match_row<'a>(
    by_name: &'a HashMap<String, Vec<(String, bool)>>,
    test: &Path,
) -> Option<&'a (String, bool)> {
    let name = test.file_name()?.to_str()?;
    let full = test.to_string_lossy().replace('\\', "/");
    by_name
        .get(name)?
        .iter()
        .filter(|(p, _)| {
            full == *p || full.ends_with(&format!("/{p}")) || p.ends_with(&format!("/{full}"))
        })
        .max_by_key(|(p, _)| p.len())
}

/// `1` or `0`, as the expected-verdict files write a verdict.
fn digit(b: bool) -> u8 {
    u8::from(b)
}

/// How `res` (of the test at `path`) disagrees with the expected verdict (`true`: the
/// condition is reachable, or with `races` the test is race-free), as one line; `None`
/// when it agrees. A search stopped by its time or memory limit before the verdict was
/// known disagrees.
pub fn disagreement(path: &Path, expected: bool, res: &SimResult, races: bool) -> Option<String> {
    let got = if races { !res.racy() } else { res.validated };
    if (res.timed_out || res.memory_limited) && !res.stopped_at_verdict {
        return Some(format!(
            "{}: expected {}, {} after {:.1} s without a verdict",
            path.display(),
            digit(expected),
            if res.timed_out {
                "timed out"
            } else {
                "stopped at the memory limit"
            },
            res.seconds
        ));
    }
    if got == expected {
        return None;
    }
    Some(format!(
        "{}: expected {}, got {} ({} {}, positive {}, negative {}{})",
        path.display(),
        digit(expected),
        digit(got),
        res.kind(),
        if res.validated { "Ok" } else { "No" },
        res.positive,
        res.negative,
        if res.flags.is_empty() {
            String::new()
        } else {
            format!(
                ", flags {}",
                res.flags.keys().cloned().collect::<Vec<_>>().join(" ")
            )
        }
    ))
}

/// [`disagreement`] for a test that was simulated, or its error with the expected verdict
/// (`ERROR (expected N)`) for one that could not be.
pub fn judge(
    path: &Path,
    expected: bool,
    r: Result<&SimResult, &String>,
    races: bool,
) -> Option<String> {
    match r {
        Ok(res) => disagreement(path, expected, res, races),
        Err(e) => Some(format!("{e} (expected {})", digit(expected))),
    }
}

/// The rows of [`read_expected`] grouped by file name (a path's last component), as
/// [`match_row`] looks them up.
pub fn by_name(rows: Vec<(String, bool)>) -> HashMap<String, Vec<(String, bool)>> {
    let mut by_name: HashMap<String, Vec<(String, bool)>> = HashMap::new();
    for (p, v) in rows {
        let name = p.rsplit('/').next().unwrap_or(&p).to_string();
        by_name.entry(name).or_default().push((p, v));
    }
    by_name
}

/// Conformance mode's output over every test (path, expected verdict, result or error):
/// one line per [`judge`]d disagreement, then `N passed, M failed`; and M.
pub fn judge_all<'a>(
    results: impl ExactSizeIterator<Item = (&'a Path, bool, Result<&'a SimResult, &'a String>)>,
    races: bool,
) -> (String, usize) {
    let total = results.len();
    let mut text = String::new();
    let mut failed = 0;
    for (path, expected, r) in results {
        if let Some(line) = judge(path, expected, r, races) {
            failed += 1;
            text.push_str(&line);
            text.push('\n');
        }
    }
    text.push_str(&format!("{} passed, {failed} failed\n", total - failed));
    (text, failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disagreements() {
        let p = Path::new("t/MP.litmus");
        let ok = SimResult {
            validated: true,
            positive: 1,
            negative: 3,
            ..SimResult::default()
        };
        assert_eq!(disagreement(p, true, &ok, false), None);
        assert_eq!(
            disagreement(p, false, &ok, false).unwrap(),
            "t/MP.litmus: expected 0, got 1 (Allowed Ok, positive 1, negative 3)"
        );
        let mut racy = SimResult::default();
        racy.flags.insert("data-race".into(), 2);
        assert_eq!(
            disagreement(p, true, &racy, true).unwrap(),
            "t/MP.litmus: expected 1, got 0 (Allowed No, positive 0, negative 0, flags data-race)"
        );
        let late = SimResult {
            timed_out: true,
            seconds: 2.0,
            ..SimResult::default()
        };
        assert_eq!(
            disagreement(p, false, &late, false).unwrap(),
            "t/MP.litmus: expected 0, timed out after 2.0 s without a verdict"
        );
        let err = "t/MP.litmus:1:1: bad".to_string();
        assert_eq!(
            judge(p, true, Err(&err), false).unwrap(),
            "t/MP.litmus:1:1: bad (expected 1)"
        );
    }

    #[test]
    fn rows_match_by_longest_suffix() {
        let mut by_name: HashMap<String, Vec<(String, bool)>> = HashMap::new();
        by_name.insert(
            "MP.litmus".into(),
            vec![("MP.litmus".into(), false), ("gpu/MP.litmus".into(), true)],
        );
        let row = match_row(&by_name, Path::new("tests/gpu/MP.litmus")).unwrap();
        assert_eq!(row, &("gpu/MP.litmus".to_string(), true));
        assert!(match_row(&by_name, Path::new("SB.litmus")).is_none());
    }
}
