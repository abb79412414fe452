//! A host-ordered sequence of launches bound to one set of buffers (`weft mc --launch`):
//! each `kernel<<<grid, block>>>(args)` is prepared as a single launch would be (so the
//! source is compiled once, then taken from the compiler cache), and every argument naming a
//! declared `--buffer` binds that one memory, shared by all the launches.

use std::path::Path;

use weft_ir::exit::Failure;
use weft_ir::kernel::Kernel;
use weft_simt::spec::parse_buffer_spec;
use weft_simt::{Arg, Buffer, LaunchConfig};

use super::{prepare, LaunchCall, Prepared};
use crate::launch::LaunchSpec;

/// A host-ordered sequence of launches ready for the model checker: per launch its kernel,
/// geometry, arguments (`Arg::Buffer(i)`: buffer `i` of `buffers`) and label; the buffers
/// are the `--buffer`s the launches name, each one memory for all.
pub struct PreparedSeq {
    pub kernels: Vec<Kernel>,
    pub launches: Vec<LaunchConfig>,
    pub args: Vec<Vec<Arg>>,
    pub labels: Vec<String>,
    pub buffers: Vec<Buffer>,
}

impl From<Prepared> for PreparedSeq {
    /// One launch as a sequence of one, without a label.
    fn from(p: Prepared) -> PreparedSeq {
        PreparedSeq {
            kernels: vec![p.kernel],
            launches: vec![p.launch],
            args: vec![p.args],
            labels: Vec::new(),
            buffers: p.buffers,
        }
    }
}

/// Applies `NAME=VALUE` to `s` as the command-line option `NAME VALUE` would.
fn flag(s: &mut LaunchSpec, name: &str, v: &str) -> Result<(), Failure> {
    s.apply_flag(&format!("{name}={v}"))
        .map_err(|e| Failure::bad_input(format!("{name} {v}: {e}")))
}

/// The declared buffers of `base`: name, and the rest of the option (`COUNT[xTYPE][:INIT]`).
fn declared_buffers(base: &LaunchSpec) -> Result<Vec<(String, String)>, Failure> {
    let mut decl: Vec<(String, String)> = Vec::new();
    for b in &base.buffers {
        parse_buffer_spec(b).map_err(|e| Failure::bad_input(format!("--buffer {e}")))?;
        let (name, rest) = b.split_once('=').unwrap_or((b, ""));
        if decl.iter().any(|(n, _)| n == name) {
            return Err(Failure::bad_input(format!(
                "--buffer {name} is given twice"
            )));
        }
        decl.push((name.to_string(), rest.to_string()));
    }
    Ok(decl)
}

/// Prepares each launch of `calls` through [`prepare`] with the options of `base`: an
/// argument naming a `--buffer` of `base` binds that buffer, any other is a scalar value of
/// its parameter. `base` gives no kernel, geometry or arguments of its own.
pub fn prepare_sequence(
    file: &Path,
    base: &LaunchSpec,
    calls: &[LaunchCall],
    note: &mut dyn FnMut(&str),
) -> Result<PreparedSeq, Failure> {
    if base.grid.is_some()
        || base.block.is_some()
        || base.global_size.is_some()
        || base.kernel.is_some()
        || !base.positional_args.is_empty()
        || !base.args.is_empty()
    {
        return Err(Failure::bad_input(
            "with --launch, give each launch's kernel, grid, block and arguments in its --launch (not --kernel/--grid/--block/--arg)",
        ));
    }
    let decl = declared_buffers(base)?;
    let mut seq = PreparedSeq {
        kernels: Vec::new(),
        launches: Vec::new(),
        args: Vec::new(),
        labels: Vec::new(),
        buffers: Vec::new(),
    };
    // Per declared buffer: its index in `seq.buffers` once a launch binds it.
    let mut slot: Vec<Option<usize>> = vec![None; decl.len()];
    for c in calls {
        let (p, bound) = prepare_call(file, base, &decl, c, note)?;
        let mut args = p.args.clone();
        for a in &mut args {
            if let Arg::Buffer(j) = a {
                let d = bound[*j];
                let mut b = p.buffers[*j].clone();
                b.name = decl[d].0.clone();
                let k = match slot[d] {
                    Some(k) => {
                        let first = &seq.buffers[k];
                        if first.data.len() != b.data.len() {
                            return Err(Failure::bad_input(format!(
                                "--launch {}: buffer {} is {} bytes here but {} in an earlier launch (give its type: --buffer {}=COUNTxTYPE)",
                                c.label(),
                                b.name,
                                b.data.len(),
                                first.data.len(),
                                b.name
                            )));
                        }
                        k
                    }
                    None => {
                        seq.buffers.push(b);
                        slot[d] = Some(seq.buffers.len() - 1);
                        seq.buffers.len() - 1
                    }
                };
                *a = Arg::Buffer(k);
            }
        }
        seq.kernels.push(p.kernel);
        seq.launches.push(p.launch);
        seq.args.push(args);
        seq.labels.push(c.label());
    }
    if let Some(d) = slot.iter().position(|s| s.is_none()) {
        return Err(Failure::bad_input(format!(
            "--buffer {} is passed to no --launch",
            decl[d].0
        )));
    }
    Ok(seq)
}

/// Prepares one launch of a sequence; returns it with, per buffer it binds, the declared
/// buffer that buffer comes from.
fn prepare_call(
    file: &Path,
    base: &LaunchSpec,
    decl: &[(String, String)],
    c: &LaunchCall,
    note: &mut dyn FnMut(&str),
) -> Result<(Prepared, Vec<usize>), Failure> {
    let mut bound = Vec::new();
    let p = (|| {
        let mut s = base.clone();
        s.buffers.clear();
        flag(&mut s, "--grid", &c.grid)?;
        flag(&mut s, "--block", &c.block)?;
        for (i, a) in c.args.iter().enumerate() {
            match decl.iter().position(|(n, _)| n == a) {
                Some(d) => {
                    s.buffers.push(format!("{i}={}", decl[d].1));
                    bound.push(d);
                }
                None => flag(&mut s, "--arg", &format!("{i}={a}"))?,
            }
        }
        s.kernel = Some(c.kernel.clone());
        prepare(file, &s, note)
    })()
    .map_err(|f| f.context(c.label()))?;
    if p.kernel.params.len() != c.args.len() {
        return Err(Failure::bad_input(format!(
            "--launch {}: {} takes {} arguments, {} given",
            c.label(),
            c.kernel,
            p.kernel.params.len(),
            c.args.len()
        )));
    }
    if p.local_params > 0 || p.buffers.len() != bound.len() {
        return Err(Failure::bad_input(format!(
            "--launch {}: OpenCL __local parameters are not supported in a launch sequence",
            c.label()
        )));
    }
    Ok((p, bound))
}
