//! What `weft run-kernel` prints after a launch, on either backend: the launch, every
//! buffer (small ones element by element, large ones as a digest and a sum unless `full`),
//! the findings; or one line of JSON with every element.

use crate::{Buffer, LaunchConfig, Stats, Value};

/// A finished launch: its kernel's name, shape, buffers after the run and findings.
pub struct RunReport<'a> {
    pub kernel: &'a str,
    pub launch: LaunchConfig,
    pub buffers: &'a [Buffer],
    /// Findings in the emulator's words.
    pub findings: &'a [String],
    pub completed: bool,
}

/// Buffers of at most this many elements are printed element by element.
pub const LISTED_ELEMENTS: usize = 64;

impl RunReport<'_> {
    /// One line of JSON (keys sorted), with `extra`'s keys (backend, timing) added.
    pub fn to_json(&self, extra: serde_json::Value) -> String {
        let bufs: serde_json::Map<String, serde_json::Value> = self
            .buffers
            .iter()
            .map(|b| {
                let vals: Vec<serde_json::Value> = b
                    .values()
                    .into_iter()
                    .map(|v| match v {
                        Value::Int(i) => serde_json::json!(i as i64),
                        Value::Float(f) => serde_json::json!(f),
                    })
                    .collect();
                (b.name.clone(), serde_json::Value::Array(vals))
            })
            .collect();
        let mut j = serde_json::json!({
            "kernel": self.kernel,
            "grid": self.launch.grid,
            "block": self.launch.block,
            "completed": self.completed,
            "buffers": bufs,
            "findings": self.findings,
        });
        if let (Some(m), serde_json::Value::Object(x)) = (j.as_object_mut(), extra) {
            m.extend(x);
        }
        j.to_string()
    }

    /// The launch, each buffer (every element when `full` or small, else a digest), the
    /// findings, and whether the launch did not complete.
    pub fn text(&self, full: bool) -> String {
        let (g, b) = (self.launch.grid, self.launch.block);
        let mut text = format!(
            "kernel {}: grid {}x{}x{}, block {}x{}x{}, {} threads\n",
            self.kernel,
            g[0],
            g[1],
            g[2],
            b[0],
            b[1],
            b[2],
            self.launch.grid_ctas() * self.launch.block_threads()
        );
        for b in self.buffers {
            if b.len() <= LISTED_ELEMENTS || full {
                let vals: Vec<String> = b.values().iter().map(|v| v.to_string()).collect();
                text.push_str(&format!(
                    "{} ({} x {}): {}\n",
                    b.name,
                    b.elem.name(),
                    b.len(),
                    vals.join(" ")
                ));
            } else {
                let sum: f64 = b
                    .values()
                    .iter()
                    .map(|v| match v {
                        Value::Int(i) => *i as f64,
                        Value::Float(f) => *f,
                    })
                    .sum();
                text.push_str(&format!(
                    "{} ({} x {}): digest fnv1a64=0x{:016x} sum={sum}\n",
                    b.name,
                    b.elem.name(),
                    b.len(),
                    b.digest()
                ));
            }
        }
        for f in self.findings {
            text.push_str(&format!("{f}\n"));
        }
        if !self.completed && self.findings.is_empty() {
            text.push_str("the launch did not complete\n");
        }
        text
    }
}

/// The emulator's counts and speed, one line (`weft run-kernel` prints it to stderr).
pub fn stats_line(s: &Stats) -> String {
    let rate = if s.seconds > 0.0 {
        s.warp_instrs as f64 / s.seconds
    } else {
        0.0
    };
    let cores = if s.parallel_jobs > 1 {
        format!(", CTAs on {} cores", s.parallel_jobs)
    } else {
        String::new()
    };
    format!(
        "{} warp-instructions, {} thread-instructions, {} trace events in {:.3} s ({:.1} M warp-instr/s{cores})",
        s.warp_instrs,
        s.thread_instrs,
        s.trace_events,
        s.seconds,
        rate / 1e6
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ElemType;

    #[test]
    fn small_buffers_listed_large_digested() {
        let mut small = Buffer::zeroed("out", ElemType::I32, 3);
        small.data[4..8].copy_from_slice(&(-2i32).to_le_bytes());
        let big = Buffer::zeroed("big", ElemType::U8, 65);
        let launch = LaunchConfig {
            grid: [2, 1, 1],
            block: [4, 1, 1],
        };
        let bufs = [small, big];
        let r = RunReport {
            kernel: "k",
            launch,
            buffers: &bufs,
            findings: &[],
            completed: false,
        };
        let t = r.text(false);
        let mut lines = t.lines();
        assert_eq!(
            lines.next(),
            Some("kernel k: grid 2x1x1, block 4x1x1, 8 threads")
        );
        assert_eq!(lines.next(), Some("out (i32 x 3): 0 -2 0"));
        assert!(lines
            .next()
            .unwrap()
            .starts_with("big (u8 x 65): digest fnv1a64=0x"));
        assert_eq!(lines.next(), Some("the launch did not complete"));
        let j = r.to_json(serde_json::json!({"x": 1}));
        assert_eq!(
            j,
            r#"{"block":[4,1,1],"buffers":{"big":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"out":[0,-2,0]},"completed":false,"findings":[],"grid":[2,1,1],"kernel":"k","x":1}"#
        );
        let j: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(j["buffers"]["out"], serde_json::json!([0, -2, 0]));
        assert_eq!(j["x"], 1);
        assert_eq!(j["completed"], false);
    }
}
