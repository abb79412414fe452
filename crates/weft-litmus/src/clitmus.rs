//! herd C11 and Dat3M OpenCL litmus tests (stub: being implemented).
use crate::{ParseError, PrintError};
use weft_ir::Program;

pub fn parse(_src: &str) -> Result<Program, ParseError> {
    Err(ParseError::new(1, 1, "C/OpenCL parser not implemented yet"))
}
pub fn print_c(_p: &Program) -> Result<String, PrintError> {
    Err(PrintError::new("C printer not implemented yet"))
}
pub fn print_opencl(_p: &Program) -> Result<String, PrintError> {
    Err(PrintError::new("OpenCL printer not implemented yet"))
}
