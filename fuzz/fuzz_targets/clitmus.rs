//! Fuzz target: the clitmus front-end never panics, and what it accepts round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    weft_fuzz::check_with_header(data, b"OPENCL fuzz\n", b"C fuzz\n");
});
