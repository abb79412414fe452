//! Dat3M's PTX and Vulkan litmus dialects: the parser ([`parse`]) and the printers of their
//! canonical forms ([`print_ptx`], [`print_vulkan`]). This module owns everything about these
//! two column formats; the submodules split it into the shared spellings and rules
//! (`syntax`), the parser (`parse`), the lowering of any program into what a dialect can
//! spell (`lower`) and the text emitter (`print`).
//!
//! # Format
//!
//! ```text
//! PTX MP                                  (or VULKAN / Vulkan; the name runs to a blank)
//! "optional doc strings, may span lines"
//! { x=0; y @ surface aliases x; P1:r0=0; }
//! { ssw 0 1; }                            (Vulkan only: system-synchronizes-with)
//!  P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;       (Vulkan: P0@sg 0, wg 0, qf 0)
//!  st.weak x, 1   | ld.acquire.gpu r0, y ;
//! locations [x; P1:r0;]                   (optional)
//! filter (...)                            (optional)
//! exists (P1:r0 == 1 /\ x == 1)           (or ~exists / forall)
//! ```
//!
//! Registers are `r<digits>` (as in Dat3M's grammars); any other identifier in an address
//! position is a location, and a location used in code without an initial value is declared
//! with value 0 (Dat3M tests do this). A location that appears only in the condition is an
//! error. Placement levels: `cta`→Cta, `gpu`→Gpu, `sys`→System; `sg`→Warp, `wg`→Cta,
//! `qf`→QueueFamily, `dv`→Gpu.
//!
//! # Instructions and their IR
//!
//! PTX: `ld|tld|suld|cold.<order>[.<scope>] r, x` (the proxy is generic, texture, surface,
//! constant), `st|sust.<order>[.<scope>] x, v`, `atom|suatom.<order>.<scope>.<op> r, x, v[, v]`,
//! `red|sured.<order>.<scope>.<op> x, v` (an [`weft_ir::Rmw`] without destination),
//! `fence.sc|acq_rel.<scope>` (`FenceKind::Fence`), `membar.cta|gl|sys` (`FenceKind::Membar`,
//! order `seq_cst`), `fence.proxy.alias|surface|texture|constant` (`FenceKind::ProxyFence`),
//! `bar.cta.sync|arrive id[, v...]`. Orders: `weak` (Plain), `volatile` (Plain with
//! `volatile`), `relaxed`, `acquire`, `release`, `acq_rel`; a morally strong access without
//! a scope gets `.sys`, the PTX ISA default, so `ld.relaxed` and `ld.relaxed.sys` are the
//! same program.
//!
//! Vulkan: `ld|st[.atom][.acq|.rel][.av|.vis][.nonpriv][.<scope>].scN[.semscN...][.semav]
//! [.semvis]`, `rmw.atom[...][.<op>] r, x, v` (no operation means exchange), `membar.<order>
//! .<scope>[sem...]` (`FenceKind::Fence`), `cbar[.<order>].<scope>[sem...] id[, v...]`
//! (a Sync barrier at that scope; its attributes repeat the scope when it has semantics),
//! `avdevice`, `visdevice`. A non-atomic access has order Plain and a scope only with
//! `.av`/`.vis`; `.atom` alone is Relaxed. The Vulkan memory model's rules are enforced
//! (`.semav` needs a release, semantics need an order, a storage class is required...).
//!
//! Both: labels `LC00:`, `goto L`, `beq|bne|blt|ble|bgt|bge a, b, L` (a `Jump` whose
//! condition is `Bin(Eq|Ne|.., a, b)`), local `add|sub|mul|div|and|or|xor r, a, b`
//! (`Assign` of a `Bin`), and `ld r, v` with a register or constant `v` (`Assign` of `v`).
//!
//! # Printing
//!
//! The printers write a canonical form: `x=0;` then aliases and initialised registers in
//! the init block, every qualifier in one fixed order (`ld.atom.acq.dv.sc0.semsc0.semvis`),
//! `==` for equality, `/\` binding tighter than `\/` with only the parentheses the tree
//! needs, and the columns padded so that every `|` and `;` lines up. A printed program
//! re-parses to an IR equal to the program it printed; for a program read from the same
//! dialect that is the program itself.
//!
//! Programs of other architectures (C, OpenCL, WebGPU, GPU_PTX, or PTX printed as Vulkan
//! and back) are first lowered, and the result re-parses as that lowering:
//!
//! | IR | PTX | Vulkan |
//! |---|---|---|
//! | Plain access | `.weak` (`.volatile` if volatile) | `.nonpriv.sc0` |
//! | Relaxed | `.relaxed.<s>` | `.atom.<s>.sc0` |
//! | Acquire / Consume load | `.acquire.<s>` | `.atom.acq.<s>.sc0.semsc0.semvis` |
//! | Release store | `.release.<s>` | `.atom.rel.<s>.sc0.semsc0.semav` |
//! | AcqRel RMW | `atom.acq_rel` | `rmw.atom.acq_rel...semav.semvis` |
//! | SeqCst load / store / RMW | `fence.sc.<s>` then acquire / release / acq_rel | refused |
//! | SeqCst / AcqRel / Acquire / Release fence | `fence.sc` / `fence.acq_rel` | refused / `membar.acq_rel|acq|rel` with the derived semantics |
//! | Relaxed fence | dropped (a no-op) | dropped |
//! | missing scope | `.sys` | `.dv` |
//! | scope Thread, Warp / QueueFamily / System | `.cta` / `.gpu` / `.sys` | `.sg` / `.qf` / `.dv` |
//! | missing placement level | own CTA, `gpu 0` | own subgroup and workgroup, `qf 0` |
//! | `if`/`while`, `@p` guards | labels `LW<n>` and branches | same |
//! | nested expressions | `add`/`sub`/... into fresh registers, comparisons via branches | same |
//! | barrier | `bar.cta.sync` (CTA only) | `cbar.<s>`; a PTX barrier gets `acq_rel` semantics |
//!
//! Names are fitted to the dialect: threads become `P<i>` unless all are already `P<n>`,
//! registers that are not `r<digits>` get fresh numbers, locations that would read as
//! registers or keywords are renamed. What neither dialect can say is dropped when it only
//! restates the default (value types, `atomic` declarations, C pointer parameters, fence
//! memory-space lists, which only weaken a fence) and refused otherwise with a
//! [`PrintError`] naming it: cache operators, non-global memory, arrays, computed
//! addresses, C11 compare-exchange, assume/assert, `%`/`<<`/`>>`. PTX refuses Vulkan's
//! `avdevice`/`visdevice`, `ssw` and non-CTA barriers, and drops Vulkan's av/vis, storage
//! classes and semantics (PTX orders all memory); Vulkan refuses proxies, volatile,
//! `seq_cst` and arrive-only barriers.

mod lower;
mod parse;
mod print;
mod syntax;

use crate::{ParseError, PrintError};
use weft_ir::Program;

use syntax::Dialect;

/// Parses a Dat3M PTX or Vulkan litmus test (the header says which).
pub fn parse(src: &str) -> Result<Program, ParseError> {
    crate::cond::with_meta(src, parse::parse)
}

/// Writes `p` in Dat3M's PTX dialect, lowering programs of other architectures.
pub fn print_ptx(p: &Program) -> Result<String, PrintError> {
    print::emit(&lower::lower(p, Dialect::Ptx)?, Dialect::Ptx)
}

/// Writes `p` in Dat3M's Vulkan dialect, lowering programs of other architectures.
pub fn print_vulkan(p: &Program) -> Result<String, PrintError> {
    print::emit(&lower::lower(p, Dialect::Vulkan)?, Dialect::Vulkan)
}

/// The program [`print_ptx`] writes, as IR: what re-parsing its output gives.
pub fn lower_for_ptx(p: &Program) -> Result<Program, PrintError> {
    lower::lower(p, Dialect::Ptx)
}

/// The program [`print_vulkan`] writes, as IR: what re-parsing its output gives.
pub fn lower_for_vulkan(p: &Program) -> Result<Program, PrintError> {
    lower::lower(p, Dialect::Vulkan)
}
