//! Fuzz target: arbitrary bytes as a `weft run --stress FILE` stress file (GPUHarbor's
//! parameters, `numMemLocations`/`numOutputs` included); never panics, and what loads is
//! valid and round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    weft_fuzz::check_stress(data);
});
