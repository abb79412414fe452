//! Regression tests from fuzzing: every input in `fuzz/regressions/` (crashes and slow
//! inputs cargo-fuzz found, kept after the fix) must parse or fail cleanly, and whatever
//! parses must print and re-parse to the same program — the property the fuzz targets check.

use std::path::Path;

#[test]
fn fuzz_regressions_stay_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz/regressions exists") {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .and_then(|f| f.to_str())
            .is_some_and(|f| f.starts_with('.') || f == "README.md")
        {
            continue;
        }
        n += 1;
        let bytes = std::fs::read(&path).unwrap();
        let started = std::time::Instant::now();
        if let Ok(p) = weft_litmus::parse_bytes(&bytes) {
            if let Ok(text) = weft_litmus::print_native(&p) {
                let q = weft_litmus::parse(&text).unwrap_or_else(|e| {
                    panic!(
                        "{}: printed text does not parse: {e}\n{text}",
                        path.display()
                    )
                });
                assert_eq!(p, q, "{}: round trip changed the program", path.display());
            }
        }
        assert!(
            started.elapsed().as_secs() < 5,
            "{}: took {:?}",
            path.display(),
            started.elapsed()
        );
    }
    eprintln!("{n} fuzz regression inputs checked");
}
