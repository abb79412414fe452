//! Memory functions of the C ABI: device, managed and pinned host allocations, copies of
//! every kind (`cudaMemcpyDefault` infers the direction from the address), memset, the
//! `Async` variants (executed at once: streams are in order), module symbols. A copy or free
//! that names memory outside every live allocation fails with CUDA's error and, under
//! memcheck, is reported with the address.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::ffi::{c_int, c_uint, c_void};

use crate::errors::{self, CudaError};
use crate::memory::{Kind, Memory};
use crate::runtime::{with, Runtime};

/// Where the bytes of one side of a copy are.
#[derive(Clone, Copy)]
enum Loc {
    /// Host-accessible memory (host memory, or a managed allocation's pages).
    Host(*mut u8),
    /// The device arena at this device address, in allocation `usize`.
    Device(u64, usize),
}

impl Runtime {
    fn locate(&self, p: u64, n: u64) -> Result<Loc, String> {
        if !Memory::in_range(p) {
            return Ok(Loc::Host(p as *mut u8));
        }
        match self.memory.find(p, n) {
            Some(i) if self.memory.allocs[i].kind == Kind::Managed => Ok(Loc::Host(p as *mut u8)),
            Some(i) => Ok(Loc::Device(p, i)),
            None => Err(format!(
                "address 0x{p:x} (+{n} bytes) is not inside a live device allocation"
            )),
        }
    }

    /// A copy of `n` bytes; `kind` is `cudaMemcpyKind` (0..=4).
    pub fn memcpy(&mut self, func: &str, dst: u64, src: u64, n: u64, kind: c_int) -> CudaError {
        if self.sticky != errors::SUCCESS {
            return self.ret(self.sticky);
        }
        if n == 0 {
            return errors::SUCCESS;
        }
        if !(0..=4).contains(&kind) {
            return self.ret(errors::INVALID_MEMCPY_DIRECTION);
        }
        let (d, s) = match (self.locate(dst, n), self.locate(src, n)) {
            (Ok(d), Ok(s)) => (d, s),
            (Err(e), _) | (_, Err(e)) => {
                self.api_error(func, errors::INVALID_VALUE, format!("Invalid {func}: {e}"));
                return self.ret(errors::INVALID_VALUE);
            }
        };
        let is_dev = |l: Loc, p: u64| matches!(l, Loc::Device(..)) || Memory::in_range(p);
        let ok = match kind {
            1 => is_dev(d, dst) && !matches!(s, Loc::Device(..)),
            2 => is_dev(s, src) && !matches!(d, Loc::Device(..)),
            3 => is_dev(d, dst) && is_dev(s, src),
            0 => !matches!(d, Loc::Device(..)) && !matches!(s, Loc::Device(..)),
            _ => true,
        };
        if !ok {
            let names = [
                "HostToHost",
                "HostToDevice",
                "DeviceToHost",
                "DeviceToDevice",
                "Default",
            ];
            self.api_error(
                func,
                errors::INVALID_VALUE,
                format!(
                    "cudaMemcpy{} from 0x{src:x} to 0x{dst:x}: a pointer is on the wrong side",
                    names[kind as usize]
                ),
            );
            return self.ret(errors::INVALID_VALUE);
        }
        let bytes: Vec<u8> = match s {
            // SAFETY: a host pointer the program passed with `n` readable bytes (as CUDA
            // requires), or a managed allocation's mapped pages.
            Loc::Host(p) => unsafe { std::slice::from_raw_parts(p, n as usize).to_vec() },
            Loc::Device(a, _) => self.memory.bytes(a, n).to_vec(),
        };
        match d {
            // SAFETY: as above, writable.
            Loc::Host(p) => unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, n as usize) },
            Loc::Device(a, i) => {
                self.memory.bytes_mut(a, n).copy_from_slice(&bytes);
                let off = a - self.memory.allocs[i].addr;
                self.memory.allocs[i].set_init(off, n);
            }
        }
        self.clock_ns += n as f64 / 16.0;
        errors::SUCCESS
    }

    fn memset(&mut self, dst: u64, v: u8, n: u64) -> CudaError {
        if self.sticky != errors::SUCCESS {
            return self.ret(self.sticky);
        }
        match self.locate(dst, n) {
            _ if n == 0 => errors::SUCCESS,
            // SAFETY: a managed allocation's mapped pages.
            Ok(Loc::Host(p)) if Memory::in_range(dst) => {
                unsafe { std::ptr::write_bytes(p, v, n as usize) };
                errors::SUCCESS
            }
            Ok(Loc::Device(a, i)) => {
                self.memory.bytes_mut(a, n).fill(v);
                let off = a - self.memory.allocs[i].addr;
                self.memory.allocs[i].set_init(off, n);
                errors::SUCCESS
            }
            Ok(Loc::Host(_)) => {
                self.api_error(
                    "cudaMemset",
                    errors::INVALID_VALUE,
                    format!("Invalid cudaMemset: 0x{dst:x} is a host address"),
                );
                self.ret(errors::INVALID_VALUE)
            }
            Err(e) => {
                self.api_error(
                    "cudaMemset",
                    errors::INVALID_VALUE,
                    format!("Invalid cudaMemset: {e}"),
                );
                self.ret(errors::INVALID_VALUE)
            }
        }
    }

    fn malloc(&mut self, p: *mut *mut c_void, n: usize, kind: Kind) -> CudaError {
        if p.is_null() {
            return self.ret(errors::INVALID_VALUE);
        }
        if self.memory.in_use + n as u64 > self.config.device.total_mem {
            return self.ret(errors::MEMORY_ALLOCATION);
        }
        match self.memory.alloc(n as u64, kind) {
            Some(a) => {
                // SAFETY: the program passed a pointer to a pointer.
                unsafe { *p = a as *mut c_void };
                errors::SUCCESS
            }
            None => self.ret(errors::MEMORY_ALLOCATION),
        }
    }

    fn symbol(&self, sym: *const c_void) -> Option<(u64, u64)> {
        self.symbols.get(&(sym as usize)).copied()
    }
}

#[no_mangle]
pub extern "C" fn cudaMalloc(p: *mut *mut c_void, n: usize) -> CudaError {
    with(|rt| rt.malloc(p, n, Kind::Device))
}

#[no_mangle]
pub extern "C" fn cudaMallocManaged(p: *mut *mut c_void, n: usize, _flags: c_uint) -> CudaError {
    with(|rt| rt.malloc(p, n, Kind::Managed))
}

#[no_mangle]
pub extern "C" fn cudaFree(p: *mut c_void) -> CudaError {
    with(|rt| {
        if p.is_null() {
            return errors::SUCCESS;
        }
        if rt.memory.free(p as u64).is_some() {
            return errors::SUCCESS;
        }
        let why = if Memory::in_range(p as u64) {
            "is not the start of a live device allocation (freed already, or inside one)"
        } else {
            "is a host address, not a device allocation"
        };
        rt.api_error(
            "cudaFree",
            errors::INVALID_VALUE,
            format!("Invalid cudaFree: 0x{:x} {why}", p as u64),
        );
        rt.ret(errors::INVALID_VALUE)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaMallocHost(p: *mut *mut c_void, n: usize) -> CudaError {
    cudaHostAlloc(p, n, 0)
}

#[no_mangle]
pub unsafe extern "C" fn cudaHostAlloc(p: *mut *mut c_void, n: usize, _flags: c_uint) -> CudaError {
    // SAFETY: plain host allocation; the pointer is the program's.
    let a = unsafe { libc::malloc(n.max(1)) };
    with(|rt| {
        if p.is_null() || a.is_null() {
            return rt.ret(errors::MEMORY_ALLOCATION);
        }
        rt.host_allocs.insert(a as usize, n);
        // SAFETY: the program passed a pointer to a pointer.
        unsafe { *p = a };
        errors::SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaFreeHost(p: *mut c_void) -> CudaError {
    with(|rt| {
        if p.is_null() {
            return errors::SUCCESS;
        }
        if rt.host_allocs.remove(&(p as usize)).is_none() {
            rt.api_error(
                "cudaFreeHost",
                errors::INVALID_VALUE,
                format!("Invalid cudaFreeHost: 0x{:x}", p as u64),
            );
            return rt.ret(errors::INVALID_VALUE);
        }
        // SAFETY: allocated by cudaHostAlloc with malloc.
        unsafe { libc::free(p) };
        errors::SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cudaMemcpy(d: *mut c_void, s: *const c_void, n: usize, k: c_int) -> CudaError {
    with(|rt| rt.memcpy("cudaMemcpy", d as u64, s as u64, n as u64, k))
}

#[no_mangle]
pub extern "C" fn cudaMemcpyAsync(
    d: *mut c_void,
    s: *const c_void,
    n: usize,
    k: c_int,
    _st: *mut c_void,
) -> CudaError {
    with(|rt| rt.memcpy("cudaMemcpyAsync", d as u64, s as u64, n as u64, k))
}

#[no_mangle]
pub extern "C" fn cudaMemset(d: *mut c_void, v: c_int, n: usize) -> CudaError {
    with(|rt| rt.memset(d as u64, v as u8, n as u64))
}

#[no_mangle]
pub extern "C" fn cudaMemsetAsync(
    d: *mut c_void,
    v: c_int,
    n: usize,
    _st: *mut c_void,
) -> CudaError {
    cudaMemset(d, v, n)
}

fn to_symbol(
    sym: *const c_void,
    s: *const c_void,
    n: usize,
    off: usize,
    k: c_int,
    func: &str,
) -> CudaError {
    with(|rt| {
        let Some((addr, size)) = rt.symbol(sym) else {
            return rt.ret(errors::INVALID_SYMBOL);
        };
        if off as u64 + n as u64 > size || !(k == 1 || k == 3 || k == 4) {
            return rt.ret(errors::INVALID_VALUE);
        }
        let kind = if k == 4 { 4 } else { k };
        rt.managed_vars_to_device();
        let e = rt.memcpy(func, addr + off as u64, s as u64, n as u64, kind);
        rt.managed_vars_to_host();
        e
    })
}

fn from_symbol(
    d: *mut c_void,
    sym: *const c_void,
    n: usize,
    off: usize,
    k: c_int,
    func: &str,
) -> CudaError {
    with(|rt| {
        let Some((addr, size)) = rt.symbol(sym) else {
            return rt.ret(errors::INVALID_SYMBOL);
        };
        if off as u64 + n as u64 > size || !(k == 2 || k == 3 || k == 4) {
            return rt.ret(errors::INVALID_VALUE);
        }
        rt.managed_vars_to_device();
        let e = rt.memcpy(func, d as u64, addr + off as u64, n as u64, k);
        rt.managed_vars_to_host();
        e
    })
}

#[no_mangle]
pub extern "C" fn cudaMemcpyToSymbol(
    sym: *const c_void,
    s: *const c_void,
    n: usize,
    off: usize,
    k: c_int,
) -> CudaError {
    to_symbol(sym, s, n, off, k, "cudaMemcpyToSymbol")
}

#[no_mangle]
pub extern "C" fn cudaMemcpyFromSymbol(
    d: *mut c_void,
    sym: *const c_void,
    n: usize,
    off: usize,
    k: c_int,
) -> CudaError {
    from_symbol(d, sym, n, off, k, "cudaMemcpyFromSymbol")
}

#[no_mangle]
pub extern "C" fn cudaMemcpyToSymbolAsync(
    sym: *const c_void,
    s: *const c_void,
    n: usize,
    off: usize,
    k: c_int,
    _st: *mut c_void,
) -> CudaError {
    to_symbol(sym, s, n, off, k, "cudaMemcpyToSymbolAsync")
}

#[no_mangle]
pub extern "C" fn cudaMemcpyFromSymbolAsync(
    d: *mut c_void,
    sym: *const c_void,
    n: usize,
    off: usize,
    k: c_int,
    _st: *mut c_void,
) -> CudaError {
    from_symbol(d, sym, n, off, k, "cudaMemcpyFromSymbolAsync")
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolAddress(
    p: *mut *mut c_void,
    sym: *const c_void,
) -> CudaError {
    with(|rt| match rt.symbol(sym) {
        Some((a, _)) => {
            *p = a as *mut c_void;
            errors::SUCCESS
        }
        None => rt.ret(errors::INVALID_SYMBOL),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolSize(n: *mut usize, sym: *const c_void) -> CudaError {
    with(|rt| match rt.symbol(sym) {
        Some((_, s)) => {
            *n = s as usize;
            errors::SUCCESS
        }
        None => rt.ret(errors::INVALID_SYMBOL),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemGetInfo(free: *mut usize, total: *mut usize) -> CudaError {
    with(|rt| {
        let t = rt.config.device.total_mem;
        *total = t as usize;
        *free = t.saturating_sub(rt.memory.in_use) as usize;
        errors::SUCCESS
    })
}
