//! weft-gen: litmus tests generated from cycles of relaxations, as herd's `diy7` builds
//! them (paper 000 §4: tests as cycles of program-order and communication edges), with
//! GPU annotations (thread placement, scopes, memory regions, cache operators), and the
//! MC-Mutants operators of paper 001 §3.1.
//!
//! | module | owns |
//! |---|---|
//! | [`edge`] | the edge language: diy7's edge names and weft's GPU qualifiers |
//! | [`cycle`] | well-formed cycles, their threads, locations and values |
//! | [`build`] | a cycle to a [`weft_ir::Program`] for each target architecture |
//! | [`command`] | `weft gen` below its arguments: format and scope, an enumeration or the mutants written to a directory |
//! | [`name`] | diy7's test names (`SB+porlxrlxs`) and weft's GPU naming extension |
//! | [`enumerate`] | every cycle up to a size over relax/safe edge sets, up to rotation |
//! | [`mutants`] | MC-Mutants: weakening sw, weakening po-loc, reversing po-loc |
//! | [`compare`] | structural comparison of two tests up to register naming |
//! | [`mutant_suite`] | the `--mutants` suite: conformance tests and mutants with metadata, its index |
//! | [`suite`] | an enumeration built, printed, labelled by the caller's model, and its `@all` index |

pub mod build;
pub mod command;
pub mod compare;
pub mod cycle;
pub mod edge;
pub mod enumerate;
pub mod mutant_suite;
pub mod mutants;
pub mod name;
pub mod suite;

pub use build::{build, Target};
pub use cycle::Cycle;
pub use edge::{Edge, EdgeError};
