//! A readable listing of a lowered kernel ([`weft_ir::kernel::Kernel`]) for `weft ptx --ir`:
//! parameters with their param-space offsets, variables per state space, registers, then
//! one line per instruction (`pc: [source line] [@guard] operation`).

use std::fmt::Write;

use weft_ir::kernel::Kernel;

/// The listing of `k`.
pub fn print_kernel(k: &Kernel) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "kernel {}", k.name);
    for (i, p) in k.params.iter().enumerate() {
        let _ = writeln!(
            s,
            "  param {i} {}: {:?} {} bytes at +{}",
            p.name, p.ty, p.size, p.offset
        );
    }
    for (i, v) in k.vars.iter().enumerate() {
        let _ = writeln!(
            s,
            "  var {i} {}: {:?} {} bytes align {}{}",
            v.name,
            v.space,
            v.size,
            v.align,
            if v.init.is_empty() {
                ""
            } else {
                " (initialised)"
            }
        );
    }
    let _ = writeln!(s, "  {} registers", k.regs.len());
    for (pc, ins) in k.code.iter().enumerate() {
        let loc = ins
            .loc
            .map(|l| {
                let f = k.file_name(l.file).unwrap_or("?");
                format!("{}:{} ", f.rsplit('/').next().unwrap_or(f), l.line)
            })
            .unwrap_or_default();
        let guard = ins
            .guard
            .map(|g| format!("@{}r{} ", if g.negated { "!" } else { "" }, g.reg.0))
            .unwrap_or_default();
        let _ = writeln!(s, "  {pc:5}: {loc}{guard}{:?}", ins.op);
    }
    s
}
