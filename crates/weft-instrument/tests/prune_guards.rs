//! §4.1's pruning and predication: an access under a guard covers only later accesses
//! under the same guard (`@p st; @!p st` are two paths of one branch, other lanes), and a
//! redefined predicate ends the coverage (counts derived by hand from the rule).

use weft_instrument::{instrument, Options};

fn logged_after_pruning(body: &str) -> (usize, usize) {
    let ptx = format!(
        ".version 7.0\n.target sm_70\n.address_size 64\n\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n{{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<3>;\n\n\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 16;\n{body}\tret;\n}}\n"
    );
    let i = instrument(&ptx, &Options { prune: true }).unwrap_or_else(|e| panic!("{e}\n{ptx}"));
    (i.stats.instrumented, i.stats.instrumented_pruned)
}

#[test]
fn complementary_guards_are_not_pruned() {
    assert_eq!(
        logged_after_pruning("\t@%p1 st.global.u32 [%rd2], 1;\n\t@!%p1 st.global.u32 [%rd2], 2;\n"),
        (2, 2)
    );
}

#[test]
fn same_guard_and_unguarded_cover() {
    // A write under `@%p1` covers a later write under `@%p1`.
    assert_eq!(
        logged_after_pruning("\t@%p1 st.global.u32 [%rd2], 1;\n\t@%p1 st.global.u32 [%rd2], 2;\n"),
        (2, 1)
    );
    // An unguarded write covers a guarded one (its lanes already wrote).
    assert_eq!(
        logged_after_pruning("\tst.global.u32 [%rd2], 1;\n\t@%p1 st.global.u32 [%rd2], 2;\n"),
        (2, 1)
    );
}

#[test]
fn redefined_predicate_ends_coverage() {
    assert_eq!(
        logged_after_pruning(
            "\t@%p1 st.global.u32 [%rd2], 1;\n\tsetp.ge.u32 %p1, %r1, 16;\n\t@%p1 st.global.u32 [%rd2], 2;\n"
        ),
        (2, 2)
    );
}
