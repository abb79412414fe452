//! Programs: locations (memory map), threads (placement, registers, parameters, code),
//! relations between threads, and the final condition.

use serde::{Deserialize, Serialize};

use crate::attrs::{DataType, MemSpace, Proxy};
use crate::code::{Reg, Stmt};
use crate::cond::{Condition, Prop, Term};
use crate::scope::Placement;
use crate::span::Span;

/// A memory location: an index into [`Program::locations`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LocId(pub u32);

impl LocId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The dialect a program was written in; it selects the printer and the spelling of
/// scopes and orders, and tells models which annotations to expect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arch {
    /// Dat3M's PTX dialect (`PTX name`, `P0@cta 0,gpu 0`, `ld.acquire.gpu r0, x`).
    Ptx,
    /// Dat3M's Vulkan dialect (`VULKAN name`, `P0@sg 0,wg 0, qf 0`).
    Vulkan,
    /// OpenCL C litmus tests (`OPENCL name`, `P0@wg 0, dev 0 (global atomic_int* x)`).
    OpenCl,
    /// herd's C11 litmus format (`C name`).
    C,
    /// herd's legacy GPU_PTX format (paper 000 Fig. 12).
    GpuPtx,
    /// weft's JSON litmus format in the style of GPUHarbor (WebGPU relaxed atomics).
    WebGpu,
}

impl Arch {
    pub fn name(self) -> &'static str {
        match self {
            Arch::Ptx => "PTX",
            Arch::Vulkan => "VULKAN",
            Arch::OpenCl => "OPENCL",
            Arch::C => "C",
            Arch::GpuPtx => "GPU_PTX",
            Arch::WebGpu => "WEBGPU",
        }
    }
}

/// An initial value: an integer or the address of a location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    Int(i64),
    Addr(LocId),
}

impl Default for Value {
    fn default() -> Self {
        Value::Int(0)
    }
}

/// `y @ surface aliases x`: this location names the same memory as `of`, accessed through
/// `proxy` (generic when `None`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Alias {
    pub of: LocId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proxy: Option<Proxy>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Location {
    pub name: String,
    pub space: MemSpace,
    /// Initial value of every element.
    pub init: Value,
    /// Number of elements (1 for a scalar).
    pub size: u32,
    /// Declared element type, when the source gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ty: Option<DataType>,
    /// Declared atomic (`atomic_int`), when the source says so.
    #[serde(default)]
    pub atomic: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias: Option<Alias>,
    #[serde(default)]
    pub span: Span,
}

impl Location {
    pub fn scalar(name: impl Into<String>, init: i64) -> Self {
        Location {
            name: name.into(),
            space: MemSpace::Global,
            init: Value::Int(init),
            size: 1,
            ty: None,
            atomic: false,
            alias: None,
            span: Span::default(),
        }
    }
}

/// A register declaration.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RegDecl {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ty: Option<DataType>,
    /// Initial value when declared with one (`P0:r0=0`, `.reg .b64 r1 = x`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<Value>,
    /// A temporary the C front-end introduced for a memory access nested in an
    /// expression (`*y = *x`); printers fold it back into the expression.
    #[serde(default)]
    pub temp: bool,
}

impl RegDecl {
    pub fn named(name: impl Into<String>) -> Self {
        RegDecl {
            name: name.into(),
            ty: None,
            init: None,
            temp: false,
        }
    }
}

/// A pointer parameter of a C/OpenCL thread (`volatile global atomic_int* x`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub loc: LocId,
    /// Explicit address-space qualifier (`global`, `local`), when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space: Option<MemSpace>,
    pub atomic: bool,
    pub volatile: bool,
    /// Element type spelling without `atomic_`: `int`, `uint`, `long`...
    pub base: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Thread {
    /// Source name (`P0`, `T1`).
    pub name: String,
    pub placement: Placement,
    pub regs: Vec<RegDecl>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    pub code: Vec<Stmt>,
}

impl Thread {
    pub fn new(name: impl Into<String>) -> Self {
        Thread {
            name: name.into(),
            placement: Placement::default(),
            regs: Vec::new(),
            params: Vec::new(),
            code: Vec::new(),
        }
    }

    pub fn reg_by_name(&self, name: &str) -> Option<Reg> {
        self.regs
            .iter()
            .position(|r| r.name == name)
            .map(|i| Reg(i as u32))
    }

    /// The register named `name`, declared (untyped, uninitialised) if it is new.
    pub fn reg_or_declare(&mut self, name: &str) -> Reg {
        match self.reg_by_name(name) {
            Some(r) => r,
            None => {
                self.regs.push(RegDecl::named(name));
                Reg(self.regs.len() as u32 - 1)
            }
        }
    }

    pub fn reg_name(&self, r: Reg) -> &str {
        self.regs
            .get(r.index())
            .map(|d| d.name.as_str())
            .unwrap_or("?")
    }
}

/// A named relation between two threads given by the test (Dat3M Vulkan `ssw 0 1`:
/// system-synchronizes-with).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ThreadRelation {
    pub name: String,
    pub from: usize,
    pub to: usize,
}

/// A litmus test or small GPU program.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Program {
    pub arch: Arch,
    pub name: String,
    /// Quoted documentation strings following the name line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc: Vec<String>,
    pub locations: Vec<Location>,
    pub threads: Vec<Thread>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relations: Vec<ThreadRelation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// herd `filter`: executions whose final state fails it are discarded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<Prop>,
    /// herd `locations [...]`: extra values to report in final states.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub observed: Vec<Term>,
    /// herd/diy7 `key=value` metadata lines between the header and the initial state
    /// (`Cycle=`, `Relax=`, `Safe=`, `Generator=`, `Com=`, `Orig=`, `Prefetch=`, ...),
    /// in file order. Front-ends keep them and printers write them back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub meta: Vec<(String, String)>,
}

impl Program {
    pub fn new(arch: Arch, name: impl Into<String>) -> Self {
        Program {
            arch,
            name: name.into(),
            doc: Vec::new(),
            locations: Vec::new(),
            threads: Vec::new(),
            relations: Vec::new(),
            condition: None,
            filter: None,
            observed: Vec::new(),
            meta: Vec::new(),
        }
    }

    pub fn loc_by_name(&self, name: &str) -> Option<LocId> {
        self.locations
            .iter()
            .position(|l| l.name == name)
            .map(|i| LocId(i as u32))
    }

    pub fn loc(&self, id: LocId) -> &Location {
        &self.locations[id.index()]
    }

    /// The location whose memory `id` names: itself, or what it aliases (transitively).
    pub fn storage_of(&self, id: LocId) -> LocId {
        let mut cur = id;
        for _ in 0..=self.locations.len() {
            match self
                .locations
                .get(cur.index())
                .and_then(|l| l.alias.as_ref())
            {
                Some(a) => cur = a.of,
                None => return cur,
            }
        }
        cur
    }

    /// The location named `name`, added (global, zero, scalar) if it is new.
    pub fn loc_or_declare(&mut self, name: &str) -> LocId {
        match self.loc_by_name(name) {
            Some(l) => l,
            None => {
                self.locations.push(Location::scalar(name, 0));
                LocId(self.locations.len() as u32 - 1)
            }
        }
    }

    pub fn thread_by_name(&self, name: &str) -> Option<usize> {
        self.threads.iter().position(|t| t.name == name)
    }
}
