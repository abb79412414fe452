//! The device address space of a program: device allocations live in a range of the host's
//! address space reserved without access (`mmap` `PROT_NONE` at the emulator's global base),
//! so a host dereference of a device pointer faults as it does with a real GPU, while their
//! bytes live in the emulator's global arena. Managed allocations (`cudaMallocManaged`) are
//! page-aligned parts of the same range made readable and writable: the host's pages are
//! their contents between launches, copied into the arena before a launch and back after.
//! Every allocation keeps a bitmap of initialised bytes (memcheck's `--initcheck`).

use weft_simt::mem::GLOBAL_BASE;

/// Bytes of host address space reserved for device memory.
const RESERVE: u64 = 64 << 30;
const PAGE: u64 = 4096;

/// What kind of memory an allocation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `cudaMalloc`.
    Device,
    /// `cudaMallocManaged`.
    Managed,
    /// A `__device__`/`__constant__` variable of a module.
    Symbol,
}

/// One allocation.
#[derive(Clone, Debug)]
pub struct Alloc {
    pub addr: u64,
    pub size: u64,
    pub kind: Kind,
    /// One bit per byte: written since allocation.
    pub init: Vec<u64>,
}

impl Alloc {
    /// Whether every byte of `[off, off + n)` was written.
    pub fn initialised(&self, off: u64, n: u64) -> bool {
        (off..off + n).all(|b| {
            self.init
                .get((b / 64) as usize)
                .is_some_and(|w| w >> (b % 64) & 1 == 1)
        })
    }

    /// Marks `[off, off + n)` written.
    pub fn set_init(&mut self, off: u64, n: u64) {
        for b in off..(off + n).min(self.size) {
            if let Some(w) = self.init.get_mut((b / 64) as usize) {
                *w |= 1 << (b % 64);
            }
        }
    }
}

/// The device memory of the program.
pub struct Memory {
    /// Global arena: byte `i` is device address `GLOBAL_BASE + i`.
    pub arena: Vec<u8>,
    /// Live allocations, sorted by address.
    pub allocs: Vec<Alloc>,
    /// Next free arena offset.
    top: u64,
    reserved: bool,
    /// Bytes currently allocated by `cudaMalloc`/`cudaMallocManaged`.
    pub in_use: u64,
}

impl Memory {
    /// Reserves the range (no access) and an empty arena. `Err` when the range is taken.
    pub fn new() -> Result<Memory, String> {
        // SAFETY: a fixed, non-replacing reservation without access at an address that no
        // Rust object refers to.
        let p = unsafe {
            libc::mmap(
                GLOBAL_BASE as *mut libc::c_void,
                RESERVE as usize,
                libc::PROT_NONE,
                libc::MAP_PRIVATE
                    | libc::MAP_ANONYMOUS
                    | libc::MAP_NORESERVE
                    | libc::MAP_FIXED_NOREPLACE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED || p as u64 != GLOBAL_BASE {
            return Err(format!(
                "cannot reserve host addresses 0x{GLOBAL_BASE:x}.. for device memory: {}",
                std::io::Error::last_os_error()
            ));
        }
        Ok(Memory {
            arena: Vec::new(),
            allocs: Vec::new(),
            top: 0,
            reserved: true,
            in_use: 0,
        })
    }

    /// Allocates `size` bytes (256-byte aligned; managed memory on its own pages).
    pub fn alloc(&mut self, size: u64, kind: Kind) -> Option<u64> {
        let align = if kind == Kind::Managed { PAGE } else { 256 };
        let off = self.top.div_ceil(align) * align;
        let span = if kind == Kind::Managed {
            size.max(1).div_ceil(PAGE) * PAGE
        } else {
            size.max(1)
        };
        let end = off.checked_add(span)?;
        if end > RESERVE {
            return None;
        }
        // A gap after every allocation: an access just past one is not inside the next.
        self.top = end + 256;
        if self.arena.len() < end as usize {
            self.arena.resize(end as usize, 0);
        }
        let addr = GLOBAL_BASE + off;
        if kind == Kind::Managed && self.reserved {
            // SAFETY: the pages lie inside our own reservation.
            let r = unsafe {
                libc::mprotect(
                    addr as *mut libc::c_void,
                    span as usize,
                    libc::PROT_READ | libc::PROT_WRITE,
                )
            };
            if r != 0 {
                return None;
            }
        }
        if kind != Kind::Symbol {
            self.in_use += size;
        }
        let a = Alloc {
            addr,
            size,
            kind,
            init: vec![
                if kind == Kind::Managed { u64::MAX } else { 0 };
                size.div_ceil(64) as usize
            ],
        };
        let i = self.allocs.partition_point(|x| x.addr < addr);
        self.allocs.insert(i, a);
        Some(addr)
    }

    /// Frees the allocation starting at `addr`; `None` when no live allocation starts there.
    pub fn free(&mut self, addr: u64) -> Option<Alloc> {
        let i = self
            .allocs
            .iter()
            .position(|a| a.addr == addr && a.kind != Kind::Symbol)?;
        let a = self.allocs.remove(i);
        self.in_use -= a.size;
        if a.kind == Kind::Managed {
            let span = a.size.max(1).div_ceil(PAGE) * PAGE;
            // SAFETY: pages of our reservation; dropping access again.
            unsafe {
                libc::mprotect(a.addr as *mut libc::c_void, span as usize, libc::PROT_NONE);
            }
        }
        Some(a)
    }

    /// Whether `addr` lies in the reserved device range.
    pub fn in_range(addr: u64) -> bool {
        (GLOBAL_BASE..GLOBAL_BASE + RESERVE).contains(&addr)
    }

    /// The allocation holding `[addr, addr + n)` entirely, by index.
    pub fn find(&self, addr: u64, n: u64) -> Option<usize> {
        let i = self.allocs.partition_point(|a| a.addr <= addr);
        let a = self.allocs.get(i.checked_sub(1)?)?;
        (addr + n <= a.addr + a.size.max(1) && (n > 0 || addr < a.addr + a.size.max(1)))
            .then_some(i - 1)
    }

    /// The allocation nearest to `addr` (for memcheck's "N bytes after ...").
    pub fn nearest(&self, addr: u64) -> Option<&Alloc> {
        self.allocs
            .iter()
            .filter(|a| a.kind != Kind::Symbol)
            .min_by_key(|a| {
                if addr < a.addr {
                    a.addr - addr
                } else {
                    addr.saturating_sub(a.addr + a.size)
                }
            })
    }

    /// Device bytes `[addr, addr + n)` (must lie in the arena).
    pub fn bytes(&self, addr: u64, n: u64) -> &[u8] {
        let o = (addr - GLOBAL_BASE) as usize;
        &self.arena[o..o + n as usize]
    }

    /// Device bytes `[addr, addr + n)`, mutable.
    pub fn bytes_mut(&mut self, addr: u64, n: u64) -> &mut [u8] {
        let o = (addr - GLOBAL_BASE) as usize;
        &mut self.arena[o..o + n as usize]
    }

    /// Copies every managed allocation's host pages into the arena (before a launch).
    pub fn managed_to_device(&mut self) {
        for a in &self.allocs {
            if a.kind == Kind::Managed {
                let o = (a.addr - GLOBAL_BASE) as usize;
                // SAFETY: the allocation's pages are mapped readable (alloc).
                let host =
                    unsafe { std::slice::from_raw_parts(a.addr as *const u8, a.size as usize) };
                self.arena[o..o + a.size as usize].copy_from_slice(host);
            }
        }
    }

    /// Copies every managed allocation back to its host pages (after a launch).
    pub fn managed_to_host(&mut self) {
        for a in &self.allocs {
            if a.kind == Kind::Managed {
                let o = (a.addr - GLOBAL_BASE) as usize;
                // SAFETY: the allocation's pages are mapped writable (alloc).
                let host =
                    unsafe { std::slice::from_raw_parts_mut(a.addr as *mut u8, a.size as usize) };
                host.copy_from_slice(&self.arena[o..o + a.size as usize]);
            }
        }
    }

    /// Frees every allocation (`cudaDeviceReset`); symbols stay.
    pub fn reset(&mut self) -> Vec<Alloc> {
        let addrs: Vec<u64> = self
            .allocs
            .iter()
            .filter(|a| a.kind != Kind::Symbol)
            .map(|a| a.addr)
            .collect();
        addrs.into_iter().filter_map(|a| self.free(a)).collect()
    }
}
