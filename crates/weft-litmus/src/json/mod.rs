//! weft's JSON litmus format: GPUHarbor's test configs (paper 001 §3.2) plus extensions for
//! general straight-line tests (docs/formats.md describes every field).
//!
//! GPUHarbor's own fields are read as GPUHarbor means them: `testName`, `testType`
//! (`inter_workgroup`, `intra_workgroup`), `memoryType` (`atomic_storage`,
//! `atomic_workgroup`, `non_atomic_workgroup`), `threads[i].actions[]` (`read`, `write`,
//! `barrier`, `fence` with `memoryLocation`, `value`/`variable`, `memoryOrder`, `useRMW`) and
//! `behaviors` (postcondition trees). weft adds initial memory (`memory`), thread names and
//! placements, `rmw` actions, memory scopes, fence kinds and spaces, PTX annotations, a
//! behavior `class`, and an explicit final `condition`.
//!
//! The IR has no behaviors: the **weak** behaviors become the final condition
//! (`exists (weak0 \/ weak1 ...)`), and the printer recomputes every behavior with the SC
//! reference interpreter of [`classify`], so that any test printed as JSON lists its
//! sequential and interleaved outcomes and its weak condition. Accesses are WebGPU relaxed
//! atomics unless the test says otherwise; the program's architecture is [`Arch::WebGpu`].
//!
//! Syntax and type errors carry serde_json's `line:col`; semantic errors (an unknown action,
//! memory order or location, ...) point at the offending value in the source.
//!
//! One job a file: `raw` is the serde form of the input; `index` finds where each JSON
//! value starts; `parse` checks and lowers the input to a [`weft_ir::Program`]; `print`
//! writes one with its behaviors classified; this file holds the name tables both share.

mod index;
mod parse;
mod print;
mod raw;

pub use parse::parse;
pub use print::print;

use weft_ir::{CmpOp, MemSpace, Order, Scope};

/// What the memory type makes the default.
#[derive(Clone, Copy)]
pub(super) struct Defaults {
    pub(super) space: MemSpace,
    pub(super) atomic: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ActionKind {
    Read,
    Write,
    Rmw,
    Fence,
    Barrier,
}

/// The order an action has when `memoryOrder` is absent.
pub(super) fn default_order(kind: ActionKind, d: Defaults) -> Order {
    match kind {
        ActionKind::Read | ActionKind::Write if !d.atomic => Order::Plain,
        ActionKind::Read | ActionKind::Write | ActionKind::Rmw => Order::Relaxed,
        ActionKind::Fence | ActionKind::Barrier => Order::AcqRel,
    }
}

/// The scope an action has when `memoryScope` is absent: none for non-atomics, the
/// workgroup for atomics on workgroup memory and for barriers, else the device.
pub(super) fn default_scope(kind: ActionKind, order: Order, loc_space: MemSpace) -> Option<Scope> {
    if order == Order::Plain {
        return None;
    }
    Some(match kind {
        ActionKind::Barrier => Scope::Cta,
        ActionKind::Fence => Scope::Gpu,
        _ if loc_space == MemSpace::Shared => Scope::Cta,
        _ => Scope::Gpu,
    })
}

pub(super) fn default_barrier_spaces(d: Defaults) -> Vec<MemSpace> {
    vec![d.space]
}

pub(super) const ORDERS: [(&str, Order); 7] = [
    ("plain", Order::Plain),
    ("relaxed", Order::Relaxed),
    ("consume", Order::Consume),
    ("acquire", Order::Acquire),
    ("release", Order::Release),
    ("acq_rel", Order::AcqRel),
    ("seq_cst", Order::SeqCst),
];

pub(super) fn order_from(s: &str) -> Option<Order> {
    if s == "sc" {
        return Some(Order::SeqCst);
    }
    ORDERS.iter().find(|(n, _)| *n == s).map(|(_, o)| *o)
}

pub(super) fn order_name(o: Order) -> &'static str {
    ORDERS
        .iter()
        .find(|(_, x)| *x == o)
        .map(|(n, _)| *n)
        .unwrap_or("relaxed")
}

pub(super) const SCOPES: [(&str, Scope); 6] = [
    ("thread", Scope::Thread),
    ("subgroup", Scope::Warp),
    ("workgroup", Scope::Cta),
    ("queueFamily", Scope::QueueFamily),
    ("device", Scope::Gpu),
    ("system", Scope::System),
];

pub(super) fn scope_from(s: &str) -> Option<Option<Scope>> {
    if s == "none" {
        return Some(None);
    }
    SCOPES.iter().find(|(n, _)| *n == s).map(|(_, x)| Some(*x))
}

pub(super) fn scope_name(s: Option<Scope>) -> &'static str {
    match s {
        None => "none",
        Some(s) => SCOPES
            .iter()
            .find(|(_, x)| *x == s)
            .map(|(n, _)| *n)
            .unwrap_or("none"),
    }
}

pub(super) const SPACES: [(&str, MemSpace); 6] = [
    ("storage", MemSpace::Global),
    ("workgroup", MemSpace::Shared),
    ("private", MemSpace::Local),
    ("uniform", MemSpace::Constant),
    ("param", MemSpace::Param),
    ("generic", MemSpace::Generic),
];

pub(super) fn space_from(s: &str) -> Option<MemSpace> {
    let alias = match s {
        "global" => Some(MemSpace::Global),
        "shared" => Some(MemSpace::Shared),
        "local" => Some(MemSpace::Local),
        "constant" => Some(MemSpace::Constant),
        _ => None,
    };
    alias.or_else(|| SPACES.iter().find(|(n, _)| *n == s).map(|(_, x)| *x))
}

pub(super) fn space_name(s: MemSpace) -> &'static str {
    SPACES
        .iter()
        .find(|(_, x)| *x == s)
        .map(|(n, _)| *n)
        .unwrap_or("storage")
}

pub(super) const CMPS: [(&str, CmpOp); 6] = [
    ("==", CmpOp::Eq),
    ("!=", CmpOp::Ne),
    ("<", CmpOp::Lt),
    ("<=", CmpOp::Le),
    (">", CmpOp::Gt),
    (">=", CmpOp::Ge),
];
