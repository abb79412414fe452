//! Parser tests: the typed AST of hand-written and clang-generated PTX (expected values
//! written here, from the PTX ISA), error positions and messages, and a property test that
//! no input makes the parser panic.

use proptest::prelude::*;
use std::path::Path;
use weft_ptx::ast::*;
use weft_ptx::parse;

fn data(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn features() -> Module {
    parse(&data("features.ptx")).unwrap()
}

/// The first instruction of the `features` kernel whose printed mnemonic is `m`.
fn find<'a>(module: &'a Module, m: &str) -> &'a Instruction {
    module
        .function("features")
        .unwrap()
        .instructions()
        .into_iter()
        .find(|i| i.mnemonic() == m)
        .unwrap_or_else(|| panic!("no `{m}`"))
}

#[test]
fn module_directives() {
    let m = features();
    assert_eq!(m.version, Some(Version { major: 7, minor: 8 }));
    assert_eq!(m.target, vec!["sm_70"]);
    assert_eq!(m.address_size, Some(64));
    assert_eq!(m.functions().count(), 3);
    assert_eq!(m.kernels().count(), 1);
    let ext = m.function("external_fn").unwrap();
    assert!(ext.body.is_none());
    assert_eq!(ext.returns.len(), 1);
}

#[test]
fn variables_and_initialisers() {
    let m = features();
    let vars: Vec<&Variable> = m.variables().collect();
    let by = |n: &str| *vars.iter().find(|v| v.name == n).unwrap();
    assert_eq!(by("counter").init, Some(Initializer::Int(0)));
    assert_eq!(
        by("table").init,
        Some(Initializer::List(vec![
            Initializer::Int(1),
            Initializer::Int(2),
            Initializer::Int(16),
            Initializer::Int(-1)
        ]))
    );
    assert_eq!(by("table").dims, vec![Some(4)]);
    let scale = by("scale");
    assert_eq!(scale.space, StateSpace::Const);
    assert_eq!(scale.init, Some(Initializer::F32(0x3F80_0000)));
    assert_eq!(
        by("ptr_to_table").init,
        Some(Initializer::Symbol {
            name: "table".into(),
            offset: 0,
            generic: true
        })
    );
    assert_eq!(by("grid").dims, vec![Some(2), Some(2)]);
    let dynamic = by("dynamic_smem");
    assert_eq!(dynamic.linkage, Some(Linkage::Extern));
    assert_eq!(dynamic.space, StateSpace::Shared);
    assert_eq!(dynamic.align, Some(16));
    assert_eq!(dynamic.dims, vec![None]);
    assert_eq!(by("weak_var").linkage, Some(Linkage::Weak));
}

#[test]
fn kernel_signature_and_declarations() {
    let m = features();
    let k = m.function("features").unwrap();
    assert_eq!(k.kind, FunctionKind::Entry);
    assert_eq!(k.linkage, Some(Linkage::Visible));
    assert_eq!(
        k.params[0].ptr,
        Some(PtrAttr {
            space: Some(StateSpace::Global),
            align: Some(4)
        })
    );
    assert_eq!(k.params[1].align, Some(8));
    assert_eq!(k.params[1].dims, vec![Some(16)]);
    assert_eq!(
        k.directives,
        vec![
            FunctionDirective::Maxntid(vec![128, 1, 1]),
            FunctionDirective::Minnctapersm(2)
        ]
    );
    let body = k.body.as_ref().unwrap();
    let regs: Vec<&RegDecl> = body
        .iter()
        .filter_map(|s| match s {
            Statement::Reg(r) => Some(r),
            _ => None,
        })
        .collect();
    let r32 = regs.iter().find(|r| r.ty == ScalarType::B32).unwrap();
    assert_eq!(
        r32.names,
        vec![RegName {
            name: "%r".into(),
            count: Some(40)
        }]
    );
    let locals = k.variables();
    assert_eq!(locals[0].space, StateSpace::Local);
    assert_eq!(locals[1].name, "buf");
    assert!(body
        .iter()
        .any(|s| matches!(s, Statement::Label { name, .. } if name == "$L__BB2_2")));
    assert!(body.iter().any(|s| matches!(s, Statement::Block { .. })));
}

#[test]
fn memory_qualifiers_are_typed() {
    let m = features();
    // written `ld.global.acquire.gpu.u32`: order-insensitive, printed in ISA order
    let ld = find(&m, "ld.acquire.gpu.global.u32");
    assert_eq!(ld.mods.sem, Some(Sem::Acquire));
    assert_eq!(ld.mods.scope, Some(Scope::Gpu));
    assert_eq!(ld.mods.space, Some(StateSpace::Global));
    assert_eq!(ld.mods.types, vec![ScalarType::U32]);
    assert_eq!(
        ld.operands[1],
        Operand::Addr(Address {
            base: AddrBase::Reg("%rd4".into()),
            offset: 0
        })
    );
    let nc = find(&m, "ld.global.nc.f32");
    assert!(nc.mods.nc);
    assert_eq!(
        nc.operands[1],
        Operand::Addr(Address {
            base: AddrBase::Reg("%rd4".into()),
            offset: -4
        })
    );
    let vol = find(&m, "ld.volatile.shared.u32");
    assert_eq!(vol.mods.sem, Some(Sem::Volatile));
    assert_eq!(
        vol.operands[1],
        Operand::Addr(Address {
            base: AddrBase::Symbol("buf".into()),
            offset: 8
        })
    );
    let st = find(&m, "st.release.cta.shared.u32");
    assert_eq!(st.mods.sem, Some(Sem::Release));
    let v2 = find(&m, "st.shared.v2.f32");
    assert_eq!(v2.mods.vector, Some(VecWidth::V2));
    assert_eq!(
        v2.operands[1],
        Operand::Vector(vec![Operand::Reg("%f1".into()), Operand::Reg("%f2".into())])
    );
    let v4 = find(&m, "ld.shared.v4.u32");
    assert!(matches!(&v4.operands[0], Operand::Vector(v) if v[2] == Operand::Sink));
    let cas = find(&m, "atom.acq_rel.sys.global.cas.b32");
    assert_eq!(cas.mods.atom, Some(AtomOp::Cas));
    assert_eq!(cas.operands.len(), 4);
    let red = find(&m, "red.global.add.u32");
    assert_eq!(red.opcode, Opcode::Red);
    assert_eq!(
        red.operands[0],
        Operand::Addr(Address {
            base: AddrBase::Symbol("counter".into()),
            offset: 0
        })
    );
    assert_eq!(
        find(&m, "red.release.gpu.global.max.s32").mods.atom,
        Some(AtomOp::Max)
    );
    assert_eq!(find(&m, "membar.gl").mods.scope, Some(Scope::Gpu));
    assert_eq!(find(&m, "membar.cta").mods.scope, Some(Scope::Cta));
    let f = find(&m, "fence.sc.gpu");
    assert_eq!(
        (f.mods.sem, f.mods.scope),
        (Some(Sem::Sc), Some(Scope::Gpu))
    );
    let f = find(&m, "fence.acq_rel.cta");
    assert_eq!(f.mods.sem, Some(Sem::AcqRel));
}

#[test]
fn synchronisation_and_warp_instructions() {
    let m = features();
    let bar = find(&m, "bar.sync");
    assert!(bar.mods.sync);
    assert_eq!(bar.operands, vec![Operand::Int(0)]);
    assert_eq!(
        find(&m, "barrier.sync").operands,
        vec![Operand::Int(1), Operand::Int(64)]
    );
    assert!(find(&m, "barrier.sync.aligned").mods.aligned);
    assert!(find(&m, "bar.arrive").mods.arrive);
    assert_eq!(
        find(&m, "bar.red.popc.u32").mods.bar_red,
        Some(BarRedOp::Popc)
    );
    let ws = find(&m, "bar.warp.sync");
    assert!(ws.mods.warp && ws.mods.sync);
    assert_eq!(ws.operands, vec![Operand::Int(-1)]);
    let shfl = find(&m, "shfl.sync.down.b32");
    assert_eq!(shfl.mods.shfl, Some(ShflMode::Down));
    assert_eq!(
        shfl.operands[0],
        Operand::PredPair("%r33".into(), "%p2".into())
    );
    assert_eq!(
        find(&m, "vote.sync.ballot.b32").mods.vote,
        Some(VoteMode::Ballot)
    );
    assert_eq!(
        find(&m, "vote.sync.all.pred").operands[2],
        Operand::Int(0xffff_ffff)
    );
    assert_eq!(find(&m, "activemask.b32").operands.len(), 1);
    let shf = find(&m, "shf.l.wrap.b32");
    assert_eq!(
        (shf.mods.shf_dir, shf.mods.shf_mode),
        (Some(ShfDir::L), Some(ShfMode::Wrap))
    );
}

#[test]
fn arithmetic_control_and_operands() {
    let m = features();
    assert_eq!(find(&m, "mul.wide.s32").mods.mul, Some(MulMode::Wide));
    assert_eq!(find(&m, "mul.hi.u32").mods.mul, Some(MulMode::Hi));
    let setp = find(&m, "setp.lt.s32");
    assert_eq!(setp.mods.cmp, Some(CmpOp::Lt));
    let setp2 = find(&m, "setp.ge.and.u32");
    assert_eq!(setp2.mods.bool_op, Some(BoolOp::And));
    assert_eq!(
        setp2.operands[0],
        Operand::PredPair("%p2".into(), "%p3".into())
    );
    assert_eq!(
        setp2.operands[3],
        Operand::Not(Box::new(Operand::Reg("%p1".into())))
    );
    let cvt = find(&m, "cvt.rn.f32.s32");
    assert_eq!(cvt.mods.rounding, Some(Rounding::Rn));
    assert_eq!(cvt.mods.types, vec![ScalarType::F32, ScalarType::S32]);
    assert_eq!(
        find(&m, "cvt.rzi.s32.f32").mods.rounding,
        Some(Rounding::Rzi)
    );
    let cvta = find(&m, "cvta.to.global.u64");
    assert!(cvta.mods.to);
    assert_eq!(
        find(&m, "mul.rn.f32").operands[2],
        Operand::F32(0x3F00_0000)
    );
    assert_eq!(
        find(&m, "add.f64").operands[2],
        Operand::F64(0x3FF0_0000_0000_0000)
    );
    let da = find(&m, "div.approx.ftz.f32");
    assert!(da.mods.approx && da.mods.ftz);
    let mov = find(&m, "mov.u32");
    assert_eq!(mov.operands[1], Operand::Special(SpecialReg::Tid(Dim::X)));
    let k = m.function("features").unwrap();
    let ins = k.instructions();
    assert!(ins
        .iter()
        .any(|i| i.operands.get(1) == Some(&Operand::Special(SpecialReg::Laneid))));
    assert!(ins
        .iter()
        .any(|i| i.operands.get(1) == Some(&Operand::Special(SpecialReg::Warpid))));
    assert!(ins
        .iter()
        .any(|i| i.operands.get(1) == Some(&Operand::Special(SpecialReg::Nctaid(Dim::Y)))));
    let bra = ins
        .iter()
        .find(|i| i.opcode == Opcode::Bra && i.guard.is_some())
        .unwrap();
    assert_eq!(
        bra.guard,
        Some(Guard {
            negated: false,
            pred: "%p1".into()
        })
    );
    assert!(find(&m, "bra.uni").mods.uni);
    let exit = ins.iter().find(|i| i.opcode == Opcode::Exit).unwrap();
    assert!(exit.guard.as_ref().unwrap().negated);
    let call = find(&m, "call.uni");
    assert_eq!(
        call.operands,
        vec![
            Operand::List(vec![Operand::Symbol {
                name: "retval0".into(),
                offset: 0
            }]),
            Operand::Symbol {
                name: "add_one".into(),
                offset: 0
            },
            Operand::List(vec![Operand::Symbol {
                name: "param0".into(),
                offset: 0
            }]),
        ]
    );
    assert_eq!(
        find(&m, "mov.u64").operands[1].to_string(),
        "__local_depot0"
    );
}

#[test]
fn clang_output_facts() {
    // crates/weft-ptx/tests/data/scoped_mp.ptx was produced by clang-19 from
    // tests/kernels/ptx-smoke/scoped_mp.cu.
    let m = parse(&data("scoped_mp.ptx")).unwrap();
    assert_eq!(m.version, Some(Version { major: 7, minor: 0 }));
    let k = m.kernels().next().unwrap();
    assert_eq!(k.name, "_Z9scoped_mpPiS_S_");
    let ins = k.instructions();
    assert!(ins.iter().any(|i| i.mnemonic() == "st.release.gpu.b32"));
    assert!(ins.iter().any(|i| i.mnemonic() == "ld.acquire.gpu.b32"));
    let m = parse(&data("local_barrier_atomic.cl20.ptx")).unwrap();
    assert_eq!(m.target, vec!["sm_70", "texmode_independent"]);
    let k = m.kernels().next().unwrap();
    assert_eq!(k.linkage, None);
    assert!(k
        .instructions()
        .iter()
        .any(|i| i.mnemonic() == "atom.relaxed.gpu.add.s32"));
}

#[test]
fn instruction_display_round_trips() {
    let m = features();
    for i in m.instructions() {
        let text = format!(
            ".version 7.0\n.target sm_70\n.address_size 64\n.entry k() {{ .reg .b32 x; {i} }}"
        );
        let again = parse(&text).unwrap_or_else(|e| panic!("{i}: {e}"));
        let j = again.instructions()[0];
        assert_eq!(
            (j.opcode, &j.mods, &j.operands),
            (i.opcode, &i.mods, &i.operands),
            "{i}"
        );
    }
}

/// Parses `body` inside a kernel and returns the error as `line:col: message`.
fn body_error(body: &str) -> String {
    let text =
        format!(".version 7.0\n.target sm_70\n.address_size 64\n.entry k()\n{{\n{body}\n}}\n");
    parse(&text).unwrap_err().to_string()
}

#[test]
fn errors_name_the_position_and_the_instruction() {
    assert_eq!(
        body_error("\tfrobnicate.u32 %r1;"),
        "6:2: unknown instruction `frobnicate`"
    );
    assert_eq!(
        body_error("\tld.global.bogus.u32 %r1, [%rd1];"),
        "6:11: unknown qualifier `.bogus` in `ld`"
    );
    assert_eq!(
        body_error("\tadd.global.u32 %r1, %r2, %r3;"),
        "6:5: qualifier `.global` is not valid for `add`"
    );
    assert_eq!(
        body_error("\tld.global.shared.u32 %r1, [%rd1];"),
        "6:11: conflicting qualifiers `.global` and `.shared` in `ld`"
    );
    assert_eq!(
        body_error("\tld.acquire.global.u32 %r1, [%rd1];"),
        "6:2: `ld.acquire` needs a scope (`.cta`, `.cluster`, `.gpu` or `.sys`)"
    );
    assert_eq!(
        body_error("\tst.acquire.gpu.u32 [%rd1], %r1;"),
        "6:2: `st` cannot be `.acquire`"
    );
    assert_eq!(
        body_error("\tmembar.gpu;"),
        "6:8: `membar` takes `.cta`, `.gl` or `.sys`, not `.gpu`"
    );
    assert_eq!(
        body_error("\tfence.gpu;"),
        "6:2: `fence` needs an ordering and a scope (`fence.sc.gpu`)"
    );
    assert_eq!(
        body_error("\tatom.global.u32 %r1, [%rd1], 1;"),
        "6:2: `atom` needs an operation (`.add`, `.cas`, ...)"
    );
    assert_eq!(
        body_error("\tadd.s32 %r1, %r2 %r3;"),
        "6:19: expected `,` or `;` after an operand of `add`, found `%r3`"
    );
    assert_eq!(
        body_error("\tld.global.u32 %r1, [%rd1+];"),
        "6:27: expected an offset after `+`, found `]`"
    );
    assert_eq!(
        body_error("\tmov.u32 %r1, %tid;"),
        "6:19: special register `%tid` needs a component `.x`, `.y` or `.z`"
    );
    assert_eq!(
        body_error("\tmov.f32 %f1, 0f3F80;"),
        "6:15: hex float constant `0f3F80` needs exactly 8 hex digits"
    );
    assert_eq!(
        body_error("\tcvt.u32 %r1, %rd1;"),
        "6:2: `cvt` needs a destination and a source type (`cvt.u64.u32`)"
    );
    assert_eq!(
        body_error("\tadd.s32.u32 %r1, %r2, %r3;"),
        "6:9: too many types in `add`: `.u32` after `.s32`"
    );
    assert_eq!(
        body_error("\tshfl.down.b32 %r1, %r2, 1, 31;"),
        "6:2: `shfl` must be written `shfl.sync` with a mode (`.down`, ...)"
    );
}

#[test]
fn structural_errors() {
    let e = parse(".version 7.0\n.target sm_70\n.entry k()\n{\n\tret;\n").unwrap_err();
    assert_eq!((e.line, e.col), (6, 1));
    assert!(e.message.contains("missing `}`"), "{e}");
    let e = parse(".version seven\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "1:10: expected a version `major.minor`, found `seven`"
    );
    let e = parse(".version 7.0\n.address_size 48\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "2:15: `.address_size` must be 32 or 64, not 48"
    );
    let e = parse("ret;").unwrap_err();
    assert_eq!(
        e.to_string(),
        "1:1: expected a directive at module level, found `ret`"
    );
    let e = parse(".entry k(.param .u64 .bogus p) { ret; }").unwrap_err();
    assert_eq!(
        e.to_string(),
        "1:22: unexpected `.bogus` in a parameter declaration"
    );
    let e = parse(".entry k() { .reg .b32 %tid; }").unwrap_err();
    assert!(e.message.contains("special register"), "{e}");
    // DWARF sections are skipped; other sections and unterminated ones are refused.
    assert!(parse(".section .debug_info { .b8 1 { } }").is_ok());
    let e = parse(".section .text { }").unwrap_err();
    assert!(e.message.contains("not supported"), "{e}");
    let e = parse(".section .debug_info { .b8 1").unwrap_err();
    assert!(e.message.contains("unterminated"), "{e}");
    let deep = format!(".entry k() {}{}", "{".repeat(200), "}".repeat(200));
    let e = parse(&deep).unwrap_err();
    assert!(e.message.contains("nested deeper"), "{e}");
    assert_eq!(e.render("x.ptx"), format!("x.ptx:{e}"));
}

#[test]
fn empty_and_comment_only_modules() {
    assert_eq!(parse("").unwrap(), Module::default());
    assert_eq!(parse("// nothing\n/* here */").unwrap(), Module::default());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Arbitrary text never panics the parser.
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,200}") {
        let _ = parse(&s);
    }

    /// PTX-like token soup never panics the parser.
    #[test]
    fn token_soup_never_panics(toks in proptest::collection::vec(prop_oneof![
        Just(".version 7.0"), Just(".entry"), Just(".func"), Just("k"), Just("("), Just(")"),
        Just("{"), Just("}"), Just("["), Just("]"), Just(";"), Just(","), Just("@%p1"),
        Just("ld.global.u32"), Just("%r1"), Just("%tid.x"), Just("0f3F800000"), Just("-"),
        Just(".reg .b32 %r<4>;"), Just("+"), Just("4"), Just("$L1:"), Just("|"), Just("!"),
        Just("call.uni"), Just(".param .u64 p"), Just("= {1, 2}"), Just(".global .u32 g"),
    ], 0..60)) {
        let _ = parse(&toks.join(" "));
    }

    /// Deleting any byte range of real clang output never panics the parser.
    #[test]
    fn truncated_real_ptx_never_panics(a in 0usize..4000, len in 0usize..200) {
        let text = data("features.ptx");
        let bytes = text.as_bytes();
        let a = a.min(bytes.len());
        let b = (a + len).min(bytes.len());
        let mut cut = bytes[..a].to_vec();
        cut.extend_from_slice(&bytes[b..]);
        let _ = parse(&String::from_utf8_lossy(&cut));
    }
}

/// The PTX fuzz target's seeds (fuzz/seeds/ptx: debug labels between call operands,
/// `.callprototype` with indirect calls, `.loc ... function_name ..., inlined_at F L C`
/// (PTX ISA §11.5.2) and a `.section .debug_str` block) are valid PTX: each parses and every
/// kernel in it lowers, so the fuzzer starts from inputs that reach the newer syntax.
#[test]
fn fuzz_seeds_parse_and_lower() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/ptx");
    let mut seen = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let mut text = std::fs::read_to_string(&p).unwrap();
        if !text.contains(".version") {
            // A body fragment: the fuzz target's kernel head (fuzz/fuzz_targets/ptx.rs).
            text = format!(
                ".version 7.0\n.target sm_70\n.address_size 64\n\
                 .extern .func __weft_annot_assert(.param .b32 a);\n\
                 .visible .entry k(.param .u64 .ptr .shared .align 4 k_param_0)\n{{\n\
                 .reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n{text}\n}}\n"
            );
        }
        let m = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let names: Vec<String> = m.kernels().map(|k| k.name.clone()).collect();
        assert!(!names.is_empty(), "{}: no kernel", p.display());
        for n in names {
            weft_ptx::lower_kernel_all(&m, Some(&n))
                .unwrap_or_else(|e| panic!("{}: {n}: {e:?}", p.display()));
        }
        seen += 1;
    }
    assert!(seen >= 3, "{seen} seeds");
    // The inlining form of `.loc` is in the seeds.
    let inl = std::fs::read_to_string(dir.join("loc_inlined_at_callprototype.ptx")).unwrap();
    assert!(inl.contains("inlined_at 1 5 21") && inl.contains(".callprototype"));
}
