//! The typed PTX syntax tree: a [`Module`] of functions and variables, function bodies of
//! [`Statement`]s, and [`Instruction`]s made of a guard, an [`Opcode`], typed
//! [`Modifiers`] and [`Operand`]s.
//!
//! The tree is syntactic: no lowering, no type checking of operands against registers.
//! Every qualifier the parser accepts lands in a typed field of [`Modifiers`]; spellings
//! follow the PTX ISA (§5.1 state spaces, §5.2 types, §8 memory consistency model for
//! `.sem`/`.scope`, §9.7 instruction descriptions). Printing ([`std::fmt::Display`], in
//! `print.rs`) writes qualifiers in the ISA's canonical order.

use crate::lexer::Span;
use serde::Serialize;

/// Declares a qualifier enum whose variants each have one PTX spelling (with the dot).
macro_rules! spelled_enum {
    ($(#[$m:meta])* $name:ident { $($var:ident = $s:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
        pub enum $name {
            $(#[doc = concat!("`", $s, "`")] $var),*
        }
        impl $name {
            /// The PTX spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$var => $s),* }
            }
            /// Parses the PTX spelling.
            pub fn from_ptx(s: &str) -> Option<Self> {
                match s { $($s => Some($name::$var),)* _ => None }
            }
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$var),*];
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

spelled_enum! {
    /// An instruction mnemonic (PTX ISA §9.7). Unknown mnemonics are parse errors.
    Opcode {
        Ld = "ld", Ldu = "ldu", St = "st", Atom = "atom", Red = "red", Fence = "fence",
        Membar = "membar", Bar = "bar", Barrier = "barrier", Setp = "setp", Set = "set",
        Selp = "selp", Slct = "slct", Add = "add", Sub = "sub", Addc = "addc", Subc = "subc",
        Mul = "mul", Mad = "mad", Mul24 = "mul24", Mad24 = "mad24", Sad = "sad", Div = "div",
        Rem = "rem", Abs = "abs", Neg = "neg", Min = "min", Max = "max", And = "and",
        Or = "or", Xor = "xor", Not = "not", Cnot = "cnot", Shl = "shl", Shr = "shr",
        Shf = "shf", Popc = "popc", Clz = "clz", Bfind = "bfind", Brev = "brev", Bfe = "bfe",
        Bfi = "bfi", Prmt = "prmt", Fma = "fma", Rcp = "rcp", Sqrt = "sqrt", Rsqrt = "rsqrt",
        Sin = "sin", Cos = "cos", Lg2 = "lg2", Ex2 = "ex2", Tanh = "tanh",
        Copysign = "copysign", Cvt = "cvt", Cvta = "cvta", Mov = "mov", Bra = "bra",
        Call = "call", Ret = "ret", Exit = "exit", Trap = "trap", Brkpt = "brkpt",
        Shfl = "shfl", Vote = "vote", Match = "match", Activemask = "activemask",
        Nanosleep = "nanosleep",
    }
}

spelled_enum! {
    /// A state space (PTX ISA §5.1).
    StateSpace {
        Reg = ".reg", Sreg = ".sreg", Const = ".const", Global = ".global", Local = ".local",
        Param = ".param", ParamEntry = ".param::entry", ParamFunc = ".param::func",
        Shared = ".shared", SharedCta = ".shared::cta", SharedCluster = ".shared::cluster",
        Tex = ".tex",
    }
}

spelled_enum! {
    /// A memory-ordering qualifier, `.sem` in the ISA (§8.4 operation types; `ld`, `st`,
    /// `atom`, `red`, `fence`), plus `.volatile` and `.mmio`.
    Sem {
        Weak = ".weak", Volatile = ".volatile", Relaxed = ".relaxed", Acquire = ".acquire",
        Release = ".release", AcqRel = ".acq_rel", Sc = ".sc", Mmio = ".mmio",
    }
}

spelled_enum! {
    /// A scope qualifier (§8.5). For `membar` (§9.7, `membar/fence`) the level `.gl` is stored as
    /// [`Scope::Gpu`] and printed back as `.gl`.
    Scope { Cta = ".cta", Cluster = ".cluster", Gpu = ".gpu", Sys = ".sys" }
}

spelled_enum! {
    /// A cache operator (§9.7, "Cache Operators" of `ld`/`st`).
    CacheOp {
        Ca = ".ca", Cg = ".cg", Cs = ".cs", Lu = ".lu", Cv = ".cv", Wb = ".wb", Wt = ".wt",
    }
}

spelled_enum! {
    /// An eviction-priority, cache-hint or prefetch-size qualifier of `ld`/`st`/`atom`.
    CacheHint {
        L1EvictNormal = ".L1::evict_normal", L1EvictUnchanged = ".L1::evict_unchanged",
        L1EvictFirst = ".L1::evict_first", L1EvictLast = ".L1::evict_last",
        L1NoAllocate = ".L1::no_allocate", L2EvictNormal = ".L2::evict_normal",
        L2EvictFirst = ".L2::evict_first", L2EvictLast = ".L2::evict_last",
        L2CacheHint = ".L2::cache_hint", L2Prefetch64B = ".L2::64B",
        L2Prefetch128B = ".L2::128B", L2Prefetch256B = ".L2::256B",
    }
}

spelled_enum! {
    /// A vector width (§5.4.2).
    VecWidth { V2 = ".v2", V4 = ".v4", V8 = ".v8" }
}

spelled_enum! {
    /// A fundamental type (§5.2.1), plus the packed half types and `.pred`.
    ScalarType {
        B8 = ".b8", B16 = ".b16", B32 = ".b32", B64 = ".b64", B128 = ".b128",
        U8 = ".u8", U16 = ".u16", U32 = ".u32", U64 = ".u64",
        S8 = ".s8", S16 = ".s16", S32 = ".s32", S64 = ".s64",
        F16 = ".f16", F16x2 = ".f16x2", Bf16 = ".bf16", Bf16x2 = ".bf16x2",
        Tf32 = ".tf32", F32 = ".f32", F64 = ".f64", Pred = ".pred",
    }
}

impl ScalarType {
    /// Size in bits (`.pred` counts as 1).
    pub fn bits(self) -> u32 {
        use ScalarType::*;
        match self {
            Pred => 1,
            B8 | U8 | S8 => 8,
            B16 | U16 | S16 | F16 | Bf16 => 16,
            B32 | U32 | S32 | F32 | F16x2 | Bf16x2 | Tf32 => 32,
            B64 | U64 | S64 | F64 => 64,
            B128 => 128,
        }
    }

    /// Whether this is a signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            ScalarType::S8 | ScalarType::S16 | ScalarType::S32 | ScalarType::S64
        )
    }

    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        use ScalarType::*;
        matches!(self, F16 | F16x2 | Bf16 | Bf16x2 | Tf32 | F32 | F64)
    }
}

spelled_enum! {
    /// A comparison operator of `setp`/`set` (§9.7, `setp`; unsigned `.lo/.ls/.hi/.hs`,
    /// unordered float `.equ` ... `.geu`, `.num`, `.nan`).
    CmpOp {
        Eq = ".eq", Ne = ".ne", Lt = ".lt", Le = ".le", Gt = ".gt", Ge = ".ge",
        Lo = ".lo", Ls = ".ls", Hi = ".hi", Hs = ".hs", Equ = ".equ", Neu = ".neu",
        Ltu = ".ltu", Leu = ".leu", Gtu = ".gtu", Geu = ".geu", Num = ".num", Nan = ".nan",
    }
}

spelled_enum! {
    /// The boolean combining operator of `setp`/`set` (`setp.lt.and.s32`).
    BoolOp { And = ".and", Or = ".or", Xor = ".xor" }
}

spelled_enum! {
    /// A rounding modifier (§9.7, floating-point instructions; `.rni` etc. round to integer in `cvt`).
    Rounding {
        Rn = ".rn", Rz = ".rz", Rm = ".rm", Rp = ".rp", Rna = ".rna", Rs = ".rs",
        Rni = ".rni", Rzi = ".rzi", Rmi = ".rmi", Rpi = ".rpi",
    }
}

spelled_enum! {
    /// Which part of a product `mul`/`mad`/`mul24`/`mad24` keep.
    MulMode { Lo = ".lo", Hi = ".hi", Wide = ".wide" }
}

spelled_enum! {
    /// The operation of `atom`/`red` (§9.7, `atom` and `red`).
    AtomOp {
        And = ".and", Or = ".or", Xor = ".xor", Cas = ".cas", Exch = ".exch", Add = ".add",
        Inc = ".inc", Dec = ".dec", Min = ".min", Max = ".max",
    }
}

spelled_enum! {
    /// The lane-selection mode of `shfl.sync` (§9.7, `shfl.sync`).
    ShflMode { Up = ".up", Down = ".down", Bfly = ".bfly", Idx = ".idx" }
}

spelled_enum! {
    /// The mode of `vote.sync` (§9.7, `vote.sync`).
    VoteMode { All = ".all", Any = ".any", Uni = ".uni", Ballot = ".ballot" }
}

spelled_enum! {
    /// The reduction of `bar.red`/`barrier.red` (§9.7, `bar/barrier`).
    BarRedOp { Popc = ".popc", And = ".and", Or = ".or" }
}

spelled_enum! {
    /// The direction of a funnel shift `shf` (§9.7, `shf`).
    ShfDir { L = ".l", R = ".r" }
}

spelled_enum! {
    /// The shift-amount mode of a funnel shift `shf`.
    ShfMode { Clamp = ".clamp", Wrap = ".wrap" }
}

/// Every qualifier of one instruction, parsed into typed fields (order-insensitive; the
/// printer writes them back in the ISA's order). A field that is `None`/`false`/empty was
/// not written.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Modifiers {
    /// `.weak`, `.volatile`, `.relaxed`, `.acquire`, `.release`, `.acq_rel`, `.sc`, `.mmio`.
    pub sem: Option<Sem>,
    /// `.cta`, `.cluster`, `.gpu`, `.sys` (and `membar.gl` as `.gpu`).
    pub scope: Option<Scope>,
    /// State space of a memory instruction (`ld.global`), or of `cvta`.
    pub space: Option<StateSpace>,
    /// Cache operator (`.ca`, `.cg`, ...).
    pub cache: Option<CacheOp>,
    /// Eviction priorities, cache hints and prefetch sizes, in source order.
    pub hints: Vec<CacheHint>,
    /// Vector width of `ld`/`st`/`atom`/`red`.
    pub vector: Option<VecWidth>,
    /// The instruction types in source order (`cvt.u64.u32` has two; `setp.lt.s32` one).
    pub types: Vec<ScalarType>,
    /// Comparison of `setp`/`set`.
    pub cmp: Option<CmpOp>,
    /// Boolean combiner of `setp`/`set`.
    pub bool_op: Option<BoolOp>,
    /// Rounding modifier.
    pub rounding: Option<Rounding>,
    /// `.lo`/`.hi`/`.wide` of multiplications.
    pub mul: Option<MulMode>,
    /// Operation of `atom`/`red`.
    pub atom: Option<AtomOp>,
    /// Mode of `shfl`.
    pub shfl: Option<ShflMode>,
    /// Mode of `vote`.
    pub vote: Option<VoteMode>,
    /// Reduction of `bar.red`.
    pub bar_red: Option<BarRedOp>,
    /// Direction of `shf`.
    pub shf_dir: Option<ShfDir>,
    /// Mode of `shf`.
    pub shf_mode: Option<ShfMode>,
    /// `.ftz`: flush subnormals to zero.
    pub ftz: bool,
    /// `.sat`: saturate.
    pub sat: bool,
    /// `.approx`.
    pub approx: bool,
    /// `.full` (`div.full.f32`).
    pub full: bool,
    /// `.uni`: the branch, call or return is non-divergent.
    pub uni: bool,
    /// `.to` of `cvta.to.global` (generic → space instead of space → generic).
    pub to: bool,
    /// `.nc`: non-coherent load (`ld.global.nc`).
    pub nc: bool,
    /// `.cc`: carry-out (`add.cc`).
    pub cc: bool,
    /// `.sync` of `bar`, `barrier`, `bar.warp`, `shfl`, `vote`.
    pub sync: bool,
    /// `.arrive` of `bar`/`barrier`.
    pub arrive: bool,
    /// `.red` of `bar`/`barrier`.
    pub red: bool,
    /// `.aligned` of `barrier`/`vote`/...
    pub aligned: bool,
    /// `.warp` of `bar.warp.sync`.
    pub warp: bool,
}

/// A guard predicate `@%p` or `@!%p` (§9.3 predicated execution).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Guard {
    /// `@!%p`: execute when the predicate is false.
    pub negated: bool,
    /// The predicate register.
    pub pred: String,
}

/// A component of a 3-D special register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Dim {
    /// `.x`
    X,
    /// `.y`
    Y,
    /// `.z`
    Z,
}

impl Dim {
    /// `.x`, `.y` or `.z`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dim::X => ".x",
            Dim::Y => ".y",
            Dim::Z => ".z",
        }
    }
}

/// A special register (PTX ISA §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SpecialReg {
    /// `%tid.{x,y,z}`: thread index in the CTA.
    Tid(Dim),
    /// `%ntid.{x,y,z}`: CTA shape.
    Ntid(Dim),
    /// `%ctaid.{x,y,z}`: CTA index in the grid.
    Ctaid(Dim),
    /// `%nctaid.{x,y,z}`: grid shape.
    Nctaid(Dim),
    /// `%laneid`
    Laneid,
    /// `%warpid`
    Warpid,
    /// `%nwarpid`
    Nwarpid,
    /// `%smid`
    Smid,
    /// `%nsmid`
    Nsmid,
    /// `%gridid`
    Gridid,
    /// `%lanemask_eq`
    LanemaskEq,
    /// `%lanemask_le`
    LanemaskLe,
    /// `%lanemask_lt`
    LanemaskLt,
    /// `%lanemask_ge`
    LanemaskGe,
    /// `%lanemask_gt`
    LanemaskGt,
    /// `%clock`
    Clock,
    /// `%clock64`
    Clock64,
    /// `%globaltimer`
    Globaltimer,
    /// `%dynamic_smem_size`
    DynamicSmemSize,
    /// `%total_smem_size`
    TotalSmemSize,
}

impl SpecialReg {
    /// Whether `%name` is a 3-D special register that takes a `.x/.y/.z` component.
    pub fn is_vector_name(name: &str) -> bool {
        matches!(name, "%tid" | "%ntid" | "%ctaid" | "%nctaid")
    }

    /// The special register called `name` (with `%`), given its component for 3-D ones.
    pub fn from_name(name: &str, dim: Option<Dim>) -> Option<SpecialReg> {
        use SpecialReg::*;
        Some(match (name, dim) {
            ("%tid", Some(d)) => Tid(d),
            ("%ntid", Some(d)) => Ntid(d),
            ("%ctaid", Some(d)) => Ctaid(d),
            ("%nctaid", Some(d)) => Nctaid(d),
            ("%laneid", None) => Laneid,
            ("%warpid", None) => Warpid,
            ("%nwarpid", None) => Nwarpid,
            ("%smid", None) => Smid,
            ("%nsmid", None) => Nsmid,
            ("%gridid", None) => Gridid,
            ("%lanemask_eq", None) => LanemaskEq,
            ("%lanemask_le", None) => LanemaskLe,
            ("%lanemask_lt", None) => LanemaskLt,
            ("%lanemask_ge", None) => LanemaskGe,
            ("%lanemask_gt", None) => LanemaskGt,
            ("%clock", None) => Clock,
            ("%clock64", None) => Clock64,
            ("%globaltimer", None) => Globaltimer,
            ("%dynamic_smem_size", None) => DynamicSmemSize,
            ("%total_smem_size", None) => TotalSmemSize,
            _ => return None,
        })
    }

    /// Whether `name` (with `%`) names any special register.
    pub fn is_special_name(name: &str) -> bool {
        Self::is_vector_name(name) || Self::from_name(name, None).is_some()
    }
}

/// The base of an address operand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum AddrBase {
    /// A register holding an address: `[%rd1]`.
    Reg(String),
    /// A variable or parameter name: `[vadd_param_0]`, `[arr+8]`.
    Symbol(String),
    /// An absolute address: `[0x100]`.
    Absolute(i64),
}

/// An address operand `[base+offset]` (§6.4.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Address {
    /// What the address is relative to.
    pub base: AddrBase,
    /// Byte offset (may be negative: clang writes `[%rd1+-4]`).
    pub offset: i64,
}

/// An instruction operand (§6).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Operand {
    /// A register, `%r1` (or a declared register without `%`).
    Reg(String),
    /// A special register, `%tid.x`.
    Special(SpecialReg),
    /// An integer immediate (bit pattern for values above `i64::MAX`).
    Int(i64),
    /// A single-precision immediate `0fXXXXXXXX`, as raw bits.
    F32(u32),
    /// A double-precision immediate `0dXXXXXXXXXXXXXXXX`, as raw bits.
    F64(u64),
    /// A decimal floating-point immediate.
    Float(f64),
    /// A symbol: label, function, variable or parameter name, with a byte offset when
    /// written `name+8`.
    Symbol {
        /// The name.
        name: String,
        /// Byte offset added to the symbol's address.
        offset: i64,
    },
    /// A memory address `[...]`.
    Addr(Address),
    /// A vector `{%r1, %r2}` (elements may be [`Operand::Sink`]).
    Vector(Vec<Operand>),
    /// The sink `_`.
    Sink,
    /// A negated predicate source `!%p1`.
    Not(Box<Operand>),
    /// Two predicate destinations `%p|%q` (of `setp`).
    PredPair(String, String),
    /// A parenthesised list, `(retval0)` or `(param0, param1)` of `call`.
    List(Vec<Operand>),
}

/// One PTX instruction statement (§4.3.2).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Instruction {
    /// Where the instruction (or its guard) starts.
    pub span: Span,
    /// Guard predicate, if any.
    pub guard: Option<Guard>,
    /// The mnemonic.
    pub opcode: Opcode,
    /// Parsed qualifiers.
    pub mods: Modifiers,
    /// Operands in source order (destination first).
    pub operands: Vec<Operand>,
}

/// `.version major.minor` (§11.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Version {
    /// Major version.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
}

/// A linking directive (§11.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Linkage {
    /// `.visible`
    Visible,
    /// `.extern`
    Extern,
    /// `.weak`
    Weak,
    /// `.common`
    Common,
}

impl Linkage {
    /// The PTX spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Linkage::Visible => ".visible",
            Linkage::Extern => ".extern",
            Linkage::Weak => ".weak",
            Linkage::Common => ".common",
        }
    }
}

/// `.ptr` attributes of a kernel pointer parameter (§5.1.6.4): `.ptr .global .align 4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PtrAttr {
    /// The pointed-to state space, if given.
    pub space: Option<StateSpace>,
    /// The pointed-to alignment, if given.
    pub align: Option<u32>,
}

/// A kernel or function parameter (§5.1.6, §7.1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Param {
    /// Where the parameter is declared.
    pub span: Span,
    /// `.param` or `.reg`.
    pub space: StateSpace,
    /// `.align N`, if given.
    pub align: Option<u32>,
    /// Vector width, if given.
    pub vector: Option<VecWidth>,
    /// The element type.
    pub ty: ScalarType,
    /// `.ptr` attributes, if given.
    pub ptr: Option<PtrAttr>,
    /// Parameter name.
    pub name: String,
    /// Array dimensions (`[16]`); empty for a scalar, `None` for an unsized `[]`.
    pub dims: Vec<Option<u64>>,
}

/// A variable initialiser (§5.4.4).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Initializer {
    /// An integer.
    Int(i64),
    /// A single-precision constant, as bits.
    F32(u32),
    /// A double-precision constant, as bits.
    F64(u64),
    /// A decimal floating-point constant.
    Float(f64),
    /// The address of a variable or function, `name`, `name+8` or `generic(name)`.
    Symbol {
        /// The name.
        name: String,
        /// Byte offset.
        offset: i64,
        /// Written `generic(name)`: the generic address of a non-generic variable.
        generic: bool,
    },
    /// A brace list `{1, 2, 3}` (nested for multi-dimensional arrays).
    List(Vec<Initializer>),
}

/// A variable declaration in a state space (§5.4.1), at module level or in a body.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Variable {
    /// Where the declaration starts.
    pub span: Span,
    /// Linking directive, if any.
    pub linkage: Option<Linkage>,
    /// The state space (`.global`, `.shared`, `.const`, `.local`, `.param`).
    pub space: StateSpace,
    /// `.align N`, if given.
    pub align: Option<u32>,
    /// Vector width, if given.
    pub vector: Option<VecWidth>,
    /// The element type.
    pub ty: ScalarType,
    /// The name.
    pub name: String,
    /// Array dimensions; empty for a scalar, `None` for an unsized `[]`.
    pub dims: Vec<Option<u64>>,
    /// The initialiser, if any.
    pub init: Option<Initializer>,
}

/// One name of a `.reg` declaration: `%r<12>` declares `%r0` .. `%r11` (§5.4.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RegName {
    /// The name (or the prefix, for a parameterized name).
    pub name: String,
    /// `Some(n)` for `name<n>`.
    pub count: Option<u32>,
}

/// A register declaration `.reg .b32 %r<12>;` (§5.1.1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegDecl {
    /// Where the declaration starts.
    pub span: Span,
    /// `.align N`, if given.
    pub align: Option<u32>,
    /// Vector width, if given.
    pub vector: Option<VecWidth>,
    /// The register type.
    pub ty: ScalarType,
    /// The declared names.
    pub names: Vec<RegName>,
}

/// A statement in a function body.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Statement {
    /// A register declaration.
    Reg(RegDecl),
    /// A variable declared in the body (`.local`, `.shared`, `.param` in call sequences).
    Var(Variable),
    /// A label `$L__BB0_2:`.
    Label {
        /// Where the label is.
        span: Span,
        /// Its name.
        name: String,
    },
    /// An instruction.
    Instr(Instruction),
    /// A nested `{ ... }` scope (clang wraps each call sequence in one).
    Block {
        /// Where the `{` is.
        span: Span,
        /// The statements inside.
        body: Vec<Statement>,
    },
    /// `.callprototype ...;` (§10.1, indirect calls): its tokens, kept as text.
    CallPrototype {
        /// Where it is.
        span: Span,
        /// The declaration after `.callprototype`, tokens joined by spaces.
        text: String,
    },
    /// `.pragma "...";` (§11.4).
    Pragma {
        /// Where it is.
        span: Span,
        /// The strings.
        values: Vec<String>,
    },
    /// `.loc file line col` (§11.5.2).
    Loc {
        /// Where it is.
        span: Span,
        /// File index.
        file: u32,
        /// Source line.
        line: u32,
        /// Source column.
        col: u32,
        /// `inlined_at F L C`: the call site this position was inlined into (its own
        /// inlining, if any, is the `inlined_at` of an earlier `.loc` of that position).
        inlined_at: Option<(u32, u32, u32)>,
    },
}

/// Whether a function is a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum FunctionKind {
    /// `.entry`: a kernel (§11.2.1).
    Entry,
    /// `.func`: a device function (§11.2.2).
    Func,
}

/// A performance-tuning or attribute directive of a function (§11.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum FunctionDirective {
    /// `.maxntid x, y, z`
    Maxntid(Vec<u32>),
    /// `.reqntid x, y, z`
    Reqntid(Vec<u32>),
    /// `.minnctapersm n`
    Minnctapersm(u32),
    /// `.maxnctapersm n`
    Maxnctapersm(u32),
    /// `.maxnreg n`
    Maxnreg(u32),
    /// `.noreturn`
    Noreturn,
    /// `.pragma "..."` between the signature and the body.
    Pragma(Vec<String>),
}

/// A kernel or device function, declared or defined.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Function {
    /// Where the declaration starts.
    pub span: Span,
    /// Linking directive, if any.
    pub linkage: Option<Linkage>,
    /// `.entry` or `.func`.
    pub kind: FunctionKind,
    /// Return parameters of a `.func`.
    pub returns: Vec<Param>,
    /// The name.
    pub name: String,
    /// Parameters.
    pub params: Vec<Param>,
    /// Performance directives.
    pub directives: Vec<FunctionDirective>,
    /// The body; `None` for a prototype ending in `;`.
    pub body: Option<Vec<Statement>>,
}

/// A module-level item.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Item {
    /// A function or kernel.
    Function(Function),
    /// A module-scope variable.
    Variable(Variable),
    /// `.file index "path"` (§11.5.1).
    File {
        /// Where it is.
        span: Span,
        /// File index.
        index: u32,
        /// The path.
        path: String,
    },
    /// A module-level `.pragma`.
    Pragma {
        /// Where it is.
        span: Span,
        /// The strings.
        values: Vec<String>,
    },
}

/// A whole PTX module.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Module {
    /// `.version`.
    pub version: Option<Version>,
    /// `.target` entries (`sm_70`, `texmode_independent`, ...).
    pub target: Vec<String>,
    /// `.address_size` (32 or 64).
    pub address_size: Option<u32>,
    /// Functions, variables and other items, in source order.
    pub items: Vec<Item>,
}

impl Module {
    /// The functions (declared or defined), in order.
    pub fn functions(&self) -> impl Iterator<Item = &Function> {
        self.items.iter().filter_map(|i| match i {
            Item::Function(f) => Some(f),
            _ => None,
        })
    }

    /// The kernels (`.entry` functions with a body), in order.
    pub fn kernels(&self) -> impl Iterator<Item = &Function> {
        self.functions()
            .filter(|f| f.kind == FunctionKind::Entry && f.body.is_some())
    }

    /// The function called `name`, preferring a definition over a declaration.
    pub fn function(&self, name: &str) -> Option<&Function> {
        let mut found = None;
        for f in self.functions().filter(|f| f.name == name) {
            if f.body.is_some() {
                return Some(f);
            }
            found = Some(f);
        }
        found
    }

    /// The module-scope variables, in order.
    pub fn variables(&self) -> impl Iterator<Item = &Variable> {
        self.items.iter().filter_map(|i| match i {
            Item::Variable(v) => Some(v),
            _ => None,
        })
    }

    /// Module-scope variables and the variables declared in function bodies (clang puts a
    /// kernel's `__shared__` arrays in its body), in order.
    pub fn all_variables(&self) -> Vec<&Variable> {
        let mut out: Vec<&Variable> = self.variables().collect();
        for f in self.functions() {
            out.extend(f.variables());
        }
        out
    }

    /// Every instruction of every defined function, in order (nested blocks included).
    pub fn instructions(&self) -> Vec<&Instruction> {
        let mut out = Vec::new();
        for f in self.functions() {
            out.extend(f.instructions());
        }
        out
    }
}

impl Function {
    /// The variables declared in the body (nested blocks included), in order.
    pub fn variables(&self) -> Vec<&Variable> {
        fn walk<'a>(body: &'a [Statement], out: &mut Vec<&'a Variable>) {
            for s in body {
                match s {
                    Statement::Var(v) => out.push(v),
                    Statement::Block { body, .. } => walk(body, out),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        if let Some(b) = &self.body {
            walk(b, &mut out);
        }
        out
    }

    /// Every instruction of the body in order, descending into nested blocks.
    pub fn instructions(&self) -> Vec<&Instruction> {
        fn walk<'a>(body: &'a [Statement], out: &mut Vec<&'a Instruction>) {
            for s in body {
                match s {
                    Statement::Instr(i) => out.push(i),
                    Statement::Block { body, .. } => walk(body, out),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        if let Some(b) = &self.body {
            walk(b, &mut out);
        }
        out
    }
}

impl Instruction {
    /// The instruction's full mnemonic as printed, `ld.acquire.gpu.global.u32`.
    pub fn mnemonic(&self) -> String {
        let mut s = String::new();
        crate::print::write_mnemonic(&mut s, self.opcode, &self.mods);
        s
    }
}
