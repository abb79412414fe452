//! weft-ptx: a lexer and parser for the PTX that clang (NVPTX back-end) and nvcc emit for
//! ordinary CUDA and OpenCL kernels, producing a typed syntax tree ([`ast`]).
//!
//! [`lower`] turns a kernel into weft's kernel IR ([`weft_ir::kernel::Kernel`]) for the SIMT
//! emulator, race detector and model checker; the AST is shaped for it: every
//! instruction is `{ guard, opcode, mods, operands }` where [`ast::Modifiers`] holds the
//! memory order (`.relaxed/.acquire/.release/.acq_rel/.sc/.weak/.volatile`), scope
//! (`.cta/.gpu/.sys`), state space, cache operator, types, vector width, comparison,
//! rounding and the opcode-specific modes (`atom` operation, `shfl`/`vote` mode, ...) as
//! typed fields. These are exactly the facts paper 003 §3.1 needs to turn PTX into trace
//! operations (loads, stores, atomics, `membar`/`fence` scopes, `bar.sync`, branches).
//!
//! ```
//! let m = weft_ptx::parse(".version 7.0\n.target sm_70\n.address_size 64\n\
//!     .visible .entry k(.param .u64 k_param_0)\n{\n .reg .b32 %r<2>;\n .reg .b64 %rd<2>;\n\
//!     ld.param.u64 %rd1, [k_param_0];\n ld.acquire.gpu.global.u32 %r1, [%rd1];\n ret;\n}\n")
//!     .unwrap();
//! let k = m.kernels().next().unwrap();
//! let ld = k.instructions()[1];
//! assert_eq!(ld.mods.sem, Some(weft_ptx::ast::Sem::Acquire));
//! assert_eq!(ld.mods.scope, Some(weft_ptx::ast::Scope::Gpu));
//! assert_eq!(ld.mnemonic(), "ld.acquire.gpu.global.u32");
//! ```
//!
//! [`quals`] is the one mapping between the IR's memory attributes and PTX qualifiers, used
//! by the lowering here, the GPU_PTX litmus format and the CUDA litmus code generator.
//!
//! Errors are [`ParseError`]s with a 1-based `line:col`; no input makes the parser panic.

pub mod ast;
pub mod error;
pub mod irprint;
pub mod lexer;
pub mod lower;
pub mod parser;
mod postpass;
pub mod print;
pub mod quals;

pub use ast::{Instruction, Module, Opcode, Operand};
pub use error::ParseError;
pub use lower::{lower_kernel, lower_kernel_all, lower_kernel_with, LowerError};
pub use parser::parse;
