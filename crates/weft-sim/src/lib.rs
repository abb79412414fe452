//! weft-sim: "what may this GPU program do under model M?" — candidate executions of a
//! litmus program (herd-style: per-thread traces, then rf and co choices) judged by `.cat`
//! models (paper 000 §5).
//!
//! Stages: [`traces`] (each thread's possible runs in isolation, driving the shared litmus
//! stepper of `weft-exec`), [`candidates`] (enumerating trace combinations with rf and co
//! choices), [`sim`] (evaluate a model on every candidate and summarise as herd does),
//! [`memory`] (the time and memory budget of one simulation), [`product`] (final states
//! kept in product form). The data they work on — events, values, skeletons and
//! candidates, barrier matching, the `.cat` execution adapter, results and the bundled
//! models — live in `weft-exec` (shared with the model checker) and are re-exported here
//! under their former paths ([`value`], [`barriers`], [`exec`], [`models`]).
//! The printing side: [`report`] (the JSON of a result and the note lines herd has none
//! for), [`expect`] (Dat3M-style expected verdicts).

pub mod candidates;
pub mod exec;
pub mod expect;
pub mod memory;
pub mod product;
pub mod report;
pub mod sim;
pub mod traces;

pub use weft_exec::{barriers, models, value};

pub use sim::{simulate, simulate_default, SimError, SimOptions, SimResult, StateInfo, StopAt};
pub use weft_exec::StateTerm;
