//! Cross-engine library tests, one test binary: results of one engine checked against another
//! engine's or an anchor's stored output. They live in the binary crate because engines never
//! depend on each other (issue 25): mc against sim (`mc_ground_truth`, `vulkan_race_filter`),
//! the generator's tests labelled by the simulator (`gen_*`), the hardware judge with the
//! simulator passed in (`hw_judge`). Run one with `cargo test -p weft --test engines MODULE::`.

mod gen_diy7;
mod gen_gpu_suite;
mod gen_mutants;
mod hw_judge;
mod mc_ground_truth;
mod vulkan_race_filter;
