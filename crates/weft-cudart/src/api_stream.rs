//! Streams and events of the C ABI. Work runs at once, in program order, so every stream is
//! always idle; events record the emulated device clock (one nanosecond per warp-instruction
//! divided over the emulated SMs, plus 16 bytes per nanosecond of copies), which is what
//! `cudaEventElapsedTime` reports.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::ffi::{c_float, c_uint, c_void};

use crate::errors::{self, CudaError};
use crate::runtime::with;

#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreate(s: *mut *mut c_void) -> CudaError {
    cudaStreamCreateWithFlags(s, 0)
}

#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreateWithFlags(
    s: *mut *mut c_void,
    _flags: c_uint,
) -> CudaError {
    with(|rt| {
        rt.streams += 1;
        *s = rt.streams as *mut c_void;
        errors::SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cudaStreamDestroy(_s: *mut c_void) -> CudaError {
    errors::SUCCESS
}

#[no_mangle]
pub extern "C" fn cudaStreamSynchronize(_s: *mut c_void) -> CudaError {
    with(|rt| rt.ret(rt.sticky))
}

#[no_mangle]
pub extern "C" fn cudaStreamQuery(_s: *mut c_void) -> CudaError {
    with(|rt| rt.ret(rt.sticky))
}

#[no_mangle]
pub extern "C" fn cudaStreamWaitEvent(_s: *mut c_void, _e: *mut c_void, _f: c_uint) -> CudaError {
    errors::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cudaEventCreate(e: *mut *mut c_void) -> CudaError {
    cudaEventCreateWithFlags(e, 0)
}

#[no_mangle]
pub unsafe extern "C" fn cudaEventCreateWithFlags(
    e: *mut *mut c_void,
    _flags: c_uint,
) -> CudaError {
    with(|rt| {
        rt.events.push(None);
        *e = rt.events.len() as *mut c_void;
        errors::SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cudaEventDestroy(_e: *mut c_void) -> CudaError {
    errors::SUCCESS
}

#[no_mangle]
pub extern "C" fn cudaEventRecord(e: *mut c_void, _s: *mut c_void) -> CudaError {
    with(|rt| {
        let now = rt.clock_ns;
        match (e as usize)
            .checked_sub(1)
            .and_then(|i| rt.events.get_mut(i))
        {
            Some(slot) => {
                *slot = Some(now);
                errors::SUCCESS
            }
            None => rt.ret(errors::INVALID_RESOURCE_HANDLE),
        }
    })
}

#[no_mangle]
pub extern "C" fn cudaEventSynchronize(_e: *mut c_void) -> CudaError {
    with(|rt| rt.ret(rt.sticky))
}

#[no_mangle]
pub extern "C" fn cudaEventQuery(_e: *mut c_void) -> CudaError {
    with(|rt| rt.ret(rt.sticky))
}

#[no_mangle]
pub unsafe extern "C" fn cudaEventElapsedTime(
    ms: *mut c_float,
    a: *mut c_void,
    b: *mut c_void,
) -> CudaError {
    with(|rt| {
        let get = |e: *mut c_void| {
            (e as usize)
                .checked_sub(1)
                .and_then(|i| rt.events.get(i).copied().flatten())
        };
        match (get(a), get(b)) {
            (Some(x), Some(y)) => {
                *ms = ((y - x) / 1e6) as c_float;
                errors::SUCCESS
            }
            _ => rt.ret(errors::INVALID_RESOURCE_HANDLE),
        }
    })
}
