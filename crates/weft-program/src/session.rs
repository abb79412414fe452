//! What the `weft exec`/`race`/`memcheck` command lines name: a built program and its
//! arguments (`-- ./app ARGS...`), or CUDA sources to build first (`app.cu [more.cu] --
//! ARGS...`), and `weft cc`'s nvcc-like arguments.

use std::path::{Path, PathBuf};

use weft_ir::exit::Failure;

use crate::cc::{build, CcOptions};
use crate::run::{run_program, RunOptions, RunResult};

/// The program to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A built executable.
    Exe(PathBuf),
    /// Sources to build first with `weft cc`'s defaults.
    Sources(Vec<PathBuf>),
}

fn is_source(w: &str) -> bool {
    [".cu", ".cpp", ".cc", ".c", ".cxx"]
        .iter()
        .any(|e| w.ends_with(e))
}

/// Splits `words` (everything after the command's own options) into the target and the
/// program's arguments: `[--] ./app ARGS...`, or `FILE.cu... [-- ARGS...]`.
pub fn split_invocation(words: &[String]) -> Result<(Target, Vec<String>), Failure> {
    let words: &[String] = match words.first() {
        Some(w) if w == "--" => &words[1..],
        _ => words,
    };
    let Some(first) = words.first() else {
        return Err(Failure::bad_input(
            "no program: expected `-- ./app ARGS...` or `app.cu [-- ARGS...]`",
        ));
    };
    if is_source(first) {
        let n = words.iter().position(|w| w == "--").unwrap_or(words.len());
        let sources: Vec<PathBuf> = words[..n].iter().map(PathBuf::from).collect();
        if let Some(bad) = sources.iter().find(|s| !is_source(&s.to_string_lossy())) {
            return Err(Failure::bad_input(format!(
                "{}: not a source file (program arguments go after `--`)",
                bad.display()
            )));
        }
        let args = words.get(n + 1..).unwrap_or(&[]).to_vec();
        return Ok((Target::Sources(sources), args));
    }
    Ok((Target::Exe(PathBuf::from(first)), words[1..].to_vec()))
}

/// Builds the target when it is sources (into a temporary directory, kept until the run
/// ends) and runs it.
pub fn run_target(
    target: &Target,
    args: &[String],
    cc: &CcOptions,
    o: &RunOptions,
) -> Result<RunResult, Failure> {
    match target {
        Target::Exe(p) => run_program(p, args, o),
        Target::Sources(srcs) => {
            let dir = tempfile::Builder::new()
                .prefix("weft-exec-")
                .tempdir()
                .map_err(|e| Failure::tool(format!("temporary directory: {e}")))?;
            let stem = srcs[0]
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("app");
            let exe = dir.path().join(stem);
            let opts = CcOptions {
                inputs: srcs.clone(),
                output: exe.clone(),
                ..cc.clone()
            };
            build(&opts)?;
            run_program(&exe, args, o)
        }
    }
}

/// Whether `path` is CUDA source with a `main` (a whole program, not a lone kernel).
pub fn has_main(path: &Path) -> bool {
    let Ok(src) = std::fs::read_to_string(path) else {
        return false;
    };
    let b = src.as_bytes();
    src.match_indices("main").any(|(i, _)| {
        let before = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let rest = src[i + 4..].trim_start();
        before && rest.starts_with('(') && src[..i].trim_end().ends_with("int")
    })
}

/// Whether `path`'s leading comment lines give a launch geometry in GPUVerify's header
/// form (`--gridDim`, `--blockDim`, `--num_groups`, `--local_size`): a kernel to check
/// on its own, even when the file has a `main`.
pub fn has_header_geometry(path: &Path) -> bool {
    let Ok(src) = std::fs::read_to_string(path) else {
        return false;
    };
    let keys = ["--gridDim", "--num_groups", "--blockDim", "--local_size"];
    src.lines()
        .take_while(|l| l.starts_with("//"))
        .any(|l| keys.iter().any(|k| l.contains(k)))
}

/// Parses `weft cc`'s nvcc-like arguments: `-o OUT`, `-I DIR`/`-IDIR`, `-D X`/`-DX`,
/// `-std=X`, `-O N`/`-ON`, `-arch=X`/`-arch X`/`--gpu-architecture X` (accepted),
/// `-lineinfo`/`-g`/`-G` (accepted: line tables are always on), `-x cu`, `-l LIB`/`-lLIB`,
/// `-L DIR`/`-LDIR`, `--old-launch-abi`, then the input files.
pub fn parse_cc_args(words: &[String]) -> Result<CcOptions, Failure> {
    let mut o = CcOptions {
        output: PathBuf::from("a.out"),
        ..CcOptions::default()
    };
    let mut i = 0;
    let value = |i: &mut usize, flag: &str| -> Result<String, Failure> {
        *i += 1;
        words
            .get(*i)
            .cloned()
            .ok_or_else(|| Failure::bad_input(format!("weft cc: {flag} needs a value")))
    };
    while i < words.len() {
        let w = words[i].as_str();
        match w {
            "-o" | "--output-file" => o.output = PathBuf::from(value(&mut i, w)?),
            "-I" | "--include-path" => o.include_dirs.push(PathBuf::from(value(&mut i, w)?)),
            "-D" | "--define-macro" => o.defines.push(value(&mut i, w)?),
            "-O" => o.opt = Some(value(&mut i, w)?),
            "-arch" | "--gpu-architecture" | "-code" | "-gencode" => {
                value(&mut i, w)?;
            }
            "-lineinfo"
            | "--generate-line-info"
            | "-g"
            | "-G"
            | "-c"
            | "--expt-relaxed-constexpr"
            | "--extended-lambda"
            | "-rdc=false"
            | "-Xptxas" => {}
            "-x" => {
                let v = value(&mut i, w)?;
                if v != "cu" {
                    return Err(Failure::bad_input(format!(
                        "weft cc: -x {v}: only `-x cu` is supported"
                    )));
                }
                o.all_cuda = true;
            }
            "-l" => o.link_args.push(format!("-l{}", value(&mut i, w)?)),
            "-L" => o.link_args.push(format!("-L{}", value(&mut i, w)?)),
            "--old-launch-abi" => o.old_launch_abi = true,
            _ if w.starts_with("-std=") => o.std = Some(w[5..].to_string()),
            _ if w.starts_with("--std=") => o.std = Some(w[6..].to_string()),
            _ if w.starts_with("-arch=")
                || w.starts_with("--gpu-architecture=")
                || w.starts_with("-gencode=") => {}
            _ if w.starts_with("-I") => o.include_dirs.push(PathBuf::from(&w[2..])),
            _ if w.starts_with("-D") => o.defines.push(w[2..].to_string()),
            _ if w.starts_with("-O") => o.opt = Some(w[2..].to_string()),
            _ if w.starts_with("-l") || w.starts_with("-L") => o.link_args.push(w.to_string()),
            _ if w.starts_with("-o") && w.len() > 2 => o.output = PathBuf::from(&w[2..]),
            _ if w.starts_with('-') => {
                return Err(Failure::bad_input(format!("weft cc: unknown option `{w}`")))
            }
            _ => o.inputs.push(PathBuf::from(w)),
        }
        i += 1;
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn invocations() {
        let (t, a) = split_invocation(&v(&["--", "./app", "1", "-x"])).unwrap();
        assert_eq!(t, Target::Exe("./app".into()));
        assert_eq!(a, v(&["1", "-x"]));
        let (t, a) = split_invocation(&v(&["a.cu", "b.cpp", "--", "in.txt"])).unwrap();
        assert_eq!(t, Target::Sources(vec!["a.cu".into(), "b.cpp".into()]));
        assert_eq!(a, v(&["in.txt"]));
        assert!(split_invocation(&v(&["a.cu", "x"])).is_err());
        assert!(split_invocation(&[]).is_err());
    }

    #[test]
    fn cc_args() {
        let o = parse_cc_args(&v(&[
            "-o",
            "bin",
            "-I",
            "inc",
            "-DN=4",
            "-std=c++14",
            "-O3",
            "-arch=sm_80",
            "-lineinfo",
            "-lm",
            "a.cu",
            "b.cpp",
        ]))
        .unwrap();
        assert_eq!(o.output, PathBuf::from("bin"));
        assert_eq!(o.include_dirs, vec![PathBuf::from("inc")]);
        assert_eq!(o.defines, v(&["N=4"]));
        assert_eq!(o.std.as_deref(), Some("c++14"));
        assert_eq!(o.opt.as_deref(), Some("3"));
        assert_eq!(o.link_args, v(&["-lm"]));
        assert_eq!(o.inputs.len(), 2);
        assert!(parse_cc_args(&v(&["--bogus"])).is_err());
    }
}
