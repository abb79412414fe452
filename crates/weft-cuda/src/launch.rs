//! One launch description for every command that takes a kernel (`run-kernel`, `ptx`, `mc`,
//! `race`, `verify`): [`LaunchSpec`], read from a kernel's GPUVerify-style header lines
//! ([`LaunchSpec::from_header`]) and from the command line, then merged
//! ([`LaunchSpec::overridden_by`]: the command line wins).
//!
//! Header lines follow GPUVerify's test-suite conventions (paper 002 §2): the leading `//`
//! comment block holds `pass` or `xfail:KIND`, one line of flags
//! (`//--blockDim=[64,2] --gridDim=4 -DWIDTH=64 --warp-sync=32 --no-inline`), and expected
//! messages. A dimension is `N`, `[x,y]`, `[x,y,z]`, `x,y,z` or `{x,y}`; `*` in a dimension
//! (or in a `--kernel-args` value) means "any value" (GPUVerify leaves it unconstrained; an
//! emulator picks [`ANY_GRID`]/[`ANY_BLOCK`]). Analysis flags with a weft meaning are kept as
//! data in [`AnalysisFlags`]; other tools' flags without one are kept in
//! [`LaunchSpec::ignored`] for a one-line note.

use std::fmt;

use crate::compiler::OpenClStd;
use crate::geometry::{Expectation, HeaderError, LaunchConfig};

/// The grid extent an emulator uses for a `*` grid dimension.
pub const ANY_GRID: u32 = 2;
/// The block extent an emulator uses for a `*` block dimension.
pub const ANY_BLOCK: u32 = 32;

/// A launch dimension triple; `None` in a component is `*` (any value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dims(pub [Option<u32>; 3]);

impl Dims {
    /// A fixed `[x, y, z]`.
    pub fn fixed(d: [u32; 3]) -> Dims {
        Dims(d.map(Some))
    }

    /// Whether some component is `*`.
    pub fn has_any(&self) -> bool {
        self.0.iter().any(Option::is_none)
    }

    /// The concrete extents, with `*` replaced by `any`.
    pub fn resolve(&self, any: u32) -> [u32; 3] {
        self.0.map(|d| d.unwrap_or(any))
    }

    /// Parses `64`, `[64,2]`, `[64,2,1]`, `64,2`, `{64,2}` or with `*` components; missing
    /// components are 1.
    pub fn parse(text: &str) -> Result<Dims, String> {
        let t = text.trim();
        let inner = t
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .or_else(|| t.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            .unwrap_or(t);
        let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        if parts.len() > 3 {
            return Err(format!("`{text}`: expected 1 to 3 dimensions"));
        }
        let mut out = [Some(1u32); 3];
        for (i, p) in parts.iter().enumerate() {
            if *p == "*" {
                out[i] = None;
                continue;
            }
            let v = if let Some(h) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
                u32::from_str_radix(h, 16)
            } else {
                p.parse::<u32>()
            };
            match v {
                Ok(0) => return Err(format!("`{text}`: a dimension cannot be 0")),
                Ok(v) => out[i] = Some(v),
                Err(_) => return Err(format!("`{text}`: `{p}` is not a positive integer or `*`")),
            }
        }
        Ok(Dims(out))
    }
}

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s: Vec<String> = self
            .0
            .iter()
            .map(|d| d.map_or("*".to_string(), |v| v.to_string()))
            .collect();
        write!(f, "[{}]", s.join(","))
    }
}

/// Analysis flags other tools put in kernel headers that have a weft meaning; honoured by
/// the engines they concern (the verifier, the race detector), carried by everyone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnalysisFlags {
    /// `--warp-sync=N`: threads of a warp of `N` run in lock-step (no intra-warp races).
    pub warp_sync: Option<u32>,
    /// `--equality-abstraction`: abstract shared arrays by equality of the two threads' values.
    pub equality_abstraction: bool,
    /// `--adversarial-abstraction`: shared arrays hold arbitrary values on every read.
    pub adversarial_abstraction: bool,
    /// `--only-intra-group`: check races between threads of one group only.
    pub only_intra_group: bool,
    /// `--no-barrier-access-checks`: skip the check that barriers are reached uniformly.
    pub no_barrier_access_checks: bool,
    /// `--check-array-bounds`: also check array accesses against their bounds.
    pub check_array_bounds: bool,
}

/// Everything needed to launch (or analyse) one kernel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaunchSpec {
    /// Which kernel of the module (`--kernel`; the `K` of `--kernel-args=K,...`).
    pub kernel: Option<String>,
    /// Blocks per grid (`--grid`, `--gridDim`, `--num_groups`).
    pub grid: Option<Dims>,
    /// Threads per block (`--block`, `--blockDim`, `--local_size`).
    pub block: Option<Dims>,
    /// OpenCL global size (`--global_size`): the grid is this divided by the block.
    pub global_size: Option<Dims>,
    /// `--buffer NAME=COUNT[xTYPE][:INIT]`, verbatim (weft-simt's `spec` reads them).
    pub buffers: Vec<String>,
    /// `--arg NAME=VALUE`.
    pub args: Vec<(String, String)>,
    /// `--kernel-args=K,v1,...,vn`: values of the scalar parameters in order (`*` = any).
    pub positional_args: Vec<String>,
    /// `-D NAME[=VALUE]` passed to the compiler.
    pub defines: Vec<String>,
    /// `-I DIR` passed to the compiler.
    pub include_dirs: Vec<std::path::PathBuf>,
    /// Headers force-included after weft's shims (`-include`): an engine's own definitions
    /// (the verifier's annotation sinks). Never read from a kernel's header lines.
    pub force_includes: Vec<std::path::PathBuf>,
    /// Further compiler arguments an engine asks for (the verifier's `-mllvm
    /// -trap-unreachable`). Never read from a kernel's header lines.
    pub compiler_args: Vec<String>,
    /// `--unroll N` / `--loop-unwind=N`: loop bound for bounded engines.
    pub unroll: Option<u32>,
    /// `--local NAME=SIZE`: bytes of work-group-local memory for an OpenCL `__local`
    /// pointer parameter.
    pub locals: Vec<(String, u64)>,
    /// OpenCL C version (`-cl-std=CL1.2|CL2.0`).
    pub opencl_std: Option<OpenClStd>,
    /// Analysis flags with a weft meaning.
    pub flags: AnalysisFlags,
    /// Flags of other tools without a weft meaning (`--no-inline`, `--boogie-file=...`).
    pub ignored: Vec<String>,
    /// `//pass` or `//xfail:KIND`.
    pub expect: Option<Expectation>,
    /// Comment lines after the flags (expected messages).
    pub expected_messages: Vec<String>,
}

/// Parses `--local` sizes: bytes, or `COUNTxTYPE` (`256xf32` = 1024 bytes).
pub fn parse_local_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (count, elem) = match t.split_once('x') {
        Some((c, ty)) => {
            let bytes = match ty.trim() {
                "i8" | "u8" | "b8" | "char" | "uchar" => 1,
                "i16" | "u16" | "b16" | "short" | "ushort" | "half" => 2,
                "i32" | "u32" | "b32" | "f32" | "int" | "uint" | "float" => 4,
                "i64" | "u64" | "b64" | "f64" | "long" | "ulong" | "double" => 8,
                other => return Err(format!("`{text}`: unknown element type `{other}`")),
            };
            (c, bytes)
        }
        None => (t, 1),
    };
    let n: u64 = count
        .trim()
        .parse()
        .map_err(|_| format!("`{text}`: expected BYTES or COUNTxTYPE"))?;
    if n == 0 || n * elem > (1 << 30) {
        return Err(format!("`{text}`: size must be 1 byte to 1 GiB"));
    }
    Ok(n * elem)
}

/// Splits `NAME=VALUE` (also `NAME:VALUE`).
fn name_value(text: &str, what: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .or_else(|| text.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .filter(|(n, _)| !n.is_empty())
        .ok_or_else(|| format!("{what} `{text}`: expected NAME=VALUE"))
}

/// `--global_offset`'s value: `X`, `[X,Y]` or `[X,Y,Z]` (omitted components 0); a `*`
/// offset is refused (weft has no symbolic offset).
fn parse_offset(text: &str) -> Result<[u64; 3], String> {
    let t = text.trim();
    let inner = t
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .unwrap_or(t);
    let mut out = [0u64; 3];
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    if parts.len() > 3 {
        return Err(format!(
            "--global_offset `{text}`: at most three components"
        ));
    }
    for (i, p) in parts.iter().enumerate() {
        out[i] = p.parse().map_err(|_| {
            format!("--global_offset `{text}`: `{p}` is not a non-negative integer (`*` is not supported)")
        })?;
    }
    Ok(out)
}

impl LaunchSpec {
    /// Applies one flag word (`--blockDim=64`, `-DWIDTH=64`, `--no-inline`), as found on a
    /// header line; `Err` explains a malformed value.
    pub fn apply_flag(&mut self, word: &str) -> Result<(), String> {
        if let Some(d) = word.strip_prefix("-D") {
            if d.is_empty() {
                return Err("`-D` needs NAME[=VALUE] attached (`-DWIDTH=64`)".into());
            }
            self.defines.push(d.to_string());
            return Ok(());
        }
        if let Some(d) = word.strip_prefix("-I") {
            if !d.is_empty() {
                self.include_dirs.push(d.into());
                return Ok(());
            }
        }
        if let Some(s) = word.strip_prefix("-cl-std=") {
            self.opencl_std = Some(parse_cl_std(s)?);
            return Ok(());
        }
        let (name, value) = match word.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (word, None),
        };
        let need = |v: Option<&str>| -> Result<String, String> {
            v.map(str::to_string)
                .ok_or_else(|| format!("`{name}` needs a value (`{name}=...`)"))
        };
        let dims = |v: Option<&str>| -> Result<Dims, String> {
            Dims::parse(&need(v)?).map_err(|m| format!("{name}: {m}"))
        };
        match name {
            "--blockDim" | "--local_size" | "--block" => self.block = Some(dims(value)?),
            "--gridDim" | "--num_groups" | "--grid" => self.grid = Some(dims(value)?),
            "--global_size" => self.global_size = Some(dims(value)?),
            // OpenCL's global offset: `get_global_id(d)` and `get_global_offset(d)` add it
            // (weft_opencl.h reads `__WEFT_GLOBAL_OFFSET_D`).
            "--global_offset" => {
                for (d, o) in parse_offset(&need(value)?)?.iter().enumerate() {
                    self.defines
                        .retain(|x| !x.starts_with(&format!("__WEFT_GLOBAL_OFFSET_{d}=")));
                    if *o != 0 {
                        self.defines.push(format!("__WEFT_GLOBAL_OFFSET_{d}={o}"));
                    }
                }
            }
            "--warp-sync" => match value.and_then(|v| v.parse::<u32>().ok()) {
                Some(w) if w > 0 => self.flags.warp_sync = Some(w),
                _ => return Err("`--warp-sync` needs a positive size".into()),
            },
            "--loop-unwind" | "--unroll" => match value.and_then(|v| v.parse::<u32>().ok()) {
                Some(n) => self.unroll = Some(n),
                None => return Err(format!("`{name}` needs a number")),
            },
            "--kernel-args" => {
                let v = need(value)?;
                let mut it = v.split(',').map(str::trim);
                let k = it.next().unwrap_or("");
                if k.is_empty() {
                    return Err("`--kernel-args` needs K,v1,...,vn".into());
                }
                self.kernel = Some(k.to_string());
                self.positional_args = it.map(str::to_string).collect();
            }
            "--kernel" => self.kernel = Some(need(value)?),
            "--buffer" => self.buffers.push(need(value)?),
            "--arg" => self.args.push(name_value(&need(value)?, "--arg")?),
            "--local" => {
                let (n, v) = name_value(&need(value)?, "--local")?;
                self.locals.push((n, parse_local_size(&v)?));
            }
            "--equality-abstraction" => self.flags.equality_abstraction = true,
            "--adversarial-abstraction" => self.flags.adversarial_abstraction = true,
            "--only-intra-group" => self.flags.only_intra_group = true,
            "--no-barrier-access-checks" => self.flags.no_barrier_access_checks = true,
            "--check-array-bounds" => self.flags.check_array_bounds = true,
            _ if word.starts_with('-') => self.ignored.push(word.to_string()),
            _ => return Err(format!("`{word}` is not a flag")),
        }
        Ok(())
    }

    /// Reads the leading `//` comment block of a kernel source (see the module doc).
    /// Flags lines may repeat; a line that is neither a marker nor flags ends the flags and
    /// is kept as an expected message when a marker or flags came before it.
    pub fn from_header(source: &str) -> Result<LaunchSpec, HeaderError> {
        let mut s = LaunchSpec::default();
        let mut seen = false;
        let mut flags_seen = false;
        for (idx, raw) in source.lines().enumerate() {
            let line = idx as u32 + 1;
            let trimmed = raw.trim_start();
            if trimmed.is_empty() {
                if seen {
                    break;
                }
                continue;
            }
            let Some(body) = trimmed.strip_prefix("//") else {
                break;
            };
            let col0 = (raw.len() - trimmed.len()) as u32 + 3;
            let text = body.trim();
            // PolyBench's kernels as GPUVerify publishes them say `//PASS`.
            if text.eq_ignore_ascii_case("pass") {
                s.expect = Some(Expectation::Pass);
                seen = true;
            } else if let Some(kind) = text.strip_prefix("xfail:") {
                let kind = kind.trim();
                if kind.is_empty() {
                    return Err(HeaderError::new(
                        line,
                        col0,
                        "`xfail:` needs a kind (such as BOOGIE_ERROR)",
                    ));
                }
                s.expect = Some(Expectation::Xfail(kind.to_string()));
                seen = true;
            } else if text == "not_checked" {
                // weft's own label (tests/verify/): no error, but something GPUVerify checks
                // that `weft verify` does not, so its verdict is "not checked" (exit 3).
                seen = true;
            } else if text.starts_with('-') && !flags_seen && s.expected_messages.is_empty() {
                // GPUVerify's convention: one flags line; later lines are expected messages
                // even when they start with `--` ("--num_groups and --global_size are ...").
                seen = true;
                flags_seen = true;
                let mut offset = 0usize;
                for word in body.split_whitespace() {
                    let pos = body[offset..].find(word).map_or(0, |p| p + offset);
                    offset = pos + word.len();
                    s.apply_flag(word).map_err(|message| {
                        HeaderError::new(line, col0 + pos as u32, message)
                            .with_len(word.chars().count() as u32)
                    })?;
                }
            } else if seen {
                if !text.is_empty() {
                    s.expected_messages.push(text.to_string());
                }
            } else {
                // An ordinary leading comment before any marker: not a GPUVerify header.
                break;
            }
        }
        Ok(s)
    }

    /// `self` (the command line) over `base` (the header): options given here win; lists
    /// are joined with entries of the same name replaced; flags are or-ed.
    pub fn overridden_by(base: &LaunchSpec, cli: &LaunchSpec) -> LaunchSpec {
        fn join<T: Clone>(base: &[T], over: &[T], key: impl Fn(&T) -> String) -> Vec<T> {
            let keys: Vec<String> = over.iter().map(&key).collect();
            base.iter()
                .filter(|b| !keys.contains(&key(b)))
                .chain(over)
                .cloned()
                .collect()
        }
        let before_eq = |s: &String| s.split('=').next().unwrap_or("").trim().to_string();
        let f = &cli.flags;
        let b = &base.flags;
        LaunchSpec {
            kernel: cli.kernel.clone().or_else(|| base.kernel.clone()),
            grid: cli.grid.or(if cli.global_size.is_some() {
                None
            } else {
                base.grid
            }),
            block: cli.block.or(base.block),
            global_size: cli.global_size.or(if cli.grid.is_some() {
                None
            } else {
                base.global_size
            }),
            buffers: join(&base.buffers, &cli.buffers, before_eq),
            args: join(&base.args, &cli.args, |(n, _)| n.clone()),
            positional_args: if cli.positional_args.is_empty() {
                base.positional_args.clone()
            } else {
                cli.positional_args.clone()
            },
            defines: join(&base.defines, &cli.defines, before_eq),
            include_dirs: join(&base.include_dirs, &cli.include_dirs, |p| {
                p.display().to_string()
            }),
            force_includes: join(&base.force_includes, &cli.force_includes, |p| {
                p.display().to_string()
            }),
            compiler_args: join(&base.compiler_args, &cli.compiler_args, Clone::clone),
            unroll: cli.unroll.or(base.unroll),
            locals: join(&base.locals, &cli.locals, |(n, _)| n.clone()),
            opencl_std: cli.opencl_std.or(base.opencl_std),
            flags: AnalysisFlags {
                warp_sync: f.warp_sync.or(b.warp_sync),
                equality_abstraction: f.equality_abstraction || b.equality_abstraction,
                adversarial_abstraction: f.adversarial_abstraction || b.adversarial_abstraction,
                only_intra_group: f.only_intra_group || b.only_intra_group,
                no_barrier_access_checks: f.no_barrier_access_checks || b.no_barrier_access_checks,
                check_array_bounds: f.check_array_bounds || b.check_array_bounds,
            },
            ignored: join(&base.ignored, &cli.ignored, Clone::clone),
            expect: cli.expect.clone().or_else(|| base.expect.clone()),
            expected_messages: if cli.expected_messages.is_empty() {
                base.expected_messages.clone()
            } else {
                cli.expected_messages.clone()
            },
        }
    }

    /// Whether any geometry was given.
    pub fn has_geometry(&self) -> bool {
        self.grid.is_some() || self.block.is_some() || self.global_size.is_some()
    }

    /// The concrete launch for running the kernel: [`LaunchSpec::geometry`], with at most
    /// 1024 threads per block (what a GPU and the SIMT emulator launch).
    pub fn launch_config(&self) -> Result<LaunchConfig, String> {
        let l = self.geometry()?;
        let threads: u64 = l.block.iter().map(|&d| d as u64).product();
        if threads > 1024 {
            return Err(format!(
                "a block of {:?} has {threads} threads (at most 1024)",
                l.block
            ));
        }
        Ok(l)
    }

    /// Checks what GPUVerify rejects on its command line: `--num_groups`/`--grid` together
    /// with `--global_size`, both shared-state abstractions at once, and a global size that the local size does not divide (which
    /// also catches a global size with fewer dimensions than the local size).
    pub fn validate(&self) -> Result<(), String> {
        if self.grid.is_some() && self.global_size.is_some() {
            return Err("--num_groups (--grid) and --global_size are mutually exclusive".into());
        }
        if self.flags.equality_abstraction && self.flags.adversarial_abstraction {
            return Err(
                "--equality-abstraction and --adversarial-abstraction are mutually exclusive"
                    .into(),
            );
        }
        if self.global_size.is_some() {
            self.geometry()?;
        }
        Ok(())
    }

    /// The concrete geometry: `*` components become [`ANY_GRID`]/[`ANY_BLOCK`]; a global size
    /// is divided by the block. `Err` when the global size is not a multiple of the block.
    /// No hardware limit: a static verifier reasons about any block size.
    pub fn geometry(&self) -> Result<LaunchConfig, String> {
        let block = self.block.map_or([1, 1, 1], |b| b.resolve(ANY_BLOCK));
        let grid = match (self.grid, self.global_size) {
            (Some(g), _) => g.resolve(ANY_GRID),
            (None, Some(gs)) => {
                let g = gs.resolve(ANY_GRID * ANY_BLOCK);
                let mut n = [1u32; 3];
                for i in 0..3 {
                    // A `*` global size is any multiple of the local size: any number of
                    // groups (GPUVerify's `--local_size=1024 --global_size=*`).
                    if gs.0[i].is_none() {
                        n[i] = ANY_GRID;
                        continue;
                    }
                    if g[i] % block[i] != 0 {
                        return Err(format!(
                            "global size {g:?} is not a multiple of the local size {block:?}"
                        ));
                    }
                    n[i] = g[i] / block[i];
                }
                n
            }
            (None, None) => [1, 1, 1],
        };
        Ok(LaunchConfig { grid, block })
    }

    /// Notes for the user: one line listing ignored flags, one for `*` dimensions.
    pub fn notes(&self) -> Vec<String> {
        let mut v = Vec::new();
        if !self.ignored.is_empty() {
            v.push(format!(
                "note: ignoring flags without a weft meaning: {}",
                self.ignored.join(" ")
            ));
        }
        if self.grid.is_some_and(|d| d.has_any())
            || self.block.is_some_and(|d| d.has_any())
            || self.global_size.is_some_and(|d| d.has_any())
        {
            v.push(format!(
                "note: `*` dimensions run with {ANY_GRID} blocks / {ANY_BLOCK} threads \
                 (give --grid/--block to choose)"
            ));
        }
        v
    }
}

/// Parses `CL1.2`/`1.2`/`CL2.0`/`2.0`.
pub fn parse_cl_std(s: &str) -> Result<OpenClStd, String> {
    match s.trim().trim_start_matches("CL").trim_start_matches("cl") {
        "1.0" | "1.1" | "1.2" => Ok(OpenClStd::Cl12),
        "2.0" | "3.0" => Ok(OpenClStd::Cl20),
        other => Err(format!("unknown OpenCL C version `{other}` (1.2 or 2.0)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpuverify_cuda_header() {
        let s = LaunchSpec::from_header(
            "//pass\n//--blockDim=[64,2] --gridDim=4 -DWIDTH=64 --warp-sync=32 --no-inline\n\
             __global__ void k() {}",
        )
        .unwrap();
        assert_eq!(s.expect, Some(Expectation::Pass));
        assert_eq!(s.block, Some(Dims::fixed([64, 2, 1])));
        assert_eq!(s.grid, Some(Dims::fixed([4, 1, 1])));
        assert_eq!(s.defines, vec!["WIDTH=64"]);
        assert_eq!(s.flags.warp_sync, Some(32));
        assert_eq!(s.ignored, vec!["--no-inline"]);
        assert_eq!(
            s.launch_config().unwrap(),
            LaunchConfig {
                grid: [4, 1, 1],
                block: [64, 2, 1]
            }
        );
    }

    /// PolyBench's kernels as published with GPUVerify start `//PASS` (upper case), then the
    /// flags line.
    #[test]
    fn polybench_upper_case_pass_header() {
        let s = LaunchSpec::from_header(
            "//PASS\n//--local_size=[32] --num_groups=[16]\n\n__kernel void k() {}",
        )
        .unwrap();
        assert_eq!(s.expect, Some(Expectation::Pass));
        assert_eq!(s.block, Some(Dims::fixed([32, 1, 1])));
        assert_eq!(s.grid, Some(Dims::fixed([16, 1, 1])));
    }

    #[test]
    fn opencl_header_with_star_and_kernel_args() {
        let s = LaunchSpec::from_header(
            "//xfail:BOOGIE_ERROR\n//--local_size=[*,16] --global_size=[64,32] \
             --kernel-args=foo,4,* --equality-abstraction --only-intra-group\n\
             //possible write-write race\n\nkernel void foo() {}",
        )
        .unwrap();
        assert_eq!(s.block, Some(Dims([None, Some(16), Some(1)])));
        assert_eq!(s.kernel.as_deref(), Some("foo"));
        assert_eq!(s.positional_args, vec!["4", "*"]);
        assert!(s.flags.equality_abstraction && s.flags.only_intra_group);
        assert_eq!(s.expected_messages, vec!["possible write-write race"]);
        // `*` local size x = 32 (ANY_BLOCK): 64/32 = 2 groups in x, 32/16 = 2 in y.
        let l = s.launch_config().unwrap();
        assert_eq!((l.block, l.grid), ([32, 16, 1], [2, 2, 1]));
        assert_eq!(s.notes().len(), 1);
    }

    #[test]
    fn global_offset_becomes_defines() {
        let s = LaunchSpec::from_header(
            "//PASS\n//--local_size=64 --num_groups=64 --global_offset=[64,0,3]\n",
        )
        .unwrap();
        assert_eq!(
            s.defines,
            vec!["__WEFT_GLOBAL_OFFSET_0=64", "__WEFT_GLOBAL_OFFSET_2=3"]
        );
        assert!(s.ignored.is_empty());
        let mut t = LaunchSpec::default();
        assert!(t.apply_flag("--global_offset=*").is_err());
        assert!(t.apply_flag("--global_offset=[1,2,3,4]").is_err());
        t.apply_flag("--global_offset=5").unwrap();
        assert_eq!(t.defines, vec!["__WEFT_GLOBAL_OFFSET_0=5"]);
    }

    /// GPUVerify's `testsuite/OpenCL/global_size` headers (facts of its test suite: the three
    /// `xfail:COMMAND_LINE_ERROR` kernels and `simple`, which passes with 2x4 groups).
    #[test]
    fn global_size_headers_as_gpuverify_checks_them() {
        let s = LaunchSpec::from_header(
            "//xfail:COMMAND_LINE_ERROR\n//--local_size=[32,64] --global_size=[64,64] \
             --num_groups=[2,1]\n//--num_groups and --global_size are mutually exclusive.\n",
        )
        .unwrap();
        // the third line is an expected message, not a second flags line
        assert_eq!(
            s.expected_messages,
            vec!["--num_groups and --global_size are mutually exclusive."]
        );
        assert!(s.validate().unwrap_err().contains("mutually exclusive"));
        let not_divided =
            LaunchSpec::from_header("//--local_size=[32,64] --global_size=[64,127]\n").unwrap();
        assert!(not_divided.validate().is_err());
        let fewer_dims =
            LaunchSpec::from_header("//--local_size=[32,64] --global_size=[64]\n").unwrap();
        assert!(fewer_dims.validate().is_err());
        let simple =
            LaunchSpec::from_header("//pass\n//--local_size=[32,64] --global_size=[64,256]\n")
                .unwrap();
        simple.validate().unwrap();
        assert_eq!(simple.geometry().unwrap().grid, [2, 4, 1]);
        // testsuite/OpenCL/unconstrained_sizes/global_size (`//pass`): a `*` global size is
        // any multiple of the local size, never "not a multiple" of it.
        let any = LaunchSpec::from_header("//pass\n//--local_size=1024 --global_size=*\n").unwrap();
        any.validate().unwrap();
        assert_eq!(any.geometry().unwrap().grid, [ANY_GRID, 1, 1]);
        // testsuite/OpenCL/fail_equality_and_adversarial: xfail:COMMAND_LINE_ERROR
        let both = LaunchSpec::from_header(
            "//--local_size=2 --num_groups=2 --equality-abstraction --adversarial-abstraction\n",
        )
        .unwrap();
        assert!(both.validate().unwrap_err().contains("mutually exclusive"));
    }

    #[test]
    fn command_line_overrides_header() {
        let h = LaunchSpec::from_header(
            "//--blockDim=64 --gridDim=4 -DN=1 -DM=2 --check-array-bounds\n",
        )
        .unwrap();
        let mut cli = LaunchSpec::default();
        cli.apply_flag("--gridDim=8").unwrap();
        cli.apply_flag("-DN=5").unwrap();
        cli.apply_flag("--local=tmp=256xf32").unwrap();
        let m = LaunchSpec::overridden_by(&h, &cli);
        assert_eq!(m.grid, Some(Dims::fixed([8, 1, 1])));
        assert_eq!(m.block, Some(Dims::fixed([64, 1, 1])));
        assert_eq!(m.defines, vec!["M=2", "N=5"]);
        assert_eq!(m.locals, vec![("tmp".to_string(), 1024)]);
        assert!(m.flags.check_array_bounds);
    }

    #[test]
    fn errors_have_positions() {
        let e = LaunchSpec::from_header("//pass\n//--blockDim=64 --gridDim=x\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 17));
        assert!(LaunchSpec::from_header("//--blockDim=[0]\n").is_err());
        assert!(LaunchSpec::from_header("//--blockDim\n").is_err());
        assert!(LaunchSpec::from_header("//--blockDim=[2048]\n")
            .unwrap()
            .launch_config()
            .is_err());
        assert!(
            LaunchSpec::from_header("//--global_size=100 --local_size=64\n")
                .unwrap()
                .launch_config()
                .is_err()
        );
        assert_eq!(
            LaunchSpec::from_header("// just a comment\n//--blockDim=4\n").unwrap(),
            LaunchSpec::default()
        );
    }
}
