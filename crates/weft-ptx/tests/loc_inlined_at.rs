//! `.loc ..., inlined_at F L C` (PTX ISA §11.5.2): the parser keeps the call site, and the
//! lowering attributes code inlined from weft's shim headers to the first position of the
//! inlining chain in a user file (expected lines read off the PTX by hand).

use weft_ptx::ast::{Item, Statement};

/// `(file, line, inlined_at)` of a `.loc`.
type Loc = (u32, u32, Option<(u32, u32, u32)>);

const PTX: &str = r#"
.version 7.5
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p)
{
.reg .b32 %r<4>;
.reg .b64 %rd<3>;
.loc 1 3 1
ld.param.u64 %rd1, [p];
cvta.to.global.u64 %rd2, %rd1;
.loc 1 4 3
st.global.u32 [%rd2], 1;
.loc 2 96 1, function_name $L__info_string0, inlined_at 1 9 3
atom.global.add.u32 %r1, [%rd2], 1;
.loc 2 40 5, function_name $L__info_string1, inlined_at 2 96 1
atom.global.add.u32 %r2, [%rd2+4], 1;
.loc 1 12 7, function_name $L__info_string2, inlined_at 1 20 2
st.global.u32 [%rd2+8], 2;
.loc 2 50 1
st.global.u32 [%rd2+12], 3;
ret;
}
.file 1 "/src/k.cu"
.file 2 "/tmp/weft-inc-x/weft_cuda.h"
"#;

#[test]
fn parser_keeps_inlined_at() {
    let m = weft_ptx::parse(PTX).expect("parses");
    let body = m
        .items
        .iter()
        .find_map(|it| match it {
            Item::Function(f) => f.body.as_ref(),
            _ => None,
        })
        .expect("a kernel body");
    let locs: Vec<Loc> = body
        .iter()
        .filter_map(|s| match s {
            Statement::Loc {
                file,
                line,
                inlined_at,
                ..
            } => Some((*file, *line, *inlined_at)),
            _ => None,
        })
        .collect();
    assert_eq!(
        locs,
        [
            (1, 3, None),
            (1, 4, None),
            (2, 96, Some((1, 9, 3))),
            (2, 40, Some((2, 96, 1))),
            (1, 12, Some((1, 20, 2))),
            (2, 50, None),
        ]
    );
}

#[test]
fn shim_code_takes_the_first_user_call_site() {
    let m = weft_ptx::parse(PTX).expect("parses");
    let k = weft_ptx::lower_kernel(&m, None).expect("lowers");
    let lines: Vec<u32> = k
        .code
        .iter()
        .filter(|i| {
            matches!(
                i.op,
                weft_ir::kernel::KOp::St { .. } | weft_ir::kernel::KOp::Atom { .. }
            )
        })
        .map(|i| i.loc.map_or(0, |l| l.line))
        .collect();
    // st at 4; the atom inlined from the shim at the call on line 9; the nested shim atom
    // (shim line 40 inlined into shim line 96, itself inlined at user line 9) also at 9; a
    // user helper's line stays its own (12: user code, not the shim); a shim position
    // without inlining information keeps the last user line (12).
    assert_eq!(lines, [4, 9, 9, 12, 12]);
}
