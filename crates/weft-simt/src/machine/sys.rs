//! CUDA system calls on the machine: device `printf` (`vprintf`: formatted by
//! [`crate::printf`] from the lane's view of memory, the text kept in the outcome in
//! execution order) and device `assert` (`__assertfail`: the failing lanes are reported with
//! CUDA's message and the launch stops, as a GPU's launch fails with `cudaErrorAssert`).

use weft_ir::kernel::SysFunc;

use super::types::lanes_to_threads;
use super::{Finding, Machine, Printed, Stop, WARP};
use crate::alu;
use crate::mem::{self, resolve_generic, Region};
use crate::printf::{self, ArgReader};

/// Longest string a system call reads (a missing NUL is a fault, not an endless read).
const MAX_STR: u64 = 1 << 16;

/// One lane's view of memory for the formatter.
struct LaneMem<'m, 'a> {
    m: &'m Machine<'a>,
    w: usize,
    lane: usize,
}

impl ArgReader for LaneMem<'_, '_> {
    fn read(&mut self, addr: u64, size: usize) -> Option<u64> {
        let (region, off) = resolve_generic(addr)?;
        mem::read(self.m.region(self.w, self.lane, region), off, size)
    }

    fn cstr(&mut self, addr: u64) -> Option<Vec<u8>> {
        let (region, off) = resolve_generic(addr)?;
        let b = self.m.region(self.w, self.lane, region);
        let start = usize::try_from(off).ok()?;
        let rest = b.get(start..)?;
        let rest = &rest[..rest.len().min(MAX_STR as usize)];
        let n = rest.iter().position(|&c| c == 0)?;
        Some(rest[..n].to_vec())
    }
}

impl Machine<'_> {
    /// The bytes of `region` as lane `lane` of warp `w` sees them.
    fn region(&self, w: usize, lane: usize, region: Region) -> &[u8] {
        let warp = &self.warps[w];
        match region {
            Region::Global => &self.global,
            Region::Shared => &self.ctas[warp.slot].shared,
            Region::Param => &self.param,
            Region::Local => {
                let lb = self.layout.local_bytes as usize;
                &warp.local[lane * lb..(lane + 1) * lb]
            }
        }
    }

    /// The (x, y, z) index in its block of lane `lane` of warp `w`.
    fn thread_xyz(&self, w: usize, lane: usize) -> [u32; 3] {
        let t = lanes_to_threads(self.warps[w].warp_in_cta, 1 << lane)[0];
        let b = self.cfg.block;
        [t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1])]
    }

    /// Runs system call `func` for each executing lane (its argument values given).
    pub(super) fn sys_call(
        &mut self,
        w: usize,
        pc: u32,
        func: SysFunc,
        dst: Option<u32>,
        lanes: Vec<(usize, Vec<u64>)>,
    ) -> Option<Stop> {
        match func {
            SysFunc::Vprintf => {
                for (lane, args) in lanes {
                    let (fmt, buf) = (arg(&args, 0), arg(&args, 1));
                    let mut r = LaneMem { m: self, w, lane };
                    let (text, n) = match printf::vprintf(&mut r, fmt, buf) {
                        Ok(x) => x,
                        Err(printf::BadRead(a)) => {
                            return Some(self.fault(
                                w,
                                pc,
                                lane,
                                a,
                                "device printf read from an invalid address",
                            ))
                        }
                    };
                    let p = Printed {
                        cta: self.ctas[self.warps[w].slot].id,
                        thread: self.thread_xyz(w, lane),
                        text,
                    };
                    self.printed.push(p);
                    if let Some(d) = dst {
                        let bits = self.reg_bits[d as usize];
                        self.warps[w].regs[d as usize * WARP + lane] =
                            alu::trunc(n as i64 as u64, bits);
                    }
                }
                None
            }
            SysFunc::AssertFail => {
                let mut last = None;
                for (lane, args) in lanes {
                    let mut r = LaneMem { m: self, w, lane };
                    let mut text = |a: u64| {
                        r.cstr(a)
                            .map(|b| String::from_utf8_lossy(&b).into_owned())
                            .unwrap_or_default()
                    };
                    let (message, file) = (text(arg(&args, 0)), text(arg(&args, 1)));
                    let function = text(arg(&args, 3));
                    let f = Finding::DeviceAssert {
                        site: self.site(w, pc),
                        thread: self.thread_xyz(w, lane),
                        message,
                        file,
                        line: arg(&args, 2) as u32,
                        function,
                    };
                    if let Some(prev) = last.replace(f) {
                        self.findings.push(prev);
                    }
                }
                last.map(Stop::Fatal)
            }
        }
    }
}

fn arg(args: &[u64], i: usize) -> u64 {
    args.get(i).copied().unwrap_or(0)
}
