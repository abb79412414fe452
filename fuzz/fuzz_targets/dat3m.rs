//! Fuzz target: the dat3m front-end must never panic, and whatever it accepts must print and
//! re-parse to the same program.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Half of the inputs are steered into this front-end by prefixing its header.
    let mut input: Vec<u8> = if data.first().is_some_and(|b| b & 1 == 0) {
        b"PTX fuzz\n".to_vec()
    } else {
        b"VULKAN fuzz\n".to_vec()
    };
    input.extend_from_slice(data.get(1..).unwrap_or(&[]));
    weft_fuzz_check(&input);
});

fn weft_fuzz_check(bytes: &[u8]) {
    if let Ok(p) = weft_litmus::parse_bytes(bytes) {
        if let Ok(text) = weft_litmus::print_native(&p) {
            let q = weft_litmus::parse(&text).expect("printed program must re-parse");
            assert_eq!(p, q, "print/parse round trip changed the program");
        }
    }
}
