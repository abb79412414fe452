//! weft-instrument: paper 003 §4.1-4.2 on weft's PTX. [`instrument`] rewrites the PTX of a
//! kernel so that every warp logs its operations into a device-side queue — one fixed-size
//! record per warp-level operation (warp, site, active mask, an auxiliary word, then one
//! address and one value slot per lane); the first active lane (leader) reserves the slot
//! with an atomic on the queue head and shares the index with a shuffle, every lane writes
//! its own address and value, the leader the header. Logged: loads, stores and atomics
//! (before the instruction), barrier arrivals, divergent branches (the taken lanes, by
//! ballot), reconvergence points (the immediate post-dominator of each conditional branch)
//! and exits. Predicated memory instructions, barriers and exits become a branch around an
//! unpredicated instruction so that the logging is covered by the branch (§4.1). With
//! pruning, an access through an address register that has not changed since an access of
//! the same width in the same basic block that already covers it (a read after a read or a
//! write, a write after a write) is not logged again (§4.1; Fig. 9 counts both).
//!
//! [`decode`] turns the queue contents back into the emulator's trace events
//! ([`weft_simt::TraceSink`]), re-running the warp's reconvergence stack from the logged
//! branch, reconvergence and exit records to place `if`/`else`/`fi`.
//!
//! `weft_race::instrumented` makes an instrumented kernel a race session's trace source
//! (`weft race --instrumented`, on the emulator or a GPU).
//!
//! Queues: CTA `c` logs into queue `c % queues` ([`queue_buffer`]); every record also takes
//! a global ticket so that the decoder can merge the queues in execution order. The queues
//! are drained after the kernel (the paper drains them concurrently, with a commit index).
//! Not handled, refused with an error rather than mis-logged: `call`s left after clang's
//! inlining.

mod decode;
mod rewrite;

pub use decode::{decode, decode_with_findings, BarrierFinding, DecodeError};
pub use rewrite::{
    instrument, queue_buffer, Instrumented, Options, Site, SiteKind, SpaceHint, Stats,
    HEADER_BYTES, QUEUE_HEADER, RECORD_BYTES,
};
