//! From a litmus [`Program`] to what the kernel needs: the shape of the scope tree (which
//! test threads share a CTA and a warp), the memory cells (global or shared), pointer
//! registers, and each thread's body as a list of [`Op`]s whose memory instructions are
//! spelled exactly as PTX (paper 000 §2.3: the test's order, scope and cache operator are
//! kept on every access). Anything PTX cannot express, or that this harness does not run,
//! is refused with a [`CodegenError`] naming the instruction and the thread.

use weft_ir::{
    BinOp, CacheOp, Expr, Fence, FenceKind, MemAttrs, MemSpace, Order, Program, Reg, RmwOp, Scope,
    Stmt, StmtKind, TypeKind, Value,
};

use weft_ptx::ast::{
    AtomOp, CacheOp as PtxCacheOp, Modifiers, Opcode, ScalarType, Scope as PtxScope, Sem,
    StateSpace,
};
use weft_ptx::quals;

use crate::error::CodegenError;

/// Where one memory cell (element `index` of location `loc`) lives in the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    pub loc: u32,
    pub index: u32,
}

/// How a register of a test thread is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RegSlot {
    /// A 32-bit value written to the result buffer at this word offset within the instance.
    Value(u32),
    /// A register that only ever holds the address of a cell (`.reg .b64 r1 = x`): not
    /// stored; decoding reports the symbolic address the SC interpreter uses.
    Pointer(Cell),
}

/// The scope tree of a test as the kernel needs it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shape {
    /// CTA groups; each a list of warp groups; each a list of test threads.
    pub ctas: Vec<Vec<Vec<usize>>>,
    /// For each test thread, its CTA group.
    pub cta_of: Vec<usize>,
}

/// A value operand of a memory instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    Reg(u32),
    Imm(i32),
    /// Computed by an expression just before the instruction.
    Expr(Expr),
}

/// One operation of a thread body, after lowering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `ld`/`st`/`atom`/`red`: `mnemonic` is the full PTX mnemonic (`ld.global.cg.s32`).
    Mem {
        guard: Option<(u32, bool)>,
        kind: MemKind,
        mnemonic: String,
        dst: Option<u32>,
        /// Index into the thread's address registers ([`LThread::addrs`]).
        cell: usize,
        srcs: Vec<Val>,
    },
    /// A fence (`membar.gl`, `fence.sc.gpu`, ...).
    Fence {
        guard: Option<(u32, bool)>,
        mnemonic: String,
    },
    Assign {
        guard: Option<(u32, bool)>,
        dst: u32,
        value: Expr,
    },
    Label(String),
    /// A branch. A `backward` one closes a loop: the kernel counts it against the
    /// thread's loop budget ([`crate::layout::LOOP_LIMIT`]) and, once spent, abandons the
    /// body and marks the instance stuck (no outcome) so that a spin loop whose partner
    /// never comes cannot hang the GPU.
    Jump {
        target: String,
        cond: Option<Expr>,
        backward: bool,
    },
    If {
        cond: Expr,
        then_ops: Vec<Op>,
        else_ops: Vec<Op>,
    },
}

/// The class of a memory instruction, as optcheck compares it with SASS.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum MemKind {
    Load,
    Store,
    /// `atom` and `red` (ptxas turns an `atom` whose result is unused into `RED`).
    Rmw,
    Fence,
}

/// A lowered test thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LThread {
    pub name: String,
    /// Initial value of every register (pointer registers: 0, never used as values).
    pub reg_init: Vec<i32>,
    pub regs: Vec<RegSlot>,
    /// Cells this thread accesses, in first-use order.
    pub cells: Vec<Cell>,
    /// Address registers: (index into `cells`, generic addressing). An access that names
    /// no state space in the test (`ld.cg.s32 r0,[r1]`, Dat3M's `ld.weak r0, x`) uses a
    /// generic address, as the test does; one that names `.global`/`.shared` uses that space.
    pub addrs: Vec<(usize, bool)>,
    pub body: Vec<Op>,
}

/// A lowered program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lowered {
    pub shape: Shape,
    pub threads: Vec<LThread>,
    /// Per location: its space and number of elements.
    pub locs: Vec<(MemSpace, u32, i32)>,
}

fn err<T>(m: impl Into<String>) -> Result<T, CodegenError> {
    Err(CodegenError::new(m))
}

/// Groups the threads by CTA and warp instance (`Placement::same_instance`), refusing
/// threads on different GPUs.
pub fn shape(p: &Program) -> Result<Shape, CodegenError> {
    let n = p.threads.len();
    if n == 0 {
        return err("the test has no threads");
    }
    for i in 0..n {
        for j in (i + 1)..n {
            let (a, b) = (&p.threads[i].placement, &p.threads[j].placement);
            if !a.same_instance(b, Scope::Gpu) {
                return err(format!(
                    "threads {} and {} are on different GPUs; one kernel launch runs on one GPU",
                    p.threads[i].name, p.threads[j].name
                ));
            }
        }
    }
    let mut ctas: Vec<Vec<Vec<usize>>> = Vec::new();
    let mut cta_of = vec![0; n];
    for (t, th) in p.threads.iter().enumerate() {
        let g = ctas.iter().position(|warps| {
            let first = warps[0][0];
            p.threads[first]
                .placement
                .same_instance(&th.placement, Scope::Cta)
        });
        let g = match g {
            Some(g) => g,
            None => {
                ctas.push(Vec::new());
                ctas.len() - 1
            }
        };
        cta_of[t] = g;
        let w = ctas[g].iter().position(|lanes| {
            p.threads[lanes[0]]
                .placement
                .same_instance(&th.placement, Scope::Warp)
        });
        match w {
            Some(w) => ctas[g][w].push(t),
            None => ctas[g].push(vec![t]),
        }
    }
    Ok(Shape { ctas, cta_of })
}

fn imm32(v: i64, what: &str) -> Result<i32, CodegenError> {
    if let Ok(x) = i32::try_from(v) {
        return Ok(x);
    }
    if let Ok(x) = u32::try_from(v) {
        return Ok(x as i32);
    }
    err(format!(
        "{what}: the constant {v} does not fit in 32 bits (the kernel's cells and registers are 32-bit)"
    ))
}

fn ptx_scope(s: Option<Scope>, what: &str) -> Result<PtxScope, CodegenError> {
    match s {
        Some(sc) => match quals::scope_of(sc) {
            Some(q) => Ok(q),
            None => err(format!("{what}: scope {} has no PTX spelling", sc.name())),
        },
        None => err(format!("{what}: a scope (.cta, .gpu or .sys) is required")),
    }
}

struct ThreadCx<'a> {
    p: &'a Program,
    t: usize,
    pointers: Vec<Option<Cell>>,
    cells: Vec<Cell>,
    addrs: Vec<(usize, bool)>,
    labels: Vec<String>,
    seen_labels: Vec<String>,
}

impl ThreadCx<'_> {
    fn tname(&self) -> &str {
        &self.p.threads[self.t].name
    }

    fn resolve(&mut self, e: &Expr, what: &str) -> Result<usize, CodegenError> {
        let cell = match e {
            Expr::Addr(l) => Cell { loc: l.0, index: 0 },
            Expr::Reg(r) => match self.pointers.get(r.index()).copied().flatten() {
                Some(c) => c,
                None => {
                    return err(format!(
                    "{what} in thread {}: the address register {} does not hold a fixed location",
                    self.tname(),
                    self.p.threads[self.t].reg_name(*r)
                ))
                }
            },
            Expr::Bin(BinOp::Add, a, b) => match (&**a, &**b) {
                (base, Expr::Int(k)) | (Expr::Int(k), base) => {
                    let i = self.resolve(base, what)?;
                    let c = self.cells[i];
                    let idx = u32::try_from(*k).ok().and_then(|k| k.checked_add(c.index));
                    match idx {
                        Some(index) => Cell { loc: c.loc, index },
                        None => return err(format!("{what}: negative or huge address offset")),
                    }
                }
                _ => {
                    return err(format!(
                        "{what} in thread {}: computed addresses are not supported",
                        self.tname()
                    ))
                }
            },
            _ => {
                return err(format!(
                    "{what} in thread {}: computed addresses are not supported",
                    self.tname()
                ))
            }
        };
        let loc = self.p.locations.get(cell.loc as usize);
        let Some(loc) = loc else {
            return err(format!("{what}: address of an unknown location"));
        };
        if loc.alias.is_some() {
            return err(format!(
                "{what} in thread {}: location {} is an alias (proxy tests) and is not supported",
                self.tname(),
                loc.name
            ));
        }
        if cell.index >= loc.size {
            return err(format!(
                "{what} in thread {}: element {} of {} is out of bounds",
                self.tname(),
                cell.index,
                loc.name
            ));
        }
        Ok(match self.cells.iter().position(|c| *c == cell) {
            Some(i) => i,
            None => {
                self.cells.push(cell);
                self.cells.len() - 1
            }
        })
    }

    fn val(&self, e: &Expr, what: &str) -> Result<Val, CodegenError> {
        self.check_expr(e, what)?;
        Ok(match e {
            Expr::Int(v) => Val::Imm(imm32(*v, what)?),
            Expr::Reg(r) => Val::Reg(r.0),
            other => Val::Expr(other.clone()),
        })
    }

    fn check_expr(&self, e: &Expr, what: &str) -> Result<(), CodegenError> {
        match e {
            Expr::Int(v) => imm32(*v, what).map(|_| ()),
            Expr::Reg(r) => {
                if r.index() >= self.pointers.len() {
                    return err(format!("{what}: unknown register"));
                }
                if self.pointers[r.index()].is_some() {
                    return err(format!(
                        "{what} in thread {}: the address register {} is used as a value",
                        self.tname(),
                        self.p.threads[self.t].reg_name(*r)
                    ));
                }
                Ok(())
            }
            Expr::Addr(_) => err(format!(
                "{what} in thread {}: an address used as a value is not supported",
                self.tname()
            )),
            Expr::Un(_, a) => self.check_expr(a, what),
            Expr::Bin(_, a, b) => {
                self.check_expr(a, what)?;
                self.check_expr(b, what)
            }
        }
    }

    fn guard(&self, s: &Stmt) -> Result<Option<(u32, bool)>, CodegenError> {
        match s.guard {
            None => Ok(None),
            Some(g) => {
                self.check_expr(&Expr::Reg(g.reg), "a guard")?;
                Ok(Some((g.reg.0, g.negated)))
            }
        }
    }

    /// The state-space qualifier of an access (`.global`, `.shared`, or `""` for a generic
    /// address) and the address register it uses.
    fn space(
        &mut self,
        cell: usize,
        attrs: &MemAttrs,
        what: &str,
    ) -> Result<(Option<StateSpace>, usize), CodegenError> {
        let loc = &self.p.locations[self.cells[cell].loc as usize];
        let sp = match loc.space {
            MemSpace::Global | MemSpace::Shared => quals::state_space(loc.space),
            other => {
                return err(format!(
                    "{what} in thread {}: location {} is in {} memory; only global and shared are supported",
                    self.tname(),
                    loc.name,
                    other.name()
                ))
            }
        };
        let generic = match attrs.space {
            None | Some(MemSpace::Generic) => true,
            Some(s) if s == loc.space => false,
            Some(s) => {
                return err(format!(
                    "{what} in thread {}: the instruction names .{} but {} is in {} memory",
                    self.tname(),
                    s.name(),
                    loc.name,
                    loc.space.name()
                ))
            }
        };
        let key = (cell, generic);
        let a = match self.addrs.iter().position(|x| *x == key) {
            Some(a) => a,
            None => {
                self.addrs.push(key);
                self.addrs.len() - 1
            }
        };
        Ok((if generic { None } else { sp }, a))
    }

    fn ty(
        &self,
        attrs: &MemAttrs,
        default: ScalarType,
        what: &str,
    ) -> Result<ScalarType, CodegenError> {
        let ptx = attrs.ty.and_then(quals::scalar_type);
        match (attrs.ty, ptx) {
            (None, _) => Ok(default),
            (Some(t), Some(q)) if t.bits == 32 && t.kind != TypeKind::Float => Ok(q),
            (Some(t), _) => err(format!(
                "{what}: the type .{} is not supported (cells are 32-bit integers)",
                t.ptx_name()
            )),
        }
    }

    /// `ld`/`st` qualifiers: `.volatile`, `.relaxed.<s>`, `.acquire.<s>`, `.release.<s>`,
    /// or a cache operator; the state space follows.
    fn ldst_sem(
        &self,
        attrs: &MemAttrs,
        is_load: bool,
        what: &str,
    ) -> Result<(Option<Sem>, Option<PtxScope>), CodegenError> {
        let s = match attrs.order {
            Order::Plain => {
                if attrs.volatile {
                    if attrs.cache.is_some() {
                        return err(format!(
                            "{what}: .volatile with a cache operator is not PTX"
                        ));
                    }
                    (Some(Sem::Volatile), None)
                } else if let Some(sc) = attrs.scope {
                    // A scoped weak access has no PTX spelling.
                    return err(format!(
                        "{what}: a weak access with scope {} has no PTX spelling",
                        sc.name()
                    ));
                } else {
                    (None, None)
                }
            }
            Order::Relaxed => (Some(Sem::Relaxed), Some(ptx_scope(attrs.scope, what)?)),
            Order::Acquire if is_load => (Some(Sem::Acquire), Some(ptx_scope(attrs.scope, what)?)),
            Order::Release if !is_load => (Some(Sem::Release), Some(ptx_scope(attrs.scope, what)?)),
            o => {
                return err(format!(
                    "{what}: {} {} has no PTX spelling",
                    if is_load { "ld" } else { "st" },
                    o.name()
                ))
            }
        };
        if attrs.order != Order::Plain && attrs.cache.is_some() {
            return err(format!(
                "{what}: a cache operator on a {} access is not PTX",
                attrs.order.name()
            ));
        }
        if attrs.proxy != weft_ir::Proxy::Generic {
            return err(format!(
                "{what}: accesses through the {} proxy are not supported",
                attrs.proxy.name()
            ));
        }
        Ok(s)
    }

    fn cache(attrs: &MemAttrs) -> Option<PtxCacheOp> {
        attrs.cache.map(|c: CacheOp| quals::cache_of(c))
    }

    /// `ld`/`st` mnemonic, through weft-ptx's qualifier table and order.
    fn ldst_mnemonic(
        op: Opcode,
        (sem, scope): (Option<Sem>, Option<PtxScope>),
        space: Option<StateSpace>,
        attrs: &MemAttrs,
        ty: ScalarType,
    ) -> String {
        quals::mnemonic(
            op,
            &Modifiers {
                sem,
                scope,
                space,
                cache: Self::cache(attrs),
                types: vec![ty],
                ..Modifiers::default()
            },
        )
    }

    fn stmts(&mut self, code: &[Stmt], out: &mut Vec<Op>) -> Result<(), CodegenError> {
        for s in code {
            self.stmt(s, out)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, out: &mut Vec<Op>) -> Result<(), CodegenError> {
        let guard = self.guard(s)?;
        let at = format!("line {}", s.span.line);
        let vk = match &s.kind {
            StmtKind::Load(l) => Some(&l.attrs),
            StmtKind::Store(st) => Some(&st.attrs),
            StmtKind::Rmw(r) => Some(&r.attrs),
            StmtKind::Fence(f) => Some(&f.attrs),
            _ => None,
        };
        if vk.is_some_and(|a| !a.vulkan.is_empty()) {
            return err(format!(
                "{at} in thread {}: Vulkan availability/visibility and storage-class semantics have no PTX spelling",
                self.tname()
            ));
        }
        if let StmtKind::Fence(f) = &s.kind {
            if !f.spaces.is_empty() {
                return err(format!(
                    "fence ({at}) in thread {}: a fence restricted to some memory spaces has no PTX spelling (PTX fences order all spaces)",
                    self.tname()
                ));
            }
        }
        match &s.kind {
            StmtKind::Load(l) => {
                let what = format!("ld ({at})");
                let cell = self.resolve(&l.addr, &what)?;
                let (sp, cell) = self.space(cell, &l.attrs, &what)?;
                let sem = self.ldst_sem(&l.attrs, true, &what)?;
                let ty = self.ty(&l.attrs, ScalarType::B32, &what)?;
                let m = Self::ldst_mnemonic(Opcode::Ld, sem, sp, &l.attrs, ty);
                self.check_expr(&Expr::Reg(l.dst), &what)?;
                out.push(Op::Mem {
                    guard,
                    kind: MemKind::Load,
                    mnemonic: m,
                    dst: Some(l.dst.0),
                    cell,
                    srcs: vec![],
                });
            }
            StmtKind::Store(st) => {
                let what = format!("st ({at})");
                let cell = self.resolve(&st.addr, &what)?;
                let (sp, cell) = self.space(cell, &st.attrs, &what)?;
                let sem = self.ldst_sem(&st.attrs, false, &what)?;
                let ty = self.ty(&st.attrs, ScalarType::B32, &what)?;
                let m = Self::ldst_mnemonic(Opcode::St, sem, sp, &st.attrs, ty);
                let v = self.val(&st.value, &what)?;
                out.push(Op::Mem {
                    guard,
                    kind: MemKind::Store,
                    mnemonic: m,
                    dst: None,
                    cell,
                    srcs: vec![v],
                });
            }
            StmtKind::Rmw(r) => out.push(self.rmw(r, guard, &at)?),
            StmtKind::Fence(f) => {
                let what = format!("fence ({at})");
                let m = fence_mnemonic(f, &what)?;
                out.push(Op::Fence { guard, mnemonic: m });
            }
            StmtKind::Barrier(_) => {
                return err(format!(
                    "bar ({at}) in thread {}: execution barriers are not supported (many test instances share a CTA, so bar.sync would synchronise other instances' threads)",
                    self.tname()
                ))
            }
            StmtKind::Assign { dst, value } => {
                let what = format!("assignment ({at})");
                self.check_expr(&Expr::Reg(*dst), &what)?;
                self.check_expr(value, &what)?;
                out.push(Op::Assign {
                    guard,
                    dst: dst.0,
                    value: value.clone(),
                });
            }
            StmtKind::Label(l) => {
                self.seen_labels.push(l.clone());
                out.push(Op::Label(self.label(l)));
            }
            StmtKind::Jump { target, cond } => {
                out.push(self.jump(s, target, cond.as_ref(), &at)?);
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                if guard.is_some() {
                    return err(format!("guarded if ({at}) is not supported"));
                }
                self.check_expr(cond, "if")?;
                let mut t = Vec::new();
                let mut e = Vec::new();
                self.stmts(then_branch, &mut t)?;
                self.stmts(else_branch, &mut e)?;
                out.push(Op::If {
                    cond: cond.clone(),
                    then_ops: t,
                    else_ops: e,
                });
            }
            StmtKind::While { .. } => {
                return err(format!(
                    "while loop ({at}) in thread {}: structured loops are not supported (loops written with labels and branches are)",
                    self.tname()
                ))
            }
            StmtKind::Assume(_) | StmtKind::Assert(_) => {
                return err(format!(
                    "assume/assert ({at}) in thread {} is not supported on hardware",
                    self.tname()
                ))
            }
        }
        Ok(())
    }

    /// A jump (its guard folded into its condition); a backward one makes a loop, which the
    /// kernel bounds (see `Op::Jump`).
    fn jump(
        &mut self,
        s: &Stmt,
        target: &str,
        cond: Option<&Expr>,
        at: &str,
    ) -> Result<Op, CodegenError> {
        let what = format!("branch ({at})");
        // A backward jump makes a loop: the kernel bounds it (see `Op::Jump`).
        let backward = self.seen_labels.iter().any(|l| l == target);
        if !self.labels.iter().any(|l| l == target) {
            return err(format!("{what}: unknown label {target}"));
        }
        let mut cond = cond.cloned();
        if let Some(g) = s.guard {
            let gexpr = Expr::Reg(g.reg);
            let gexpr = if g.negated {
                Expr::un(weft_ir::UnOp::LNot, gexpr)
            } else {
                gexpr
            };
            cond = Some(match cond {
                Some(c) => Expr::bin(BinOp::LAnd, gexpr, c),
                None => gexpr,
            });
        }
        if let Some(c) = &cond {
            self.check_expr(c, &what)?;
        }
        Ok(Op::Jump {
            target: self.label(target),
            cond,
            backward,
        })
    }

    fn label(&self, l: &str) -> String {
        let clean: String = l
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let idx = self.labels.iter().position(|x| x == l).unwrap_or(0);
        format!("L_t{}_{}_{}", self.t, idx, clean)
    }

    fn rmw(
        &mut self,
        r: &weft_ir::Rmw,
        guard: Option<(u32, bool)>,
        at: &str,
    ) -> Result<Op, CodegenError> {
        let base = if r.dst.is_some() { "atom" } else { "red" };
        let what = format!("{base}.{} ({at})", r.op.name());
        let cell = self.resolve(&r.addr, &what)?;
        let (sp, cell) = self.space(cell, &r.attrs, &what)?;
        if r.attrs.volatile || r.attrs.cache.is_some() {
            return err(format!("{what}: volatile or cached atomics are not PTX"));
        }
        if r.args.len() != r.op.arity() {
            return err(format!("{what}: wrong number of operands"));
        }
        let mut srcs: Vec<Val> = Vec::new();
        for a in &r.args {
            srcs.push(self.val(a, &what)?);
        }
        use ScalarType::{B32, S32, U32};
        let (op, default_ty) = match r.op {
            // PTX has no atom.sub: subtracting v is adding -v (same value, same bits).
            RmwOp::Sub => {
                let v = srcs.pop().unwrap_or(Val::Imm(0));
                srcs.push(match v {
                    Val::Imm(i) => Val::Imm(i.wrapping_neg()),
                    Val::Reg(x) => Val::Expr(Expr::un(weft_ir::UnOp::Neg, Expr::Reg(Reg(x)))),
                    Val::Expr(e) => Val::Expr(Expr::un(weft_ir::UnOp::Neg, e)),
                });
                (AtomOp::Add, U32)
            }
            RmwOp::CompareExchange { .. } => {
                return err(format!(
                    "{what}: C11 compare_exchange has no single PTX instruction"
                ))
            }
            o => match quals::atom_op_of(o) {
                Some(
                    op @ (AtomOp::Exch | AtomOp::Cas | AtomOp::And | AtomOp::Or | AtomOp::Xor),
                ) => (op, B32),
                Some(op @ (AtomOp::Add | AtomOp::Inc | AtomOp::Dec)) => (op, U32),
                Some(op @ (AtomOp::Min | AtomOp::Max)) => (op, S32),
                None => return err(format!("{what}: no PTX atomic operation")),
            },
        };
        let ty = match r.attrs.ty {
            Some(t) if t.bits == 32 && t.kind != TypeKind::Float => {
                let n = quals::scalar_type(t).unwrap_or(default_ty);
                // Keep the test's type where PTX allows it for this operation.
                let ok = match op {
                    AtomOp::Exch | AtomOp::Cas | AtomOp::And | AtomOp::Or | AtomOp::Xor => n == B32,
                    AtomOp::Add => n == U32 || n == S32,
                    AtomOp::Inc | AtomOp::Dec => n == U32,
                    _ => n == U32 || n == S32,
                };
                if ok {
                    n
                } else {
                    default_ty
                }
            }
            Some(t) => {
                return err(format!(
                    "{what}: the type .{} is not supported (cells are 32-bit integers)",
                    t.ptx_name()
                ))
            }
            None => default_ty,
        };
        // `red` takes only .relaxed/.release; with acquire semantics it is an `atom` whose
        // result is discarded (the same event in the PTX model).
        let mut base = base;
        let sem = match r.attrs.order {
            Order::Plain => None,
            o @ (Order::Relaxed | Order::Acquire | Order::Release | Order::AcqRel) => {
                quals::sem_of(o)
            }
            o => return err(format!("{what}: a {} atomic has no PTX spelling", o.name())),
        };
        if base == "red"
            && (matches!(op, AtomOp::Cas | AtomOp::Exch)
                || matches!(sem, Some(Sem::Acquire | Sem::AcqRel)))
        {
            base = "atom";
        }
        let scope = match r.attrs.scope {
            None if sem.is_none() => None,
            s => Some(ptx_scope(s, &what)?),
        };
        let m = quals::mnemonic(
            if base == "atom" {
                Opcode::Atom
            } else {
                Opcode::Red
            },
            &Modifiers {
                sem,
                scope,
                space: sp,
                atom: Some(op),
                types: vec![ty],
                ..Modifiers::default()
            },
        );
        if let Some(d) = r.dst {
            self.check_expr(&Expr::Reg(d), &what)?;
        }
        Ok(Op::Mem {
            guard,
            kind: MemKind::Rmw,
            mnemonic: m,
            dst: if base == "atom" {
                Some(r.dst.map(|d| d.0).unwrap_or(u32::MAX))
            } else {
                None
            },
            cell,
            srcs,
        })
    }
}

fn collect_labels(code: &[Stmt], out: &mut Vec<String>) {
    weft_ir::code::walk(code, &mut |s| {
        if let StmtKind::Label(l) = &s.kind {
            out.push(l.clone());
        }
    });
}

/// Lowers every thread; refuses what the kernel cannot run.
pub fn lower(p: &Program) -> Result<Lowered, CodegenError> {
    let shape = shape(p)?;
    let mut locs = Vec::new();
    for l in &p.locations {
        let init = match l.init {
            Value::Int(v) => imm32(v, &format!("initial value of {}", l.name))?,
            Value::Addr(_) => {
                return err(format!(
                "location {} is initialised with an address; pointers in memory are not supported",
                l.name
            ))
            }
        };
        if l.size == 0 || l.size > 1 << 16 {
            return err(format!(
                "location {} has an unsupported size {}",
                l.name, l.size
            ));
        }
        locs.push((l.space, l.size, init));
    }
    let mut threads = Vec::new();
    for (t, th) in p.threads.iter().enumerate() {
        // Registers written anywhere in the thread.
        let mut written = vec![false; th.regs.len()];
        weft_ir::code::walk(&th.code, &mut |s| {
            if let Some(r) = s.kind.def() {
                if let Some(w) = written.get_mut(r.index()) {
                    *w = true;
                }
            }
        });
        let mut pointers = Vec::new();
        let mut reg_init = Vec::new();
        for (i, d) in th.regs.iter().enumerate() {
            match d.init {
                Some(Value::Addr(l)) => {
                    if written[i] {
                        return err(format!(
                            "register {} of thread {} holds an address and is also written",
                            d.name, th.name
                        ));
                    }
                    if l.index() >= p.locations.len() {
                        return err(format!("register {} points to an unknown location", d.name));
                    }
                    pointers.push(Some(Cell { loc: l.0, index: 0 }));
                    reg_init.push(0);
                }
                Some(Value::Int(v)) => {
                    pointers.push(None);
                    reg_init.push(imm32(v, &format!("initial value of {}", d.name))?);
                }
                None => {
                    pointers.push(None);
                    reg_init.push(0);
                }
            }
        }
        let mut labels = Vec::new();
        collect_labels(&th.code, &mut labels);
        let mut cx = ThreadCx {
            p,
            t,
            pointers: pointers.clone(),
            cells: Vec::new(),
            addrs: Vec::new(),
            labels,
            seen_labels: Vec::new(),
        };
        let mut body = Vec::new();
        cx.stmts(&th.code, &mut body)?;
        let regs = pointers
            .iter()
            .map(|c| match c {
                Some(c) => RegSlot::Pointer(*c),
                None => RegSlot::Value(0),
            })
            .collect();
        threads.push(LThread {
            name: th.name.clone(),
            reg_init,
            regs,
            cells: cx.cells,
            addrs: cx.addrs,
            body,
        });
    }
    // Shared locations must be used by threads of one CTA only.
    for (li, (space, _, _)) in locs.iter().enumerate() {
        if *space != MemSpace::Shared {
            continue;
        }
        let users: Vec<usize> = threads
            .iter()
            .enumerate()
            .filter(|(_, th)| th.cells.iter().any(|c| c.loc as usize == li))
            .map(|(t, _)| shape.cta_of[t])
            .collect();
        if users.windows(2).any(|w| w[0] != w[1]) {
            return err(format!(
                "shared location {} is accessed by threads in different CTAs",
                p.locations[li].name
            ));
        }
    }
    Ok(Lowered {
        shape,
        threads,
        locs,
    })
}

/// The memory instructions of one thread in program order, as (class, mnemonic): what the
/// tests and optcheck compare with.
pub fn mem_sequence(ops: &[Op], out: &mut Vec<(MemKind, String)>) {
    for o in ops {
        match o {
            Op::Mem { kind, mnemonic, .. } => out.push((*kind, mnemonic.clone())),
            Op::Fence { mnemonic, .. } => out.push((MemKind::Fence, mnemonic.clone())),
            Op::If {
                then_ops, else_ops, ..
            } => {
                mem_sequence(then_ops, out);
                mem_sequence(else_ops, out);
            }
            _ => {}
        }
    }
}

/// The PTX mnemonic of a fence (`what` names it in errors).
fn fence_mnemonic(f: &Fence, what: &str) -> Result<String, CodegenError> {
    Ok(match f.kind {
        FenceKind::Membar => match f.attrs.scope.and_then(quals::scope_of) {
            // `membar.gl` is the GPU level (weft-ptx prints `.gpu` as `.gl` here).
            scope @ Some(_) => quals::mnemonic(
                Opcode::Membar,
                &Modifiers {
                    scope,
                    ..Modifiers::default()
                },
            ),
            None => return err(format!("{what}: membar needs a scope cta, gl or sys")),
        },
        FenceKind::Fence => match f.attrs.order {
            o @ (Order::SeqCst | Order::AcqRel) => quals::mnemonic(
                Opcode::Fence,
                &Modifiers {
                    sem: quals::sem_of(o),
                    scope: Some(ptx_scope(f.attrs.scope, what)?),
                    ..Modifiers::default()
                },
            ),
            o => return err(format!("{what}: a {} fence has no PTX spelling", o.name())),
        },
        FenceKind::ProxyFence(None) => "fence.proxy.alias".to_string(),
        FenceKind::ProxyFence(Some(px)) => {
            return err(format!(
                "{what}: fence.proxy.{} is not supported (no proxy accesses)",
                px.name()
            ))
        }
        FenceKind::AvDevice | FenceKind::VisDevice => {
            return err(format!(
                "{what}: Vulkan availability/visibility operations are not PTX"
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpu_ptx(t0: &str, t1: &str, mem: &str) -> Program {
        let src = format!(
            "GPU_PTX t\n{{\nx=0;\ny=0;\n0:.reg .s32 r0;\n1:.reg .s32 r0;\n}}\n T0 | T1 ;\n {t0} | {t1} ;\nScopeTree(grid(cta(warp T0) (warp T1)))\n{mem}\nexists (1:r0=0)\n"
        );
        weft_litmus::parse(&src).unwrap_or_else(|e| panic!("{e}\n{src}"))
    }

    fn mnemonics(p: &Program) -> Vec<Vec<String>> {
        lower(p)
            .unwrap()
            .threads
            .iter()
            .map(|t| {
                let mut v = Vec::new();
                mem_sequence(&t.body, &mut v);
                v.into_iter().map(|(_, m)| m).collect()
            })
            .collect()
    }

    #[test]
    fn explicit_and_generic_state_spaces() {
        let p = gpu_ptx(
            "st.global.cg.s32 [x],1",
            "ld.shared.ca.s32 r0,[y]",
            "x: global, y: shared",
        );
        assert_eq!(
            mnemonics(&p),
            vec![vec!["st.global.cg.s32"], vec!["ld.shared.ca.s32"]]
        );
        let p = gpu_ptx(
            "st.cg.s32 [x],1",
            "ld.volatile.s32 r0,[y]",
            "x: global, y: shared",
        );
        assert_eq!(
            mnemonics(&p),
            vec![vec!["st.cg.s32"], vec!["ld.volatile.s32"]]
        );
        let l = lower(&p).unwrap();
        assert_eq!(l.threads[0].addrs, vec![(0, true)]);
    }

    #[test]
    fn a_space_that_contradicts_the_location_is_refused() {
        let p = gpu_ptx(
            "st.shared.cg.s32 [x],1",
            "ld.cg.s32 r0,[y]",
            "x: global, y: global",
        );
        let e = lower(&p).unwrap_err();
        assert!(e.message.contains(".shared"), "{e}");
    }

    #[test]
    fn shared_locations_across_ctas_are_refused() {
        let src = "GPU_PTX t\n{\nx=0;\n1:.reg .s32 r0;\n}\n T0 | T1 ;\n st.cg.s32 [x],1 | ld.cg.s32 r0,[x] ;\nScopeTree(grid(cta(warp T0)) (cta(warp T1)))\nx: shared\nexists (1:r0=0)\n";
        let p = weft_litmus::parse(src).unwrap();
        let e = lower(&p).unwrap_err();
        assert!(e.message.contains("different CTAs"), "{e}");
    }

    #[test]
    fn dat3m_orders_and_scopes_are_kept() {
        let src = "PTX t\n{\nx=0;\ny=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.acquire.sys r0, y ;\n fence.acq_rel.cta | fence.sc.gpu ;\n st.release.gpu y, 1 | atom.relaxed.cta.exch r1, x, 2 ;\n red.release.gpu.add x, 1 | ld.relaxed.cta r2, x ;\nexists (P1:r0 == 1)\n";
        let p = weft_litmus::parse(src).unwrap();
        assert_eq!(
            mnemonics(&p),
            vec![
                vec![
                    "st.relaxed.gpu.b32",
                    "fence.acq_rel.cta",
                    "st.release.gpu.b32",
                    "red.release.gpu.add.u32"
                ],
                vec![
                    "ld.acquire.sys.b32",
                    "fence.sc.gpu",
                    "atom.relaxed.cta.exch.b32",
                    "ld.relaxed.cta.b32"
                ]
            ]
        );
    }

    #[test]
    fn inexpressible_accesses_are_refused_by_name() {
        let base = gpu_ptx(
            "st.cg.s32 [x],1",
            "ld.cg.s32 r0,[y]",
            "x: global, y: global",
        );
        // Rewrites T1's load attributes and expects a refusal naming the problem.
        type Edit = Box<dyn Fn(&mut MemAttrs)>;
        let cases: Vec<(Edit, &str)> = vec![
            (Box::new(|a| a.order = Order::SeqCst), "ld seq_cst"),
            (Box::new(|a| a.order = Order::Release), "ld release"),
            (
                Box::new(|a| {
                    a.volatile = true;
                    a.cache = Some(CacheOp::Cg);
                }),
                ".volatile with a cache operator",
            ),
            (
                Box::new(|a| {
                    a.order = Order::Acquire;
                    a.scope = Some(Scope::Warp);
                    a.cache = None;
                }),
                "scope warp",
            ),
            (
                Box::new(|a| {
                    a.order = Order::Acquire;
                    a.scope = Some(Scope::Gpu);
                }),
                "cache operator on a acquire access",
            ),
            (
                Box::new(|a| a.proxy = weft_ir::Proxy::Surface),
                "surface proxy",
            ),
        ];
        for (edit, needle) in cases {
            let mut p = base.clone();
            match &mut p.threads[1].code[0].kind {
                StmtKind::Load(l) => edit(&mut l.attrs),
                other => panic!("{other:?}"),
            }
            let e = lower(&p).unwrap_err();
            assert!(e.message.contains(needle), "{needle}: {e}");
            assert!(e.message.contains("ld"), "names the instruction: {e}");
        }
        // A C11 compare-exchange has no PTX instruction.
        let mut p = base.clone();
        p.threads[1].code[0].kind = StmtKind::Rmw(weft_ir::Rmw {
            dst: Some(Reg(0)),
            addr: Expr::Addr(weft_ir::LocId(0)),
            op: RmwOp::CompareExchange { weak: false },
            args: vec![Expr::Int(0), Expr::Int(1)],
            attrs: MemAttrs::default(),
            fail_order: None,
        });
        let e = lower(&p).unwrap_err();
        assert!(e.message.contains("compare_exchange"), "{e}");
    }
}
