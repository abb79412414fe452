//! herd's legacy `GPU_PTX` litmus format (paper 000 §4.1 and Fig. 12): typed PTX register
//! declarations, a column program of PTX instructions, a scope tree and a memory map.
//!
//! ```text
//! GPU_PTX SB
//! {0:.reg .s32 r0; 0:.reg .b64 r1 = x; ...}
//!  T0                | T1                ;
//!  mov.s32 r0,1      | mov.s32 r0,1      ;
//!  st.cg.s32 [r1],r0 | st.cg.s32 [r1],r0 ;
//! ScopeTree(grid(cta(warp T0) (warp T1)))
//! x: shared, y: global
//! exists (0:r2=0 /\ 1:r2=0)
//! ```
//!
//! * The init block declares registers (`0:.reg .s32 r0;`, `0:.reg .b64 r1 = x;` holds the
//!   address of `x`), initialises registers herd-style (`0:r0=1;`) and locations (`x=0;`).
//!   Registers first written by an instruction (or used as a guard) need no declaration;
//!   a register read before any declaration or write is an error.
//! * Instructions (paper 000 §2.3): `ld`/`st` with `.volatile`, cache operators, state
//!   spaces and types; `atom`/`red` (`.cas`, `.exch`, `.add`, `.inc`, ...); `membar.cta/gl/
//!   sys` and `fence.sc`; `bar.sync`/`bar.arrive`; `mov`, `add`, `sub`, `mul.lo`, `and`, `or`,
//!   `xor`, `shl`, `shr`, `not`, `neg`, `setp.<cmp>`; labels `L0:` and `bra`; guards
//!   `@p`/`@!p`. An address is `[x]` (a location) or `[r1]` (a register holding one).
//!   As a weft extension, accesses may carry PTX 6 `.relaxed.<scope>`, so that Dat3M PTX
//!   tests with relaxed accesses print in this format.
//! * `ScopeTree` nests `(level item...)` nodes: levels `device`/`kernel`/`grid` (the GPU),
//!   `cta`/`block`, `warp` (and `system` as an extension); items are nodes or thread names.
//!   A node's id is its rank among its siblings of the same level, so
//!   `ScopeTree(grid(cta(warp T0) (warp T1)))` places T0 at `[(warp 0),(cta 0),(gpu 0)]` and
//!   T1 at `[(warp 1),(cta 0),(gpu 0)]`.
//! * The memory map `x: shared, y: global` gives each location its state space.
//! * The final condition is `exists`, `~exists` or `forall` over `/\`, `\/`, `~`, with
//!   terms `0:r2` (thread index, or name, and register), `x` or `[x]` (memory) and integers;
//!   an identifier on the right of a comparison is an address (`0:r1=x`).
//!
//! Locations are exactly those named by the init block and the memory map; naming any other
//! location is an error. The printer writes the canonical form, which re-parses to an equal
//! program; it also prints Dat3M PTX programs whose accesses are weak, volatile or relaxed
//! and whose fences are `membar`/`fence.sc`, and refuses anything else with a reason.
//!
//! One job a file: `syntax` reads the text into cells, declarations, scope tree and memory
//! map; `lower` turns them into a [`Program`]; `print` writes the canonical form; this file
//! holds the names both directions share.

mod lower;
mod print;
mod syntax;

pub use print::print;

use crate::diag::ParseError;
use crate::lex::{LexOptions, Token};
use weft_ir::{MemSpace, Program, Scope};

pub(super) type PResult<T> = Result<T, ParseError>;

/// Words that cannot name a thread, register, label or location in this format.
pub(super) const RESERVED: [&str; 8] = [
    "exists",
    "forall",
    "ScopeTree",
    "scopeTree",
    "true",
    "false",
    "filter",
    "locations",
];

pub(super) fn lex_options() -> LexOptions {
    LexOptions {
        dotted_idents: true,
        percent_idents: true,
        line_comments: true,
    }
}

pub(super) fn err_at(t: &Token, msg: impl Into<String>) -> ParseError {
    ParseError::new(t.line, t.col, msg)
}

/// Parses a GPU_PTX litmus test.
pub fn parse(src: &str) -> Result<Program, ParseError> {
    crate::cond::with_meta(src, |src| lower::lower(syntax::parse_syntax(src)?))
}

pub(super) fn space_from_name(s: &str) -> Option<MemSpace> {
    Some(match s {
        "global" => MemSpace::Global,
        "shared" => MemSpace::Shared,
        "local" => MemSpace::Local,
        "const" | "constant" => MemSpace::Constant,
        "param" => MemSpace::Param,
        _ => return None,
    })
}

pub(super) fn space_name(s: MemSpace) -> Option<&'static str> {
    Some(match s {
        MemSpace::Global => "global",
        MemSpace::Shared => "shared",
        MemSpace::Local => "local",
        MemSpace::Constant => "const",
        MemSpace::Param => "param",
        MemSpace::Generic => return None,
    })
}

pub(super) fn level_from_name(s: &str) -> Option<Scope> {
    Some(match s {
        "warp" => Scope::Warp,
        "cta" | "block" => Scope::Cta,
        "grid" | "kernel" | "device" => Scope::Gpu,
        "system" | "sys" => Scope::System,
        _ => return None,
    })
}

pub(super) fn level_name(s: Scope) -> Option<&'static str> {
    Some(match s {
        Scope::Warp => "warp",
        Scope::Cta => "cta",
        Scope::Gpu => "grid",
        Scope::System => "system",
        Scope::Thread | Scope::QueueFamily => return None,
    })
}
