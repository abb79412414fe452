//! Prints the CUDA-C form of the kernel: the same harness as `ptx.rs` (paper 000 §4.2,
//! §4.3) in C, with every test access and fence written as inline PTX (`asm volatile`) so
//! that its order, scope and cache operator survive compilation exactly. Local arithmetic
//! is plain C. The kernel has the same name and parameters as the PTX one, so either can
//! be launched by the runner; it compiles with clang (weft-cuda's shim headers) or nvcc.

use std::fmt::Write;

use weft_ir::{BinOp, Expr, UnOp};

use crate::layout::{
    KernelLayout, LOOP_LIMIT, SCRATCH_WORDS, SHADOW_WORDS, SPIN_LIMIT, STRESS_MAX_ITERS,
};
use crate::lower::{LThread, Lowered, Op, RegSlot, Val};
use crate::ptx::KERNEL_NAME;
use crate::CudaParams;

fn reg(t: usize, r: u32) -> String {
    format!("t{t}_r{r}")
}

fn expr(t: usize, e: &Expr) -> String {
    match e {
        Expr::Int(v) => format!("({})", *v as i32),
        Expr::Reg(r) => reg(t, r.0),
        Expr::Addr(_) => "0".into(),
        Expr::Un(op, a) => {
            let a = expr(t, a);
            match op {
                UnOp::Neg => format!("(int)(0u - (unsigned){a})"),
                UnOp::Not => format!("(~{a})"),
                UnOp::LNot => format!("(!{a})"),
            }
        }
        Expr::Bin(op, a, b) => {
            let (x, y) = (expr(t, a), expr(t, b));
            match op {
                BinOp::Add => format!("(int)((unsigned){x} + (unsigned){y})"),
                BinOp::Sub => format!("(int)((unsigned){x} - (unsigned){y})"),
                BinOp::Mul => format!("(int)((unsigned){x} * (unsigned){y})"),
                BinOp::Div => format!("weft_div({x}, {y})"),
                BinOp::Rem => format!("weft_rem({x}, {y})"),
                BinOp::Shl => format!("(int)((unsigned){x} << ({y} & 31))"),
                BinOp::Shr => format!("({x} >> ({y} & 31))"),
                _ => format!("({x} {} {y})", op.c_symbol()),
            }
        }
    }
}

struct CEmit {
    out: String,
    t: usize,
    depth: usize,
}

impl CEmit {
    fn line(&mut self, s: &str) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn val(&self, v: &Val) -> String {
        match v {
            Val::Reg(r) => reg(self.t, *r),
            Val::Imm(i) => format!("({i})"),
            Val::Expr(e) => expr(self.t, e),
        }
    }

    /// An `asm volatile` statement: `body` is PTX with `%N` operands; a guard register
    /// becomes a predicate inside the asm block.
    fn asm(&mut self, guard: Option<(u32, bool)>, instr: &str, outs: &[String], ins: &[String]) {
        let mut ins: Vec<String> = ins.to_vec();
        let text = match guard {
            None => format!("{instr};"),
            Some((r, neg)) => {
                let gi = outs.len() + ins.len();
                ins.push(format!("\"r\"({})", reg(self.t, r)));
                format!(
                    "{{ .reg .pred wp; setp.ne.s32 wp, %{gi}, 0; @{}wp {instr}; }}",
                    if neg { "!" } else { "" }
                )
            }
        };
        self.line(&format!(
            "asm volatile(\"{text}\" : {} : {} : \"memory\");",
            outs.join(", "),
            ins.join(", ")
        ));
    }

    fn ops(&mut self, ops: &[Op]) {
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
                    let mut outs = Vec::new();
                    let mut operands = Vec::new();
                    if let Some(d) = dst {
                        let name = if *d == u32::MAX {
                            format!("t{}_sink", self.t)
                        } else {
                            reg(self.t, *d)
                        };
                        outs.push(format!("\"+r\"({name})"));
                        operands.push("%0".to_string());
                    }
                    let base = outs.len();
                    let mut ins = vec![format!("\"l\"(t{}_a{})", self.t, cell)];
                    operands.push(format!("[%{base}]"));
                    for (k, s) in srcs.iter().enumerate() {
                        ins.push(format!("\"r\"({})", self.val(s)));
                        operands.push(format!("%{}", base + 1 + k));
                    }
                    let instr = format!("{mnemonic} {}", operands.join(", "));
                    self.asm(*guard, &instr, &outs, &ins);
                }
                Op::Fence { guard, mnemonic } => self.asm(*guard, mnemonic, &[], &[]),
                Op::Assign { guard, dst, value } => {
                    let v = expr(self.t, value);
                    let d = reg(self.t, *dst);
                    match guard {
                        None => self.line(&format!("{d} = {v};")),
                        Some((r, neg)) => self.line(&format!(
                            "if ({}{}) {d} = {v};",
                            if *neg { "!" } else { "" },
                            reg(self.t, *r)
                        )),
                    }
                }
                Op::Label(l) => self.line(&format!("{l}:;")),
                Op::Jump {
                    target,
                    cond,
                    backward,
                } => {
                    let c = cond
                        .as_ref()
                        .map(|c| expr(self.t, c))
                        .unwrap_or_else(|| "1".into());
                    if *backward {
                        let t = self.t;
                        self.line(&format!(
                            "if ({c}) {{ if (--t{t}_budget == 0) goto L_stuck_t{t}; goto {target}; }}"
                        ));
                    } else {
                        self.line(&format!("if ({c}) goto {target};"));
                    }
                }
                Op::If {
                    cond,
                    then_ops,
                    else_ops,
                } => {
                    self.line(&format!("if ({}) {{", expr(self.t, cond)));
                    self.depth += 1;
                    self.ops(then_ops);
                    self.depth -= 1;
                    self.line("} else {");
                    self.depth += 1;
                    self.ops(else_ops);
                    self.depth -= 1;
                    self.line("}");
                }
            }
        }
    }
}

/// Prints the CUDA-C kernel.
pub fn print(name: &str, l: &Lowered, layout: &KernelLayout, params: &CudaParams) -> String {
    let mut c = CEmit {
        out: String::new(),
        t: 0,
        depth: 0,
    };
    header(&mut c, name, params);
    prologue(&mut c, layout, params);
    for (t, th) in l.threads.iter().enumerate() {
        c.t = t;
        c.line(&format!("if (tt == {t}) {{ // test thread {}", th.name));
        c.depth += 1;
        test_thread(&mut c, t, th, layout, params);
        c.depth -= 1;
        c.line("}");
    }
    join(&mut c, layout);
    c.out
}

/// The header comments, helper functions and the kernel's signature.
fn header(c: &mut CEmit, name: &str, params: &CudaParams) {
    let _ = writeln!(
        c.out,
        "// weft-hw-cuda: litmus test {} (generated; paper 000 §4)",
        name.replace('\n', " ")
    );
    let _ = writeln!(
        c.out,
        "// incantations: mem_stress={} bank_conflicts={} thread_randomisation={} thread_sync={}",
        params.mem_stress, params.bank_conflicts, params.thread_randomisation, params.thread_sync
    );
    c.out.push_str(
        "static __device__ __forceinline__ int weft_div(int a, int b) { return b ? a / b : 0; }\n\
         static __device__ __forceinline__ int weft_rem(int a, int b) { return b ? a % b : 0; }\n\
         static __device__ __forceinline__ unsigned long long weft_g(const void *p) {\n\
         \x20 unsigned long long r; asm(\"cvta.to.global.u64 %0, %1;\" : \"=l\"(r) : \"l\"(p)); return r;\n}\n\
         static __device__ __forceinline__ unsigned long long weft_s(const void *p) {\n\
         \x20 unsigned long long r; asm(\"cvta.to.shared.u64 %0, %1;\" : \"=l\"(r) : \"l\"(p)); return r;\n}\n\
         static __device__ __forceinline__ unsigned long long weft_clock(void) {\n\
         \x20 unsigned long long r; asm volatile(\"mov.u64 %0, %%clock64;\" : \"=l\"(r) :: \"memory\"); return r;\n}\n\
         static __device__ __forceinline__ unsigned weft_ldv(const unsigned *p) {\n\
         \x20 unsigned r; asm volatile(\"ld.volatile.global.u32 %0, [%1];\" : \"=r\"(r) : \"l\"(weft_g(p)) : \"memory\"); return r;\n}\n\
         static __device__ __forceinline__ void weft_inc(unsigned *p) {\n\
         \x20 asm volatile(\"red.global.add.u32 [%0], 1;\" :: \"l\"(weft_g(p)) : \"memory\");\n}\n\n",
    );
    let _ = writeln!(c.out, "extern \"C\" __global__ void {KERNEL_NAME}(unsigned *weft_roles, unsigned *weft_slots, unsigned *weft_gmem,\n    unsigned *weft_results, unsigned *weft_sync, unsigned *weft_scratch, unsigned *weft_shinit,\n    unsigned weft_ninst, unsigned weft_flags, unsigned weft_seed) {{");
}

/// What every thread runs first (shared arrays, ids, role, shared cells initialised), the
/// stress loop of threads without a role, and the role's instance and test thread.
fn prologue(c: &mut CEmit, layout: &KernelLayout, params: &CudaParams) {
    let t_count = layout.threads;
    let nsh = layout.shared_cells.len() as u32;
    let sh_words = nsh * layout.shared_slots;
    c.depth = 1;
    if nsh > 0 {
        c.line(&format!(
            "__shared__ __attribute__((aligned(128))) unsigned weft_sh[{sh_words}];"
        ));
        c.line(&format!(
            "__shared__ __attribute__((aligned(128))) unsigned weft_shadow[{SHADOW_WORDS}];"
        ));
    }
    c.line("unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid, lane = tid & 31;");
    c.line("unsigned role = weft_roles[gid], slot = weft_slots[gid];");
    c.line("unsigned soff = (weft_flags & 1) ? 32 * (lane + 1) : lane + 1;");
    c.line("unsigned n = weft_ninst, inst = 0, tt = 0;");
    c.line("bool isshadow = false, isreal = false;");
    c.line("unsigned *done = weft_sync + n;");
    c.line("(void)slot; (void)soff; (void)weft_shinit; (void)weft_seed; (void)weft_scratch; (void)done;");
    if nsh > 0 {
        c.line(&format!(
            "for (unsigned k = tid; k < {sh_words}; k += blockDim.x) weft_sh[k] = weft_shinit[k / {}];",
            layout.shared_slots
        ));
        c.line("__syncthreads();");
    }
    c.line("if (role == 0xffffffffu) {");
    if params.mem_stress {
        c.line(&format!(
            "  unsigned total = n * {t_count}, base = gid ^ weft_seed;"
        ));
        c.line(&format!(
            "  for (unsigned k = 0; k < {STRESS_MAX_ITERS}u && weft_ldv(done) < total; k++) {{"
        ));
        c.line(&format!(
            "    unsigned a = (k * 97 + base) & {};",
            SCRATCH_WORDS - 1
        ));
        c.line("    unsigned v; asm volatile(\"ld.global.cg.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(weft_g(weft_scratch + a)) : \"memory\");");
        c.line("    asm volatile(\"st.global.cg.u32 [%0], %1;\" :: \"l\"(weft_g(weft_scratch + a)), \"r\"(v + 1) : \"memory\");");
        c.line("  }");
    }
    c.line("  goto fin;");
    c.line("}");
    c.line("isshadow = (role & 0x80000000u) != 0; isreal = !isshadow;");
    c.line(&format!(
        "inst = (role & 0x7fffffffu) / {t_count}; tt = (role & 0x7fffffffu) % {t_count};"
    ));
}

/// Test thread `t`'s code: registers, cell addresses, the thread-sync spin, the body
/// between its clock reads, its results.
fn test_thread(c: &mut CEmit, t: usize, th: &LThread, layout: &KernelLayout, params: &CudaParams) {
    let t_count = layout.threads;
    let regs: Vec<String> = th
        .reg_init
        .iter()
        .enumerate()
        .map(|(r, v)| format!("{} = {v}", reg(t, r as u32)))
        .collect();
    if !regs.is_empty() {
        c.line(&format!("int {};", regs.join(", ")));
        let uses: Vec<String> = (0..th.reg_init.len())
            .map(|r| format!("(void){};", reg(t, r as u32)))
            .collect();
        c.line(&uses.join(" "));
    }
    c.line(&format!("int t{t}_sink = 0; (void)t{t}_sink;"));
    let looping = crate::ptx::has_loop(&th.body);
    if looping {
        c.line(&format!(
            "unsigned t{t}_budget = {LOOP_LIMIT}u; int t{t}_stuck = 0;"
        ));
    }
    for (k, (ci, generic)) in th.addrs.iter().enumerate() {
        let (sp, idx) = layout.cell_index(th.cells[*ci]);
        let (g, s) = if *generic {
            ("(unsigned long long)", "(unsigned long long)")
        } else {
            ("weft_g", "weft_s")
        };
        match sp {
            weft_ir::MemSpace::Shared => {
                let i = format!("({} + slot)", idx * layout.shared_slots);
                c.line(&format!(
                        "unsigned long long t{t}_a{k} = isshadow ? {s}(&weft_shadow[({i} + soff) & {}]) : {s}(&weft_sh[{i}]);",
                        SHADOW_WORDS - 1
                    ));
            }
            _ => {
                let i = format!("(n * {idx} + inst)");
                c.line(&format!(
                        "unsigned long long t{t}_a{k} = isshadow ? {g}(&weft_scratch[({i} + soff) & {}]) : {g}(&weft_gmem[{i}]);",
                        SCRATCH_WORDS - 1
                    ));
            }
        }
    }
    if params.thread_sync {
        c.line("if (isreal) weft_inc(&weft_sync[inst]);");
        c.line(&format!(
                "for (unsigned k = 0; k < {SPIN_LIMIT}u && weft_ldv(&weft_sync[inst]) < {t_count}u; k++) {{}}"
            ));
    }
    c.line(&format!("unsigned long long t{t}_c0 = weft_clock();"));
    c.line("// ---- test body ----");
    c.ops(&th.body);
    if looping {
        c.line(&format!("goto L_end_t{t};"));
        c.line(&format!("L_stuck_t{t}: t{t}_stuck = 1;"));
        c.line(&format!("L_end_t{t}:;"));
    }
    c.line("// ---- end of test body ----");
    c.line(&format!("unsigned long long t{t}_c1 = weft_clock();"));
    c.line("if (isreal) {");
    c.line(&format!(
        "  unsigned *res = weft_results + inst * {};",
        layout.words_per_instance
    ));
    for (r, slot) in layout.regs[t].iter().enumerate() {
        if let RegSlot::Value(o) = slot {
            c.line(&format!("  res[{o}] = (unsigned){};", reg(t, r as u32)));
        }
    }
    if looping {
        c.line(&format!(
            "  if (t{t}_stuck) res[{}] = 1;",
            layout.stuck_offset
        ));
    }
    c.line(&format!(
        "  res[{}] = (unsigned)(t{t}_c1 - t{t}_c0);",
        layout.cycles_offset as usize + t
    ));
    c.line("  weft_inc(done);");
    c.line("}");
}

/// Where every thread joins: the shared cells copied out to the results.
fn join(c: &mut CEmit, layout: &KernelLayout) {
    let nsh = layout.shared_cells.len() as u32;
    c.line("goto fin;");
    c.depth = 0;
    c.line("fin:");
    c.depth = 1;
    if nsh > 0 {
        // Not __syncthreads (bar.sync is .aligned): threads arrive here from different paths.
        c.line("asm volatile(\"barrier.sync 0;\" ::: \"memory\");");
        c.line("if (isreal) {");
        c.line(&format!(
            "  unsigned *res = weft_results + inst * {};",
            layout.words_per_instance
        ));
        for (s, owner) in layout.shared_owner.iter().enumerate() {
            c.line(&format!(
                "  if (tt == {owner}) res[{}] = weft_sh[{} + slot];",
                layout.shared_offset as usize + s,
                s as u32 * layout.shared_slots
            ));
        }
        c.line("}");
    } else {
        c.line("(void)isreal;");
    }
    c.line("return;");
    c.out.push_str("}\n");
}
