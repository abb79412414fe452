//! weft-sim: "what may this GPU program do under model M?" — candidate executions of a
//! litmus program (herd-style: per-thread traces, then rf and co choices) judged by `.cat`
//! models (paper 000 §5).
//!
//! Stages: [`traces`] (each thread's possible runs in isolation), [`candidates`] (trace
//! combinations with rf and co choices), [`barriers`] (barrier instances, quorums, deadlock), [`exec`] (a candidate as a `weft_cat` execution
//! with the full tag and relation vocabulary), [`sim`] (evaluate a model on every candidate
//! and summarise as herd does), [`models`] (the bundled `.cat` models), [`memory`] (the
//! time and memory budget of one simulation), [`product`] (final states kept in product
//! form), [`report`] (the JSON of a result and the note lines herd has none for),
//! [`expect`] (Dat3M-style expected verdicts).

pub mod barriers;
pub mod candidates;
pub mod exec;
pub mod expect;
pub mod memory;
pub mod models;
pub mod product;
pub mod report;
pub mod sim;
pub mod traces;
pub mod value;

pub use product::StateTerm;
pub use sim::{simulate, SimError, SimOptions, SimResult, StateInfo, StopAt};
