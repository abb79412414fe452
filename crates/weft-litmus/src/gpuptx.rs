//! herd's legacy GPU_PTX format (stub: being implemented).
use crate::{ParseError, PrintError};
use weft_ir::Program;

pub fn parse(_src: &str) -> Result<Program, ParseError> {
    Err(ParseError::new(1, 1, "GPU_PTX parser not implemented yet"))
}
pub fn print(_p: &Program) -> Result<String, PrintError> {
    Err(PrintError::new("GPU_PTX printer not implemented yet"))
}
