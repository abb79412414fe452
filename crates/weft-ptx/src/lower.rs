//! Lowering of a parsed PTX kernel ([`crate::ast`]) to weft's kernel IR
//! ([`weft_ir::kernel::Kernel`]): registers and variables resolved to indices, labels to
//! instruction indices, qualifiers to [`MemAttrs`] (PTX ISA §8 `.sem`/`.scope`, §5.1 state
//! spaces, §9.7 instruction semantics).
//!
//! Every instruction is either lowered faithfully or refused with a [`LowerError`] naming the
//! instruction and its `line:col`; nothing is skipped. Calls of device functions defined in the
//! module are inlined (registers and labels renamed per call site, `.param` call-sequence
//! variables become per-thread storage); recursion and external functions are refused.
//!
//! This file owns the lowerer's state, kernel selection, variables, operands, addresses and
//! qualifiers; `instr` lowers one instruction; `call` handles calls and the verifier's
//! marker calls.

use std::collections::HashMap;

use weft_ir::attrs::{DataType, MemAttrs, MemSpace, Order, TypeKind};
use weft_ir::code::Reg;
use weft_ir::kernel::{
    Addr, AddrBase, KGuard, KInstr, KOp, KParam, KReg, KVar, Kernel, Operand as KOperand, SrcLoc,
};
use weft_ir::{Scope as IrScope, Span as IrSpan};

use crate::ast::*;
use crate::error::ParseError;

/// A lowering error: same shape as a parse error (`line:col: message`).
pub type LowerError = ParseError;

type LResult<T> = Result<T, LowerError>;

mod call;

mod instr;

use instr::sreg;

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
    /// Per inlined call (innermost last): its result cells copied through registers,
    /// (variable, type, register, byte offset), see [`Lowerer::spill_load`].
    ret_spills: Vec<Vec<(u32, DataType, Reg, i64)>>,
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
            ret_spills: Vec::new(),
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
        let mut k = Kernel {
            name: self.f.name.clone(),
            params: self.params,
            param_bytes,
            regs: self.regs,
            vars: self.vars,
            code: self.code,
            files,
            reqntid,
        };
        let cfg = weft_ir::analysis::KCfg::new(&k);
        crate::postpass::fold_param_addresses(&mut k, &cfg);
        crate::postpass::attribute_line_zero(&mut k, &cfg);
        Ok(k)
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
                // The address of a kernel parameter (`mov.b64 %rd, k_param_1;`, what clang
                // emits to read the fields of a struct passed by value): an address in the
                // param space, which is the parameter's byte offset there (PTX ISA §5.1.6.1;
                // `cvta.param` turns it into a generic address).
                None if self.param_ix.contains_key(name) => {
                    let p = &self.params[self.param_ix[name] as usize];
                    KOperand::Imm(u64::from(p.offset).wrapping_add(*offset as u64))
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
            None | Some(Sem::Weak) if matches!(i.opcode, Opcode::Atom | Opcode::Red) => {
                Order::Relaxed
            }
            None => Order::Plain,
            Some(sem) => {
                a.volatile = sem == Sem::Volatile;
                crate::quals::order_of(sem).ok_or_else(|| {
                    err(
                        i.span,
                        format!("`{}`: `{sem}` is not supported", i.mnemonic()),
                    )
                })?
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
        crate::quals::ir_scope(s).ok_or_else(|| {
            err(
                i.span,
                format!("`{}`: `{s}` scope is not supported", i.mnemonic()),
            )
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
}
