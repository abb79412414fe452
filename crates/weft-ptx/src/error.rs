//! Parse and lowering errors of PTX: weft's one diagnostic type, with a 1-based `line:col`
//! and a one-line message naming the offending text. Lowering errors of compiled PTX also
//! carry the CUDA source position of the instruction (`origin`) and how many instructions
//! on that line they stand for (`occurrences`).

/// An error found while lexing, parsing or lowering PTX.
pub use weft_diag::Diagnostic as ParseError;
