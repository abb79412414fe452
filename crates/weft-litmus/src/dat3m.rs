//! Dat3M's PTX and Vulkan litmus dialects (stub: being implemented).
use crate::{ParseError, PrintError};
use weft_ir::Program;

pub fn parse(_src: &str) -> Result<Program, ParseError> {
    Err(ParseError::new(
        1,
        1,
        "Dat3M PTX/Vulkan parser not implemented yet",
    ))
}
pub fn print_ptx(_p: &Program) -> Result<String, PrintError> {
    Err(PrintError::new("PTX printer not implemented yet"))
}
pub fn print_vulkan(_p: &Program) -> Result<String, PrintError> {
    Err(PrintError::new("Vulkan printer not implemented yet"))
}
