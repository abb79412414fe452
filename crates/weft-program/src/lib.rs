//! weft-program: whole CUDA programs (issue 26). [`cc`] builds an executable from `.cu`,
//! `.cpp` and `.c` files: the device side of each `.cu` file compiled to PTX by weft's
//! front-end and embedded as its GPU binary, the host side compiled by clang-19
//! (`--cuda-host-only`), linked with weft's CUDA runtime (`libweft_cudart.so`). [`run`] runs
//! such a program in one of the runtime's modes and collects its report.

pub mod cc;
pub mod outcome;
pub mod run;
pub mod session;

pub use cc::{build, CcOptions};
pub use run::{run_program, Mode, RunOptions, RunResult};
pub use session::{
    has_header_geometry, has_main, parse_cc_args, run_target, split_invocation, Target,
};
