//! weft-exec: executions of litmus programs, the pieces the simulator (`weft-sim`) and the
//! model checker (`weft-mc`) share so that neither engine is built on the other
//! (`../shared/DESIGN.md`, "Kernel engines").
//!
//! Modules: [`value`] (run-time values and the address encoding of locations),
//! [`event`] (trace events, cells, traces, the dependency-tracking expression evaluator),
//! [`step`] (the stepping interface and the one litmus-thread stepper: a thread produces
//! its next memory or synchronisation event given the values its earlier reads returned),
//! [`candidate`] (skeletons and candidate executions: traces combined with `rf` and
//! `co`), [`barriers`] (barrier instances, quorums, deadlock), [`exec`] (a candidate as a
//! `weft_cat` execution with the whole tag and relation vocabulary), [`result`] (a
//! program's judged outcome in herd7's terms), [`models`] (the bundled `.cat` models),
//! [`graphs`] (witness graphs written to disk as DOT and SVG).

pub mod barriers;
pub mod candidate;
pub mod event;
pub mod exec;
pub mod graphs;
pub mod models;
pub mod result;
pub mod step;
pub mod value;

pub use event::{Cell, EventKind, TraceEvent};
pub use result::{SimResult, StateInfo, StateTerm};
