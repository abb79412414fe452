//! The report of one run of a program under `weft race` or `weft memcheck`: every launch
//! (kernel, grid, block, index, how it ended), races grouped by source-line pair across all
//! launches with the launch that first showed each, memcheck errors in compute-sanitizer's
//! words, leaks at exit. The runtime writes it as JSON after every launch and at exit (so a
//! program that crashes or is killed later loses nothing); `weft` reads it back and prints
//! [`ProgramReport::race_text`] or [`ProgramReport::memcheck_text`].

use serde::{Deserialize, Serialize};

/// One kernel launch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LaunchRecord {
    /// Index of the launch in the program (0-based).
    pub index: usize,
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub shared: u64,
    /// The CUDA error the launch ended with (`cudaSuccess` when none).
    pub error: String,
    /// Whether every thread ran to completion.
    pub completed: bool,
    /// The emulator's findings (barrier divergence, deadlock, faults, ...).
    pub findings: Vec<String>,
    pub warp_instructions: u64,
    pub seconds: f64,
    /// Race mode: the schedules the launch was checked under (`rr` or a seed; the first is
    /// the run whose memory and output the program saw; ` (did not complete)` after one
    /// that stopped early).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedules: Vec<String>,
}

/// One access of a race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceSide {
    /// `file:line`.
    pub line: String,
    /// `read`, `write`, `atomic`, `acquire`, `release`.
    pub access: String,
    /// Global linear thread index in its launch.
    pub thread: u64,
}

/// A race: every instance with the same kind, memory space and source-line pair, in any
/// launch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramRace {
    pub kind: String,
    pub class: String,
    pub space: String,
    pub first: RaceSide,
    pub second: RaceSide,
    pub address: u64,
    /// Dynamic instances over all launches.
    pub count: u64,
    /// The first launch that showed it (index into `launches`).
    pub launch: usize,
    /// How many launches showed it.
    pub launches: usize,
}

/// One memcheck error (first instance per kind, instruction and launch; `count` instances).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemError {
    /// `Invalid __global__ write of size 4 bytes`, `Uninitialized __global__ memory read of
    /// size 4 bytes`, `Misaligned Shared or Local Address`, `Program hit cudaErrorInvalidValue
    /// ... on CUDA API call to cudaFree.`, `Leaked 64 bytes at 0x...`.
    pub what: String,
    /// The detail lines (`at ... in file:line`, `by thread (x,y,z) in block (x,y,z)`, the
    /// address and the nearest allocation).
    pub detail: Vec<String>,
    /// `oob`, `misaligned`, `uninit`, `api`, `leak`, `fault`.
    pub kind: String,
    /// Source line (`file:line`) for device errors, the API function for host errors.
    pub at: String,
    /// Launch index, for device errors.
    pub launch: Option<usize>,
    pub count: u64,
}

/// The whole run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProgramReport {
    /// `exec`, `race` or `memcheck`.
    pub mode: String,
    /// Race definition (race mode).
    pub definition: String,
    pub launches: Vec<LaunchRecord>,
    pub races: Vec<ProgramRace>,
    pub memcheck: Vec<MemError>,
    /// Whether the program reached its normal end (the report was written at exit).
    pub finished: bool,
    /// A fatal runtime message (an unimplemented API call), when the run ended with one.
    pub fatal: Option<String>,
    /// Whether a launch passed its configuration check and began running (written before
    /// the first launch runs, so a program that dies during it is told apart from one that
    /// never launched).
    #[serde(default)]
    pub begun: bool,
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl ProgramReport {
    /// Adds the races of launch `launch` (already grouped by source-line pair).
    pub fn add_races(&mut self, launch: usize, races: Vec<ProgramRace>) {
        for r in races {
            if let Some(o) = self.races.iter_mut().find(|o| {
                o.kind == r.kind
                    && o.space == r.space
                    && o.first.line == r.first.line
                    && o.second.line == r.second.line
            }) {
                o.count += r.count;
                if o.launch != launch {
                    o.launches += 1;
                }
            } else {
                self.races.push(ProgramRace {
                    launch,
                    launches: 1,
                    ..r
                });
            }
        }
    }

    /// Findings of every launch (emulator findings), with the launch that showed them.
    pub fn findings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for l in &self.launches {
            for f in &l.findings {
                out.push(format!("launch {} ({}): {f}", l.index, l.kernel));
            }
        }
        out
    }

    /// Why the run checked nothing, when no launch ran to its end under the checker: the
    /// report must then not read as a clean one (docs/programs.md, "Nothing checked").
    pub fn unchecked(&self) -> Option<&'static str> {
        if !self.launches.is_empty() {
            return None;
        }
        Some(if self.begun && !self.finished {
            "the program ended during its first launch, before the launch completed"
        } else if self.finished {
            "no kernel ran: the program launched none, or none passed its configuration check"
        } else {
            "the program ended before it launched a kernel"
        })
    }

    fn launch_line(&self, i: usize) -> String {
        match self.launches.get(i) {
            Some(l) => format!(
                "launch {}: kernel {}, grid {}x{}x{}, block {}x{}x{}",
                l.index,
                l.kernel,
                l.grid[0],
                l.grid[1],
                l.grid[2],
                l.block[0],
                l.block[1],
                l.block[2]
            ),
            None => format!("launch {i}"),
        }
    }

    /// `weft race`'s text: each race with its two sides and the launch that showed it, the
    /// findings, a count line.
    pub fn race_text(&self) -> String {
        let mut t = String::new();
        for (i, r) in self.races.iter().enumerate() {
            t.push_str(&format!(
                "race {}: {} ({}, {} memory)\n  {} ({}, thread {}) vs {} ({}, thread {})\n  {}; address 0x{:x}, {} instance{} in {} launch{}\n",
                i + 1,
                r.kind,
                r.class,
                r.space,
                r.first.line,
                r.first.access,
                r.first.thread,
                r.second.line,
                r.second.access,
                r.second.thread,
                self.launch_line(r.launch),
                r.address,
                r.count,
                plural(r.count as usize),
                r.launches,
                if r.launches == 1 { "" } else { "es" }
            ));
        }
        let findings = self.findings();
        for f in &findings {
            t.push_str(&format!("{f}\n"));
        }
        if let Some(f) = &self.fatal {
            t.push_str(&format!("the program stopped: {f}\n"));
        }
        if !self.finished && self.unchecked().is_none() {
            t.push_str(
                "the program did not reach its end: only the launches above were analysed\n",
            );
        }
        if let Some(why) = self.unchecked() {
            t.push_str(&format!("nothing was checked: {why}\n"));
            return t;
        }
        t.push_str(&format!(
            "{} race{}, {} finding{} in {} launch{}; definition {}{}\n",
            self.races.len(),
            plural(self.races.len()),
            findings.len(),
            plural(findings.len()),
            self.launches.len(),
            if self.launches.len() == 1 { "" } else { "es" },
            self.definition,
            self.extra_schedules()
        ));
        t
    }

    /// `; K of N launches also under schedules 1,2,3` when some launch was checked under
    /// more than its first schedule (empty otherwise).
    fn extra_schedules(&self) -> String {
        let multi: Vec<&LaunchRecord> = self
            .launches
            .iter()
            .filter(|l| l.schedules.len() > 1)
            .collect();
        match multi.first() {
            None => String::new(),
            Some(l) => format!(
                "; {} of {} launch{} also under schedules {}",
                multi.len(),
                self.launches.len(),
                if self.launches.len() == 1 { "" } else { "es" },
                l.schedules[1..].join(",")
            ),
        }
    }

    /// `weft memcheck`'s text, in compute-sanitizer's layout.
    pub fn memcheck_text(&self) -> String {
        let mut t = String::from("========= WEFT MEMCHECK\n");
        let errors: Vec<&MemError> = self.memcheck.iter().filter(|e| e.kind != "leak").collect();
        let leaks: Vec<&MemError> = self.memcheck.iter().filter(|e| e.kind == "leak").collect();
        for e in self.memcheck.iter() {
            t.push_str(&format!("========= {}\n", e.what));
            for d in &e.detail {
                t.push_str(&format!("=========     {d}\n"));
            }
            if e.count > 1 {
                t.push_str(&format!("=========     ({} instances)\n", e.count));
            }
            t.push_str("=========\n");
        }
        if !leaks.is_empty() {
            let bytes: u64 = leaks
                .iter()
                .filter_map(|e| e.what.split_whitespace().nth(1)?.parse::<u64>().ok())
                .sum();
            t.push_str(&format!(
                "========= LEAK SUMMARY: {bytes} bytes leaked in {} allocation{}\n",
                leaks.len(),
                plural(leaks.len())
            ));
        }
        if !self.finished && self.unchecked().is_none() {
            t.push_str("========= the program did not reach its end: only what ran was checked\n");
        }
        if let Some(why) = self.unchecked() {
            t.push_str(&format!(
                "========= no device access was checked: {why} (only the CUDA API calls{} were)\n",
                if self.finished { " and leaks" } else { "" }
            ));
        }
        let n = errors.len() + leaks.len();
        t.push_str(&format!(
            "========= ERROR SUMMARY: {n} error{}\n",
            plural(n)
        ));
        t
    }

    /// Whether anything was found (races, findings, memcheck errors).
    pub fn found(&self) -> bool {
        !self.races.is_empty()
            || !self.memcheck.is_empty()
            || self.launches.iter().any(|l| !l.findings.is_empty())
    }

    /// Writes the report to `path` (through a temporary file and a rename, so a reader never
    /// sees half a report).
    pub fn write(&self, path: &str) -> std::io::Result<()> {
        let tmp = format!("{path}.tmp");
        std::fs::write(&tmp, serde_json::to_vec(self).unwrap_or_default())?;
        std::fs::rename(&tmp, path)
    }

    /// Reads a report written by [`ProgramReport::write`].
    pub fn read(path: &std::path::Path) -> Result<ProgramReport, String> {
        let b = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_slice(&b).map_err(|e| format!("{}: {e}", path.display()))
    }
}
