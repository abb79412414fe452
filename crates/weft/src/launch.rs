//! The launch options every kernel command shares (`run-kernel`, `ptx`, `mc`, `race`,
//! `verify`): `#[command(flatten)] launch: LaunchArgs`, then [`LaunchArgs::spec`] gives the
//! library's [`weft_cuda::LaunchSpec`], which `weft_cuda::load_kernel` merges over the
//! kernel's header lines (the command line wins); `weft_cuda::bind` binds the launch.

use std::path::PathBuf;

use weft_cuda::LaunchSpec;

/// Launch options (geometry, buffers, arguments, compiler defines, analysis flags).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LaunchArgs {
    /// Blocks per grid X[,Y[,Z]] (`*` = any).
    #[arg(long, visible_aliases = ["gridDim", "num_groups"], value_name = "X[,Y[,Z]]")]
    pub grid: Option<String>,
    /// Threads per block X[,Y[,Z]] (`*` = any).
    #[arg(long, visible_aliases = ["blockDim", "local_size"], value_name = "X[,Y[,Z]]")]
    pub block: Option<String>,
    /// OpenCL global size X[,Y[,Z]]: the grid is this divided by --local_size.
    #[arg(long = "global_size", alias = "global-size", value_name = "X[,Y[,Z]]")]
    pub global_size: Option<String>,
    /// A buffer argument NAME=COUNT[xTYPE][:INIT], INIT = zero | iota | N | list:a,b,.. | rand:SEED[:MAX].
    #[arg(long = "buffer", value_name = "NAME=COUNT[xTYPE][:INIT]")]
    pub buffers: Vec<String>,
    /// A scalar argument NAME=VALUE (NAME: source name, param_N or N); a struct passed by
    /// value takes its fields NAME=V1,V2,... (each VALUE[:TYPE], at C's alignment).
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// Which kernel of the module (source or PTX name); needed when there are several.
    #[arg(long)]
    pub kernel: Option<String>,
    /// GPUVerify's `K,v1,...,vn`: kernel K with its scalar parameters equal to v1..vn (`*` = any).
    #[arg(long = "kernel-args", value_name = "K,v1,...")]
    pub kernel_args: Option<String>,
    /// A preprocessor definition passed to the compiler.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// An include directory passed to the compiler.
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Loop bound for bounded engines.
    #[arg(long, visible_alias = "loop-unwind", value_name = "N")]
    pub unroll: Option<u32>,
    /// Work-group-local memory for an OpenCL `__local` pointer parameter: NAME=BYTES or NAME=COUNTxTYPE.
    #[arg(long = "local", value_name = "NAME=SIZE")]
    pub locals: Vec<String>,
    /// OpenCL C version for .cl files: 1.2 or 2.0 (default 2.0).
    #[arg(long = "cl-std", value_name = "VERSION")]
    pub cl_std: Option<String>,
    /// Warp size for lock-step reasoning (verifier).
    #[arg(long = "warp-sync", value_name = "N")]
    pub warp_sync: Option<u32>,
    /// Verifier: abstract shared state by equality.
    #[arg(long = "equality-abstraction")]
    pub equality_abstraction: bool,
    /// Verifier: shared state holds arbitrary values.
    #[arg(long = "adversarial-abstraction")]
    pub adversarial_abstraction: bool,
    /// Only consider threads of the same group.
    #[arg(long = "only-intra-group")]
    pub only_intra_group: bool,
    /// Verifier: do not check accesses against barriers.
    #[arg(long = "no-barrier-access-checks")]
    pub no_barrier_access_checks: bool,
    /// Also check array bounds.
    #[arg(long = "check-array-bounds")]
    pub check_array_bounds: bool,
}

impl LaunchArgs {
    /// The launch description these options give (`Err`: a malformed option, exit 2).
    pub fn spec(&self) -> Result<LaunchSpec, String> {
        let mut s = LaunchSpec::default();
        let mut flag = |name: &str, v: &str| {
            s.apply_flag(&format!("{name}={v}"))
                .map_err(|e| format!("{name} {v}: {e}"))
        };
        if let Some(v) = &self.grid {
            flag("--grid", v)?;
        }
        if let Some(v) = &self.block {
            flag("--block", v)?;
        }
        if let Some(v) = &self.global_size {
            flag("--global_size", v)?;
        }
        if let Some(v) = &self.kernel_args {
            flag("--kernel-args", v)?;
        }
        for v in &self.args {
            flag("--arg", v)?;
        }
        for v in &self.locals {
            flag("--local", v)?;
        }
        if let Some(v) = &self.cl_std {
            s.opencl_std = Some(weft_cuda::launch::parse_cl_std(v)?);
        }
        if let Some(k) = &self.kernel {
            s.kernel = Some(k.clone());
        }
        s.buffers = self.buffers.clone();
        s.defines = self.defines.clone();
        s.include_dirs = self.include_dirs.clone();
        s.unroll = self.unroll;
        s.flags.warp_sync = self.warp_sync.filter(|&w| w > 0);
        s.flags.equality_abstraction = self.equality_abstraction;
        s.flags.adversarial_abstraction = self.adversarial_abstraction;
        s.flags.only_intra_group = self.only_intra_group;
        s.flags.no_barrier_access_checks = self.no_barrier_access_checks;
        s.flags.check_array_bounds = self.check_array_bounds;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct T {
        #[command(flatten)]
        launch: LaunchArgs,
    }

    #[test]
    fn aliases_reach_one_spec() {
        let t = T::try_parse_from([
            "t",
            "--gridDim",
            "4",
            "--local_size=[8,8]",
            "-DWIDTH=64",
            "-D",
            "N",
            "--loop-unwind",
            "3",
            "--local",
            "tmp=16xf32",
            "--kernel-args",
            "k,5,*",
            "--arg",
            "n=3",
        ])
        .unwrap();
        let s = t.launch.spec().unwrap();
        assert_eq!(s.grid, Some(weft_cuda::Dims::fixed([4, 1, 1])));
        assert_eq!(s.block, Some(weft_cuda::Dims::fixed([8, 8, 1])));
        assert_eq!(s.defines, vec!["WIDTH=64", "N"]);
        assert_eq!(s.unroll, Some(3));
        assert_eq!(s.locals, vec![("tmp".to_string(), 64)]);
        assert_eq!(s.kernel.as_deref(), Some("k"));
        assert_eq!(s.positional_args, vec!["5", "*"]);
        assert_eq!(s.args, vec![("n".to_string(), "3".to_string())]);
        let t = T::try_parse_from(["t", "--num_groups", "2", "--blockDim", "0"]).unwrap();
        assert!(t.launch.spec().is_err());
    }
}
