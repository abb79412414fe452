//! Predicated regions (`predicate.rs`): which guarded memory instructions the detector
//! runs as one `if`/`else` (expected regions derived by hand from the module's rules).

use weft_race::predicate::Regions;

const HEAD: &str = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<9>;\n.reg .b64 %rd<4>;\n.reg .pred %p<3>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 16;\n";

/// `(region, negated)` of each guarded memory instruction of `body`, regions renumbered
/// from 1 in order of appearance.
fn regions(body: &str) -> Vec<(u32, bool)> {
    let text = format!("{HEAD}{body}\nret;\n}}\n");
    let m = weft_ptx::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let k = weft_ptx::lower_kernel(&m, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let r = Regions::of(&k);
    let mut ids = Vec::new();
    r.at.iter()
        .flatten()
        .map(|&(id, neg)| {
            if !ids.contains(&id) {
                ids.push(id);
            }
            (ids.iter().position(|&x| x == id).unwrap() as u32 + 1, neg)
        })
        .collect()
}

#[test]
fn complementary_guards_form_one_region() {
    // `if (c) A = 1; else A = 2;` if-converted.
    assert_eq!(
        regions("@%p1 st.global.u32 [%rd1], 1;\n@!%p1 st.global.u32 [%rd1], 2;"),
        [(1, false), (1, true)]
    );
    // Address arithmetic in between does not end it.
    assert_eq!(
        regions("@%p1 st.global.u32 [%rd1], 1;\nadd.s32 %r2, %r1, 1;\n@!%p1 st.global.u32 [%rd1+4], %r2;"),
        [(1, false), (1, true)]
    );
}

#[test]
fn region_ends_where_the_source_branch_would() {
    // The predicate is redefined: two regions.
    assert_eq!(
        regions("@%p1 st.global.u32 [%rd1], 1;\nsetp.eq.u32 %p1, %r1, 3;\n@!%p1 st.global.u32 [%rd1], 2;"),
        [(1, false), (2, true)]
    );
    // An unguarded access, a barrier or a fence in between: two regions.
    for mid in ["st.global.u32 [%rd1+8], 0;", "bar.sync 0;", "membar.gl;"] {
        assert_eq!(
            regions(&format!(
                "@%p1 st.global.u32 [%rd1], 1;\n{mid}\n@!%p1 st.global.u32 [%rd1], 2;"
            )),
            [(1, false), (2, true)],
            "{mid}"
        );
    }
    // A branch target in between (another path joins there).
    assert_eq!(
        regions("@%p1 st.global.u32 [%rd1], 1;\nL1:\n@!%p1 st.global.u32 [%rd1], 2;\n@%p1 bra L1;"),
        [(1, false), (2, true)]
    );
    // Another predicate register.
    assert_eq!(
        regions("setp.gt.u32 %p2, %r1, 3;\n@%p1 st.global.u32 [%rd1], 1;\n@%p2 st.global.u32 [%rd1], 2;"),
        [(1, false), (2, false)]
    );
    // An unguarded instruction is in no region.
    assert_eq!(regions("st.global.u32 [%rd1], 1;"), []);
}
