//! Writing to stdout without panicking: a closed pipe (`weft parse dir | head`) ends the
//! process quietly with success, any other write error is reported with exit code 3.

use crate::exit::ExitCode;
use std::io::Write;

/// Writes `text` to stdout.
pub fn print(text: &str) {
    write_with(|w| w.write_all(text.as_bytes()));
}

/// Runs `f` on buffered stdout (for output too large to build as one string first), with
/// the error handling of [`print`].
pub fn write_with(f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if let Err(e) = f(&mut out).and_then(|_| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(ExitCode::Ok.code());
        }
        eprintln!("weft: cannot write output: {e}");
        std::process::exit(ExitCode::Internal.code());
    }
}

/// Writes `text` and a newline to stdout.
pub fn line(text: &str) {
    let mut s = String::with_capacity(text.len() + 1);
    s.push_str(text);
    s.push('\n');
    print(&s);
}
