//! Code generation checked against the source tests: every paper-000 GPU_PTX test and a
//! broad sample of Dat3M PTX tests generate PTX that weft-ptx parses, and each test
//! thread's body holds the memory instructions and fences written in the *litmus file*
//! (read here from the file's text, not from the generator), in order. The CUDA-C form is
//! compiled with clang-19 when it is installed and checked the same way.

use std::path::{Path, PathBuf};

use weft_hw_cuda::{generate, CudaParams};
use weft_ptx::ast::{Opcode, Operand};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn dat3m_dir() -> PathBuf {
    PathBuf::from("/work/shared/corpus/dat3m/litmus/PTX")
}

fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut v: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            litmus_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "litmus") {
            out.push(p);
        }
    }
}

/// The memory instructions of each thread column as written in the litmus file,
/// normalised to what PTX spells for them: `.weak` is the default and dropped, types and
/// state spaces are dropped (the kernel adds the location's space and a 32-bit type),
/// `atom.sub v` is `atom.add -v` (PTX has no `atom.sub`), and `red` with acquire semantics
/// is an `atom` (PTX `red` allows only `.relaxed`/`.release`).
fn source_columns(src: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = src.lines().collect();
    // The header row of the thread columns: `T0 | T1 ;` or `P0@cta 0,gpu 0 | ... ;`.
    let start = lines
        .iter()
        .position(|l| {
            let first = l.split('|').next().unwrap_or("").trim();
            let w = first
                .split(|c: char| c == '@' || c.is_whitespace() || c == ';')
                .next()
                .unwrap_or("");
            (w.starts_with('P') || w.starts_with('T'))
                && w.len() > 1
                && w[1..].chars().all(|c| c.is_ascii_digit())
                && l.trim_end().ends_with(';')
        })
        .expect("thread header");
    let ncols = lines[start].split('|').count();
    let mut cols = vec![Vec::new(); ncols];
    for l in &lines[start + 1..] {
        let t = l.trim_end();
        if !t.ends_with(';') {
            break;
        }
        for (c, cell) in t.trim_end_matches(';').split('|').enumerate() {
            let mut words = cell.split_whitespace();
            let mut w = words.next().unwrap_or("");
            if w.starts_with('@') {
                w = words.next().unwrap_or("");
            }
            let w = w.to_ascii_lowercase();
            let head = w.split('.').next().unwrap_or("");
            if !["ld", "st", "atom", "red", "membar", "fence"].contains(&head) {
                continue;
            }
            if c < ncols {
                cols[c].push(normalise(&w));
            }
        }
    }
    cols
}

fn normalise(m: &str) -> String {
    let mut parts: Vec<&str> = m
        .split('.')
        .filter(|p| {
            !matches!(
                *p,
                "weak" | "global" | "shared" | "s32" | "u32" | "b32" | "s64" | "u64" | "b64"
            )
        })
        .collect();
    let is_rmw = parts[0] == "atom" || parts[0] == "red";
    if is_rmw {
        for p in parts.iter_mut() {
            if *p == "sub" {
                *p = "add";
            }
        }
        if parts[0] == "red"
            && parts
                .iter()
                .any(|p| *p == "acquire" || *p == "acq_rel" || *p == "cas" || *p == "exch")
        {
            parts[0] = "atom";
        }
    }
    parts.join(".")
}

/// The memory instructions and fences between the clock markers of each test thread in
/// the generated PTX, normalised like the source.
fn generated_columns(m: &weft_ptx::Module, threads: usize) -> Vec<Vec<String>> {
    let k = m.kernels().next().expect("one kernel");
    let ins = k.instructions();
    let mut cols = Vec::new();
    for t in 0..threads {
        let marker = |i: &&weft_ptx::Instruction, c: &str| {
            i.opcode == Opcode::Mov
                && matches!(i.operands.first(), Some(Operand::Reg(r)) if r == &format!("%t{t}_{c}"))
        };
        let s = ins
            .iter()
            .position(|i| marker(i, "c0"))
            .expect("start marker");
        let e = ins
            .iter()
            .position(|i| marker(i, "c1"))
            .expect("end marker");
        assert!(s < e);
        cols.push(
            ins[s + 1..e]
                .iter()
                .filter(|i| {
                    matches!(
                        i.opcode,
                        Opcode::Ld
                            | Opcode::St
                            | Opcode::Atom
                            | Opcode::Red
                            | Opcode::Membar
                            | Opcode::Fence
                    )
                })
                .map(|i| normalise(&i.mnemonic()))
                .collect(),
        );
    }
    cols
}

fn param_sets() -> Vec<CudaParams> {
    let base = CudaParams {
        instances_per_launch: 64,
        iterations: 1,
        ..CudaParams::default()
    };
    vec![
        CudaParams {
            mem_stress: false,
            bank_conflicts: false,
            thread_randomisation: false,
            thread_sync: false,
            ..base.clone()
        },
        CudaParams {
            mem_stress: true,
            bank_conflicts: true,
            thread_randomisation: true,
            thread_sync: true,
            threads_per_block: 128,
            ..base
        },
    ]
}

fn check_file(path: &Path) -> Result<(), String> {
    let src = std::fs::read_to_string(path).unwrap();
    let p = weft_litmus::parse(&src).map_err(|e| format!("parse: {e}"))?;
    let want = source_columns(&src);
    assert_eq!(want.len(), p.threads.len(), "{}: columns", path.display());
    for params in param_sets() {
        let g = generate(&p, &params).map_err(|e| e.to_string())?;
        let m = weft_ptx::parse(&g.ptx).unwrap_or_else(|e| {
            panic!(
                "{}: generated PTX does not parse: {e}\n{}",
                path.display(),
                g.ptx
            )
        });
        let got = generated_columns(&m, p.threads.len());
        assert_eq!(
            got,
            want,
            "{}: access order differs from the source",
            path.display()
        );
        // The expected sequence kept for optcheck agrees too.
        let kept: Vec<Vec<String>> = g
            .expected
            .iter()
            .map(|t| t.iter().map(|(_, m)| normalise(m)).collect())
            .collect();
        assert_eq!(kept, want, "{}: optcheck's expectation", path.display());
    }
    Ok(())
}

#[test]
fn every_paper000_test_generates_ptx_in_source_order() {
    let mut files = Vec::new();
    litmus_files(&root().join("tests/corpus/paper000"), &mut files);
    assert_eq!(files.len(), 19, "the 19 tests of paper 000");
    for f in &files {
        check_file(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    }
}

#[test]
fn dat3m_ptx_sample_generates_or_refuses_clearly() {
    let mut files = Vec::new();
    litmus_files(&dat3m_dir(), &mut files);
    if files.is_empty() {
        println!("skipping: no Dat3M corpus at {}", dat3m_dir().display());
        return;
    }
    let mut ok = 0;
    let mut refused = Vec::new();
    for f in &files {
        match check_file(f) {
            Ok(()) => ok += 1,
            Err(e) => {
                // A refusal names what it cannot run.
                assert!(
                    e.contains("cannot generate CUDA code") || e.starts_with("parse:"),
                    "{}: {e}",
                    f.display()
                );
                refused.push(format!("{}: {e}", f.file_name().unwrap().to_string_lossy()));
            }
        }
    }
    println!("{ok} generated, {} refused", refused.len());
    for r in &refused {
        println!("  {r}");
    }
    assert!(ok >= 60, "only {ok} Dat3M PTX tests generated");
}

#[test]
fn refusals_name_the_instruction() {
    let cases = [
        ("Manual/SB+bar-const-equal.litmus", "bar"),
        ("Manual/Ticketlock-diff-gpu.litmus", "different GPUs"),
    ];
    for (f, needle) in cases {
        let path = dat3m_dir().join(f);
        let Ok(src) = std::fs::read_to_string(&path) else {
            println!("skipping {f}: not present");
            continue;
        };
        let p = weft_litmus::parse(&src).unwrap();
        let e = generate(&p, &CudaParams::default()).unwrap_err();
        assert!(e.to_string().contains(needle), "{f}: {e}");
    }
}

#[test]
fn cuda_c_compiles_with_clang_and_keeps_the_accesses() {
    let compiler = match weft_cuda::Compiler::detect_clang() {
        Ok(c) => c,
        Err(e) => {
            println!("skipping: {e}");
            return;
        }
    };
    let mut files = Vec::new();
    litmus_files(&root().join("tests/corpus/paper000"), &mut files);
    for name in [
        "MP-cta-gpu",
        "SB+sc-cta",
        "CoRR-acquire-weak",
        "Atom-plus-register",
    ] {
        let p = dat3m_dir().join("Manual").join(format!("{name}.litmus"));
        if p.exists() {
            files.push(p);
        }
    }
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let p = weft_litmus::parse(&src).unwrap();
        let want = source_columns(&src);
        let params = param_sets().pop().unwrap();
        let g = generate(&p, &params).unwrap();
        let opts = weft_cuda::CompileOptions {
            opt_level: 3,
            ..weft_cuda::CompileOptions::default()
        };
        let out = compiler
            .compile_cuda(&g.cuda_c, "litmus.cu", &opts)
            .unwrap_or_else(|e| panic!("{}: clang: {e}\n{}", f.display(), g.cuda_c));
        let m = out
            .module()
            .unwrap_or_else(|e| panic!("{}: clang's PTX does not parse: {e}", f.display()));
        assert!(m.kernels().any(|k| k.name == "weft_litmus"));
        // The test accesses appear (as inline asm) in source order per thread; clang lays
        // out the thread bodies in order, so the concatenation matches.
        let all: Vec<String> = m
            .kernels()
            .flat_map(|k| k.instructions())
            .filter(|i| {
                matches!(
                    i.opcode,
                    Opcode::Ld
                        | Opcode::St
                        | Opcode::Atom
                        | Opcode::Red
                        | Opcode::Membar
                        | Opcode::Fence
                ) && i.mods.space != Some(weft_ptx::ast::StateSpace::Param)
            })
            .map(|i| normalise(&i.mnemonic()))
            .collect();
        let mut pos = 0;
        for (t, col) in want.iter().enumerate() {
            for w in col {
                match all[pos..].iter().position(|x| x == w) {
                    Some(k) => pos += k + 1,
                    None => panic!(
                        "{}: thread {t}: {w} missing or out of order in clang's PTX: {all:?}",
                        f.display()
                    ),
                }
            }
        }
    }
}

/// What weft-ptx does not check but the driver's JIT would reject: every register used is
/// declared (predicates as `.pred`, address bases as 64-bit), every branch target is a
/// label of the kernel, every symbol is a parameter, a module variable or a label; and the
/// text is ASCII (ptxas stops at the first other byte: "Unexpected non-ASCII character",
/// seen on an H100 with driver 580 when a comment held a section sign).
fn check_well_formed(ptx: &str, what: &str) {
    use std::collections::HashMap;
    if let Some((line, text)) = ptx.lines().enumerate().find(|(_, l)| !l.is_ascii()) {
        panic!("{what}: non-ASCII PTX on line {}: {text}", line + 1);
    }
    use weft_ptx::ast::{AddrBase, Item, ScalarType, Statement};
    let m = weft_ptx::parse(ptx).unwrap();
    let k = m.kernels().next().unwrap();
    let mut regs: HashMap<String, ScalarType> = HashMap::new();
    let mut labels = Vec::new();
    fn walk(body: &[Statement], regs: &mut HashMap<String, ScalarType>, labels: &mut Vec<String>) {
        for s in body {
            match s {
                Statement::Reg(d) => {
                    for n in &d.names {
                        match n.count {
                            Some(c) => {
                                for i in 0..c {
                                    regs.insert(format!("{}{i}", n.name), d.ty);
                                }
                            }
                            None => {
                                regs.insert(n.name.clone(), d.ty);
                            }
                        }
                    }
                }
                Statement::Label { name, .. } => labels.push(name.clone()),
                Statement::Block { body, .. } => walk(body, regs, labels),
                _ => {}
            }
        }
    }
    walk(k.body.as_deref().unwrap_or(&[]), &mut regs, &mut labels);
    let mut symbols: Vec<String> = k.params.iter().map(|p| p.name.clone()).collect();
    for it in &m.items {
        if let Item::Variable(v) = it {
            symbols.push(v.name.clone());
        }
    }
    let is64 = |t: &ScalarType| matches!(t, ScalarType::B64 | ScalarType::U64 | ScalarType::S64);
    fn uses(o: &Operand, out: &mut Vec<(String, bool)>) {
        match o {
            Operand::Reg(r) => out.push((r.clone(), false)),
            Operand::Addr(a) => {
                if let AddrBase::Reg(r) = &a.base {
                    out.push((r.clone(), true));
                }
            }
            Operand::Not(x) => uses(x, out),
            Operand::Vector(v) | Operand::List(v) => v.iter().for_each(|x| uses(x, out)),
            Operand::PredPair(a, b) => {
                out.push((a.clone(), false));
                out.push((b.clone(), false));
            }
            _ => {}
        }
    }
    for i in k.instructions() {
        if let Some(g) = &i.guard {
            assert_eq!(
                regs.get(&g.pred),
                Some(&ScalarType::Pred),
                "{what}: guard {}",
                g.pred
            );
        }
        let mut u = Vec::new();
        for o in &i.operands {
            uses(o, &mut u);
            if let Operand::Symbol { name, .. } = o {
                assert!(
                    labels.contains(name) || symbols.contains(name),
                    "{what}: unknown symbol {name} in {}",
                    i.mnemonic()
                );
            }
            if let Operand::Addr(a) = o {
                if let AddrBase::Symbol(s) = &a.base {
                    assert!(symbols.contains(s), "{what}: unknown symbol {s}");
                }
            }
        }
        for (r, addr) in u {
            let ty = regs
                .get(&r)
                .unwrap_or_else(|| panic!("{what}: {r} is not declared ({})", i.mnemonic()));
            if addr {
                assert!(is64(ty), "{what}: address register {r} is {ty:?}");
            }
        }
        if i.opcode == Opcode::Setp {
            if let Some(Operand::Reg(d)) = i.operands.first() {
                assert_eq!(
                    regs.get(d),
                    Some(&ScalarType::Pred),
                    "{what}: setp into {d}"
                );
            }
        }
        // Operand widths against the instruction type (ptxas rejects a mismatch).
        let Some(ty) = i.mods.types.first().copied() else {
            continue;
        };
        let w = |o: &Operand| match o {
            Operand::Reg(r) => regs.get(r).map(|t| t.bits()),
            _ => None,
        };
        let expect: Vec<Option<u32>> = match i.opcode {
            Opcode::Setp => {
                let mut v = vec![Some(1)];
                v.extend(i.operands[1..].iter().map(|_| Some(ty.bits())));
                if i.mods.bool_op.is_some() {
                    *v.last_mut().unwrap() = Some(1);
                }
                v
            }
            Opcode::Selp => vec![Some(ty.bits()), Some(ty.bits()), Some(ty.bits()), Some(1)],
            Opcode::Cvt => vec![Some(ty.bits()), i.mods.types.get(1).map(|t| t.bits())],
            Opcode::Mul if i.mods.mul == Some(weft_ptx::ast::MulMode::Wide) => {
                vec![Some(2 * ty.bits()), Some(ty.bits()), Some(ty.bits())]
            }
            _ => i.operands.iter().map(|_| Some(ty.bits())).collect(),
        };
        for (o, e) in i.operands.iter().zip(expect) {
            if let (Some(got), Some(e)) = (w(o), e) {
                assert_eq!(
                    got,
                    e,
                    "{what}: operand {o:?} of {} has {got} bits",
                    i.mnemonic()
                );
            }
        }
    }
}

#[test]
fn generated_ptx_declares_what_it_uses() {
    let mut files = Vec::new();
    litmus_files(&root().join("tests/corpus/paper000"), &mut files);
    litmus_files(&dat3m_dir(), &mut files);
    let mut n = 0;
    for f in &files {
        let Ok(p) = weft_litmus::parse(&std::fs::read_to_string(f).unwrap()) else {
            continue;
        };
        for params in param_sets() {
            if let Ok(g) = generate(&p, &params) {
                check_well_formed(&g.ptx, &f.display().to_string());
                n += 1;
            }
        }
    }
    assert!(n >= 2 * 79, "{n} kernels checked");
}

#[test]
#[should_panic(expected = "has 32 bits")]
fn the_well_formedness_check_catches_a_width_mismatch() {
    check_well_formed(
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n\t.reg .b32 %x;\n\t.reg .b64 %y;\n\tadd.u64 %y, %y, %x;\n\tret;\n}\n",
        "fixture",
    );
}

#[test]
#[should_panic(expected = "is not declared")]
fn the_well_formedness_check_catches_an_undeclared_register() {
    check_well_formed(
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n\t.reg .b64 %y;\n\tld.param.u64 %y, [a];\n\tst.global.u32 [%y], %z;\n\tret;\n}\n",
        "fixture",
    );
}

/// Every litmus file weft has (all formats: C, OpenCL, Vulkan, GPUHarbor JSON, PTX) either
/// generates or is refused with an error: none makes the generator panic.
#[test]
fn no_litmus_file_makes_the_generator_panic() {
    let mut files = Vec::new();
    litmus_files(&root().join("tests/corpus"), &mut files);
    litmus_files(Path::new("/work/shared/corpus/dat3m/litmus"), &mut files);
    let mut json = Vec::new();
    for dir in ["tests/corpus/gpuharbor"] {
        if let Ok(rd) = std::fs::read_dir(root().join(dir)) {
            json.extend(
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "json")),
            );
        }
    }
    files.extend(json);
    let (mut ok, mut refused) = (0, 0);
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        let Ok(p) = weft_litmus::parse_bytes(&bytes) else {
            continue;
        };
        for params in param_sets() {
            match generate(&p, &params) {
                Ok(_) => ok += 1,
                Err(e) => {
                    assert!(!e.message.is_empty());
                    refused += 1;
                }
            }
        }
    }
    println!(
        "{ok} generated, {refused} refused over {} files",
        files.len()
    );
    assert!(ok > 0);
}

#[test]
fn oversized_launches_are_refused() {
    let src = std::fs::read_to_string(root().join("tests/corpus/paper000/SB.litmus")).unwrap();
    let mut p = weft_litmus::parse(&src).unwrap();
    p.locations[1].size = 60_000;
    let params = CudaParams {
        instances_per_launch: 1 << 22,
        ..CudaParams::default()
    };
    let e = generate(&p, &params).unwrap_err();
    assert!(e.message.contains("fewer instances"), "{e}");
}

mod props {
    //! Random perturbations of real tests (orders, scopes, cache operators, spaces, guards,
    //! register and location indices, constants, parameters): `generate` never panics, and
    //! whatever it accepts is well-formed PTX.

    use super::*;
    use proptest::prelude::*;
    use weft_ir::{CacheOp, Expr, MemAttrs, MemSpace, Order, Scope, StmtKind};

    fn base() -> Vec<weft_ir::Program> {
        ["SB", "cas-sl", "dlb-mp", "coRR-L2-L1+membar.gl"]
            .iter()
            .map(|n| {
                let src = std::fs::read_to_string(
                    root().join(format!("tests/corpus/paper000/{n}.litmus")),
                )
                .unwrap();
                weft_litmus::parse(&src).unwrap()
            })
            .collect()
    }

    fn perturb(a: &mut MemAttrs, k: u64) {
        const ORDERS: [Order; 7] = [
            Order::Plain,
            Order::Relaxed,
            Order::Consume,
            Order::Acquire,
            Order::Release,
            Order::AcqRel,
            Order::SeqCst,
        ];
        a.order = ORDERS[(k % 7) as usize];
        a.scope = [
            None,
            Some(Scope::Cta),
            Some(Scope::Gpu),
            Some(Scope::System),
            Some(Scope::Warp),
        ][((k >> 3) % 5) as usize];
        a.cache = [
            None,
            Some(CacheOp::Cg),
            Some(CacheOp::Ca),
            Some(CacheOp::Cv),
        ][((k >> 6) % 4) as usize];
        a.volatile = (k >> 8) & 1 == 1;
        a.space = [
            None,
            Some(MemSpace::Global),
            Some(MemSpace::Shared),
            Some(MemSpace::Local),
        ][((k >> 9) % 4) as usize];
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
        #[test]
        fn perturbed_tests_generate_or_refuse(
            which in 0usize..4,
            edits in proptest::collection::vec((0usize..4, 0usize..8, any::<u64>()), 0..3),
            tpb in prop_oneof![4 => Just(64u32), 4 => Just(256), 1 => Just(32), 1 => Just(100), 1 => Just(2048)],
            n in prop_oneof![3 => Just(1u32), 3 => Just(33), 3 => Just(700), 1 => Just(0)],
            flags in 0u8..16,
        ) {
            let mut p = base().swap_remove(which);
            for (t, s, k) in edits {
                let nt = p.threads.len();
                let th = &mut p.threads[t % nt];
                if th.code.is_empty() {
                    continue;
                }
                let ns = th.code.len();
                let stmt = &mut th.code[s % ns];
                match (k >> 12) % 6 {
                    0 => stmt.guard = Some(weft_ir::Guard { reg: weft_ir::Reg((k >> 16) as u32 % 6), negated: k & 1 == 1 }),
                    1 => {
                        if let StmtKind::Store(st) = &mut stmt.kind {
                            st.value = Expr::Int((k >> 16) as i64 - (1 << 40));
                        }
                    }
                    2 => {
                        if let StmtKind::Load(l) = &mut stmt.kind {
                            l.addr = Expr::Addr(weft_ir::LocId((k >> 16) as u32 % 4));
                        }
                    }
                    _ => match &mut stmt.kind {
                        StmtKind::Load(l) => perturb(&mut l.attrs, k),
                        StmtKind::Store(st) => perturb(&mut st.attrs, k),
                        StmtKind::Rmw(r) => perturb(&mut r.attrs, k),
                        StmtKind::Fence(f) => perturb(&mut f.attrs, k),
                        _ => {}
                    },
                }
            }
            let params = CudaParams {
                instances_per_launch: n,
                threads_per_block: tpb,
                mem_stress: flags & 1 == 1,
                bank_conflicts: flags & 2 == 2,
                thread_randomisation: flags & 4 == 4,
                thread_sync: flags & 8 == 8,
                ..CudaParams::default()
            };
            if let Ok(g) = generate(&p, &params) {
                check_well_formed(&g.ptx, &p.name);
                let a = weft_hw_cuda::layout::assign(&g.layout, &params, 7);
                prop_assert!(a.is_ok());
            }
        }
    }
}

#[test]
fn a_proxy_fence_raises_the_ptx_version() {
    let src = std::fs::read_to_string(root().join("tests/corpus/paper000/SB.litmus")).unwrap();
    let mut p = weft_litmus::parse(&src).unwrap();
    let g = generate(&p, &CudaParams::default()).unwrap();
    assert!(g.ptx.contains(".version 7.0\n"));
    p.threads[0].code.insert(
        1,
        weft_ir::Stmt::new(
            weft_ir::StmtKind::Fence(weft_ir::Fence {
                kind: weft_ir::FenceKind::ProxyFence(None),
                attrs: weft_ir::MemAttrs::default(),
                spaces: vec![],
            }),
            weft_ir::Span::default(),
        ),
    );
    let g = generate(&p, &CudaParams::default()).unwrap();
    assert!(
        g.ptx.contains(".version 7.5\n"),
        "fence.proxy.alias needs PTX 7.5"
    );
    assert!(g.ptx.contains("fence.proxy.alias;"));
    // weft-ptx does not parse `fence.proxy.*` yet, so the PTX is not re-parsed here.
}
