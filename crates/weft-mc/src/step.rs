//! The stepping interface between the exploration driver and programs, and the litmus
//! stepper: both live in `weft-exec` (shared with the simulator, which drives the same
//! litmus stepper to enumerate traces) and are re-exported here under their former path.

pub use weft_exec::step::*;
