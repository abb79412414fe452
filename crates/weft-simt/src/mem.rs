//! Memory of a launch: typed global buffers in one global arena, per-CTA shared memory,
//! per-thread local memory, the param space, and the generic address map that routes a
//! generic address to one of them (PTX ISA §5.1 state spaces, §6.4.1 generic addressing).
//!
//! Generic addresses: `[GLOBAL_BASE, GLOBAL_BASE + arena)` is global memory (a global-space
//! address equals its generic address); `SHARED_WINDOW + off` is offset `off` of the
//! executing CTA's shared memory; `LOCAL_WINDOW + off` is the executing thread's local
//! memory; `PARAM_WINDOW + off` the param space. Everything else is an invalid address.

use std::fmt;

/// Generic address of global arena offset 0.
pub const GLOBAL_BASE: u64 = 0x1_0000_0000;
/// Generic address of shared offset 0.
pub const SHARED_WINDOW: u64 = 0x7f00_0000_0000;
/// Generic address of local offset 0.
pub const LOCAL_WINDOW: u64 = 0x7e00_0000_0000;
/// Generic address of param offset 0.
pub const PARAM_WINDOW: u64 = 0x7d00_0000_0000;
const WINDOW: u64 = 0x0100_0000_0000;

/// Element type of a buffer (how its bytes are printed and initialised).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    I8,
    U8,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl ElemType {
    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            ElemType::I8 | ElemType::U8 => 1,
            ElemType::I32 | ElemType::U32 | ElemType::F32 => 4,
            ElemType::I64 | ElemType::U64 | ElemType::F64 => 8,
        }
    }

    /// `i32`, `u8`, `f32`, ...
    pub fn name(self) -> &'static str {
        match self {
            ElemType::I8 => "i8",
            ElemType::U8 => "u8",
            ElemType::I32 => "i32",
            ElemType::U32 => "u32",
            ElemType::I64 => "i64",
            ElemType::U64 => "u64",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
        }
    }

    /// Parses a type name (`int`, `unsigned`, `float`, C spellings included).
    pub fn parse(s: &str) -> Option<ElemType> {
        Some(match s.trim() {
            "i8" | "char" | "signed char" => ElemType::I8,
            "u8" | "uchar" | "unsigned char" => ElemType::U8,
            "i32" | "int" | "signed" | "signed int" => ElemType::I32,
            "u32" | "uint" | "unsigned" | "unsigned int" => ElemType::U32,
            "i64" | "long" | "long long" | "long long int" => ElemType::I64,
            "u64" | "ulong" | "unsigned long" | "unsigned long long" | "size_t" => ElemType::U64,
            "f32" | "float" => ElemType::F32,
            "f64" | "double" => ElemType::F64,
            _ => return None,
        })
    }

    /// Whether the type is floating point.
    pub fn is_float(self) -> bool {
        matches!(self, ElemType::F32 | ElemType::F64)
    }

    /// Encodes a value given as `f64` (floats) or `i128` (integers, wrapping).
    pub fn encode_int(self, v: i128) -> u64 {
        match self {
            ElemType::F32 => (v as f32).to_bits() as u64,
            ElemType::F64 => (v as f64).to_bits(),
            _ => v as u64,
        }
    }

    /// Encodes a float value.
    pub fn encode_float(self, v: f64) -> u64 {
        match self {
            ElemType::F32 => (v as f32).to_bits() as u64,
            ElemType::F64 => v.to_bits(),
            _ => v as i64 as u64,
        }
    }
}

/// A typed buffer: a kernel argument's global memory.
#[derive(Clone, PartialEq)]
pub struct Buffer {
    /// Name (the kernel parameter it is passed as).
    pub name: String,
    /// Element type.
    pub elem: ElemType,
    /// Little-endian contents.
    pub data: Vec<u8>,
}

impl fmt::Debug for Buffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Buffer({} {} x {})",
            self.name,
            self.elem.name(),
            self.len()
        )
    }
}

/// One element of a buffer, typed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i128),
    Float(f64),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v}"),
        }
    }
}

impl Buffer {
    /// A zero-filled buffer of `len` elements.
    pub fn zeroed(name: impl Into<String>, elem: ElemType, len: usize) -> Buffer {
        Buffer {
            name: name.into(),
            elem,
            data: vec![0; len * elem.size()],
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.data.len() / self.elem.size()
    }

    /// Whether the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Raw bits of element `i`.
    pub fn bits(&self, i: usize) -> u64 {
        let w = self.elem.size();
        let mut b = [0u8; 8];
        b[..w].copy_from_slice(&self.data[i * w..(i + 1) * w]);
        u64::from_le_bytes(b)
    }

    /// Sets the raw bits of element `i`.
    pub fn set_bits(&mut self, i: usize, v: u64) {
        let w = self.elem.size();
        self.data[i * w..(i + 1) * w].copy_from_slice(&v.to_le_bytes()[..w]);
    }

    /// Element `i`, typed.
    pub fn get(&self, i: usize) -> Value {
        let b = self.bits(i);
        match self.elem {
            ElemType::I8 => Value::Int(b as u8 as i8 as i128),
            ElemType::U8 => Value::Int(b as u8 as i128),
            ElemType::I32 => Value::Int(b as u32 as i32 as i128),
            ElemType::U32 => Value::Int(b as u32 as i128),
            ElemType::I64 => Value::Int(b as i64 as i128),
            ElemType::U64 => Value::Int(b as i128),
            ElemType::F32 => Value::Float(f32::from_bits(b as u32) as f64),
            ElemType::F64 => Value::Float(f64::from_bits(b)),
        }
    }

    /// All elements, typed.
    pub fn values(&self) -> Vec<Value> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }

    /// A 64-bit FNV-1a digest of the bytes (for printing big buffers).
    pub fn digest(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in &self.data {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    }
}

/// Which memory a resolved address lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Global,
    Shared,
    Local,
    Param,
}

/// Resolves a generic address to `(region, offset)`.
#[inline]
pub fn resolve_generic(addr: u64) -> Option<(Region, u64)> {
    if (SHARED_WINDOW..SHARED_WINDOW + WINDOW).contains(&addr) {
        Some((Region::Shared, addr - SHARED_WINDOW))
    } else if (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW).contains(&addr) {
        Some((Region::Local, addr - LOCAL_WINDOW))
    } else if (PARAM_WINDOW..PARAM_WINDOW + WINDOW).contains(&addr) {
        Some((Region::Param, addr - PARAM_WINDOW))
    } else if addr >= GLOBAL_BASE {
        Some((Region::Global, addr - GLOBAL_BASE))
    } else {
        None
    }
}

/// Reads `width` bytes little-endian at `off` of `mem`.
#[inline(always)]
pub fn read(mem: &[u8], off: u64, width: usize) -> Option<u64> {
    let o = usize::try_from(off).ok()?;
    let s = mem.get(o..o.checked_add(width)?)?;
    Some(match width {
        1 => u64::from(s[0]),
        2 => u64::from(u16::from_le_bytes([s[0], s[1]])),
        4 => u64::from(u32::from_le_bytes([s[0], s[1], s[2], s[3]])),
        _ => {
            let mut b = [0u8; 8];
            b[..width.min(8)].copy_from_slice(&s[..width.min(8)]);
            u64::from_le_bytes(b)
        }
    })
}

/// Writes the low `width` bytes of `v` at `off`; `false` when out of bounds.
#[inline(always)]
pub fn write(mem: &mut [u8], off: u64, width: usize, v: u64) -> bool {
    let Ok(o) = usize::try_from(off) else {
        return false;
    };
    let Some(end) = o.checked_add(width) else {
        return false;
    };
    match mem.get_mut(o..end) {
        Some(s) => {
            s.copy_from_slice(&v.to_le_bytes()[..width.min(8)]);
            true
        }
        None => false,
    }
}
