//! [`StressConfig`] (GPUHarbor's stress parameters with their defaults and ranges),
//! [`Preset`] (named configurations) and stress-file loading with located errors.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// One system-stress configuration in GPUHarbor's parameter names (paper 001 §3.2; the
/// runner defaults of gpuharbor-facts.md), plus paper 000 §4.3.2's `bankConflicts`.
///
/// Sizes are counted in 32-bit words. Missing fields of a JSON file take the defaults;
/// unknown fields are an error. docs/hardware-wgpu.md has the table of meanings and ranges.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct StressConfig {
    /// Workgroups that run test instances (each runs `workgroupSize` instances).
    pub testing_workgroups: u32,
    /// Each dispatch runs a random number of workgroups in
    /// `[testingWorkgroups, maxWorkgroups)` (exactly `testingWorkgroups` when equal); the
    /// extra ones stress memory.
    pub max_workgroups: u32,
    /// Invocations per workgroup.
    pub workgroup_size: u32,
    /// Probability (%) that a dispatch shuffles the workgroup ids.
    pub shuffle_pct: u32,
    /// Probability (%) that testing invocations meet at a bounded spin barrier first.
    pub barrier_pct: u32,
    /// Words of the stress scratchpad.
    pub scratch_memory_size: u32,
    /// Distance (in words, times the number of locations) between test locations.
    pub mem_stride: u32,
    /// Probability (%) that non-testing workgroups stress memory in a dispatch.
    pub mem_stress_pct: u32,
    /// Iterations of the memory-stress loop.
    pub mem_stress_iterations: u32,
    /// Probability (%) that the first access of a memory-stress iteration is a store.
    pub mem_stress_store_first_pct: u32,
    /// Probability (%) that the second access of a memory-stress iteration is a store.
    pub mem_stress_store_second_pct: u32,
    /// Probability (%) that testing invocations stress memory before the test.
    pub pre_stress_pct: u32,
    /// Iterations of the pre-stress loop.
    pub pre_stress_iterations: u32,
    /// Probability (%) that the first access of a pre-stress iteration is a store.
    pub pre_stress_store_first_pct: u32,
    /// Probability (%) that the second access of a pre-stress iteration is a store.
    pub pre_stress_store_second_pct: u32,
    /// Words of one stressed line (a power of two).
    pub stress_line_size: u32,
    /// Lines of the scratchpad that are stressed.
    pub stress_target_lines: u32,
    /// Probability (%) that workgroups map to target lines round-robin (else in chunks).
    pub stress_strategy_balance_pct: u32,
    /// Multiplier of the permutation of local ids that picks which invocation plays the
    /// other threads of an instance (coprime with `workgroupSize`).
    pub permute_first: u32,
    /// Multiplier of the permutation of instances that places the second location
    /// (coprime with `testingWorkgroups × workgroupSize`).
    pub permute_second: u32,
    /// All locations of a test instance are one memory cell (GPUHarbor's coherence tests
    /// written with two location names).
    pub aliased_memory: bool,
    /// Paper 000 §4.3.2: testing invocations also hit workgroup memory at offsets that
    /// cause (or, at random per dispatch, avoid) bank conflicts.
    pub bank_conflicts: bool,
    /// GPUHarbor's `numMemLocations`: the memory locations of the test the file was
    /// written for. It follows from the test, so it is optional; when given it must
    /// agree with the test ([`StressConfig::check_test`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_mem_locations: Option<u32>,
    /// GPUHarbor's `numOutputs`: the values each test instance reports (its registers,
    /// and the final values of locations it observes). Optional, checked like
    /// `numMemLocations`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_outputs: Option<u32>,
    /// Where the configuration was read from (to locate errors found later, such as a
    /// `numOutputs` that does not fit the test). Not part of its value: configurations
    /// compare equal whatever their source.
    #[serde(skip)]
    pub source: Source,
}

/// The file (and its text) a configuration was read from; empty for presets and
/// generated configurations.
#[derive(Clone, Debug, Default)]
pub struct Source {
    pub path: Option<PathBuf>,
    pub text: String,
}

impl PartialEq for Source {
    /// Provenance never makes two configurations differ.
    fn eq(&self, _: &Source) -> bool {
        true
    }
}

impl Eq for Source {}

/// What a test implies for GPUHarbor's `numMemLocations` and `numOutputs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestShape {
    /// Memory locations the test declares.
    pub mem_locations: u32,
    /// Values one instance reports: registers plus observed final memory values.
    pub outputs: u32,
}

impl TestShape {
    /// The shape of `p`: its declared locations, and its registers (not the front-end's
    /// temporaries) plus the distinct final memory values its condition and `locations`
    /// observe (GPUHarbor's 2+2W reports both final values: numOutputs 2).
    pub fn of(p: &weft_ir::Program) -> TestShape {
        let regs: usize = p
            .threads
            .iter()
            .map(|t| t.regs.iter().filter(|r| !r.temp).count())
            .sum();
        let mut terms = Vec::new();
        if let Some(c) = &p.condition {
            c.prop.terms(&mut terms);
        }
        terms.extend(p.observed.iter());
        let mut mem: Vec<&weft_ir::Term> = Vec::new();
        for t in terms {
            if matches!(t, weft_ir::Term::Mem { .. }) && !mem.contains(&t) {
                mem.push(t);
            }
        }
        let n = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        TestShape {
            mem_locations: n(p.locations.len()),
            outputs: n(regs + mem.len()),
        }
    }
}

impl Default for StressConfig {
    /// GPUHarbor's runner defaults (gpuharbor-facts.md "Parameters").
    fn default() -> Self {
        StressConfig {
            testing_workgroups: 2,
            max_workgroups: 4,
            workgroup_size: 256,
            shuffle_pct: 0,
            barrier_pct: 0,
            scratch_memory_size: 2048,
            mem_stride: 1,
            mem_stress_pct: 0,
            mem_stress_iterations: 1024,
            mem_stress_store_first_pct: 0,
            mem_stress_store_second_pct: 100,
            pre_stress_pct: 0,
            pre_stress_iterations: 128,
            pre_stress_store_first_pct: 0,
            pre_stress_store_second_pct: 100,
            stress_line_size: 64,
            stress_target_lines: 2,
            stress_strategy_balance_pct: 100,
            permute_first: 419,
            permute_second: 1031,
            aliased_memory: false,
            bank_conflicts: false,
            num_mem_locations: None,
            num_outputs: None,
            source: Source::default(),
        }
    }
}

/// A stress configuration that could not be read or is out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.headline())]
pub struct StressError {
    /// The file, when the configuration came from one.
    pub path: Option<PathBuf>,
    /// 1-based line and column of the offending text, when known.
    pub line: usize,
    pub col: usize,
    /// The offending field, when one is to blame.
    pub field: Option<String>,
    pub message: String,
    /// The text of `line` in the file, for [`StressError::report`]'s snippet.
    pub source_line: Option<String>,
}

impl StressError {
    /// `file:line:col: message` (`file: message` without a position; the message alone
    /// without a file).
    fn headline(&self) -> String {
        let mut out = String::new();
        if let Some(p) = &self.path {
            out.push_str(&format!("{}:", p.display()));
            if self.line > 0 {
                out.push_str(&format!("{}:{}:", self.line, self.col));
            }
            out.push(' ');
        }
        out.push_str(&self.message);
        out
    }

    /// The one-line form, then the file's line and a caret under the column when known.
    pub fn report(&self) -> String {
        let mut out = self.to_string();
        if let (Some(text), true) = (&self.source_line, self.line > 0) {
            let d = weft_diag::Diagnostic::new(
                u32::try_from(self.line).unwrap_or(u32::MAX),
                u32::try_from(self.col).unwrap_or(u32::MAX),
                self.message.clone(),
            )
            .with_source_line(text.clone());
            let snippet = d.snippet(None, false);
            if !snippet.trim_end().is_empty() {
                out.push('\n');
                out.push_str(snippet.trim_end());
            }
        }
        out
    }

    /// Records the text of the error's line from the file's `text`.
    fn with_line_of(mut self, text: &str) -> Self {
        if self.line > 0 {
            self.source_line = text.lines().nth(self.line - 1).map(str::to_string);
        }
        self
    }

    fn field(field: &str, message: String) -> Self {
        StressError {
            path: None,
            line: 0,
            col: 0,
            field: Some(field.to_string()),
            message,
            source_line: None,
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Largest dispatch this crate accepts (WebGPU's default `maxComputeWorkgroupsPerDimension`).
pub const MAX_WORKGROUPS: u32 = 65535;
/// Largest workgroup (WebGPU devices allow at most 1024 invocations; most 256).
pub const MAX_WORKGROUP_SIZE: u32 = 1024;
/// Largest scratchpad, in words (256 MiB).
pub const MAX_SCRATCH_WORDS: u32 = 1 << 26;
/// Largest loop count of memory stress and pre-stress.
pub const MAX_ITERATIONS: u32 = 1 << 20;

impl StressConfig {
    /// Checks every field against its documented range; the error names the field, its
    /// value and the range allowed.
    pub fn validate(&self) -> Result<(), StressError> {
        let range = |name: &str, v: u32, lo: u32, hi: u32| -> Result<(), StressError> {
            if v < lo || v > hi {
                Err(StressError::field(
                    name,
                    format!("{name} = {v} is out of range: allowed {lo}..={hi}"),
                ))
            } else {
                Ok(())
            }
        };
        range(
            "testingWorkgroups",
            self.testing_workgroups,
            1,
            MAX_WORKGROUPS,
        )?;
        range(
            "maxWorkgroups",
            self.max_workgroups,
            self.testing_workgroups,
            MAX_WORKGROUPS,
        )?;
        range("workgroupSize", self.workgroup_size, 1, MAX_WORKGROUP_SIZE)?;
        for (name, v) in [
            ("shufflePct", self.shuffle_pct),
            ("barrierPct", self.barrier_pct),
            ("memStressPct", self.mem_stress_pct),
            ("memStressStoreFirstPct", self.mem_stress_store_first_pct),
            ("memStressStoreSecondPct", self.mem_stress_store_second_pct),
            ("preStressPct", self.pre_stress_pct),
            ("preStressStoreFirstPct", self.pre_stress_store_first_pct),
            ("preStressStoreSecondPct", self.pre_stress_store_second_pct),
            ("stressStrategyBalancePct", self.stress_strategy_balance_pct),
        ] {
            range(name, v, 0, 100)?;
        }
        range("memStride", self.mem_stride, 1, 1024)?;
        range(
            "memStressIterations",
            self.mem_stress_iterations,
            0,
            MAX_ITERATIONS,
        )?;
        range(
            "preStressIterations",
            self.pre_stress_iterations,
            0,
            MAX_ITERATIONS,
        )?;
        range("stressLineSize", self.stress_line_size, 1, 1 << 16)?;
        if !self.stress_line_size.is_power_of_two() {
            return Err(StressError::field(
                "stressLineSize",
                format!(
                    "stressLineSize = {} is not a power of two: allowed 1, 2, 4, ..., 65536",
                    self.stress_line_size
                ),
            ));
        }
        range("stressTargetLines", self.stress_target_lines, 1, 1 << 16)?;
        let need = self.stress_line_size as u64 * self.stress_target_lines as u64;
        if (self.scratch_memory_size as u64) < need || self.scratch_memory_size > MAX_SCRATCH_WORDS
        {
            return Err(StressError::field(
                "scratchMemorySize",
                format!(
                    "scratchMemorySize = {} is out of range: allowed stressLineSize × stressTargetLines ({need})..={MAX_SCRATCH_WORDS} words",
                    self.scratch_memory_size
                ),
            ));
        }
        if self.permute_first == 0
            || gcd(self.permute_first as u64, self.workgroup_size as u64) != 1
        {
            return Err(StressError::field(
                "permuteFirst",
                format!(
                    "permuteFirst = {} must be at least 1 and coprime with workgroupSize = {} (else the thread permutation is not one)",
                    self.permute_first, self.workgroup_size
                ),
            ));
        }
        let instances = self.testing_workgroups as u64 * self.workgroup_size as u64;
        if self.permute_second == 0 || gcd(self.permute_second as u64, instances) != 1 {
            return Err(StressError::field(
                "permuteSecond",
                format!(
                    "permuteSecond = {} must be at least 1 and coprime with testingWorkgroups × workgroupSize = {instances} (else the location permutation is not one)",
                    self.permute_second
                ),
            ));
        }
        Ok(())
    }

    /// Test instances per dispatch: `testingWorkgroups × workgroupSize`.
    pub fn instances_per_dispatch(&self) -> u64 {
        self.testing_workgroups as u64 * self.workgroup_size as u64
    }

    /// Parses and validates a JSON stress configuration; `path` only labels errors.
    pub fn from_json(text: &str, path: Option<&Path>) -> Result<StressConfig, StressError> {
        let located = |mut e: StressError| {
            e.path = path.map(Path::to_path_buf);
            e.with_line_of(text)
        };
        let cfg: StressConfig = serde_json::from_str(text).map_err(|e| {
            located(StressError {
                path: None,
                line: e.line(),
                col: e.column(),
                field: None,
                message: e.to_string(),
                source_line: None,
            })
        })?;
        cfg.validate().map_err(|mut e| {
            if let Some(f) = &e.field {
                if let Some((l, c)) = find_key(text, f) {
                    e.line = l;
                    e.col = c;
                }
            }
            located(e)
        })?;
        let mut cfg = cfg;
        cfg.source = Source {
            path: path.map(Path::to_path_buf),
            text: text.to_string(),
        };
        Ok(cfg)
    }

    /// Checks GPUHarbor's `numMemLocations` and `numOutputs`, when the file gives them,
    /// against what the test `name` implies; the error points at the field in the file.
    pub fn check_test(&self, name: &str, shape: TestShape) -> Result<(), StressError> {
        let checks = [
            (
                "numMemLocations",
                self.num_mem_locations,
                shape.mem_locations,
                "memory locations",
            ),
            ("numOutputs", self.num_outputs, shape.outputs, "outputs"),
        ];
        for (field, given, implied, what) in checks {
            let Some(given) = given else { continue };
            if given == implied {
                continue;
            }
            let mut e = StressError::field(
                field,
                format!(
                    "`{field}` is {given}, but test {name} has {implied} {what}: remove the field \
                     (weft derives it from the test) or use a stress file written for this test"
                ),
            );
            e.path = self.source.path.clone();
            if let Some((l, c)) = find_key(&self.source.text, field) {
                e.line = l;
                e.col = c;
            }
            return Err(e.with_line_of(&self.source.text));
        }
        Ok(())
    }

    /// A preset's configuration by name, or else the configuration in the file `spec`.
    pub fn resolve(spec: &str) -> Result<StressConfig, StressError> {
        match Preset::from_name(spec) {
            Some(p) => Ok(p.config()),
            None => load(Path::new(spec)),
        }
    }
}

/// 1-based line and column of the first `"key"` in `text`.
fn find_key(text: &str, key: &str) -> Option<(usize, usize)> {
    let needle = format!("\"{key}\"");
    let at = text.find(&needle)?;
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map(|i| i + 1).unwrap_or(0) + 1;
    Some((line, col))
}

/// Reads and validates a JSON stress file; errors carry the path and `line:col`.
pub fn load(path: &Path) -> Result<StressConfig, StressError> {
    let text = std::fs::read_to_string(path).map_err(|e| StressError {
        path: Some(path.to_path_buf()),
        line: 0,
        col: 0,
        field: None,
        message: format!("cannot read stress file: {e}"),
        source_line: None,
    })?;
    StressConfig::from_json(&text, Some(path))
}

/// Named stress configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// No stress at all.
    None,
    /// GPUHarbor's runner defaults (explorer preset "Basic").
    Basic,
    /// GPUHarbor's explorer preset "Interleave".
    Interleave,
    /// GPUHarbor's explorer preset "Stress".
    Stress,
    /// The same as `Stress`, under the name a GPUHarbor user looks for.
    Gpuharbor,
    /// Paper 000 §4.3/Tab. 6's most effective combination for inter-CTA tests.
    Paper000,
}

impl Preset {
    /// Every preset with a one-line description.
    pub fn all() -> Vec<(Preset, &'static str)> {
        [
            Preset::None,
            Preset::Basic,
            Preset::Interleave,
            Preset::Stress,
            Preset::Gpuharbor,
            Preset::Paper000,
        ]
        .into_iter()
        .map(|p| (p, p.description()))
        .collect()
    }

    pub fn name(self) -> &'static str {
        match self {
            Preset::None => "none",
            Preset::Basic => "basic",
            Preset::Interleave => "interleave",
            Preset::Stress => "stress",
            Preset::Gpuharbor => "gpuharbor",
            Preset::Paper000 => "paper000",
        }
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::all()
            .into_iter()
            .map(|(p, _)| p)
            .find(|p| p.name() == name)
    }

    pub fn description(self) -> &'static str {
        match self {
            Preset::None => "no stress: 2 testing workgroups and no others, no shuffling, barrier, memory stress or pre-stress",
            Preset::Basic => "GPUHarbor's runner defaults (explorer preset Basic): 2 of 2..4 workgroups of 256, no stress",
            Preset::Interleave => "GPUHarbor's explorer preset Interleave: 256 of 256..1024 workgroups, always shuffled and barrier-synchronised, memStride 4",
            Preset::Stress => "GPUHarbor's explorer preset Stress: 512 of 512..1024 workgroups, shuffle, barrier, memory stress and pre-stress always, store percentages 50, memStride 4",
            Preset::Gpuharbor => "alias of stress: GPUHarbor's explorer preset Stress",
            Preset::Paper000 => "paper 000 §4.3's best inter-CTA combination: memory stress + thread randomisation + thread synchronisation, no bank conflicts",
        }
    }

    /// The preset's configuration.
    pub fn config(self) -> StressConfig {
        let d = StressConfig::default();
        match self {
            Preset::None => StressConfig {
                max_workgroups: d.testing_workgroups,
                ..d
            },
            Preset::Basic => d,
            Preset::Interleave => StressConfig {
                testing_workgroups: 256,
                max_workgroups: 1024,
                shuffle_pct: 100,
                barrier_pct: 100,
                mem_stride: 4,
                ..d
            },
            Preset::Stress | Preset::Gpuharbor => StressConfig {
                testing_workgroups: 512,
                max_workgroups: 1024,
                shuffle_pct: 100,
                barrier_pct: 100,
                mem_stress_pct: 100,
                pre_stress_pct: 100,
                mem_stride: 4,
                mem_stress_store_first_pct: 50,
                mem_stress_store_second_pct: 50,
                pre_stress_store_first_pct: 50,
                pre_stress_store_second_pct: 50,
                ..d
            },
            // Tab. 6: memory stress (§4.3.1) with thread randomisation (§4.3.3: shuffled
            // ids and a random number of non-testing workgroups) and thread
            // synchronisation (§4.3.4) gives the most inter-CTA weak behaviours; adding
            // general bank conflicts (§4.3.2) reduced them (columns 12 vs 16), so it is off.
            Preset::Paper000 => StressConfig {
                testing_workgroups: 64,
                max_workgroups: 256,
                shuffle_pct: 100,
                barrier_pct: 100,
                mem_stress_pct: 100,
                mem_stress_store_first_pct: 50,
                mem_stress_store_second_pct: 50,
                pre_stress_pct: 0,
                bank_conflicts: false,
                ..d
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_gpuharbors_runner_defaults() {
        // gpuharbor-facts.md "Parameters (defaults of the runner)", restated as JSON.
        let facts = r#"{"testingWorkgroups": 2, "maxWorkgroups": 4, "workgroupSize": 256,
            "shufflePct": 0, "barrierPct": 0, "scratchMemorySize": 2048, "memStride": 1,
            "memStressPct": 0, "memStressIterations": 1024, "memStressStoreFirstPct": 0,
            "memStressStoreSecondPct": 100, "preStressPct": 0, "preStressIterations": 128,
            "preStressStoreFirstPct": 0, "preStressStoreSecondPct": 100, "stressLineSize": 64,
            "stressTargetLines": 2, "stressStrategyBalancePct": 100, "permuteFirst": 419,
            "permuteSecond": 1031, "aliasedMemory": false}"#;
        let cfg = StressConfig::from_json(facts, None).unwrap();
        assert_eq!(cfg, StressConfig::default());
        assert!(!cfg.bank_conflicts);
    }

    #[test]
    fn missing_fields_default_unknown_fields_fail() {
        let cfg = StressConfig::from_json(r#"{"workgroupSize": 64}"#, None).unwrap();
        assert_eq!(cfg.workgroup_size, 64);
        assert_eq!(cfg.max_workgroups, 4);
        let e = StressConfig::from_json("{\n  \"workgroupSize\": 64,\n  \"bogus\": 1\n}", None)
            .unwrap_err();
        assert!(e.message.contains("unknown field `bogus`"), "{e}");
        assert_eq!(e.line, 3);
    }

    #[test]
    fn validation_names_field_value_and_range() {
        let e = StressConfig::from_json(
            "{\n  \"workgroupSize\": 64,\n    \"barrierPct\": 101\n}",
            Some(Path::new("s.json")),
        )
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("barrierPct"));
        assert_eq!((e.line, e.col), (3, 5));
        assert_eq!(
            e.to_string(),
            "s.json:3:5: barrierPct = 101 is out of range: allowed 0..=100"
        );
        let bad = StressConfig {
            stress_line_size: 48,
            ..StressConfig::default()
        };
        assert!(bad.validate().unwrap_err().message.contains("power of two"));
        let bad = StressConfig {
            testing_workgroups: 8,
            max_workgroups: 4,
            ..StressConfig::default()
        };
        assert_eq!(
            bad.validate().unwrap_err().message,
            "maxWorkgroups = 4 is out of range: allowed 8..=65535"
        );
        let bad = StressConfig {
            workgroup_size: 838,
            ..StressConfig::default()
        };
        assert_eq!(
            bad.validate().unwrap_err().field.as_deref(),
            Some("permuteFirst")
        );
        // One testing workgroup is enough for intra-workgroup tests.
        let one = StressConfig {
            testing_workgroups: 1,
            max_workgroups: 1,
            ..StressConfig::default()
        };
        one.validate().unwrap();
    }

    #[test]
    fn json_syntax_errors_are_located() {
        let e = StressConfig::from_json("{\n \"memStride\": ,\n}", Some(Path::new("f.json")))
            .unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().starts_with("f.json:2:"), "{e}");
        let e = load(Path::new("/nonexistent/stress.json")).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/stress.json"));
    }

    #[test]
    fn presets_follow_the_notes() {
        for (p, desc) in Preset::all() {
            assert!(!desc.is_empty());
            p.config().validate().unwrap();
            assert_eq!(Preset::from_name(p.name()), Some(p));
        }
        // gpuharbor-facts.md "Explorer presets".
        let s = Preset::Stress.config();
        assert_eq!((s.testing_workgroups, s.max_workgroups), (512, 1024));
        assert_eq!(
            (
                s.shuffle_pct,
                s.barrier_pct,
                s.mem_stress_pct,
                s.pre_stress_pct
            ),
            (100, 100, 100, 100)
        );
        assert_eq!(s.mem_stride, 4);
        assert_eq!(s.mem_stress_store_first_pct, 50);
        assert_eq!(s.pre_stress_store_second_pct, 50);
        assert_eq!(Preset::Gpuharbor.config(), s);
        let i = Preset::Interleave.config();
        assert_eq!((i.testing_workgroups, i.max_workgroups), (256, 1024));
        assert_eq!((i.shuffle_pct, i.barrier_pct, i.mem_stride), (100, 100, 4));
        assert_eq!(i.mem_stress_pct, 0);
        assert_eq!(Preset::Basic.config(), StressConfig::default());
        let n = Preset::None.config();
        assert_eq!(n.max_workgroups, n.testing_workgroups);
        assert_eq!(
            n.shuffle_pct + n.barrier_pct + n.mem_stress_pct + n.pre_stress_pct,
            0
        );
        // Paper 000 §4.3, Tab. 6 column 12: stress + randomisation + synchronisation.
        let p = Preset::Paper000.config();
        assert_eq!(
            (p.mem_stress_pct, p.shuffle_pct, p.barrier_pct),
            (100, 100, 100)
        );
        assert!(p.max_workgroups > p.testing_workgroups);
        assert!(!p.bank_conflicts);
        assert_eq!(Preset::from_name("nope"), None);
    }

    #[test]
    fn serialises_with_gpuharbor_names() {
        let v = serde_json::to_value(StressConfig::default()).unwrap();
        for key in [
            "testingWorkgroups",
            "maxWorkgroups",
            "workgroupSize",
            "shufflePct",
            "barrierPct",
            "scratchMemorySize",
            "memStride",
            "memStressPct",
            "memStressIterations",
            "memStressStoreFirstPct",
            "memStressStoreSecondPct",
            "preStressPct",
            "preStressIterations",
            "preStressStoreFirstPct",
            "preStressStoreSecondPct",
            "stressLineSize",
            "stressTargetLines",
            "stressStrategyBalancePct",
            "permuteFirst",
            "permuteSecond",
            "aliasedMemory",
            "bankConflicts",
        ] {
            assert!(v.get(key).is_some(), "{key}");
        }
    }
}
