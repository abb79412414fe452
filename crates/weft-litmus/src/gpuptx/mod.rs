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
use weft_ir::{CacheOp, MemSpace, Program, Scope};
use weft_ptx::ast::{CacheOp as PtxCacheOp, Sem, StateSpace};
use weft_ptx::quals;

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

// PTX qualifiers (written here without their dot) are read and written through weft-ptx's
// qualifier tables and its one mapping to the IR (`weft_ptx::quals`).

/// A qualifier of weft-ptx's table `T`, given without its dot.
fn ptx_qual<T>(s: &str, from_ptx: fn(&str) -> Option<T>) -> Option<T> {
    from_ptx(&format!(".{s}"))
}

/// A spelling of weft-ptx's table without its dot.
fn undotted(s: &'static str) -> &'static str {
    s.strip_prefix('.').unwrap_or(s)
}

/// A state space by its PTX name (`global`, `shared`, `local`, `const`, `param`), or by
/// `constant`, which GPU_PTX also accepts.
pub(super) fn space_from_name(s: &str) -> Option<MemSpace> {
    if s == "constant" {
        return Some(MemSpace::Constant);
    }
    let sp = ptx_qual(s, StateSpace::from_ptx)?;
    // Only the plain data spaces (`.shared::cta` and the like are not GPU_PTX).
    let m = quals::mem_space(sp)?;
    (quals::state_space(m) == Some(sp)).then_some(m)
}

pub(super) fn space_name(s: MemSpace) -> Option<&'static str> {
    quals::state_space(s).map(|sp| undotted(sp.as_str()))
}

/// A scope qualifier (`cta`, `gpu`, `sys`).
pub(super) fn scope_from_ptx(s: &str) -> Option<Scope> {
    quals::scope_by_name(s)
}

pub(super) fn scope_ptx(s: Scope) -> Option<&'static str> {
    quals::scope_name(s)
}

/// A cache operator (`ca`, `cg`, `cs`, `lu`, `cv`, `wb`, `wt`).
pub(super) fn cache_from_ptx(s: &str) -> Option<CacheOp> {
    ptx_qual(s, PtxCacheOp::from_ptx).map(quals::ir_cache)
}

pub(super) fn cache_ptx(c: CacheOp) -> &'static str {
    undotted(quals::cache_of(c).as_str())
}

/// A `.sem` qualifier (`weak`, `volatile`, `relaxed`, `acquire`, ...).
pub(super) fn sem_from_ptx(s: &str) -> Option<Sem> {
    ptx_qual(s, Sem::from_ptx)
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
