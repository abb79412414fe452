//! The passes after lowering: loads through a kernel parameter's address (a struct passed by
//! value) become direct parameter loads, and instructions at `.loc` line 0 get a source line.
//! The PTX is shaped like clang-19's at -O3 (the struct kernel of issue 26 and the hoisted
//! `*g_count` load of Indigo3's triangle counting); expected values are read off the PTX by
//! hand: parameter offsets from PTX's layout rules (§5.1.6: each parameter at its alignment),
//! lines from the `.loc` directives.

use weft_ir::kernel::{AddrBase, KOp, Kernel, Operand};

/// `struct G { int n; int *a; }; __global__ void k(const int it, const G g, int *o)`:
/// `it` at 0 (4 bytes), `g` at 8 (16 bytes, align 8), `o` at 24.
const STRUCT_PTX: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(
	.param .u32 k_param_0,
	.param .align 8 .b8 k_param_1[16],
	.param .u64 k_param_2
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<12>;
	mov.u32 %r1, %tid.x;
	ld.param.u32 %r2, [k_param_1];
	setp.ge.u32 %p1, %r1, %r2;
	@%p1 bra $L__BB0_2;
	ld.param.u64 %rd3, [k_param_2];
	cvta.to.global.u64 %rd1, %rd3;
	mov.b64 %rd4, k_param_1;
	mov.u64 %rd2, %rd4;
	ld.param.u64 %rd5, [%rd2+8];
	cvta.to.global.u64 %rd6, %rd5;
	mov.b64 %rd10, k_param_1;
	@%p1 mov.b64 %rd10, k_param_0;
	ld.param.u32 %r3, [%rd10];
	st.global.u32 [%rd1], %r3;
	st.global.u64 [%rd1+8], %rd6;
$L__BB0_2:
	ret;
}
"#;

fn kernel(ptx: &str) -> Kernel {
    let m = weft_ptx::parse(ptx).expect("parses");
    weft_ptx::lower_kernel(&m, Some("k")).expect("lowers")
}

fn param_loads(k: &Kernel) -> Vec<(AddrBase, i64)> {
    k.code
        .iter()
        .filter_map(|i| match &i.op {
            KOp::Ld { addr, .. } => Some((addr.base, addr.offset)),
            _ => None,
        })
        .collect()
}

#[test]
fn struct_parameter_fields_are_read_through_the_parameter() {
    let k = kernel(STRUCT_PTX);
    let offsets: Vec<(u32, u32)> = k.params.iter().map(|p| (p.offset, p.size)).collect();
    assert_eq!(offsets, [(0, 4), (8, 16), (24, 8)]);
    // `mov.b64 %rd4, k_param_1` is the parameter's param-space address: its offset, 8.
    let movs: Vec<u64> = k
        .code
        .iter()
        .filter_map(|i| match i.op {
            KOp::Mov {
                src: Operand::Imm(v),
                ..
            } if i.guard.is_none() => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(movs, [8, 8]);
    let r10 = k.regs.iter().position(|r| r.name == "%rd10").unwrap();
    assert_eq!(
        param_loads(&k),
        [
            (AddrBase::Param(1), 0),
            (AddrBase::Param(2), 0),
            // [%rd2+8] with %rd2 = %rd4 = &k_param_1: the field `a` of `g`.
            (AddrBase::Param(1), 8),
            // %rd10 has two definitions (one guarded): left as a load through the register.
            (AddrBase::Reg(weft_ir::code::Reg(r10 as u32)), 0),
        ]
    );
}

/// Indigo3's `d_triCounting` at -O3, cut down: `(*g_count) += ...` (line 60) with the load
/// of `*g_count` hoisted before the loop at line 0.
const LINE0_PTX: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(
	.param .u64 k_param_0,
	.param .u32 k_param_1
)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<6>;
	.loc 1 45 0
	ld.param.u32 %r1, [k_param_1];
	.loc 1 53 5
	setp.ge.s32 %p1, %r1, 1;
	@%p1 bra $L__BB1_4;
	.loc 1 0 5
	ld.param.u64 %rd1, [k_param_0];
	cvta.to.global.u64 %rd3, %rd1;
	ld.global.u32 %r2, [%rd3];
	mov.u32 %r3, %r2;
	.loc 1 53 5
	mov.u32 %r4, 0;
$L__BB1_2:
	.loc 1 60 18
	add.s32 %r3, %r3, %r4;
	.loc 1 53 28
	add.s32 %r4, %r4, 1;
	setp.lt.s32 %p2, %r4, %r1;
	@%p2 bra $L__BB1_2;
	.loc 1 60 18
	st.global.u32 [%rd3], %r3;
	.loc 1 0 18
	st.global.u32 [%rd3+4], %r3;
$L__BB1_4:
	.loc 1 0 3
	st.global.u32 [%rd3+8], %r1;
	.loc 1 63 1
	ret;
}
.file 1 "/src/tc.cu"
"#;

#[test]
fn line_zero_instructions_take_a_source_line() {
    let k = kernel(LINE0_PTX);
    let mems: Vec<(bool, u32)> = k
        .code
        .iter()
        .filter_map(|i| match &i.op {
            KOp::Ld { .. } => Some((true, i.loc.map_or(u32::MAX, |l| l.line))),
            KOp::St { .. } => Some((false, i.loc.map_or(u32::MAX, |l| l.line))),
            _ => None,
        })
        .collect();
    assert_eq!(
        mems,
        [
            (true, 45),
            // ld.param at line 0: its value goes through cvta (line 0) to the global load
            // (line 0) and its copy (line 0) to the add on line 60.
            (true, 60),
            // the hoisted load of *g_count: read by the add on line 60 (through the copy).
            (true, 60),
            (false, 60),
            // a store at line 0 writes no register: the line before it in its block (60).
            (false, 60),
            // first in its block with no line before: the next line in the block (63).
            (false, 63),
        ]
    );
    assert!(k.code.iter().all(|i| i.loc.is_some_and(|l| l.line > 0)));
}
