//! `weft show FILE [--to FORMAT]`: print a test back in the canonical form of its own
//! format, or in another format where the content allows (exit 2 with the reason if not).

use std::path::PathBuf;

use weft_litmus::Format;

use crate::exit::ExitCode;
use crate::inputs::load;

#[derive(clap::Args)]
pub struct Args {
    /// The litmus test to print.
    file: PathBuf,
    /// Output format: ptx, vulkan, opencl, c, gpu_ptx or json (default: the test's own).
    #[arg(long, value_parser = parse_format)]
    to: Option<Format>,
}

fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!(
            "unknown format `{s}` (expected one of: {})",
            names.join(", ")
        )
    })
}

pub fn run(args: Args) -> ExitCode {
    let program = match load(&args.file) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}", e.report(&args.file, weft_diag::stderr_color()));
            return ExitCode::BadInput;
        }
    };
    let format = args.to.unwrap_or_else(|| Format::native(program.arch));
    match weft_litmus::print(&program, format) {
        Ok(text) => {
            if text.ends_with('\n') {
                crate::out::print(&text);
            } else {
                crate::out::line(&text);
            }
            ExitCode::Ok
        }
        Err(e) => {
            eprintln!(
                "{}: cannot print as {}: {}",
                args.file.display(),
                format.name(),
                e
            );
            ExitCode::BadInput
        }
    }
}
