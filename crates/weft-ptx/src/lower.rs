//! Lowering of a parsed PTX kernel ([`crate::ast`]) to weft's kernel IR
//! ([`weft_ir::kernel::Kernel`]): registers and variables resolved to indices, labels to
//! instruction indices, qualifiers to [`MemAttrs`] (PTX ISA §8 `.sem`/`.scope`, §5.1 state
//! spaces, §9.7 instruction semantics).
//!
//! Every instruction is either lowered faithfully or refused with a [`LowerError`] naming the
//! instruction and its `line:col`; nothing is skipped. Calls of device functions defined in the
//! module are inlined (registers and labels renamed per call site, `.param` call-sequence
//! variables become per-thread storage); recursion and external functions are refused.

use std::collections::HashMap;

use weft_ir::attrs::{
    BarrierKind, DataType, FenceKind, MemAttrs, MemSpace, Order, RmwOp, TypeKind,
};
use weft_ir::code::Reg;
use weft_ir::kernel::{
    Addr, AddrBase, BarRed, KBinOp, KBoolOp, KCmp, KGuard, KInstr, KOp, KParam, KReg, KUnOp, KVar,
    Kernel, MatchMode as KMatch, Operand as KOperand, Rounding, ShflMode as KShfl,
    SpecialReg as KSreg, SrcLoc, VoteMode as KVote,
};
use weft_ir::{Scope as IrScope, Span as IrSpan};

use crate::ast::*;
use crate::error::ParseError;

/// A lowering error: same shape as a parse error (`line:col: message`).
pub type LowerError = ParseError;

type LResult<T> = Result<T, LowerError>;

fn err(span: crate::lexer::Span, msg: impl Into<String>) -> LowerError {
    ParseError::new(span.line, span.col, msg)
}

/// Lowers the kernel called `name` (or the only kernel, when `name` is `None`) of `module`.
pub fn lower_kernel(module: &Module, name: Option<&str>) -> LResult<Kernel> {
    let f = pick_kernel(module, name)?;
    Lowerer::new(module, f)?
        .run()
        .map_err(|mut v| v.swap_remove(0))
}

/// Like [`lower_kernel`], but reports every distinct unsupported construct once (in source
/// order, each message naming its first `line:col`, the kernel source line it came from when
/// the PTX has line tables, and how often it occurs) instead of stopping at the first.
pub fn lower_kernel_all(module: &Module, name: Option<&str>) -> Result<Kernel, Vec<LowerError>> {
    let f = pick_kernel(module, name).map_err(|e| vec![e])?;
    Lowerer::new(module, f).map_err(|e| vec![e])?.run()
}

/// Like [`lower_kernel_all`]; with `havoc_external`, a call of a function declared but not
/// defined in the module is lowered as GPUVerify treats a procedure without a body: no effect
/// on memory, arbitrary results ([`weft_ir::kernel::QueryKind::Havoc`]). The front-end sets
/// it only for functions the kernel's own source declares.
pub fn lower_kernel_with(
    module: &Module,
    name: Option<&str>,
    havoc_external: bool,
) -> Result<Kernel, Vec<LowerError>> {
    let f = pick_kernel(module, name).map_err(|e| vec![e])?;
    let mut l = Lowerer::new(module, f).map_err(|e| vec![e])?;
    l.havoc_external = havoc_external;
    l.run()
}

fn pick_kernel<'m>(module: &'m Module, name: Option<&str>) -> LResult<&'m Function> {
    let kernels: Vec<&Function> = module.kernels().collect();
    Ok(match name {
        Some(n) => kernels
            .iter()
            .find(|k| k.name == n || crate_demangle(&k.name) == n)
            .copied()
            .ok_or_else(|| {
                ParseError::new(
                    1,
                    1,
                    format!(
                        "no kernel `{n}` in the module (kernels: {})",
                        kernels
                            .iter()
                            .map(|k| k.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })?,
        None => match kernels.as_slice() {
            [k] => *k,
            [] => {
                return Err(ParseError::new(
                    1,
                    1,
                    "the module defines no kernel (`.entry`)",
                ))
            }
            ks => {
                return Err(ParseError::new(
                    1,
                    1,
                    format!(
                        "the module defines {} kernels; name one ({})",
                        ks.len(),
                        ks.iter()
                            .map(|k| k.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ))
            }
        },
    })
}

/// Where function `name` lives for function pointers: a window no memory maps to (so a
/// load through a function pointer faults), 16 bytes per function of the module in order.
pub const FUNCTION_WINDOW: u64 = 0x7c00_0000_0000;

fn function_address(module: &Module, name: &str) -> u64 {
    let mut names: Vec<&str> = Vec::new();
    for f in module.functions() {
        if !names.contains(&f.name.as_str()) {
            names.push(&f.name);
        }
    }
    let ix = names.iter().position(|n| *n == name).unwrap_or(names.len());
    FUNCTION_WINDOW + 16 * (ix as u64 + 1)
}

/// What a marker call of `weft_gpuverify.h` becomes.
enum Marker {
    Annot(weft_ir::kernel::AnnotKind),
    Query(weft_ir::kernel::QueryKind),
    /// A CUDA system call (`vprintf`, `__assertfail`) kept as [`KOp::SysCall`].
    Sys(weft_ir::kernel::SysFunc),
}

fn annot_kind(name: &str, i: &Instruction) -> LResult<weft_ir::kernel::AnnotKind> {
    use weft_ir::kernel::AnnotKind as A;
    Ok(match name {
        "assert" => A::Assert,
        "global_assert" => A::GlobalAssert,
        "assume" => A::Assume,
        "requires" => A::Requires,
        "global_requires" => A::GlobalRequires,
        "ensures" => A::Ensures,
        "global_ensures" => A::GlobalEnsures,
        "invariant" => A::Invariant,
        "global_invariant" => A::GlobalInvariant,
        "function_wide_invariant" => A::FunctionWideInvariant,
        "candidate_invariant" => A::CandidateInvariant,
        "axiom" => A::Axiom,
        "fresh_array" => A::RequiresFreshArray,
        other => {
            return Err(err(
                i.span,
                format!("unknown annotation `__weft_annot_{other}`"),
            ))
        }
    })
}

fn query_kind(name: &str, i: &Instruction) -> LResult<weft_ir::kernel::QueryKind> {
    use weft_ir::kernel::QueryKind as Q;
    Ok(match name {
        "read" => Q::Read,
        "write" => Q::Write,
        "atomic" => Q::Atomic,
        "read_offset" => Q::ReadOffset,
        "write_offset" => Q::WriteOffset,
        "ptr_base" => Q::PtrBase,
        "ptr_offset" => Q::PtrOffset,
        "enabled" => Q::Enabled,
        "dominator_enabled" => Q::DominatorEnabled,
        "same_group" => Q::SameGroup,
        "other_int" => Q::OtherInt,
        "uniform_int" => Q::UniformInt,
        "distinct_int" => Q::DistinctInt,
        "other_ptr" => Q::OtherPtr,
        "all" => Q::All,
        "at_most_one" => Q::AtMostOne,
        "old_int" => Q::OldInt,
        "return_val_int" | "return_val_ptr" => Q::ReturnVal,
        "no_overflow_add" => Q::NoOverflowAdd,
        "no_overflow_add_unsigned" => Q::NoOverflowAddUnsigned,
        "uf" => Q::Uf,
        "atomic_has_taken_value" => Q::AtomicHasTakenValue,
        "havoc" => Q::Havoc,
        other => return Err(err(i.span, format!("unknown query `__weft_query_{other}`"))),
    })
}

/// Marks each annotation whose condition depends (through registers or variables, flow-
/// insensitively) on a query that is not thread-local as not `thread_local`.
fn settle_annotations(code: &mut [KInstr], nregs: usize, nvars: usize) {
    let mut reg = vec![false; nregs];
    let mut var = vec![false; nvars];
    let mut changed = true;
    while changed {
        changed = false;
        for ins in code.iter() {
            let mut t = ins
                .op
                .uses()
                .iter()
                .any(|g| reg.get(g.index()).copied().unwrap_or(false));
            match &ins.op {
                KOp::Query { kind, .. } if !kind.thread_local() => t = true,
                KOp::Ld {
                    addr:
                        Addr {
                            base: AddrBase::Var(v),
                            ..
                        },
                    ..
                } => t |= var.get(*v as usize).copied().unwrap_or(false),
                KOp::St {
                    addr:
                        Addr {
                            base: AddrBase::Var(v),
                            ..
                        },
                    ..
                } if t => {
                    if let Some(x) = var.get_mut(*v as usize) {
                        if !*x {
                            *x = true;
                            changed = true;
                        }
                    }
                }
                _ => {}
            }
            if t {
                for g in ins.op.defs() {
                    if let Some(x) = reg.get_mut(g.index()) {
                        if !*x {
                            *x = true;
                            changed = true;
                        }
                    }
                }
            }
        }
    }
    for ins in code.iter_mut() {
        if let KOp::Annot {
            cond: KOperand::Reg(g),
            thread_local,
            ..
        } = &mut ins.op
        {
            *thread_local = !reg.get(g.index()).copied().unwrap_or(true);
        }
    }
}

/// `_Z6kernelPi` → `kernel` (the length-prefixed name of a simple Itanium mangling).
fn crate_demangle(name: &str) -> &str {
    let Some(rest) = name.strip_prefix("_Z") else {
        return name;
    };
    let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
    let Ok(n) = rest[..digits].parse::<usize>() else {
        return name;
    };
    rest.get(digits..digits + n).unwrap_or(name)
}

/// Converts a PTX type; `None` for types the IR does not model (half precision, `.b128`).
pub fn data_type(t: ScalarType) -> Option<DataType> {
    use ScalarType::*;
    let (kind, bits) = match t {
        B8 => (TypeKind::Bits, 8),
        B16 => (TypeKind::Bits, 16),
        B32 => (TypeKind::Bits, 32),
        B64 => (TypeKind::Bits, 64),
        U8 => (TypeKind::Unsigned, 8),
        U16 => (TypeKind::Unsigned, 16),
        U32 => (TypeKind::Unsigned, 32),
        U64 => (TypeKind::Unsigned, 64),
        S8 => (TypeKind::Signed, 8),
        S16 => (TypeKind::Signed, 16),
        S32 => (TypeKind::Signed, 32),
        S64 => (TypeKind::Signed, 64),
        F32 => (TypeKind::Float, 32),
        F64 => (TypeKind::Float, 64),
        Pred => return Some(DataType::PRED),
        B128 | F16 | F16x2 | Bf16 | Bf16x2 | Tf32 => return None,
    };
    Some(DataType { kind, bits })
}

fn space_of(s: Option<StateSpace>) -> Option<MemSpace> {
    Some(match s {
        None => MemSpace::Generic,
        Some(StateSpace::Global) => MemSpace::Global,
        Some(StateSpace::Shared | StateSpace::SharedCta) => MemSpace::Shared,
        Some(StateSpace::Local) => MemSpace::Local,
        Some(StateSpace::Const) => MemSpace::Constant,
        Some(StateSpace::Param | StateSpace::ParamEntry) => MemSpace::Param,
        Some(_) => return None,
    })
}

struct Lowerer<'a> {
    module: &'a Module,
    f: &'a Function,
    regs: Vec<KReg>,
    reg_ix: HashMap<String, Reg>,
    vars: Vec<KVar>,
    var_ix: HashMap<String, u32>,
    params: Vec<KParam>,
    param_ix: HashMap<String, u32>,
    code: Vec<KInstr>,
    labels: HashMap<String, u32>,
    /// (instruction index, label, span) of branches to resolve.
    fixups: Vec<(usize, String, crate::lexer::Span)>,
    loc: Option<SrcLoc>,
    /// Name prefix of the function body being lowered (empty for the kernel, `f#N:` for the
    /// N-th inlined call).
    prefix: String,
    /// Functions being inlined, innermost last (recursion is refused).
    call_stack: Vec<String>,
    inlined: usize,
    /// `.file` indices of weft's shim headers: their lines are not the user's.
    shim_files: Vec<u32>,
    /// Call sites of inlined positions: `(file, line, col)` → its `inlined_at`, from every
    /// `.loc` seen (the links of an inlining chain).
    inlined_sites: HashMap<(u32, u32, u32), (u32, u32, u32)>,
    /// Unsupported instructions met so far: (error, source line, occurrences).
    errors: Vec<(LowerError, Option<SrcLoc>, u32)>,
    /// Lower calls of bodiless functions as havoc (see [`lower_kernel_with`]).
    havoc_external: bool,
}

fn var_size(ty: ScalarType, vector: Option<VecWidth>, dims: &[Option<u64>]) -> u64 {
    let elem = u64::from(ty.bits().max(8) / 8)
        * match vector {
            None => 1,
            Some(VecWidth::V2) => 2,
            Some(VecWidth::V4) => 4,
            Some(VecWidth::V8) => 8,
        };
    dims.iter()
        .fold(elem, |acc, d| acc.saturating_mul(d.unwrap_or(0)))
}

fn flatten_init(init: &Initializer, ty: ScalarType, out: &mut Vec<u8>) -> Result<(), String> {
    let width = (ty.bits().max(8) / 8) as usize;
    let push = |out: &mut Vec<u8>, bits: u64| out.extend_from_slice(&bits.to_le_bytes()[..width]);
    match init {
        Initializer::Int(v) => {
            if ty.is_float() {
                let f = *v as f64;
                push(
                    out,
                    if width == 4 {
                        (f as f32).to_bits() as u64
                    } else {
                        f.to_bits()
                    },
                )
            } else {
                push(out, *v as u64)
            }
        }
        Initializer::F32(b) => push(out, u64::from(*b)),
        Initializer::F64(b) => push(out, *b),
        Initializer::Float(f) => push(
            out,
            if width == 4 {
                (*f as f32).to_bits() as u64
            } else {
                f.to_bits()
            },
        ),
        Initializer::List(items) => {
            for i in items {
                flatten_init(i, ty, out)?;
            }
        }
        Initializer::Symbol { name, .. } => {
            return Err(format!("address initialisers (`{name}`) are not supported"))
        }
    }
    Ok(())
}

impl<'a> Lowerer<'a> {
    fn new(module: &'a Module, f: &'a Function) -> LResult<Self> {
        let mut l = Lowerer {
            module,
            f,
            regs: Vec::new(),
            reg_ix: HashMap::new(),
            vars: Vec::new(),
            var_ix: HashMap::new(),
            params: Vec::new(),
            param_ix: HashMap::new(),
            code: Vec::new(),
            labels: HashMap::new(),
            fixups: Vec::new(),
            loc: None,
            prefix: String::new(),
            call_stack: Vec::new(),
            inlined: 0,
            errors: Vec::new(),
            havoc_external: false,
            inlined_sites: HashMap::new(),
            shim_files: module
                .items
                .iter()
                .filter_map(|it| match it {
                    Item::File { index, path, .. }
                        if path.ends_with("weft_cuda.h") || path.ends_with("weft_opencl.h") =>
                    {
                        Some(*index)
                    }
                    _ => None,
                })
                .collect(),
        };
        // Parameters, laid out in order at their natural alignment (§5.1.6).
        let mut off = 0u32;
        for p in &f.params {
            let ty = data_type(p.ty).ok_or_else(|| {
                err(
                    p.span,
                    format!("parameter type `{}` is not supported", p.ty),
                )
            })?;
            if p.dims.iter().any(|d| d.is_none()) {
                return Err(err(p.span, "unsized array parameters are not supported"));
            }
            let size = var_size(p.ty, p.vector, &p.dims) as u32;
            let align = p.align.unwrap_or((p.ty.bits().max(8) / 8).max(1)).max(1);
            off = off.div_ceil(align) * align;
            l.param_ix.insert(p.name.clone(), l.params.len() as u32);
            l.params.push(KParam {
                name: p.name.clone(),
                ty,
                size,
                offset: off,
            });
            off += size;
        }
        // Module-scope variables, then the kernel's own.
        for v in module.variables() {
            l.add_var(v)?;
        }
        Ok(l)
    }

    fn add_var(&mut self, v: &Variable) -> LResult<()> {
        let space = match v.space {
            // `.param` variables of a body are call-sequence arguments: per-thread storage.
            StateSpace::Param | StateSpace::ParamFunc => MemSpace::Local,
            StateSpace::Global => MemSpace::Global,
            StateSpace::Const => MemSpace::Constant,
            StateSpace::Shared | StateSpace::SharedCta => MemSpace::Shared,
            StateSpace::Local => MemSpace::Local,
            other => {
                return Err(err(
                    v.span,
                    format!("variables in `{other}` are not supported"),
                ))
            }
        };
        let size = var_size(v.ty, v.vector, &v.dims);
        let mut init = Vec::new();
        if let Some(i) = &v.init {
            flatten_init(i, v.ty, &mut init).map_err(|m| err(v.span, m))?;
        }
        let align = v.align.unwrap_or((v.ty.bits().max(8) / 8).max(1));
        self.var_ix
            .insert(format!("{}{}", self.prefix, v.name), self.vars.len() as u32);
        self.vars.push(KVar {
            name: v.name.clone(),
            space,
            size,
            align,
            init,
        });
        Ok(())
    }

    fn run(mut self) -> Result<Kernel, Vec<LowerError>> {
        let body = self
            .f
            .body
            .as_ref()
            .expect("kernels() yields defined functions");
        if let Err(e) = self.walk(body) {
            self.record(e);
        }
        if !self.errors.is_empty() {
            let files: HashMap<u32, &str> = self
                .module
                .items
                .iter()
                .filter_map(|it| match it {
                    Item::File { index, path, .. } => Some((*index, path.as_str())),
                    _ => None,
                })
                .collect();
            return Err(self
                .errors
                .into_iter()
                .map(|(mut e, loc, n)| {
                    if let Some(l) = loc {
                        let file = files.get(&l.file).copied().unwrap_or("?");
                        let file = file.rsplit('/').next().unwrap_or(file);
                        e.origin = Some((file.to_string(), l.line, l.col));
                    }
                    e.occurrences = n;
                    e
                })
                .collect());
        }
        for (pc, label, span) in std::mem::take(&mut self.fixups) {
            let t = *self
                .labels
                .get(&label)
                .ok_or_else(|| vec![err(span, format!("branch to undefined label `{label}`"))])?;
            if let KOp::Bra { target } = &mut self.code[pc].op {
                *target = t;
            }
        }
        let mut files = Vec::new();
        for it in &self.module.items {
            if let Item::File { index, path, .. } = it {
                files.push((*index, path.clone()));
            }
        }
        let reqntid = self.f.directives.iter().find_map(|d| match d {
            FunctionDirective::Reqntid(v) => {
                let mut a = [1u32; 3];
                for (i, x) in v.iter().take(3).enumerate() {
                    a[i] = *x;
                }
                Some(a)
            }
            _ => None,
        });
        settle_annotations(&mut self.code, self.regs.len(), self.vars.len());
        let param_bytes = self
            .params
            .iter()
            .map(|p| p.offset + p.size)
            .max()
            .unwrap_or(0);
        Ok(Kernel {
            name: self.f.name.clone(),
            params: self.params,
            param_bytes,
            regs: self.regs,
            vars: self.vars,
            code: self.code,
            files,
            reqntid,
        })
    }

    fn walk(&mut self, body: &[Statement]) -> LResult<()> {
        for s in body {
            match s {
                Statement::Reg(d) => {
                    let ty = data_type(d.ty).ok_or_else(|| {
                        err(d.span, format!("register type `{}` is not supported", d.ty))
                    })?;
                    if d.vector.is_some() {
                        return Err(err(d.span, "vector registers are not supported"));
                    }
                    for n in &d.names {
                        match n.count {
                            Some(c) => {
                                for i in 0..c {
                                    self.add_reg(format!("{}{i}", n.name), ty);
                                }
                            }
                            None => self.add_reg(n.name.clone(), ty),
                        }
                    }
                }
                Statement::Var(v) => self.add_var(v)?,
                Statement::Label { name, .. } => {
                    self.labels
                        .insert(format!("{}{name}", self.prefix), self.code.len() as u32);
                }
                Statement::Instr(i) => {
                    if let Err(e) = self.instr(i) {
                        self.record(e);
                    }
                }
                Statement::Block { body, .. } => self.walk(body)?,
                Statement::Pragma { .. } | Statement::CallPrototype { .. } => {}
                Statement::Loc {
                    file,
                    line,
                    col,
                    inlined_at,
                    ..
                } => {
                    // Code inlined from weft's shim headers (`__shfl_sync`, `atomicAdd`, ...)
                    // is the user's call: follow the `inlined_at` chain to the first position
                    // in a user file; without one, keep the user's last source line.
                    let mut pos = (*file, *line, *col);
                    let mut site = *inlined_at;
                    if let Some(at) = site {
                        self.inlined_sites.insert(pos, at);
                    }
                    let mut hops = 0;
                    while self.shim_files.contains(&pos.0) && hops < 64 {
                        let Some(at) = site else { break };
                        pos = at;
                        site = self.inlined_sites.get(&pos).copied();
                        hops += 1;
                    }
                    if !self.shim_files.contains(&pos.0) || self.loc.is_none() {
                        self.loc = Some(SrcLoc {
                            file: pos.0,
                            line: pos.1,
                            col: pos.2,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// The state space of `ld`/`st` whose address is operand `k`: `ld.param`/`st.param` on a
    /// call-sequence variable (lowered to per-thread storage) is a local access.
    fn access_space(&self, i: &Instruction, k: usize) -> LResult<MemSpace> {
        let space = space_of(i.mods.space).ok_or_else(|| self.unsupported(i, ""))?;
        if space == MemSpace::Param {
            if let Some(Operand::Addr(Address {
                base: crate::ast::AddrBase::Symbol(n),
                ..
            })) = i.operands.get(k)
            {
                if let Some(v) = self.var(n) {
                    if self.vars[v as usize].space == MemSpace::Local {
                        return Ok(MemSpace::Local);
                    }
                }
            }
        }
        Ok(space)
    }

    /// A variable visible here: the current body's own (prefixed) or a module variable.
    fn var(&self, name: &str) -> Option<u32> {
        self.var_ix
            .get(&format!("{}{name}", self.prefix))
            .or_else(|| self.var_ix.get(name))
            .copied()
    }

    /// Inlines `call (rets), f, (args);`: the callee's body is lowered in place with its
    /// registers and labels renamed, its parameters bound to the caller's `.param` argument
    /// variables, and each `ret` turned into a branch past the body.
    fn inline_call(&mut self, i: &Instruction) -> LResult<()> {
        let mut lists = Vec::new();
        let mut callee = None;
        for o in &i.operands {
            match o {
                Operand::List(v) => lists.push((callee.is_some(), v)),
                Operand::Symbol { name, offset: 0 } | Operand::Reg(name) if callee.is_none() => {
                    callee = Some(name.clone())
                }
                // The prototype named after the arguments of an indirect call.
                Operand::Symbol { .. } | Operand::Reg(_)
                    if callee
                        .as_deref()
                        .is_some_and(|c| self.module.function(c).is_none()) => {}
                o => return Err(err(i.span, format!("`call`: unsupported operand {o:?}"))),
            }
        }
        if let Some(c) = callee.as_deref() {
            if self.module.function(c).is_none()
                && self.reg_ix.contains_key(&format!("{}{c}", self.prefix))
            {
                return self.indirect_call(i, c);
            }
        }
        let name = callee.ok_or_else(|| err(i.span, "`call` without a callee"))?;
        let rets: Vec<&Operand> = lists
            .iter()
            .filter(|(after, _)| !after)
            .flat_map(|(_, v)| v.iter())
            .collect();
        let args: Vec<&Operand> = lists
            .iter()
            .filter(|(after, _)| *after)
            .flat_map(|(_, v)| v.iter())
            .collect();
        let module = self.module;
        let f = module
            .function(&name)
            .ok_or_else(|| err(i.span, format!("`call` of unknown function `{name}`")))?;
        if let Some(kind) = name.strip_prefix("__weft_annot_") {
            return self.marker(i, f, Marker::Annot(annot_kind(kind, i)?), &args, &rets);
        }
        if let Some(kind) = name.strip_prefix("__weft_query_") {
            return self.marker(i, f, Marker::Query(query_kind(kind, i)?), &args, &rets);
        }
        if let Some((sys, np, nr)) = weft_ir::kernel::SysFunc::from_name(&name) {
            if f.body.is_none() && f.params.len() == np && f.returns.len() == nr {
                return self.marker(i, f, Marker::Sys(sys), &args, &rets);
            }
        }
        if f.body.is_none() && self.havoc_external {
            return self.havoc_call(i, f, &rets);
        }
        let body = f.body.as_ref().ok_or_else(|| {
            err(
                i.span,
                format!("unsupported instruction `call` of `{name}`: the function has no body in this module (an external function)"),
            )
        })?;
        if self.call_stack.iter().any(|c| c == &name) {
            return Err(err(
                i.span,
                format!("unsupported recursive `call` of `{name}`"),
            ));
        }
        if f.params.len() != args.len() || f.returns.len() != rets.len() {
            return Err(err(
                i.span,
                format!(
                    "`call` of `{name}` passes {} arguments and {} results; it takes {} and {}",
                    args.len(),
                    rets.len(),
                    f.params.len(),
                    f.returns.len()
                ),
            ));
        }
        let new_prefix = format!("{}{name}#{}:", self.prefix, self.inlined);
        self.inlined += 1;
        for (p, a) in f
            .params
            .iter()
            .chain(&f.returns)
            .zip(args.iter().chain(&rets))
        {
            if p.space != StateSpace::Param {
                return Err(err(
                    p.span,
                    format!(
                        "`{}`: only `.param` parameters of device functions are supported",
                        p.name
                    ),
                ));
            }
            let v = match a {
                Operand::Symbol {
                    name: an,
                    offset: 0,
                }
                | Operand::Reg(an) => self.var(an),
                _ => None,
            }
            .ok_or_else(|| {
                err(
                    i.span,
                    format!("`call` of `{name}`: argument {a:?} is not a `.param` variable"),
                )
            })?;
            self.var_ix.insert(format!("{new_prefix}{}", p.name), v);
        }
        let old = std::mem::replace(&mut self.prefix, new_prefix);
        self.call_stack.push(name);
        let r = self.walk(body);
        self.labels
            .insert(format!("{}$weft_ret", self.prefix), self.code.len() as u32);
        self.call_stack.pop();
        self.prefix = old;
        r
    }

    fn add_reg(&mut self, name: String, ty: DataType) {
        let r = Reg(self.regs.len() as u32);
        self.reg_ix.insert(format!("{}{name}", self.prefix), r);
        self.regs.push(KReg { name, ty });
    }

    fn reg(&self, name: &str, span: crate::lexer::Span) -> LResult<Reg> {
        self.reg_ix
            .get(&format!("{}{name}", self.prefix))
            .copied()
            .ok_or_else(|| err(span, format!("undeclared register `{name}`")))
    }

    fn dst(&self, i: &Instruction, k: usize) -> LResult<Reg> {
        match i.operands.get(k) {
            Some(Operand::Reg(n)) => self.reg(n, i.span),
            other => Err(err(
                i.span,
                format!(
                    "`{}`: operand {} must be a register, found {other:?}",
                    i.mnemonic(),
                    k + 1
                ),
            )),
        }
    }

    fn src(&self, i: &Instruction, k: usize, ty: DataType) -> LResult<KOperand> {
        let op = i.operands.get(k).ok_or_else(|| {
            err(
                i.span,
                format!("`{}`: missing operand {}", i.mnemonic(), k + 1),
            )
        })?;
        self.operand(i, op, ty)
    }

    fn operand(&self, i: &Instruction, op: &Operand, ty: DataType) -> LResult<KOperand> {
        let is_f32 = ty.kind == TypeKind::Float && ty.bits == 32;
        Ok(match op {
            Operand::Reg(n) => KOperand::Reg(self.reg(n, i.span)?),
            Operand::Special(s) => KOperand::Special(sreg(*s).ok_or_else(|| {
                err(
                    i.span,
                    format!(
                        "`{}`: special register {s:?} is not supported",
                        i.mnemonic()
                    ),
                )
            })?),
            Operand::Int(v) => {
                if ty.kind == TypeKind::Float {
                    // An integer literal with a float type is its value.
                    let f = *v as f64;
                    KOperand::Imm(if is_f32 {
                        (f as f32).to_bits() as u64
                    } else {
                        f.to_bits()
                    })
                } else {
                    KOperand::Imm(*v as u64)
                }
            }
            Operand::F32(b) => {
                if is_f32 || ty.kind != TypeKind::Float {
                    KOperand::Imm(u64::from(*b))
                } else {
                    KOperand::Imm((f32::from_bits(*b) as f64).to_bits())
                }
            }
            Operand::F64(b) => {
                if is_f32 {
                    KOperand::Imm((f64::from_bits(*b) as f32).to_bits() as u64)
                } else {
                    KOperand::Imm(*b)
                }
            }
            Operand::Float(f) => KOperand::Imm(if is_f32 {
                (*f as f32).to_bits() as u64
            } else {
                f.to_bits()
            }),
            Operand::Symbol { name, offset } => match self.var(name) {
                Some(v) => KOperand::VarAddr {
                    var: v,
                    offset: *offset,
                },
                None if self.module.function(name).is_some() => {
                    KOperand::Imm(function_address(self.module, name).wrapping_add(*offset as u64))
                }
                None => {
                    return Err(err(
                        i.span,
                        format!(
                            "`{}`: the address of `{name}` is not supported here",
                            i.mnemonic()
                        ),
                    ))
                }
            },
            other => {
                return Err(err(
                    i.span,
                    format!("`{}`: unsupported operand {other:?}", i.mnemonic()),
                ))
            }
        })
    }

    fn addr(&self, i: &Instruction, k: usize) -> LResult<Addr> {
        match i.operands.get(k) {
            Some(Operand::Addr(a)) => {
                let base = match &a.base {
                    crate::ast::AddrBase::Reg(n) => AddrBase::Reg(self.reg(n, i.span)?),
                    crate::ast::AddrBase::Symbol(n) => {
                        if let Some(v) = self.var(n) {
                            AddrBase::Var(v)
                        } else if let Some(&p) = self.param_ix.get(n) {
                            AddrBase::Param(p)
                        } else {
                            return Err(err(i.span, format!("unknown symbol `{n}` in an address")));
                        }
                    }
                    crate::ast::AddrBase::Absolute(x) => AddrBase::Abs(*x as u64),
                };
                Ok(Addr {
                    base,
                    offset: a.offset,
                })
            }
            other => Err(err(
                i.span,
                format!(
                    "`{}`: operand {} must be an address, found {other:?}",
                    i.mnemonic(),
                    k + 1
                ),
            )),
        }
    }

    fn ty(&self, i: &Instruction, k: usize) -> LResult<DataType> {
        let t = *i.mods.types.get(k).ok_or_else(|| {
            err(
                i.span,
                format!("`{}`: missing instruction type", i.mnemonic()),
            )
        })?;
        data_type(t).ok_or_else(|| {
            err(
                i.span,
                format!("`{}`: type `{t}` is not supported", i.mnemonic()),
            )
        })
    }

    fn mem_attrs(&self, i: &Instruction, space: MemSpace, ty: DataType) -> LResult<MemAttrs> {
        let mut a = MemAttrs {
            space: Some(space),
            ty: Some(ty),
            ..MemAttrs::default()
        };
        a.order = match i.mods.sem {
            None | Some(Sem::Weak) => {
                if matches!(i.opcode, Opcode::Atom | Opcode::Red) {
                    Order::Relaxed
                } else {
                    Order::Plain
                }
            }
            Some(Sem::Volatile) => {
                a.volatile = true;
                Order::Plain
            }
            Some(Sem::Relaxed) => Order::Relaxed,
            Some(Sem::Acquire) => Order::Acquire,
            Some(Sem::Release) => Order::Release,
            Some(Sem::AcqRel) => Order::AcqRel,
            Some(Sem::Sc) => Order::SeqCst,
            Some(Sem::Mmio) => {
                return Err(err(
                    i.span,
                    format!("`{}`: `.mmio` is not supported", i.mnemonic()),
                ))
            }
        };
        a.scope = match i.mods.scope {
            None => {
                if a.order.is_atomic() {
                    Some(IrScope::Gpu)
                } else {
                    None
                }
            }
            Some(s) => Some(self.scope(i, s)?),
        };
        Ok(a)
    }

    fn scope(&self, i: &Instruction, s: Scope) -> LResult<IrScope> {
        Ok(match s {
            Scope::Cta => IrScope::Cta,
            Scope::Gpu => IrScope::Gpu,
            Scope::Sys => IrScope::System,
            Scope::Cluster => {
                return Err(err(
                    i.span,
                    format!("`{}`: `.cluster` scope is not supported", i.mnemonic()),
                ))
            }
        })
    }

    fn push(&mut self, i: &Instruction, op: KOp) -> LResult<()> {
        let guard = match &i.guard {
            Some(g) => Some(KGuard {
                reg: self.reg(&g.pred, i.span)?,
                negated: g.negated,
            }),
            None => None,
        };
        self.code.push(KInstr {
            guard,
            op,
            span: IrSpan::new(i.span.line, i.span.col),
            loc: self.loc,
        });
        Ok(())
    }

    /// A call of a `weft_gpuverify.h` marker function: its arguments are loaded from their
    /// call-sequence variables into fresh registers, then an [`KOp::Annot`] (whose
    /// `thread_local` is settled after lowering) or a [`KOp::Query`] (whose result is stored to
    /// the return variable) takes the call's place.
    fn marker(
        &mut self,
        i: &Instruction,
        f: &Function,
        what: Marker,
        args: &[&Operand],
        rets: &[&Operand],
    ) -> LResult<()> {
        let var_of = |l: &Self, a: &Operand| match a {
            Operand::Symbol { name, offset: 0 } | Operand::Reg(name) => l.var(name),
            _ => None,
        };
        let mut vals = Vec::new();
        for (p, a) in f.params.iter().zip(args) {
            let ty = data_type(p.ty).ok_or_else(|| err(i.span, "marker argument type"))?;
            let v = var_of(self, a)
                .ok_or_else(|| err(i.span, format!("marker argument {a:?} is not a `.param`")))?;
            let r = self.fresh_reg(ty);
            self.emit(
                i,
                KOp::Ld {
                    attrs: MemAttrs {
                        space: Some(MemSpace::Local),
                        ty: Some(ty),
                        ..MemAttrs::default()
                    },
                    ty,
                    dst: vec![Some(r)],
                    addr: Addr {
                        base: AddrBase::Var(v),
                        offset: 0,
                    },
                },
            );
            vals.push(KOperand::Reg(r));
        }
        match what {
            Marker::Annot(kind) => {
                let cond = vals
                    .first()
                    .copied()
                    .ok_or_else(|| err(i.span, "an annotation needs a condition"))?;
                self.emit(
                    i,
                    KOp::Annot {
                        kind,
                        cond,
                        thread_local: true,
                    },
                );
            }
            Marker::Query(kind) => {
                let (p, a) = f
                    .returns
                    .first()
                    .zip(rets.first())
                    .ok_or_else(|| err(i.span, "a query needs a result"))?;
                let ty = data_type(p.ty).ok_or_else(|| err(i.span, "marker result type"))?;
                let v = var_of(self, a)
                    .ok_or_else(|| err(i.span, format!("marker result {a:?} is not a `.param`")))?;
                let r = self.fresh_reg(ty);
                self.emit(
                    i,
                    KOp::Query {
                        kind,
                        ty,
                        dst: r,
                        args: vals,
                    },
                );
                self.store_local(i, ty, r, v, 0);
            }
            Marker::Sys(func) => {
                let ret = match (f.returns.first(), rets.first()) {
                    (Some(p), Some(a)) => {
                        let ty = data_type(p.ty).ok_or_else(|| err(i.span, "result type"))?;
                        let v = var_of(self, a).ok_or_else(|| {
                            err(i.span, format!("result {a:?} is not a `.param`"))
                        })?;
                        Some((ty, self.fresh_reg(ty), v))
                    }
                    _ => None,
                };
                let dst = ret.map(|(_, r, _)| r);
                self.emit(
                    i,
                    KOp::SysCall {
                        func,
                        dst,
                        args: vals,
                    },
                );
                if let Some((ty, r, v)) = ret {
                    self.store_local(i, ty, r, v, 0);
                }
            }
        }
        Ok(())
    }

    /// An indirect call through a function pointer (`call (r), %rd, (a), prototype;`): a
    /// comparison of the pointer with the address of every function of the module with a
    /// body and the call's number of arguments and results, each leading to that function
    /// inlined; no match is a `trap` (a bad function pointer).
    fn indirect_call(&mut self, i: &Instruction, reg: &str) -> LResult<()> {
        let r = self.reg(reg, i.span)?;
        let lists: Vec<&Vec<Operand>> = i
            .operands
            .iter()
            .filter_map(|o| match o {
                Operand::List(v) => Some(v),
                _ => None,
            })
            .collect();
        let callee_pos = i
            .operands
            .iter()
            .position(
                |o| matches!(o, Operand::Reg(n) | Operand::Symbol { name: n, .. } if n == reg),
            )
            .unwrap_or(0);
        let n_rets = if callee_pos > 0 {
            lists.first().map_or(0, |v| v.len())
        } else {
            0
        };
        let n_args = lists.last().map_or(0, |v| v.len());
        let mut seen = std::collections::HashSet::new();
        let candidates: Vec<String> = self
            .module
            .functions()
            .filter(|f| f.body.is_some() && f.kind != FunctionKind::Entry)
            .filter(|f| f.params.len() == n_args && f.returns.len() == n_rets)
            .filter(|f| seen.insert(f.name.clone()))
            .map(|f| f.name.clone())
            .collect();
        let u64t = DataType {
            kind: TypeKind::Unsigned,
            bits: 64,
        };
        let mut branches = Vec::new();
        for c in &candidates {
            let p = self.fresh_reg(DataType::PRED);
            self.emit(
                i,
                KOp::Setp {
                    cmp: KCmp::Eq,
                    ty: u64t,
                    dst: p,
                    dst2: None,
                    a: KOperand::Reg(r),
                    b: KOperand::Imm(function_address(self.module, c)),
                    combine: None,
                },
            );
            branches.push(self.code.len());
            self.emit(i, KOp::Bra { target: 0 });
            self.code.last_mut().expect("just pushed").guard = Some(KGuard {
                reg: p,
                negated: false,
            });
        }
        self.emit(i, KOp::Trap);
        let mut ends = Vec::new();
        for (c, b) in candidates.iter().zip(branches) {
            let start = self.code.len() as u32;
            if let KOp::Bra { target } = &mut self.code[b].op {
                *target = start;
            }
            let mut direct = i.clone();
            for o in direct.operands.iter_mut() {
                if matches!(o, Operand::Reg(n) | Operand::Symbol { name: n, .. } if n == reg) {
                    *o = Operand::Symbol {
                        name: c.clone(),
                        offset: 0,
                    };
                }
            }
            // Drop the prototype operand (the last non-list operand after the arguments).
            if let Some(last) = direct.operands.last() {
                if !matches!(last, Operand::List(_)) {
                    direct.operands.pop();
                }
            }
            self.inline_call(&direct)?;
            ends.push(self.code.len());
            self.emit(i, KOp::Bra { target: 0 });
        }
        let end = self.code.len() as u32;
        for e in ends {
            if let KOp::Bra { target } = &mut self.code[e].op {
                *target = end;
            }
        }
        Ok(())
    }

    /// `mov.bN {a, b, ..}, r` (unpack: element k is bits `k·w .. (k+1)·w` of `r`, `w` = N /
    /// elements) and `mov.bN r, {a, b, ..}` (pack), as shifts, masks and ors (PTX ISA §9.7.9.1).
    fn mov_pack_unpack(&mut self, i: &Instruction, ty: DataType) -> LResult<()> {
        let bits = DataType {
            kind: TypeKind::Bits,
            bits: ty.bits,
        };
        match (i.operands.first(), i.operands.get(1)) {
            (Some(Operand::Vector(elems)), Some(_)) => {
                let n = elems.len().max(1) as u32;
                let w = u32::from(ty.bits) / n;
                let src = self.src(i, 1, bits)?;
                let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
                for (k, e) in elems.iter().enumerate() {
                    let dst = match e {
                        Operand::Reg(n) => self.reg(n, i.span)?,
                        Operand::Sink => continue,
                        o => return Err(err(i.span, format!("bad vector element {o:?}"))),
                    };
                    let t = self.fresh_reg(bits);
                    self.push(
                        i,
                        KOp::Binary {
                            op: KBinOp::Shr,
                            ty: bits,
                            dst: t,
                            a: src,
                            b: KOperand::Imm(u64::from(k as u32 * w)),
                        },
                    )?;
                    self.push(
                        i,
                        KOp::Binary {
                            op: KBinOp::And,
                            ty: bits,
                            dst,
                            a: KOperand::Reg(t),
                            b: KOperand::Imm(mask),
                        },
                    )?;
                }
                Ok(())
            }
            (Some(Operand::Reg(_)), Some(Operand::Vector(elems))) => {
                let n = elems.len().max(1) as u32;
                let w = u32::from(ty.bits) / n;
                let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
                let dst = self.dst(i, 0)?;
                let acc = self.fresh_reg(bits);
                self.push(
                    i,
                    KOp::Mov {
                        ty: bits,
                        dst: acc,
                        src: KOperand::Imm(0),
                    },
                )?;
                for (k, e) in elems.iter().enumerate() {
                    let v = self.operand(i, e, bits)?;
                    let t = self.fresh_reg(bits);
                    self.push(
                        i,
                        KOp::Binary {
                            op: KBinOp::And,
                            ty: bits,
                            dst: t,
                            a: v,
                            b: KOperand::Imm(mask),
                        },
                    )?;
                    self.push(
                        i,
                        KOp::Binary {
                            op: KBinOp::Shl,
                            ty: bits,
                            dst: t,
                            a: KOperand::Reg(t),
                            b: KOperand::Imm(u64::from(k as u32 * w)),
                        },
                    )?;
                    self.push(
                        i,
                        KOp::Binary {
                            op: KBinOp::Or,
                            ty: bits,
                            dst: acc,
                            a: KOperand::Reg(acc),
                            b: KOperand::Reg(t),
                        },
                    )?;
                }
                self.push(
                    i,
                    KOp::Mov {
                        ty: bits,
                        dst,
                        src: KOperand::Reg(acc),
                    },
                )
            }
            _ => Err(self.unsupported(i, " (vector operands)")),
        }
    }

    /// A call of a function without a body (GPUVerify's meaning): each result receives an
    /// arbitrary value; memory is untouched.
    fn havoc_call(&mut self, i: &Instruction, f: &Function, rets: &[&Operand]) -> LResult<()> {
        for (p, a) in f.returns.iter().zip(rets) {
            let ty = data_type(p.ty).ok_or_else(|| err(i.span, "result type"))?;
            let v = match a {
                Operand::Symbol { name, offset: 0 } | Operand::Reg(name) => self.var(name),
                _ => None,
            }
            .ok_or_else(|| err(i.span, format!("`call`: result {a:?} is not a `.param`")))?;
            let size = var_size(p.ty, p.vector, &p.dims);
            let width = u64::from(ty.bits / 8).max(1);
            let mut off = 0u64;
            while off < size.max(width) {
                let r = self.fresh_reg(ty);
                self.emit(
                    i,
                    KOp::Query {
                        kind: weft_ir::kernel::QueryKind::Havoc,
                        ty,
                        dst: r,
                        args: Vec::new(),
                    },
                );
                self.store_local(i, ty, r, v, off as i64);
                off += width;
            }
        }
        Ok(())
    }

    fn fresh_reg(&mut self, ty: DataType) -> Reg {
        let name = format!("%weft_t{}", self.regs.len());
        self.add_reg(name, ty);
        Reg(self.regs.len() as u32 - 1)
    }

    /// Stores register `r` into the `.param`/`.local` variable `v` at byte `offset` (the
    /// result of a marker call or a query written back to its return parameter).
    fn store_local(&mut self, i: &Instruction, ty: DataType, r: Reg, v: u32, offset: i64) {
        self.emit(
            i,
            KOp::St {
                attrs: MemAttrs {
                    space: Some(MemSpace::Local),
                    ty: Some(ty),
                    ..MemAttrs::default()
                },
                ty,
                src: vec![KOperand::Reg(r)],
                addr: Addr {
                    base: AddrBase::Var(v),
                    offset,
                },
            },
        );
    }

    fn emit(&mut self, i: &Instruction, op: KOp) {
        self.code.push(KInstr {
            guard: None,
            op,
            span: IrSpan::new(i.span.line, i.span.col),
            loc: self.loc,
        });
    }

    /// Keeps an error (once per distinct message) and carries on with the next instruction.
    fn record(&mut self, e: LowerError) {
        match self
            .errors
            .iter_mut()
            .find(|(x, _, _)| x.message == e.message)
        {
            Some((_, _, n)) => *n += 1,
            None => self.errors.push((e, self.loc, 1u32)),
        }
    }

    fn unsupported(&self, i: &Instruction, why: &str) -> LowerError {
        err(
            i.span,
            format!("unsupported instruction `{}`{why}", i.mnemonic()),
        )
    }

    fn instr(&mut self, i: &Instruction) -> LResult<()> {
        use Opcode as O;
        let m = &i.mods;
        let op = match i.opcode {
            O::Ld | O::Ldu => {
                let ty = self.ty(i, 0)?;
                let space = self.access_space(i, 1)?;
                let attrs = self.mem_attrs(i, space, ty)?;
                let dst = match i.operands.first() {
                    Some(Operand::Reg(n)) => vec![Some(self.reg(n, i.span)?)],
                    Some(Operand::Vector(v)) => v
                        .iter()
                        .map(|o| match o {
                            Operand::Reg(n) => self.reg(n, i.span).map(Some),
                            Operand::Sink => Ok(None),
                            o => Err(err(i.span, format!("bad vector element {o:?}"))),
                        })
                        .collect::<LResult<_>>()?,
                    o => {
                        return Err(err(
                            i.span,
                            format!("`{}`: bad destination {o:?}", i.mnemonic()),
                        ))
                    }
                };
                KOp::Ld {
                    attrs,
                    ty,
                    dst,
                    addr: self.addr(i, 1)?,
                }
            }
            O::St => {
                let ty = self.ty(i, 0)?;
                let space = self.access_space(i, 0)?;
                let attrs = self.mem_attrs(i, space, ty)?;
                let src = match i.operands.get(1) {
                    Some(Operand::Vector(v)) => v
                        .iter()
                        .map(|o| self.operand(i, o, ty))
                        .collect::<LResult<_>>()?,
                    Some(_) => vec![self.src(i, 1, ty)?],
                    None => return Err(err(i.span, "`st`: missing value")),
                };
                KOp::St {
                    attrs,
                    ty,
                    src,
                    addr: self.addr(i, 0)?,
                }
            }
            O::Atom | O::Red => {
                if m.vector.is_some() {
                    return Err(self.unsupported(i, " (vector atomics)"));
                }
                let ty = self.ty(i, 0)?;
                let space = space_of(m.space).ok_or_else(|| self.unsupported(i, ""))?;
                let attrs = self.mem_attrs(i, space, ty)?;
                let op = match m.atom {
                    Some(AtomOp::And) => RmwOp::And,
                    Some(AtomOp::Or) => RmwOp::Or,
                    Some(AtomOp::Xor) => RmwOp::Xor,
                    Some(AtomOp::Cas) => RmwOp::Cas,
                    Some(AtomOp::Exch) => RmwOp::Exch,
                    Some(AtomOp::Add) => RmwOp::Add,
                    Some(AtomOp::Inc) => RmwOp::Inc,
                    Some(AtomOp::Dec) => RmwOp::Dec,
                    Some(AtomOp::Min) => RmwOp::Min,
                    Some(AtomOp::Max) => RmwOp::Max,
                    None => return Err(self.unsupported(i, " (no operation)")),
                };
                let (dst, first) = if i.opcode == O::Atom {
                    (Some(self.dst(i, 0)?), 1)
                } else {
                    (None, 0)
                };
                let addr = self.addr(i, first)?;
                let mut args = vec![self.src(i, first + 1, ty)?];
                if op == RmwOp::Cas {
                    args.push(self.src(i, first + 2, ty)?);
                }
                KOp::Atom {
                    op,
                    attrs,
                    ty,
                    dst,
                    addr,
                    args,
                }
            }
            O::Membar => {
                let scope = self.scope(i, m.scope.unwrap_or(Scope::Gpu))?;
                KOp::Fence {
                    kind: FenceKind::Membar,
                    attrs: MemAttrs::scoped(Order::SeqCst, scope),
                }
            }
            O::Fence => {
                let order = match m.sem {
                    Some(Sem::Sc) => Order::SeqCst,
                    Some(Sem::AcqRel) => Order::AcqRel,
                    Some(Sem::Acquire) => Order::Acquire,
                    Some(Sem::Release) => Order::Release,
                    _ => return Err(self.unsupported(i, "")),
                };
                let scope = self.scope(i, m.scope.unwrap_or(Scope::Gpu))?;
                KOp::Fence {
                    kind: FenceKind::Fence,
                    attrs: MemAttrs::scoped(order, scope),
                }
            }
            O::Bar | O::Barrier => self.barrier(i)?,
            O::Bra => {
                let label = match i.operands.first() {
                    Some(Operand::Symbol { name, offset: 0 }) | Some(Operand::Reg(name)) => {
                        name.clone()
                    }
                    o => return Err(err(i.span, format!("`bra`: bad target {o:?}"))),
                };
                self.fixups
                    .push((self.code.len(), format!("{}{label}", self.prefix), i.span));
                KOp::Bra { target: u32::MAX }
            }
            O::Ret if !self.call_stack.is_empty() => {
                // Return from an inlined function: jump past its body.
                self.fixups
                    .push((self.code.len(), format!("{}$weft_ret", self.prefix), i.span));
                KOp::Bra { target: u32::MAX }
            }
            O::Ret | O::Exit => KOp::Exit,
            O::Trap => KOp::Trap,
            O::Nanosleep | O::Brkpt => KOp::Nop,
            O::Mov => {
                let ty = self.ty(i, 0)?;
                if matches!(i.operands.get(1), Some(Operand::Vector(_)))
                    || matches!(i.operands.first(), Some(Operand::Vector(_)))
                {
                    return self.mov_pack_unpack(i, ty);
                }
                KOp::Mov {
                    ty,
                    dst: self.dst(i, 0)?,
                    src: self.src(i, 1, ty)?,
                }
            }
            O::Add
            | O::Sub
            | O::Mul
            | O::Div
            | O::Rem
            | O::And
            | O::Or
            | O::Xor
            | O::Shl
            | O::Shr
            | O::Min
            | O::Max
            | O::Copysign => {
                if m.cc || m.sat {
                    return Err(self.unsupported(i, ""));
                }
                let ty = self.ty(i, 0)?;
                let op = match i.opcode {
                    O::Add => KBinOp::Add,
                    O::Sub => KBinOp::Sub,
                    O::Mul => match m.mul {
                        None | Some(MulMode::Lo) => KBinOp::Mul,
                        Some(MulMode::Hi) => KBinOp::MulHi,
                        Some(MulMode::Wide) => KBinOp::MulWide,
                    },
                    O::Div => KBinOp::Div,
                    O::Rem => KBinOp::Rem,
                    O::And => KBinOp::And,
                    O::Or => KBinOp::Or,
                    O::Xor => KBinOp::Xor,
                    O::Shl => KBinOp::Shl,
                    O::Shr => KBinOp::Shr,
                    O::Min => KBinOp::Min,
                    O::Max => KBinOp::Max,
                    _ => KBinOp::Copysign,
                };
                // Shift amounts are .u32 whatever the type.
                let bty = if matches!(op, KBinOp::Shl | KBinOp::Shr) {
                    DataType::U32
                } else {
                    ty
                };
                KOp::Binary {
                    op,
                    ty,
                    dst: self.dst(i, 0)?,
                    a: self.src(i, 1, ty)?,
                    b: self.src(i, 2, bty)?,
                }
            }
            O::Mad | O::Fma => {
                if m.cc || m.sat {
                    return Err(self.unsupported(i, ""));
                }
                let ty = self.ty(i, 0)?;
                let mode = match m.mul {
                    None | Some(MulMode::Lo) => KBinOp::Mul,
                    Some(MulMode::Hi) => KBinOp::MulHi,
                    Some(MulMode::Wide) => KBinOp::MulWide,
                };
                let cty = if mode == KBinOp::MulWide {
                    DataType {
                        bits: ty.bits * 2,
                        ..ty
                    }
                } else {
                    ty
                };
                KOp::Mad {
                    mode,
                    ty,
                    dst: self.dst(i, 0)?,
                    a: self.src(i, 1, ty)?,
                    b: self.src(i, 2, ty)?,
                    c: self.src(i, 3, cty)?,
                }
            }
            O::Abs
            | O::Neg
            | O::Not
            | O::Cnot
            | O::Popc
            | O::Clz
            | O::Brev
            | O::Bfind
            | O::Sqrt
            | O::Rsqrt
            | O::Rcp
            | O::Sin
            | O::Cos
            | O::Lg2
            | O::Ex2
            | O::Tanh => {
                if m.sat {
                    return Err(self.unsupported(i, ""));
                }
                let ty = self.ty(i, 0)?;
                let op = match i.opcode {
                    O::Abs => KUnOp::Abs,
                    O::Neg => KUnOp::Neg,
                    O::Not => KUnOp::Not,
                    O::Cnot => KUnOp::Cnot,
                    O::Popc => KUnOp::Popc,
                    O::Clz => KUnOp::Clz,
                    O::Brev => KUnOp::Brev,
                    O::Bfind => KUnOp::Bfind,
                    O::Sqrt => KUnOp::Sqrt,
                    O::Rsqrt => KUnOp::Rsqrt,
                    O::Rcp => KUnOp::Rcp,
                    O::Sin => KUnOp::Sin,
                    O::Cos => KUnOp::Cos,
                    O::Lg2 => KUnOp::Lg2,
                    O::Ex2 => KUnOp::Ex2,
                    _ => KUnOp::Tanh,
                };
                KOp::Unary {
                    op,
                    ty,
                    dst: self.dst(i, 0)?,
                    a: self.src(i, 1, ty)?,
                }
            }
            O::Setp => {
                let ty = self.ty(i, 0)?;
                let cmp = match m.cmp {
                    Some(c) => cmp_of(c, ty),
                    None => return Err(self.unsupported(i, " (no comparison)")),
                };
                let (dst, dst2) = match i.operands.first() {
                    Some(Operand::Reg(n)) => (self.reg(n, i.span)?, None),
                    Some(Operand::PredPair(a, b)) => {
                        (self.reg(a, i.span)?, Some(self.reg(b, i.span)?))
                    }
                    o => return Err(err(i.span, format!("`setp`: bad destination {o:?}"))),
                };
                let combine = match m.bool_op {
                    None => None,
                    Some(b) => {
                        let bop = match b {
                            BoolOp::And => KBoolOp::And,
                            BoolOp::Or => KBoolOp::Or,
                            BoolOp::Xor => KBoolOp::Xor,
                        };
                        let (p, neg) = self.pred_operand(i, 3)?;
                        Some((bop, p, neg))
                    }
                };
                KOp::Setp {
                    cmp,
                    ty,
                    dst,
                    dst2,
                    a: self.src(i, 1, ty)?,
                    b: self.src(i, 2, ty)?,
                    combine,
                }
            }
            O::Selp => {
                let ty = self.ty(i, 0)?;
                KOp::Selp {
                    ty,
                    dst: self.dst(i, 0)?,
                    a: self.src(i, 1, ty)?,
                    b: self.src(i, 2, ty)?,
                    pred: self.src(i, 3, DataType::PRED)?,
                }
            }
            O::Cvt => {
                let dst_ty = self.ty(i, 0)?;
                let src_ty = self.ty(i, 1)?;
                let (rounding, integral) = match m.rounding {
                    None => (None, false),
                    Some(Rounding_::Rn) | Some(Rounding_::Rna) | Some(Rounding_::Rs) => {
                        (Some(Rounding::Nearest), false)
                    }
                    Some(Rounding_::Rz) => (Some(Rounding::Zero), false),
                    Some(Rounding_::Rm) => (Some(Rounding::Down), false),
                    Some(Rounding_::Rp) => (Some(Rounding::Up), false),
                    Some(Rounding_::Rni) => (Some(Rounding::Nearest), true),
                    Some(Rounding_::Rzi) => (Some(Rounding::Zero), true),
                    Some(Rounding_::Rmi) => (Some(Rounding::Down), true),
                    Some(Rounding_::Rpi) => (Some(Rounding::Up), true),
                };
                KOp::Cvt {
                    dst_ty,
                    src_ty,
                    dst: self.dst(i, 0)?,
                    src: self.src(i, 1, src_ty)?,
                    rounding,
                    integral,
                    sat: m.sat,
                }
            }
            O::Cvta => {
                let space = match m.space {
                    Some(StateSpace::Global) => MemSpace::Global,
                    Some(StateSpace::Shared | StateSpace::SharedCta) => MemSpace::Shared,
                    Some(StateSpace::Local) => MemSpace::Local,
                    Some(StateSpace::Const) => MemSpace::Constant,
                    Some(StateSpace::Param | StateSpace::ParamEntry) => MemSpace::Param,
                    _ => return Err(self.unsupported(i, "")),
                };
                KOp::Cvta {
                    to: m.to,
                    space,
                    dst: self.dst(i, 0)?,
                    src: self.src(i, 1, DataType::U64)?,
                }
            }
            O::Bfe => {
                let ty = self.ty(i, 0)?;
                KOp::Bfe {
                    ty,
                    dst: self.dst(i, 0)?,
                    a: self.src(i, 1, ty)?,
                    pos: self.src(i, 2, DataType::U32)?,
                    len: self.src(i, 3, DataType::U32)?,
                }
            }
            O::Bfi => {
                let ty = self.ty(i, 0)?;
                KOp::Bfi {
                    ty,
                    dst: self.dst(i, 0)?,
                    a: self.src(i, 1, ty)?,
                    b: self.src(i, 2, ty)?,
                    pos: self.src(i, 3, DataType::U32)?,
                    len: self.src(i, 4, DataType::U32)?,
                }
            }
            O::Shf => {
                let (Some(dir), Some(mode)) = (m.shf_dir, m.shf_mode) else {
                    return Err(self.unsupported(i, " (direction and mode required)"));
                };
                let t = DataType::B32;
                KOp::Shf {
                    left: dir == ShfDir::L,
                    wrap: mode == ShfMode::Wrap,
                    dst: self.dst(i, 0)?,
                    a: self.src(i, 1, t)?,
                    b: self.src(i, 2, t)?,
                    c: self.src(i, 3, DataType::U32)?,
                }
            }
            O::Prmt => {
                if !i.mods.types.iter().all(|t| *t == ScalarType::B32) || i.operands.len() != 4 {
                    return Err(self.unsupported(i, " (only the default mode of prmt.b32)"));
                }
                KOp::Prmt {
                    dst: self.dst(i, 0)?,
                    a: self.src(i, 1, DataType::B32)?,
                    b: self.src(i, 2, DataType::B32)?,
                    sel: self.src(i, 3, DataType::B32)?,
                }
            }
            O::Shfl => {
                let mode = match m.shfl {
                    Some(ShflMode::Up) => KShfl::Up,
                    Some(ShflMode::Down) => KShfl::Down,
                    Some(ShflMode::Bfly) => KShfl::Bfly,
                    Some(ShflMode::Idx) => KShfl::Idx,
                    None => return Err(self.unsupported(i, " (no mode)")),
                };
                if !m.sync {
                    return Err(self.unsupported(i, " (only shfl.sync)"));
                }
                let (dst, dst_pred) = match i.operands.first() {
                    Some(Operand::Reg(n)) => (self.reg(n, i.span)?, None),
                    Some(Operand::PredPair(a, b)) => {
                        (self.reg(a, i.span)?, Some(self.reg(b, i.span)?))
                    }
                    o => return Err(err(i.span, format!("`shfl`: bad destination {o:?}"))),
                };
                let t = DataType::B32;
                KOp::Shfl {
                    mode,
                    dst,
                    dst_pred,
                    a: self.src(i, 1, t)?,
                    b: self.src(i, 2, t)?,
                    c: self.src(i, 3, t)?,
                    mask: self.src(i, 4, t)?,
                }
            }
            O::Vote => {
                let mode = match m.vote {
                    Some(VoteMode::All) => KVote::All,
                    Some(VoteMode::Any) => KVote::Any,
                    Some(VoteMode::Uni) => KVote::Uni,
                    Some(VoteMode::Ballot) => KVote::Ballot,
                    None => return Err(self.unsupported(i, " (no mode)")),
                };
                let (pred, negated) = self.pred_operand(i, 1)?;
                let mask = if m.sync {
                    self.src(i, 2, DataType::B32)?
                } else {
                    KOperand::Imm(0xffff_ffff)
                };
                KOp::Vote {
                    mode,
                    dst: self.dst(i, 0)?,
                    pred,
                    negated,
                    mask,
                }
            }
            O::Match => {
                let mode = match m.vote {
                    Some(VoteMode::Any) => KMatch::Any,
                    Some(VoteMode::All) => KMatch::All,
                    _ => return Err(self.unsupported(i, " (no .any/.all)")),
                };
                if !m.sync {
                    return Err(self.unsupported(i, " (only match.sync)"));
                }
                let (dst, dst_pred) = match i.operands.first() {
                    Some(Operand::Reg(n)) => (self.reg(n, i.span)?, None),
                    Some(Operand::PredPair(a, b)) if mode == KMatch::All => {
                        (self.reg(a, i.span)?, Some(self.reg(b, i.span)?))
                    }
                    o => return Err(err(i.span, format!("`match`: bad destination {o:?}"))),
                };
                let t = m
                    .types
                    .first()
                    .copied()
                    .and_then(data_type)
                    .unwrap_or(DataType::B32);
                KOp::Match {
                    mode,
                    bits: if t.bits == 64 { 64 } else { 32 },
                    dst,
                    dst_pred,
                    a: self.src(i, 1, t)?,
                    mask: self.src(i, 2, DataType::B32)?,
                }
            }
            O::Activemask => KOp::Activemask {
                dst: self.dst(i, 0)?,
            },
            O::Call => return self.inline_call(i),
            _ => return Err(self.unsupported(i, "")),
        };
        self.push(i, op)
    }

    fn pred_operand(&self, i: &Instruction, k: usize) -> LResult<(KOperand, bool)> {
        match i.operands.get(k) {
            Some(Operand::Not(inner)) => Ok((self.operand(i, inner, DataType::PRED)?, true)),
            Some(_) => Ok((self.src(i, k, DataType::PRED)?, false)),
            None => Err(err(
                i.span,
                format!("`{}`: missing predicate operand", i.mnemonic()),
            )),
        }
    }

    fn barrier(&mut self, i: &Instruction) -> LResult<KOp> {
        let m = &i.mods;
        let u = DataType::U32;
        if m.warp {
            return Ok(KOp::Barrier {
                kind: BarrierKind::Warp,
                id: self.src(i, 0, u)?,
                count: None,
                red: None,
            });
        }
        if m.red {
            let op = match m.bar_red {
                Some(BarRedOp::Popc) => BarRed::Popc,
                Some(BarRedOp::And) => BarRed::And,
                Some(BarRedOp::Or) => BarRed::Or,
                None => return Err(self.unsupported(i, "")),
            };
            let dst = self.dst(i, 0)?;
            let n = i.operands.len();
            let id = self.src(i, 1, u)?;
            let count = if n == 4 {
                Some(self.src(i, 2, u)?)
            } else {
                None
            };
            let (p, neg) = self.pred_operand(i, n - 1)?;
            return Ok(KOp::Barrier {
                kind: BarrierKind::Sync,
                id,
                count,
                red: Some((op, dst, p, neg)),
            });
        }
        let kind = if m.arrive {
            BarrierKind::Arrive
        } else {
            BarrierKind::Sync
        };
        let id = if i.operands.is_empty() {
            KOperand::Imm(0)
        } else {
            self.src(i, 0, u)?
        };
        let count = if i.operands.len() > 1 {
            Some(self.src(i, 1, u)?)
        } else {
            None
        };
        Ok(KOp::Barrier {
            kind,
            id,
            count,
            red: None,
        })
    }
}

use crate::ast::Rounding as Rounding_;

fn cmp_of(c: CmpOp, _ty: DataType) -> KCmp {
    match c {
        CmpOp::Eq => KCmp::Eq,
        CmpOp::Ne => KCmp::Ne,
        CmpOp::Lt | CmpOp::Lo => KCmp::Lt,
        CmpOp::Le | CmpOp::Ls => KCmp::Le,
        CmpOp::Gt | CmpOp::Hi => KCmp::Gt,
        CmpOp::Ge | CmpOp::Hs => KCmp::Ge,
        CmpOp::Equ => KCmp::Equ,
        CmpOp::Neu => KCmp::Neu,
        CmpOp::Ltu => KCmp::Ltu,
        CmpOp::Leu => KCmp::Leu,
        CmpOp::Gtu => KCmp::Gtu,
        CmpOp::Geu => KCmp::Geu,
        CmpOp::Num => KCmp::Num,
        CmpOp::Nan => KCmp::Nan,
    }
}

fn sreg(s: SpecialReg) -> Option<KSreg> {
    let d = |d: Dim| match d {
        Dim::X => 0,
        Dim::Y => 1,
        Dim::Z => 2,
    };
    Some(match s {
        SpecialReg::Tid(x) => KSreg::Tid(d(x)),
        SpecialReg::Ntid(x) => KSreg::Ntid(d(x)),
        SpecialReg::Ctaid(x) => KSreg::Ctaid(d(x)),
        SpecialReg::Nctaid(x) => KSreg::Nctaid(d(x)),
        SpecialReg::Laneid => KSreg::Laneid,
        SpecialReg::Warpid => KSreg::Warpid,
        SpecialReg::Nwarpid => KSreg::Nwarpid,
        SpecialReg::Smid => KSreg::Smid,
        SpecialReg::Nsmid => KSreg::Nsmid,
        SpecialReg::Gridid => KSreg::Gridid,
        SpecialReg::LanemaskEq => KSreg::LanemaskEq,
        SpecialReg::LanemaskLe => KSreg::LanemaskLe,
        SpecialReg::LanemaskLt => KSreg::LanemaskLt,
        SpecialReg::LanemaskGe => KSreg::LanemaskGe,
        SpecialReg::LanemaskGt => KSreg::LanemaskGt,
        SpecialReg::Clock | SpecialReg::Clock64 | SpecialReg::Globaltimer => KSreg::Clock,
        SpecialReg::DynamicSmemSize | SpecialReg::TotalSmemSize => return None,
    })
}
