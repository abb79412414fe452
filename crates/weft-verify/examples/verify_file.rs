//! Verifies one kernel file and prints the report as JSON (for timing without the CLI).
fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: verify_file KERNEL.cu");
        std::process::exit(2);
    };
    let o = weft_verify::Options::default();
    let fo = weft_verify::load::FileOptions::default();
    match weft_verify::load::verify_file(std::path::Path::new(&path), &o, &fo) {
        Ok(r) => println!("{}", serde_json::to_string_pretty(&r).unwrap()),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
