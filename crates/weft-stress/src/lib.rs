//! weft-stress: the system-stress parameters of GPU litmus testing, in GPUHarbor's names
//! (paper 001 §3.2 and §4; /work/shared/notes/gpuharbor-facts.md), plus the bank-conflict
//! incantation of paper 000 §4.3.2 that GPUHarbor lacks.
//!
//! - [`StressConfig`]: one configuration (serde, GPUHarbor's camelCase field names), its
//!   defaults (GPUHarbor's runner defaults) and [`StressConfig::validate`].
//! - [`Preset`]: named configurations (`none`, `basic`, `interleave`, `stress`,
//!   `gpuharbor`, `paper000`).
//! - [`load`] / [`StressConfig::from_json`]: stress files, with `file:line:col` errors;
//!   GPUHarbor's per-test `numMemLocations`/`numOutputs` are accepted and checked against
//!   the test by [`StressConfig::check_test`].
//! - [`ParkMiller`], [`random_config`], [`configs`]: GPUHarbor's seeded configuration
//!   generator, reproducing its draws exactly so that results are comparable.
//!
//! This crate has no GPU dependency; the WGSL backend (`weft-hw-wgpu`) consumes it.

mod config;
mod prng;

pub use config::{load, Preset, Source, StressConfig, StressError, TestShape};
pub use prng::{configs, random_config, random_config_with, Limits, ParkMiller};
