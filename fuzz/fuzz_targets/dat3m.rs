//! Fuzz target: the dat3m front-end never panics, and what it accepts round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    weft_fuzz::check_with_header(data, b"PTX fuzz\n", b"VULKAN fuzz\n");
});
