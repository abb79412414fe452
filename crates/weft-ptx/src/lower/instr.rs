//! Lowering of one PTX instruction to kernel-IR operations: moves (including vector
//! pack/unpack), arithmetic, comparisons, conversions, memory accesses, atomics, fences,
//! barriers and warp collectives, with PTX's comparison operators and special registers.

use weft_ir::attrs::{
    BarrierKind, DataType, FenceKind, MemAttrs, MemSpace, Order, RmwOp, TypeKind,
};
use weft_ir::kernel::{
    BarRed, KBinOp, KBoolOp, KCmp, KOp, KUnOp, MatchMode as KMatch, Operand as KOperand, Rounding,
    ShflMode as KShfl, SpecialReg as KSreg, VoteMode as KVote,
};

use super::{data_type, err, space_of, LResult, Lowerer};
use crate::ast::*;

impl Lowerer<'_> {
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
    pub(super) fn instr(&mut self, i: &Instruction) -> LResult<()> {
        use Opcode as O;
        let op = match i.opcode {
            O::Ld | O::Ldu | O::St | O::Atom | O::Red | O::Membar | O::Fence => {
                self.memory_op(i)?
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
                // Return from an inlined function: its results are copied into registers
                // (see `Lowerer::spill_load`), then a jump past its body.
                let spills = self.ret_spills.last().cloned().unwrap_or_default();
                self.spill_load(i, &spills);
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
            | O::Copysign
            | O::Mad
            | O::Fma
            | O::Abs
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
            | O::Tanh => self.arith_op(i)?,
            O::Setp | O::Selp | O::Cvt | O::Cvta | O::Bfe | O::Bfi | O::Shf | O::Prmt => {
                self.bits_op(i)?
            }
            O::Shfl | O::Vote | O::Match | O::Activemask => self.warp_op(i)?,
            O::Call => return self.inline_call(i),
            _ => return Err(self.unsupported(i, "")),
        };
        self.push(i, op)
    }

    /// Loads, stores, atomics and reductions, fences (`instr`'s memory instructions).
    fn memory_op(&mut self, i: &Instruction) -> LResult<KOp> {
        use Opcode as O;
        let m = &i.mods;
        Ok(match i.opcode {
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
            _ => return Err(self.unsupported(i, "")),
        })
    }

    /// Binary, multiply-add and unary arithmetic (`instr`'s ALU instructions).
    fn arith_op(&mut self, i: &Instruction) -> LResult<KOp> {
        use Opcode as O;
        let m = &i.mods;
        Ok(match i.opcode {
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
            _ => return Err(self.unsupported(i, "")),
        })
    }

    /// Comparisons, selects, conversions, address conversions and bit-field instructions.
    fn bits_op(&mut self, i: &Instruction) -> LResult<KOp> {
        use Opcode as O;
        let m = &i.mods;
        Ok(match i.opcode {
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
            _ => return Err(self.unsupported(i, "")),
        })
    }

    /// Warp collectives: `shfl.sync`, `vote`, `match.sync`, `activemask`.
    fn warp_op(&mut self, i: &Instruction) -> LResult<KOp> {
        use Opcode as O;
        let m = &i.mods;
        Ok(match i.opcode {
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
            _ => return Err(self.unsupported(i, "")),
        })
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

pub(super) fn sreg(s: SpecialReg) -> Option<KSreg> {
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
