//! The trace sink of the SIMT machine: the text event trace of paper 003 §3.1 written
//! without the formatting machinery for per-thread events, and the structured access events
//! a race detector consumes.

use std::fmt;
use std::io::Write;

use super::{Machine, Stats};
use crate::decode::TraceKind;
use crate::mem::Region;
use crate::sink::{AccessEvent, AccessOp, AccessSpace};

impl<'a> Machine<'a> {
    pub(super) fn emit(&mut self, args: fmt::Arguments<'_>) {
        if let Some(t) = self.trace.as_mut() {
            if self.io_error.is_none() {
                if let Err(e) = t.write_fmt(args) {
                    self.io_error = Some(e);
                }
                self.stats.trace_events += 1;
            }
        }
    }
}

/// A traced location: `g:0xADDR` (global, by generic address), `s<cta>:0xOFF` (shared of
/// CTA `cta`), `l<thread>:0xOFF` (local), `p:0xOFF` (param).
pub(super) struct Loc(
    pub(super) Region,
    pub(super) u64,
    pub(super) u64,
    pub(super) u64,
    pub(super) u64,
);

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Region::Global => write!(f, "g:0x{:x}", self.2),
            Region::Shared => write!(f, "s{}:0x{:x}", self.3, self.1),
            Region::Local => write!(f, "l{}:0x{:x}", self.4, self.1),
            Region::Param => write!(f, "p:0x{:x}", self.1),
        }
    }
}

/// The structured form of one traced access.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) fn access_event(
    region: Region,
    off: u64,
    generic: u64,
    cta: u64,
    tid: u64,
    pc: u32,
    op: AccessOp,
    kind: TraceKind,
    width: u8,
    value: u64,
) -> AccessEvent {
    let (space, addr) = match region {
        Region::Global => (AccessSpace::Global, generic),
        Region::Shared => (AccessSpace::Shared(cta), off),
        Region::Local | Region::Param => (AccessSpace::Local, off),
    };
    AccessEvent {
        tid,
        pc,
        op,
        kind,
        space,
        addr,
        width,
        value,
    }
}

/// Appends the decimal digits of `v`.
#[inline]
fn push_dec(buf: &mut [u8; 96], len: &mut usize, v: u64) {
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    let mut x = v;
    loop {
        i -= 1;
        tmp[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    let n = tmp.len() - i;
    buf[*len..*len + n].copy_from_slice(&tmp[i..]);
    *len += n;
}

/// Appends the lower-case hex digits of `v` (at least `min` digits).
#[inline]
fn push_hex(buf: &mut [u8; 96], len: &mut usize, v: u64, min: usize) {
    const D: &[u8; 16] = b"0123456789abcdef";
    let digits = (((64 - v.leading_zeros()) as usize).div_ceil(4))
        .max(min)
        .max(1);
    for k in (0..digits).rev() {
        buf[*len] = D[((v >> (4 * k)) & 0xf) as usize];
        *len += 1;
    }
}

#[inline]
fn push_str(buf: &mut [u8; 96], len: &mut usize, s: &str) {
    buf[*len..*len + s.len()].copy_from_slice(s.as_bytes());
    *len += s.len();
}

/// Writes `NAME T LOC\n` (the `Display` of [`Loc`], without the formatting machinery: the
/// per-thread events are most of a trace).
pub(super) fn emit_access(
    trace: &mut Option<&mut dyn Write>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    name: &str,
    t: u64,
    loc: &Loc,
) {
    let Some(out) = trace.as_mut() else { return };
    if io_error.is_some() {
        return;
    }
    let mut buf = [0u8; 96];
    let mut n = 0;
    push_str(&mut buf, &mut n, name);
    push_str(&mut buf, &mut n, " ");
    push_dec(&mut buf, &mut n, t);
    match loc.0 {
        Region::Global => {
            push_str(&mut buf, &mut n, " g:0x");
            push_hex(&mut buf, &mut n, loc.2, 1);
        }
        Region::Shared => {
            push_str(&mut buf, &mut n, " s");
            push_dec(&mut buf, &mut n, loc.3);
            push_str(&mut buf, &mut n, ":0x");
            push_hex(&mut buf, &mut n, loc.1, 1);
        }
        Region::Local => {
            push_str(&mut buf, &mut n, " l");
            push_dec(&mut buf, &mut n, loc.4);
            push_str(&mut buf, &mut n, ":0x");
            push_hex(&mut buf, &mut n, loc.1, 1);
        }
        Region::Param => {
            push_str(&mut buf, &mut n, " p:0x");
            push_hex(&mut buf, &mut n, loc.1, 1);
        }
    }
    push_str(&mut buf, &mut n, "\n");
    if let Err(e) = out.write_all(&buf[..n]) {
        *io_error = Some(e);
    }
    stats.trace_events += 1;
}

/// Writes `NAME W MASK\n` with the mask as 8 hex digits.
pub(super) fn emit_warp(
    trace: &mut Option<&mut dyn Write>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    name: &str,
    w: u64,
    mask: u32,
) {
    let Some(out) = trace.as_mut() else { return };
    if io_error.is_some() {
        return;
    }
    let mut buf = [0u8; 96];
    let mut n = 0;
    push_str(&mut buf, &mut n, name);
    push_str(&mut buf, &mut n, " ");
    push_dec(&mut buf, &mut n, w);
    push_str(&mut buf, &mut n, " ");
    push_hex(&mut buf, &mut n, u64::from(mask), 8);
    push_str(&mut buf, &mut n, "\n");
    if let Err(e) = out.write_all(&buf[..n]) {
        *io_error = Some(e);
    }
    stats.trace_events += 1;
}

pub(super) fn emit_to(
    trace: &mut Option<&mut dyn Write>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    args: fmt::Arguments<'_>,
) {
    if let Some(t) = trace.as_mut() {
        if io_error.is_none() {
            if let Err(e) = t.write_fmt(args) {
                *io_error = Some(e);
            }
            stats.trace_events += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_event_encoding_matches_display() {
        for loc in [
            Loc(Region::Global, 0, 0x1_0000_0abc, 3, 7),
            Loc(Region::Shared, 0x1f0, 0, 12, 7),
            Loc(Region::Local, 0, 0, 1, 123_456),
            Loc(Region::Param, 8, 0, 0, 0),
        ] {
            let mut out: Vec<u8> = Vec::new();
            let mut tr: Option<&mut dyn Write> = Some(&mut out);
            let (mut err, mut st) = (None, Stats::default());
            emit_access(&mut tr, &mut err, &mut st, "relGlb", 1_048_575, &loc);
            emit_warp(&mut tr, &mut err, &mut st, "endi", 32767, 0x0000_ffff);
            let want = format!("relGlb 1048575 {loc}\nendi 32767 0000ffff\n");
            assert_eq!(String::from_utf8(out).unwrap(), want);
            assert_eq!(st.trace_events, 2);
        }
    }
}
