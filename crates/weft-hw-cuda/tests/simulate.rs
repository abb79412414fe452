//! End-to-end check of the generated kernel without a GPU: a small interpreter for the PTX
//! subset weft-hw-cuda emits runs a whole launch under sequential consistency, threads
//! picked at random one instruction at a time (seeded), with the same buffers the runner
//! builds (role assignment, memory image, sync counters, scratch, shared initial values).
//! Under SC no weak outcome can appear, so every decoded instance must be an outcome the SC
//! classifier reaches; the checksum must hold; stress threads, shadows and the thread-sync
//! spin must terminate and must not disturb the test's cells. This checks the harness
//! (addresses, roles, result layout, shared-memory copy-out), not the hardware.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use weft_hw_cuda::layout::{self, Rng, SCRATCH_WORDS};
use weft_hw_cuda::{generate, CudaParams, Generated};
use weft_litmus::classify::{classify, Class, Outcome};
use weft_ptx::ast::{
    AddrBase, AtomOp, BoolOp, CmpOp, Dim, Instruction, MulMode, Opcode, Operand, ScalarType,
    SpecialReg, StateSpace, Statement,
};

const SHARED_GENERIC: u64 = 0x7f00_0000_0000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum St {
    Running,
    Barrier,
    Done,
}

struct Th {
    block: usize,
    tid: u32,
    pc: usize,
    regs: HashMap<String, u64>,
    st: St,
}

struct Machine<'a> {
    ins: Vec<&'a Instruction>,
    labels: HashMap<String, usize>,
    params: HashMap<String, u64>,
    /// Global buffers: (base, words).
    global: Vec<(u64, Vec<u32>)>,
    shared_syms: HashMap<String, u64>,
    shared: Vec<Vec<u32>>,
    tpb: u32,
    clock: u64,
}

fn flatten<'a>(
    body: &'a [Statement],
    ins: &mut Vec<&'a Instruction>,
    labels: &mut HashMap<String, usize>,
) {
    for s in body {
        match s {
            Statement::Instr(i) => ins.push(i),
            Statement::Label { name, .. } => {
                labels.insert(name.clone(), ins.len());
            }
            Statement::Block { body, .. } => flatten(body, ins, labels),
            _ => {}
        }
    }
}

fn mask(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        ((v << (64 - bits)) as i64) >> (64 - bits)
    }
}

impl<'a> Machine<'a> {
    fn val(&self, th: &Th, o: &Operand) -> u64 {
        match o {
            Operand::Reg(r) => *th.regs.get(r).unwrap_or(&0),
            Operand::Int(i) => *i as u64,
            Operand::Special(s) => match s {
                SpecialReg::Tid(Dim::X) => th.tid as u64,
                SpecialReg::Ntid(Dim::X) => self.tpb as u64,
                SpecialReg::Ctaid(Dim::X) => th.block as u64,
                SpecialReg::Clock64 | SpecialReg::Clock => self.clock,
                other => panic!("special register {other:?}"),
            },
            Operand::Symbol { name, offset } => {
                let base = self
                    .shared_syms
                    .get(name)
                    .or_else(|| self.params.get(name))
                    .unwrap_or_else(|| panic!("unknown symbol {name}"));
                base.wrapping_add(*offset as u64)
            }
            Operand::Not(x) => (self.val(th, x) == 0) as u64,
            other => panic!("operand {other:?}"),
        }
    }

    fn addr(&self, th: &Th, o: &Operand) -> u64 {
        match o {
            Operand::Addr(a) => {
                let base = match &a.base {
                    AddrBase::Reg(r) => *th
                        .regs
                        .get(r)
                        .unwrap_or_else(|| panic!("address register {r} unset")),
                    AddrBase::Symbol(s) => self.val(
                        th,
                        &Operand::Symbol {
                            name: s.clone(),
                            offset: 0,
                        },
                    ),
                    AddrBase::Absolute(x) => *x as u64,
                };
                base.wrapping_add(a.offset as u64)
            }
            other => panic!("not an address: {other:?}"),
        }
    }

    fn cell(&mut self, block: usize, space: Option<StateSpace>, addr: u64) -> &mut u32 {
        assert_eq!(addr % 4, 0, "misaligned access at {addr:#x}");
        let shared = match space {
            Some(StateSpace::Shared) => Some(addr),
            Some(StateSpace::Global) => None,
            None => (addr >= SHARED_GENERIC).then(|| addr - SHARED_GENERIC),
            Some(s) => panic!("space {s:?}"),
        };
        if let Some(off) = shared {
            let m = &mut self.shared[block];
            let len = m.len();
            return m
                .get_mut((off / 4) as usize)
                .unwrap_or_else(|| panic!("shared access out of bounds: {off:#x} of {len} words"));
        }
        for (base, words) in self.global.iter_mut() {
            if addr >= *base && addr < *base + 4 * words.len() as u64 {
                return &mut words[((addr - *base) / 4) as usize];
            }
        }
        panic!("global access out of bounds at {addr:#x}");
    }

    /// Executes one instruction of thread `t`.
    fn step(&mut self, th: &mut Th) {
        self.clock += 1;
        let i = self.ins[th.pc];
        th.pc += 1;
        if let Some(g) = &i.guard {
            let p = *th.regs.get(&g.pred).unwrap_or(&0) != 0;
            if p == g.negated {
                return;
            }
        }
        let ty = i.mods.types.first().copied().unwrap_or(ScalarType::B64);
        let bits = ty.bits();
        let signed = ty.is_signed();
        let ops = &i.operands;
        let dst = |o: &Operand| match o {
            Operand::Reg(r) => r.clone(),
            other => panic!("destination {other:?}"),
        };
        let set = |th: &mut Th, o: &Operand, v: u64| {
            th.regs.insert(dst(o), v);
        };
        match i.opcode {
            Opcode::Ld => {
                if i.mods.space == Some(StateSpace::Param) {
                    let v = self.addr(th, &ops[1]);
                    set(th, &ops[0], v);
                } else {
                    let a = self.addr(th, &ops[1]);
                    let v = *self.cell(th.block, i.mods.space, a) as u64;
                    set(th, &ops[0], v);
                }
            }
            Opcode::St => {
                let a = self.addr(th, &ops[0]);
                let v = self.val(th, &ops[1]) as u32;
                *self.cell(th.block, i.mods.space, a) = v;
            }
            Opcode::Atom | Opcode::Red => {
                let (d, rest) = if i.opcode == Opcode::Atom {
                    (Some(&ops[0]), &ops[1..])
                } else {
                    (None, &ops[..])
                };
                let a = self.addr(th, &rest[0]);
                let b = self.val(th, &rest[1]) as u32;
                let c = rest.get(2).map(|o| self.val(th, o) as u32);
                let cell = self.cell(th.block, i.mods.space, a);
                let old = *cell;
                let new = match i.mods.atom.expect("atom op") {
                    AtomOp::Add => old.wrapping_add(b),
                    AtomOp::Exch => b,
                    AtomOp::Cas => {
                        if old == b {
                            c.unwrap()
                        } else {
                            old
                        }
                    }
                    AtomOp::And => old & b,
                    AtomOp::Or => old | b,
                    AtomOp::Xor => old ^ b,
                    AtomOp::Min if signed => (old as i32).min(b as i32) as u32,
                    AtomOp::Max if signed => (old as i32).max(b as i32) as u32,
                    AtomOp::Min => old.min(b),
                    AtomOp::Max => old.max(b),
                    AtomOp::Inc => {
                        if old >= b {
                            0
                        } else {
                            old + 1
                        }
                    }
                    AtomOp::Dec => {
                        if old == 0 || old > b {
                            b
                        } else {
                            old - 1
                        }
                    }
                };
                *cell = new;
                if let Some(d) = d {
                    set(th, d, old as u64);
                }
            }
            Opcode::Membar | Opcode::Fence => {}
            Opcode::Barrier | Opcode::Bar => th.st = St::Barrier,
            Opcode::Bra => {
                let Operand::Symbol { name, .. } = &ops[0] else {
                    panic!("bra target")
                };
                th.pc = *self
                    .labels
                    .get(name)
                    .unwrap_or_else(|| panic!("no label {name}"));
            }
            Opcode::Ret | Opcode::Exit => th.st = St::Done,
            Opcode::Mov => {
                let v = self.val(th, &ops[1]);
                set(th, &ops[0], mask(v, bits));
            }
            Opcode::Cvta => {
                let v = self.val(th, &ops[1]);
                let v = match (i.mods.to, i.mods.space) {
                    (true, Some(StateSpace::Shared)) => v - SHARED_GENERIC,
                    (false, Some(StateSpace::Shared)) => v + SHARED_GENERIC,
                    _ => v,
                };
                set(th, &ops[0], v);
            }
            Opcode::Cvt => {
                let v = self.val(th, &ops[1]);
                set(th, &ops[0], mask(v, bits));
            }
            Opcode::Setp => {
                let (a, b) = (self.val(th, &ops[1]), self.val(th, &ops[2]));
                let (x, y) = (sext(mask(a, bits), bits), sext(mask(b, bits), bits));
                let (ux, uy) = (mask(a, bits), mask(b, bits));
                let r = match i.mods.cmp.expect("cmp") {
                    CmpOp::Eq => ux == uy,
                    CmpOp::Ne => ux != uy,
                    CmpOp::Lt if signed => x < y,
                    CmpOp::Le if signed => x <= y,
                    CmpOp::Gt if signed => x > y,
                    CmpOp::Ge if signed => x >= y,
                    CmpOp::Lt | CmpOp::Lo => ux < uy,
                    CmpOp::Le | CmpOp::Ls => ux <= uy,
                    CmpOp::Gt | CmpOp::Hi => ux > uy,
                    CmpOp::Ge | CmpOp::Hs => ux >= uy,
                    other => panic!("cmp {other:?}"),
                };
                let r = match i.mods.bool_op {
                    None => r,
                    Some(op) => {
                        let c = self.val(th, &ops[3]) != 0;
                        match op {
                            BoolOp::And => r && c,
                            BoolOp::Or => r || c,
                            BoolOp::Xor => r ^ c,
                        }
                    }
                };
                set(th, &ops[0], r as u64);
            }
            Opcode::Selp => {
                let p = self.val(th, &ops[3]) != 0;
                let v = if p {
                    self.val(th, &ops[1])
                } else {
                    self.val(th, &ops[2])
                };
                set(th, &ops[0], v);
            }
            Opcode::Not if ty == ScalarType::Pred => {
                let v = self.val(th, &ops[1]);
                set(th, &ops[0], (v == 0) as u64);
            }
            Opcode::And | Opcode::Or | Opcode::Xor if ty == ScalarType::Pred => {
                let (a, b) = (self.val(th, &ops[1]) != 0, self.val(th, &ops[2]) != 0);
                let r = match i.opcode {
                    Opcode::And => a && b,
                    Opcode::Or => a || b,
                    _ => a ^ b,
                };
                set(th, &ops[0], r as u64);
            }
            Opcode::Neg | Opcode::Not => {
                let a = self.val(th, &ops[1]);
                let r = if i.opcode == Opcode::Neg {
                    a.wrapping_neg()
                } else {
                    !a
                };
                set(th, &ops[0], mask(r, bits));
            }
            Opcode::Add
            | Opcode::Sub
            | Opcode::Mul
            | Opcode::Mad
            | Opcode::Div
            | Opcode::Rem
            | Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Shl
            | Opcode::Shr => {
                let (a, b) = (self.val(th, &ops[1]), self.val(th, &ops[2]));
                let (sa, sb) = (sext(mask(a, bits), bits), sext(mask(b, bits), bits));
                let (ua, ub) = (mask(a, bits), mask(b, bits));
                let wide = i.mods.mul == Some(MulMode::Wide);
                let r = match i.opcode {
                    Opcode::Add => a.wrapping_add(b),
                    Opcode::Sub => a.wrapping_sub(b),
                    Opcode::Mul if wide => ua.wrapping_mul(ub),
                    Opcode::Mul => a.wrapping_mul(b),
                    Opcode::Mad => a.wrapping_mul(b).wrapping_add(self.val(th, &ops[3])),
                    Opcode::Div if signed => sa.checked_div(sb).unwrap_or(0) as u64,
                    Opcode::Div => ua.checked_div(ub).unwrap_or(0),
                    Opcode::Rem if signed => sa.checked_rem(sb).unwrap_or(0) as u64,
                    Opcode::Rem => ua.checked_rem(ub).unwrap_or(0),
                    Opcode::And => a & b,
                    Opcode::Or => a | b,
                    Opcode::Xor => a ^ b,
                    Opcode::Shl => a.wrapping_shl(ub as u32),
                    Opcode::Shr if signed => (sa >> (ub.min(63))) as u64,
                    _ => ua >> ub.min(63),
                };
                set(th, &ops[0], if wide { r } else { mask(r, bits) });
            }
            Opcode::Bfe => {
                let a = mask(self.val(th, &ops[1]), bits);
                let pos = self.val(th, &ops[2]) & 0xff;
                let len = self.val(th, &ops[3]) & 0xff;
                let v = if len == 0 || pos >= bits as u64 {
                    0
                } else {
                    let l = len.min(bits as u64 - pos) as u32;
                    let x = mask(a >> pos, l);
                    if signed {
                        mask(sext(x, l) as u64, bits)
                    } else {
                        x
                    }
                };
                set(th, &ops[0], v);
            }
            Opcode::Min | Opcode::Max => {
                let (a, b) = (self.val(th, &ops[1]), self.val(th, &ops[2]));
                let (sa, sb) = (sext(mask(a, bits), bits), sext(mask(b, bits), bits));
                let (ua, ub) = (mask(a, bits), mask(b, bits));
                let r = match (i.opcode == Opcode::Min, signed) {
                    (true, true) => mask(sa.min(sb) as u64, bits),
                    (false, true) => mask(sa.max(sb) as u64, bits),
                    (true, false) => ua.min(ub),
                    (false, false) => ua.max(ub),
                };
                set(th, &ops[0], r);
            }
            other => panic!("the interpreter does not know {other:?} ({})", i.mnemonic()),
        }
    }
}

/// Runs one launch of a generated kernel under SC with a random schedule and returns the
/// results and global buffers.
fn run_launch(
    ptx: &str,
    g: &Generated,
    params: &CudaParams,
    launch_seed: u64,
) -> (Vec<u32>, Vec<u32>) {
    let m = weft_ptx::parse(ptx).unwrap();
    let k = m.kernels().next().unwrap();
    // Parameters by position: 7 pointers, then N, flags, seed (ptx.rs and cudac.rs agree).
    let pnames: Vec<String> = k.params.iter().map(|p| p.name.clone()).collect();
    assert_eq!(pnames.len(), 10, "kernel parameters");
    let mut ins = Vec::new();
    let mut labels = HashMap::new();
    flatten(k.body.as_deref().unwrap(), &mut ins, &mut labels);
    let lay = &g.layout;
    let n = params.instances_per_launch;
    let a = layout::assign(lay, params, launch_seed).unwrap();
    let mut image = lay.global_image(n);
    if image.is_empty() {
        image.push(0);
    }
    let bufs: Vec<Vec<u32>> = vec![
        a.roles.clone(),
        a.slots.clone(),
        image,
        vec![0; (lay.words_per_instance * n).max(1) as usize],
        vec![0; n as usize + 1],
        vec![0; SCRATCH_WORDS as usize],
        lay.shared_image(),
    ];
    let names = [
        "roles", "slots", "gmem", "results", "sync", "scratch", "shinit",
    ];
    let mut params_map = HashMap::new();
    let mut global = Vec::new();
    for (i, (_, b)) in names.iter().zip(bufs).enumerate() {
        let base = (i as u64 + 1) << 32;
        params_map.insert(pnames[i].clone(), base);
        global.push((base, b));
    }
    params_map.insert(pnames[7].clone(), n as u64);
    params_map.insert(pnames[8].clone(), (launch_seed >> 17) & 1);
    params_map.insert(pnames[9].clone(), launch_seed & 0xffff_ffff);
    // Shared variables, laid out one after the other in the shared window.
    let mut shared_syms = HashMap::new();
    let mut words = 0u64;
    // Module-level and (clang: demoted) function-level `.shared` variables.
    let mut vars: Vec<&weft_ptx::ast::Variable> = m
        .items
        .iter()
        .filter_map(|it| match it {
            weft_ptx::ast::Item::Variable(v) => Some(v),
            _ => None,
        })
        .collect();
    fn body_vars<'b>(body: &'b [Statement], out: &mut Vec<&'b weft_ptx::ast::Variable>) {
        for s in body {
            match s {
                Statement::Var(v) => out.push(v),
                Statement::Block { body, .. } => body_vars(body, out),
                _ => {}
            }
        }
    }
    body_vars(k.body.as_deref().unwrap(), &mut vars);
    for v in vars {
        if v.space == StateSpace::Shared {
            let align = v.align.unwrap_or(4) as u64;
            let bytes =
                v.dims.first().copied().flatten().unwrap_or(1) * (v.ty.bits() as u64 / 8).max(1);
            let start = (words * 4).div_ceil(align) * align;
            shared_syms.insert(v.name.clone(), start);
            words = (start + bytes).div_ceil(4);
        }
    }
    let tpb = params.threads_per_block;
    let mut mach = Machine {
        ins,
        labels,
        params: params_map,
        global,
        shared_syms,
        shared: vec![vec![0xdead_beef; words.max(1) as usize]; a.blocks as usize],
        tpb,
        clock: 0,
    };
    let mut threads: Vec<Th> = (0..a.blocks * tpb)
        .map(|gid| Th {
            block: (gid / tpb) as usize,
            tid: gid % tpb,
            pc: 0,
            regs: HashMap::new(),
            st: St::Running,
        })
        .collect();
    let mut rng = Rng::new(launch_seed ^ 0xabc);
    let mut steps = 0u64;
    loop {
        let runnable: Vec<usize> = (0..threads.len())
            .filter(|t| threads[*t].st == St::Running)
            .collect();
        if runnable.is_empty() {
            let mut released = false;
            for b in 0..a.blocks as usize {
                let ts = &mut threads[b * tpb as usize..(b + 1) * tpb as usize];
                if ts.iter().any(|t| t.st == St::Barrier) {
                    assert!(ts.iter().all(|t| t.st != St::Running));
                    for t in ts.iter_mut().filter(|t| t.st == St::Barrier) {
                        t.st = St::Running;
                    }
                    released = true;
                }
            }
            if !released {
                break;
            }
            continue;
        }
        let t = runnable[rng.below(runnable.len())];
        // A short burst keeps the schedule random but the run fast.
        for _ in 0..1 + rng.below(4) {
            if threads[t].st != St::Running {
                break;
            }
            let mut th = std::mem::replace(
                &mut threads[t],
                Th {
                    block: 0,
                    tid: 0,
                    pc: 0,
                    regs: HashMap::new(),
                    st: St::Done,
                },
            );
            mach.step(&mut th);
            threads[t] = th;
            steps += 1;
        }
        assert!(steps < 50_000_000, "the kernel does not terminate");
    }
    let results = mach.global[3].1.clone();
    let gmem = mach.global[2].1.clone();
    (results, gmem)
}

fn corpus() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/paper000"),
    )
    .unwrap()
    .flatten()
    .map(|e| e.path())
    .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
    .collect();
    let dat3m = Path::new("/work/shared/corpus/dat3m/litmus/PTX/Manual");
    for name in [
        "MP-cta-gpu",
        "SB+sc-cta",
        "CoRR-acquire-weak",
        "Atom-plus-register",
        "Atom-minus-location_",
        "LB+RMW-a",
        "MP-relaxed",
        "Red-plus-location_",
        "SB+acq_rel-cta",
        "Coherence",
    ] {
        let p = dat3m.join(format!("{name}.litmus"));
        if p.exists() {
            v.push(p);
        }
    }
    // GPUHarbor's WebGPU tests (JSON; relaxed atomics, some in workgroup memory).
    if let Ok(rd) = std::fs::read_dir(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/gpuharbor"),
    ) {
        v.extend(
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "json")),
        );
    }
    v.sort();
    v
}

fn check(path: &Path, params: &CudaParams, launches: u64) {
    check_form(path, params, launches, false)
}

/// `cuda_c`: run clang's PTX for the CUDA-C form instead of weft's PTX.
fn check_form(path: &Path, params: &CudaParams, launches: u64, cuda_c: bool) {
    // Non-test files (GPUHarbor's metadata JSON) are skipped.
    let Ok(p) = weft_litmus::parse(&std::fs::read_to_string(path).unwrap()) else {
        return;
    };
    let Ok(g) = generate(&p, params) else {
        return;
    };
    let sc = match classify(&p) {
        Ok(c) => c,
        Err(e) => {
            println!("{}: not classified ({e})", path.display());
            return;
        }
    };
    let ptx = if cuda_c {
        let Ok(c) = weft_cuda::Compiler::detect_clang() else {
            println!("skipping the CUDA-C form: no clang");
            return;
        };
        let opts = weft_cuda::CompileOptions {
            opt_level: 3,
            ..weft_cuda::CompileOptions::default()
        };
        c.compile_cuda(&g.cuda_c, "litmus.cu", &opts).unwrap().ptx
    } else {
        g.ptx.clone()
    };
    let mut hist: BTreeMap<Outcome, u64> = BTreeMap::new();
    let mut seeds = Rng::new(params.seed);
    for _ in 0..launches {
        let (res, gmem) = run_launch(&ptx, &g, params, seeds.next_u64());
        let d = layout::decode(&g.layout, params.instances_per_launch, &res, &gmem).unwrap();
        assert_eq!(
            d.stuck,
            0,
            "{}: an instance got stuck under SC",
            path.display()
        );
        layout::tally(&mut hist, d.outcomes);
    }
    let total = params.instances_per_launch as u64 * launches;
    let list = layout::finish(hist, 0, total).unwrap();
    if std::env::var_os("WEFT_SIM_PRINT").is_some() {
        println!("{}", path.display());
        for (o, c) in &list {
            println!("  {c:4} {:?} {:?} {:?}", o.regs, o.mem, sc.class_of(o));
        }
    }
    for (o, c) in &list {
        assert_ne!(
            sc.class_of(o),
            Class::Weak,
            "{}: {c} instances ended in {o:?}, which SC cannot reach (harness bug)",
            path.display()
        );
    }
}

#[test]
fn sc_execution_of_the_kernel_gives_only_sc_outcomes() {
    let plain = CudaParams {
        instances_per_launch: 12,
        iterations: 1,
        threads_per_block: 64,
        mem_stress: false,
        bank_conflicts: false,
        thread_randomisation: false,
        thread_sync: false,
        seed: 3,
        device: 0,
    };
    let all = CudaParams {
        mem_stress: true,
        bank_conflicts: true,
        thread_randomisation: true,
        thread_sync: true,
        ..plain.clone()
    };
    let files = corpus();
    assert!(files.len() >= 19);
    for f in &files {
        check(f, &plain, 2);
        check(f, &all, 2);
    }
}

#[test]
fn sc_execution_of_the_cuda_c_form_gives_only_sc_outcomes() {
    let all = CudaParams {
        instances_per_launch: 8,
        iterations: 1,
        threads_per_block: 64,
        mem_stress: true,
        bank_conflicts: true,
        thread_randomisation: true,
        thread_sync: true,
        seed: 5,
        device: 0,
    };
    let plain = CudaParams {
        mem_stress: false,
        bank_conflicts: false,
        thread_randomisation: false,
        thread_sync: false,
        ..all.clone()
    };
    for f in corpus() {
        check_form(&f, &plain, 1, true);
        check_form(&f, &all, 1, true);
    }
}

/// Runs `launches` launches and returns the outcomes and the stuck count.
fn run_all(
    p: &weft_ir::Program,
    params: &CudaParams,
    launches: u64,
    cuda_c: bool,
) -> (Vec<(Outcome, u64)>, u64) {
    let g = generate(p, params).unwrap();
    let ptx = if cuda_c {
        let c = weft_cuda::Compiler::detect_clang().unwrap();
        let opts = weft_cuda::CompileOptions {
            opt_level: 3,
            ..weft_cuda::CompileOptions::default()
        };
        c.compile_cuda(&g.cuda_c, "litmus.cu", &opts).unwrap().ptx
    } else {
        g.ptx.clone()
    };
    let mut hist: BTreeMap<Outcome, u64> = BTreeMap::new();
    let mut stuck = 0;
    let mut seeds = Rng::new(params.seed);
    for _ in 0..launches {
        let (res, gmem) = run_launch(&ptx, &g, params, seeds.next_u64());
        let d = layout::decode(&g.layout, params.instances_per_launch, &res, &gmem).unwrap();
        stuck += d.stuck;
        layout::tally(&mut hist, d.outcomes);
    }
    let total = params.instances_per_launch as u64 * launches;
    (layout::finish(hist, stuck, total).unwrap(), stuck)
}

#[test]
fn spin_locks_terminate_under_sc_and_keep_mutual_exclusion() {
    let dir = Path::new("/work/shared/corpus/dat3m/litmus/PTX/Manual");
    let params = CudaParams {
        instances_per_launch: 6,
        iterations: 1,
        threads_per_block: 64,
        mem_stress: true,
        bank_conflicts: false,
        thread_randomisation: true,
        thread_sync: true,
        seed: 11,
        device: 0,
    };
    // Ticket locks: under SC both threads never see x == 0 inside the critical section.
    for name in [
        "Ticketlock-same-gpu",
        "Ticketlock-acq2rlx-1",
        "Ticketlock-acq2rlx-2",
        "Ticketlock-rel2rlx",
    ] {
        let Ok(src) = std::fs::read_to_string(dir.join(format!("{name}.litmus"))) else {
            continue;
        };
        let p = weft_litmus::parse(&src).unwrap();
        let clang = weft_cuda::Compiler::detect_clang().is_ok();
        for cuda_c in [false, true] {
            if cuda_c && !clang {
                continue;
            }
            let (list, stuck) = run_all(&p, &params, 2, cuda_c);
            assert_eq!(stuck, 0, "{name}: stuck under SC");
            let prop = &p.condition.as_ref().unwrap().prop;
            for (o, c) in &list {
                assert!(
                    !o.satisfies(prop),
                    "{name}: {c} instances broke mutual exclusion under SC: {o:?}"
                );
            }
        }
    }
}

#[test]
fn a_loop_that_never_ends_marks_its_instances_stuck() {
    // P0 waits for x to change; nobody writes it.
    let src = "PTX spin\n{\nx=0;\nP0:r1=0;\n}\n P0@cta 0,gpu 0 ;\n LC00: ;\n ld.weak r0, x ;\n beq r0, r1, LC00 ;\nexists (P0:r0 == 1)\n";
    let p = weft_litmus::parse(src).unwrap();
    let params = CudaParams {
        instances_per_launch: 3,
        iterations: 1,
        threads_per_block: 32,
        mem_stress: false,
        bank_conflicts: false,
        thread_randomisation: false,
        thread_sync: false,
        seed: 1,
        device: 0,
    };
    let (list, stuck) = run_all(&p, &params, 1, false);
    assert_eq!(stuck, 3);
    assert!(list.is_empty());
    if weft_cuda::Compiler::detect_clang().is_ok() {
        let (list, stuck) = run_all(&p, &params, 1, true);
        assert_eq!(stuck, 3, "the CUDA-C form bounds the loop too");
        assert!(list.is_empty());
    }
}
