//! Lowering PTX to the kernel IR: every kernel of the parser's test data lowers (except the
//! feature sampler's address initialiser, refused with its position), qualifiers land in
//! `MemAttrs`, and unsupported instructions are named with `line:col`.

use weft_ir::attrs::{MemSpace, Order, RmwOp};
use weft_ir::kernel::KOp;
use weft_ir::Scope;

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn all_test_data_lowers() {
    let dir = format!("{}/tests/data", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) != Some("ptx") {
            continue;
        }
        let m = weft_ptx::parse(&std::fs::read_to_string(&p).unwrap()).unwrap();
        for k in m.kernels() {
            let r = weft_ptx::lower_kernel(&m, Some(&k.name));
            if p.ends_with("features.ptx") {
                let e = r.unwrap_err();
                assert!(e.message.contains("address initialisers"), "{e}");
            } else {
                let k = r.unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                assert!(!k.code.is_empty());
                n += 1;
            }
        }
    }
    assert!(n >= 11, "lowered {n} kernels");
}

#[test]
fn scoped_qualifiers_become_mem_attrs() {
    let m = weft_ptx::parse(&data("scoped_atomics.ptx")).unwrap();
    let k = weft_ptx::lower_kernel(&m, None).unwrap();
    let mut seen = Vec::new();
    for i in &k.code {
        if let KOp::Atom { op, attrs, .. } = &i.op {
            seen.push((*op, attrs.order, attrs.scope));
        }
    }
    assert!(!seen.is_empty());
    assert!(
        seen.iter().all(|(_, o, s)| o.is_atomic() && s.is_some()),
        "{seen:?}"
    );
    assert!(seen.iter().any(|(op, _, _)| *op == RmwOp::Add));
}

#[test]
fn loads_stores_params_and_errors() {
    let src = ".version 7.0\n.target sm_70\n.address_size 64\n\
        .visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n{\n\
        .reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n\
        ld.param.u64 %rd1, [k_param_0];\nld.param.u32 %r1, [k_param_1];\n\
        ld.acquire.cta.shared.u32 %r2, [%rd1+8];\nsetp.lt.u32 %p1, %r2, %r1;\n\
        @%p1 bra $L1;\nst.release.gpu.global.u32 [%rd1], %r2;\n$L1:\nret;\n}\n";
    let m = weft_ptx::parse(src).unwrap();
    let k = weft_ptx::lower_kernel(&m, Some("k")).unwrap();
    assert_eq!(k.params.len(), 2);
    assert_eq!(k.params[1].offset, 8);
    assert_eq!(k.param_bytes, 12);
    match &k.code[2].op {
        KOp::Ld { attrs, .. } => {
            assert_eq!(attrs.order, Order::Acquire);
            assert_eq!(attrs.scope, Some(Scope::Cta));
            assert_eq!(attrs.space, Some(MemSpace::Shared));
        }
        o => panic!("{o:?}"),
    }
    assert!(k.code[4].guard.is_some());
    assert_eq!(k.code[4].op, KOp::Bra { target: 6 });
    // Unsupported and unknown things are errors with a position.
    let bad = src.replace("setp.lt.u32 %p1, %r2, %r1;", "sad.u32 %r3, %r2, %r1, %r1;");
    let e = weft_ptx::lower_kernel(&weft_ptx::parse(&bad).unwrap(), None).unwrap_err();
    assert_eq!(e.to_string(), "12:1: unsupported instruction `sad.u32`");
    let bad = src.replace("$L1:\n", "");
    let e = weft_ptx::lower_kernel(&weft_ptx::parse(&bad).unwrap(), None).unwrap_err();
    assert!(e.to_string().contains("undefined label `$L1`"), "{e}");
    let e = weft_ptx::lower_kernel(&m, Some("nope")).unwrap_err();
    assert!(e.message.contains("no kernel `nope`"));
}

#[test]
fn calls_are_inlined_and_recursion_refused() {
    let src = ".version 7.0\n.target sm_70\n.address_size 64\n\
        .func (.param .b32 f_ret) f(.param .b32 f_p)\n{\n.reg .b32 %r<3>;\n\
        ld.param.u32 %r1, [f_p];\nadd.s32 %r2, %r1, 1;\nst.param.b32 [f_ret], %r2;\nret;\n}\n\
        .visible .entry k()\n{\n.reg .b32 %r<3>;\n{\n.param .b32 a;\nst.param.b32 [a], 5;\n\
        .param .b32 r;\ncall.uni (r), f, (a);\nld.param.b32 %r1, [r];\n}\nret;\n}\n";
    let m = weft_ptx::parse(src).unwrap();
    let k = weft_ptx::lower_kernel(&m, Some("k")).unwrap();
    // st a; [ld p; add; st ret; ld ret -> t; bra end]; end: st t -> ret; ld r; exit (the
    // result crosses the `ret`'s jump in a register, `Lowerer::spill_cells`)
    assert_eq!(k.code.len(), 9);
    assert_eq!(k.code[5].op, KOp::Bra { target: 6 });
    assert!(matches!(&k.code[0].op, KOp::St { attrs, .. } if attrs.space == Some(MemSpace::Local)));
    assert!(matches!(&k.code[4].op, KOp::Ld { attrs, .. } if attrs.space == Some(MemSpace::Local)));
    assert!(matches!(&k.code[6].op, KOp::St { attrs, .. } if attrs.space == Some(MemSpace::Local)));
    // Callee registers are distinct from the caller's (and the result's carrier register).
    assert_eq!(k.regs.len(), 7);
    let rec = src.replace(
        "add.s32 %r2, %r1, 1;",
        "{\n.param .b32 b;\n.param .b32 q;\ncall.uni (q), f, (b);\n}\nadd.s32 %r2, %r1, 1;",
    );
    let e = weft_ptx::lower_kernel(&weft_ptx::parse(&rec).unwrap(), Some("k")).unwrap_err();
    assert!(e.message.contains("recursive `call` of `f`"), "{e}");
}
