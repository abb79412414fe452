//! Prints the PTX kernel `weft_litmus` (paper 000 §4.2 harness, §4.3 incantations, §4.4
//! optcheck markers). One launch runs many instances of the test; the host decides which
//! physical thread plays which test thread (see `layout::assign`). Kernel parameters:
//!
//! | param | type | meaning |
//! |---|---|---|
//! | `weft_roles` | `u32*` | role per physical thread: `inst*T+t`, bit 31 = shadow, `~0` = none |
//! | `weft_slots` | `u32*` | shared slot of the thread's instance in its block |
//! | `weft_gmem` | `u32*` | global cells, cell `c` of instance `i` at word `c*N+i` |
//! | `weft_results` | `u32*` | per instance: registers, shared cells, cycles per thread |
//! | `weft_sync` | `u32*` | `N+1` counters: thread sync per instance, then the done count |
//! | `weft_scratch` | `u32*` | `SCRATCH_WORDS` words for memory stress and shadows |
//! | `weft_shinit` | `u32*` | initial value of each shared cell |
//! | `weft_ninst` | `u32` | `N`, instances in this launch |
//! | `weft_flags` | `u32` | bit 0: bank-conflict offsets this launch (else conflict-free) |
//! | `weft_seed` | `u32` | per-launch seed of the stress address pattern |
//!
//! Each test thread's body is bracketed by two reads of `%clock64`: optcheck uses them to
//! find the body in SASS, and the difference is stored as the thread's cycle count.

use std::fmt::Write;

use weft_ir::{BinOp, Expr, UnOp};

use crate::layout::{
    KernelLayout, LOOP_LIMIT, SCRATCH_WORDS, SHADOW_WORDS, SPIN_LIMIT, STRESS_MAX_ITERS,
};
use crate::lower::{LThread, Lowered, Op, RegSlot, Val};
use crate::CudaParams;

/// The kernel's entry name.
pub const KERNEL_NAME: &str = "weft_litmus";

struct Emitter {
    out: String,
    temps: usize,
    preds: usize,
    labels: usize,
    t: usize,
}

fn cmp_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Eq => "eq",
        BinOp::Ne => "ne",
        BinOp::Lt => "lt",
        BinOp::Le => "le",
        BinOp::Gt => "gt",
        _ => "ge",
    }
}

impl Emitter {
    fn line(&mut self, s: &str) {
        self.out.push('\t');
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn label(&mut self, l: &str) {
        self.out.push_str(l);
        self.out.push_str(":\n");
    }

    fn temp(&mut self) -> String {
        self.temps += 1;
        format!("%e{}", self.temps)
    }

    fn pred(&mut self) -> String {
        self.preds += 1;
        format!("%q{}", self.preds)
    }

    fn fresh_label(&mut self, what: &str) -> String {
        self.labels += 1;
        format!("$L_{what}_{}", self.labels)
    }

    fn reg(&self, r: u32) -> String {
        format!("%t{}_r{}", self.t, r)
    }

    /// An operand that must be a register.
    fn in_reg(&mut self, e: &Expr) -> String {
        let v = self.expr(e);
        if v.starts_with('%') {
            v
        } else {
            let x = self.temp();
            self.line(&format!("mov.b32 {x}, {v};"));
            x
        }
    }

    /// A predicate register true when `e` is non-zero.
    fn truth(&mut self, e: &Expr) -> String {
        if let Expr::Bin(op, a, b) = e {
            if op.is_comparison() {
                let (x, y) = (self.in_reg(a), self.expr(b));
                let p = self.pred();
                self.line(&format!("setp.{}.s32 {p}, {x}, {y};", cmp_name(*op)));
                return p;
            }
        }
        let x = self.in_reg(e);
        let p = self.pred();
        self.line(&format!("setp.ne.s32 {p}, {x}, 0;"));
        p
    }

    /// Emits `e`; returns a register or an immediate.
    fn expr(&mut self, e: &Expr) -> String {
        match e {
            Expr::Int(v) => format!("{}", *v as i32),
            Expr::Reg(r) => self.reg(r.0),
            Expr::Addr(_) => "0".into(), // refused by lowering
            Expr::Un(op, a) => {
                let x = self.in_reg(a);
                let d = self.temp();
                match op {
                    UnOp::Neg => self.line(&format!("neg.s32 {d}, {x};")),
                    UnOp::Not => self.line(&format!("not.b32 {d}, {x};")),
                    UnOp::LNot => {
                        let p = self.pred();
                        self.line(&format!("setp.eq.s32 {p}, {x}, 0;"));
                        self.line(&format!("selp.b32 {d}, 1, 0, {p};"));
                    }
                }
                d
            }
            Expr::Bin(op, a, b) => {
                if op.is_comparison() || matches!(op, BinOp::LAnd | BinOp::LOr) {
                    let p = if matches!(op, BinOp::LAnd | BinOp::LOr) {
                        let (pa, pb) = (self.truth(a), self.truth(b));
                        let p = self.pred();
                        let o = if *op == BinOp::LAnd { "and" } else { "or" };
                        self.line(&format!("{o}.pred {p}, {pa}, {pb};"));
                        p
                    } else {
                        self.truth(e)
                    };
                    let d = self.temp();
                    self.line(&format!("selp.b32 {d}, 1, 0, {p};"));
                    return d;
                }
                let x = self.in_reg(a);
                let y = self.expr(b);
                let d = self.temp();
                let m = match op {
                    BinOp::Add => "add.s32",
                    BinOp::Sub => "sub.s32",
                    BinOp::Mul => "mul.lo.s32",
                    BinOp::Div => "div.s32",
                    BinOp::Rem => "rem.s32",
                    BinOp::And => "and.b32",
                    BinOp::Or => "or.b32",
                    BinOp::Xor => "xor.b32",
                    BinOp::Shl => "shl.b32",
                    _ => "shr.s32",
                };
                self.line(&format!("{m} {d}, {x}, {y};"));
                d
            }
        }
    }

    fn guard_prefix(&mut self, g: Option<(u32, bool)>) -> String {
        match g {
            None => String::new(),
            Some((r, neg)) => {
                let p = self.pred();
                let rr = self.reg(r);
                self.line(&format!("setp.ne.s32 {p}, {rr}, 0;"));
                format!("@{}{p} ", if neg { "!" } else { "" })
            }
        }
    }

    fn val(&mut self, v: &Val, consts: &[(Val, String)]) -> String {
        if let Some((_, r)) = consts.iter().find(|(c, _)| c == v) {
            return r.clone();
        }
        match v {
            Val::Reg(r) => self.reg(*r),
            Val::Imm(i) => format!("{i}"),
            Val::Expr(e) => self.in_reg(e),
        }
    }

    fn ops(&mut self, ops: &[Op], consts: &[(Val, String)]) {
        for o in ops {
            match o {
                Op::Mem {
                    guard,
                    mnemonic,
                    dst,
                    cell,
                    srcs,
                    ..
                } => {
                    let vals: Vec<String> = srcs.iter().map(|s| self.val(s, consts)).collect();
                    let g = self.guard_prefix(*guard);
                    let a = format!("[%t{}_a{}]", self.t, cell);
                    let mut ops: Vec<String> = Vec::new();
                    if let Some(d) = dst {
                        ops.push(if *d == u32::MAX {
                            format!("%t{}_sink", self.t)
                        } else {
                            self.reg(*d)
                        });
                    }
                    ops.push(a);
                    ops.extend(vals);
                    self.line(&format!("{g}{mnemonic} {};", ops.join(", ")));
                }
                Op::Fence { guard, mnemonic } => {
                    let g = self.guard_prefix(*guard);
                    self.line(&format!("{g}{mnemonic};"));
                }
                Op::Assign { guard, dst, value } => {
                    let v = self.expr(value);
                    let g = self.guard_prefix(*guard);
                    let d = self.reg(*dst);
                    self.line(&format!("{g}mov.b32 {d}, {v};"));
                }
                Op::Label(l) => self.label(l),
                Op::Jump {
                    target,
                    cond,
                    backward,
                } => {
                    let p = cond.as_ref().map(|c| self.truth(c));
                    if *backward {
                        // Spend one unit of the loop budget when the branch is taken.
                        let t = self.t;
                        let g = p.as_ref().map(|p| format!("@{p} ")).unwrap_or_default();
                        self.line(&format!("{g}sub.u32 %t{t}_budget, %t{t}_budget, 1;"));
                        let z = self.pred();
                        self.line(&format!("setp.eq.u32 {z}, %t{t}_budget, 0;"));
                        self.line(&format!("@{z} bra $L_stuck{t};"));
                    }
                    match p {
                        None => self.line(&format!("bra {target};")),
                        Some(p) => self.line(&format!("@{p} bra {target};")),
                    }
                }
                Op::If {
                    cond,
                    then_ops,
                    else_ops,
                } => {
                    let p = self.truth(cond);
                    let l_else = self.fresh_label("else");
                    let l_end = self.fresh_label("endif");
                    self.line(&format!("@!{p} bra {l_else};"));
                    self.ops(then_ops, consts);
                    self.line(&format!("bra {l_end};"));
                    self.label(&l_else);
                    self.ops(else_ops, consts);
                    self.label(&l_end);
                }
            }
        }
    }
}

/// Immediate store/atomic operands of a body, materialised in registers before the body
/// so that the test runs only its own instructions.
fn body_consts(ops: &[Op], out: &mut Vec<Val>) {
    for o in ops {
        match o {
            Op::Mem { srcs, .. } => {
                for s in srcs {
                    if matches!(s, Val::Imm(_)) && !out.contains(s) {
                        out.push(s.clone());
                    }
                }
            }
            Op::If {
                then_ops, else_ops, ..
            } => {
                body_consts(then_ops, out);
                body_consts(else_ops, out);
            }
            _ => {}
        }
    }
}

/// Whether a body has a backward branch (a loop the kernel must bound).
pub fn has_loop(ops: &[Op]) -> bool {
    ops.iter().any(|o| match o {
        Op::Jump { backward, .. } => *backward,
        Op::If {
            then_ops, else_ops, ..
        } => has_loop(then_ops) || has_loop(else_ops),
        _ => false,
    })
}

fn has_sink(ops: &[Op]) -> bool {
    ops.iter().any(|o| match o {
        Op::Mem { dst: Some(d), .. } => *d == u32::MAX,
        Op::If {
            then_ops, else_ops, ..
        } => has_sink(then_ops) || has_sink(else_ops),
        _ => false,
    })
}

/// Prints the whole PTX module.
pub fn print(name: &str, l: &Lowered, layout: &KernelLayout, params: &CudaParams) -> String {
    let mut e = Emitter {
        out: String::new(),
        temps: 0,
        preds: 0,
        labels: 0,
        t: 0,
    };
    let mut decls = String::new();
    prologue(&mut e, layout);
    dispatch(&mut e, layout.threads);
    stress(&mut e, layout.threads, params);
    // ---- test threads -------------------------------------------------------------
    for (t, th) in l.threads.iter().enumerate() {
        e.t = t;
        e.label(&format!("$L_T{t}"));
        let looping = thread_decls(&mut decls, t, th);
        e.line(&format!("// test thread {} ({})", t, th.name));
        for (r, init) in th.reg_init.iter().enumerate() {
            e.line(&format!("mov.b32 %t{t}_r{r}, {init};"));
        }
        cell_addresses(&mut e, t, th, layout);
        thread_body(&mut e, t, th, looping, layout.threads, params);
        thread_results(&mut e, t, looping, layout);
    }
    join(&mut e, layout);
    module(name, l, params, layout, &e, &decls)
}

/// The prologue every thread runs: parameters, ids, role and slot, the shadow offset, this
/// block's shared cells initialised.
fn prologue(e: &mut Emitter, layout: &KernelLayout) {
    let nsh = layout.shared_cells.len() as u32;
    let sh_words = nsh * layout.shared_slots;
    // ---- common prologue ------------------------------------------------------------
    for p in [
        "roles", "slots", "gmem", "results", "sync", "scratch", "shinit",
    ] {
        e.line(&format!("ld.param.u64 %p_{p}, [weft_{p}];"));
        if p == "gmem" || p == "scratch" {
            // Kept generic for accesses that name no state space.
            e.line(&format!("mov.u64 %g_{p}, %p_{p};"));
        }
        e.line(&format!("cvta.to.global.u64 %p_{p}, %p_{p};"));
    }
    e.line("ld.param.u32 %n, [weft_ninst];");
    e.line("ld.param.u32 %flags, [weft_flags];");
    e.line("ld.param.u32 %seed, [weft_seed];");
    e.line("mov.u32 %h_tid, %tid.x;");
    // %isshadow must be defined on every path that reads it.
    e.line("setp.ne.u32 %isshadow, %h_tid, %h_tid;");
    e.line("mov.u32 %h_ntid, %ntid.x;");
    e.line("mov.u32 %h_ctaid, %ctaid.x;");
    e.line("mad.lo.u32 %gid, %h_ctaid, %h_ntid, %h_tid;");
    e.line("and.b32 %h_lane, %h_tid, 31;");
    e.line("mul.wide.u32 %off, %gid, 4;");
    e.line("add.u64 %w0, %p_roles, %off;");
    e.line("ld.global.u32 %role, [%w0];");
    e.line("add.u64 %w0, %p_slots, %off;");
    e.line("ld.global.u32 %slot, [%w0];");
    // Shadow offset (general bank conflicts, §4.3.2): 32*(lane+1) words lands in the same
    // bank as the testing location, lane+1 in another; bit 0 of flags picks per launch.
    e.line("add.u32 %soff, %h_lane, 1;");
    e.line("and.b32 %x0, %flags, 1;");
    e.line("setp.ne.u32 %pc, %x0, 0;");
    e.line("shl.b32 %x0, %soff, 5;");
    e.line("selp.b32 %soff, %x0, %soff, %pc;");
    if nsh > 0 {
        e.line("// initialise this block's shared cells");
        e.line("mov.u32 %x0, %h_tid;");
        e.label("$L_shinit");
        e.line(&format!("setp.ge.u32 %pc, %x0, {sh_words};"));
        e.line("@%pc bra $L_shinit_done;");
        e.line(&format!("div.u32 %x1, %x0, {};", layout.shared_slots));
        e.line("mul.wide.u32 %w0, %x1, 4;");
        e.line("add.u64 %w0, %p_shinit, %w0;");
        e.line("ld.global.u32 %x1, [%w0];");
        e.line("mov.u64 %w1, weft_sh;");
        e.line("mul.wide.u32 %w0, %x0, 4;");
        e.line("add.u64 %w1, %w1, %w0;");
        e.line("st.shared.u32 [%w1], %x1;");
        e.line("add.u32 %x0, %x0, %h_ntid;");
        e.line("bra $L_shinit;");
        e.label("$L_shinit_done");
        e.line("barrier.sync 0;");
    }
}

/// A thread with a role jumps to its test thread's code, the others to the stress loop.
fn dispatch(e: &mut Emitter, t_count: usize) {
    e.line("setp.eq.u32 %pc, %role, 0xffffffff;");
    e.line("@%pc bra $L_norole;");
    e.line("and.b32 %x0, %role, 2147483647;");
    e.line("setp.ne.u32 %isshadow, %x0, %role;");
    e.line("not.pred %isreal, %isshadow;");
    e.line(&format!("div.u32 %inst, %x0, {t_count};"));
    e.line(&format!("rem.u32 %tt, %x0, {t_count};"));
    e.line("mul.wide.u32 %w0, %inst, 4;");
    e.line("add.u64 %psync, %p_sync, %w0;");
    e.line("mul.wide.u32 %w0, %n, 4;");
    e.line("add.u64 %pdone, %p_sync, %w0;");
    for t in 0..t_count {
        e.line(&format!("setp.eq.u32 %pc, %tt, {t};"));
        e.line(&format!("@%pc bra $L_T{t};"));
    }
    e.line("bra $L_fin;");
}

/// The code of threads without a role: memory stress (§4.3.1) when asked for.
fn stress(e: &mut Emitter, t_count: usize, params: &CudaParams) {
    // ---- non-testing threads: memory stress (§4.3.1) ------------------------------
    e.label("$L_norole");
    e.line("setp.ne.u32 %isreal, %h_tid, %h_tid;");
    if params.mem_stress {
        e.line(&format!("mul.lo.u32 %x2, %n, {t_count};"));
        e.line("mov.u32 %x1, 0;");
        e.line("xor.b32 %x3, %gid, %seed;");
        e.line("mul.wide.u32 %w0, %n, 4;");
        e.line("add.u64 %pdone, %p_sync, %w0;");
        e.label("$L_stress");
        e.line("mad.lo.u32 %x4, %x1, 97, %x3;");
        e.line(&format!("and.b32 %x4, %x4, {};", SCRATCH_WORDS - 1));
        e.line("mul.wide.u32 %w0, %x4, 4;");
        e.line("add.u64 %w0, %p_scratch, %w0;");
        e.line("ld.global.cg.u32 %x5, [%w0];");
        e.line("add.u32 %x5, %x5, 1;");
        e.line("st.global.cg.u32 [%w0], %x5;");
        e.line("add.u32 %x1, %x1, 1;");
        e.line("ld.volatile.global.u32 %x5, [%pdone];");
        e.line("setp.lt.u32 %pc, %x5, %x2;");
        e.line(&format!(
            "setp.lt.and.u32 %pc, %x1, {STRESS_MAX_ITERS}, %pc;"
        ));
        e.line("@%pc bra $L_stress;");
    }
    e.line("bra $L_fin;");
}

/// Declares test thread `t`'s registers in `decls`; whether its body loops.
fn thread_decls(decls: &mut String, t: usize, th: &LThread) -> bool {
    let _ = writeln!(
        decls,
        "\t.reg .b32 %t{t}_r<{}>;\n\t.reg .b64 %t{t}_a<{}>;\n\t.reg .b64 %t{t}_c<2>;",
        th.reg_init.len().max(1),
        th.addrs.len().max(1)
    );
    if has_sink(&th.body) {
        let _ = writeln!(decls, "\t.reg .b32 %t{t}_sink;");
    }
    let looping = has_loop(&th.body);
    if looping {
        let _ = writeln!(decls, "\t.reg .b32 %t{t}_budget, %t{t}_stuck;");
    }
    looping
}

/// Test thread `t`'s cell addresses: real, or shadow for bank-conflict threads; generic
/// addresses where the test's access names no state space.
fn cell_addresses(e: &mut Emitter, t: usize, th: &LThread, layout: &KernelLayout) {
    for (k, (ci, generic)) in th.addrs.iter().enumerate() {
        let (sp, idx) = layout.cell_index(th.cells[*ci]);
        match sp {
            weft_ir::MemSpace::Shared => {
                e.line(&format!(
                    "add.u32 %x0, %slot, {};",
                    idx * layout.shared_slots
                ));
                e.line("add.u32 %x1, %x0, %soff;");
                e.line(&format!("and.b32 %x1, %x1, {};", SHADOW_WORDS - 1));
                e.line("mul.wide.u32 %w0, %x0, 4;");
                e.line("mov.u64 %w1, weft_sh;");
                e.line("add.u64 %w0, %w1, %w0;");
                e.line("mul.wide.u32 %w2, %x1, 4;");
                e.line("mov.u64 %w1, weft_shadow;");
                e.line("add.u64 %w2, %w1, %w2;");
                if *generic {
                    e.line("cvta.shared.u64 %w0, %w0;");
                    e.line("cvta.shared.u64 %w2, %w2;");
                }
            }
            _ => {
                let (gm, sc) = if *generic {
                    ("%g_gmem", "%g_scratch")
                } else {
                    ("%p_gmem", "%p_scratch")
                };
                e.line(&format!("mad.lo.u32 %x0, %n, {idx}, %inst;"));
                e.line("add.u32 %x1, %x0, %soff;");
                e.line(&format!("and.b32 %x1, %x1, {};", SCRATCH_WORDS - 1));
                e.line("mul.wide.u32 %w0, %x0, 4;");
                e.line(&format!("add.u64 %w0, {gm}, %w0;"));
                e.line("mul.wide.u32 %w2, %x1, 4;");
                e.line(&format!("add.u64 %w2, {sc}, %w2;"));
            }
        }
        e.line(&format!("selp.b64 %t{t}_a{k}, %w2, %w0, %isshadow;"));
    }
}

/// Test thread `t`'s constants, loop budget and thread-sync spin, then its body between
/// its two clock reads.
fn thread_body(
    e: &mut Emitter,
    t: usize,
    th: &LThread,
    looping: bool,
    t_count: usize,
    params: &CudaParams,
) {
    let mut cs = Vec::new();
    body_consts(&th.body, &mut cs);
    let mut consts = Vec::new();
    for v in cs {
        if let Val::Imm(i) = v {
            let r = e.temp();
            e.line(&format!("mov.b32 {r}, {i};"));
            consts.push((v, r));
        }
    }
    if looping {
        e.line(&format!("mov.u32 %t{t}_budget, {LOOP_LIMIT};"));
        e.line(&format!("mov.u32 %t{t}_stuck, 0;"));
    }
    if params.thread_sync {
        // §4.3.4: count in, then spin (bounded) until every test thread of the
        // instance has arrived; shadow threads only wait.
        e.line("@%isreal red.global.add.u32 [%psync], 1;");
        e.line("mov.u32 %x1, 0;");
        e.label(&format!("$L_spin{t}"));
        e.line("ld.volatile.global.u32 %x0, [%psync];");
        e.line("add.u32 %x1, %x1, 1;");
        e.line(&format!("setp.lt.u32 %pc, %x0, {t_count};"));
        e.line(&format!("setp.lt.and.u32 %pc, %x1, {SPIN_LIMIT}, %pc;"));
        e.line(&format!("@%pc bra $L_spin{t};"));
    }
    e.line(&format!("mov.u64 %t{t}_c0, %clock64;"));
    e.line("// ---- test body ----");
    e.ops(&th.body, &consts);
    if looping {
        e.line(&format!("bra $L_end{t};"));
        e.label(&format!("$L_stuck{t}"));
        e.line(&format!("mov.u32 %t{t}_stuck, 1;"));
        e.label(&format!("$L_end{t}"));
    }
    e.line("// ---- end of test body ----");
    e.line(&format!("mov.u64 %t{t}_c1, %clock64;"));
}

/// Test thread `t` stores its registers, its stuck flag and its cycle count in the
/// instance's results, and counts itself done.
fn thread_results(e: &mut Emitter, t: usize, looping: bool, layout: &KernelLayout) {
    e.line("@%isshadow bra $L_fin;");
    e.line(&format!(
        "mul.lo.u32 %x0, %inst, {};",
        layout.words_per_instance
    ));
    e.line("mul.wide.u32 %w0, %x0, 4;");
    e.line("add.u64 %w0, %p_results, %w0;");
    for (r, slot) in layout.regs[t].iter().enumerate() {
        if let RegSlot::Value(o) = slot {
            e.line(&format!("st.global.u32 [%w0+{}], %t{t}_r{r};", o * 4));
        }
    }
    if looping {
        // A spent loop budget marks the instance stuck: it has no outcome.
        e.line(&format!("setp.ne.u32 %pc, %t{t}_stuck, 0;"));
        e.line(&format!(
            "@%pc st.global.u32 [%w0+{}], %t{t}_stuck;",
            layout.stuck_offset * 4
        ));
    }
    e.line(&format!("sub.u64 %t{t}_c1, %t{t}_c1, %t{t}_c0;"));
    e.line(&format!("cvt.u32.u64 %x0, %t{t}_c1;"));
    e.line(&format!(
        "st.global.u32 [%w0+{}], %x0;",
        (layout.cycles_offset as usize + t) * 4
    ));
    e.line("red.global.add.u32 [%pdone], 1;");
    e.line("bra $L_fin;");
}

/// Where every thread joins: the shared cells copied out to the results.
fn join(e: &mut Emitter, layout: &KernelLayout) {
    let nsh = layout.shared_cells.len() as u32;
    // ---- join: copy shared cells out ---------------------------------------------
    e.label("$L_fin");
    if nsh > 0 {
        e.line("barrier.sync 0;");
        e.line("@!%isreal bra $L_exit;");
        e.line(&format!(
            "mul.lo.u32 %x0, %inst, {};",
            layout.words_per_instance
        ));
        e.line("mul.wide.u32 %w0, %x0, 4;");
        e.line("add.u64 %w0, %p_results, %w0;");
        e.line("mov.u64 %w1, weft_sh;");
        for (s, owner) in layout.shared_owner.iter().enumerate() {
            e.line(&format!("setp.eq.u32 %pc, %tt, {owner};"));
            e.line(&format!(
                "add.u32 %x1, %slot, {};",
                s as u32 * layout.shared_slots
            ));
            e.line("mul.wide.u32 %w2, %x1, 4;");
            e.line("add.u64 %w2, %w1, %w2;");
            e.line("@%pc ld.shared.u32 %x2, [%w2];");
            e.line(&format!(
                "@%pc st.global.u32 [%w0+{}], %x2;",
                (layout.shared_offset as usize + s) * 4
            ));
        }
    }
    e.label("$L_exit");
    e.line("ret;");
}

/// The module around the kernel's code `e`: header comments, version, shared arrays, the
/// entry's parameters and register declarations (`decls`: the test threads').
fn module(
    name: &str,
    l: &Lowered,
    params: &CudaParams,
    layout: &KernelLayout,
    e: &Emitter,
    decls: &str,
) -> String {
    let nsh = layout.shared_cells.len() as u32;
    let sh_words = nsh * layout.shared_slots;
    let mut m = String::new();
    let _ = writeln!(
        m,
        "// weft-hw-cuda: litmus test {} (generated; paper 000 sec. 4)",
        name.chars()
            .map(|c| if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            })
            .collect::<String>()
    );
    let _ = writeln!(
        m,
        "// incantations: mem_stress={} bank_conflicts={} thread_randomisation={} thread_sync={}",
        params.mem_stress, params.bank_conflicts, params.thread_randomisation, params.thread_sync
    );
    // PTX 7.0 has everything the kernel uses but `fence.proxy.alias` (PTX 7.5).
    let uses_proxy_fence = l.threads.iter().any(|t| {
        let mut v = Vec::new();
        crate::lower::mem_sequence(&t.body, &mut v);
        v.iter().any(|(_, m)| m.starts_with("fence.proxy"))
    });
    let version = if uses_proxy_fence { "7.5" } else { "7.0" };
    let _ = write!(m, ".version {version}\n.target sm_70\n.address_size 64\n\n");
    if nsh > 0 {
        let _ = writeln!(m, ".shared .align 128 .b32 weft_sh[{sh_words}];");
        let _ = writeln!(m, ".shared .align 128 .b32 weft_shadow[{SHADOW_WORDS}];");
        m.push('\n');
    }
    let _ = writeln!(m, ".visible .entry {KERNEL_NAME}(");
    let ps: Vec<String> = [
        "roles", "slots", "gmem", "results", "sync", "scratch", "shinit",
    ]
    .iter()
    .map(|p| format!("\t.param .u64 weft_{p}"))
    .chain(
        ["ninst", "flags", "seed"]
            .iter()
            .map(|p| format!("\t.param .u32 weft_{p}")),
    )
    .collect();
    m.push_str(&ps.join(",\n"));
    m.push_str("\n)\n{\n");
    m.push_str(
        "\t.reg .b64 %p_roles, %p_slots, %p_gmem, %p_results, %p_sync, %p_scratch, %p_shinit;\n",
    );
    m.push_str("\t.reg .b64 %g_gmem, %g_scratch, %off, %psync, %pdone, %w0, %w1, %w2;\n");
    m.push_str("\t.reg .b32 %n, %flags, %seed, %h_tid, %h_ntid, %h_ctaid, %gid, %h_lane, %role, %slot, %inst, %tt, %soff;\n");
    m.push_str("\t.reg .b32 %x0, %x1, %x2, %x3, %x4, %x5;\n");
    m.push_str("\t.reg .pred %pc, %isshadow, %isreal;\n");
    let _ = writeln!(m, "\t.reg .b32 %e<{}>;", e.temps + 1);
    let _ = writeln!(m, "\t.reg .pred %q<{}>;", e.preds + 1);
    m.push_str(decls);
    m.push('\n');
    m.push_str(&e.out);
    m.push_str("}\n");
    m
}
