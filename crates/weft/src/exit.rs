//! The binary's side of the exit status: the shared [`ExitCode`] and [`Failure`]
//! (`weft_ir::exit`, one definition for the binary and the libraries), and how a failure is
//! reported (`weft: MESSAGE` on stderr).

pub use weft_ir::exit::{ExitCode, Failure};

/// Prints `weft: MESSAGE` to stderr and returns the failure's exit code.
pub fn report(f: &Failure) -> ExitCode {
    eprintln!("weft: {}", f.message);
    f.code
}

/// The exit code of `r`, reporting a failure.
pub fn finish(r: Result<ExitCode, Failure>) -> ExitCode {
    r.unwrap_or_else(|f| report(&f))
}

/// Prints `weft: MESSAGE` to stderr; exit 2 for bad input, else 3 (the results database's
/// errors, which say which they are).
pub fn report_db(bad_input: bool, message: &str) -> ExitCode {
    eprintln!("weft: {message}");
    if bad_input {
        ExitCode::BadInput
    } else {
        ExitCode::Internal
    }
}
