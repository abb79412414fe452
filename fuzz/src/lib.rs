//! Shared checks of weft's fuzz targets: never panic; whatever parses prints in its own
//! format and re-parses to the same program; a stress file that loads is valid and
//! writes back to the same configuration.

/// Steers `data` into one front-end by replacing its first byte with a header: `even` when
/// that byte is even, `odd` otherwise; then checks the round trip.
pub fn check_with_header(data: &[u8], even: &[u8], odd: &[u8]) {
    let header = if data.first().is_some_and(|b| b & 1 == 0) {
        even
    } else {
        odd
    };
    let mut input = header.to_vec();
    input.extend_from_slice(data.get(1..).unwrap_or(&[]));
    check(&input);
}

/// Parses `bytes`; if that succeeds and the program prints natively, the text must parse
/// back to an equal program.
pub fn check(bytes: &[u8]) {
    if let Ok(p) = weft_litmus::parse_bytes(bytes) {
        if let Ok(text) = weft_litmus::print_native(&p) {
            let q = weft_litmus::parse(&text).expect("printed program must re-parse");
            assert_eq!(p, q, "print/parse round trip changed the program");
        }
    }
}

/// Loads `bytes` as a stress file (GPUHarbor parameters); if it loads, the configuration
/// is in range, checking it against any test shape never panics, and writing it back as
/// JSON reads back equal.
pub fn check_stress(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Ok(cfg) = weft_stress::StressConfig::from_json(text, None) else {
        return;
    };
    cfg.validate().expect("a loaded stress file is valid");
    for (m, o) in [(0, 0), (2, 2), (u32::MAX, 1)] {
        let _ = cfg.check_test(
            "fuzz",
            weft_stress::TestShape {
                mem_locations: m,
                outputs: o,
            },
        );
    }
    let back = serde_json::to_string(&cfg).expect("a configuration serialises");
    let again = weft_stress::StressConfig::from_json(&back, None).expect("written back, it loads");
    assert_eq!(
        cfg, again,
        "stress file round trip changed the configuration"
    );
}
