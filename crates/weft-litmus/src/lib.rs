//! weft-litmus: every litmus format weft reads and writes, each a parser with precise
//! `line:col` errors and a printer of a canonical form, all producing [`weft_ir::Program`].
//!
//! | module | format | header |
//! |---|---|---|
//! | [`dat3m`] | Dat3M's PTX and Vulkan dialects (column programs, `P0@cta 0,gpu 0`) | `PTX name`, `VULKAN name` |
//! | [`clitmus`] | herd's C11 format and Dat3M's OpenCL dialect (C function bodies) | `C name`, `OPENCL name` |
//! | [`gpuptx`] | herd's legacy GPU_PTX format with typed registers, `ScopeTree` and memory map (paper 000 Fig. 12) | `GPU_PTX name` |
//! | [`json`] | weft's JSON format in the style of GPUHarbor's configs (paper 001 §3.2; docs/formats.md) | a JSON object |
//!
//! [`classify`] computes the sequential / interleaved / weak classes of a program's outcomes
//! (paper 001 §3.2). [`parse`] detects the format from the text, parses and validates; [`print`] writes a
//! program in any format that can express it. [`files`] finds litmus files under
//! directories and loads one with its text kept for error snippets.

pub mod classify;
pub mod clitmus;
pub(crate) mod cond;
pub mod dat3m;
pub mod diag;
pub mod files;
pub mod gpuptx;
pub mod json;
pub mod lex;

pub use diag::ParseError;

use weft_ir::{Arch, Program};

/// A litmus file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Dat3M PTX dialect.
    Ptx,
    /// Dat3M Vulkan dialect.
    Vulkan,
    /// Dat3M OpenCL dialect (C with scopes and address spaces).
    OpenCl,
    /// herd C11.
    C,
    /// herd legacy GPU_PTX.
    GpuPtx,
    /// weft/GPUHarbor JSON.
    Json,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::Ptx,
        Format::Vulkan,
        Format::OpenCl,
        Format::C,
        Format::GpuPtx,
        Format::Json,
    ];

    /// The name used on the command line (`--to`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Ptx => "ptx",
            Format::Vulkan => "vulkan",
            Format::OpenCl => "opencl",
            Format::C => "c",
            Format::GpuPtx => "gpu_ptx",
            Format::Json => "json",
        }
    }

    pub fn from_name(s: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
    }

    /// The format a program of this architecture is written in.
    pub fn native(arch: Arch) -> Format {
        match arch {
            Arch::Ptx => Format::Ptx,
            Arch::Vulkan => Format::Vulkan,
            Arch::OpenCl => Format::OpenCl,
            Arch::C => Format::C,
            Arch::GpuPtx => Format::GpuPtx,
            Arch::WebGpu => Format::Json,
        }
    }
}

/// A program could not be written in the requested format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PrintError {
    pub message: String,
}

impl PrintError {
    pub fn new(message: impl Into<String>) -> Self {
        PrintError {
            message: message.into(),
        }
    }
}

/// Finds the format of a litmus text from its first token (or a leading `{` for JSON).
pub fn detect(src: &str) -> Result<Format, ParseError> {
    let mut line = 1u32;
    let mut rest = src;
    // Skip blank lines and a leading BOM.
    rest = rest.strip_prefix('\u{feff}').unwrap_or(rest);
    loop {
        let trimmed = rest.trim_start_matches([' ', '\t', '\r']);
        if let Some(r) = trimmed.strip_prefix('\n') {
            rest = r;
            line += 1;
            continue;
        }
        rest = trimmed;
        break;
    }
    if rest.starts_with('{') {
        return Ok(Format::Json);
    }
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    match word.to_ascii_uppercase().as_str() {
        "PTX" => Ok(Format::Ptx),
        "VULKAN" => Ok(Format::Vulkan),
        "OPENCL" => Ok(Format::OpenCl),
        "C" => Ok(Format::C),
        "GPU_PTX" => Ok(Format::GpuPtx),
        "" => Err(ParseError::new(line, 1, "empty file: expected a litmus header such as `PTX name`")),
        _ => Err(ParseError::new(
            line,
            1,
            format!(
                "unknown litmus architecture {}: expected PTX, VULKAN, OPENCL, C, GPU_PTX or a JSON object",
                diag::quote(&word)
            ),
        )),
    }
}

/// Parses a litmus test in any supported format and validates the result.
pub fn parse(src: &str) -> Result<Program, ParseError> {
    let p = match detect(src)? {
        Format::Ptx | Format::Vulkan => dat3m::parse(src)?,
        Format::OpenCl | Format::C => clitmus::parse(src)?,
        Format::GpuPtx => gpuptx::parse(src)?,
        Format::Json => json::parse(src)?,
    };
    p.validate()?;
    Ok(p)
}

/// Parses the bytes of a file (rejecting binary input with a positioned error).
pub fn parse_bytes(bytes: &[u8]) -> Result<Program, ParseError> {
    parse(diag::decode(bytes)?)
}

/// Writes `p` in `format`, or says what the format cannot express.
pub fn print(p: &Program, format: Format) -> Result<String, PrintError> {
    match format {
        Format::Ptx => dat3m::print_ptx(p),
        Format::Vulkan => dat3m::print_vulkan(p),
        Format::OpenCl => clitmus::print_opencl(p),
        Format::C => clitmus::print_c(p),
        Format::GpuPtx => gpuptx::print(p),
        Format::Json => json::print(p),
    }
}

/// Writes `p` in the canonical form of its own format.
pub fn print_native(p: &Program) -> Result<String, PrintError> {
    print(p, Format::native(p.arch))
}
