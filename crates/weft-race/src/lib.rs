//! weft-race: dynamic data-race detection for GPU kernels, after BARRACUDA (paper 003).
//!
//! The detector consumes the event trace of one run (paper 003 §3.1: per-thread reads,
//! writes, atomics, acquires and releases at block or global scope; per-warp `endi`,
//! `if`/`else`/`fi`; per-CTA barriers) as it streams out of the SIMT emulator
//! ([`weft_simt::TraceSink`]) and applies the vector-clock rules of paper 003 Fig. 2-3
//! ([`detector`]). Nothing of the trace is kept: the state is the per-thread vector clocks,
//! compressed per warp in the four formats of §4.3.1 ([`clocks::Compressed`]), the shadow
//! memory of §4.3.3 ([`shadow`]) and the synchronisation locations.
//!
//! - [`classify`]: which trace operation each memory instruction is (§3.1's inference; the
//!   classification is `weft_ir::analysis::sync`, re-exported);
//! - [`vc`]: explicit sparse vector clocks (snapshots for synchronisation locations);
//! - [`clocks`]: the per-thread clock stores, compressed and uncompressed (the reference the
//!   property test compares against);
//! - [`shadow`]: per-location metadata on 4-byte granules, split to bytes on partial overlap;
//! - [`predicate`]: predicated memory instructions seen as branches (§4.1's rewrite);
//! - [`detector`]: the analysis;
//! - [`report`]: races grouped by source-line pair, kind, class and space; text and JSON;
//! - [`session`]: a launch run under several schedules, every run checked, one serialisable
//!   report with its verdict (`weft race`);
//! - [`instrumented`]: `weft-instrument`'s instrumented PTX as a session's trace source.

pub mod classify;
pub mod clocks;
pub mod detector;
pub mod instrumented;
pub mod predicate;
pub mod report;
pub mod session;
pub mod shadow;
pub mod vc;

pub use classify::{classify_kernel, PcInfo, Scope2, SyncOp};
pub use clocks::{Clocks, Compressed, Full, Geometry};
pub use detector::{Definition, Detector};
pub use report::{Class, Race, RaceKind, Report};
