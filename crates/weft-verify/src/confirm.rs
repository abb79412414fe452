//! `weft verify --confirm`: what one `weft race --json` run of the same launch said — the
//! source-line pairs of the races it reports, a kernel parameter the command line left
//! unbound (which the next run binds to a default), or why it failed. The runs themselves
//! are the binary's (it runs itself).

use crate::text::{short_loc, Loc};

/// One emulator run, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaceRun {
    /// The races' source-line pairs.
    Races(Vec<(Loc, Loc)>),
    /// A parameter to bind before running again: its name, and whether it is a buffer.
    Unbound { name: String, buffer: bool },
    /// The run failed: its last line on stderr.
    Failed(String),
}

/// Reads the standard output and error of one `weft race --json` run.
pub fn read_race_run(stdout: &str, stderr: &str) -> RaceRun {
    if let Ok(j) = serde_json::from_str::<serde_json::Value>(stdout.trim()) {
        let mut v = Vec::new();
        for r in j["races"].as_array().into_iter().flatten() {
            let side = |k: &str| r[k]["line"].as_str().and_then(short_loc);
            if let (Some(x), Some(y)) = (side("first"), side("second")) {
                v.push((x, y));
            }
        }
        return RaceRun::Races(v);
    }
    let last = stderr.lines().last().unwrap_or("no output").to_string();
    match last
        .split_once("parameter `")
        .and_then(|(_, r)| r.split_once("` is not bound"))
    {
        Some((n, r)) => RaceRun::Unbound {
            name: n.to_string(),
            buffer: r.contains("--buffer"),
        },
        None => RaceRun::Failed(last),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn races_unbound_parameters_and_failures() {
        let out = r#"{"races":[{"first":{"line":"a/k.cu:12:3"},"second":{"line":"a/k.cu:14"}}]}"#;
        assert_eq!(
            read_race_run(out, ""),
            RaceRun::Races(vec![(
                ("k.cu".into(), "12".into()),
                ("k.cu".into(), "14".into())
            )])
        );
        let err = "weft: note\nweft: parameter `out` is not bound: give --buffer out=N";
        assert_eq!(
            read_race_run("", err),
            RaceRun::Unbound {
                name: "out".into(),
                buffer: true
            }
        );
        assert_eq!(
            read_race_run("", "weft: boom"),
            RaceRun::Failed("weft: boom".into())
        );
    }
}
