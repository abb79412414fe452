//! weft-sim: "what may this GPU program do under model M?" — candidate executions of a
//! litmus program (herd-style: per-thread traces, then rf and co choices) judged by `.cat`
//! models (paper 000 §5).
//!
//! This crate currently holds the first stage, [`traces`]: each thread's possible
//! executions in isolation.

pub mod candidates;
pub mod traces;
pub mod value;
