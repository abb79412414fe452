//! The trace sink of the SIMT machine: the text event trace of paper 003 §3.1 and the
//! structured access events a race detector consumes. The text is formatted by hand into
//! one block of bytes the machine owns ([`TraceOut`]) and handed to the writer a block at a
//! time: the per-thread events are most of a trace, so an event costs a few stores, with
//! no formatting machinery, no call through the writer and no copy per event.

use std::fmt;
use std::io::Write;

use super::{Machine, Stats};
use crate::decode::TraceKind;
use crate::mem::Region;
use crate::sink::{AccessEvent, AccessOp, AccessSpace};

/// Bytes gathered before they go to the writer.
const BLOCK: usize = 1 << 16;
/// The longest event line (name, two 20-digit numbers, a 16-digit address, separators).
const LINE: usize = 96;

/// The text trace's destination: the writer and the block of bytes not yet written to it.
pub(super) struct TraceOut<'a> {
    out: Option<&'a mut dyn Write>,
    /// `BLOCK + LINE` bytes; `buf[..pos]` is pending.
    buf: Vec<u8>,
    pos: usize,
}

impl<'a> TraceOut<'a> {
    pub(super) fn new(out: Option<&'a mut dyn Write>) -> Self {
        let buf = if out.is_some() {
            vec![0; BLOCK + LINE]
        } else {
            Vec::new()
        };
        TraceOut { out, buf, pos: 0 }
    }

    /// Whether a text trace is being written.
    #[inline]
    pub(super) fn is_some(&self) -> bool {
        self.out.is_some()
    }

    /// Hands the pending bytes to the writer once a block is full.
    #[inline]
    fn settle(&mut self, io_error: &mut Option<std::io::Error>) {
        if self.pos >= BLOCK {
            self.drain(io_error);
        }
    }

    fn drain(&mut self, io_error: &mut Option<std::io::Error>) {
        if let Some(out) = self.out.as_mut() {
            if io_error.is_none() && self.pos > 0 {
                if let Err(e) = out.write_all(&self.buf[..self.pos]) {
                    *io_error = Some(e);
                }
            }
        }
        self.pos = 0;
    }

    /// Writes what is pending and flushes the writer.
    pub(super) fn finish(&mut self) -> std::io::Result<()> {
        let mut err = None;
        self.drain(&mut err);
        if let Some(e) = err {
            return Err(e);
        }
        match self.out.as_mut() {
            Some(out) => out.flush(),
            None => Ok(()),
        }
    }

    #[inline]
    fn push(&mut self, b: u8) {
        self.buf[self.pos] = b;
        self.pos += 1;
    }

    #[inline]
    fn push_str(&mut self, s: &str) {
        let n = s.len();
        self.buf[self.pos..self.pos + n].copy_from_slice(s.as_bytes());
        self.pos += n;
    }

    /// Appends the decimal digits of `v`, two at a time.
    #[inline]
    fn push_dec(&mut self, v: u64) {
        let mut tmp = [0u8; 20];
        let mut i = tmp.len();
        let mut x = v;
        while x >= 100 {
            let d = (x % 100) as usize * 2;
            x /= 100;
            i -= 2;
            tmp[i] = DIGITS2[d];
            tmp[i + 1] = DIGITS2[d + 1];
        }
        if x >= 10 {
            let d = x as usize * 2;
            i -= 2;
            tmp[i] = DIGITS2[d];
            tmp[i + 1] = DIGITS2[d + 1];
        } else {
            i -= 1;
            tmp[i] = b'0' + x as u8;
        }
        let n = tmp.len() - i;
        self.buf[self.pos..self.pos + n].copy_from_slice(&tmp[i..]);
        self.pos += n;
    }

    /// Appends the lower-case hex digits of `v` (at least `min` digits).
    #[inline]
    fn push_hex(&mut self, v: u64, min: usize) {
        const D: &[u8; 16] = b"0123456789abcdef";
        let digits = (((64 - v.leading_zeros()) as usize).div_ceil(4))
            .max(min)
            .max(1);
        let out = &mut self.buf[self.pos..self.pos + digits];
        for (k, b) in out.iter_mut().rev().enumerate() {
            *b = D[((v >> (4 * k)) & 0xf) as usize];
        }
        self.pos += digits;
    }
}

/// `00`, `01`, ... `99`.
const DIGITS2: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// Formatted events (`if`, `bar`, ...) go through the block like the others.
impl Write for TraceOut<'_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        if self.pos + b.len() > self.buf.len() {
            let mut err = None;
            self.drain(&mut err);
            if let Some(e) = err {
                return Err(e);
            }
            if b.len() > self.buf.len() {
                return match self.out.as_mut() {
                    Some(out) => out.write_all(b).map(|_| b.len()),
                    None => Ok(b.len()),
                };
            }
        }
        self.buf[self.pos..self.pos + b.len()].copy_from_slice(b);
        self.pos += b.len();
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> Machine<'a> {
    pub(super) fn emit(&mut self, args: fmt::Arguments<'_>) {
        emit_to(&mut self.trace, &mut self.io_error, &mut self.stats, args);
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

/// Writes `NAME T LOC\n` (the `Display` of [`Loc`]).
pub(super) fn emit_access(
    trace: &mut TraceOut<'_>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    name: &str,
    t: u64,
    loc: &Loc,
) {
    if trace.out.is_none() || io_error.is_some() {
        return;
    }
    trace.push_str(name);
    trace.push(b' ');
    trace.push_dec(t);
    match loc.0 {
        Region::Global => {
            trace.push_str(" g:0x");
            trace.push_hex(loc.2, 1);
        }
        Region::Shared => {
            trace.push_str(" s");
            trace.push_dec(loc.3);
            trace.push_str(":0x");
            trace.push_hex(loc.1, 1);
        }
        Region::Local => {
            trace.push_str(" l");
            trace.push_dec(loc.4);
            trace.push_str(":0x");
            trace.push_hex(loc.1, 1);
        }
        Region::Param => {
            trace.push_str(" p:0x");
            trace.push_hex(loc.1, 1);
        }
    }
    trace.push(b'\n');
    stats.trace_events += 1;
    trace.settle(io_error);
}

/// Writes `NAME W MASK\n` with the mask as 8 hex digits.
pub(super) fn emit_warp(
    trace: &mut TraceOut<'_>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    name: &str,
    w: u64,
    mask: u32,
) {
    if trace.out.is_none() || io_error.is_some() {
        return;
    }
    trace.push_str(name);
    trace.push(b' ');
    trace.push_dec(w);
    trace.push(b' ');
    trace.push_hex(u64::from(mask), 8);
    trace.push(b'\n');
    stats.trace_events += 1;
    trace.settle(io_error);
}

pub(super) fn emit_to(
    trace: &mut TraceOut<'_>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    args: fmt::Arguments<'_>,
) {
    if trace.out.is_some() && io_error.is_none() {
        if let Err(e) = trace.write_fmt(args) {
            *io_error = Some(e);
        }
        stats.trace_events += 1;
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
            let mut tr = TraceOut::new(Some(&mut out));
            let (mut err, mut st) = (None, Stats::default());
            emit_access(&mut tr, &mut err, &mut st, "relGlb", 1_048_575, &loc);
            emit_warp(&mut tr, &mut err, &mut st, "endi", 32767, 0x0000_ffff);
            emit_to(&mut tr, &mut err, &mut st, format_args!("bar {}\n", 9));
            tr.finish().unwrap();
            drop(tr);
            let want = format!("relGlb 1048575 {loc}\nendi 32767 0000ffff\nbar 9\n");
            assert_eq!(String::from_utf8(out).unwrap(), want);
            assert_eq!(st.trace_events, 3);
        }
    }
}
