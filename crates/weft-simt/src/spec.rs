//! Launch specifications as text: binding kernel parameters to buffers and scalars
//! (`--buffer in=1024xi32:iota`, `--arg n=1024`), buffer initialisers, and the parameter names
//! and types read from the kernel's CUDA/OpenCL signature (PTX only keeps `_param_N`).
//!
//! Buffer spec: `NAME=COUNT[xTYPE][:INIT]` where `TYPE` is `i8 u8 i32 u32 i64 u64 f32 f64`
//! (default: the source parameter's pointee type, else `i32`) and `INIT` is `zero` (default),
//! `iota` (0, 1, 2, ...), a number (every element), `list:1,2,3` (then zeros) or
//! `rand:SEED[:MAX]` (seeded values in `0..MAX`, default 100).

use weft_ir::attrs::TypeKind;
use weft_ir::kernel::Kernel;

use crate::machine::Arg;
use crate::mem::{Buffer, ElemType};

/// A parameter as written in the kernel's source signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceParam {
    /// The name.
    pub name: String,
    /// The pointee type for pointers, the type for scalars (when recognised).
    pub elem: Option<ElemType>,
    /// Whether it is a pointer.
    pub pointer: bool,
}

/// Reads the parameter list of kernel `name` (`__global__ void name(...)` or
/// `__kernel void name(...)`) from CUDA/OpenCL source. `None` when not found.
pub fn source_params(source: &str, name: &str) -> Option<Vec<SourceParam>> {
    let bytes = source.as_bytes();
    let mut search = 0;
    while let Some(i) = source[search..].find(name) {
        let at = search + i;
        search = at + name.len();
        let before_ok =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let rest = source[search..].trim_start();
        if !before_ok || !rest.starts_with('(') {
            continue;
        }
        // The declaration must be a kernel: look back to the previous `;` or `}`.
        let head_start = source[..at].rfind([';', '}']).map_or(0, |p| p + 1);
        let head = &source[head_start..at];
        if !(head.contains("__global__") || head.contains("__kernel") || head.contains("kernel ")) {
            continue;
        }
        let open = search + (source[search..].len() - rest.len());
        let close = open + source[open..].find(')')?;
        let inner = &source[open + 1..close];
        let mut out = Vec::new();
        for p in inner.split(',') {
            let p = p.trim();
            if p.is_empty() || p == "void" {
                continue;
            }
            let name_start = p
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |k| k + 1);
            let pname = p[name_start..].to_string();
            let ty = &p[..name_start];
            let pointer = ty.contains('*') || ty.contains('[');
            let cleaned: Vec<&str> = ty
                .split(|c: char| c.is_whitespace() || c == '*')
                .filter(|w| {
                    !w.is_empty()
                        && !matches!(
                            *w,
                            "const"
                                | "volatile"
                                | "__restrict__"
                                | "__restrict"
                                | "restrict"
                                | "__global"
                                | "global"
                                | "__constant"
                                | "constant"
                                | "__local"
                                | "local"
                                | "__private"
                                | "private"
                                | "struct"
                        )
                })
                .collect();
            out.push(SourceParam {
                name: pname,
                elem: ElemType::parse(&cleaned.join(" ")),
                pointer,
            });
        }
        return Some(out);
    }
    None
}

/// A parsed `--buffer` option.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferSpec {
    /// Parameter name, `param_N`, or index.
    pub name: String,
    /// Number of elements.
    pub count: usize,
    /// Element type, when given.
    pub elem: Option<ElemType>,
    /// Initialiser.
    pub init: Init,
}

/// A buffer initialiser.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Zero,
    Iota,
    Fill(f64),
    List(Vec<f64>),
    Rand { seed: u64, max: u64 },
}

/// Parses `NAME=COUNT[xTYPE][:INIT]`.
pub fn parse_buffer_spec(s: &str) -> Result<BufferSpec, String> {
    let (name, rest) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected NAME=COUNT[xTYPE][:INIT]"))?;
    let (shape, init) = match rest.split_once(':') {
        Some((a, b)) => (a, Some(b)),
        None => (rest, None),
    };
    let (count, elem) = match shape.split_once('x') {
        Some((c, t)) => (
            c,
            Some(ElemType::parse(t).ok_or_else(|| format!("`{s}`: unknown element type `{t}`"))?),
        ),
        None => (shape, None),
    };
    let count: usize = count
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: `{count}` is not an element count"))?;
    if count > (1 << 30) {
        return Err(format!(
            "`{s}`: {count} elements is too many (at most 2^30)"
        ));
    }
    let init = match init.map(str::trim) {
        None | Some("zero") | Some("") => Init::Zero,
        Some("iota") => Init::Iota,
        Some(x) if x.starts_with("list:") => Init::List(
            x[5..]
                .split(',')
                .filter(|v| !v.trim().is_empty())
                .map(|v| parse_num(v).ok_or_else(|| format!("`{s}`: `{v}` is not a number")))
                .collect::<Result<_, _>>()?,
        ),
        Some(x) if x.starts_with("rand:") => {
            let mut it = x[5..].split(':');
            let seed = it
                .next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("`{s}`: rand needs a seed"))?;
            let max = match it.next() {
                Some(m) => m
                    .parse()
                    .map_err(|_| format!("`{s}`: bad rand maximum `{m}`"))?,
                None => 100,
            };
            if max == 0 {
                return Err(format!("`{s}`: rand maximum must be positive"));
            }
            Init::Rand { seed, max }
        }
        Some(x) => {
            Init::Fill(parse_num(x).ok_or_else(|| format!("`{s}`: unknown initialiser `{x}`"))?)
        }
    };
    Ok(BufferSpec {
        name: name.trim().to_string(),
        count,
        elem,
        init,
    })
}

/// The bytes of an aggregate argument (a struct passed by value): comma-separated fields
/// `VALUE[:TYPE]`, each at its natural alignment as C lays out a struct. `TYPE` is a buffer
/// element type; without it a field is `i32`, or `f32` when the value has a `.` or an
/// exponent (`3,10,0.5` = `{int; int; float}`; `7:u8,2:i64` = `{char; 7 pad; long}`).
pub fn parse_aggregate(v: &str) -> Result<Vec<u8>, String> {
    let mut out: Vec<u8> = Vec::new();
    for field in v.split(',') {
        let field = field.trim();
        let (val, ty) = match field.split_once(':') {
            Some((a, t)) => (
                a.trim(),
                ElemType::parse(t).ok_or_else(|| format!("unknown field type `{t}`"))?,
            ),
            None if !field.starts_with("0x") && field.contains(['.', 'e', 'E']) => {
                (field, ElemType::F32)
            }
            None => (field, ElemType::I32),
        };
        let x = parse_num(val).ok_or_else(|| format!("field `{field}` is not a number"))?;
        let size = ty.size();
        while !out.len().is_multiple_of(size) {
            out.push(0);
        }
        let bits = match ty {
            ElemType::F32 => u64::from((x as f32).to_bits()),
            ElemType::F64 => x.to_bits(),
            _ if x.fract() != 0.0 => return Err(format!("field `{field}` is not an integer")),
            _ => (x as i128) as u64,
        };
        out.extend_from_slice(&bits.to_le_bytes()[..size]);
    }
    Ok(out)
}

fn parse_num(v: &str) -> Option<f64> {
    let v = v.trim();
    if let Some(h) = v.strip_prefix("0x") {
        return u64::from_str_radix(h, 16).ok().map(|x| x as f64);
    }
    v.parse().ok()
}

/// The seeded generator behind `rand:` initialisers (splitmix64).
pub fn rand_values(seed: u64, max: u64, n: usize) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) % max
        })
        .collect()
}

impl BufferSpec {
    /// Builds the buffer (element type: the spec's, else `default`, else `i32`).
    pub fn build(&self, name: &str, default: Option<ElemType>) -> Buffer {
        let elem = self.elem.or(default).unwrap_or(ElemType::I32);
        let mut b = Buffer::zeroed(name, elem, self.count);
        let enc = |v: f64| {
            if elem.is_float() {
                elem.encode_float(v)
            } else {
                elem.encode_int(v as i128)
            }
        };
        match &self.init {
            Init::Zero => {}
            Init::Iota => (0..self.count).for_each(|i| b.set_bits(i, elem.encode_int(i as i128))),
            Init::Fill(v) => (0..self.count).for_each(|i| b.set_bits(i, enc(*v))),
            Init::List(vs) => vs
                .iter()
                .take(self.count)
                .enumerate()
                .for_each(|(i, v)| b.set_bits(i, enc(*v))),
            Init::Rand { seed, max } => rand_values(*seed, *max, self.count)
                .into_iter()
                .enumerate()
                .for_each(|(i, v)| b.set_bits(i, elem.encode_int(v as i128))),
        }
        b
    }
}

/// Binds kernel parameters to `--buffer` and `--arg` options: returns the arguments (one per
/// parameter) and the buffers. Parameters are named by their source name (when `src` is
/// known), `param_N`, `N`, or the PTX name.
pub fn bind(
    kernel: &Kernel,
    src: Option<&[SourceParam]>,
    buffers: &[BufferSpec],
    scalars: &[(String, String)],
) -> Result<(Vec<Arg>, Vec<Buffer>), String> {
    let names: Vec<Vec<String>> = kernel
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut v = vec![p.name.clone(), format!("param_{i}"), i.to_string()];
            if let Some(sp) = src.and_then(|s| s.get(i)) {
                v.insert(0, sp.name.clone());
            }
            v
        })
        .collect();
    let find = |n: &str| names.iter().position(|v| v.iter().any(|x| x == n));
    let mut args: Vec<Option<Arg>> = vec![None; kernel.params.len()];
    let mut bufs = Vec::new();
    for b in buffers {
        let i = find(&b.name).ok_or_else(|| {
            format!(
                "--buffer {}: the kernel has no parameter `{}` (parameters: {})",
                b.name,
                b.name,
                names
                    .iter()
                    .map(|v| v[0].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        if args[i].is_some() {
            return Err(format!("parameter `{}` is bound twice", names[i][0]));
        }
        if kernel.params[i].ty.bits != 64 {
            return Err(format!(
                "parameter `{}` is not a 64-bit pointer",
                names[i][0]
            ));
        }
        let default = src.and_then(|s| s.get(i)).and_then(|p| p.elem);
        bufs.push(b.build(&names[i][0], default));
        args[i] = Some(Arg::Buffer(bufs.len() - 1));
    }
    for (n, v) in scalars {
        let i = find(n).ok_or_else(|| format!("--arg {n}: the kernel has no parameter `{n}`"))?;
        if args[i].is_some() {
            return Err(format!("parameter `{}` is bound twice", names[i][0]));
        }
        let ty = kernel.params[i].ty;
        let size = kernel.params[i].size as usize;
        if v.contains(',') || size > 8 {
            let bytes = parse_aggregate(v).map_err(|e| format!("--arg {n}={v}: {e}"))?;
            if bytes.len() > size {
                return Err(format!(
                    "--arg {n}={v}: {} bytes of fields, but parameter `{}` has {size}",
                    bytes.len(),
                    names[i][0]
                ));
            }
            args[i] = Some(Arg::Bytes(bytes));
            continue;
        }
        let x = parse_num(v).ok_or_else(|| format!("--arg {n}={v}: not a number"))?;
        let bits = match ty.kind {
            TypeKind::Float if ty.bits == 32 => (x as f32).to_bits() as u64,
            TypeKind::Float => x.to_bits(),
            _ => {
                if x.fract() != 0.0 {
                    return Err(format!("--arg {n}={v}: parameter is an integer"));
                }
                (x as i128) as u64
            }
        };
        args[i] = Some(Arg::Scalar(bits));
    }
    let mut out = Vec::new();
    for (i, a) in args.into_iter().enumerate() {
        match a {
            Some(a) => out.push(a),
            None => {
                let ptr = src.and_then(|s| s.get(i)).map(|p| p.pointer);
                let hint = match ptr {
                    Some(true) => "--buffer NAME=COUNT[xTYPE][:INIT]",
                    Some(false) => "--arg NAME=VALUE",
                    None => "--buffer or --arg",
                };
                return Err(format!(
                    "parameter `{}` is not bound (use {hint})",
                    names[i][0]
                ));
            }
        }
    }
    Ok((out, bufs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures() {
        let src = "__device__ int f(int x);\n__global__ void k(const int *__restrict__ in, float* out, unsigned n) {}";
        let p = source_params(src, "k").unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(
            p[0],
            SourceParam {
                name: "in".into(),
                elem: Some(ElemType::I32),
                pointer: true
            }
        );
        assert_eq!(p[1].elem, Some(ElemType::F32));
        assert_eq!(
            p[2],
            SourceParam {
                name: "n".into(),
                elem: Some(ElemType::U32),
                pointer: false
            }
        );
        let cl = "__kernel void h(__global uint *data, __local int *tmp) {}";
        let p = source_params(cl, "h").unwrap();
        assert_eq!(p[0].elem, Some(ElemType::U32));
        assert!(source_params(src, "f").is_none());
    }

    #[test]
    fn aggregates() {
        // {int scale; int offset; float bias}
        let b = parse_aggregate("3,10,0.5").unwrap();
        assert_eq!(b.len(), 12);
        assert_eq!(&b[0..4], &3i32.to_le_bytes());
        assert_eq!(&b[4..8], &10i32.to_le_bytes());
        assert_eq!(&b[8..12], &0.5f32.to_le_bytes());
        // {char c; long l}: 7 bytes of padding before the 8-byte field.
        let b = parse_aggregate("7:u8,-2:i64").unwrap();
        assert_eq!(b.len(), 16);
        assert_eq!(b[0], 7);
        assert_eq!(&b[1..8], &[0; 7]);
        assert_eq!(&b[8..16], &(-2i64).to_le_bytes());
        assert!(parse_aggregate("1,x").is_err());
        assert!(parse_aggregate("1.5:i32").is_err());
        assert!(parse_aggregate("1:q7").is_err());
    }

    #[test]
    fn buffer_specs() {
        let b = parse_buffer_spec("in=4xu32:iota").unwrap();
        assert_eq!(b.count, 4);
        assert_eq!(b.build("in", None).values().len(), 4);
        assert!(parse_buffer_spec("in").is_err());
        assert!(parse_buffer_spec("in=4xq:iota").is_err());
        assert!(parse_buffer_spec("in=4:bogus").is_err());
        let l = parse_buffer_spec("x=3:list:1,2")
            .unwrap()
            .build("x", Some(ElemType::I32));
        assert_eq!(l.bits(1), 2);
        assert_eq!(l.bits(2), 0);
    }
}
