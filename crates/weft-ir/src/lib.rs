//! weft-ir: the one program representation every weft engine reads.
//!
//! A [`Program`] is a litmus test or a small GPU program: memory [`Location`]s (space,
//! initial value, size, aliasing), [`Thread`]s placed in a scope tree ([`Placement`]), the
//! code of each thread as a list of [`Stmt`]s, and a final [`Condition`]. Every memory
//! instruction carries its annotations ([`MemAttrs`]: order, scope, cache operator, proxy,
//! Vulkan availability/visibility and storage classes) as data, so front-ends, printers,
//! `.cat` models and engines all read the same facts. Structured statements (`if`, `while`)
//! keep C sources printable as C; [`cfg`] flattens any thread to a control-flow graph of basic
//! blocks for the engines.
//!
//! The design follows DESIGN.md ("one IR, many engines"); the litmus concepts (scope trees,
//! memory maps, final conditions) follow paper 000 §4.1 and Fig. 12.

pub mod analysis;
pub mod attrs;
pub mod cfg;
pub mod code;
pub mod cond;
pub mod exit;
pub mod kernel;
pub mod program;
pub mod scope;
pub mod span;
pub mod validate;

pub use attrs::{
    BarrierKind, CacheOp, DataType, FenceKind, MemAttrs, MemSpace, Order, Proxy, RmwOp, TypeKind,
    VulkanAttrs,
};
pub use code::{
    Barrier, BinOp, Expr, Fence, Guard, Load, Reg, Rmw, Stmt, StmtKind, Store, UnOp, Unseq,
};
pub use cond::{CmpOp, Condition, Prop, Quantifier, Term};
pub use program::{
    Alias, Arch, LocId, Location, Param, Program, RegDecl, Thread, ThreadRelation, Value,
};
pub use scope::{Placement, Scope};
pub use span::Span;
pub use validate::IrError;
