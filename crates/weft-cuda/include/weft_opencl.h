/* weft_opencl.h: the OpenCL C built-ins weft's kernels may use, for clang's OpenCL mode on the
 * NVPTX target (-target nvptx64-nvidia-nvcl), where no OpenCL library is linked.
 *
 * weft force-includes this header (clang -include). It pulls in clang's own declarations
 * (opencl-c.h) and then redirects, by macro, the built-ins weft implements to definitions
 * here: work-item functions (NVVM special registers), barriers and fences, OpenCL 1.2
 * atomics on __global/__local int and uint, and OpenCL 2.0 atomics with explicit order and
 * scope on atomic_int/atomic_uint. A built-in not listed here stays an external call in the
 * PTX; weft-cuda reports it (or links libclc when asked).
 *
 * OpenCL 2.0 scoped atomics are emitted as exact PTX by inline asm because clang 19's NVPTX
 * back-end drops the memory order of atomic RMWs and cannot select acquire/release loads,
 * stores or fences. Scope mapping: work_item/work_group -> .cta, device -> .gpu,
 * all_svm_devices -> .sys. seq_cst = fence.sc + acquire load / relaxed store / acq_rel RMW.
 */
#ifndef WEFT_OPENCL_H
#define WEFT_OPENCL_H

#include <opencl-c.h>

/* No debug info for the shim's functions: inlined code carries its call's source line. */
#ifdef __clang__
#pragma clang attribute push(__attribute__((nodebug)), apply_to = hasType(functionType))
#endif

#define __WEFT_CL_INLINE static inline __attribute__((always_inline, overloadable))

/* ---- work-item functions ---------------------------------------------------------------- */
#define __WEFT_SREG_DIM(NAME, SREG)                                                            \
  __WEFT_CL_INLINE size_t NAME(uint d) {                                                       \
    return d == 0   ? (size_t)__nvvm_read_ptx_sreg_##SREG##_x()                                \
           : d == 1 ? (size_t)__nvvm_read_ptx_sreg_##SREG##_y()                                \
           : d == 2 ? (size_t)__nvvm_read_ptx_sreg_##SREG##_z()                                \
                    : (size_t)DEFAULT;                                                         \
  }
#define DEFAULT 0
__WEFT_SREG_DIM(__weft_get_local_id, tid)
__WEFT_SREG_DIM(__weft_get_group_id, ctaid)
#undef DEFAULT
#define DEFAULT 1
__WEFT_SREG_DIM(__weft_get_local_size, ntid)
__WEFT_SREG_DIM(__weft_get_num_groups, nctaid)
#undef DEFAULT
#undef __WEFT_SREG_DIM

/* The global offset (GPUVerify's and clEnqueueNDRangeKernel's `global_offset`): 0 unless
 * the launch names one (`--global_offset=[X,Y,Z]`, weft-cuda's launch.rs defines
 * __WEFT_GLOBAL_OFFSET_D). */
#ifndef __WEFT_GLOBAL_OFFSET_0
#define __WEFT_GLOBAL_OFFSET_0 0
#endif
#ifndef __WEFT_GLOBAL_OFFSET_1
#define __WEFT_GLOBAL_OFFSET_1 0
#endif
#ifndef __WEFT_GLOBAL_OFFSET_2
#define __WEFT_GLOBAL_OFFSET_2 0
#endif
__WEFT_CL_INLINE size_t __weft_get_global_offset(uint d) {
  return d == 0 ? (size_t)__WEFT_GLOBAL_OFFSET_0
         : d == 1 ? (size_t)__WEFT_GLOBAL_OFFSET_1
         : d == 2 ? (size_t)__WEFT_GLOBAL_OFFSET_2
                  : 0;
}
__WEFT_CL_INLINE size_t __weft_get_global_id(uint d) {
  return __weft_get_group_id(d) * __weft_get_local_size(d) + __weft_get_local_id(d) +
         __weft_get_global_offset(d);
}
__WEFT_CL_INLINE size_t __weft_get_global_size(uint d) {
  return __weft_get_num_groups(d) * __weft_get_local_size(d);
}
__WEFT_CL_INLINE size_t __weft_get_local_linear_id(void) {
  return (__weft_get_local_id(2) * __weft_get_local_size(1) + __weft_get_local_id(1)) *
             __weft_get_local_size(0) +
         __weft_get_local_id(0);
}
#define get_local_id(d) __weft_get_local_id(d)
#define get_group_id(d) __weft_get_group_id(d)
#define get_local_size(d) __weft_get_local_size(d)
#define get_num_groups(d) __weft_get_num_groups(d)
#define get_global_id(d) __weft_get_global_id(d)
#define get_global_size(d) __weft_get_global_size(d)
#define get_global_offset(d) __weft_get_global_offset(d)
#define get_local_linear_id() __weft_get_local_linear_id()
/* get_work_dim: PTX has no register for it; weft counts the dimensions in use (a launch
 * whose grid and block extents are 1 in z, and in y, is 2- or 1-dimensional). A launch
 * written as [N,1] therefore reports 1 dimension. */
__WEFT_CL_INLINE uint __weft_get_work_dim(void) {
  if (__nvvm_read_ptx_sreg_ntid_z() > 1 || __nvvm_read_ptx_sreg_nctaid_z() > 1)
    return 3;
  if (__nvvm_read_ptx_sreg_ntid_y() > 1 || __nvvm_read_ptx_sreg_nctaid_y() > 1)
    return 2;
  return 1;
}
#define get_work_dim() __weft_get_work_dim()

/* ---- barriers and fences ---------------------------------------------------------------- */
/* A work-group barrier is `bar.sync 0` (`__nvvm_bar_sync`) whatever the fence flags: bar.sync orders the memory
 * accesses of the participating threads in every state space. */
__WEFT_CL_INLINE void __weft_barrier(cl_mem_fence_flags f) { __nvvm_bar_sync(0); }
/* mem_fence: OpenCL 2.0 defines it as an acq_rel work-item fence at work-group scope. */
__WEFT_CL_INLINE void __weft_mem_fence(cl_mem_fence_flags f) { __nvvm_membar_cta(); }
#define barrier(f) __weft_barrier(f)
#define mem_fence(f) __weft_mem_fence(f)
#define read_mem_fence(f) __weft_mem_fence(f)
#define write_mem_fence(f) __weft_mem_fence(f)
#if __OPENCL_C_VERSION__ >= 200
__WEFT_CL_INLINE void __weft_work_group_barrier2(cl_mem_fence_flags f, memory_scope s) {
  __nvvm_bar_sync(0);
}
#define __WEFT_WGB_PICK(_1, _2, NAME, ...) NAME
#define work_group_barrier(...)                                                                \
  __WEFT_WGB_PICK(__VA_ARGS__, __weft_work_group_barrier2, __weft_barrier, )(__VA_ARGS__)
#endif

/* ---- OpenCL 1.2 atomics (relaxed, device scope) on __global/__local int and uint ---------- */
#define __WEFT_CL12_RMW(NAME, BUILTIN, AS, T)                                                 \
  __WEFT_CL_INLINE T NAME(volatile AS T *p, T v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }
#define __WEFT_CL12_ALL(AS, T)                                                                 \
  __WEFT_CL12_RMW(__weft_atomic_add, __atomic_fetch_add, AS, T)                                \
  __WEFT_CL12_RMW(__weft_atomic_sub, __atomic_fetch_sub, AS, T)                                \
  __WEFT_CL12_RMW(__weft_atomic_xchg, __atomic_exchange_n, AS, T)                              \
  __WEFT_CL12_RMW(__weft_atomic_min, __atomic_fetch_min, AS, T)                                \
  __WEFT_CL12_RMW(__weft_atomic_max, __atomic_fetch_max, AS, T)                                \
  __WEFT_CL12_RMW(__weft_atomic_and, __atomic_fetch_and, AS, T)                                \
  __WEFT_CL12_RMW(__weft_atomic_or, __atomic_fetch_or, AS, T)                                  \
  __WEFT_CL12_RMW(__weft_atomic_xor, __atomic_fetch_xor, AS, T)                                \
  __WEFT_CL_INLINE T __weft_atomic_inc(volatile AS T *p) {                                     \
    return __atomic_fetch_add(p, (T)1, __ATOMIC_RELAXED);                                      \
  }                                                                                            \
  __WEFT_CL_INLINE T __weft_atomic_dec(volatile AS T *p) {                                     \
    return __atomic_fetch_sub(p, (T)1, __ATOMIC_RELAXED);                                      \
  }                                                                                            \
  __WEFT_CL_INLINE T __weft_atomic_cmpxchg(volatile AS T *p, T cmp, T v) {                     \
    __atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);            \
    return cmp;                                                                                \
  }
/* AMD's cl_ext_atomic_counters_32: a counter is a __global uint updated only by atomic_inc and
 * atomic_dec (its pointer form, so that the OpenCL 1.2 atomics below apply). */
typedef volatile __global uint *counter32_t;
__WEFT_CL12_ALL(__global, int)
__WEFT_CL12_ALL(__global, uint)
__WEFT_CL12_ALL(__local, int)
__WEFT_CL12_ALL(__local, uint)
/* cl_khr_int64_base_atomics / extended_atomics: atom_* on 64-bit integers */
__WEFT_CL12_ALL(__global, long)
__WEFT_CL12_ALL(__global, ulong)
__WEFT_CL12_ALL(__local, long)
__WEFT_CL12_ALL(__local, ulong)
/* atomic_xchg on float (OpenCL 1.1+): the bits are exchanged */
#define __WEFT_CL12_XCHGF(AS)                                                                  \
  __WEFT_CL_INLINE float __weft_atomic_xchg(volatile AS float *p, float v) {                   \
    return as_float(__atomic_exchange_n((volatile AS int *)p, as_int(v), __ATOMIC_RELAXED));   \
  }
__WEFT_CL12_XCHGF(__global)
__WEFT_CL12_XCHGF(__local)
#undef __WEFT_CL12_XCHGF
#undef __WEFT_CL12_ALL
#undef __WEFT_CL12_RMW
#define atomic_add(p, v) __weft_atomic_add(p, v)
#define atomic_sub(p, v) __weft_atomic_sub(p, v)
#define atomic_xchg(p, v) __weft_atomic_xchg(p, v)
#define atomic_min(p, v) __weft_atomic_min(p, v)
#define atomic_max(p, v) __weft_atomic_max(p, v)
#define atomic_and(p, v) __weft_atomic_and(p, v)
#define atomic_or(p, v) __weft_atomic_or(p, v)
#define atomic_xor(p, v) __weft_atomic_xor(p, v)
#define atomic_inc(p) __weft_atomic_inc(p)
#define atomic_dec(p) __weft_atomic_dec(p)
#define atomic_cmpxchg(p, c, v) __weft_atomic_cmpxchg(p, c, v)
#define atom_add(p, v) __weft_atomic_add(p, v)
#define atom_sub(p, v) __weft_atomic_sub(p, v)
#define atom_xchg(p, v) __weft_atomic_xchg(p, v)
#define atom_min(p, v) __weft_atomic_min(p, v)
#define atom_max(p, v) __weft_atomic_max(p, v)
#define atom_and(p, v) __weft_atomic_and(p, v)
#define atom_or(p, v) __weft_atomic_or(p, v)
#define atom_xor(p, v) __weft_atomic_xor(p, v)
#define atom_inc(p) __weft_atomic_inc(p)
#define atom_dec(p) __weft_atomic_dec(p)
#define atom_cmpxchg(p, c, v) __weft_atomic_cmpxchg(p, c, v)

/* ---- OpenCL 2.0 atomics with memory order and scope --------------------------------------- */
#if __OPENCL_C_VERSION__ >= 200
/* Runs X(SEM, SCOPE) with the PTX scope string for the OpenCL scope __s. */
#define __WEFT_BY_SCOPE(X, SEM)                                                                \
  switch (__s) {                                                                               \
  case memory_scope_work_item:                                                                 \
  case memory_scope_work_group: X(SEM, "cta"); break;                                          \
  case memory_scope_all_svm_devices: X(SEM, "sys"); break;                                     \
  default: X(SEM, "gpu"); break;                                                               \
  }
#define __WEFT_FENCE_SC(SEM, SC) __asm__ volatile("fence.sc." SC ";" ::: "memory")
#define __WEFT_FENCE_AR(SEM, SC) __asm__ volatile("fence.acq_rel." SC ";" ::: "memory")

__WEFT_CL_INLINE void __weft_fence_sc(memory_scope __s) { __WEFT_BY_SCOPE(__WEFT_FENCE_SC, ""); }
__WEFT_CL_INLINE void __weft_fence(memory_order __o, memory_scope __s) {
  if (__o == memory_order_seq_cst) {
    __WEFT_BY_SCOPE(__WEFT_FENCE_SC, "");
  } else if (__o != memory_order_relaxed) {
    __WEFT_BY_SCOPE(__WEFT_FENCE_AR, "");
  }
}
__WEFT_CL_INLINE void __weft_work_item_fence(cl_mem_fence_flags f, memory_order o,
                                             memory_scope s) {
  __weft_fence(o, s);
}
#define atomic_work_item_fence(f, o, s) __weft_work_item_fence(f, o, s)

#define __WEFT_LD(SEM, SC)                                                                     \
  __asm__ volatile("ld." SEM "." SC ".b32 %0, [%1];" : "=r"(__r) : "l"(__p) : "memory")
#define __WEFT_ST(SEM, SC)                                                                     \
  __asm__ volatile("st." SEM "." SC ".b32 [%0], %1;" ::"l"(__p), "r"(__v) : "memory")

__WEFT_CL_INLINE int __weft_load(volatile atomic_int *obj, memory_order __o, memory_scope __s) {
  volatile int *__p = (volatile int *)obj;
  int __r;
  if (__o == memory_order_relaxed) {
    __WEFT_BY_SCOPE(__WEFT_LD, "relaxed");
  } else {
    if (__o == memory_order_seq_cst) __weft_fence_sc(__s);
    __WEFT_BY_SCOPE(__WEFT_LD, "acquire");
  }
  return __r;
}
__WEFT_CL_INLINE void __weft_store(volatile atomic_int *obj, int __v, memory_order __o,
                                   memory_scope __s) {
  volatile int *__p = (volatile int *)obj;
  if (__o == memory_order_seq_cst) __weft_fence_sc(__s);
  if (__o == memory_order_release || __o == memory_order_acq_rel) {
    __WEFT_BY_SCOPE(__WEFT_ST, "release");
  } else {
    __WEFT_BY_SCOPE(__WEFT_ST, "relaxed");
  }
}

/* One RMW: OPTY is the PTX `.op.type` ("add.s32"), ARGS the asm inputs after the address. */
#define __WEFT_RMW_FN(NAME, OPTY)                                                              \
  __WEFT_CL_INLINE int NAME(volatile atomic_int *obj, int __v, memory_order __o,               \
                            memory_scope __s) {                                                \
    volatile int *__p = (volatile int *)obj;                                                   \
    int __r;                                                                                   \
    switch (__o) {                                                                             \
    case memory_order_relaxed: __WEFT_BY_SCOPE(__WEFT_RMW_##NAME, "relaxed"); break;           \
    case memory_order_acquire: __WEFT_BY_SCOPE(__WEFT_RMW_##NAME, "acquire"); break;           \
    case memory_order_release: __WEFT_BY_SCOPE(__WEFT_RMW_##NAME, "release"); break;           \
    case memory_order_seq_cst: __weft_fence_sc(__s); /* fall through */                        \
    default: __WEFT_BY_SCOPE(__WEFT_RMW_##NAME, "acq_rel"); break;                             \
    }                                                                                          \
    return __r;                                                                                \
  }
#define __WEFT_RMW_ASM(OPTY, SEM, SC)                                                          \
  __asm__ volatile("atom." SEM "." SC "." OPTY " %0, [%1], %2;"                                \
                   : "=r"(__r)                                                                 \
                   : "l"(__p), "r"(__v)                                                        \
                   : "memory")
#define __WEFT_RMW___weft_fetch_add(SEM, SC) __WEFT_RMW_ASM("add.s32", SEM, SC)
#define __WEFT_RMW___weft_fetch_and(SEM, SC) __WEFT_RMW_ASM("and.b32", SEM, SC)
#define __WEFT_RMW___weft_fetch_or(SEM, SC) __WEFT_RMW_ASM("or.b32", SEM, SC)
#define __WEFT_RMW___weft_fetch_xor(SEM, SC) __WEFT_RMW_ASM("xor.b32", SEM, SC)
#define __WEFT_RMW___weft_fetch_min(SEM, SC) __WEFT_RMW_ASM("min.s32", SEM, SC)
#define __WEFT_RMW___weft_fetch_max(SEM, SC) __WEFT_RMW_ASM("max.s32", SEM, SC)
#define __WEFT_RMW___weft_fetch_umin(SEM, SC) __WEFT_RMW_ASM("min.u32", SEM, SC)
#define __WEFT_RMW___weft_fetch_umax(SEM, SC) __WEFT_RMW_ASM("max.u32", SEM, SC)
#define __WEFT_RMW___weft_exchange(SEM, SC) __WEFT_RMW_ASM("exch.b32", SEM, SC)
__WEFT_RMW_FN(__weft_fetch_add, "add.s32")
__WEFT_RMW_FN(__weft_fetch_and, "and.b32")
__WEFT_RMW_FN(__weft_fetch_or, "or.b32")
__WEFT_RMW_FN(__weft_fetch_xor, "xor.b32")
__WEFT_RMW_FN(__weft_fetch_min, "min.s32")
__WEFT_RMW_FN(__weft_fetch_max, "max.s32")
__WEFT_RMW_FN(__weft_fetch_umin, "min.u32")
__WEFT_RMW_FN(__weft_fetch_umax, "max.u32")
__WEFT_RMW_FN(__weft_exchange, "exch.b32")

#define __WEFT_CAS_ASM(SEM, SC)                                                                \
  __asm__ volatile("atom." SEM "." SC ".cas.b32 %0, [%1], %2, %3;"                             \
                   : "=r"(__r)                                                                 \
                   : "l"(__p), "r"(__c), "r"(__v)                                              \
                   : "memory")
__WEFT_CL_INLINE int __weft_cas(volatile atomic_int *obj, int __c, int __v, memory_order __o,
                                memory_scope __s) {
  volatile int *__p = (volatile int *)obj;
  int __r;
  switch (__o) {
  case memory_order_relaxed: __WEFT_BY_SCOPE(__WEFT_CAS_ASM, "relaxed"); break;
  case memory_order_acquire: __WEFT_BY_SCOPE(__WEFT_CAS_ASM, "acquire"); break;
  case memory_order_release: __WEFT_BY_SCOPE(__WEFT_CAS_ASM, "release"); break;
  case memory_order_seq_cst: __weft_fence_sc(__s); /* fall through */
  default: __WEFT_BY_SCOPE(__WEFT_CAS_ASM, "acq_rel"); break;
  }
  return __r;
}

/* The public names, for atomic_int and atomic_uint, with and without an explicit scope. */
#define __WEFT_AI(p) ((volatile atomic_int *)(p))
#define __WEFT_CL20_RMW(NAME, IMPL, UIMPL)                                                     \
  __WEFT_CL_INLINE int NAME(volatile atomic_int *p, int v, memory_order o, memory_scope s) {   \
    return IMPL(p, v, o, s);                                                                   \
  }                                                                                            \
  __WEFT_CL_INLINE int NAME(volatile atomic_int *p, int v, memory_order o) {                   \
    return IMPL(p, v, o, memory_scope_device);                                                 \
  }                                                                                            \
  __WEFT_CL_INLINE int NAME(volatile atomic_int *p, int v) {                                   \
    return IMPL(p, v, memory_order_seq_cst, memory_scope_device);                              \
  }                                                                                            \
  __WEFT_CL_INLINE uint NAME(volatile atomic_uint *p, uint v, memory_order o, memory_scope s) { \
    return (uint)UIMPL(__WEFT_AI(p), (int)v, o, s);                                            \
  }                                                                                            \
  __WEFT_CL_INLINE uint NAME(volatile atomic_uint *p, uint v, memory_order o) {                \
    return (uint)UIMPL(__WEFT_AI(p), (int)v, o, memory_scope_device);                          \
  }                                                                                            \
  __WEFT_CL_INLINE uint NAME(volatile atomic_uint *p, uint v) {                                \
    return (uint)UIMPL(__WEFT_AI(p), (int)v, memory_order_seq_cst, memory_scope_device);       \
  }
__WEFT_CL20_RMW(__weft_cl_fetch_add, __weft_fetch_add, __weft_fetch_add)
__WEFT_CL20_RMW(__weft_cl_fetch_and, __weft_fetch_and, __weft_fetch_and)
__WEFT_CL20_RMW(__weft_cl_fetch_or, __weft_fetch_or, __weft_fetch_or)
__WEFT_CL20_RMW(__weft_cl_fetch_xor, __weft_fetch_xor, __weft_fetch_xor)
__WEFT_CL20_RMW(__weft_cl_fetch_min, __weft_fetch_min, __weft_fetch_umin)
__WEFT_CL20_RMW(__weft_cl_fetch_max, __weft_fetch_max, __weft_fetch_umax)
__WEFT_CL20_RMW(__weft_cl_exchange, __weft_exchange, __weft_exchange)
#undef __WEFT_CL20_RMW
__WEFT_CL_INLINE int __weft_neg(int v) { return -v; }
__WEFT_CL_INLINE uint __weft_neg(uint v) { return (uint)(-(int)v); }
#define atomic_fetch_add_explicit(p, v, ...) __weft_cl_fetch_add(p, v, __VA_ARGS__)
#define atomic_fetch_sub_explicit(p, v, ...) __weft_cl_fetch_add(p, __weft_neg(v), __VA_ARGS__)
#define atomic_fetch_and_explicit(p, v, ...) __weft_cl_fetch_and(p, v, __VA_ARGS__)
#define atomic_fetch_or_explicit(p, v, ...) __weft_cl_fetch_or(p, v, __VA_ARGS__)
#define atomic_fetch_xor_explicit(p, v, ...) __weft_cl_fetch_xor(p, v, __VA_ARGS__)
#define atomic_fetch_min_explicit(p, v, ...) __weft_cl_fetch_min(p, v, __VA_ARGS__)
#define atomic_fetch_max_explicit(p, v, ...) __weft_cl_fetch_max(p, v, __VA_ARGS__)
#define atomic_exchange_explicit(p, v, ...) __weft_cl_exchange(p, v, __VA_ARGS__)
#define atomic_fetch_add(p, v) __weft_cl_fetch_add(p, v)
#define atomic_fetch_sub(p, v) __weft_cl_fetch_add(p, __weft_neg(v))
#define atomic_fetch_and(p, v) __weft_cl_fetch_and(p, v)
#define atomic_fetch_or(p, v) __weft_cl_fetch_or(p, v)
#define atomic_fetch_xor(p, v) __weft_cl_fetch_xor(p, v)
#define atomic_fetch_min(p, v) __weft_cl_fetch_min(p, v)
#define atomic_fetch_max(p, v) __weft_cl_fetch_max(p, v)
#define atomic_exchange(p, v) __weft_cl_exchange(p, v)

#define __WEFT_CL20_LS(T, AT)                                                                  \
  __WEFT_CL_INLINE T __weft_cl_load(volatile AT *p, memory_order o, memory_scope s) {          \
    return (T)__weft_load(__WEFT_AI(p), o, s);                                                 \
  }                                                                                            \
  __WEFT_CL_INLINE T __weft_cl_load(volatile AT *p, memory_order o) {                          \
    return (T)__weft_load(__WEFT_AI(p), o, memory_scope_device);                               \
  }                                                                                            \
  __WEFT_CL_INLINE T __weft_cl_load(volatile AT *p) {                                          \
    return (T)__weft_load(__WEFT_AI(p), memory_order_seq_cst, memory_scope_device);            \
  }                                                                                            \
  __WEFT_CL_INLINE void __weft_cl_store(volatile AT *p, T v, memory_order o, memory_scope s) { \
    __weft_store(__WEFT_AI(p), (int)v, o, s);                                                  \
  }                                                                                            \
  __WEFT_CL_INLINE void __weft_cl_store(volatile AT *p, T v, memory_order o) {                 \
    __weft_store(__WEFT_AI(p), (int)v, o, memory_scope_device);                                \
  }                                                                                            \
  __WEFT_CL_INLINE void __weft_cl_store(volatile AT *p, T v) {                                 \
    __weft_store(__WEFT_AI(p), (int)v, memory_order_seq_cst, memory_scope_device);             \
  }                                                                                            \
  __WEFT_CL_INLINE bool __weft_cl_cas(volatile AT *p, T *expected, T desired, memory_order o,  \
                                      memory_order f, memory_scope s) {                        \
    int old = __weft_cas(__WEFT_AI(p), (int)*expected, (int)desired, o, s);                    \
    if (old == (int)*expected) return true;                                                    \
    *expected = (T)old;                                                                        \
    return false;                                                                              \
  }                                                                                            \
  __WEFT_CL_INLINE bool __weft_cl_cas(volatile AT *p, T *expected, T desired, memory_order o,  \
                                      memory_order f) {                                        \
    return __weft_cl_cas(p, expected, desired, o, f, memory_scope_device);                     \
  }                                                                                            \
  __WEFT_CL_INLINE bool __weft_cl_cas(volatile AT *p, T *expected, T desired) {                \
    return __weft_cl_cas(p, expected, desired, memory_order_seq_cst, memory_order_seq_cst,     \
                         memory_scope_device);                                                 \
  }                                                                                            \
  __WEFT_CL_INLINE void __weft_cl_init(volatile AT *p, T v) { *(volatile T *)p = v; }
__WEFT_CL20_LS(int, atomic_int)
__WEFT_CL20_LS(uint, atomic_uint)
#undef __WEFT_CL20_LS
#define atomic_load_explicit(...) __weft_cl_load(__VA_ARGS__)
#define atomic_load(p) __weft_cl_load(p)
#define atomic_store_explicit(...) __weft_cl_store(__VA_ARGS__)
#define atomic_store(p, v) __weft_cl_store(p, v)
#define atomic_compare_exchange_strong_explicit(...) __weft_cl_cas(__VA_ARGS__)
#define atomic_compare_exchange_weak_explicit(...) __weft_cl_cas(__VA_ARGS__)
#define atomic_compare_exchange_strong(p, e, d) __weft_cl_cas(p, e, d)
#define atomic_compare_exchange_weak(p, e, d) __weft_cl_cas(p, e, d)
#define atomic_init(p, v) __weft_cl_init(p, v)
#endif /* __OPENCL_C_VERSION__ >= 200 */

/* ---- images and samplers ----------------------------------------------------------------
 * weft has no image memory: a read_image* yields an arbitrary value (an IR havoc query; the
 * emulator reads 0, the verifier leaves it unconstrained), a write_image* has no effect, and
 * a sampler is only a number. This is how GPUVerify-style kernels that copy images compile,
 * parse and lower; races on image contents are not modelled. `__translate_sampler_initializer`
 * is the function clang calls to turn a sampler constant (`CLK_ADDRESS_... | ...`) into a
 * `sampler_t`. */
int __weft_query_havoc(void);
static inline __attribute__((always_inline)) __constant void *
__translate_sampler_initializer(int __s) {
  return (__constant void *)0;
}
#define __WEFT_IMG_READ(IMG, COORD)                                                            \
  __WEFT_CL_INLINE float4 __weft_read_imagef(read_only IMG i, sampler_t s, COORD c) {          \
    return (float4)((float)__weft_query_havoc());                                              \
  }                                                                                            \
  __WEFT_CL_INLINE int4 __weft_read_imagei(read_only IMG i, sampler_t s, COORD c) {            \
    return (int4)(__weft_query_havoc());                                                       \
  }                                                                                            \
  __WEFT_CL_INLINE uint4 __weft_read_imageui(read_only IMG i, sampler_t s, COORD c) {          \
    return (uint4)((uint)__weft_query_havoc());                                                \
  }
#define __WEFT_IMG_ACCESS(IMG, ICOORD, FCOORD)                                                 \
  __WEFT_IMG_READ(IMG, ICOORD)                                                                 \
  __WEFT_IMG_READ(IMG, FCOORD)                                                                 \
  __WEFT_CL_INLINE float4 __weft_read_imagef(read_only IMG i, ICOORD c) {                      \
    return (float4)((float)__weft_query_havoc());                                              \
  }                                                                                            \
  __WEFT_CL_INLINE int4 __weft_read_imagei(read_only IMG i, ICOORD c) {                        \
    return (int4)(__weft_query_havoc());                                                       \
  }                                                                                            \
  __WEFT_CL_INLINE uint4 __weft_read_imageui(read_only IMG i, ICOORD c) {                      \
    return (uint4)((uint)__weft_query_havoc());                                                \
  }
#define __WEFT_IMG_WRITE(IMG, ICOORD)                                                          \
  __WEFT_CL_INLINE void __weft_write_imagef(write_only IMG i, ICOORD c, float4 v) {}           \
  __WEFT_CL_INLINE void __weft_write_imagei(write_only IMG i, ICOORD c, int4 v) {}             \
  __WEFT_CL_INLINE void __weft_write_imageui(write_only IMG i, ICOORD c, uint4 v) {}
__WEFT_IMG_ACCESS(image1d_t, int, float)
__WEFT_IMG_ACCESS(image2d_t, int2, float2)
__WEFT_IMG_ACCESS(image3d_t, int4, float4)
__WEFT_IMG_ACCESS(image2d_array_t, int4, float4)
__WEFT_IMG_WRITE(image1d_t, int)
__WEFT_IMG_WRITE(image2d_t, int2)
__WEFT_IMG_WRITE(image2d_array_t, int4)
#ifdef cl_khr_3d_image_writes
__WEFT_IMG_WRITE(image3d_t, int4)
#endif
#undef __WEFT_IMG_ACCESS
#undef __WEFT_IMG_WRITE
#undef __WEFT_IMG_READ
#define __WEFT_IMG_SIZE(F, ACC, IMG)                                                           \
  __WEFT_CL_INLINE int __weft_get_image_##F(ACC IMG i) { return __weft_query_havoc(); }
__WEFT_IMG_SIZE(width, read_only, image1d_t)
__WEFT_IMG_SIZE(width, write_only, image1d_t)
__WEFT_IMG_SIZE(width, read_only, image2d_t)
__WEFT_IMG_SIZE(width, write_only, image2d_t)
__WEFT_IMG_SIZE(width, read_only, image3d_t)
__WEFT_IMG_SIZE(height, read_only, image2d_t)
__WEFT_IMG_SIZE(height, write_only, image2d_t)
__WEFT_IMG_SIZE(height, read_only, image3d_t)
#undef __WEFT_IMG_SIZE
#define read_imagef __weft_read_imagef
#define read_imagei __weft_read_imagei
#define read_imageui __weft_read_imageui
#define write_imagef __weft_write_imagef
#define write_imagei __weft_write_imagei
#define write_imageui __weft_write_imageui
#define get_image_width __weft_get_image_width
#define get_image_height __weft_get_image_height
#ifdef __clang__
#pragma clang attribute pop
#endif

/* native_sin, native_cos, native_tan: libclc implements them with LLVM's sin/cos intrinsics,
 * which clang 19's NVPTX back-end cannot select (it crashes: "Cannot select: fcos"). OpenCL
 * 1.2 §6.12.2 leaves their accuracy to the implementation: here PTX's sin.approx/cos.approx,
 * component by component for vectors (double through float). */
#define __WEFT_NATIVE(NAME, EXPR)                                                              \
  __WEFT_CL_INLINE float __weft_##NAME(float x) { return EXPR; }                               \
  __WEFT_CL_INLINE double __weft_##NAME(double d) {                                            \
    float x = (float)d;                                                                        \
    return (double)(EXPR);                                                                     \
  }                                                                                            \
  __WEFT_NATIVE_V(NAME, float)                                                                 \
  __WEFT_NATIVE_V(NAME, double)
#define __WEFT_NATIVE_V(NAME, T)                                                               \
  __WEFT_CL_INLINE T##2 __weft_##NAME(T##2 v) {                                                \
    return (T##2)(__weft_##NAME(v.s0), __weft_##NAME(v.s1));                                   \
  }                                                                                            \
  __WEFT_CL_INLINE T##3 __weft_##NAME(T##3 v) {                                                \
    return (T##3)(__weft_##NAME(v.s0), __weft_##NAME(v.s1), __weft_##NAME(v.s2));              \
  }                                                                                            \
  __WEFT_CL_INLINE T##4 __weft_##NAME(T##4 v) {                                                \
    return (T##4)(__weft_##NAME(v.s01), __weft_##NAME(v.s23));                                 \
  }                                                                                            \
  __WEFT_CL_INLINE T##8 __weft_##NAME(T##8 v) {                                                \
    return (T##8)(__weft_##NAME(v.s0123), __weft_##NAME(v.s4567));                             \
  }                                                                                            \
  __WEFT_CL_INLINE T##16 __weft_##NAME(T##16 v) {                                              \
    return (T##16)(__weft_##NAME(v.s01234567), __weft_##NAME(v.s89abcdef));                    \
  }
__WEFT_NATIVE(native_sin, __nvvm_sin_approx_f(x))
__WEFT_NATIVE(native_cos, __nvvm_cos_approx_f(x))
__WEFT_NATIVE(native_tan, __nvvm_sin_approx_f(x) / __nvvm_cos_approx_f(x))
#define native_sin __weft_native_sin
#define native_cos __weft_native_cos
#define native_tan __weft_native_tan

/* Verifier only (weft-verify defines WEFT_OPAQUE_FLOAT_MATH): cos, sin, tan, pow and fmod
 * through PTX's approximate instructions instead of libclc. libclc computes them with
 * integer operations on the float's bits, tables and loops, which the verifier then reasons
 * about bit by bit (an OpenCL kernel calling `cos` took 21 s to verify, `native_cos` 0.4 s),
 * while it treats a float result only as some value determined by the arguments: a race or
 * an assertion that holds for every such value holds for the exact one. The emulator keeps
 * libclc's exact functions. (exp, log and the others verify in about a second through libclc,
 * whose tables the verifier reads: `cl_log_constant_tables.cl`.) */
#ifdef WEFT_OPAQUE_FLOAT_MATH
#define __WEFT_OPAQUE2_V(NAME, T)                                                              \
  __WEFT_CL_INLINE T##2 NAME(T##2 a, T##2 b) {                                                 \
    return (T##2)(NAME(a.s0, b.s0), NAME(a.s1, b.s1));                                         \
  }                                                                                            \
  __WEFT_CL_INLINE T##3 NAME(T##3 a, T##3 b) {                                                 \
    return (T##3)(NAME(a.s0, b.s0), NAME(a.s1, b.s1), NAME(a.s2, b.s2));                       \
  }                                                                                            \
  __WEFT_CL_INLINE T##4 NAME(T##4 a, T##4 b) {                                                 \
    return (T##4)(NAME(a.s01, b.s01), NAME(a.s23, b.s23));                                     \
  }                                                                                            \
  __WEFT_CL_INLINE T##8 NAME(T##8 a, T##8 b) {                                                 \
    return (T##8)(NAME(a.s0123, b.s0123), NAME(a.s4567, b.s4567));                             \
  }                                                                                            \
  __WEFT_CL_INLINE T##16 NAME(T##16 a, T##16 b) {                                              \
    return (T##16)(NAME(a.s01234567, b.s01234567), NAME(a.s89abcdef, b.s89abcdef));           \
  }
#define __WEFT_OPAQUE2(NAME, EXPR)                                                             \
  __WEFT_CL_INLINE float NAME(float x, float y) { return EXPR; }                               \
  __WEFT_CL_INLINE double NAME(double dx, double dy) {                                         \
    float x = (float)dx, y = (float)dy;                                                        \
    return (double)(EXPR);                                                                     \
  }                                                                                            \
  __WEFT_OPAQUE2_V(NAME, float)                                                                \
  __WEFT_OPAQUE2_V(NAME, double)
__WEFT_OPAQUE2(__weft_opaque_pow, __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x)))
__WEFT_OPAQUE2(__weft_opaque_fmod, x - y * __builtin_truncf(x / y))
#undef __WEFT_OPAQUE2
#undef __WEFT_OPAQUE2_V
#define cos(x) __weft_native_cos(x)
#define sin(x) __weft_native_sin(x)
#define tan(x) __weft_native_tan(x)
#define pow(x, y) __weft_opaque_pow(x, y)
#define fmod(x, y) __weft_opaque_fmod(x, y)
#endif
#undef __WEFT_NATIVE
#undef __WEFT_NATIVE_V

#endif /* WEFT_OPENCL_H */
