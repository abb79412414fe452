//! Pre-decoding: a [`Kernel`] becomes a compact [`DInstr`] array the emulator dispatches on
//! directly: operands resolved to register indices or immediates (variable addresses folded
//! in), typed arithmetic chosen as lane functions ([`crate::alu`]), each conditional branch
//! paired with its reconvergence point ([`weft_ir::analysis::KCfg::instr_ipdoms`]), and each
//! memory instruction tagged with its paper 003 §3.1 trace operation (rd/wr/atm or acq/rel/ar at block or global
//! scope, inferred from `.sem` qualifiers and from adjacent fences as BARRACUDA does).

use weft_ir::attrs::{BarrierKind, DataType, FenceKind, MemSpace, Order, RmwOp, TypeKind};
use weft_ir::kernel::{
    AddrBase, AnnotKind, BarRed, KBinOp, KBoolOp, KCmp, KOp, Kernel, MatchMode, Operand, QueryKind,
    ShflMode, SpecialReg, SysFunc, VoteMode,
};
use weft_ir::Scope;

use crate::alu::{self, BinFn, CmpFn, UnFn};
use crate::mem::{GLOBAL_BASE, LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW};

/// A decoded source operand.
#[derive(Clone, Copy, Debug)]
pub enum Src {
    /// Register index.
    R(u32),
    /// Immediate bit pattern.
    I(u64),
    /// Special register.
    S(SpecialReg),
}

/// A decoded address: `reg + off` or just `off`.
#[derive(Clone, Copy, Debug)]
pub struct DAddr {
    pub base: Option<u32>,
    pub off: i64,
}

/// The trace operation a memory instruction produces per active thread (paper 003 §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceKind {
    Rd,
    Wr,
    Atm,
    Acq(bool),
    Rel(bool),
    Ar(bool),
    /// Not traced (param-space reads).
    None,
}

impl TraceKind {
    /// The paper's name of the operation (`bool` = global scope).
    pub fn name(self) -> &'static str {
        match self {
            TraceKind::Rd => "rd",
            TraceKind::Wr => "wr",
            TraceKind::Atm => "atm",
            TraceKind::Acq(false) => "acqBlk",
            TraceKind::Acq(true) => "acqGlb",
            TraceKind::Rel(false) => "relBlk",
            TraceKind::Rel(true) => "relGlb",
            TraceKind::Ar(false) => "arBlk",
            TraceKind::Ar(true) => "arGlb",
            TraceKind::None => "",
        }
    }
}

/// The most frequent integer operations, executed by monomorphised lane loops (no call per
/// lane); everything else goes through an [`alu`] function pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastBin {
    Add32,
    Add64,
    Sub32,
    Sub64,
    Mul32,
    Mul64,
    /// Bitwise and/or/xor: exact at every width on zero-extended registers.
    And,
    Or,
    Xor,
    Shl32,
    Shl64,
    ShrU32,
    ShrS32,
    ShrU64,
    ShrS64,
    WideU32,
    WideS32,
    MinS32,
    MaxS32,
    MinU32,
    MaxU32,
    /// IEEE `add`/`sub`/`mul` on f32 and f64 (round to nearest, as [`alu::binary`]).
    AddF32,
    SubF32,
    MulF32,
    AddF64,
    SubF64,
    MulF64,
}

/// Integer `mad` forms with a monomorphised lane loop: `mad.lo` at 32 and 64 bits and
/// `mad.wide` from 32 bits (exactly [`alu::binary`]'s multiply, then its add at the
/// result's width).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastMad {
    Lo32,
    Lo64,
    WideU32,
    WideS32,
}

/// The fast form of `mad` with `mode` on `ty`, if there is one.
pub fn fast_mad(mode: KBinOp, ty: DataType) -> Option<FastMad> {
    use TypeKind::*;
    match (mode, ty.kind, ty.bits) {
        (KBinOp::Mul, Signed | Unsigned | Bits, 32) => Some(FastMad::Lo32),
        (KBinOp::Mul, Signed | Unsigned | Bits, 64) => Some(FastMad::Lo64),
        (KBinOp::MulWide, Unsigned | Bits, 32) => Some(FastMad::WideU32),
        (KBinOp::MulWide, Signed, 32) => Some(FastMad::WideS32),
        _ => None,
    }
}

/// Integer comparisons with a monomorphised lane loop: the comparison and the operand class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastCmp {
    /// `Eq`, `Ne`, `Lt`, `Le`, `Gt` or `Ge`.
    pub cmp: KCmp,
    /// 0: s32, 1: u32/b32, 2: s64, 3: u64/b64.
    pub class: u8,
}

/// The fast form of an integer `setp`, if there is one.
pub fn fast_cmp(cmp: KCmp, ty: DataType) -> Option<FastCmp> {
    let class = match (ty.kind, ty.bits) {
        (TypeKind::Signed, 32) => 0,
        (TypeKind::Unsigned | TypeKind::Bits, 32) => 1,
        (TypeKind::Signed, 64) => 2,
        (TypeKind::Unsigned | TypeKind::Bits, 64) => 3,
        _ => return None,
    };
    matches!(
        cmp,
        KCmp::Eq | KCmp::Ne | KCmp::Lt | KCmp::Le | KCmp::Gt | KCmp::Ge
    )
    .then_some(FastCmp { cmp, class })
}

/// The fast form of `op` on `ty`, if there is one.
pub fn fast_bin(op: KBinOp, ty: DataType) -> Option<FastBin> {
    use FastBin::*;
    use TypeKind::*;
    let int = matches!(ty.kind, Signed | Unsigned | Bits);
    let signed = ty.kind == Signed;
    Some(match (op, ty.bits) {
        (KBinOp::And, _) if int || ty.kind == Pred => And,
        (KBinOp::Or, _) if int || ty.kind == Pred => Or,
        (KBinOp::Xor, _) if int || ty.kind == Pred => Xor,
        (KBinOp::Add, 32) if ty.kind == Float => AddF32,
        (KBinOp::Sub, 32) if ty.kind == Float => SubF32,
        (KBinOp::Mul, 32) if ty.kind == Float => MulF32,
        (KBinOp::Add, 64) if ty.kind == Float => AddF64,
        (KBinOp::Sub, 64) if ty.kind == Float => SubF64,
        (KBinOp::Mul, 64) if ty.kind == Float => MulF64,
        _ if !int => return None,
        (KBinOp::Add, 32) => Add32,
        (KBinOp::Add, 64) => Add64,
        (KBinOp::Sub, 32) => Sub32,
        (KBinOp::Sub, 64) => Sub64,
        (KBinOp::Mul, 32) => Mul32,
        (KBinOp::Mul, 64) => Mul64,
        (KBinOp::Shl, 32) => Shl32,
        (KBinOp::Shl, 64) => Shl64,
        (KBinOp::Shr, 32) if signed => ShrS32,
        (KBinOp::Shr, 32) => ShrU32,
        (KBinOp::Shr, 64) if signed => ShrS64,
        (KBinOp::Shr, 64) => ShrU64,
        (KBinOp::MulWide, 32) if signed => WideS32,
        (KBinOp::MulWide, 32) => WideU32,
        (KBinOp::Min, 32) if signed => MinS32,
        (KBinOp::Max, 32) if signed => MaxS32,
        (KBinOp::Min, 32) => MinU32,
        (KBinOp::Max, 32) => MaxU32,
        _ => return None,
    })
}

/// A decoded instruction.
#[derive(Clone, Debug)]
pub enum DOp {
    BinFast {
        op: FastBin,
        dst: u32,
        a: Src,
        b: Src,
    },
    Mov {
        dst: u32,
        src: Src,
        bits: u16,
    },
    Un {
        f: UnFn,
        dst: u32,
        a: Src,
        bits: u16,
    },
    Bin {
        f: BinFn,
        dst: u32,
        a: Src,
        b: Src,
        bits: u16,
    },
    /// An integer `mad` with a fast form.
    MadFast {
        op: FastMad,
        dst: u32,
        a: Src,
        b: Src,
        c: Src,
    },
    Mad {
        mul: BinFn,
        add: BinFn,
        dst: u32,
        a: Src,
        b: Src,
        c: Src,
        fused_float: Option<u16>,
    },
    /// A plain integer `setp` (no second destination, no combining predicate).
    SetpFast {
        cmp: FastCmp,
        dst: u32,
        a: Src,
        b: Src,
    },
    Setp {
        f: CmpFn,
        dst: u32,
        dst2: Option<u32>,
        a: Src,
        b: Src,
        combine: Option<(KBoolOp, Src, bool)>,
    },
    Selp {
        dst: u32,
        a: Src,
        b: Src,
        p: Src,
    },
    Cvt {
        dst: u32,
        src: Src,
        dst_ty: DataType,
        src_ty: DataType,
        rounding: Option<weft_ir::kernel::Rounding>,
        integral: bool,
        sat: bool,
    },
    Cvta {
        dst: u32,
        src: Src,
        add: i64,
    },
    Bfe {
        dst: u32,
        a: Src,
        pos: Src,
        len: Src,
        ty: DataType,
    },
    Bfi {
        dst: u32,
        a: Src,
        b: Src,
        pos: Src,
        len: Src,
        bits: u16,
    },
    Shf {
        left: bool,
        wrap: bool,
        dst: u32,
        a: Src,
        b: Src,
        c: Src,
    },
    Prmt {
        dst: u32,
        a: Src,
        b: Src,
        sel: Src,
    },
    Ld {
        space: MemSpace,
        width: u8,
        sext: bool,
        dst: Vec<Option<u32>>,
        addr: DAddr,
        trace: TraceKind,
    },
    St {
        space: MemSpace,
        width: u8,
        src: Vec<Src>,
        addr: DAddr,
        trace: TraceKind,
    },
    Atom {
        op: RmwOp,
        space: MemSpace,
        ty: DataType,
        dst: Option<u32>,
        addr: DAddr,
        a: Src,
        b: Option<Src>,
        trace: TraceKind,
    },
    Fence,
    Bar {
        id: Src,
        count: Option<Src>,
        arrive: bool,
        red: Option<(BarRed, u32, Src, bool)>,
    },
    WarpSync {
        mask: Src,
    },
    /// Conditional or unconditional branch; `rpc` is the reconvergence point.
    Bra {
        target: u32,
        rpc: u32,
    },
    Exit,
    Shfl {
        mode: ShflMode,
        dst: u32,
        dst_pred: Option<u32>,
        a: Src,
        b: Src,
        c: Src,
        mask: Src,
    },
    Vote {
        mode: VoteMode,
        dst: u32,
        p: Src,
        neg: bool,
        mask: Src,
    },
    Match {
        mode: MatchMode,
        bits: u16,
        dst: u32,
        dst_pred: Option<u32>,
        a: Src,
        mask: Src,
    },
    Activemask {
        dst: u32,
    },
    /// A checked specification statement (`__assert`, `__invariant`): lanes where `cond` is
    /// zero fail it.
    Assert {
        kind: AnnotKind,
        cond: Src,
    },
    /// A specification query, evaluated for the thread paired with itself.
    Query {
        kind: QueryKind,
        dst: u32,
        bits: u16,
        args: Vec<Src>,
    },
    /// A CUDA system call (`vprintf`, `__assertfail`), run by the machine with memory access.
    Sys {
        func: SysFunc,
        dst: Option<u32>,
        args: Vec<Src>,
    },
    Nop,
    Trap,
}

impl DOp {
    /// Whether the operation only reads and writes registers (moves, arithmetic,
    /// comparisons, conversions, bit operations, specification queries): the emulator runs
    /// a straight sequence of them without returning to the scheduler.
    #[inline(always)]
    pub fn is_regop(&self) -> bool {
        matches!(
            self,
            DOp::BinFast { .. }
                | DOp::Mov { .. }
                | DOp::Un { .. }
                | DOp::Bin { .. }
                | DOp::Mad { .. }
                | DOp::MadFast { .. }
                | DOp::SetpFast { .. }
                | DOp::Setp { .. }
                | DOp::Selp { .. }
                | DOp::Cvt { .. }
                | DOp::Cvta { .. }
                | DOp::Bfe { .. }
                | DOp::Bfi { .. }
                | DOp::Shf { .. }
                | DOp::Prmt { .. }
                | DOp::Query { .. }
        )
    }
}

/// A decoded instruction with its guard.
#[derive(Clone, Debug)]
pub struct DInstr {
    /// `(register, negated)`.
    pub guard: Option<(u32, bool)>,
    pub op: DOp,
    /// Register-only instructions ([`DOp::is_regop`]) in a row from this one, this one
    /// included (0 when it is not one): the warp emulator runs that many without looking
    /// at each instruction's kind again.
    pub run: u32,
}

/// A decoding error (an operation/type combination the emulator does not implement).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Instruction index.
    pub pc: usize,
    /// What is wrong.
    pub message: String,
}

/// Variable base addresses in their own spaces: global/const vars are placed in the global
/// arena after the launch's buffers, at `global_var_base` (an arena offset).
pub struct Layout {
    pub var_addr: Vec<u64>,
    pub shared_bytes: u64,
    pub local_bytes: u64,
    /// Bytes of module `.global`/`.const` variables (placed at `global_var_base`).
    pub global_var_bytes: u64,
}

impl Layout {
    pub fn new(k: &Kernel, global_var_base: u64) -> Layout {
        let mut var_addr = vec![0; k.vars.len()];
        let (sh, shared_bytes) = k.layout(MemSpace::Shared);
        let (lo, local_bytes) = k.layout(MemSpace::Local);
        let (gl, gbytes) = k.layout(MemSpace::Global);
        let (co, cbytes) = k.layout(MemSpace::Constant);
        let cbase = gbytes.div_ceil(256) * 256;
        for (i, v) in k.vars.iter().enumerate() {
            var_addr[i] = match v.space {
                MemSpace::Shared => sh[i],
                MemSpace::Local => lo[i],
                MemSpace::Global => GLOBAL_BASE + global_var_base + gl[i],
                MemSpace::Constant => GLOBAL_BASE + global_var_base + cbase + co[i],
                _ => 0,
            };
        }
        Layout {
            var_addr,
            shared_bytes,
            local_bytes,
            global_var_bytes: cbase + cbytes,
        }
    }
}

fn is_fence(op: &KOp) -> Option<bool> {
    match op {
        KOp::Fence {
            kind: FenceKind::Membar | FenceKind::Fence,
            attrs,
        } => Some(!matches!(
            attrs.scope,
            Some(Scope::Cta) | Some(Scope::Warp) | Some(Scope::Thread)
        )),
        _ => None,
    }
}

fn is_mem(op: &KOp) -> bool {
    matches!(
        op,
        KOp::Ld { .. }
            | KOp::St { .. }
            | KOp::Atom { .. }
            | KOp::Barrier { .. }
            | KOp::Bra { .. }
            | KOp::Exit
    )
}

/// The fence adjacent to instruction `pc` in direction `dir` (-1 or +1), skipping
/// arithmetic; `Some(global)` when found before another memory or control instruction.
fn adjacent_fence(k: &Kernel, pc: usize, dir: isize) -> Option<bool> {
    let mut i = pc as isize + dir;
    while i >= 0 && (i as usize) < k.code.len() {
        let op = &k.code[i as usize].op;
        if let Some(g) = is_fence(op) {
            return Some(g);
        }
        // Looking forward, a conditional branch falls through (a CAS spin loop followed by a
        // fence is an acquire, paper 003 §3.1); anything else memory- or control-related ends
        // the search.
        let cond_branch = matches!(op, KOp::Bra { .. }) && k.code[i as usize].guard.is_some();
        if is_mem(op) && !(dir > 0 && cond_branch) {
            return None;
        }
        i += dir;
    }
    None
}

fn scope_global(s: Option<Scope>) -> bool {
    !matches!(
        s,
        Some(Scope::Cta) | Some(Scope::Warp) | Some(Scope::Thread)
    )
}

/// Decodes the whole kernel.
pub fn decode(k: &Kernel, layout: &Layout) -> Result<Vec<DInstr>, DecodeError> {
    let ipdom = weft_ir::analysis::KCfg::new(k).instr_ipdoms();
    let n = k.code.len();
    let mut out = Vec::with_capacity(n);
    for (pc, ins) in k.code.iter().enumerate() {
        let c = At {
            k,
            layout,
            ipdom: &ipdom,
            pc,
        };
        let op = match &ins.op {
            KOp::Mov { .. }
            | KOp::Unary { .. }
            | KOp::Binary { .. }
            | KOp::Mad { .. }
            | KOp::Setp { .. }
            | KOp::Selp { .. } => decode_arith(&c, &ins.op)?,
            KOp::Cvt { .. }
            | KOp::Cvta { .. }
            | KOp::Bfe { .. }
            | KOp::Bfi { .. }
            | KOp::Shf { .. }
            | KOp::Prmt { .. } => decode_bits(&c, &ins.op)?,
            KOp::Ld { .. } | KOp::St { .. } | KOp::Atom { .. } => decode_mem(&c, &ins.op)?,
            _ => decode_control(&c, &ins.op)?,
        };
        out.push(DInstr {
            guard: ins.guard.map(|g| (g.reg.0, g.negated)),
            op,
            run: 0,
        });
    }
    set_runs(&mut out);
    Ok(out)
}

/// The instruction being decoded: its kernel, the variable layout, the reconvergence
/// points and its pc.
struct At<'a> {
    k: &'a Kernel,
    layout: &'a Layout,
    ipdom: &'a [u32],
    pc: usize,
}

/// Moves, arithmetic, `mad`, `setp` and `selp`.
fn decode_arith(c: &At, op: &KOp) -> Result<DOp, DecodeError> {
    let (layout, pc) = (c.layout, c.pc);
    let e = |m: String| DecodeError { pc, message: m };
    let src = |o: &Operand| -> Src {
        match *o {
            Operand::Reg(r) => Src::R(r.0),
            Operand::Imm(v) => Src::I(v),
            Operand::Special(s) => Src::S(s),
            Operand::VarAddr { var, offset } => {
                Src::I(layout.var_addr[var as usize].wrapping_add(offset as u64))
            }
        }
    };
    Ok(match op {
        KOp::Mov { ty, dst, src: s } => DOp::Mov {
            dst: dst.0,
            src: src(s),
            bits: ty.bits,
        },
        KOp::Unary { op, ty, dst, a } => DOp::Un {
            f: alu::unary(*op, *ty)
                .ok_or_else(|| e(format!("`{op:?}` on {} is not supported", ty.ptx_name())))?,
            dst: dst.0,
            a: src(a),
            bits: ty.bits,
        },
        KOp::Binary { op, ty, dst, a, b } if fast_bin(*op, *ty).is_some() => DOp::BinFast {
            op: fast_bin(*op, *ty).expect("checked"),
            dst: dst.0,
            a: src(a),
            b: src(b),
        },
        KOp::Binary { op, ty, dst, a, b } => DOp::Bin {
            f: alu::binary(*op, *ty)
                .ok_or_else(|| e(format!("`{op:?}` on {} is not supported", ty.ptx_name())))?,
            dst: dst.0,
            a: src(a),
            b: src(b),
            bits: if *op == KBinOp::MulWide {
                ty.bits * 2
            } else {
                ty.bits
            },
        },
        KOp::Mad {
            mode,
            ty,
            dst,
            a,
            b,
            c,
        } if fast_mad(*mode, *ty).is_some() => DOp::MadFast {
            op: fast_mad(*mode, *ty).expect("checked"),
            dst: dst.0,
            a: src(a),
            b: src(b),
            c: src(c),
        },
        KOp::Mad {
            mode,
            ty,
            dst,
            a,
            b,
            c,
        } => {
            let mul = alu::binary(*mode, *ty)
                .ok_or_else(|| e(format!("`mad` on {} is not supported", ty.ptx_name())))?;
            let aty = if *mode == KBinOp::MulWide {
                DataType {
                    bits: ty.bits * 2,
                    ..*ty
                }
            } else {
                *ty
            };
            let add = alu::binary(KBinOp::Add, aty).ok_or_else(|| e("bad mad type".into()))?;
            let fused_float = (ty.kind == TypeKind::Float).then_some(ty.bits);
            DOp::Mad {
                mul,
                add,
                dst: dst.0,
                a: src(a),
                b: src(b),
                c: src(c),
                fused_float,
            }
        }
        KOp::Setp {
            cmp,
            ty,
            dst,
            dst2: None,
            a,
            b,
            combine: None,
        } if fast_cmp(*cmp, *ty).is_some() => DOp::SetpFast {
            cmp: fast_cmp(*cmp, *ty).expect("checked"),
            dst: dst.0,
            a: src(a),
            b: src(b),
        },
        KOp::Setp {
            cmp,
            ty,
            dst,
            dst2,
            a,
            b,
            combine,
        } => DOp::Setp {
            f: alu::compare(*cmp, *ty).ok_or_else(|| {
                e(format!(
                    "`setp.{cmp:?}` on {} is not supported",
                    ty.ptx_name()
                ))
            })?,
            dst: dst.0,
            dst2: dst2.map(|r| r.0),
            a: src(a),
            b: src(b),
            combine: combine.as_ref().map(|(op, p, neg)| (*op, src(p), *neg)),
        },
        KOp::Selp {
            dst, a, b, pred, ..
        } => DOp::Selp {
            dst: dst.0,
            a: src(a),
            b: src(b),
            p: src(pred),
        },
        _ => unreachable!("decode_arith: another instruction family"),
    })
}

/// Conversions, bit-field operations, funnel shifts and byte permutes.
fn decode_bits(c: &At, op: &KOp) -> Result<DOp, DecodeError> {
    let layout = c.layout;
    let src = |o: &Operand| -> Src {
        match *o {
            Operand::Reg(r) => Src::R(r.0),
            Operand::Imm(v) => Src::I(v),
            Operand::Special(s) => Src::S(s),
            Operand::VarAddr { var, offset } => {
                Src::I(layout.var_addr[var as usize].wrapping_add(offset as u64))
            }
        }
    };
    Ok(match op {
        KOp::Cvt {
            dst_ty,
            src_ty,
            dst,
            src: s,
            rounding,
            integral,
            sat,
        } => DOp::Cvt {
            dst: dst.0,
            src: src(s),
            dst_ty: *dst_ty,
            src_ty: *src_ty,
            rounding: *rounding,
            integral: *integral,
            sat: *sat,
        },
        KOp::Cvta {
            to,
            space,
            dst,
            src: s,
        } => {
            let base = match space {
                MemSpace::Shared => SHARED_WINDOW,
                MemSpace::Local => LOCAL_WINDOW,
                MemSpace::Param => PARAM_WINDOW,
                _ => 0,
            } as i64;
            DOp::Cvta {
                dst: dst.0,
                src: src(s),
                add: if *to { -base } else { base },
            }
        }
        KOp::Bfe {
            ty,
            dst,
            a,
            pos,
            len,
        } => DOp::Bfe {
            dst: dst.0,
            a: src(a),
            pos: src(pos),
            len: src(len),
            ty: *ty,
        },
        KOp::Bfi {
            ty,
            dst,
            a,
            b,
            pos,
            len,
        } => DOp::Bfi {
            dst: dst.0,
            a: src(a),
            b: src(b),
            pos: src(pos),
            len: src(len),
            bits: ty.bits,
        },
        KOp::Shf {
            left,
            wrap,
            dst,
            a,
            b,
            c,
        } => DOp::Shf {
            left: *left,
            wrap: *wrap,
            dst: dst.0,
            a: src(a),
            b: src(b),
            c: src(c),
        },
        KOp::Prmt { dst, a, b, sel } => DOp::Prmt {
            dst: dst.0,
            a: src(a),
            b: src(b),
            sel: src(sel),
        },
        _ => unreachable!("decode_bits: another instruction family"),
    })
}

/// Loads, stores and atomics, with their trace operation.
fn decode_mem(c: &At, op: &KOp) -> Result<DOp, DecodeError> {
    let (k, layout, pc) = (c.k, c.layout, c.pc);
    let e = |m: String| DecodeError { pc, message: m };
    let src = |o: &Operand| -> Src {
        match *o {
            Operand::Reg(r) => Src::R(r.0),
            Operand::Imm(v) => Src::I(v),
            Operand::Special(s) => Src::S(s),
            Operand::VarAddr { var, offset } => {
                Src::I(layout.var_addr[var as usize].wrapping_add(offset as u64))
            }
        }
    };
    let addr = |a: &weft_ir::kernel::Addr| -> DAddr {
        match a.base {
            AddrBase::Reg(r) => DAddr {
                base: Some(r.0),
                off: a.offset,
            },
            AddrBase::Var(v) => DAddr {
                base: None,
                off: layout.var_addr[v as usize] as i64 + a.offset,
            },
            AddrBase::Param(p) => DAddr {
                base: None,
                off: i64::from(k.params[p as usize].offset) + a.offset,
            },
            AddrBase::Abs(x) => DAddr {
                base: None,
                off: x as i64 + a.offset,
            },
        }
    };
    Ok(match op {
        KOp::Ld {
            attrs,
            ty,
            dst,
            addr: a,
        } => {
            let space = attrs.space.unwrap_or(MemSpace::Generic);
            let trace = if space == MemSpace::Param {
                TraceKind::None
            } else if matches!(attrs.order, Order::Acquire | Order::AcqRel | Order::SeqCst) {
                TraceKind::Acq(scope_global(attrs.scope))
            } else if let Some(g) = adjacent_fence(k, pc, 1) {
                TraceKind::Acq(g)
            } else {
                TraceKind::Rd
            };
            DOp::Ld {
                space,
                width: (ty.bits.max(8) / 8) as u8,
                sext: ty.kind == TypeKind::Signed,
                dst: dst.iter().map(|r| r.map(|r| r.0)).collect(),
                addr: addr(a),
                trace,
            }
        }
        KOp::St {
            attrs,
            ty,
            src: s,
            addr: a,
        } => {
            let space = attrs.space.unwrap_or(MemSpace::Generic);
            if matches!(space, MemSpace::Param | MemSpace::Constant) {
                return Err(e(format!(
                    "stores to the {} space are not supported",
                    space.name()
                )));
            }
            let trace = if matches!(attrs.order, Order::Release | Order::AcqRel | Order::SeqCst) {
                TraceKind::Rel(scope_global(attrs.scope))
            } else if let Some(g) = adjacent_fence(k, pc, -1) {
                TraceKind::Rel(g)
            } else {
                TraceKind::Wr
            };
            DOp::St {
                space,
                width: (ty.bits.max(8) / 8) as u8,
                src: s.iter().map(src).collect(),
                addr: addr(a),
                trace,
            }
        }
        KOp::Atom {
            op,
            attrs,
            ty,
            dst,
            addr: a,
            args,
        } => {
            let space = attrs.space.unwrap_or(MemSpace::Generic);
            if !matches!(ty.bits, 32 | 64) {
                return Err(e(format!("{}-bit atomics are not supported", ty.bits)));
            }
            if matches!(op, RmwOp::CompareExchange { .. }) {
                return Err(e("C11 compare-exchange is not a PTX atomic".into()));
            }
            let g = scope_global(attrs.scope);
            let trace = match attrs.order {
                Order::Acquire => TraceKind::Acq(g),
                Order::Release => TraceKind::Rel(g),
                Order::AcqRel | Order::SeqCst => TraceKind::Ar(g),
                _ => match (adjacent_fence(k, pc, -1), adjacent_fence(k, pc, 1)) {
                    (Some(a), Some(b)) => TraceKind::Ar(a || b),
                    (Some(a), None) => TraceKind::Rel(a),
                    (None, Some(b)) => TraceKind::Acq(b),
                    (None, None) => TraceKind::Atm,
                },
            };
            DOp::Atom {
                op: *op,
                space,
                ty: *ty,
                dst: dst.map(|r| r.0),
                addr: addr(a),
                a: src(&args[0]),
                b: args.get(1).map(src),
                trace,
            }
        }
        _ => unreachable!("decode_mem: another instruction family"),
    })
}

/// Fences, barriers, branches, exit, warp-level operations, annotations, queries and
/// system calls.
fn decode_control(c: &At, op: &KOp) -> Result<DOp, DecodeError> {
    let (k, layout, pc) = (c.k, c.layout, c.pc);
    let (n, ipdom) = (k.code.len(), c.ipdom);
    let e = |m: String| DecodeError { pc, message: m };
    let src = |o: &Operand| -> Src {
        match *o {
            Operand::Reg(r) => Src::R(r.0),
            Operand::Imm(v) => Src::I(v),
            Operand::Special(s) => Src::S(s),
            Operand::VarAddr { var, offset } => {
                Src::I(layout.var_addr[var as usize].wrapping_add(offset as u64))
            }
        }
    };
    Ok(match op {
        KOp::Fence { .. } => DOp::Fence,
        KOp::Barrier {
            kind,
            id,
            count,
            red,
        } => match kind {
            BarrierKind::Warp => DOp::WarpSync { mask: src(id) },
            BarrierKind::Sync | BarrierKind::Arrive => DOp::Bar {
                id: src(id),
                count: count.as_ref().map(src),
                arrive: *kind == BarrierKind::Arrive,
                red: red.as_ref().map(|(op, d, p, neg)| (*op, d.0, src(p), *neg)),
            },
        },
        KOp::Bra { target } => {
            if *target as usize > n {
                return Err(e(format!("branch target {target} out of range")));
            }
            DOp::Bra {
                target: *target,
                rpc: ipdom[pc],
            }
        }
        KOp::Exit => DOp::Exit,
        KOp::Shfl {
            mode,
            dst,
            dst_pred,
            a,
            b,
            c,
            mask,
        } => DOp::Shfl {
            mode: *mode,
            dst: dst.0,
            dst_pred: dst_pred.map(|r| r.0),
            a: src(a),
            b: src(b),
            c: src(c),
            mask: src(mask),
        },
        KOp::Vote {
            mode,
            dst,
            pred,
            negated,
            mask,
        } => DOp::Vote {
            mode: *mode,
            dst: dst.0,
            p: src(pred),
            neg: *negated,
            mask: src(mask),
        },
        KOp::Match {
            mode,
            bits,
            dst,
            dst_pred,
            a,
            mask,
        } => DOp::Match {
            mode: *mode,
            bits: *bits,
            dst: dst.0,
            dst_pred: dst_pred.map(|r| r.0),
            a: src(a),
            mask: src(mask),
        },
        KOp::Activemask { dst } => DOp::Activemask { dst: dst.0 },
        KOp::Annot {
            kind,
            cond,
            thread_local,
        } if *thread_local && kind.checked_when_reached() => DOp::Assert {
            kind: *kind,
            cond: src(cond),
        },
        KOp::Annot { .. } => DOp::Nop,
        KOp::Query {
            kind,
            ty,
            dst,
            args,
        } => DOp::Query {
            kind: *kind,
            dst: dst.0,
            bits: ty.bits,
            args: args.iter().map(src).collect(),
        },
        KOp::SysCall { func, dst, args } => DOp::Sys {
            func: *func,
            dst: dst.map(|r| r.0),
            args: args.iter().map(src).collect(),
        },
        KOp::Nop => DOp::Nop,
        KOp::Trap => DOp::Trap,
        _ => unreachable!("decode_control: another instruction family"),
    })
}

/// Sets each instruction's [`DInstr::run`] (register-only instructions in a row from it).
fn set_runs(code: &mut [DInstr]) {
    let mut after = 0u32;
    for d in code.iter_mut().rev() {
        after = if d.op.is_regop() { after + 1 } else { 0 };
        d.run = after;
    }
}

/// Turns each load of one scalar from a fixed param-space address (`ld.param` of a kernel
/// parameter) into a move of the value it reads: the launch's param space (`param`) never
/// changes while the kernel runs, such a load reads the same value in every lane, is not
/// traced ([`TraceKind::None`]) and cannot fault once it is in bounds, so the move writes
/// exactly what the load would, and it joins the straight runs of register-only
/// instructions. Loads out of bounds, of other widths or into several registers are kept
/// (they fault or take the general path as before). `reg_bits`: each register's width.
pub fn fold_param_loads(code: &mut [DInstr], param: &[u8], reg_bits: &[u16]) {
    let mut folded = false;
    for d in code.iter_mut() {
        let DOp::Ld {
            space: MemSpace::Param,
            width,
            sext,
            dst,
            addr: DAddr { base: None, off },
            trace: TraceKind::None,
        } = &d.op
        else {
            continue;
        };
        let ([Some(r)], true) = (&dst[..], matches!(width, 1 | 2 | 4 | 8)) else {
            continue;
        };
        let Ok(o) = u64::try_from(*off) else {
            continue;
        };
        let Some(v) = crate::mem::read(param, o, *width as usize) else {
            continue;
        };
        let v = if *sext {
            alu::sext(v, u16::from(*width) * 8) as u64
        } else {
            v
        };
        let bits = reg_bits[*r as usize];
        d.op = DOp::Mov {
            dst: *r,
            src: Src::I(alu::trunc(v, bits)),
            bits,
        };
        folded = true;
    }
    if folded {
        set_runs(code);
    }
}

/// The registers a CTA's registers must be cleared for when it is launched: those some
/// thread may read before writing them (live at the kernel's entry: every path from the
/// entry, a guarded write counting as no write) and the sources of `shfl` (a lane reads
/// them from another lane, which may not have written them). Every other register is
/// written by a thread before the thread reads it, so a value left by the slot's previous
/// CTA is never observed and clearing it would only cost time.
pub fn regs_to_clear(k: &Kernel) -> Vec<u32> {
    if k.code.is_empty() {
        return Vec::new();
    }
    let cfg = weft_ir::analysis::KCfg::new(k);
    let live = cfg.live_in(k, None, &weft_ir::analysis::RegSet::default());
    let mut clear = vec![false; k.regs.len()];
    if let Some(entry) = live.first() {
        for r in entry.iter() {
            if let Some(c) = clear.get_mut(r) {
                *c = true;
            }
        }
    }
    for ins in &k.code {
        if let KOp::Shfl {
            a: Operand::Reg(r), ..
        } = &ins.op
        {
            if let Some(c) = clear.get_mut(r.index()) {
                *c = true;
            }
        }
    }
    (0..k.regs.len() as u32)
        .filter(|&r| clear[r as usize])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_ir::kernel::KBinOp;

    /// The fast forms agree with the general lane functions of `alu`.
    #[test]
    fn fast_forms_exist_for_common_ops() {
        for (op, ty) in [
            (KBinOp::Add, DataType::S32),
            (KBinOp::Shr, DataType::S32),
            (KBinOp::MulWide, DataType::U32),
            (KBinOp::And, DataType::PRED),
            (KBinOp::Min, DataType::U32),
        ] {
            assert!(fast_bin(op, ty).is_some(), "{op:?} {ty:?}");
        }
        let f32t = DataType {
            kind: TypeKind::Float,
            bits: 32,
        };
        assert!(fast_bin(KBinOp::Add, f32t).is_some());
        assert!(fast_bin(KBinOp::Div, f32t).is_none());
        assert!(fast_bin(KBinOp::Div, DataType::S32).is_none());
        assert!(fast_mad(KBinOp::Mul, DataType::S32).is_some());
        assert!(fast_mad(KBinOp::MulHi, DataType::S32).is_none());
        assert!(fast_mad(KBinOp::Mul, f32t).is_none());
    }

    /// A param load in bounds becomes a move of the value it reads (sign-extended from the
    /// access, truncated to the register), and the runs of register-only instructions are
    /// recomputed; a load out of bounds, a vector load and a load through a register stay.
    #[test]
    fn param_loads_fold_into_moves() {
        let ld =
            |width: u8, sext: bool, dst: Vec<Option<u32>>, base: Option<u32>, off: i64| DInstr {
                guard: None,
                op: DOp::Ld {
                    space: MemSpace::Param,
                    width,
                    sext,
                    dst,
                    addr: DAddr { base, off },
                    trace: TraceKind::None,
                },
                run: 0,
            };
        let mut code = vec![
            ld(4, true, vec![Some(0)], None, 4),
            ld(4, true, vec![Some(1)], None, 4),
            ld(2, false, vec![Some(0)], None, 6),
            ld(4, false, vec![Some(0)], None, 8),
            ld(4, false, vec![Some(0), Some(1)], None, 0),
            ld(4, false, vec![Some(0)], Some(1), 0),
            ld(1, false, vec![Some(0)], None, 1),
        ];
        // 10 bytes: bytes 4..8 hold -2 as an s32.
        let param = [1u8, 2, 3, 4, 0xfe, 0xff, 0xff, 0xff, 9, 9];
        fold_param_loads(&mut code, &param, &[64, 32]);
        let mov = |d: &DInstr| match d.op {
            DOp::Mov {
                dst,
                src: Src::I(v),
                bits,
            } => Some((dst, v, bits)),
            _ => None,
        };
        assert_eq!(mov(&code[0]), Some((0, u64::MAX - 1, 64)));
        assert_eq!(mov(&code[1]), Some((1, 0xffff_fffe, 32)));
        assert_eq!(mov(&code[2]), Some((0, 0xffff, 64)));
        assert_eq!(mov(&code[3]), None, "bytes 8..12 are past the end");
        assert_eq!(mov(&code[4]), None, "two registers");
        assert_eq!(mov(&code[5]), None, "through a register");
        assert_eq!(mov(&code[6]), Some((0, 2, 64)));
        let runs: Vec<u32> = code.iter().map(|d| d.run).collect();
        assert_eq!(runs, [3, 2, 1, 0, 0, 0, 1]);
    }
}
