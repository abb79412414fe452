//! `__managed__` variables. clang-19 ignores the `managed` attribute in CUDA mode (it is
//! HIP's), so weft's `weft_cuda.h` makes a `__managed__` variable a `__device__` one whose
//! host shadow lies in the ELF section `weft_managed`; a constructor in the header gives the
//! section's bounds to the runtime ([`__weftRegisterManagedSection`]) before clang's module
//! constructor registers the variables. The host reads and writes the shadow directly; the
//! runtime keeps it coherent with the device copy at the points where a program can observe
//! the difference: the device's initial value is copied into the shadow at registration, the
//! shadow into the device copy before each launch and symbol copy, and back after them
//! (launches are synchronous, so this is what a GPU's managed memory shows a correct program).

use std::ffi::c_void;

use crate::runtime::{with, Runtime};

/// One `__managed__` variable: its host shadow, device address and size.
#[derive(Clone, Copy, Debug)]
pub struct ManagedVar {
    pub host: usize,
    pub device: u64,
    pub size: u64,
}

/// Called by every translation unit's constructor (`weft_cuda_runtime.h`) with the bounds of
/// the executable's `weft_managed` section.
#[no_mangle]
pub extern "C" fn __weftRegisterManagedSection(start: *mut c_void, end: *mut c_void) {
    let r = (start as usize, end as usize);
    with(|rt| {
        if r.0 < r.1 && !rt.managed_sections.contains(&r) {
            rt.managed_sections.push(r);
        }
    });
}

impl Runtime {
    /// Registers the variable whose shadow is `host` as managed when the shadow lies in a
    /// `weft_managed` section, and gives the shadow the device copy's initial bytes.
    pub fn note_managed(&mut self, host: usize, device: u64, size: u64) {
        if !self
            .managed_sections
            .iter()
            .any(|&(s, e)| (s..e).contains(&host))
        {
            return;
        }
        let v = ManagedVar { host, device, size };
        self.managed_vars.push(v);
        let src = self.memory.bytes(device, size).to_vec();
        // SAFETY: the shadow is a writable variable of `size` bytes (clang's definition, in
        // the program's `weft_managed` data section).
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), host as *mut u8, size as usize) };
    }

    /// Copies every managed variable's host shadow into its device copy.
    pub fn managed_vars_to_device(&mut self) {
        for v in self.managed_vars.clone() {
            // SAFETY: see `note_managed`.
            let host = unsafe { std::slice::from_raw_parts(v.host as *const u8, v.size as usize) };
            self.memory
                .bytes_mut(v.device, v.size)
                .copy_from_slice(host);
        }
    }

    /// Copies every managed variable's device copy into its host shadow.
    pub fn managed_vars_to_host(&mut self) {
        for v in &self.managed_vars {
            // SAFETY: see `note_managed`.
            let host =
                unsafe { std::slice::from_raw_parts_mut(v.host as *mut u8, v.size as usize) };
            host.copy_from_slice(self.memory.bytes(v.device, v.size));
        }
    }
}
