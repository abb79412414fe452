//! Annotations on memory instructions, fences and barriers, kept as plain data: memory
//! order, scope, memory space, PTX cache operators, volatile and proxies (PTX ISA memory
//! consistency model; paper 000 §2.3), Vulkan availability/visibility, storage classes and
//! semantics (Vulkan memory model appendix), and value types.

use serde::{Deserialize, Serialize};

use crate::scope::Scope;

/// Memory order of an access or fence. `Plain` is a non-atomic access (PTX `.weak`, a
/// Vulkan access without `.atom`, a C access through a plain pointer).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    #[default]
    Plain,
    Relaxed,
    Consume,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl Order {
    pub fn name(self) -> &'static str {
        match self {
            Order::Plain => "plain",
            Order::Relaxed => "relaxed",
            Order::Consume => "consume",
            Order::Acquire => "acquire",
            Order::Release => "release",
            Order::AcqRel => "acq_rel",
            Order::SeqCst => "seq_cst",
        }
    }

    pub fn is_atomic(self) -> bool {
        self != Order::Plain
    }
}

/// PTX cache operators (PTX ISA "Cache Operators"; paper 000 §3.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheOp {
    /// Cache at all levels (L1 and L2).
    Ca,
    /// Cache in L2, bypass L1.
    Cg,
    /// Evict-first streaming.
    Cs,
    /// Last use.
    Lu,
    /// Don't cache, fetch again.
    Cv,
    /// Write-back (stores).
    Wb,
    /// Write-through (stores).
    Wt,
}

impl CacheOp {
    pub const ALL: [CacheOp; 7] = [
        CacheOp::Ca,
        CacheOp::Cg,
        CacheOp::Cs,
        CacheOp::Lu,
        CacheOp::Cv,
        CacheOp::Wb,
        CacheOp::Wt,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CacheOp::Ca => "ca",
            CacheOp::Cg => "cg",
            CacheOp::Cs => "cs",
            CacheOp::Lu => "lu",
            CacheOp::Cv => "cv",
            CacheOp::Wb => "wb",
            CacheOp::Wt => "wt",
        }
    }

    pub fn from_name(s: &str) -> Option<CacheOp> {
        CacheOp::ALL.into_iter().find(|c| c.name() == s)
    }
}

/// The PTX proxy through which an access reaches memory (PTX ISA 7.5 "Proxies").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Proxy {
    #[default]
    Generic,
    Surface,
    Texture,
    Constant,
}

impl Proxy {
    pub fn name(self) -> &'static str {
        match self {
            Proxy::Generic => "generic",
            Proxy::Surface => "surface",
            Proxy::Texture => "texture",
            Proxy::Constant => "constant",
        }
    }

    pub fn from_name(s: &str) -> Option<Proxy> {
        [
            Proxy::Generic,
            Proxy::Surface,
            Proxy::Texture,
            Proxy::Constant,
        ]
        .into_iter()
        .find(|p| p.name() == s)
    }
}

/// Memory space (state space) of a location or an access.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum MemSpace {
    /// Device memory visible to the whole grid (PTX `.global`, OpenCL `global`, WGSL `storage`).
    #[default]
    Global,
    /// Per-CTA memory (PTX `.shared`, OpenCL `local`, Vulkan/WGSL `workgroup`).
    Shared,
    /// Per-thread memory (PTX `.local`, OpenCL `private`).
    Local,
    /// Read-only constant bank (PTX `.const`, OpenCL `constant`).
    Constant,
    /// Kernel parameters (PTX `.param`).
    Param,
    /// A generic address that may point into any space.
    Generic,
}

impl MemSpace {
    pub fn name(self) -> &'static str {
        match self {
            MemSpace::Global => "global",
            MemSpace::Shared => "shared",
            MemSpace::Local => "local",
            MemSpace::Constant => "constant",
            MemSpace::Param => "param",
            MemSpace::Generic => "generic",
        }
    }
}

/// Kind of a scalar value type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TypeKind {
    Signed,
    Unsigned,
    Bits,
    Float,
    Pred,
}

/// A scalar type such as PTX `.s32`/`.b64`/`.pred` or C `int` (= s32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DataType {
    pub kind: TypeKind,
    pub bits: u16,
}

impl DataType {
    pub const S32: DataType = DataType {
        kind: TypeKind::Signed,
        bits: 32,
    };
    pub const U32: DataType = DataType {
        kind: TypeKind::Unsigned,
        bits: 32,
    };
    pub const B32: DataType = DataType {
        kind: TypeKind::Bits,
        bits: 32,
    };
    pub const B64: DataType = DataType {
        kind: TypeKind::Bits,
        bits: 64,
    };
    pub const S64: DataType = DataType {
        kind: TypeKind::Signed,
        bits: 64,
    };
    pub const U64: DataType = DataType {
        kind: TypeKind::Unsigned,
        bits: 64,
    };
    pub const PRED: DataType = DataType {
        kind: TypeKind::Pred,
        bits: 1,
    };

    /// PTX spelling without the dot: `s32`, `b64`, `pred`, `f32`.
    pub fn ptx_name(self) -> String {
        match self.kind {
            TypeKind::Pred => "pred".to_string(),
            TypeKind::Signed => format!("s{}", self.bits),
            TypeKind::Unsigned => format!("u{}", self.bits),
            TypeKind::Bits => format!("b{}", self.bits),
            TypeKind::Float => format!("f{}", self.bits),
        }
    }

    /// Parses a PTX type name without the dot.
    pub fn from_ptx(s: &str) -> Option<DataType> {
        if s == "pred" {
            return Some(DataType::PRED);
        }
        let (k, n) = s.split_at(1.min(s.len()));
        let kind = match k {
            "s" => TypeKind::Signed,
            "u" => TypeKind::Unsigned,
            "b" => TypeKind::Bits,
            "f" => TypeKind::Float,
            _ => return None,
        };
        let bits: u16 = n.parse().ok()?;
        let ok = match kind {
            TypeKind::Float => matches!(bits, 16 | 32 | 64),
            _ => matches!(bits, 8 | 16 | 32 | 64 | 128),
        };
        ok.then_some(DataType { kind, bits })
    }
}

/// Vulkan memory-model annotations (Vulkan spec, "Memory Model" appendix): availability and
/// visibility of non-atomic accesses, non-private accesses, the storage class an access
/// uses, and the storage classes and av/vis operations its semantics cover.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VulkanAttrs {
    /// `.av`: the access makes its write available (MakeAvailable).
    #[serde(default, skip_serializing_if = "is_false")]
    pub av: bool,
    /// `.vis`: the access reads visible values (MakeVisible).
    #[serde(default, skip_serializing_if = "is_false")]
    pub vis: bool,
    /// `.nonpriv`: NonPrivatePointer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub nonpriv: bool,
    /// `.scN`: the storage class the access targets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_class: Option<u8>,
    /// `.semscN`: storage classes covered by the semantics, ascending.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sem_classes: Vec<u8>,
    /// `.semav`: semantics include MakeAvailable.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sem_av: bool,
    /// `.semvis`: semantics include MakeVisible.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sem_vis: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl VulkanAttrs {
    pub fn is_empty(&self) -> bool {
        *self == VulkanAttrs::default()
    }
}

/// Everything an access, fence or barrier says about its memory semantics.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MemAttrs {
    #[serde(default)]
    pub order: Order,
    /// Scope of an atomic or fence (PTX `.cta/.gpu/.sys`, Vulkan `.wg/.dv/...`, OpenCL
    /// `memory_scope_*`); for Vulkan non-atomics, the scope of `.av`/`.vis`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
    /// PTX/CUDA `volatile`, or a C access through a `volatile` pointer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub volatile: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheOp>,
    #[serde(default, skip_serializing_if = "is_default_proxy")]
    pub proxy: Proxy,
    /// Explicit state space of the access (PTX `ld.shared`), when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space: Option<MemSpace>,
    /// Value type of the access (PTX `.s32`), when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ty: Option<DataType>,
    #[serde(default, skip_serializing_if = "VulkanAttrs::is_empty")]
    pub vulkan: VulkanAttrs,
}

fn is_default_proxy(p: &Proxy) -> bool {
    *p == Proxy::Generic
}

impl MemAttrs {
    pub fn with_order(order: Order) -> Self {
        MemAttrs {
            order,
            ..MemAttrs::default()
        }
    }

    pub fn scoped(order: Order, scope: Scope) -> Self {
        MemAttrs {
            order,
            scope: Some(scope),
            ..MemAttrs::default()
        }
    }
}

/// Read-modify-write operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RmwOp {
    /// Exchange: `args = [new]`.
    Exch,
    Add,
    Sub,
    And,
    Or,
    Xor,
    Min,
    Max,
    /// PTX `atom.inc`: `old >= arg ? 0 : old + 1`.
    Inc,
    /// PTX `atom.dec`: `(old == 0 || old > arg) ? arg : old - 1`.
    Dec,
    /// Compare-and-swap returning the old value: `args = [expected, new]` (PTX `atom.cas`,
    /// CUDA `atomicCAS`).
    Cas,
    /// C11 compare-exchange: `args = [address of expected, desired]`; the destination
    /// register receives 1 on success, 0 on failure, and on failure the value read is
    /// written to the expected location. `weak` may fail spuriously.
    CompareExchange {
        weak: bool,
    },
}

impl RmwOp {
    /// Short name (PTX spelling where one exists).
    pub fn name(self) -> &'static str {
        match self {
            RmwOp::Exch => "exch",
            RmwOp::Add => "add",
            RmwOp::Sub => "sub",
            RmwOp::And => "and",
            RmwOp::Or => "or",
            RmwOp::Xor => "xor",
            RmwOp::Min => "min",
            RmwOp::Max => "max",
            RmwOp::Inc => "inc",
            RmwOp::Dec => "dec",
            RmwOp::Cas => "cas",
            RmwOp::CompareExchange { weak: false } => "cmpxchg_strong",
            RmwOp::CompareExchange { weak: true } => "cmpxchg_weak",
        }
    }

    /// The simple (non-compare) operations by PTX name.
    pub fn from_name(s: &str) -> Option<RmwOp> {
        Some(match s {
            "exch" => RmwOp::Exch,
            "add" => RmwOp::Add,
            "sub" => RmwOp::Sub,
            "and" => RmwOp::And,
            "or" => RmwOp::Or,
            "xor" => RmwOp::Xor,
            "min" => RmwOp::Min,
            "max" => RmwOp::Max,
            "inc" => RmwOp::Inc,
            "dec" => RmwOp::Dec,
            "cas" => RmwOp::Cas,
            _ => return None,
        })
    }

    /// How many value operands the operation takes.
    pub fn arity(self) -> usize {
        match self {
            RmwOp::Cas | RmwOp::CompareExchange { .. } => 2,
            _ => 1,
        }
    }

    /// The value written, given the value read and the operands (`None`: nothing is
    /// written, i.e. a failed compare), for untyped litmus values: [`RmwOp::apply_typed`]
    /// at `.s64` (arithmetic wraps at 64 bits, `min`/`max`/`inc`/`dec` compare signed).
    pub fn apply(self, old: i64, args: &[i64]) -> Option<i64> {
        let a = args.first().copied().unwrap_or(0);
        let b = args.get(1).copied().unwrap_or(0);
        self.apply_typed(DataType::S64, old as u64, a as u64, b as u64)
            .map(|v| v as i64)
    }

    /// The one semantics of a read-modify-write (litmus interpreters and the SIMT
    /// emulator alike): the value left in memory given the value read `old` and the
    /// operands `a`, `b` (the new value of a compare), all as bit patterns of type `ty`;
    /// `None` when nothing is written (a failed compare). Operands and result are
    /// truncated to `ty.bits`; `min`, `max`, `inc` and `dec` compare signed for a signed
    /// type and unsigned otherwise (PTX `atom.inc`/`atom.dec` are `.u32`); `add` on a
    /// float type adds IEEE `f32`/`f64` values. `inc`: `old >= a ? 0 : old + 1`;
    /// `dec`: `(old == 0 || old > a) ? a : old - 1`; a compare (PTX `cas`, or C11
    /// compare-exchange given the expected value as `a`) writes `b` when `old == a`.
    pub fn apply_typed(self, ty: DataType, old: u64, a: u64, b: u64) -> Option<u64> {
        let bits = ty.bits;
        let t = |v: u64| {
            if bits >= 64 {
                v
            } else {
                v & ((1u64 << bits) - 1)
            }
        };
        let sext = |v: u64| {
            if bits >= 64 {
                v as i64
            } else {
                let s = 64 - u32::from(bits);
                ((v << s) as i64) >> s
            }
        };
        let (uo, ua) = (t(old), t(a));
        // `old` against `a` in the type's signedness.
        let cmp = if ty.kind == TypeKind::Signed {
            sext(old).cmp(&sext(a))
        } else {
            uo.cmp(&ua)
        };
        Some(match self {
            RmwOp::Exch => ua,
            RmwOp::Add if ty.kind == TypeKind::Float => {
                if bits == 32 {
                    (f32::from_bits(old as u32) + f32::from_bits(a as u32)).to_bits() as u64
                } else {
                    (f64::from_bits(old) + f64::from_bits(a)).to_bits()
                }
            }
            RmwOp::Add => t(uo.wrapping_add(ua)),
            RmwOp::Sub => t(uo.wrapping_sub(ua)),
            RmwOp::And => uo & ua,
            RmwOp::Or => uo | ua,
            RmwOp::Xor => uo ^ ua,
            RmwOp::Min => {
                if cmp.is_le() {
                    uo
                } else {
                    ua
                }
            }
            RmwOp::Max => {
                if cmp.is_ge() {
                    uo
                } else {
                    ua
                }
            }
            RmwOp::Inc => {
                if cmp.is_ge() {
                    0
                } else {
                    t(uo.wrapping_add(1))
                }
            }
            RmwOp::Dec => {
                if uo == 0 || cmp.is_gt() {
                    ua
                } else {
                    t(uo.wrapping_sub(1))
                }
            }
            RmwOp::Cas | RmwOp::CompareExchange { .. } => {
                if uo == ua {
                    t(b)
                } else {
                    return None;
                }
            }
        })
    }
}

/// What kind of fence a fence instruction is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FenceKind {
    /// PTX `membar.{cta,gl,sys}` (the PTX ISA makes it a synonym of `fence.sc`), or
    /// OpenCL 1.2 `mem_fence(flags)`.
    Membar,
    /// An ordered fence whose order is in its attributes: PTX `fence.sc`/`fence.acq_rel`,
    /// Vulkan `membar.acq/rel/acq_rel`, OpenCL `atomic_work_item_fence`, C
    /// `atomic_thread_fence`.
    Fence,
    /// PTX `fence.proxy.<kind>`: orders accesses through the named proxy with generic ones;
    /// `None` is `fence.proxy.alias` (orders accesses through aliased addresses).
    ProxyFence(Option<Proxy>),
    /// Vulkan device-domain availability operation (`avdevice`).
    AvDevice,
    /// Vulkan device-domain visibility operation (`visdevice`).
    VisDevice,
}

/// Kinds of execution barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BarrierKind {
    /// Wait until all participating threads arrive (`bar.sync`, `barrier.sync`,
    /// `__syncthreads`, OpenCL `barrier`, Vulkan `OpControlBarrier`).
    Sync,
    /// Arrive without waiting (`bar.arrive`).
    Arrive,
    /// Warp-level barrier (`bar.warp.sync`, `__syncwarp`).
    Warp,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptx_types_round_trip() {
        for s in ["s32", "u64", "b64", "pred", "f32", "b8"] {
            assert_eq!(DataType::from_ptx(s).unwrap().ptx_name(), s);
        }
        assert!(DataType::from_ptx("s33").is_none());
        assert!(DataType::from_ptx("").is_none());
    }

    #[test]
    fn rmw_semantics() {
        assert_eq!(RmwOp::Add.apply(2, &[3]), Some(5));
        assert_eq!(RmwOp::Cas.apply(0, &[0, 1]), Some(1));
        assert_eq!(RmwOp::Cas.apply(1, &[0, 1]), None);
        assert_eq!(RmwOp::Inc.apply(5, &[5]), Some(0));
        assert_eq!(RmwOp::Dec.apply(0, &[7]), Some(7));
    }

    /// Typed read-modify-writes, results computed by hand: `(op, type, old, a, b, written)`.
    #[test]
    fn typed_rmw_table() {
        let f32b = |x: f32| u64::from(x.to_bits());
        let s32 = DataType::S32;
        let u32_ = DataType::U32;
        let b32 = DataType::B32;
        let f32t = DataType {
            kind: TypeKind::Float,
            bits: 32,
        };
        let f64t = DataType {
            kind: TypeKind::Float,
            bits: 64,
        };
        type Case = (RmwOp, DataType, u64, u64, u64, Option<u64>);
        let cases: &[Case] = &[
            // add/sub wrap at the width
            (RmwOp::Add, u32_, 0xFFFF_FFFF, 1, 0, Some(0)),
            (RmwOp::Add, s32, 0x7FFF_FFFF, 1, 0, Some(0x8000_0000)),
            (RmwOp::Add, DataType::U64, u64::MAX, 2, 0, Some(1)),
            (RmwOp::Sub, u32_, 0, 1, 0, Some(0xFFFF_FFFF)),
            (RmwOp::Add, u32_, 5, 0x1_0000_0003, 0, Some(8)),
            // float add
            (RmwOp::Add, f32t, f32b(1.5), f32b(2.25), 0, Some(f32b(3.75))),
            (
                RmwOp::Add,
                f64t,
                0.5f64.to_bits(),
                0.25f64.to_bits(),
                0,
                Some(0.75f64.to_bits()),
            ),
            // bitwise
            (RmwOp::And, b32, 0b1100, 0b1010, 0, Some(0b1000)),
            (RmwOp::Or, b32, 0b1100, 0b1010, 0, Some(0b1110)),
            (RmwOp::Xor, b32, 0b1100, 0b1010, 0, Some(0b0110)),
            // min/max: signedness decides
            (RmwOp::Min, s32, 0xFFFF_FFFF, 1, 0, Some(0xFFFF_FFFF)),
            (RmwOp::Min, u32_, 0xFFFF_FFFF, 1, 0, Some(1)),
            (
                RmwOp::Max,
                s32,
                0x8000_0000,
                0x7FFF_FFFF,
                0,
                Some(0x7FFF_FFFF),
            ),
            (
                RmwOp::Max,
                u32_,
                0x8000_0000,
                0x7FFF_FFFF,
                0,
                Some(0x8000_0000),
            ),
            (RmwOp::Min, b32, 0x8000_0000, 3, 0, Some(3)),
            // inc: old >= a ? 0 : old + 1
            (RmwOp::Inc, u32_, 5, 5, 0, Some(0)),
            (RmwOp::Inc, u32_, 4, 5, 0, Some(5)),
            (RmwOp::Inc, u32_, 3, 0, 0, Some(0)),
            (
                RmwOp::Inc,
                u32_,
                0xFFFF_FFFE,
                0xFFFF_FFFF,
                0,
                Some(0xFFFF_FFFF),
            ),
            (RmwOp::Inc, u32_, 0xFFFF_FFFE, 1, 0, Some(0)),
            (RmwOp::Inc, s32, 0xFFFF_FFFE, 1, 0, Some(0xFFFF_FFFF)),
            // dec: (old == 0 || old > a) ? a : old - 1
            (RmwOp::Dec, u32_, 0, 7, 0, Some(7)),
            (RmwOp::Dec, u32_, 9, 7, 0, Some(7)),
            (RmwOp::Dec, u32_, 7, 7, 0, Some(6)),
            (RmwOp::Dec, u32_, 1, 7, 0, Some(0)),
            (RmwOp::Dec, s32, 0xFFFF_FFFF, 7, 0, Some(0xFFFF_FFFE)),
            (RmwOp::Dec, u32_, 0xFFFF_FFFF, 7, 0, Some(7)),
            // cas: writes b when old == a, nothing otherwise; operands truncated
            (RmwOp::Cas, u32_, 0, 0, 1, Some(1)),
            (RmwOp::Cas, u32_, 1, 0, 1, None),
            (RmwOp::Cas, u32_, 0, 0x1_0000_0000, 0x1_0000_0005, Some(5)),
            (RmwOp::Cas, DataType::B64, 1 << 40, 1 << 40, 2, Some(2)),
            // exch: the operand, truncated
            (RmwOp::Exch, u32_, 9, 0x1_2345_6789, 0, Some(0x2345_6789)),
            (RmwOp::Exch, DataType::B64, 9, u64::MAX, 0, Some(u64::MAX)),
        ];
        for &(op, ty, old, a, b, want) in cases {
            assert_eq!(
                op.apply_typed(ty, old, a, b),
                want,
                "{} {ty:?} old={old:#x} a={a:#x} b={b:#x}",
                op.name()
            );
        }
    }

    /// Untyped litmus values are `.s64`: signed comparisons, 64-bit wrapping.
    #[test]
    fn litmus_rmw_is_s64() {
        assert_eq!(RmwOp::Add.apply(i64::MAX, &[1]), Some(i64::MIN));
        assert_eq!(RmwOp::Min.apply(-3, &[2]), Some(-3));
        assert_eq!(RmwOp::Max.apply(-3, &[2]), Some(2));
        assert_eq!(RmwOp::Inc.apply(2, &[-1]), Some(0));
        assert_eq!(RmwOp::Inc.apply(-1, &[5]), Some(0));
        assert_eq!(RmwOp::Dec.apply(-2, &[5]), Some(-3));
        assert_eq!(RmwOp::Dec.apply(i64::MIN, &[0]), Some(i64::MAX));
        assert_eq!(RmwOp::Exch.apply(1, &[-7]), Some(-7));
        let cx = RmwOp::CompareExchange { weak: false };
        assert_eq!(cx.apply(4, &[4, 9]), Some(9));
        assert_eq!(cx.apply(3, &[4, 9]), None);
        assert_eq!(RmwOp::Cas.apply(-1, &[-1]), Some(0));
    }
}
