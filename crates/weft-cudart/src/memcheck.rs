//! memcheck's device side: a [`TraceSink`] that checks every global access of a launch
//! against the program's allocations (by allocation, not by page), its alignment, and, with
//! `--initcheck`, whether the bytes read were written; shared-memory accesses against the
//! CTA's shared size. Errors are kept once per kind and instruction, with the first
//! instance's thread, block and address, as compute-sanitizer words them.

use std::collections::HashMap;

use weft_ir::kernel::Kernel;
use weft_simt::{AccessEvent, AccessOp, AccessSpace, BranchEvent, LaunchConfig, TraceSink};

use crate::memory::{Alloc, Kind};
use crate::report::MemError;

/// The checker of one launch.
pub struct Memcheck<'a> {
    pub kernel: &'a Kernel,
    pub cfg: LaunchConfig,
    pub launch: usize,
    /// The program's allocations, sorted by address.
    pub allocs: &'a mut Vec<Alloc>,
    pub shared_bytes: u64,
    pub initcheck: bool,
    /// Errors by (kind, pc).
    pub errors: Vec<MemError>,
    index: HashMap<(&'static str, u32), usize>,
}

/// `(x,y,z)` of linear index `i` in a shape.
pub fn coords(i: u64, d: [u32; 3]) -> [u64; 3] {
    let (x, y) = (u64::from(d[0]), u64::from(d[1]));
    [i % x, i / x % y, i / (x * y)]
}

impl<'a> Memcheck<'a> {
    pub fn new(
        kernel: &'a Kernel,
        cfg: LaunchConfig,
        launch: usize,
        allocs: &'a mut Vec<Alloc>,
        shared_bytes: u64,
        initcheck: bool,
    ) -> Self {
        Memcheck {
            kernel,
            cfg,
            launch,
            allocs,
            shared_bytes,
            initcheck,
            errors: Vec::new(),
            index: HashMap::new(),
        }
    }

    fn thread_line(&self, tid: u64) -> String {
        let bt = self.cfg.block_threads();
        let t = coords(tid % bt, self.cfg.block);
        let b = coords(tid / bt, self.cfg.grid);
        format!(
            "by thread ({},{},{}) in block ({},{},{})",
            t[0], t[1], t[2], b[0], b[1], b[2]
        )
    }

    fn record(&mut self, kind: &'static str, ev: &AccessEvent, what: String, extra: Vec<String>) {
        if let Some(&i) = self.index.get(&(kind, ev.pc)) {
            self.errors[i].count += 1;
            return;
        }
        let at = self.kernel.describe_pos(ev.pc as usize);
        let mut detail = vec![
            format!("at {}+pc {} in {at}", self.kernel.name, ev.pc),
            self.thread_line(ev.tid),
        ];
        detail.extend(extra);
        self.index.insert((kind, ev.pc), self.errors.len());
        self.errors.push(MemError {
            what,
            detail,
            kind: kind.to_string(),
            at,
            launch: Some(self.launch),
            count: 1,
        });
    }

    fn find(&self, addr: u64, n: u64) -> Option<usize> {
        let i = self.allocs.partition_point(|a| a.addr <= addr);
        let a = self.allocs.get(i.checked_sub(1)?)?;
        (addr + n <= a.addr + a.size).then_some(i - 1)
    }

    fn nearest(&self, addr: u64) -> Option<String> {
        let a = self
            .allocs
            .iter()
            .filter(|a| a.kind != Kind::Symbol)
            .min_by_key(|a| {
                if addr < a.addr {
                    a.addr - addr
                } else {
                    addr.saturating_sub(a.addr + a.size)
                }
            })?;
        Some(if addr >= a.addr + a.size {
            format!(
                "and is {} bytes after the nearest allocation at 0x{:x} of size {} bytes",
                addr - (a.addr + a.size),
                a.addr,
                a.size
            )
        } else if addr < a.addr {
            format!(
                "and is {} bytes before the nearest allocation at 0x{:x} of size {} bytes",
                a.addr - addr,
                a.addr,
                a.size
            )
        } else {
            format!(
                "and is inside the allocation at 0x{:x} of size {} bytes, running past its end",
                a.addr, a.size
            )
        })
    }
}

fn access_name(op: AccessOp) -> &'static str {
    match op {
        AccessOp::Load => "read",
        AccessOp::Store => "write",
        AccessOp::Atomic(_) => "atomic",
    }
}

impl TraceSink for Memcheck<'_> {
    fn access(&mut self, ev: &AccessEvent) {
        let w = u64::from(ev.width);
        let acc = access_name(ev.op);
        match ev.space {
            AccessSpace::Global => {
                if w > 1 && !ev.addr.is_multiple_of(w) {
                    self.record(
                        "misaligned",
                        ev,
                        format!("Invalid __global__ {acc} of size {w} bytes"),
                        vec![format!("Address 0x{:x} is misaligned", ev.addr)],
                    );
                    return;
                }
                match self.find(ev.addr, w) {
                    None => {
                        let mut extra = vec![format!("Address 0x{:x} is out of bounds", ev.addr)];
                        extra.extend(self.nearest(ev.addr));
                        self.record(
                            "oob",
                            ev,
                            format!("Invalid __global__ {acc} of size {w} bytes"),
                            extra,
                        );
                    }
                    Some(i) => {
                        let off = ev.addr - self.allocs[i].addr;
                        match ev.op {
                            AccessOp::Load if self.initcheck => {
                                if !self.allocs[i].initialised(off, w) {
                                    self.record(
                                        "uninit",
                                        ev,
                                        format!("Uninitialized __global__ memory read of size {w} bytes"),
                                        vec![format!("Address 0x{:x}", ev.addr)],
                                    );
                                }
                            }
                            AccessOp::Load => {}
                            AccessOp::Store | AccessOp::Atomic(_) => {
                                self.allocs[i].set_init(off, w)
                            }
                        }
                    }
                }
            }
            AccessSpace::Shared(_) => {
                if w > 1 && !ev.addr.is_multiple_of(w) {
                    self.record(
                        "misaligned",
                        ev,
                        format!("Invalid __shared__ {acc} of size {w} bytes"),
                        vec![format!("Address 0x{:x} is misaligned", ev.addr)],
                    );
                } else if ev.addr + w > self.shared_bytes {
                    self.record(
                        "oob",
                        ev,
                        format!("Invalid __shared__ {acc} of size {w} bytes"),
                        vec![format!(
                            "Address 0x{:x} is out of bounds (the block has {} bytes of shared memory)",
                            ev.addr, self.shared_bytes
                        )],
                    );
                }
            }
            AccessSpace::Local => {
                if w > 1 && !ev.addr.is_multiple_of(w) {
                    self.record(
                        "misaligned",
                        ev,
                        format!("Invalid __local__ {acc} of size {w} bytes"),
                        vec![format!("Address 0x{:x} is misaligned", ev.addr)],
                    );
                }
            }
        }
    }
    fn endi(&mut self, _warp: u64, _mask: u32, _pc: u32) {}
    fn branch(&mut self, _ev: BranchEvent, _warp: u64, _mask: u32) {}
    fn bar_arrive(&mut self, _c: u64, _w: u64, _m: u32, _id: u32, _wait: bool, _pc: u32) {}
    fn bar(&mut self, _cta: u64, _id: u32, _all: bool) {}
}
