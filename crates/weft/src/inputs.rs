//! Litmus inputs for the commands: the finding and loading of litmus files lives in
//! [`weft_litmus::files`]; this re-export keeps the commands' `crate::inputs` paths.

pub use weft_litmus::files::{collect, load, LoadError};
