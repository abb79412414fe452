//! Fuzz target: arbitrary bytes through format detection and every parser; never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = weft_litmus::parse_bytes(data);
});
