//! weft-cat: herd's `.cat` memory-model language — lexer, parser and interpreter.
//!
//! A model is parsed once into a [`Model`] ([`Model::parse`], [`Model::parse_with`] with an
//! include [`Resolver`], or [`Model::load`] from a file) and then evaluated on any number
//! of candidate executions ([`Model::evaluate`]). An execution is anything implementing
//! [`Execution`] (its size plus named base sets and relations); [`ExecutionBase`] is a
//! ready-made one built from events and edges. Values are dense bit sets and bit-matrix
//! relations ([`BitSet`], [`Relation`]). The result lists every check of every run (one run
//! per `with` choice) with its verdict, whether it is a flag, and a witness (e.g. the cycle
//! that breaks an `acyclic` axiom).
//!
//! The language is herd7's cat as described in its manual (§"Model definitions"); the
//! models of paper 000 §5 (Fig. 15-16, RMO per scope) and the scoped RC11 of paper 004 §3
//! are among the tests. `docs/cat.md` documents what is supported and how it differs from
//! herd.

#![warn(missing_docs)]

pub mod ast;
pub mod error;
pub mod eval;
pub mod exec;
pub mod lex;
pub mod monotone;
pub mod parse;
pub mod rel;

pub use ast::{CheckMode, Model, Test};
pub use error::{CatError, ErrorKind, Location};
pub use eval::{evaluate, CheckResult, Choice, EvalCache, EvalOptions, Evaluation, Run, Witness};
pub use exec::{Event, EventKind, Execution, ExecutionBase};
pub use parse::{builtin_library, parse_model, FsResolver, NoIncludes, Resolver};
pub use rel::{BitSet, Relation};
