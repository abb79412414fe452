//! Regression tests from fuzzing: every input in `fuzz/regressions/` (crashes and slow
//! inputs cargo-fuzz found, kept after the fix) must parse or fail cleanly, and whatever
//! parses must print and re-parse to the same program — the property the fuzz targets check.

use std::path::Path;

/// The input a fuzz target actually parsed: targets named in the file's prefix replace the
/// first byte with their header (even byte: first header, odd: second), as in `fuzz/src/lib.rs`.
fn as_fuzzed(name: &str, raw: &[u8]) -> Vec<u8> {
    let headers: &[(&str, &[u8], &[u8])] = &[
        ("dat3m-", b"PTX fuzz\n", b"VULKAN fuzz\n"),
        ("clitmus-", b"OPENCL fuzz\n", b"C fuzz\n"),
        ("gpuptx-", b"GPU_PTX fuzz\n", b"GPU_PTX fuzz\n{"),
        ("json-", b"{", b"{\"testName\":"),
    ];
    for (prefix, even, odd) in headers {
        if name.starts_with(prefix) {
            let mut v = if raw.first().is_some_and(|b| b & 1 == 0) {
                even.to_vec()
            } else {
                odd.to_vec()
            };
            v.extend_from_slice(raw.get(1..).unwrap_or(&[]));
            return v;
        }
    }
    raw.to_vec()
}

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
        let raw = std::fs::read(&path).unwrap();
        let name = path.file_name().and_then(|f| f.to_str()).unwrap_or("");
        let bytes = as_fuzzed(name, &raw);
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
