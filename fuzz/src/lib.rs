//! Shared checks of weft's fuzz targets: never panic; whatever parses prints in its own
//! format and re-parses to the same program.

/// Steers `data` into one front-end by replacing its first byte with a header: `even` when
/// that byte is even, `odd` otherwise; then checks the round trip.
pub fn check_with_header(data: &[u8], even: &[u8], odd: &[u8]) {
    let header = if data.first().is_some_and(|b| b & 1 == 0) { even } else { odd };
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
