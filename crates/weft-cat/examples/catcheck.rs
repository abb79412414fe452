//! `cargo run -p weft-cat --example catcheck -- FILE.cat...`: parses each model (includes
//! resolved next to it, then in the directories of `-I DIR` options, then among the
//! built-in library files) and prints its name and checks, or the error with a caret.

use std::path::PathBuf;
use std::process::ExitCode;

use weft_cat::Model;

fn main() -> ExitCode {
    let mut search = Vec::new();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "-I" {
            search.extend(args.next().map(PathBuf::from));
        } else {
            files.push(PathBuf::from(a));
        }
    }
    let mut status = ExitCode::SUCCESS;
    for f in files {
        match Model::load(&f, &search) {
            Ok(m) => {
                println!(
                    "{}: ok, model {:?}, {} instructions, checks: {}",
                    f.display(),
                    m.name.as_deref().unwrap_or("?"),
                    m.instrs.len(),
                    m.check_names().join(", ")
                );
                for w in &m.warnings {
                    println!("  warning: {w}");
                }
            }
            Err(e) => {
                println!("{}", e.render());
                status = ExitCode::from(2);
            }
        }
    }
    status
}
