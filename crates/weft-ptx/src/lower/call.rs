//! Calls in a PTX kernel: device functions inlined per call site, calls through function
//! pointers dispatched over the module's functions, external functions havocked, and the
//! marker calls of `weft_gpuverify.h` turned into annotations and specification queries.

use weft_ir::attrs::{DataType, MemAttrs, MemSpace, TypeKind};
use weft_ir::code::Reg;
use weft_ir::kernel::{Addr, AddrBase, KCmp, KGuard, KOp, Operand as KOperand};

use super::{data_type, err, function_address, var_size, LResult, Lowerer};
use crate::ast::*;

impl Lowerer<'_> {
    /// Inlines `call (rets), f, (args);`: the callee's body is lowered in place with its
    /// registers and labels renamed, its parameters bound to the caller's `.param` argument
    /// variables, and each `ret` turned into a branch past the body.
    pub(super) fn inline_call(&mut self, i: &Instruction) -> LResult<()> {
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
        // The results cross the jump of each `ret` in registers (see `spill_cells`): loaded
        // at every `ret` (a PTX function body ends with one), stored back past the body. Not
        // loaded before the body: a register written once keeps its value on every path in
        // the verifier, where an earlier value would be a case without the result's array.
        let mut spills = Vec::new();
        for (p, a) in f.returns.iter().zip(&rets) {
            if let Some(v) = param_var(self, a) {
                spills.extend(self.spill_cells(p, v));
            }
        }
        let old = std::mem::replace(&mut self.prefix, new_prefix);
        self.call_stack.push(name);
        self.ret_spills.push(spills);
        let r = self.walk(body);
        self.labels
            .insert(format!("{}$weft_ret", self.prefix), self.code.len() as u32);
        let spills = self.ret_spills.pop().unwrap_or_default();
        self.spill_store(i, &spills);
        self.call_stack.pop();
        self.prefix = old;
        r
    }

    /// The cells of the `.param` variable `v` that hold parameter `p` (one per element of its
    /// type), each with a fresh register to carry it.
    ///
    /// Why registers: weft verify forwards a thread-private store to a later load only inside
    /// one basic block, while registers keep their values across blocks. Where control flow
    /// separates the store of a call's argument or result from its load (the comparison
    /// chain of an indirect call, a `ret` that jumps past the inlined body), copying the
    /// cells through registers keeps the value, so a pointer passed or returned keeps its
    /// array. For the emulator each copy is an identity.
    pub(super) fn spill_cells(&mut self, p: &Param, v: u32) -> Vec<(u32, DataType, Reg, i64)> {
        let Some(ty) = data_type(p.ty) else {
            return Vec::new();
        };
        let size = var_size(p.ty, p.vector, &p.dims);
        let width = u64::from(ty.bits / 8).max(1);
        if size > 64 {
            return Vec::new();
        }
        (0..size / width)
            .map(|k| (v, ty, self.fresh_reg(ty), (k * width) as i64))
            .collect()
    }

    /// Loads each cell of `cells` into its register.
    pub(super) fn spill_load(&mut self, i: &Instruction, cells: &[(u32, DataType, Reg, i64)]) {
        for &(v, ty, r, off) in cells {
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
                        offset: off,
                    },
                },
            );
        }
    }

    /// Stores each register of `cells` back into its cell.
    pub(super) fn spill_store(&mut self, i: &Instruction, cells: &[(u32, DataType, Reg, i64)]) {
        for &(v, ty, r, off) in cells {
            self.store_local(i, ty, r, v, off);
        }
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
        // Arguments and results cross the comparison chain in registers (see
        // `spill_cells`); the cells' layout is the first candidate's.
        let (mut arg_cells, mut ret_cells) = (Vec::new(), Vec::new());
        if let Some(f) = candidates.first().and_then(|c| self.module.function(c)) {
            let (args, rets) = (lists.last().copied(), lists.first().copied());
            let args = args.filter(|_| n_args > 0);
            for (p, a) in f.params.iter().zip(args.into_iter().flatten()) {
                if let Some(v) = param_var(self, a) {
                    arg_cells.extend(self.spill_cells(p, v));
                }
            }
            if n_rets > 0 {
                for (p, a) in f.returns.iter().zip(rets.into_iter().flatten()) {
                    if let Some(v) = param_var(self, a) {
                        ret_cells.extend(self.spill_cells(p, v));
                    }
                }
            }
        }
        self.spill_load(i, &arg_cells);
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
            self.spill_store(i, &arg_cells);
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
            self.spill_load(i, &ret_cells);
            ends.push(self.code.len());
            self.emit(i, KOp::Bra { target: 0 });
        }
        let end = self.code.len() as u32;
        for e in ends {
            if let KOp::Bra { target } = &mut self.code[e].op {
                *target = end;
            }
        }
        self.spill_store(i, &ret_cells);
        Ok(())
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

/// The `.param` variable a call operand names.
fn param_var(l: &Lowerer<'_>, a: &Operand) -> Option<u32> {
    match a {
        Operand::Symbol { name, offset: 0 } | Operand::Reg(name) => l.var(name),
        _ => None,
    }
}
