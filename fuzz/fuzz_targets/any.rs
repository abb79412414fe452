//! Fuzz target: arbitrary bytes through format detection and every parser; never panics,
//! and what parses round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    weft_fuzz::check(data);
});
