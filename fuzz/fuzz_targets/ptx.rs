//! Fuzz target: the PTX parser and lowering never panic. Inputs are PTX text; a prefix of
//! `.version 7.0 .target sm_70 .address_size 64` plus a kernel head is prepended to half of
//! them so the fuzzer reaches instruction syntax quickly: call sequences with debug labels
//! between operands (`call.uni \n$L__tmp0:\n f, (p);`), `.callprototype`, indirect calls,
//! weft's annotation marker calls (`__weft_annot_*`, `__weft_query_*`), `.ptr .shared`
//! parameters and `.loc ... function_name L, inlined_at F L C` (with a `.section .debug_str`
//! block) are in the seeds under fuzz/seeds/ptx/ (weft-ptx's `fuzz_seeds_parse_and_lower`
//! test checks that each seed parses and lowers).
#![no_main]

use libfuzzer_sys::fuzz_target;

const HEAD: &str = ".version 7.0\n.target sm_70\n.address_size 64\n\
    .extern .func __weft_annot_assert(.param .b32 a);\n\
    .visible .entry k(.param .u64 .ptr .shared .align 4 k_param_0)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for src in [text.to_string(), format!("{HEAD}{text}\n}}\n")] {
        if let Ok(m) = weft_ptx::parse(&src) {
            let names: Vec<String> = m.kernels().map(|k| k.name.clone()).collect();
            for n in names {
                let _ = weft_ptx::lower_kernel_all(&m, Some(&n));
            }
        }
    }
});
