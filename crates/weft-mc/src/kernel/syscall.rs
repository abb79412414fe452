//! Device `printf` and `assert` under the model checker (issue 26; docs/mc.md, "Device printf
//! and assert"). clang lowers them to CUDA's system calls, kept as [`KOp::SysCall`]:
//!
//! - `vprintf(format, args)` writes no memory, so a thread passes it as a step with no event;
//!   its result (CUDA's documented value: the number of arguments read) follows from the
//!   format string alone, which must therefore be a constant module string reached through
//!   `mov`/`cvta` and the call's `.param` variable (what clang emits for a literal). A call whose format is not one is a
//!   construct the checker does not support (exit 3), found before exploring.
//! - `__assertfail` is called only on the failing path of `assert(e)`: a thread that reaches
//!   it is an assertion error at the assert's line, like a failing `__assert`.

use std::collections::HashMap;

use weft_ir::code::Reg;
use weft_ir::kernel::{AddrBase, KOp, Kernel, Operand, SysFunc};
use weft_ir::MemSpace;
use weft_simt::printf::{vprintf, ArgReader};

/// The result of every `vprintf` call of `k`, by pc; `Err(pc)` names the first call whose
/// format string is not a constant module string.
pub(super) fn printf_results(k: &Kernel) -> Result<HashMap<u32, u64>, usize> {
    let mut out = HashMap::new();
    for (pc, i) in k.code.iter().enumerate() {
        let KOp::SysCall {
            func: SysFunc::Vprintf,
            args,
            ..
        } = &i.op
        else {
            continue;
        };
        let fmt = args
            .first()
            .and_then(|a| constant_string(k, a, 0))
            .ok_or(pc)?;
        out.insert(pc as u32, arg_count(&fmt) as u64);
    }
    Ok(out)
}

/// The NUL-terminated bytes of the module string `a` points to, following the unique
/// definitions of registers through `mov` and `cvta` (at most 8 steps).
fn constant_string(k: &Kernel, a: &Operand, depth: u32) -> Option<Vec<u8>> {
    match a {
        Operand::VarAddr { var, offset } => {
            let v = k.vars.get(*var as usize)?;
            let off = u64::try_from(*offset).ok()?;
            if off >= v.size {
                return None;
            }
            // Bytes past the initialiser's end are zero (PTX lists the leading ones only).
            let bytes = v.init.get(off as usize..).unwrap_or(&[]);
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            if end == bytes.len() && (off + end as u64) >= v.size {
                return None; // no terminating NUL inside the variable
            }
            Some(bytes[..end].to_vec())
        }
        Operand::Reg(r) if depth < 8 => {
            let src = unique_def(k, *r)?;
            constant_string(k, src, depth + 1)
        }
        _ => None,
    }
}

/// The source operand of the only `mov`/`cvta` that defines `r`, or of the only store to the
/// local `.param` variable the only load defining `r` reads, when `r` has one definition.
fn unique_def(k: &Kernel, r: Reg) -> Option<&Operand> {
    let mut defs = k.code.iter().filter(|i| i.op.defs().contains(&r));
    let d = defs.next()?;
    if defs.next().is_some() || d.guard.is_some() {
        return None;
    }
    match &d.op {
        KOp::Mov { src, .. } | KOp::Cvta { src, .. } => Some(src),
        // A call's argument passes through its own `.param` variable (a local one here):
        // the value of the only store to that variable.
        KOp::Ld { addr, dst, .. } if dst.len() == 1 => {
            let AddrBase::Var(v) = addr.base else {
                return None;
            };
            if k.vars.get(v as usize)?.space != MemSpace::Local {
                return None;
            }
            let mut stores = k.code.iter().filter_map(|i| match &i.op {
                KOp::St { addr: a, src, .. } if a.base == addr.base => Some((i, a, src)),
                _ => None,
            });
            let (i, a, src) = stores.next()?;
            if stores.next().is_some() || i.guard.is_some() || *a != *addr || src.len() != 1 {
                return None;
            }
            src.first()
        }
        _ => None,
    }
}

/// How many arguments CUDA's `vprintf` reads for `fmt`: weft-simt's formatter run over a
/// buffer of zeros, so the two engines agree by construction.
fn arg_count(fmt: &[u8]) -> i32 {
    struct Zeros<'a>(&'a [u8]);
    impl ArgReader for Zeros<'_> {
        fn read(&mut self, _addr: u64, _size: usize) -> Option<u64> {
            Some(0)
        }
        fn cstr(&mut self, addr: u64) -> Option<Vec<u8>> {
            Some(if addr == 1 {
                self.0.to_vec()
            } else {
                Vec::new()
            })
        }
    }
    vprintf(&mut Zeros(fmt), 1, 0x1000).map_or(0, |(_, n)| n)
}

#[cfg(test)]
mod tests {
    use super::arg_count;

    #[test]
    fn counts_follow_the_conversions() {
        // C's rules: `%%` reads nothing, every other conversion one argument.
        assert_eq!(arg_count(b"plain\n"), 0);
        assert_eq!(arg_count(b"%d %s %5.2f%%\n"), 3);
        assert_eq!(arg_count(b"%lld %c %p"), 3);
    }
}
