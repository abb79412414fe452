//! Kernel programs: the IR of a GPU kernel run by a grid of CTAs (issue 4; paper 003 §2
//! "CUDA execution model", paper 002 §2).
//!
//! Why a separate module and not new [`crate::StmtKind`] variants: a litmus [`crate::Program`]
//! names every thread and every location up front, while a kernel is one SPMD body run by
//! millions of threads that differ only in their special registers, with typed registers,
//! byte-addressed state spaces and pointer arithmetic. Putting kernel-only statements into
//! `StmtKind` would force every litmus printer and the axiomatic simulator to refuse them one
//! by one. Instead a [`Kernel`] is a flat list of [`KInstr`] (labels resolved to instruction
//! indices, as the emulator and the CFG analyses want them) that *shares the vocabulary* of
//! the litmus IR: [`MemAttrs`] (order, scope, volatile, cache operator, state space, type),
//! [`RmwOp`], [`FenceKind`], [`BarrierKind`], [`crate::Scope`], [`MemSpace`], [`DataType`] and
//! [`Span`]. An engine that understands `MemAttrs` of a litmus load understands a kernel load.
//!
//! Device-function calls are inlined by the front-end (`weft-ptx`'s lowering); predicated
//! instructions keep their guard ([`KInstr::guard`]). The control-flow graph is implicit in
//! the flat code (fall-through, [`KOp::Bra`] targets, [`KOp::Exit`]); [`crate::analysis`]
//! derives blocks, dominators, post-dominators, loops and liveness from it.
//! [`Kernel::validate`] checks every index, so engines may index without checks.

use serde::{Deserialize, Serialize};

use crate::attrs::{BarrierKind, DataType, FenceKind, MemAttrs, MemSpace, RmwOp};
use crate::code::Reg;
use crate::span::Span;

/// A special register (PTX ISA §10): per-thread launch coordinates and warp facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecialReg {
    /// `%tid.{x,y,z}` (dimension 0..=2).
    Tid(u8),
    /// `%ntid.{x,y,z}`.
    Ntid(u8),
    /// `%ctaid.{x,y,z}`.
    Ctaid(u8),
    /// `%nctaid.{x,y,z}`.
    Nctaid(u8),
    /// `%laneid`.
    Laneid,
    /// `%warpid` (the warp's index in its CTA).
    Warpid,
    /// `%nwarpid` (warps per CTA).
    Nwarpid,
    /// `%lanemask_eq`.
    LanemaskEq,
    /// `%lanemask_le`.
    LanemaskLe,
    /// `%lanemask_lt`.
    LanemaskLt,
    /// `%lanemask_ge`.
    LanemaskGe,
    /// `%lanemask_gt`.
    LanemaskGt,
    /// `%smid` (the emulator reports the CTA's residency slot).
    Smid,
    /// `%nsmid`.
    Nsmid,
    /// `%gridid` (always 0).
    Gridid,
    /// `%clock`, `%clock64`, `%globaltimer`: the emulator's warp-instruction counter.
    Clock,
}

/// An instruction operand.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operand {
    /// A register.
    Reg(Reg),
    /// An immediate, as the bit pattern of the instruction's type (floats as IEEE bits).
    Imm(u64),
    /// A special register.
    Special(SpecialReg),
    /// The address of a variable ([`Kernel::vars`] index) in its own state space, plus a byte
    /// offset (`mov.u64 %rd1, buf;` / `buf+8`).
    VarAddr {
        /// Index into [`Kernel::vars`].
        var: u32,
        /// Byte offset.
        offset: i64,
    },
}

/// What an address is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AddrBase {
    /// A register holding an address in the instruction's state space.
    Reg(Reg),
    /// A variable ([`Kernel::vars`] index).
    Var(u32),
    /// A kernel parameter ([`Kernel::params`] index), in the param space.
    Param(u32),
    /// An absolute address.
    Abs(u64),
}

/// A memory operand `[base+offset]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Addr {
    /// The base.
    pub base: AddrBase,
    /// Byte offset.
    pub offset: i64,
}

/// Binary arithmetic and logic (the instruction's [`DataType`] says signed, unsigned, bits or
/// float; integer arithmetic wraps at the type's width).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KBinOp {
    Add,
    Sub,
    /// Low half of the product (`mul.lo`, float `mul`).
    Mul,
    /// High half of the product (`mul.hi`).
    MulHi,
    /// Double-width product (`mul.wide`): the destination has twice the type's width.
    MulWide,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    /// Arithmetic shift for signed types, logical otherwise.
    Shr,
    Min,
    Max,
    /// `copysign` (float).
    Copysign,
}

/// Unary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KUnOp {
    Not,
    /// `cnot`: 1 when the operand is 0, else 0.
    Cnot,
    Neg,
    Abs,
    Popc,
    Clz,
    Brev,
    /// `bfind` (index of the most significant non-sign bit, `0xffffffff` when none).
    Bfind,
    Sqrt,
    Rsqrt,
    Rcp,
    Sin,
    Cos,
    Lg2,
    Ex2,
    Tanh,
}

/// Comparisons of `setp` (`Lo`/`Ls`/`Hi`/`Hs` are the unsigned spellings; the `u` suffixed
/// float comparisons are true when either operand is NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KCmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

/// The boolean combiner of `setp.cmp.op` (`setp.lt.and.s32 p, a, b, q`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KBoolOp {
    And,
    Or,
    Xor,
}

/// `shfl.sync` lane selection (PTX ISA §9.7.8.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

/// `vote.sync` mode (PTX ISA §9.7.8.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

/// The mode of `match.sync` (`__match_any_sync` / `__match_all_sync`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchMode {
    /// `dst` = the member lanes whose value equals this lane's.
    Any,
    /// `dst` = the member mask when every member has this lane's value (else 0), and
    /// `dst_pred` says which.
    All,
}

/// The reduction of `bar.red` (`__syncthreads_count/and/or`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BarRed {
    Popc,
    And,
    Or,
}

/// Float-to-integer or float rounding of `cvt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// Round to nearest even.
    Nearest,
    /// Toward zero.
    Zero,
    /// Toward minus infinity.
    Down,
    /// Toward plus infinity.
    Up,
}

/// One kernel operation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KOp {
    /// `dst = src`.
    Mov {
        ty: DataType,
        dst: Reg,
        src: Operand,
    },
    /// `dst = op a`.
    Unary {
        op: KUnOp,
        ty: DataType,
        dst: Reg,
        a: Operand,
    },
    /// `dst = a op b`.
    Binary {
        op: KBinOp,
        ty: DataType,
        dst: Reg,
        a: Operand,
        b: Operand,
    },
    /// `dst = a * b + c` (`mad.lo`, `mad.hi`, `mad.wide`, `fma`); `mode` is `Mul`, `MulHi` or
    /// `MulWide`.
    Mad {
        mode: KBinOp,
        ty: DataType,
        dst: Reg,
        a: Operand,
        b: Operand,
        c: Operand,
    },
    /// `dst = a cmp b` (and `dst2 = !(a cmp b)`), optionally combined with a predicate.
    Setp {
        cmp: KCmp,
        ty: DataType,
        dst: Reg,
        dst2: Option<Reg>,
        a: Operand,
        b: Operand,
        combine: Option<(KBoolOp, Operand, bool)>,
    },
    /// `dst = pred ? a : b` (`selp`).
    Selp {
        ty: DataType,
        dst: Reg,
        a: Operand,
        b: Operand,
        pred: Operand,
    },
    /// Type conversion (`cvt`).
    Cvt {
        dst_ty: DataType,
        src_ty: DataType,
        dst: Reg,
        src: Operand,
        rounding: Option<Rounding>,
        /// `.rni`-style: round a float to an integral float.
        integral: bool,
        sat: bool,
    },
    /// `cvta`: `to == false` converts an address of `space` to a generic one, `true` back.
    Cvta {
        to: bool,
        space: MemSpace,
        dst: Reg,
        src: Operand,
    },
    /// Bit-field extract `bfe`.
    Bfe {
        ty: DataType,
        dst: Reg,
        a: Operand,
        pos: Operand,
        len: Operand,
    },
    /// Bit-field insert `bfi`.
    Bfi {
        ty: DataType,
        dst: Reg,
        a: Operand,
        b: Operand,
        pos: Operand,
        len: Operand,
    },
    /// Funnel shift `shf.{l,r}.{wrap,clamp}.b32`: shifts the 64-bit `b:a` left (keeping the
    /// high word) or right (keeping the low word) by `c` (masked to 5 bits with `wrap`,
    /// clamped to 32 with `clamp`).
    Shf {
        left: bool,
        wrap: bool,
        dst: Reg,
        a: Operand,
        b: Operand,
        c: Operand,
    },
    /// Byte permute `prmt.b32` (default mode).
    Prmt {
        dst: Reg,
        a: Operand,
        b: Operand,
        sel: Operand,
    },
    /// A load of `dst.len()` consecutive elements (vector loads have 2 or 4; `None` is `_`).
    Ld {
        attrs: MemAttrs,
        ty: DataType,
        dst: Vec<Option<Reg>>,
        addr: Addr,
    },
    /// A store of `src.len()` consecutive elements.
    St {
        attrs: MemAttrs,
        ty: DataType,
        src: Vec<Operand>,
        addr: Addr,
    },
    /// `atom` (with a destination) or `red` (without).
    Atom {
        op: RmwOp,
        attrs: MemAttrs,
        ty: DataType,
        dst: Option<Reg>,
        addr: Addr,
        args: Vec<Operand>,
    },
    /// `membar`/`fence`; the order and scope are in `attrs`.
    Fence { kind: FenceKind, attrs: MemAttrs },
    /// `bar.sync`/`barrier.sync`/`bar.arrive`/`bar.red` (`id`, optional thread `count`) or
    /// `bar.warp.sync` (`id` is the member mask).
    Barrier {
        kind: BarrierKind,
        id: Operand,
        count: Option<Operand>,
        /// `bar.red.op.pred dst, id, {count,} pred`: the reduction, its destination, the
        /// predicate operand and whether it is negated.
        red: Option<(BarRed, Reg, Operand, bool)>,
    },
    /// Branch to an instruction index.
    Bra { target: u32 },
    /// The thread ends (`exit`, or `ret` of the kernel itself).
    Exit,
    /// `shfl.sync` (`dst_pred` receives whether the source lane was in range).
    Shfl {
        mode: ShflMode,
        dst: Reg,
        dst_pred: Option<Reg>,
        a: Operand,
        b: Operand,
        c: Operand,
        mask: Operand,
    },
    /// `vote.sync`; `dst` is a predicate (all/any/uni) or a 32-bit mask (ballot).
    Vote {
        mode: VoteMode,
        dst: Reg,
        pred: Operand,
        negated: bool,
        mask: Operand,
    },
    /// `match.sync.{any,all}.{b32,b64}` (`dst_pred`: `.all`'s predicate; `bits`: 32 or 64,
    /// the width of the values compared).
    Match {
        mode: MatchMode,
        bits: u16,
        dst: Reg,
        dst_pred: Option<Reg>,
        a: Operand,
        mask: Operand,
    },
    /// `activemask.b32`.
    Activemask { dst: Reg },
    /// A specification statement of GPUVerify's kernel dialect (`__assert`, `__requires`,
    /// `__invariant`, ...; `weft_gpuverify.h`): `cond` (non-zero = true) must hold, or is
    /// assumed, where the statement stands. `thread_local` is false when `cond` depends on a
    /// [`KOp::Query`] about a pair of threads, which a single-thread engine cannot evaluate.
    Annot {
        kind: AnnotKind,
        cond: Operand,
        thread_local: bool,
    },
    /// A specification predicate or value (`__read(p)`, `__other_int(x)`, `__enabled()`,
    /// uninterpreted functions, ...): `dst` (of type `ty`) receives it.
    Query {
        kind: QueryKind,
        ty: DataType,
        dst: Reg,
        args: Vec<Operand>,
    },
    /// A call of a CUDA system function that has no body in the module (PTX writers'
    /// guide: `vprintf`, `__assertfail`): `args` are its parameters in order, `dst` its
    /// result. Engines that do not run it treat it as reading memory only (no writes).
    SysCall {
        func: SysFunc,
        dst: Option<Reg>,
        args: Vec<Operand>,
    },
    /// Does nothing (`nanosleep`, prefetches).
    Nop,
    /// `trap`: aborts the launch.
    Trap,
}

/// The CUDA system function of a [`KOp::SysCall`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SysFunc {
    /// `vprintf(format, args)`: device `printf`; `args` points to the arguments packed
    /// at their natural alignment (integers narrower than 32 bits widened to 32, `float`
    /// widened to `double`); returns the number of arguments read.
    Vprintf,
    /// `__assertfail(message, file, line, function, char_size)`: a failed device `assert`.
    AssertFail,
}

impl SysFunc {
    /// The function's PTX name.
    pub fn name(self) -> &'static str {
        match self {
            SysFunc::Vprintf => "vprintf",
            SysFunc::AssertFail => "__assertfail",
        }
    }

    /// The function named `name`, with its parameter and result counts.
    pub fn from_name(name: &str) -> Option<(SysFunc, usize, usize)> {
        match name {
            "vprintf" => Some((SysFunc::Vprintf, 2, 1)),
            "__assertfail" => Some((SysFunc::AssertFail, 5, 0)),
            _ => None,
        }
    }
}

/// What a [`KOp::Annot`] states (GPUVerify's meanings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnnotKind {
    /// `__assert(e)`: `e` holds whenever reached.
    Assert,
    /// `__global_assert(e)`: `e` holds for every thread.
    GlobalAssert,
    /// `__assume(e)`: only executions where `e` holds count.
    Assume,
    /// `__requires(e)`: precondition of the enclosing (inlined) function.
    Requires,
    /// `__global_requires(e)`: precondition over all threads.
    GlobalRequires,
    /// `__ensures(e)`: postcondition of the enclosing function (stands at its entry).
    Ensures,
    /// `__global_ensures(e)`.
    GlobalEnsures,
    /// `__invariant(e)`: a loop invariant, at the loop head (in the loop condition).
    Invariant,
    /// `__global_invariant(e)`.
    GlobalInvariant,
    /// `__function_wide_invariant(e)`: an invariant of every loop of the function.
    FunctionWideInvariant,
    /// `__candidate_invariant(e)`: a guess to be inferred or dropped.
    CandidateInvariant,
    /// `__axiom(e)`: a fact about the launch (stands in a `__weft_axiom_N` function).
    Axiom,
    /// `__requires_fresh_array(p)`: the array of `p` (the operand) aliases no other.
    RequiresFreshArray,
}

impl AnnotKind {
    /// Whether an emulator running concrete threads checks it where it stands.
    pub fn checked_when_reached(self) -> bool {
        matches!(
            self,
            AnnotKind::Assert
                | AnnotKind::GlobalAssert
                | AnnotKind::Invariant
                | AnnotKind::GlobalInvariant
        )
    }
}

/// What a [`KOp::Query`] asks (GPUVerify's two-thread predicates and helpers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueryKind {
    /// `__read(p)`: the thread read the array of `p` since the last barrier.
    Read,
    /// `__write(p)`.
    Write,
    /// `__atomic(p)`.
    Atomic,
    /// `__read_offset(p)`: the offset of that read.
    ReadOffset,
    /// `__write_offset(p)`.
    WriteOffset,
    /// `__ptr_base(p)`.
    PtrBase,
    /// `__ptr_offset(p)`.
    PtrOffset,
    /// `__enabled()`: the thread is enabled here.
    Enabled,
    /// `__dominator_enabled()`.
    DominatorEnabled,
    /// `__same_group`: the two threads are in one group.
    SameGroup,
    /// `__other_int(x)`: `x` in the other thread.
    OtherInt,
    /// `__uniform_int(x)`: `x` is equal in both threads.
    UniformInt,
    /// `__distinct_int(x)`: `x` differs between the threads.
    DistinctInt,
    /// `__other_ptr(p)`.
    OtherPtr,
    /// `__all(e)`: `e` holds in every thread.
    All,
    /// `__at_most_one(e)` / `__exclusive(e)`.
    AtMostOne,
    /// `__old_int(x)`: `x` on entry to the function.
    OldInt,
    /// `__return_val_int()`: the function's return value (in `__ensures`).
    ReturnVal,
    /// `a + b` does not overflow (signed).
    NoOverflowAdd,
    /// `a + b` does not overflow (unsigned).
    NoOverflowAddUnsigned,
    /// An uninterpreted function (`DECLARE_UF_*`): args are `id, arity, a, b, c`.
    Uf,
    /// `__atomic_has_taken_value(p, offset, v)`: the atomic counter at `p + offset` has held
    /// `v` at some point.
    AtomicHasTakenValue,
    /// An arbitrary value: the result of a call of a function without a body.
    Havoc,
}

impl QueryKind {
    /// Whether a single concrete thread can evaluate it exactly (the others speak of a pair
    /// of threads or of access history).
    pub fn thread_local(self) -> bool {
        matches!(
            self,
            QueryKind::PtrBase
                | QueryKind::PtrOffset
                | QueryKind::Enabled
                | QueryKind::NoOverflowAdd
                | QueryKind::NoOverflowAddUnsigned
                | QueryKind::Uf
        )
    }
}

/// A source position from `.loc` debug information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SrcLoc {
    /// `.file` index (see [`Kernel::files`]).
    pub file: u32,
    /// 1-based line.
    pub line: u32,
    /// Column (0 when unknown).
    pub col: u32,
}

/// A guard `@p` / `@!p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KGuard {
    /// The predicate register.
    pub reg: Reg,
    /// `@!p`.
    pub negated: bool,
}

/// One kernel instruction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KInstr {
    /// Predicate guard, if any.
    pub guard: Option<KGuard>,
    /// The operation.
    pub op: KOp,
    /// Where the instruction is in the PTX.
    pub span: Span,
    /// The source position (`.loc`) in effect, when the PTX has line information.
    pub loc: Option<SrcLoc>,
}

/// A kernel parameter in the param space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KParam {
    /// PTX name (`_Z3fooPi_param_0`).
    pub name: String,
    /// Element type.
    pub ty: DataType,
    /// Size in bytes (arrays and vectors included).
    pub size: u32,
    /// Byte offset in the param space.
    pub offset: u32,
}

/// A typed register.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KReg {
    /// PTX name (`%r12`).
    pub name: String,
    /// Declared type.
    pub ty: DataType,
}

/// A variable in a state space: module `.global`/`.const`, a kernel's `.shared` array, a
/// `.local` array.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KVar {
    /// PTX name.
    pub name: String,
    /// `Global`, `Constant`, `Shared` or `Local`.
    pub space: MemSpace,
    /// Size in bytes (0 for `extern .shared` dynamic arrays).
    pub size: u64,
    /// Alignment in bytes.
    pub align: u32,
    /// Initial bytes (empty: zero).
    pub init: Vec<u8>,
}

/// A kernel: the single body every thread of the grid runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Kernel {
    /// Kernel name as in the PTX (`.entry` name).
    pub name: String,
    /// Parameters in order.
    pub params: Vec<KParam>,
    /// Total size of the param space in bytes.
    pub param_bytes: u32,
    /// Registers; [`Reg`] indexes this list.
    pub regs: Vec<KReg>,
    /// Variables; [`AddrBase::Var`] and [`Operand::VarAddr`] index this list.
    pub vars: Vec<KVar>,
    /// The body. Branch targets are indices into it; falling off the end exits.
    pub code: Vec<KInstr>,
    /// `.file` index → path, from the debug information.
    pub files: Vec<(u32, String)>,
    /// `.reqntid` / `.maxntid` of the kernel, when given.
    pub reqntid: Option<[u32; 3]>,
}

impl Kernel {
    /// The path of `.file` index `file`.
    pub fn file_name(&self, file: u32) -> Option<&str> {
        self.files
            .iter()
            .find(|(i, _)| *i == file)
            .map(|(_, p)| p.as_str())
    }

    /// `file:line` of an instruction's source position, or its PTX `line:col`.
    /// The source positions ([`Kernel::describe_pos`]) of the kernel's `bar.arrive`
    /// instructions (arrive without waiting: the producer side of a producer/consumer
    /// barrier pair).
    pub fn arrive_positions(&self) -> Vec<String> {
        self.code
            .iter()
            .enumerate()
            .filter(|(_, i)| {
                matches!(
                    i.op,
                    KOp::Barrier {
                        kind: BarrierKind::Arrive,
                        ..
                    }
                )
            })
            .map(|(pc, _)| self.describe_pos(pc))
            .collect()
    }

    pub fn describe_pos(&self, pc: usize) -> String {
        let Some(i) = self.code.get(pc) else {
            return format!("pc {pc}");
        };
        match i.loc {
            Some(l) if l.line > 0 => {
                // The file's last component: stable across machines and temp directories.
                let f = self.file_name(l.file).unwrap_or("?");
                let f = f.rsplit('/').next().unwrap_or(f);
                format!("{f}:{}", l.line)
            }
            _ => format!("ptx {}", i.span),
        }
    }

    /// Bytes of `.shared` memory per CTA (static variables, each aligned).
    pub fn shared_bytes(&self) -> u64 {
        self.layout(MemSpace::Shared).1
    }

    /// Byte offsets of the variables of `space` (others get 0) and the total size.
    pub fn layout(&self, space: MemSpace) -> (Vec<u64>, u64) {
        let mut off = 0u64;
        let mut offs = Vec::with_capacity(self.vars.len());
        for v in &self.vars {
            if v.space == space {
                let a = u64::from(v.align.max(1));
                off = off.div_ceil(a) * a;
                offs.push(off);
                off += v.size;
            } else {
                offs.push(0);
            }
        }
        (offs, off)
    }
}

impl Kernel {
    /// Checks that every register, variable and parameter index and every branch target is
    /// in range, so engines can index without checks. The error names the instruction.
    pub fn validate(&self) -> Result<(), String> {
        let nr = self.regs.len();
        let reg = |r: &Reg, pc: usize| -> Result<(), String> {
            if r.index() < nr {
                Ok(())
            } else {
                Err(format!(
                    "instruction {pc}: register {} out of range ({nr} registers)",
                    r.0
                ))
            }
        };
        let opnd = |o: &Operand, pc: usize| -> Result<(), String> {
            match o {
                Operand::Reg(r) => reg(r, pc),
                Operand::VarAddr { var, .. } if *var as usize >= self.vars.len() => {
                    Err(format!("instruction {pc}: variable {var} out of range"))
                }
                _ => Ok(()),
            }
        };
        let addr = |a: &Addr, pc: usize| -> Result<(), String> {
            match a.base {
                AddrBase::Reg(r) => reg(&r, pc),
                AddrBase::Var(v) if v as usize >= self.vars.len() => {
                    Err(format!("instruction {pc}: variable {v} out of range"))
                }
                AddrBase::Param(p) if p as usize >= self.params.len() => {
                    Err(format!("instruction {pc}: parameter {p} out of range"))
                }
                _ => Ok(()),
            }
        };
        for p in &self.params {
            if p.offset.saturating_add(p.size) > self.param_bytes {
                return Err(format!(
                    "parameter `{}` lies outside the param space",
                    p.name
                ));
            }
        }
        for (pc, i) in self.code.iter().enumerate() {
            if let Some(g) = &i.guard {
                reg(&g.reg, pc)?;
            }
            if let Some(a) = i.op.addr() {
                addr(a, pc)?;
            }
            match &i.op {
                KOp::Atom { args, op, .. } if args.len() != op.arity() => {
                    return Err(format!(
                        "instruction {pc}: `{}` takes {} operands",
                        op.name(),
                        op.arity()
                    ));
                }
                KOp::Bra { target } if *target as usize > self.code.len() => {
                    return Err(format!(
                        "instruction {pc}: branch target {target} out of range"
                    ));
                }
                _ => {}
            }
            for r in i.op.defs() {
                reg(&r, pc)?;
            }
            for o in i.op.operands() {
                opnd(o, pc)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_catches_bad_indices_and_json_round_trips() {
        let ins = |op| KInstr {
            guard: None,
            op,
            span: Span::default(),
            loc: None,
        };
        let mut k = Kernel {
            name: "k".into(),
            regs: vec![KReg {
                name: "%r1".into(),
                ty: DataType::U32,
            }],
            code: vec![
                ins(KOp::Mov {
                    ty: DataType::U32,
                    dst: Reg(0),
                    src: Operand::Imm(1),
                }),
                ins(KOp::Exit),
            ],
            ..Kernel::default()
        };
        assert_eq!(k.validate(), Ok(()));
        let json = serde_json::to_string(&k).unwrap();
        assert_eq!(serde_json::from_str::<Kernel>(&json).unwrap(), k);
        k.code[0] = ins(KOp::Mov {
            ty: DataType::U32,
            dst: Reg(3),
            src: Operand::Imm(1),
        });
        assert!(k.validate().unwrap_err().contains("register 3"));
        k.code[0] = ins(KOp::Bra { target: 9 });
        assert!(k.validate().unwrap_err().contains("branch target"));
    }
}
