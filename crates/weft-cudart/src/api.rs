//! The C ABI: registration (`__cudaRegisterFatBinary`, `__cudaRegisterFunction`,
//! `__cudaRegisterVar`, ...), both launch ABIs clang emits for `<<<...>>>`, and the device
//! and error functions of the CUDA runtime API. Memory functions are in `api_mem`, streams
//! and events in `api_stream`. Anything a program calls that weft does not implement stops it
//! with the function's name and exit code 3 ([`unsupported`]).

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

use crate::container::GpuBinary;
use crate::errors::{self, CudaError};
use crate::launch::ArgSource;
use crate::runtime::{self, fatal, with, CallConfig};

/// `dim3` as clang passes it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Dim3 {
    pub x: c_uint,
    pub y: c_uint,
    pub z: c_uint,
}

impl Dim3 {
    fn arr(self) -> [u32; 3] {
        [self.x, self.y, self.z]
    }
}

/// Stops the program: `name` is not implemented (exit code 3).
pub fn unsupported(name: &str) -> ! {
    fatal(&format!(
        "{name} is not implemented by weft's CUDA runtime (docs/programs.md lists what is)"
    ))
}

/// clang's fat binary wrapper (`__cuda_fatbin_wrapper`).
#[repr(C)]
pub struct FatbinWrapper {
    pub magic: c_int,
    pub version: c_int,
    pub data: *const u8,
    pub unused: *const c_void,
}

#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFatBinary(w: *const FatbinWrapper) -> *mut *mut c_void {
    if w.is_null() {
        fatal("__cudaRegisterFatBinary: no GPU binary");
    }
    let bin = match GpuBinary::from_ptr((*w).data) {
        Ok(b) => b,
        Err(e) => fatal(&e),
    };
    let h = with(|rt| rt.register_module(bin));
    h as *mut *mut c_void
}

#[no_mangle]
pub extern "C" fn __cudaRegisterFatBinaryEnd(_h: *mut *mut c_void) {}

#[no_mangle]
pub extern "C" fn __cudaUnregisterFatBinary(_h: *mut *mut c_void) {}

#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFunction(
    h: *mut *mut c_void,
    host_fun: *const c_char,
    _device_fun: *mut c_char,
    device_name: *const c_char,
    _thread_limit: c_int,
    _tid: *mut c_void,
    _bid: *mut c_void,
    _bdim: *mut c_void,
    _gdim: *mut c_void,
    _wsize: *mut c_int,
) -> c_int {
    let name = CStr::from_ptr(device_name).to_string_lossy().into_owned();
    with(|rt| {
        rt.functions
            .insert(host_fun as usize, ((h as usize).saturating_sub(1), name));
    });
    0
}

#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterVar(
    h: *mut *mut c_void,
    host_var: *mut c_char,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    size: usize,
    _constant: c_int,
    _global: c_int,
) {
    let name = CStr::from_ptr(device_name).to_string_lossy().into_owned();
    with(|rt| rt.register_var(h as usize, host_var as usize, &name, size as u64));
}

#[no_mangle]
pub extern "C" fn __cudaRegisterManagedVar(
    _h: *mut *mut c_void,
    _host_var: *mut *mut c_void,
    _device_address: *mut c_char,
    _device_name: *const c_char,
    _ext: c_int,
    _size: usize,
    _constant: c_int,
    _global: c_int,
) {
    unsupported("__managed__ variables (__cudaRegisterManagedVar)")
}

#[no_mangle]
pub extern "C" fn __cudaRegisterTexture() {}
#[no_mangle]
pub extern "C" fn __cudaRegisterSurface() {}

// ---- launches -----------------------------------------------------------------------------

#[no_mangle]
pub extern "C" fn __cudaPushCallConfiguration(
    grid: Dim3,
    block: Dim3,
    shared: usize,
    _stream: *mut c_void,
) -> c_uint {
    with(|rt| {
        rt.configs.push(CallConfig {
            grid: grid.arr(),
            block: block.arr(),
            shared: shared as u64,
        })
    });
    0
}

#[no_mangle]
pub unsafe extern "C" fn __cudaPopCallConfiguration(
    grid: *mut Dim3,
    block: *mut Dim3,
    shared: *mut usize,
    _stream: *mut c_void,
) -> CudaError {
    let Some(c) = with(|rt| rt.configs.pop()) else {
        return with(|rt| rt.ret(errors::MISSING_CONFIGURATION));
    };
    let d = |a: [u32; 3]| Dim3 {
        x: a[0],
        y: a[1],
        z: a[2],
    };
    *grid = d(c.grid);
    *block = d(c.block);
    *shared = c.shared as usize;
    errors::SUCCESS
}

#[no_mangle]
pub extern "C" fn cudaLaunchKernel(
    f: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *const *const c_void,
    shared: usize,
    _stream: *mut c_void,
) -> CudaError {
    let c = CallConfig {
        grid: grid.arr(),
        block: block.arr(),
        shared: shared as u64,
    };
    with(|rt| rt.launch(f as usize, c, ArgSource::Pointers(args)))
}

#[no_mangle]
pub extern "C" fn cudaLaunchCooperativeKernel(
    f: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *const *const c_void,
    shared: usize,
    stream: *mut c_void,
) -> CudaError {
    cudaLaunchKernel(f, grid, block, args, shared, stream)
}

#[no_mangle]
pub extern "C" fn cudaConfigureCall(
    grid: Dim3,
    block: Dim3,
    shared: usize,
    stream: *mut c_void,
) -> CudaError {
    with(|rt| rt.setup_args.clear());
    __cudaPushCallConfiguration(grid, block, shared, stream);
    errors::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cudaSetupArgument(
    arg: *const c_void,
    size: usize,
    offset: usize,
) -> CudaError {
    let src = std::slice::from_raw_parts(arg as *const u8, size);
    with(|rt| {
        if rt.setup_args.len() < offset + size {
            rt.setup_args.resize(offset + size, 0);
        }
        rt.setup_args[offset..offset + size].copy_from_slice(src);
    });
    errors::SUCCESS
}

#[no_mangle]
pub extern "C" fn cudaLaunch(f: *const c_void) -> CudaError {
    with(|rt| {
        let Some(c) = rt.configs.pop() else {
            return rt.ret(errors::MISSING_CONFIGURATION);
        };
        let bytes = std::mem::take(&mut rt.setup_args);
        rt.launch(f as usize, c, ArgSource::Bytes(&bytes))
    })
}

// ---- device --------------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceCount(n: *mut c_int) -> CudaError {
    drop(runtime::get());
    if !n.is_null() {
        *n = 1;
    }
    errors::SUCCESS
}

#[no_mangle]
pub extern "C" fn cudaSetDevice(d: c_int) -> CudaError {
    with(|rt| {
        if d != 0 {
            return rt.ret(errors::INVALID_DEVICE);
        }
        rt.device = 0;
        errors::SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetDevice(d: *mut c_int) -> CudaError {
    let dev = with(|rt| rt.device);
    if !d.is_null() {
        *d = dev;
    }
    errors::SUCCESS
}

/// `struct cudaDeviceProp` of weft's header (`weft_cuda_runtime.h`).
#[repr(C)]
pub struct DeviceProp {
    pub name: [c_char; 256],
    pub total_global_mem: usize,
    pub shared_mem_per_block: usize,
    pub regs_per_block: c_int,
    pub warp_size: c_int,
    pub mem_pitch: usize,
    pub max_threads_per_block: c_int,
    pub max_threads_dim: [c_int; 3],
    pub max_grid_size: [c_int; 3],
    pub clock_rate: c_int,
    pub total_const_mem: usize,
    pub major: c_int,
    pub minor: c_int,
    pub multi_processor_count: c_int,
    pub max_threads_per_multi_processor: c_int,
    pub shared_mem_per_multiprocessor: usize,
    pub memory_clock_rate: c_int,
    pub memory_bus_width: c_int,
    pub l2_cache_size: c_int,
    pub concurrent_kernels: c_int,
    pub managed_memory: c_int,
    pub unified_addressing: c_int,
    pub can_map_host_memory: c_int,
    pub compute_mode: c_int,
    pub integrated: c_int,
    pub device_overlap: c_int,
    pub async_engine_count: c_int,
    pub ecc_enabled: c_int,
    pub shared_mem_per_block_optin: usize,
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceProperties(p: *mut DeviceProp, d: c_int) -> CudaError {
    let dev = with(|rt| rt.config.device.clone());
    if d != 0 || p.is_null() {
        return with(|rt| {
            rt.ret(if d != 0 {
                errors::INVALID_DEVICE
            } else {
                errors::INVALID_VALUE
            })
        });
    }
    std::ptr::write_bytes(p, 0, 1);
    let p = &mut *p;
    for (i, b) in dev.name.bytes().take(255).enumerate() {
        p.name[i] = b as c_char;
    }
    p.total_global_mem = dev.total_mem as usize;
    p.shared_mem_per_block = dev.shared_per_block as usize;
    p.shared_mem_per_block_optin = dev.shared_per_block as usize;
    p.shared_mem_per_multiprocessor = dev.shared_per_block as usize * 2;
    p.regs_per_block = 65536;
    p.warp_size = 32;
    p.mem_pitch = i32::MAX as usize;
    p.max_threads_per_block = dev.max_threads_per_block as c_int;
    p.max_threads_dim = [1024, 1024, 64];
    p.max_grid_size = [i32::MAX, 65535, 65535];
    p.clock_rate = 1_000_000;
    p.total_const_mem = 65536;
    p.major = dev.major;
    p.minor = dev.minor;
    p.multi_processor_count = dev.sms as c_int;
    p.max_threads_per_multi_processor = 2048;
    p.memory_clock_rate = 1_000_000;
    p.memory_bus_width = 256;
    p.managed_memory = 1;
    p.unified_addressing = 1;
    p.concurrent_kernels = 1;
    p.device_overlap = 1;
    p.async_engine_count = 1;
    errors::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetAttribute(v: *mut c_int, attr: c_int, d: c_int) -> CudaError {
    let dev = with(|rt| rt.config.device.clone());
    if d != 0 {
        return with(|rt| rt.ret(errors::INVALID_DEVICE));
    }
    let x = match attr {
        1 => dev.max_threads_per_block as c_int,
        2 | 3 => 1024,
        4 => 64,
        5 => i32::MAX,
        6 | 7 => 65535,
        8 => dev.shared_per_block as c_int,
        10 => 32,
        16 => dev.sms as c_int,
        75 => dev.major,
        76 => dev.minor,
        _ => unsupported(&format!("cudaDeviceGetAttribute (attribute {attr})")),
    };
    *v = x;
    errors::SUCCESS
}

#[no_mangle]
pub extern "C" fn cudaDeviceSynchronize() -> CudaError {
    with(|rt| rt.ret(rt.sticky))
}

#[no_mangle]
pub extern "C" fn cudaThreadSynchronize() -> CudaError {
    cudaDeviceSynchronize()
}

#[no_mangle]
pub extern "C" fn cudaDeviceReset() -> CudaError {
    with(|rt| {
        if rt.config.mode == crate::config::Mode::Memcheck && rt.config.leakcheck {
            // compute-sanitizer checks for leaks when the context is destroyed.
            rt.finish();
            rt.report.finished = false;
        }
        rt.memory.reset();
        rt.sticky = errors::SUCCESS;
        rt.last_error = errors::SUCCESS;
        errors::SUCCESS
    })
}

/// Accepted hints: they change nothing on the emulator.
macro_rules! accepted {
    ($($name:ident($($a:ident: $t:ty),*);)*) => {$(
        #[no_mangle]
        pub extern "C" fn $name($($a: $t),*) -> CudaError {
            $(let _ = $a;)*
            with(|rt| rt.ret(rt.sticky))
        }
    )*};
}

accepted! {
    cudaSetDeviceFlags(flags: c_uint);
    cudaDeviceSetCacheConfig(c: c_int);
    cudaDeviceSetSharedMemConfig(c: c_int);
    cudaDeviceSetLimit(l: c_int, v: usize);
    cudaFuncSetCacheConfig(f: *const c_void, c: c_int);
    cudaFuncSetSharedMemConfig(f: *const c_void, c: c_int);
    cudaFuncSetAttribute(f: *const c_void, a: c_int, v: c_int);
    cudaMemPrefetchAsync(p: *const c_void, n: usize, d: c_int, s: *mut c_void);
}

#[no_mangle]
pub unsafe extern "C" fn cudaRuntimeGetVersion(v: *mut c_int) -> CudaError {
    *v = 12000;
    errors::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cudaDriverGetVersion(v: *mut c_int) -> CudaError {
    *v = 12000;
    errors::SUCCESS
}

// ---- errors --------------------------------------------------------------------------------

#[no_mangle]
pub extern "C" fn cudaGetLastError() -> CudaError {
    with(|rt| {
        let e = rt.last_error;
        rt.last_error = rt.sticky;
        e
    })
}

#[no_mangle]
pub extern "C" fn cudaPeekAtLastError() -> CudaError {
    with(|rt| rt.last_error)
}

#[no_mangle]
pub extern "C" fn cudaGetErrorString(e: CudaError) -> *const c_char {
    errors::c_str(errors::message(e))
}

#[no_mangle]
pub extern "C" fn cudaGetErrorName(e: CudaError) -> *const c_char {
    errors::c_str(errors::name(e))
}

// ---- not implemented -------------------------------------------------------------------------

macro_rules! not_implemented {
    ($($name:ident),*) => {$(
        #[no_mangle]
        pub extern "C" fn $name() -> CudaError {
            unsupported(stringify!($name))
        }
    )*};
}

not_implemented!(
    cudaMallocPitch,
    cudaMemcpy2D,
    cudaMemcpy2DAsync,
    cudaMemcpy3D,
    cudaMallocArray,
    cudaMalloc3D,
    cudaHostGetDevicePointer,
    cudaHostRegister,
    cudaMemcpyPeer,
    cudaDeviceEnablePeerAccess,
    cudaBindTexture,
    cudaCreateTextureObject,
    cudaGraphCreate,
    cudaStreamBeginCapture,
    cudaLaunchHostFunc,
    cudaStreamAddCallback,
    cudaMemAdvise,
    cudaOccupancyMaxActiveBlocksPerMultiprocessor,
    cudaOccupancyMaxPotentialBlockSize,
    cudaFuncGetAttributes,
    cudaIpcGetMemHandle,
    cudaMallocAsync,
    cudaFreeAsync
);
