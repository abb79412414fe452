//! Paper 003 §3.1: which trace operation each memory instruction of a kernel produces. The
//! classification lives in `weft_ir::analysis::sync` (shared with `weft-instrument`, which
//! places its tickets by it); its items are re-exported here under their former paths.

pub use weft_ir::analysis::sync::*;
