//! Device `printf` formatting: a `vprintf(format, args)` call's format string applied to its
//! argument buffer as CUDA's runtime does it (the CUDA C++ Programming Guide, "Formatted
//! Output"): arguments are packed one after another at their natural alignment, integers
//! narrower than 32 bits travel as 32-bit values, `float` as `double`, `%s` and `%p` as 64-bit
//! pointers; the conversions are C's (`%d %i %u %x %X %o %c %s %f %F %e %E %g %G %a %A %p %%`,
//! the length modifiers `hh h l ll z j t`, flags `-+ #0`, widths and precisions, `*` ones
//! read from the arguments). The result of
//! the call is the number of arguments read (CUDA's documented return value; `-1` for a null
//! format). Memory is reached through [`ArgReader`], so this module owns no machine state.

/// How the formatter reads emulated memory.
pub trait ArgReader {
    /// `size` bytes (1, 4 or 8) little-endian at `addr`; `None` when not readable.
    fn read(&mut self, addr: u64, size: usize) -> Option<u64>;
    /// The NUL-terminated string at `addr` (without the NUL); `None` when not readable.
    fn cstr(&mut self, addr: u64) -> Option<Vec<u8>>;
}

/// A failed read: the address that could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadRead(pub u64);

/// A conversion specification.
#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
    /// Argument size in bytes (4 or 8) for integer conversions.
    long: bool,
    /// `h` (16) or `hh` (8): the printed value is truncated to this many bits.
    short_bits: Option<u32>,
}

/// Formats one `vprintf` call: the format string at `fmt` with the argument buffer at
/// `args`. Returns the text and the call's result.
pub fn vprintf(r: &mut dyn ArgReader, fmt: u64, args: u64) -> Result<(String, i32), BadRead> {
    if fmt == 0 {
        return Ok((String::new(), -1));
    }
    let f = r.cstr(fmt).ok_or(BadRead(fmt))?;
    let mut out: Vec<u8> = Vec::new();
    let mut off = 0u64;
    let mut count = 0i32;
    let mut i = 0;
    while i < f.len() {
        if f[i] != b'%' {
            out.push(f[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut s = Spec::default();
        while let Some(&c) = f.get(i) {
            match c {
                b'-' => s.left = true,
                b'+' => s.plus = true,
                b' ' => s.space = true,
                b'#' => s.alt = true,
                b'0' => s.zero = true,
                _ => break,
            }
            i += 1;
        }
        if f.get(i) == Some(&b'*') {
            // The width from the next `int` argument; a negative one is `-` and its value.
            i += 1;
            let w = take(r, args, &mut off, &mut count, 4)? as u32 as i32;
            s.left |= w < 0;
            s.width = w.unsigned_abs() as usize;
        } else {
            s.width = digits(&f, &mut i).unwrap_or(0);
        }
        if f.get(i) == Some(&b'.') {
            i += 1;
            if f.get(i) == Some(&b'*') {
                // A negative precision from the argument is taken as if it were omitted.
                i += 1;
                let p = take(r, args, &mut off, &mut count, 4)? as u32 as i32;
                s.prec = usize::try_from(p).ok();
            } else {
                s.prec = Some(digits(&f, &mut i).unwrap_or(0));
            }
        }
        loop {
            match f.get(i) {
                Some(b'l' | b'z' | b'j' | b't' | b'L') => s.long = true,
                Some(b'h') => s.short_bits = Some(if s.short_bits.is_some() { 8 } else { 16 }),
                _ => break,
            }
            i += 1;
        }
        let Some(&conv) = f.get(i) else {
            out.extend_from_slice(&f[start..]);
            break;
        };
        i += 1;
        let mut next = |size: usize| take(r, args, &mut off, &mut count, size);
        let int_size = if s.long { 8 } else { 4 };
        let body: Vec<u8> = match conv {
            b'%' => b"%".to_vec(),
            b'd' | b'i' => {
                let raw = next(int_size)?;
                let v = signed(raw, int_size, s.short_bits);
                int_text(&s, v < 0, &v.unsigned_abs().to_string(), "")
            }
            b'u' | b'x' | b'X' | b'o' => {
                let v = unsigned(next(int_size)?, int_size, s.short_bits);
                let (digits, prefix) = match conv {
                    b'u' => (v.to_string(), ""),
                    b'x' => (format!("{v:x}"), if s.alt && v != 0 { "0x" } else { "" }),
                    b'X' => (format!("{v:X}"), if s.alt && v != 0 { "0X" } else { "" }),
                    _ => (format!("{v:o}"), if s.alt { "0" } else { "" }),
                };
                let s2 = Spec {
                    plus: false,
                    space: false,
                    ..s
                };
                int_text(&s2, false, &digits, prefix)
            }
            b'c' => pad(&s, vec![next(4)? as u8], false),
            b's' => {
                let p = next(8)?;
                let mut t = if p == 0 {
                    b"(null)".to_vec()
                } else {
                    r.cstr(p).ok_or(BadRead(p))?
                };
                if let Some(n) = s.prec {
                    t.truncate(n);
                }
                pad(&s, t, false)
            }
            b'p' => {
                let p = next(8)?;
                let t = if p == 0 {
                    "(nil)".to_string()
                } else {
                    format!("0x{p:x}")
                };
                pad(&s, t.into_bytes(), false)
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' => {
                let v = f64::from_bits(next(8)?);
                float_text(&s, conv, v)
            }
            b'a' | b'A' => hex_float_text(&s, conv == b'A', f64::from_bits(next(8)?)),
            _ => f[start..i].to_vec(),
        };
        out.extend_from_slice(&body);
    }
    Ok((String::from_utf8_lossy(&out).into_owned(), count))
}

/// The next argument of `size` bytes, at its natural alignment after `off`.
fn take(
    r: &mut dyn ArgReader,
    args: u64,
    off: &mut u64,
    count: &mut i32,
    size: usize,
) -> Result<u64, BadRead> {
    *off = off.div_ceil(size as u64) * size as u64;
    let a = args.wrapping_add(*off);
    *off += size as u64;
    *count += 1;
    r.read(a, size).ok_or(BadRead(a))
}

/// C's `%a`/`%A` of `v` (glibc's form): `0x1.8p+1`, the leading hex digit 1 for normal
/// numbers and 0 for subnormals (exponent -1022), trailing zeros dropped without a precision,
/// rounding to nearest with ties to even when a precision cuts digits (a carry makes the
/// leading digit 2, as glibc prints it).
fn hex_float_text(s: &Spec, upper: bool, v: f64) -> Vec<u8> {
    let neg = v.is_sign_negative() && !v.is_nan();
    let a = v.abs();
    if !a.is_finite() {
        let t = if a.is_nan() { "nan" } else { "inf" };
        let t = if upper { t.to_uppercase() } else { t.into() };
        return pad_num(s, sign_of(s, neg), &t, false);
    }
    let bits = a.to_bits();
    let biased = (bits >> 52) as i64;
    let mut frac = bits & ((1u64 << 52) - 1);
    let (mut lead, exp) = match (biased, frac) {
        (0, 0) => (0u64, 0i64),
        (0, _) => (0, -1022),
        _ => (1, biased - 1023),
    };
    let digits = match s.prec {
        None => {
            let mut d = format!("{frac:013x}");
            while d.ends_with('0') {
                d.pop();
            }
            d
        }
        Some(p) if p >= 13 => format!("{frac:013x}{}", "0".repeat(p - 13)),
        Some(p) => {
            let cut = 4 * (13 - p) as u32;
            let kept = frac >> cut;
            let rest = frac & ((1u64 << cut) - 1);
            let half = 1u64 << (cut - 1);
            let odd = if p == 0 { lead & 1 } else { kept & 1 };
            let mut kept = kept;
            if rest > half || (rest == half && odd == 1) {
                kept += 1;
                if p == 0 || kept >> (4 * p) != 0 {
                    lead += 1;
                    kept &= (1u64 << (4 * p)) - 1;
                }
            }
            frac = kept;
            if p == 0 {
                String::new()
            } else {
                format!("{frac:0w$x}", w = p)
            }
        }
    };
    let point = if digits.is_empty() && !s.alt { "" } else { "." };
    let sign = if exp < 0 { '-' } else { '+' };
    let body = format!("{lead}{point}{digits}p{sign}{}", exp.unsigned_abs());
    let (head, body) = if upper {
        (format!("{}0X", sign_of(s, neg)), body.to_uppercase())
    } else {
        (format!("{}0x", sign_of(s, neg)), body)
    };
    pad_num(s, &head, &body, s.zero && !s.left)
}

fn digits(f: &[u8], i: &mut usize) -> Option<usize> {
    let s = *i;
    while f.get(*i).is_some_and(u8::is_ascii_digit) {
        *i += 1;
    }
    std::str::from_utf8(&f[s..*i]).ok()?.parse().ok()
}

fn signed(raw: u64, size: usize, short: Option<u32>) -> i64 {
    let bits = short.unwrap_or(size as u32 * 8);
    let sh = 64 - bits;
    ((raw << sh) as i64) >> sh
}

fn unsigned(raw: u64, size: usize, short: Option<u32>) -> u64 {
    let bits = short.unwrap_or(size as u32 * 8);
    if bits >= 64 {
        raw
    } else {
        raw & ((1u64 << bits) - 1)
    }
}

/// An integer's text: sign, prefix, precision zeros, digits, padded to the width.
fn int_text(s: &Spec, neg: bool, digits: &str, prefix: &str) -> Vec<u8> {
    let mut d = if s.prec == Some(0) && digits == "0" {
        String::new()
    } else {
        digits.to_string()
    };
    if let Some(p) = s.prec {
        while d.len() < p {
            d.insert(0, '0');
        }
    }
    let sign = sign_of(s, neg);
    let head = format!("{sign}{prefix}");
    let zero = s.zero && !s.left && s.prec.is_none();
    pad_num(s, &head, &d, zero)
}

fn sign_of(s: &Spec, neg: bool) -> &'static str {
    if neg {
        "-"
    } else if s.plus {
        "+"
    } else if s.space {
        " "
    } else {
        ""
    }
}

/// `head` (sign, prefix) then `body`, padded to the width with spaces (or zeros after the
/// head).
fn pad_num(s: &Spec, head: &str, body: &str, zero: bool) -> Vec<u8> {
    let len = head.len() + body.len();
    let fill = s.width.saturating_sub(len);
    let mut t = String::new();
    if s.left {
        t.push_str(head);
        t.push_str(body);
        t.push_str(&" ".repeat(fill));
    } else if zero {
        t.push_str(head);
        t.push_str(&"0".repeat(fill));
        t.push_str(body);
    } else {
        t.push_str(&" ".repeat(fill));
        t.push_str(head);
        t.push_str(body);
    }
    t.into_bytes()
}

fn pad(s: &Spec, body: Vec<u8>, _numeric: bool) -> Vec<u8> {
    let fill = s.width.saturating_sub(body.len());
    let mut t = Vec::new();
    if !s.left {
        t.extend(std::iter::repeat_n(b' ', fill));
    }
    t.extend_from_slice(&body);
    if s.left {
        t.extend(std::iter::repeat_n(b' ', fill));
    }
    t
}

/// `%f`, `%e`, `%g` (and upper-case forms) of `v`.
fn float_text(s: &Spec, conv: u8, v: f64) -> Vec<u8> {
    let upper = conv.is_ascii_uppercase();
    let neg = v.is_sign_negative() && !v.is_nan();
    let a = v.abs();
    let body = if !a.is_finite() {
        let t = if a.is_nan() { "nan" } else { "inf" };
        let t = if upper {
            t.to_uppercase()
        } else {
            t.to_string()
        };
        return pad_num(s, sign_of(s, neg), &t, false);
    } else {
        let p = s.prec.unwrap_or(6);
        match conv.to_ascii_lowercase() {
            b'f' => fixed(a, p, s.alt),
            b'e' => sci(a, p, s.alt),
            _ => general(a, p, s.alt),
        }
    };
    let body = if upper { body.to_uppercase() } else { body };
    let zero = s.zero && !s.left;
    pad_num(s, sign_of(s, neg), &body, zero)
}

fn fixed(a: f64, p: usize, alt: bool) -> String {
    let mut t = format!("{a:.p$}");
    if alt && p == 0 {
        t.push('.');
    }
    t
}

/// `d.ddde±XX` with `p` digits after the point.
fn sci(a: f64, p: usize, alt: bool) -> String {
    let t = format!("{a:.p$e}");
    let (m, e) = t.split_once('e').unwrap_or((&t, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let mut m = m.to_string();
    if alt && p == 0 {
        m.push('.');
    }
    format!(
        "{m}e{}{:02}",
        if e < 0 { '-' } else { '+' },
        e.unsigned_abs()
    )
}

/// C's `%g`: `%e` or `%f` by the exponent, trailing zeros removed unless `#`.
fn general(a: f64, p: usize, alt: bool) -> String {
    let p = p.max(1);
    let t = format!("{a:.*e}", p - 1);
    let x: i64 = t
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let mut out = if (p as i64) > x && x >= -4 {
        fixed(a, (p as i64 - 1 - x) as usize, alt)
    } else {
        sci(a, p - 1, alt)
    };
    if !alt {
        let (m, e) = match out.find('e') {
            Some(k) => (out[..k].to_string(), out[k..].to_string()),
            None => (out.clone(), String::new()),
        };
        let m = if m.contains('.') {
            m.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            m
        };
        out = m + &e;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Memory: the format at 0x1000, strings at 0x2000, the argument buffer at 0x3000.
    struct Mem(Vec<(u64, Vec<u8>)>);

    impl ArgReader for Mem {
        fn read(&mut self, addr: u64, size: usize) -> Option<u64> {
            for (base, b) in &self.0 {
                if addr >= *base && addr + size as u64 <= base + b.len() as u64 {
                    let o = (addr - base) as usize;
                    let mut x = [0u8; 8];
                    x[..size].copy_from_slice(&b[o..o + size]);
                    return Some(u64::from_le_bytes(x));
                }
            }
            None
        }
        fn cstr(&mut self, addr: u64) -> Option<Vec<u8>> {
            let (base, b) = self
                .0
                .iter()
                .find(|(b, v)| addr >= *b && addr < b + v.len() as u64)?;
            let t = &b[(addr - base) as usize..];
            Some(t[..t.iter().position(|&c| c == 0)?].to_vec())
        }
    }

    /// Packs arguments as clang does: each at its natural alignment.
    fn pack(args: &[(usize, u64)]) -> Vec<u8> {
        let mut b = Vec::new();
        for &(size, v) in args {
            while b.len() % size != 0 {
                b.push(0);
            }
            b.extend_from_slice(&v.to_le_bytes()[..size]);
        }
        b
    }

    fn run(fmt: &str, args: &[(usize, u64)]) -> (String, i32) {
        let mut f = fmt.as_bytes().to_vec();
        f.push(0);
        let mut m = Mem(vec![
            (0x1000, f),
            (0x2000, b"abc\0".to_vec()),
            (0x3000, pack(args)),
        ]);
        vprintf(&mut m, 0x1000, 0x3000).expect("readable")
    }

    // Expected texts are C's printf semantics (C11 7.21.6.1) for these values.
    #[test]
    fn integers() {
        let neg = (-42i32) as u32 as u64;
        assert_eq!(
            run("%d|%5d|%-5d|%05d", &[(4, neg), (4, 7), (4, 7), (4, neg)]).0,
            "-42|    7|7    |-0042"
        );
        assert_eq!(
            run(
                "%u %x %X %o %#x %#o",
                &[(4, neg), (4, 255), (4, 255), (4, 8), (4, 255), (4, 8)]
            )
            .0,
            "4294967254 ff FF 10 0xff 010"
        );
        assert_eq!(
            run(
                "%lld %lu %ld",
                &[(8, (-5i64) as u64), (8, u64::MAX), (8, 3)]
            ),
            ("-5 18446744073709551615 3".into(), 3)
        );
        assert_eq!(
            run(
                "%+d % d %.3d %hhd %hd",
                &[(4, 5), (4, 5), (4, 5), (4, 0x1ff), (4, 0x18000)]
            )
            .0,
            "+5  5 005 -1 -32768"
        );
        assert_eq!(run("%i,%c%c", &[(4, 1), (4, 0x41), (4, 0x42)]).0, "1,AB");
    }

    #[test]
    fn mixed_alignment_and_strings() {
        // int at 0, long long at 8, int at 16, pointer at 24.
        let out = run(
            "%d %lld %d %s|%.2s|%6s|%p %p %%",
            &[
                (4, 1),
                (8, 2),
                (4, 3),
                (8, 0x2000),
                (8, 0x2000),
                (8, 0x2000),
                (8, 0x2000),
                (8, 0),
            ],
        );
        assert_eq!(out, ("1 2 3 abc|ab|   abc|0x2000 (nil) %".into(), 8));
    }

    #[test]
    fn floats() {
        let d = |x: f64| (8, x.to_bits());
        assert_eq!(
            run(
                "%f %.2f %8.3f %-8.1f|",
                &[d(1.5), d(2.25), d(-1.23456), d(2.0)]
            )
            .0,
            "1.500000 2.25   -1.235 2.0     |"
        );
        assert_eq!(
            run("%e %.2E %e", &[d(12345.678), d(0.000123), d(0.0)]).0,
            "1.234568e+04 1.23E-04 0.000000e+00"
        );
        assert_eq!(
            run(
                "%g %g %g %g %G",
                &[d(100000.0), d(1000000.0), d(0.0001), d(0.5), d(1e-5)]
            )
            .0,
            "100000 1e+06 0.0001 0.5 1E-05"
        );
        assert_eq!(
            run(
                "%f %f %F",
                &[d(f64::INFINITY), d(f64::NEG_INFINITY), d(f64::NAN)]
            )
            .0,
            "inf -inf NAN"
        );
    }

    // Expected texts: glibc's printf on the same format and values (C11 7.21.6.1 `%a`, `*`).
    #[test]
    #[allow(clippy::approx_constant)] // 3.14 is a value to print, not pi
    fn hex_floats() {
        let d = |x: f64| (8, x.to_bits());
        assert_eq!(
            run(
                "[%a][%a][%a][%a][%a]",
                &[d(1.0), d(0.5), d(3.14), d(0.0), d(-2.5)]
            )
            .0,
            "[0x1p+0][0x1p-1][0x1.91eb851eb851fp+1][0x0p+0][-0x1.4p+1]"
        );
        assert_eq!(
            run(
                "[%A][%.0a][%.1a][%.2a][%#a]",
                &[d(255.75), d(1.5), d(1.03125), d(1.0), d(1.0)]
            )
            .0,
            "[0X1.FF8P+7][0x2p+0][0x1.0p+0][0x1.00p+0][0x1.p+0]"
        );
        assert_eq!(
            run(
                "[%a][%a][%12a][%-12a|][%012a][%+a][% a]",
                &[
                    d(f64::from_bits(1)), // the smallest subnormal
                    d(1e300),
                    d(1.0),
                    d(1.0),
                    d(1.0),
                    d(1.0),
                    d(1.0)
                ]
            )
            .0,
            "[0x0.0000000000001p-1022][0x1.7e43c8800759cp+996][      0x1p+0][0x1p+0      |][0x0000001p+0][+0x1p+0][ 0x1p+0]"
        );
        assert_eq!(
            run(
                "[%.0a][%.0a][%.3a][%.15a][%a]",
                &[d(2.5), d(3.5), d(1.99999), d(0.1), d(f64::INFINITY)]
            )
            .0,
            "[0x1p+1][0x2p+1][0x2.000p+0][0x1.999999999999a00p-4][inf]"
        );
    }

    #[test]
    #[allow(clippy::approx_constant)] // 3.14159 is a value to print, not pi
    fn star_width_and_precision() {
        let d = |x: f64| (8, x.to_bits());
        let neg4 = (-4i32) as u32 as u64;
        let neg1 = (-1i32) as u32 as u64;
        // Each `*` reads an `int` argument and counts as one (CUDA's result).
        assert_eq!(
            run(
                "[%*d][%-*d][%*d][%.*f][%.*f][%*.*s]",
                &[
                    (4, 5),
                    (4, 42),
                    (4, 5),
                    (4, 42),
                    (4, neg4),
                    (4, 7),
                    (4, 2),
                    d(3.14159),
                    (4, neg1),
                    d(2.5),
                    (4, 6),
                    (4, 2),
                    (8, 0x2000)
                ]
            ),
            ("[   42][42   ][7   ][3.14][2.500000][    ab]".into(), 13)
        );
    }

    #[test]
    fn counts_and_nulls() {
        assert_eq!(run("no args\n", &[]), ("no args\n".into(), 0));
        let mut m = Mem(vec![]);
        assert_eq!(vprintf(&mut m, 0, 0), Ok((String::new(), -1)));
        assert_eq!(vprintf(&mut m, 0x10, 0), Err(BadRead(0x10)));
    }
}
