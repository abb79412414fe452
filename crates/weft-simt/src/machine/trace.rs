//! The trace sink of the SIMT machine: the text event trace of paper 003 §3.1 and the
//! structured access events a race detector consumes. The text is formatted by hand into
//! one block of bytes the machine owns ([`TraceOut`]) and handed to the writer a block at a
//! time: the per-thread events are most of a trace, so an event costs a few stores, with
//! no formatting machinery, no call through the writer and no copy per event.

use std::fmt;
use std::io::Write;

use weft_ir::attrs::MemSpace;

use super::step::route;
use super::{Machine, Stats, FULL, WARP};
use crate::decode::TraceKind;
use crate::mem::Region;
use crate::sink::{AccessEvent, AccessOp, AccessSpace, SinkBatch, WarpAccess};

/// Bytes gathered before they go to the writer.
const BLOCK: usize = 1 << 16;
/// The longest event line (name, two 20-digit numbers, a 16-digit address, separators).
const LINE: usize = 96;

/// The text trace's destination: the writer and the block of bytes not yet written to it.
pub(super) struct TraceOut<'a> {
    out: Option<&'a mut dyn Write>,
    /// `BLOCK + WARP * LINE` bytes (room for a warp's lines past `BLOCK`); `buf[..pos]` is
    /// pending.
    buf: Vec<u8>,
    pos: usize,
    /// The decimal digits (left-aligned, `tid_len` of them) of the last thread index
    /// written, `tid_val` (`u64::MAX`: none): the lanes of a warp instruction are consecutive
    /// threads, so the next one is mostly an increment of the last digit.
    tid: [u8; 20],
    tid_len: usize,
    tid_val: u64,
    /// `NAME W ` of the last [`emit_warp`] line (`warp_len` bytes) and its key (warp, the
    /// name's address and length; the address 0: none).
    warp_head: [u8; 48],
    warp_len: usize,
    warp_key: (u64, usize, usize),
}

impl<'a> TraceOut<'a> {
    pub(super) fn new(out: Option<&'a mut dyn Write>) -> Self {
        let buf = if out.is_some() {
            vec![0; BLOCK + WARP * LINE]
        } else {
            Vec::new()
        };
        TraceOut {
            out,
            buf,
            pos: 0,
            tid: [0; 20],
            tid_len: 0,
            tid_val: u64::MAX,
            warp_head: [0; 48],
            warp_len: 0,
            warp_key: (0, 0, 0),
        }
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

    /// The digits of thread index `t` (all 20 bytes: the first `len` are the number).
    #[inline]
    fn tid_digits(&mut self, t: u64) -> ([u8; 20], usize) {
        if self.tid_val != u64::MAX && t == self.tid_val + 1 {
            let mut i = self.tid_len;
            loop {
                if i == 0 {
                    // 9...9 + 1: one more digit.
                    self.tid.copy_within(0..self.tid_len, 1);
                    self.tid[0] = b'1';
                    self.tid_len += 1;
                    break;
                }
                i -= 1;
                if self.tid[i] == b'9' {
                    self.tid[i] = b'0';
                } else {
                    self.tid[i] += 1;
                    break;
                }
            }
        } else {
            let mut n = 0;
            put_dec(&mut self.tid, &mut n, t);
            self.tid_len = n;
        }
        self.tid_val = t;
        (self.tid, self.tid_len)
    }

    /// The next line's bytes (an event line is at most [`LINE`] bytes; `buf` has them).
    #[inline]
    fn line(&mut self) -> &mut [u8; LINE] {
        let p = self.pos;
        (&mut self.buf[p..p + LINE])
            .try_into()
            .expect("LINE bytes past pos")
    }
}

/// Appends `s` (byte by byte: event names and separators are a few bytes, and a call to
/// `memcpy` per piece cost more than the stores).
#[inline(always)]
fn put_str(line: &mut [u8], n: &mut usize, s: &str) {
    for &b in s.as_bytes() {
        line[*n] = b;
        *n += 1;
    }
}

/// Appends the decimal digits of `v`, written in place two at a time.
#[inline(always)]
fn put_dec(line: &mut [u8], n: &mut usize, v: u64) {
    let digits = v.checked_ilog10().map_or(1, |d| d as usize + 1);
    let mut i = *n + digits;
    *n = i;
    let mut x = v;
    while x >= 100 {
        let d = (x % 100) as usize * 2;
        x /= 100;
        i -= 2;
        line[i] = DIGITS2[d];
        line[i + 1] = DIGITS2[d + 1];
    }
    if x >= 10 {
        let d = x as usize * 2;
        line[i - 2] = DIGITS2[d];
        line[i - 1] = DIGITS2[d + 1];
    } else {
        line[i - 1] = b'0' + x as u8;
    }
}

/// Appends the lower-case hex digits of `v` (at least `min` digits, at most 16): all 16
/// digits are made at once (each nibble spread to a byte, then turned into its digit) and
/// stored as one 16-byte block, the significant ones first; the bytes past the last digit
/// are overwritten by what follows (an event line has room: [`LINE`]).
#[inline(always)]
fn put_hex(line: &mut [u8; LINE], n: &mut usize, v: u64, min: usize) {
    let digits = (((64 - v.leading_zeros()) as usize).div_ceil(4))
        .max(min)
        .clamp(1, 16);
    if digits <= 8 {
        let at = *n;
        line[at..at + 8].copy_from_slice(&(hex8(v as u32) << (8 * (8 - digits))).to_be_bytes());
        *n += digits;
        return;
    }
    let all = (u128::from(hex8((v >> 32) as u32)) << 64) | u128::from(hex8(v as u32));
    let at = *n;
    line[at..at + 16].copy_from_slice(&(all << (8 * (16 - digits))).to_be_bytes());
    *n += digits;
}

/// The 8 hex digits of `x` as the bytes of a `u64`, most significant digit in the top byte.
#[inline(always)]
fn hex8(x: u32) -> u64 {
    let mut v = u64::from(x);
    v = (v | v << 16) & 0x0000_ffff_0000_ffff;
    v = (v | v << 8) & 0x00ff_00ff_00ff_00ff;
    v = (v | v << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    // 1 in each byte holding 10-15 (a letter).
    let letters = ((v + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
    v + 0x3030_3030_3030_3030 + letters * (b'a' - b'0' - 10) as u64
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
        // Keep `pos < BLOCK` between events: an event line always fits after it.
        if self.pos >= BLOCK {
            let mut err = None;
            self.drain(&mut err);
            if let Some(e) = err {
                return Err(e);
            }
        }
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

/// Writes `NAME T LOC\n` (the `Display` of [`Loc`]). Inlined so that a run with only a
/// structured sink (the race detector) pays one test per access, not a call.
#[inline(always)]
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
    write_access(trace, io_error, stats, name, t, loc);
}

/// The body of [`emit_access`] once a text trace is being written.
fn write_access(
    trace: &mut TraceOut<'_>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    name: &str,
    t: u64,
    loc: &Loc,
) {
    let (digits, len) = trace.tid_digits(t);
    let line = trace.line();
    let mut n = 0;
    put_str(line, &mut n, name);
    put_str(line, &mut n, " ");
    line[n..n + 20].copy_from_slice(&digits);
    n += len;
    match loc.0 {
        Region::Global => {
            put_str(line, &mut n, " g:0x");
            put_hex(line, &mut n, loc.2, 1);
        }
        Region::Shared => {
            put_str(line, &mut n, " s");
            put_dec(line, &mut n, loc.3);
            put_str(line, &mut n, ":0x");
            put_hex(line, &mut n, loc.1, 1);
        }
        Region::Local => {
            put_str(line, &mut n, " l");
            put_dec(line, &mut n, loc.4);
            put_str(line, &mut n, ":0x");
            put_hex(line, &mut n, loc.1, 1);
        }
        Region::Param => {
            put_str(line, &mut n, " p:0x");
            put_hex(line, &mut n, loc.1, 1);
        }
    }
    put_str(line, &mut n, "\n");
    trace.pos += n;
    stats.trace_events += 1;
    trace.settle(io_error);
}

/// A warp instruction's lane accesses done by the per-warp fast path, to be traced.
pub(super) struct Lanes<'l> {
    pub space: MemSpace,
    /// Each lane's address (before routing).
    pub addrs: &'l [u64; WARP],
    /// Each lane's event value (as the lane-by-lane path gives it).
    pub vals: &'l [u64; WARP],
    pub em: u32,
    pub cta: u64,
    /// Global index of the warp's lane 0.
    pub gt_base: u64,
    /// Global warp index.
    pub gw: u64,
    pub pc: u32,
    pub op: AccessOp,
    pub kind: TraceKind,
    pub width: usize,
}

/// The events of a scalar load or store the fast path performed: per lane in order the
/// structured event and the text line, then the instruction's `endi`, exactly as the
/// lane-by-lane path emits them.
// The lane loops (`for_lanes!`) index per-lane arrays by the lane number.
#[allow(clippy::needless_range_loop)]
pub(super) fn emit_lanes(
    trace: &mut TraceOut<'_>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    sink: &mut Option<SinkBatch<'_>>,
    x: &Lanes<'_>,
) {
    if let Some(sk) = sink.as_mut() {
        // The event's address: the generic one in global memory, else the offset.
        let l0 = x.em.trailing_zeros() as usize;
        let (region, _) = route(x.space, x.addrs[l0]).unwrap_or((Region::Global, 0));
        let mut routed = [0u64; WARP];
        let addrs = match (x.space, region) {
            (MemSpace::Global | MemSpace::Constant | MemSpace::Shared, _) | (_, Region::Global) => {
                x.addrs
            }
            _ => {
                for_lanes!(x.em, l, {
                    routed[l] = route(x.space, x.addrs[l]).map_or(x.addrs[l], |r| r.1);
                });
                &routed
            }
        };
        let space = match region {
            Region::Global => AccessSpace::Global,
            Region::Shared => AccessSpace::Shared(x.cta),
            Region::Local | Region::Param => AccessSpace::Local,
        };
        sk.access_warp(&WarpAccess {
            warp: x.gw,
            tid0: x.gt_base,
            pc: x.pc,
            op: x.op,
            kind: x.kind,
            space,
            width: x.width as u8,
            mask: x.em,
            addrs,
            values: x.vals,
        });
    }
    if trace.is_some() {
        let name = x.kind.name();
        let l0 = x.em.trailing_zeros() as usize;
        let (region, _) = route(x.space, x.addrs[l0]).unwrap_or((Region::Global, 0));
        // The location's prefix is the same on every line but local memory's.
        let mut pre = [0u8; 32];
        let mut pn = 0;
        match region {
            Region::Global => put_str(&mut pre, &mut pn, " g:0x"),
            Region::Shared => {
                put_str(&mut pre, &mut pn, " s");
                put_dec(&mut pre, &mut pn, x.cta);
                put_str(&mut pre, &mut pn, ":0x");
            }
            Region::Param => put_str(&mut pre, &mut pn, " p:0x"),
            Region::Local => {}
        }
        if region != Region::Local {
            write_lanes(trace, io_error, stats, name, (&pre, pn), region, x);
            return emit_endi(trace, io_error, stats, sink, x);
        }
        for_lanes!(x.em, l, {
            let a = x.addrs[l];
            let (region, off) = route(x.space, a).unwrap_or((Region::Global, a));
            let t = x.gt_base + l as u64;
            emit_access(
                trace,
                io_error,
                stats,
                name,
                t,
                &Loc(region, off, a, x.cta, t),
            );
        });
    }
    emit_endi(trace, io_error, stats, sink, x);
}

/// The text lines `NAME TID PREFIX HEX` of a warp's lanes in one memory (not local: its
/// prefix names the thread), written into the block in one pass with one check for room
/// (the block has room for a warp's lines past [`BLOCK`]). A warp's lines mostly differ
/// only in the last two digits of the thread index and of the address, so the line is
/// made once as a template ([`Template`]: the name, the thread index but its last two
/// digits, the location prefix, the address's hex digits but the last two), remade when
/// the thread's hundreds or the address's 256-byte block change; each line is then the
/// template copied in one piece with its two 2-digit slots filled from tables.
// The lane loop (`for_lanes!`) indexes the lanes' addresses by the lane number.
#[allow(clippy::needless_range_loop)]
fn write_lanes(
    trace: &mut TraceOut<'_>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    name: &str,
    (pre, pn): (&[u8; 32], usize),
    region: Region,
    x: &Lanes<'_>,
) {
    if io_error.is_some() {
        return;
    }
    let mut tp = Template::new(name, pre, pn);
    // Thread `gt_base + l` as hundreds and the last two digits (`l < 32`: one carry).
    let (th0, tl0) = (x.gt_base / 100, (x.gt_base % 100) as usize);
    // The line's address is the lane's own but for generic addresses of another memory.
    let direct = region == Region::Global || x.space != MemSpace::Generic;
    let (mut t_hi, mut a_hi) = (u64::MAX, u64::MAX);
    let mut slots = Slots::default();
    let mut p = trace.pos;
    let buf = &mut trace.buf;
    for_lanes!(x.em, l, {
        let (th, tl) = if tl0 + l >= 100 {
            (th0 + 1, tl0 + l - 100)
        } else {
            (th0, tl0 + l)
        };
        let a = x.addrs[l];
        let v = if direct {
            a
        } else {
            route(x.space, a).map_or(a, |r| r.1)
        };
        let (vh, vl) = (v >> 8, (v & 0xff) as usize);
        if th != t_hi || vh != a_hi {
            (t_hi, a_hi) = (th, vh);
            slots = tp.remake(th, vh);
        }
        let line: &mut [u8; LINE] = (&mut buf[p..p + LINE])
            .try_into()
            .expect("LINE bytes past pos");
        p += if tl >= slots.t_min && vl >= slots.a_min {
            // Both slots hold two digits and the line is short: half the block when it
            // fits (most lines), else all of it.
            let out: &mut [u8; QUICK] = (&mut line[..QUICK]).try_into().expect("QUICK bytes");
            if slots.len <= QUICK / 2 {
                out[..QUICK / 2].copy_from_slice(&tp.line[..QUICK / 2]);
            } else {
                out.copy_from_slice(&tp.line[..QUICK]);
            }
            out[slots.pt..slots.pt + 2].copy_from_slice(&DIGITS2[2 * tl..2 * tl + 2]);
            out[slots.pa..slots.pa + 2].copy_from_slice(&HEX2[2 * vl..2 * vl + 2]);
            slots.len
        } else {
            tp.put_short(line, &slots, tl, vl)
        };
    });
    trace.pos = p;
    stats.trace_events += u64::from(x.em.count_ones());
    trace.settle(io_error);
}

/// One line of [`write_lanes`] but its two 2-digit slots: `NAME `, the thread's hundreds
/// (none when 0), the slot of its last two digits, the location prefix and the address's
/// hex digits but the last two (none when 0), the slot of those, the newline. Where the
/// slots are and the line's length are [`Slots`].
struct Template {
    /// The line (room past it for the prefix's and the hex digits' whole blocks).
    line: [u8; LINE + 32],
    /// Bytes of `NAME ` (the start of every line).
    hn: usize,
    /// The location prefix (` s3:0x`, ...), `pn` bytes.
    pre: [u8; 32],
    pn: usize,
}

/// A [`Template`]'s slots: the thread digits' at `pt`, the address digits' at `pa`; the
/// line's length with two digits in each (`len`); the smallest last two thread digits and
/// address byte for which each slot holds two digits and the line is at most [`QUICK`]
/// bytes (`t_min`, `a_min`).
#[derive(Clone, Copy, Default)]
struct Slots {
    pt: usize,
    pa: usize,
    len: usize,
    t_min: usize,
    a_min: usize,
}

/// Lines up to this long are copied as one block of this many bytes.
const QUICK: usize = 64;

impl Template {
    /// `NAME ` and the prefix `pre[..pn]` set, the rest made by [`Template::remake`].
    #[inline]
    fn new(name: &str, pre: &[u8; 32], pn: usize) -> Self {
        let mut line = [0u8; LINE + 32];
        let nb = name.as_bytes();
        let hn = nb.len().min(7);
        line[..hn].copy_from_slice(&nb[..hn]);
        line[hn] = b' ';
        Template {
            line,
            hn: hn + 1,
            pre: *pre,
            pn,
        }
    }

    /// The template for thread hundreds `th` and address block `vh`.
    #[inline(never)]
    fn remake(&mut self, th: u64, vh: u64) -> Slots {
        let line = &mut self.line;
        let mut n = self.hn;
        if th != 0 {
            put_dec(line, &mut n, th);
        }
        let pt = n;
        n += 2;
        line[n..n + 32].copy_from_slice(&self.pre);
        n += self.pn;
        if vh != 0 {
            let (hex, xl) = hex16(vh);
            line[n..n + 16].copy_from_slice(&hex);
            n += xl;
        }
        let pa = n;
        line[n + 2] = b'\n';
        let len = n + 3;
        let never = if len > QUICK { usize::MAX } else { 0 };
        Slots {
            pt,
            pa,
            len,
            t_min: if th != 0 { never } else { never.max(10) },
            a_min: if vh != 0 { never } else { never.max(16) },
        }
    }

    /// Writes the line with last thread digits `tl` and last address byte `vl` at the start
    /// of `out` when a slot holds one digit (thread 0-9, address 0x0-0xf) or the line is
    /// long; returns its length.
    #[inline(never)]
    fn put_short(&self, out: &mut [u8; LINE], s: &Slots, tl: usize, vl: usize) -> usize {
        let full = &self.line;
        let mut n = s.pt;
        out[..n].copy_from_slice(&full[..n]);
        let one = usize::from(s.pt == self.hn && tl < 10);
        out[n] = DIGITS2[2 * tl + one];
        out[n + 1] = DIGITS2[2 * tl + 1];
        n += 2 - one;
        let mid = &full[s.pt + 2..s.pa];
        out[n..n + mid.len()].copy_from_slice(mid);
        n += mid.len();
        let one = usize::from(s.pa == s.pt + 2 + self.pn && vl < 16);
        out[n] = HEX2[2 * vl + one];
        out[n + 1] = HEX2[2 * vl + 1];
        n += 2 - one;
        out[n] = b'\n';
        n + 1
    }
}

/// The hex digits of `v` (not 0) without leading zeros, and how many.
#[inline(always)]
fn hex16(v: u64) -> ([u8; 16], usize) {
    let digits = ((64 - v.leading_zeros()) as usize).div_ceil(4);
    let all = (u128::from(hex8((v >> 32) as u32)) << 64) | u128::from(hex8(v as u32));
    ((all << (8 * (16 - digits))).to_be_bytes(), digits)
}

/// `00`, `01`, ... `ff`.
const HEX2: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 256 {
        let (h, l) = (i >> 4, i & 15);
        t[2 * i] = if h < 10 {
            b'0' + h as u8
        } else {
            b'a' + (h - 10) as u8
        };
        t[2 * i + 1] = if l < 10 {
            b'0' + l as u8
        } else {
            b'a' + (l - 10) as u8
        };
        i += 1;
    }
    t
};

/// The `endi` of [`emit_lanes`].
fn emit_endi(
    trace: &mut TraceOut<'_>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    sink: &mut Option<SinkBatch<'_>>,
    x: &Lanes<'_>,
) {
    emit_endi_at(trace, io_error, stats, sink, x.gw, x.em, x.pc);
}

/// The end of warp `gw`'s instruction at `pc` for lanes `em`: to the sink, then the text
/// trace's `endi` line (every warp-instruction path ends through here).
pub(super) fn emit_endi_at(
    trace: &mut TraceOut<'_>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    sink: &mut Option<SinkBatch<'_>>,
    gw: u64,
    em: u32,
    pc: u32,
) {
    if let Some(sk) = sink.as_mut() {
        sk.endi(gw, em, pc);
    }
    emit_warp(trace, io_error, stats, "endi", gw, em);
}

/// Writes `NAME W MASK\n` with the mask as 8 hex digits. `NAME W ` is kept from the last
/// such line ([`TraceOut`]'s `warp_head`): a warp mostly runs several instructions in turn.
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
    let key = (w, name.as_ptr() as usize, name.len());
    if trace.warp_key != key {
        if name.len() > 24 {
            return emit_warp_long(trace, io_error, stats, name, w, mask);
        }
        let mut n = 0;
        put_str(&mut trace.warp_head, &mut n, name);
        put_str(&mut trace.warp_head, &mut n, " ");
        put_dec(&mut trace.warp_head, &mut n, w);
        put_str(&mut trace.warp_head, &mut n, " ");
        trace.warp_len = n;
        trace.warp_key = key;
    }
    let (head, n) = (trace.warp_head, trace.warp_len);
    let line = trace.line();
    line[..48].copy_from_slice(&head);
    line[n..n + 8].copy_from_slice(&hex8(mask).to_be_bytes());
    line[n + 8] = b'\n';
    trace.pos += n + 9;
    stats.trace_events += 1;
    trace.settle(io_error);
}

/// [`emit_warp`] for a long name (not kept).
fn emit_warp_long(
    trace: &mut TraceOut<'_>,
    io_error: &mut Option<std::io::Error>,
    stats: &mut Stats,
    name: &str,
    w: u64,
    mask: u32,
) {
    let line = trace.line();
    let mut n = 0;
    put_str(line, &mut n, name);
    put_str(line, &mut n, " ");
    put_dec(line, &mut n, w);
    put_str(line, &mut n, " ");
    put_hex(line, &mut n, u64::from(mask), 8);
    put_str(line, &mut n, "\n");
    trace.pos += n;
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

    /// A warp's lines written together equal the lines written lane by lane.
    #[test]
    #[allow(clippy::needless_range_loop)]
    fn warp_lines_match_lane_lines() {
        let base = crate::mem::GLOBAL_BASE;
        let cases: [(MemSpace, u64, u64, u32); 8] = [
            (MemSpace::Global, base, 4, u32::MAX),
            (
                MemSpace::Global,
                base + 0xffff_fff0,
                0x1_0000_0000,
                0x8000_0001,
            ),
            (MemSpace::Shared, 0, 4, 0x0f0f_f0f0),
            (MemSpace::Shared, 0x1f0, 16, 1 << 31),
            (MemSpace::Param, 8, 8, 0b1011),
            (MemSpace::Shared, 0xf4, 4, u32::MAX),
            (MemSpace::Shared, 0, 1, u32::MAX),
            (MemSpace::Shared, 0xffff_ffff_fff0, 4, u32::MAX),
        ];
        // A CTA index of 20 digits makes lines longer than `QUICK`.
        for ((space, start, step, em), cta) in
            cases.into_iter().flat_map(|c| [(c, 77), (c, u64::MAX)])
        {
            for gt_base in [0u64, 5, 96, 9_999_990, u64::MAX - 40] {
                let addrs: [u64; WARP] = std::array::from_fn(|l| start + step * l as u64);
                let vals = [0u64; WARP];
                let x = Lanes {
                    space,
                    addrs: &addrs,
                    vals: &vals,
                    em,
                    cta,
                    gt_base,
                    gw: 5,
                    pc: 3,
                    op: AccessOp::Load,
                    kind: TraceKind::Acq(true),
                    width: 4,
                };
                let mut got: Vec<u8> = Vec::new();
                let mut tr = TraceOut::new(Some(&mut got));
                let (mut err, mut st) = (None, Stats::default());
                emit_lanes(&mut tr, &mut err, &mut st, &mut None, &x);
                tr.finish().unwrap();
                drop(tr);
                let mut want: Vec<u8> = Vec::new();
                let mut tr = TraceOut::new(Some(&mut want));
                let (mut err2, mut st2) = (None, Stats::default());
                for_lanes!(em, l, {
                    let a = addrs[l];
                    let (region, off) = route(space, a).unwrap();
                    let t = gt_base + l as u64;
                    let loc = Loc(region, off, a, cta, t);
                    emit_access(&mut tr, &mut err2, &mut st2, "acqGlb", t, &loc);
                });
                emit_warp(&mut tr, &mut err2, &mut st2, "endi", 5, em);
                tr.finish().unwrap();
                drop(tr);
                assert_eq!(
                    String::from_utf8(got).unwrap(),
                    String::from_utf8(want).unwrap()
                );
                assert_eq!(st.trace_events, st2.trace_events);
            }
        }
    }

    /// `endi`-style lines of one warp in a row, of other warps and other names between:
    /// the kept `NAME W ` is used only for the same name and warp.
    #[test]
    fn warp_lines_keep_their_head() {
        let mut out: Vec<u8> = Vec::new();
        let mut tr = TraceOut::new(Some(&mut out));
        let (mut err, mut st) = (None, Stats::default());
        let lines: [(&str, u64, u32); 7] = [
            ("endi", 5, 1),
            ("endi", 5, u32::MAX),
            ("endi", 6, 0xabc),
            ("fi", 6, 3),
            ("endi", 6, 0),
            ("endi", 1_000_000, 7),
            ("a-name-longer-than-the-kept-head", 9, 0x10),
        ];
        let mut want = String::new();
        for (name, w, m) in lines {
            emit_warp(&mut tr, &mut err, &mut st, name, w, m);
            want.push_str(&format!("{name} {w} {m:08x}\n"));
        }
        tr.finish().unwrap();
        drop(tr);
        assert_eq!(String::from_utf8(out).unwrap(), want);
        assert_eq!(st.trace_events, 7);
    }

    #[test]
    fn fast_event_encoding_matches_display() {
        let locs = [
            Loc(Region::Global, 0, 0x1_0000_0abc, 3, 7),
            Loc(Region::Shared, 0x1f0, 0, 12, 7),
            Loc(Region::Shared, 0, 0, 0, 7),
            Loc(Region::Local, 0, 0, 1, 123_456),
            Loc(Region::Local, u64::MAX, 0, 1, u64::MAX),
            Loc(Region::Param, 8, 0, 0, 0),
        ];
        for (i, loc) in locs.iter().enumerate() {
            for t in [0, 9, 10, 99, 100, 1_048_575, u64::MAX] {
                let mut out: Vec<u8> = Vec::new();
                let mut tr = TraceOut::new(Some(&mut out));
                let (mut err, mut st) = (None, Stats::default());
                emit_access(&mut tr, &mut err, &mut st, "acqBlk", t, loc);
                emit_warp(&mut tr, &mut err, &mut st, "endi", t, i as u32);
                tr.finish().unwrap();
                drop(tr);
                let want = format!("acqBlk {t} {loc}\nendi {t} {:08x}\n", i);
                assert_eq!(String::from_utf8(out).unwrap(), want);
            }
        }
        // Formatted events filling blocks, then per-thread events: the block boundary.
        let mut out: Vec<u8> = Vec::new();
        let mut tr = TraceOut::new(Some(&mut out));
        let (mut err, mut st) = (None, Stats::default());
        let mut want = String::new();
        for i in 0..3 * BLOCK / 8 {
            emit_to(&mut tr, &mut err, &mut st, format_args!("bar {i}\n"));
            want.push_str(&format!("bar {i}\n"));
            emit_access(&mut tr, &mut err, &mut st, "wr", i as u64, &locs[1]);
            want.push_str(&format!("wr {i} {}\n", locs[1]));
        }
        tr.finish().unwrap();
        drop(tr);
        assert_eq!(String::from_utf8(out).unwrap(), want);
        // Consecutive threads (the cached digits), across digit-count changes.
        let mut out: Vec<u8> = Vec::new();
        let mut tr = TraceOut::new(Some(&mut out));
        let (mut err, mut st) = (None, Stats::default());
        let mut want = String::new();
        for start in [0u64, 7, 95, 995, 99_998, 1_048_560, u64::MAX - 3] {
            for t in start..=start.saturating_add(3).max(start) {
                emit_access(&mut tr, &mut err, &mut st, "rd", t, &locs[0]);
                want.push_str(&format!("rd {t} {}\n", locs[0]));
            }
        }
        tr.finish().unwrap();
        drop(tr);
        assert_eq!(String::from_utf8(out).unwrap(), want);
        for loc in locs {
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
