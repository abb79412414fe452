//! Launch geometry and expected verdicts from GPUVerify-style header comments (paper 002 §2
//! and GPUVerify's test suite conventions).
//!
//! A kernel file may start with `//` comment lines such as
//!
//! ```text
//! //xfail:BOOGIE_ERROR
//! //--blockDim=64 --gridDim=4 --warp-sync=32
//! //possible write-write race
//! ```
//!
//! The leading comment block is read line by line: `pass` or `xfail:KIND` sets the expected
//! result; a line with `--` flags gives the geometry (`--blockDim`/`--gridDim` for CUDA,
//! `--local_size`/`--num_groups` or `--global_size` for OpenCL; a value is `N`, `[x,y]`,
//! `[x,y,z]` or `x,y,z`); any other comment line in the block, after the flags, is an expected
//! error message (meaningful for `xfail`). Unknown flags are kept, never dropped.

/// A kernel launch shape: grid of blocks (work-groups) and block of threads (work-items).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaunchConfig {
    /// Blocks per grid (CUDA `gridDim`, OpenCL `num_groups`), x/y/z.
    pub grid: [u32; 3],
    /// Threads per block (CUDA `blockDim`, OpenCL `local_size`), x/y/z.
    pub block: [u32; 3],
}

impl LaunchConfig {
    /// Total number of threads in the launch.
    pub fn total_threads(&self) -> u64 {
        self.grid
            .iter()
            .chain(&self.block)
            .map(|&d| d as u64)
            .product()
    }
}

impl Default for LaunchConfig {
    fn default() -> Self {
        LaunchConfig {
            grid: [1, 1, 1],
            block: [1, 1, 1],
        }
    }
}

/// The verdict a kernel file says it expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// `//pass`: the kernel is correct (race-free, no barrier divergence, ...).
    Pass,
    /// `//xfail:KIND`: the tool is expected to fail with `KIND` (e.g. `BOOGIE_ERROR`).
    Xfail(String),
}

/// Everything read from a kernel's header comments.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct KernelHeader {
    /// The launch geometry, when the flags line gives one.
    pub launch: Option<LaunchConfig>,
    /// The expected verdict, when there is a `pass`/`xfail:` line.
    pub expect: Option<Expectation>,
    /// `--warp-sync=N`, when given.
    pub warp_size: Option<u32>,
    /// Flags not interpreted here, verbatim (`--no-inline`, `--equality-abstraction`, ...).
    pub other_flags: Vec<String>,
    /// Further comment lines after the flags (expected error messages for `xfail`).
    pub expected_messages: Vec<String>,
}

/// A malformed header comment, with its 1-based position: weft's one diagnostic type.
pub use weft_diag::Diagnostic as HeaderError;

/// Parses a dimension value: `64`, `[64,2]`, `[64,2,1]` or `64,2` (missing ones are 1).
pub fn parse_dims(text: &str) -> Result<[u32; 3], String> {
    let t = text.trim();
    let inner = t
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .or_else(|| t.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .unwrap_or(t);
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("`{text}`: expected 1 to 3 dimensions"));
    }
    let mut out = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        let v = if let Some(h) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
            u32::from_str_radix(h, 16)
        } else {
            p.parse::<u32>()
        };
        match v {
            Ok(0) => return Err(format!("`{text}`: a dimension cannot be 0")),
            Ok(v) => out[i] = v,
            Err(_) => return Err(format!("`{text}`: `{p}` is not a positive integer")),
        }
    }
    Ok(out)
}

/// Reads the leading `//` comment block of a kernel source.
pub fn parse_header(source: &str) -> Result<KernelHeader, HeaderError> {
    let mut h = KernelHeader::default();
    let mut block = None;
    let mut grid = None;
    let mut global = None;
    let mut saw_flags = false;
    for (idx, raw) in source.lines().enumerate() {
        let line_no = idx as u32 + 1;
        let trimmed = raw.trim_start();
        if trimmed.is_empty() && !saw_flags && h.expect.is_none() {
            continue;
        }
        let Some(body) = trimmed.strip_prefix("//") else {
            break;
        };
        let col0 = (raw.len() - trimmed.len()) as u32 + 3;
        let text = body.trim();
        if text == "pass" {
            h.expect = Some(Expectation::Pass);
        } else if let Some(kind) = text.strip_prefix("xfail:") {
            let kind = kind.trim();
            if kind.is_empty() {
                return Err(HeaderError::new(
                    line_no,
                    col0,
                    "`xfail:` needs a kind (such as BOOGIE_ERROR)",
                ));
            }
            h.expect = Some(Expectation::Xfail(kind.to_string()));
        } else if text.starts_with("--") && !saw_flags {
            saw_flags = true;
            let mut offset = 0usize;
            for word in body.split_whitespace() {
                let pos = body[offset..].find(word).map(|p| p + offset).unwrap_or(0);
                offset = pos + word.len();
                let col = col0 + pos as u32;
                let err = |m: String| {
                    HeaderError::new(line_no, col, m).with_len(word.chars().count() as u32)
                };
                let (name, value) = match word.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (word, None),
                };
                let dims = |v: Option<&str>| -> Result<[u32; 3], HeaderError> {
                    match v {
                        Some(v) => parse_dims(v).map_err(|m| err(format!("{name}: {m}"))),
                        None => Err(err(format!("`{name}` needs a value (`{name}=64`)"))),
                    }
                };
                match name {
                    "--blockDim" | "--local_size" => block = Some(dims(value)?),
                    "--gridDim" | "--num_groups" => grid = Some(dims(value)?),
                    "--global_size" => global = Some((dims(value)?, line_no, col)),
                    "--warp-sync" => match value.and_then(|v| v.parse::<u32>().ok()) {
                        Some(w) if w > 0 => h.warp_size = Some(w),
                        _ => return Err(err("`--warp-sync` needs a positive size".into())),
                    },
                    _ if word.starts_with("--") => h.other_flags.push(word.to_string()),
                    _ => {
                        return Err(err(format!(
                            "`{word}` is not a `--flag` (header flags line)"
                        )))
                    }
                }
            }
        } else if saw_flags || h.expect.is_some() {
            if !text.is_empty() {
                h.expected_messages.push(text.to_string());
            }
        } else {
            // An ordinary leading comment before any marker: not a GPUVerify header.
            break;
        }
    }
    if let (Some((g, line, col)), None) = (global, grid) {
        let b = block.unwrap_or([1, 1, 1]);
        let mut n = [1u32; 3];
        for i in 0..3 {
            if g[i] % b[i] != 0 {
                return Err(HeaderError::new(
                    line,
                    col,
                    format!(
                        "--global_size {:?} is not a multiple of --local_size {:?}",
                        g, b
                    ),
                ));
            }
            n[i] = g[i] / b[i];
        }
        grid = Some(n);
    }
    if block.is_some() || grid.is_some() {
        h.launch = Some(LaunchConfig {
            grid: grid.unwrap_or([1, 1, 1]),
            block: block.unwrap_or([1, 1, 1]),
        });
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_header() {
        let h =
            parse_header("//pass\n//--blockDim=64 --gridDim=4\n__global__ void k() {}").unwrap();
        assert_eq!(h.expect, Some(Expectation::Pass));
        assert_eq!(
            h.launch,
            Some(LaunchConfig {
                grid: [4, 1, 1],
                block: [64, 1, 1]
            })
        );
    }

    #[test]
    fn bracketed_and_opencl() {
        let h = parse_header(
            "//xfail:BOOGIE_ERROR\n//--local_size=[16,16] --num_groups=[2,3] --no-inline\n\
             //possible write-write race\n\nkernel void k() {}",
        )
        .unwrap();
        assert_eq!(h.expect, Some(Expectation::Xfail("BOOGIE_ERROR".into())));
        assert_eq!(
            h.launch,
            Some(LaunchConfig {
                grid: [2, 3, 1],
                block: [16, 16, 1]
            })
        );
        assert_eq!(h.other_flags, vec!["--no-inline".to_string()]);
        assert_eq!(h.expected_messages, vec!["possible write-write race"]);
    }

    #[test]
    fn flags_only_first_line_and_global_size() {
        let h = parse_header("//--global_size=256 --local_size=64 --warp-sync=32\nx").unwrap();
        assert_eq!(h.launch.unwrap().grid, [4, 1, 1]);
        assert_eq!(h.warp_size, Some(32));
        assert_eq!(h.expect, None);
    }

    #[test]
    fn no_header() {
        let h = parse_header("// just a comment\n__global__ void k() {}").unwrap();
        assert_eq!(h, KernelHeader::default());
    }

    #[test]
    fn errors_have_positions() {
        let e = parse_header("//pass\n//--blockDim=64 --gridDim=x\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 17));
        assert!(e.message.contains("--gridDim"), "{e}");
        let e = parse_header("//--blockDim=[0,1]\n").unwrap_err();
        assert!(e.message.contains("cannot be 0"));
        assert!(parse_header("//--blockDim\n").is_err());
        assert!(parse_header("//xfail:\n").is_err());
        assert!(parse_dims("[1,2,3,4]").is_err());
        assert_eq!(parse_dims("0x10,2").unwrap(), [16, 2, 1]);
    }
}
