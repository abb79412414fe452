//! The PTX rewrite (paper 003 §4.1): a prologue computing the global warp index, and a
//! logging sequence before every memory instruction, barrier, conditional branch, exit and
//! reconvergence point of the kernel (clang's PTX: one instruction per line).
//!
//! The decoder replays records in the order of their global tickets, so a ticket must put a
//! synchronising access where it took effect relative to the others ([`TicketAt`]): an
//! acquire (§3.1's classification, `weft_ir::analysis::sync`) takes its ticket *after* the
//! access, a release before it, each separated from the access by a `membar.gl`. Then a
//! release read by an acquire always has the smaller ticket, whatever the scheduler does
//! between the logging and the access (before, the acquire's ticket was taken first and a
//! warp switch in between replayed a lock's acquisition before the release it read).

use std::collections::HashMap;

use weft_ir::analysis::sync::SyncOp;
use weft_ir::kernel::{KOp, Kernel};
use weft_simt::AccessOp;

/// Bytes of a record header: warp, site, active mask, auxiliary word, global ticket, padding.
pub const HEADER_BYTES: usize = 32;
/// Bytes of a record: header, 32 addresses, 32 values.
pub const RECORD_BYTES: usize = HEADER_BYTES + 32 * 8 + 32 * 8;
/// Bytes of the buffer header (ticket counter, number of queues, records per queue) and of
/// each queue's header (its head).
pub const QUEUE_HEADER: usize = 64;

/// A zeroed queue buffer for `queues` queues of `capacity` records each (CTA `c` logs into
/// queue `c % queues`; §4.2's queues per group of blocks).
pub fn queue_buffer(queues: u32, capacity: u32) -> Vec<u8> {
    let q = queues.max(1);
    let bytes = QUEUE_HEADER + q as usize * (QUEUE_HEADER + capacity as usize * RECORD_BYTES);
    let mut v = vec![0u8; bytes];
    v[4..8].copy_from_slice(&q.to_le_bytes());
    v[8..12].copy_from_slice(&capacity.to_le_bytes());
    v
}

/// Rewrite options.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Skip accesses already covered in the basic block (§4.1's pruning).
    pub prune: bool,
}

/// The state space an access names in its opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceHint {
    Global,
    Shared,
    Generic,
}

/// What a logging site records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// Element `elem` of `elems` of a memory instruction.
    Access {
        op: AccessOp,
        space: SpaceHint,
        width: u8,
        elem: u8,
        elems: u8,
        /// A synchronising access (§3.1's acquire, release or acquire-release): the decoder
        /// never holds it back behind other warps' records.
        sync: bool,
    },
    /// A conditional branch whose paths reconverge at instruction `rpc`; aux = taken lanes.
    Branch { rpc: u32 },
    /// The reconvergence point of some branch.
    Reconv,
    /// A barrier arrival (aux = barrier id | thread count << 16, count 0 = the whole CTA).
    Barrier { wait: bool },
    /// `ret`/`exit`.
    Exit,
}

/// A logging site: what it logs, for which original instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    pub kind: SiteKind,
    /// Instruction index in the original kernel.
    pub pc: u32,
}

/// Fig. 9's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Static PTX instructions of the kernel.
    pub instructions: usize,
    /// Memory and barrier instructions that need logging.
    pub instrumented: usize,
    /// Of those, logged after pruning.
    pub instrumented_pruned: usize,
    /// Control-flow logging points (conditional branches, reconvergence points, exits).
    pub control_points: usize,
}

/// The result of [`instrument`].
#[derive(Clone, Debug)]
pub struct Instrumented {
    pub ptx: String,
    pub sites: Vec<Site>,
    pub stats: Stats,
    /// The original kernel (lowered), for decoding.
    pub kernel: Kernel,
}

fn width_of(opcode: &str) -> Option<u8> {
    let ty = opcode.rsplit('.').next()?;
    let bits: u32 = ty[1..].parse().ok()?;
    match ty.as_bytes()[0] {
        b'u' | b's' | b'b' | b'f' => Some((bits / 8).max(1) as u8),
        _ => None,
    }
}

fn rmw_of(opcode: &str) -> weft_ir::attrs::RmwOp {
    use weft_ir::attrs::RmwOp::*;
    for part in opcode.split('.') {
        match part {
            "add" => return Add,
            "exch" => return Exch,
            "cas" => return Cas,
            "min" => return Min,
            "max" => return Max,
            "and" => return And,
            "or" => return Or,
            "xor" => return Xor,
            "inc" => return Inc,
            "dec" => return Dec,
            "sub" => return Sub,
            _ => {}
        }
    }
    Add
}

/// `[reg+off]` → (base, offset).
fn split_addr(a: &str) -> (String, i64) {
    let a = a
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim();
    let cut = a.find('+').or_else(|| a[1..].find('-').map(|i| i + 1));
    if let Some(i) = cut {
        let (b, o) = a.split_at(i);
        let o = o.trim_start_matches('+').trim();
        let off: i64 = if let Some(h) = o.strip_prefix("0x") {
            i64::from_str_radix(h, 16).unwrap_or(0)
        } else {
            o.parse().unwrap_or(0)
        };
        return (b.trim().to_string(), off);
    }
    (a.to_string(), 0)
}

/// Splits operands at top-level commas (not inside `{}` or `[]`).
fn operands(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// PTX moving a source operand (register or immediate) of `width` bytes into `%wq_d2`.
fn value_to_d2(src: &str, width: u8) -> String {
    let s = src.trim();
    if s.starts_with("%rd") || s.starts_with("%fd") {
        format!("mov.b64 %wq_d2, {s};\n")
    } else if s.starts_with("%rs") {
        format!("cvt.u64.u16 %wq_d2, {s};\n")
    } else if s.starts_with("%f") {
        format!("mov.b32 %wq_r9, {s};\ncvt.u64.u32 %wq_d2, %wq_r9;\n")
    } else if s.starts_with("%r") {
        format!("cvt.u64.u32 %wq_d2, {s};\n")
    } else if s.starts_with("%p") {
        format!("selp.u64 %wq_d2, 1, 0, {s};\n")
    } else if let Some(h) = s.strip_prefix("0d").or_else(|| s.strip_prefix("0D")) {
        format!("mov.u64 %wq_d2, 0x{h};\n")
    } else if let Some(h) = s.strip_prefix("0f").or_else(|| s.strip_prefix("0F")) {
        format!("mov.u64 %wq_d2, 0x{h};\n")
    } else {
        // An integer immediate, truncated to the store's width like the emulator does.
        let v: i128 = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            i128::from_str_radix(h.trim_end_matches(['U', 'u']), 16).unwrap_or(0)
        } else {
            s.trim_end_matches(['U', 'u']).parse().unwrap_or(0)
        };
        let bits = u32::from(width) * 8;
        let m: u128 = if bits >= 64 {
            u64::MAX as u128
        } else {
            (1u128 << bits) - 1
        };
        format!("mov.u64 %wq_d2, {};\n", (v as u128) & m)
    }
}

/// PTX putting `[base+off]` (+ `extra`) into `%wq_d1`.
fn addr_to_d1(base: &str, off: i64) -> String {
    if base.starts_with("%rd") {
        format!("add.s64 %wq_d1, {base}, {off};\n")
    } else if base.starts_with('%') {
        format!("cvt.u64.u32 %wq_d1, {base};\nadd.s64 %wq_d1, %wq_d1, {off};\n")
    } else {
        format!("mov.u64 %wq_d1, {base};\nadd.s64 %wq_d1, %wq_d1, {off};\n")
    }
}

/// Where a record's global ticket is taken relative to the logged instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TicketAt {
    /// Before it, in the logging sequence (plain accesses, control flow, barriers).
    Before,
    /// Before it, then `membar.gl`: a release's ticket precedes its write.
    BeforeFenced,
    /// After it, behind `membar.gl` ([`ticket_after`]): an acquire's ticket follows its read.
    After,
}

/// Where the ticket of an access classified `op` goes (releases and acquire-releases
/// before, acquires after).
fn ticket_at(op: Option<SyncOp>) -> TicketAt {
    match op {
        Some(SyncOp::Acq(_)) => TicketAt::After,
        Some(SyncOp::Rel(_) | SyncOp::Ar { .. }) => TicketAt::BeforeFenced,
        _ => TicketAt::Before,
    }
}

/// The ticket of the record logged last (slot `%wq_d3`, leader predicate `%wq_p3`), taken
/// after the instruction it logs: the fence keeps the instruction's access before the
/// ticket's `atom`.
fn ticket_after() -> String {
    format!(
        "membar.gl;\n\
         @%wq_p3 atom.global.add.u32 %wq_r7, [%wq_d0], 1;\n\
         @%wq_p3 st.global.u32 [%wq_d3+{h4}], %wq_r7;\n",
        h4 = QUEUE_HEADER + 16,
    )
}

/// The logging sequence: one record for the warp (addresses in `%wq_d1`, values in
/// `%wq_d2`, auxiliary word `aux`) in the warp's queue (`%wq_d5`), with a global ticket
/// (for [`TicketAt::After`], [`ticket_after`] follows the instruction).
fn log(site: usize, aux: &str) -> String {
    log_at(site, aux, TicketAt::Before)
}

/// [`log`] with the ticket where `at` says.
fn log_at(site: usize, aux: &str, at: TicketAt) -> String {
    let (ticket, header_ticket, fence) = match at {
        TicketAt::Before => (
            "@%wq_p1 atom.global.add.u32 %wq_r7, [%wq_d0], 1;\n",
            format!(
                "@%wq_p3 st.global.u32 [%wq_d3+{}], %wq_r7;\n",
                QUEUE_HEADER + 16
            ),
            "",
        ),
        TicketAt::BeforeFenced => (
            "@%wq_p1 atom.global.add.u32 %wq_r7, [%wq_d0], 1;\n",
            format!(
                "@%wq_p3 st.global.u32 [%wq_d3+{}], %wq_r7;\n",
                QUEUE_HEADER + 16
            ),
            "membar.gl;\n",
        ),
        TicketAt::After => ("", String::new(), ""),
    };
    format!(
        "activemask.b32 %wq_r1;\n\
         mov.u32 %wq_r2, %lanemask_lt;\n\
         and.b32 %wq_r2, %wq_r2, %wq_r1;\n\
         setp.eq.u32 %wq_p1, %wq_r2, 0;\n\
         @%wq_p1 atom.global.add.u32 %wq_r3, [%wq_d5], 1;\n\
         {ticket}\
         neg.s32 %wq_r2, %wq_r1;\n\
         and.b32 %wq_r2, %wq_r2, %wq_r1;\n\
         bfind.u32 %wq_r2, %wq_r2;\n\
         shfl.sync.idx.b32 %wq_r3, %wq_r3, %wq_r2, 31, %wq_r1;\n\
         ld.global.u32 %wq_r4, [%wq_d0+8];\n\
         setp.lt.u32 %wq_p2, %wq_r3, %wq_r4;\n\
         mul.wide.u32 %wq_d3, %wq_r3, {RECORD_BYTES};\n\
         add.s64 %wq_d3, %wq_d3, %wq_d5;\n\
         mov.u32 %wq_r5, %laneid;\n\
         mul.wide.u32 %wq_d4, %wq_r5, 8;\n\
         add.s64 %wq_d4, %wq_d4, %wq_d3;\n\
         @%wq_p2 st.global.u64 [%wq_d4+{a}], %wq_d1;\n\
         @%wq_p2 st.global.u64 [%wq_d4+{v}], %wq_d2;\n\
         and.pred %wq_p3, %wq_p1, %wq_p2;\n\
         @%wq_p3 st.global.u32 [%wq_d3+{h0}], %wq_r0;\n\
         @%wq_p3 st.global.u32 [%wq_d3+{h1}], {site};\n\
         @%wq_p3 st.global.u32 [%wq_d3+{h2}], %wq_r1;\n\
         @%wq_p3 st.global.u32 [%wq_d3+{h3}], {aux};\n\
         {header_ticket}{fence}",
        a = QUEUE_HEADER + HEADER_BYTES,
        v = QUEUE_HEADER + HEADER_BYTES + 256,
        h0 = QUEUE_HEADER,
        h1 = QUEUE_HEADER + 4,
        h2 = QUEUE_HEADER + 8,
        h3 = QUEUE_HEADER + 12,
    )
}

const PROLOGUE_TEMPLATE: &str = ".reg .b32 %wq_r<12>;\n.reg .b64 %wq_d<8>;\n.reg .pred %wq_p<4>;\n\
ld.param.u64 %wq_d0, [__wq_queue];\n\
mov.u32 %wq_r1, %tid.x;\nmov.u32 %wq_r2, %tid.y;\nmov.u32 %wq_r3, %tid.z;\n\
mov.u32 %wq_r4, %ntid.x;\nmov.u32 %wq_r5, %ntid.y;\nmov.u32 %wq_r6, %ntid.z;\n\
mad.lo.s32 %wq_r3, %wq_r3, %wq_r5, %wq_r2;\nmad.lo.s32 %wq_r1, %wq_r3, %wq_r4, %wq_r1;\n\
mul.lo.s32 %wq_r7, %wq_r4, %wq_r5;\nmul.lo.s32 %wq_r7, %wq_r7, %wq_r6;\n\
add.s32 %wq_r7, %wq_r7, 31;\nshr.u32 %wq_r7, %wq_r7, 5;\n\
mov.u32 %wq_r2, %ctaid.x;\nmov.u32 %wq_r3, %ctaid.y;\nmov.u32 %wq_r4, %ctaid.z;\n\
mov.u32 %wq_r5, %nctaid.x;\nmov.u32 %wq_r6, %nctaid.y;\n\
mad.lo.s32 %wq_r4, %wq_r4, %wq_r6, %wq_r3;\nmad.lo.s32 %wq_r2, %wq_r4, %wq_r5, %wq_r2;\n\
shr.u32 %wq_r1, %wq_r1, 5;\nmad.lo.s32 %wq_r0, %wq_r2, %wq_r7, %wq_r1;\n\
ld.global.u32 %wq_r9, [%wq_d0+8];\nld.global.u32 %wq_r10, [%wq_d0+4];\n\
rem.u32 %wq_r8, %wq_r2, %wq_r10;\nmul.wide.u32 %wq_d6, %wq_r9, {RB};\n\
add.s64 %wq_d6, %wq_d6, {QH};\ncvt.u64.u32 %wq_d7, %wq_r8;\nmul.lo.s64 %wq_d5, %wq_d6, %wq_d7;\n\
add.s64 %wq_d5, %wq_d5, %wq_d0;\nadd.s64 %wq_d5, %wq_d5, {QH};\n";

/// Rewrites `ptx` (one kernel entry, as clang emits it) to log into the queue passed as an
/// extra last parameter `__wq_queue`.
pub fn instrument(ptx: &str, opts: &Options) -> Result<Instrumented, String> {
    let module = weft_ptx::parse(ptx).map_err(|e| format!("PTX: {e}"))?;
    let kernel = weft_ptx::lower_kernel(&module, None).map_err(|e| format!("PTX: {e}"))?;
    // Instruction index of each PTX line (calls inlined by the lowering would repeat lines).
    let mut pc_of_line: HashMap<u32, u32> = HashMap::new();
    for (pc, i) in kernel.code.iter().enumerate() {
        if pc_of_line.insert(i.span.line, pc as u32).is_some() {
            return Err(format!(
                "line {}: several instructions of the lowered kernel come from one PTX line (inlined call): not supported",
                i.span.line
            ));
        }
    }
    let ipdom = weft_ir::analysis::KCfg::new(&kernel).instr_ipdoms();
    let sync_ops = weft_ir::analysis::sync::classify_kernel(&kernel);
    let n = kernel.code.len();
    let mut reconv_lines: HashMap<u32, u32> = HashMap::new();
    for (pc, i) in kernel.code.iter().enumerate() {
        if matches!(i.op, KOp::Bra { .. }) && i.guard.is_some() {
            let r = ipdom[pc] as usize;
            if r < n {
                reconv_lines.insert(kernel.code[r].span.line, r as u32);
            }
        }
    }
    let lines: Vec<&str> = ptx.lines().collect();
    if ptx.matches(".entry").count() != 1 {
        return Err("the module must hold exactly one .entry".into());
    }
    let entry = lines
        .iter()
        .position(|l| l.contains(".entry"))
        .expect("counted");
    let mut rw = Rewriter {
        opts,
        sync_ops,
        ipdom,
        out: String::with_capacity(ptx.len() * 4),
        sites: Vec::new(),
        stats: Stats {
            instructions: n,
            ..Stats::default()
        },
        skip_label: 0,
        covered: Vec::new(),
    };
    let mut in_body = false;
    let mut params_done = false;
    for (i, raw) in lines.iter().enumerate() {
        let line_no = (i + 1) as u32;
        let t = raw.trim();
        if i == entry && t.contains("()") {
            rw.out
                .push_str(&raw.replace("()", "(.param .u64 __wq_queue)"));
            rw.out.push('\n');
            params_done = true;
            continue;
        }
        if i > entry && !params_done {
            if t.starts_with(')') {
                // Close the parameter list with the queue parameter.
                let prev = rw.out.trim_end().len();
                rw.out.truncate(prev);
                rw.out.push_str(",\n\t.param .u64 __wq_queue\n");
                rw.out.push_str(raw);
                rw.out.push('\n');
                params_done = true;
                continue;
            }
            rw.out.push_str(raw);
            rw.out.push('\n');
            continue;
        }
        if params_done && !in_body && t == "{" {
            rw.out.push_str(raw);
            rw.out.push('\n');
            rw.out.push_str(
                &PROLOGUE_TEMPLATE
                    .replace("{RB}", &RECORD_BYTES.to_string())
                    .replace("{QH}", &QUEUE_HEADER.to_string()),
            );
            in_body = true;
            continue;
        }
        if !in_body
            || t.is_empty()
            || t.starts_with("//")
            || t.starts_with('.')
            || t == "{"
            || t == "}"
        {
            if t.ends_with(':') {
                rw.covered.clear();
            }
            rw.out.push_str(raw);
            rw.out.push('\n');
            continue;
        }
        if t.ends_with(':') {
            rw.covered.clear();
            rw.out.push_str(raw);
            rw.out.push('\n');
            continue;
        }
        let Some(&pc) = pc_of_line.get(&line_no) else {
            rw.out.push_str(raw);
            rw.out.push('\n');
            continue;
        };
        rw.instruction(raw, t, line_no, pc, reconv_lines.contains_key(&line_no))?;
    }
    if !in_body {
        return Err("no kernel body found".into());
    }
    Ok(Instrumented {
        ptx: rw.out,
        sites: rw.sites,
        stats: rw.stats,
        kernel,
    })
}

/// Pruning state: (address text, base register, width, elems, is_write, guard). An access
/// under a guard covers only later accesses under the same guard (the other polarity is
/// another path of the branch the predication stands for, other lanes).
type Covered = (String, String, u8, usize, bool, Option<String>);

/// What the logging of one instruction adds: code before it, code after it (an acquire's
/// ticket), and whether the three run under the instruction's guard (a skip branch).
#[derive(Default)]
struct Around {
    pre: String,
    post: String,
    wrap: bool,
}

/// The rewriting of one kernel body: the output so far, the logging sites and counts.
struct Rewriter<'a> {
    opts: &'a Options,
    sync_ops: Vec<Option<weft_ir::analysis::sync::PcInfo>>,
    ipdom: Vec<u32>,
    out: String,
    sites: Vec<Site>,
    stats: Stats,
    skip_label: usize,
    covered: Vec<Covered>,
}

impl Rewriter<'_> {
    /// One instruction line `raw` (trimmed `t`) of lowered instruction `pc`, with its
    /// logging; `reconv`: a reconvergence point, logged before it.
    fn instruction(
        &mut self,
        raw: &str,
        t: &str,
        line_no: u32,
        pc: u32,
        reconv: bool,
    ) -> Result<(), String> {
        if reconv {
            self.sites.push(Site {
                kind: SiteKind::Reconv,
                pc,
            });
            self.stats.control_points += 1;
            self.out
                .push_str("mov.u64 %wq_d1, 0;\nmov.u64 %wq_d2, 0;\n");
            self.out.push_str(&log(self.sites.len() - 1, "0"));
        }
        let body = t.trim_end_matches(';').trim();
        let body = body
            .split("//")
            .next()
            .unwrap_or(body)
            .trim()
            .trim_end_matches(';');
        let (guard, rest) = if let Some(g) = body.strip_prefix('@') {
            let (g, r) = g.split_once(char::is_whitespace).unwrap_or((g, ""));
            (Some(g.to_string()), r.trim())
        } else {
            (None, body)
        };
        let (opcode, ops_text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let ops = operands(ops_text);
        // Register redefinitions end the coverage of addresses through that register.
        if let Some(dst) = ops.first() {
            if !opcode.starts_with("st.") && !opcode.starts_with("red.") {
                let d = dst.trim_matches(['{', '}']).to_string();
                self.covered.retain(|c| {
                    !d.split([',', '|']).any(|x| {
                        let x = x.trim();
                        x == c.1
                            || c.5
                                .as_deref()
                                .is_some_and(|g| g.trim_start_matches('!') == x)
                    })
                });
            }
        }
        let is_mem = (opcode.starts_with("ld.") || opcode.starts_with("st."))
            && !opcode.contains(".param")
            && !opcode.contains(".local")
            || opcode.starts_with("atom.")
            || opcode.starts_with("red.");
        let a = if is_mem {
            self.memory(t, line_no, pc, opcode, &ops, &guard)?
        } else if opcode.starts_with("bar.") || opcode.starts_with("barrier.") {
            self.barrier(pc, opcode, &ops, &guard)
        } else if opcode.starts_with("membar") || opcode.starts_with("fence") {
            self.covered.clear();
            Around::default()
        } else if opcode == "ret" || opcode == "exit" {
            self.stats.control_points += 1;
            self.sites.push(Site {
                kind: SiteKind::Exit,
                pc,
            });
            let mut a = Around::default();
            a.pre.push_str("mov.u64 %wq_d1, 0;\nmov.u64 %wq_d2, 0;\n");
            a.pre.push_str(&log(self.sites.len() - 1, "0"));
            a.wrap = guard.is_some();
            a
        } else if opcode.starts_with("bra") {
            self.covered.clear();
            self.branch(pc, &guard)
        } else if opcode.starts_with("call") {
            return Err(format!("line {line_no}: calls are not supported"));
        } else {
            Around::default()
        };
        if a.wrap {
            let g = guard.as_deref().expect("wrap needs a guard");
            let neg = match g.strip_prefix('!') {
                Some(p) => p.to_string(),
                None => format!("!{g}"),
            };
            self.skip_label += 1;
            let skip_label = self.skip_label;
            self.out
                .push_str(&format!("@{neg} bra $WQ_SKIP_{skip_label};\n"));
            self.out.push_str(&a.pre);
            self.out.push_str(&format!("{opcode} {ops_text};\n"));
            self.out.push_str(&a.post);
            self.out.push_str(&format!("$WQ_SKIP_{skip_label}:\n"));
        } else {
            self.out.push_str(&a.pre);
            self.out.push_str(raw);
            self.out.push('\n');
            self.out.push_str(&a.post);
        }
        Ok(())
    }

    /// A memory access (`ld`, `st`, `atom`, `red` outside `.param`/`.local`): one logging
    /// site per vector element unless pruned, and its acquire ticket.
    fn memory(
        &mut self,
        t: &str,
        line_no: u32,
        pc: u32,
        opcode: &str,
        ops: &[String],
        guard: &Option<String>,
    ) -> Result<Around, String> {
        let mut a = Around::default();
        let load = opcode.starts_with("ld.");
        let store = opcode.starts_with("st.");
        let op = if load {
            AccessOp::Load
        } else if store {
            AccessOp::Store
        } else {
            AccessOp::Atomic(rmw_of(opcode))
        };
        let space = if opcode.contains(".shared") {
            SpaceHint::Shared
        } else if opcode.contains(".global") {
            SpaceHint::Global
        } else {
            SpaceHint::Generic
        };
        let width =
            width_of(opcode).ok_or_else(|| format!("line {line_no}: no type in `{opcode}`"))?;
        let elems: usize = if opcode.contains(".v4") {
            4
        } else if opcode.contains(".v2") {
            2
        } else {
            1
        };
        let addr_op = ops
            .iter()
            .find(|o| o.starts_with('['))
            .ok_or_else(|| format!("line {line_no}: no address in `{t}`"))?
            .clone();
        let (base, off) = split_addr(&addr_op);
        self.stats.instrumented += 1;
        let is_write = !load;
        let pruned = self.opts.prune
            && !opcode.starts_with("atom.")
            && !opcode.starts_with("red.")
            && self.covered.iter().any(|c| {
                c.0 == addr_op
                    && c.2 == width
                    && c.3 == elems
                    && (c.4 || !is_write)
                    && (c.5.is_none() || &c.5 == guard)
            });
        if !pruned {
            self.stats.instrumented_pruned += 1;
            let srcs: Vec<String> = if store {
                let v = ops.get(1).cloned().unwrap_or_default();
                v.trim_matches(['{', '}'])
                    .split(',')
                    .map(|x| x.trim().to_string())
                    .collect()
            } else {
                Vec::new()
            };
            // One ticket after the instruction covers one record: a vector access keeps
            // its tickets before.
            let at = match ticket_at(self.sync_ops[pc as usize].map(|i| i.op)) {
                TicketAt::After if elems > 1 => TicketAt::BeforeFenced,
                at => at,
            };
            for k in 0..elems {
                self.sites.push(Site {
                    kind: SiteKind::Access {
                        op,
                        space,
                        width,
                        elem: k as u8,
                        elems: elems as u8,
                        sync: at != TicketAt::Before,
                    },
                    pc,
                });
                a.pre
                    .push_str(&addr_to_d1(&base, off + (k as i64) * i64::from(width)));
                match srcs.get(k) {
                    Some(s) if store => a.pre.push_str(&value_to_d2(s, width)),
                    _ => a.pre.push_str("mov.u64 %wq_d2, 0;\n"),
                }
                a.pre.push_str(&log_at(self.sites.len() - 1, "0", at));
            }
            if at == TicketAt::After {
                a.post.push_str(&ticket_after());
            }
            if self.opts.prune && base.starts_with('%') {
                self.covered.push((
                    addr_op.clone(),
                    base.clone(),
                    width,
                    elems,
                    is_write,
                    guard.clone(),
                ));
            }
        }
        if opcode.starts_with("atom.") || opcode.starts_with("red.") {
            self.covered.clear();
        }
        a.wrap = guard.is_some() && !a.pre.is_empty();
        Ok(a)
    }

    /// A barrier (`bar`, `barrier`; a warp barrier is not logged): its id and count.
    fn barrier(&mut self, pc: u32, opcode: &str, ops: &[String], guard: &Option<String>) -> Around {
        let mut a = Around::default();
        if opcode.contains(".warp") {
            return a;
        }
        self.covered.clear();
        // `bar.red.op.type d, id, {count,} p`: the id is the second operand.
        let (id_op, count_op) = if opcode.contains(".red") {
            (ops.get(1), if ops.len() > 3 { ops.get(2) } else { None })
        } else {
            (ops.first(), ops.get(1))
        };
        let id = id_op.cloned().unwrap_or_else(|| "0".into());
        // aux = id | count << 16 (count 0: every thread of the CTA).
        let mut aux_code = format!("mov.u32 %wq_r10, {id};\n");
        if let Some(c) = count_op {
            aux_code.push_str(&format!(
                "mov.u32 %wq_r11, {c};\nshl.b32 %wq_r11, %wq_r11, 16;\nor.b32 %wq_r10, %wq_r10, %wq_r11;\n"
            ));
        }
        let wait = !opcode.contains("arrive");
        self.stats.instrumented += 1;
        self.stats.instrumented_pruned += 1;
        self.sites.push(Site {
            kind: SiteKind::Barrier { wait },
            pc,
        });
        a.pre.push_str(&aux_code);
        a.pre.push_str("mov.u64 %wq_d1, 0;\nmov.u64 %wq_d2, 0;\n");
        a.pre.push_str(&log(self.sites.len() - 1, "%wq_r10"));
        a.wrap = guard.is_some();
        a
    }

    /// A branch: a guarded one logs the ballot of its guard and its reconvergence point.
    fn branch(&mut self, pc: u32, guard: &Option<String>) -> Around {
        let mut a = Around::default();
        if let Some(g) = &guard {
            let r = self.ipdom[pc as usize];
            self.stats.control_points += 1;
            self.sites.push(Site {
                kind: SiteKind::Branch { rpc: r },
                pc,
            });
            let (neg, p) = match g.strip_prefix('!') {
                Some(p) => (true, p),
                None => (false, g.as_str()),
            };
            a.pre.push_str("activemask.b32 %wq_r8;\n");
            a.pre
                .push_str(&format!("vote.sync.ballot.b32 %wq_r6, {p}, %wq_r8;\n"));
            if neg {
                a.pre
                    .push_str("not.b32 %wq_r6, %wq_r6;\nand.b32 %wq_r6, %wq_r6, %wq_r8;\n");
            }
            a.pre.push_str("mov.u64 %wq_d1, 0;\nmov.u64 %wq_d2, 0;\n");
            a.pre.push_str(&log(self.sites.len() - 1, "%wq_r6"));
        }
        a
    }
}
