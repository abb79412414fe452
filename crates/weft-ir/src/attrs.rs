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
    /// written, i.e. a failed compare). Arithmetic wraps at 64 bits.
    pub fn apply(self, old: i64, args: &[i64]) -> Option<i64> {
        let a = args.first().copied().unwrap_or(0);
        Some(match self {
            RmwOp::Exch => a,
            RmwOp::Add => old.wrapping_add(a),
            RmwOp::Sub => old.wrapping_sub(a),
            RmwOp::And => old & a,
            RmwOp::Or => old | a,
            RmwOp::Xor => old ^ a,
            RmwOp::Min => old.min(a),
            RmwOp::Max => old.max(a),
            RmwOp::Inc => {
                if old >= a {
                    0
                } else {
                    old + 1
                }
            }
            RmwOp::Dec => {
                if old == 0 || old > a {
                    a
                } else {
                    old - 1
                }
            }
            RmwOp::Cas | RmwOp::CompareExchange { .. } => {
                if old == a {
                    args.get(1).copied().unwrap_or(0)
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
}
