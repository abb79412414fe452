//! An enumerated suite as `weft gen -o DIR` writes it: every generated cycle built into a
//! test and printed in one format (in parallel; a test the format cannot express is
//! skipped with the reason), optionally labelled allowed/forbidden by a caller's model, and
//! the `@all` index diy7 writes beside the tests. The labelling is the caller's (a
//! simulator), so that this crate does not depend on one.

use rayon::prelude::*;
use weft_ir::Program;
use weft_litmus::Format;

use crate::build::{build, BuildOptions, Target};
use crate::cycle::{seq_text, Cycle};
use crate::enumerate::Generated;

/// The target a format's tests are built for.
pub fn target_of(f: Format) -> Target {
    match f {
        Format::C => Target::C,
        Format::Ptx | Format::GpuPtx => Target::Ptx,
        Format::Vulkan => Target::Vulkan,
        Format::OpenCl => Target::OpenCl,
        Format::Json => Target::WebGpu,
    }
}

/// The memory model `--check` judges a format's tests by.
pub fn default_model(f: Format) -> &'static str {
    match f {
        Format::C => "rc11",
        Format::Ptx => "ptx-v7.5",
        Format::GpuPtx => "ptx-asplos15",
        Format::Vulkan => "vulkan",
        Format::OpenCl => "opencl",
        Format::Json => "webgpu",
    }
}

/// The test of one cycle given as text (`weft gen --cycle`): its name, program and text
/// in `format`. As diyone7, the test keeps the cycle's rotation when its family names it,
/// otherwise it is built from the rotation diy7 would choose, and has no `Cycle=` line.
/// `Err`: why the cycle cannot be parsed, built or printed.
pub fn one(
    cycle: &str,
    format: Format,
    opts: &BuildOptions,
) -> Result<(String, Program, String), String> {
    let c = Cycle::parse(cycle).map_err(|e| e.to_string())?;
    let (c, name) = match crate::name::name_of(&c) {
        Some(n) => (c, n),
        None => crate::name::normalise(&c),
    };
    let target = target_of(format);
    let mut p = build(&c, &name, target, opts)
        .map_err(|e| format!("{name}: cannot build for {}: {e}", target.name()))?;
    p.meta.retain(|(k, _)| k != "Cycle");
    let text = weft_litmus::print(&p, format)
        .map_err(|e| format!("{name}: {} cannot express this test: {e}", format.name()))?;
    Ok((name, p, text))
}

/// Whether a test's condition is reachable under a model (`Err`: the check failed).
pub type Labeller<'a> = dyn Fn(&Program) -> Result<bool, String> + Sync + 'a;

/// One test of a suite: its name, its text, and its label when a model judged it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteFile {
    pub name: String,
    pub text: String,
    pub allowed: Option<bool>,
}

/// Builds and prints every test of `tests`; returns the tests and, for each one skipped,
/// why (`NAME: reason`), both in the order of `tests`.
pub fn build_suite(
    tests: &[Generated],
    opts: &BuildOptions,
    format: Format,
    label: Option<&Labeller>,
) -> (Vec<SuiteFile>, Vec<String>) {
    let target = target_of(format);
    let built: Vec<Result<SuiteFile, String>> = tests
        .par_iter()
        .map(|g| {
            let mut p =
                build(&g.cycle, &g.name, target, opts).map_err(|e| format!("{}: {e}", g.name))?;
            p.meta.insert(1, ("Relax".into(), seq_text(&g.relax)));
            p.meta.insert(2, ("Safe".into(), seq_text(&g.safe)));
            let text = weft_litmus::print(&p, format)
                .map_err(|e| format!("{}: {} cannot express it: {e}", g.name, format.name()))?;
            let allowed = match label {
                Some(l) => Some(l(&p).map_err(|e| format!("{}: simulation failed: {e}", g.name))?),
                None => None,
            };
            Ok(SuiteFile {
                name: g.name.clone(),
                text,
                allowed,
            })
        })
        .collect();
    let (mut files, mut skipped) = (Vec::new(), Vec::new());
    for b in built {
        match b {
            Ok(f) => files.push(f),
            Err(e) => skipped.push(e),
        }
    }
    (files, skipped)
}

/// The `@all` index: `header`, one line per file (`NAME.EXT`, `# allowed`/`# forbidden`
/// when labelled), one `# skipped` line per skipped test; with the allowed and forbidden
/// counts.
pub fn index(
    header: &str,
    ext: &str,
    files: &[SuiteFile],
    skipped: &[String],
) -> (String, usize, usize) {
    let mut index = header.to_string();
    let (mut allowed, mut forbidden) = (0, 0);
    for f in files {
        let file = format!("{}.{ext}", f.name);
        match f.allowed {
            Some(true) => {
                allowed += 1;
                index.push_str(&format!("{file} # allowed\n"));
            }
            Some(false) => {
                forbidden += 1;
                index.push_str(&format!("{file} # forbidden\n"));
            }
            None => index.push_str(&format!("{file}\n")),
        }
    }
    for s in skipped {
        index.push_str(&format!("# skipped {s}\n"));
    }
    (index, allowed, forbidden)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_lines() {
        let f = |name: &str, allowed| SuiteFile {
            name: name.into(),
            text: String::new(),
            allowed,
        };
        let files = [f("MP", Some(true)), f("SB", Some(false)), f("LB", None)];
        let (text, a, fb) = index("# h\n", "litmus", &files, &["X: no".to_string()]);
        assert_eq!(
            text,
            "# h\nMP.litmus # allowed\nSB.litmus # forbidden\nLB.litmus\n# skipped X: no\n"
        );
        assert_eq!((a, fb), (1, 1));
    }
}
