/* weft_cuda.h: the CUDA device API that weft's kernels may use, for clang's CUDA mode
 * without NVIDIA's headers (-nocudainc -nocudalib), plus weft's scoped memory-model helpers.
 *
 * weft force-includes this header (clang -include). Under nvcc the CUDA toolkit provides the
 * runtime API itself and only the weft_* helpers and weft::atomic_ref below are defined.
 *
 * Why inline PTX: clang 19's NVPTX back-end drops the memory order of atomic
 * read-modify-writes (every __atomic_* RMW becomes a plain relaxed `atom`) and cannot select
 * acquire/release atomic loads, stores or fences at all (it aborts with "Cannot select").
 * The scoped helpers therefore emit the exact PTX instructions of the PTX memory model
 * (ld.acquire.gpu, st.release.cta, atom.acq_rel.sys.add, fence.sc.gpu, ...).
 */
#ifndef WEFT_CUDA_H
#define WEFT_CUDA_H

/* Type names a program may declare again with another type (GPUVerify's kernels were written
 * without the C library's headers: `typedef unsigned int size_t;`): weft compiles such a
 * program again with -DNAME=__weft_user_NAME (weft-cuda's headers::SHIM_TYPE_NAMES), and the
 * shim keeps the C library's NAME for itself. */
#pragma push_macro("size_t")
#undef size_t
#pragma push_macro("ptrdiff_t")
#undef ptrdiff_t
#pragma push_macro("clock_t")
#undef clock_t
#pragma push_macro("time_t")
#undef time_t
#pragma push_macro("uint")
#undef uint
#pragma push_macro("ushort")
#undef ushort
#pragma push_macro("uchar")
#undef uchar
#pragma push_macro("ulong")
#undef ulong

/* No debug info for the shim's functions: code inlined from them carries the source line of
   its call (race reports, verifier errors name the user's `atomicAdd(...)` line). */
#ifdef __clang__
#pragma clang attribute push(__attribute__((nodebug)), apply_to = hasType(functionType))
#endif

#if defined(__CUDACC__) && !defined(__clang__)
#define WEFT_NVCC 1
#endif

#ifndef WEFT_NVCC
/* ---- function and variable qualifiers --------------------------------------------------- */
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* clang-19 ignores `managed` in CUDA mode (HIP only): a `__managed__` variable is a
   `__device__` one whose host shadow lies in the section `weft_managed`, which weft's
   runtime keeps coherent with the device copy (docs/programs.md, "Managed variables"). */
#ifdef __CUDA_ARCH__
#define __managed__ __attribute__((device))
#else
#define __managed__ __attribute__((device)) __attribute__((section("weft_managed")))
#if defined(__CUDA__)
/* The host side of a .cu file (tested here: later lines define __CUDA_ARCH__ on it too). */
#define WEFT_CUDA_HOST_SIDE 1
#endif
#endif
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#ifndef __restrict__
#define __restrict__ __restrict
#endif

typedef unsigned long long __weft_u64;

struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
};

/* ---- built-in variables: threadIdx, blockIdx, blockDim, gridDim, warpSize --------------- */
/* Each is an object whose .x/.y/.z are properties read through clang's NVVM special-register
 * builtins, which become `mov.u32 %r, %tid.x` and friends. */
#define WEFT_SREG3(VAR, SREG)                                                                  \
  struct __weft_##VAR##_t {                                                                    \
    __declspec(property(get = __get_x)) unsigned int x;                                        \
    __declspec(property(get = __get_y)) unsigned int y;                                        \
    __declspec(property(get = __get_z)) unsigned int z;                                        \
    static __device__ __forceinline__ unsigned int __get_x() {                                 \
      return __nvvm_read_ptx_sreg_##SREG##_x();                                                \
    }                                                                                          \
    static __device__ __forceinline__ unsigned int __get_y() {                                 \
      return __nvvm_read_ptx_sreg_##SREG##_y();                                                \
    }                                                                                          \
    static __device__ __forceinline__ unsigned int __get_z() {                                 \
      return __nvvm_read_ptx_sreg_##SREG##_z();                                                \
    }                                                                                          \
    __device__ operator uint3() const { return uint3{__get_x(), __get_y(), __get_z()}; }       \
  };                                                                                           \
  extern const __device__ __weft_##VAR##_t VAR;

WEFT_SREG3(threadIdx, tid)
WEFT_SREG3(blockIdx, ctaid)
WEFT_SREG3(blockDim, ntid)
WEFT_SREG3(gridDim, nctaid)
#undef WEFT_SREG3

/* The warp size of every NVIDIA GPU so far. */
static constexpr int warpSize = 32;

/* ---- barriers and fences ---------------------------------------------------------------- */
/* __syncthreads() is a clang builtin: `bar.sync 0`. */
static __device__ __forceinline__ int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
static __device__ __forceinline__ int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
static __device__ __forceinline__ int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
/* `bar.warp.sync mask` */
static __device__ __forceinline__ void __syncwarp(unsigned int mask = 0xffffffffu) {
  __nvvm_bar_warp_sync(mask);
}
/* `membar.gl`, `membar.cta`, `membar.sys` */
static __device__ __forceinline__ void __threadfence(void) { __nvvm_membar_gl(); }
static __device__ __forceinline__ void __threadfence_block(void) { __nvvm_membar_cta(); }
static __device__ __forceinline__ void __threadfence_system(void) { __nvvm_membar_sys(); }

/* ---- atomics (CUDA semantics: relaxed, device scope unless _block/_system) --------------- */
#define WEFT_ATOMIC_I(NAME, BUILTIN)                                                           \
  static __device__ __forceinline__ int NAME(int *p, int v) { return BUILTIN##_i(p, v); }      \
  static __device__ __forceinline__ unsigned int NAME(unsigned int *p, unsigned int v) {       \
    return (unsigned int)BUILTIN##_i((int *)p, (int)v);                                        \
  }
WEFT_ATOMIC_I(atomicAdd, __nvvm_atom_add_gen)
WEFT_ATOMIC_I(atomicExch, __nvvm_atom_xchg_gen)
WEFT_ATOMIC_I(atomicAnd, __nvvm_atom_and_gen)
WEFT_ATOMIC_I(atomicOr, __nvvm_atom_or_gen)
WEFT_ATOMIC_I(atomicXor, __nvvm_atom_xor_gen)
WEFT_ATOMIC_I(atomicAdd_block, __nvvm_atom_cta_add_gen)
WEFT_ATOMIC_I(atomicAdd_system, __nvvm_atom_sys_add_gen)
WEFT_ATOMIC_I(atomicExch_block, __nvvm_atom_cta_xchg_gen)
WEFT_ATOMIC_I(atomicExch_system, __nvvm_atom_sys_xchg_gen)
#undef WEFT_ATOMIC_I

static __device__ __forceinline__ __weft_u64 atomicAdd(__weft_u64 *p, __weft_u64 v) {
  return (__weft_u64)__nvvm_atom_add_gen_ll((long long *)p, (long long)v);
}
static __device__ __forceinline__ float atomicAdd(float *p, float v) {
  return __nvvm_atom_add_gen_f(p, v);
}
static __device__ __forceinline__ float atomicExch(float *p, float v) {
  return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i((int *)p, __builtin_bit_cast(int, v)));
}
static __device__ __forceinline__ int atomicSub(int *p, int v) {
  return __nvvm_atom_add_gen_i(p, -v);
}
static __device__ __forceinline__ unsigned int atomicSub(unsigned int *p, unsigned int v) {
  return (unsigned int)__nvvm_atom_add_gen_i((int *)p, -(int)v);
}
static __device__ __forceinline__ int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
static __device__ __forceinline__ unsigned int atomicMin(unsigned int *p, unsigned int v) {
  return __nvvm_atom_min_gen_ui(p, v);
}
static __device__ __forceinline__ int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
static __device__ __forceinline__ unsigned int atomicMax(unsigned int *p, unsigned int v) {
  return __nvvm_atom_max_gen_ui(p, v);
}
/* `atom.inc.u32`: ((old >= limit) ? 0 : old + 1); `atom.dec.u32`: wraps to limit. */
static __device__ __forceinline__ unsigned int atomicInc(unsigned int *p, unsigned int limit) {
  return __nvvm_atom_inc_gen_ui(p, limit);
}
static __device__ __forceinline__ unsigned int atomicDec(unsigned int *p, unsigned int limit) {
  return __nvvm_atom_dec_gen_ui(p, limit);
}
static __device__ __forceinline__ int atomicCAS(int *p, int cmp, int v) {
  return __nvvm_atom_cas_gen_i(p, cmp, v);
}
static __device__ __forceinline__ unsigned int atomicCAS(unsigned int *p, unsigned int cmp,
                                                         unsigned int v) {
  return (unsigned int)__nvvm_atom_cas_gen_i((int *)p, (int)cmp, (int)v);
}
static __device__ __forceinline__ __weft_u64 atomicCAS(__weft_u64 *p, __weft_u64 cmp,
                                                       __weft_u64 v) {
  return (__weft_u64)__nvvm_atom_cas_gen_ll((long long *)p, (long long)cmp, (long long)v);
}
static __device__ __forceinline__ int atomicCAS_block(int *p, int cmp, int v) {
  return __nvvm_atom_cta_cas_gen_i(p, cmp, v);
}
static __device__ __forceinline__ int atomicCAS_system(int *p, int cmp, int v) {
  return __nvvm_atom_sys_cas_gen_i(p, cmp, v);
}

/* ---- warp votes and shuffles ------------------------------------------------------------ */
/* `activemask.b32` */
static __device__ __forceinline__ unsigned int __activemask(void) { return __nvvm_activemask(); }
/* `vote.sync.{all,any,uni}.pred`, `vote.sync.ballot.b32` */
static __device__ __forceinline__ int __all_sync(unsigned int mask, int p) {
  return __nvvm_vote_all_sync(mask, p);
}
static __device__ __forceinline__ int __any_sync(unsigned int mask, int p) {
  return __nvvm_vote_any_sync(mask, p);
}
static __device__ __forceinline__ int __uni_sync(unsigned int mask, int p) {
  return __nvvm_vote_uni_sync(mask, p);
}
static __device__ __forceinline__ unsigned int __ballot_sync(unsigned int mask, int p) {
  return __nvvm_vote_ballot_sync(mask, p);
}
/* `shfl.sync.{idx,up,down,bfly}.b32 d, a, b, c, mask`; c packs the segment mask (width) and
 * the clamp lane as in the PTX ISA's description of shfl.sync. */
#define WEFT_SHFL(NAME, MODE, UP)                                                              \
  static __device__ __forceinline__ int NAME(unsigned int mask, int v, int b,                  \
                                             int width = warpSize) {                           \
    int c = ((warpSize - width) << 8) | ((UP) ? 0 : 0x1f);                                     \
    return __nvvm_shfl_sync_##MODE##_i32(mask, v, b, c);                                       \
  }                                                                                            \
  static __device__ __forceinline__ unsigned int NAME(unsigned int mask, unsigned int v, int b, \
                                                      int width = warpSize) {                  \
    int c = ((warpSize - width) << 8) | ((UP) ? 0 : 0x1f);                                     \
    return (unsigned int)__nvvm_shfl_sync_##MODE##_i32(mask, (int)v, b, c);                    \
  }                                                                                            \
  static __device__ __forceinline__ float NAME(unsigned int mask, float v, int b,              \
                                               int width = warpSize) {                         \
    int c = ((warpSize - width) << 8) | ((UP) ? 0 : 0x1f);                                     \
    return __nvvm_shfl_sync_##MODE##_f32(mask, v, b, c);                                       \
  }
WEFT_SHFL(__shfl_sync, idx, 0)
WEFT_SHFL(__shfl_up_sync, up, 1)
WEFT_SHFL(__shfl_down_sync, down, 0)
WEFT_SHFL(__shfl_xor_sync, bfly, 0)
#undef WEFT_SHFL

/* `match.sync.any.b32`/`.b64` and `match.sync.all.b32`/`.b64` (the predicate through `pred`) */
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned int mask, int v) {
  return __nvvm_match_any_sync_i32(mask, v);
}
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned int mask, unsigned int v) {
  return __nvvm_match_any_sync_i32(mask, (int)v);
}
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned int mask, long long v) {
  return __nvvm_match_any_sync_i64(mask, v);
}
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned int mask, int v, int *pred) {
  return __nvvm_match_all_sync_i32p(mask, v, pred);
}
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned int mask, unsigned int v,
                                                                int *pred) {
  return __nvvm_match_all_sync_i32p(mask, (int)v, pred);
}
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned int mask, long long v,
                                                                int *pred) {
  return __nvvm_match_all_sync_i64p(mask, v, pred);
}

/* `%laneid` */
static __device__ __forceinline__ unsigned int __weft_laneid(void) {
  return __nvvm_read_ptx_sreg_laneid();
}

/* ---- C/CUDA types: size_t, NULL, fixed-width integers, vector types ------------------- */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h> /* host code of a .cu file: exit, malloc, free, rand */
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
/* Device side only: the host side of a CUDA program (clang --cuda-host-only) must not see it.
   (clang defines __NVPTX__ on the host side too, as the auxiliary target's macro, so the
   host side is told by WEFT_CUDA_HOST_SIDE, set above before anything defines it.) */
#if !defined(__CUDA_ARCH__) && !defined(WEFT_CUDA_HOST_SIDE)
#define __CUDA_ARCH__ 700
#endif
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;
typedef unsigned long ulong;
#define WEFT_VEC(T, N)                                                                         \
  struct __attribute__((aligned(sizeof(T)))) N##1 { T x; };              \
  struct __attribute__((aligned(sizeof(T) * 2))) N##2 { T x, y; };                             \
  struct N##3 { T x, y, z; };                                                                  \
  struct __attribute__((aligned(sizeof(T) * 4 > 16 ? 16 : sizeof(T) * 4))) N##4 { T x, y, z, w; }; \
  static __host__ __device__ __forceinline__ N##1 make_##N##1(T x) { N##1 v = {x}; return v; }      \
  static __host__ __device__ __forceinline__ N##2 make_##N##2(T x, T y) { N##2 v = {x, y}; return v; } \
  static __host__ __device__ __forceinline__ N##3 make_##N##3(T x, T y, T z) {                  \
    N##3 v = {x, y, z};                                                                        \
    return v;                                                                                  \
  }                                                                                            \
  static __host__ __device__ __forceinline__ N##4 make_##N##4(T x, T y, T z, T w) {             \
    N##4 v = {x, y, z, w};                                                                     \
    return v;                                                                                  \
  }
WEFT_VEC(signed char, char)
WEFT_VEC(unsigned char, uchar)
WEFT_VEC(short, short)
WEFT_VEC(unsigned short, ushort)
WEFT_VEC(int, int)
WEFT_VEC(float, float)
WEFT_VEC(long, long)
WEFT_VEC(unsigned long, ulong)
WEFT_VEC(long long, longlong)
WEFT_VEC(unsigned long long, ulonglong)
WEFT_VEC(double, double)
#undef WEFT_VEC
/* uint3 is declared above (threadIdx's type); the rest of the uint family: */
struct uint1 { unsigned int x; };
struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };
struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };
static __host__ __device__ __forceinline__ uint1 make_uint1(unsigned x) { uint1 v = {x}; return v; }
static __host__ __device__ __forceinline__ uint2 make_uint2(unsigned x, unsigned y) {
  uint2 v = {x, y};
  return v;
}
static __host__ __device__ __forceinline__ uint3 make_uint3(unsigned x, unsigned y, unsigned z) {
  uint3 v = {x, y, z};
  return v;
}
static __host__ __device__ __forceinline__ uint4 make_uint4(unsigned x, unsigned y, unsigned z,
                                                            unsigned w) {
  uint4 v = {x, y, z, w};
  return v;
}

/* ---- 64-bit atomics ------------------------------------------------------------------- */
#define WEFT_ATOMIC_LL(NAME, BUILTIN)                                                          \
  static __device__ __forceinline__ __weft_u64 NAME(__weft_u64 *p, __weft_u64 v) {             \
    return (__weft_u64)BUILTIN((long long *)p, (long long)v);                                  \
  }                                                                                            \
  static __device__ __forceinline__ long long NAME(long long *p, long long v) {                \
    return BUILTIN(p, v);                                                                      \
  }
WEFT_ATOMIC_LL(atomicExch, __nvvm_atom_xchg_gen_ll)
WEFT_ATOMIC_LL(atomicAnd, __nvvm_atom_and_gen_ll)
WEFT_ATOMIC_LL(atomicOr, __nvvm_atom_or_gen_ll)
WEFT_ATOMIC_LL(atomicXor, __nvvm_atom_xor_gen_ll)
#undef WEFT_ATOMIC_LL
static __device__ __forceinline__ __weft_u64 atomicMin(__weft_u64 *p, __weft_u64 v) {
  return __nvvm_atom_min_gen_ull(p, v);
}
static __device__ __forceinline__ __weft_u64 atomicMax(__weft_u64 *p, __weft_u64 v) {
  return __nvvm_atom_max_gen_ull(p, v);
}
static __device__ __forceinline__ long long atomicMin(long long *p, long long v) {
  return __nvvm_atom_min_gen_ll(p, v);
}
static __device__ __forceinline__ long long atomicMax(long long *p, long long v) {
  return __nvvm_atom_max_gen_ll(p, v);
}
static __device__ __forceinline__ double atomicAdd(double *p, double v) {
  return __nvvm_atom_add_gen_d(p, v);
}
/* _block / _system scoped variants of the remaining operations */
#define WEFT_ATOMIC_SCOPED(NAME, OP)                                                           \
  static __device__ __forceinline__ int NAME##_block(int *p, int v) {                          \
    return __nvvm_atom_cta_##OP##_gen_i(p, v);                                                 \
  }                                                                                            \
  static __device__ __forceinline__ int NAME##_system(int *p, int v) {                         \
    return __nvvm_atom_sys_##OP##_gen_i(p, v);                                                 \
  }                                                                                            \
  static __device__ __forceinline__ unsigned NAME##_block(unsigned *p, unsigned v) {           \
    return (unsigned)__nvvm_atom_cta_##OP##_gen_i((int *)p, (int)v);                           \
  }                                                                                            \
  static __device__ __forceinline__ unsigned NAME##_system(unsigned *p, unsigned v) {          \
    return (unsigned)__nvvm_atom_sys_##OP##_gen_i((int *)p, (int)v);                           \
  }
WEFT_ATOMIC_SCOPED(atomicAnd, and)
WEFT_ATOMIC_SCOPED(atomicOr, or)
WEFT_ATOMIC_SCOPED(atomicXor, xor)
WEFT_ATOMIC_SCOPED(atomicMin, min)
WEFT_ATOMIC_SCOPED(atomicMax, max)
#undef WEFT_ATOMIC_SCOPED

/* ---- math (device): single and double precision, through NVPTX instructions ------------ */
#define WEFT_M1(NAME, EXPR)                                                                     \
  static __device__ __forceinline__ float NAME##f(float x) { return (float)(EXPR); }           \
  static __device__ __forceinline__ double NAME(double x) { return (double)(EXPR); }           \
  static __device__ __forceinline__ float NAME(float x) { return (float)(EXPR); }
WEFT_M1(sqrt, __builtin_sqrt(x))
WEFT_M1(fabs, __builtin_fabs(x))
WEFT_M1(floor, __builtin_floor(x))
WEFT_M1(ceil, __builtin_ceil(x))
WEFT_M1(trunc, __builtin_trunc(x))
WEFT_M1(round, __builtin_round(x))
WEFT_M1(rint, __builtin_rint(x))
WEFT_M1(sin, __nvvm_sin_approx_f((float)x))
WEFT_M1(cos, __nvvm_cos_approx_f((float)x))
WEFT_M1(tan, __nvvm_sin_approx_f((float)x) / __nvvm_cos_approx_f((float)x))
WEFT_M1(exp2, __nvvm_ex2_approx_f((float)x))
WEFT_M1(exp, __nvvm_ex2_approx_f((float)x * 1.4426950408889634f))
WEFT_M1(exp10, __nvvm_ex2_approx_f((float)x * 3.3219280948873622f))
WEFT_M1(log2, __nvvm_lg2_approx_f((float)x))
WEFT_M1(log, __nvvm_lg2_approx_f((float)x) * 0.6931471805599453f)
WEFT_M1(log10, __nvvm_lg2_approx_f((float)x) * 0.3010299956639812f)
WEFT_M1(rsqrt, 1.0 / __builtin_sqrt(x))
#undef WEFT_M1
static __device__ __forceinline__ float powf(float x, float y) {
  return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x));
}
static __device__ __forceinline__ double pow(double x, double y) {
  return __nvvm_ex2_approx_f((float)y * __nvvm_lg2_approx_f((float)x));
}
static __device__ __forceinline__ float fminf(float a, float b) { return __builtin_fminf(a, b); }
static __device__ __forceinline__ float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
static __device__ __forceinline__ double fmin(double a, double b) { return __builtin_fmin(a, b); }
static __device__ __forceinline__ double fmax(double a, double b) { return __builtin_fmax(a, b); }
static __device__ __forceinline__ float fmaf(float a, float b, float c) { return a * b + c; }
static __device__ __forceinline__ float fdividef(float a, float b) { return a / b; }
static __device__ __forceinline__ float __fdividef(float a, float b) { return a / b; }
static __device__ __forceinline__ float __sinf(float x) { return __nvvm_sin_approx_f(x); }
static __device__ __forceinline__ float __cosf(float x) { return __nvvm_cos_approx_f(x); }
static __device__ __forceinline__ float __expf(float x) { return expf(x); }
static __device__ __forceinline__ float __exp10f(float x) { return exp10f(x); }
static __device__ __forceinline__ float __logf(float x) { return logf(x); }
static __device__ __forceinline__ float __log2f(float x) { return log2f(x); }
static __device__ __forceinline__ float __powf(float x, float y) { return powf(x, y); }
static __device__ __forceinline__ float __saturatef(float x) {
  return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}
static __device__ __forceinline__ int abs(int x) { return x < 0 ? -x : x; }
/* min/max are __host__ __device__ as nvcc's are (host code of whole programs calls them). */
#define WEFT_MINMAX(T)                                                                         \
  static __host__ __device__ __forceinline__ T min(T a, T b) { return a < b ? a : b; }         \
  static __host__ __device__ __forceinline__ T max(T a, T b) { return a > b ? a : b; }
WEFT_MINMAX(int)
WEFT_MINMAX(unsigned)
WEFT_MINMAX(long long)
WEFT_MINMAX(unsigned long long)
#undef WEFT_MINMAX
static __host__ __device__ __forceinline__ float min(float a, float b) { return __builtin_fminf(a, b); }
static __host__ __device__ __forceinline__ float max(float a, float b) { return __builtin_fmaxf(a, b); }
static __host__ __device__ __forceinline__ double min(double a, double b) { return __builtin_fmin(a, b); }
static __host__ __device__ __forceinline__ double max(double a, double b) { return __builtin_fmax(a, b); }
static __device__ __forceinline__ int __mul24(int a, int b) { return (a << 8 >> 8) * (b << 8 >> 8); }
static __device__ __forceinline__ unsigned __umul24(unsigned a, unsigned b) {
  return (a & 0xffffff) * (b & 0xffffff);
}
static __device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ __forceinline__ int __clz(int x) { return __builtin_clz((unsigned)x | 0) ; }
static __device__ __forceinline__ int __ffs(int x) { return __builtin_ffs(x); }
static __device__ __forceinline__ unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
static __device__ __forceinline__ float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
static __device__ __forceinline__ int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
static __device__ __forceinline__ unsigned __float_as_uint(float x) {
  return __builtin_bit_cast(unsigned, x);
}
static __device__ __forceinline__ float __uint_as_float(unsigned x) {
  return __builtin_bit_cast(float, x);
}
static __device__ __forceinline__ int __float2int_rz(float x) { return (int)x; }
static __device__ __forceinline__ float __int2float_rn(int x) { return (float)x; }

/* ---- cooperative groups: this_thread_block(), this_grid() and their sync -------------- */
/* A grid-wide barrier: the first thread of each block arrives on a global counter and spins
 * on a generation number (the usual software grid barrier; it needs every block of the grid
 * co-resident, as cudaLaunchCooperativeKernel does). */
static __device__ unsigned int __weft_grid_barrier[2];
static __device__ __forceinline__ void __weft_grid_sync(void) {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    unsigned int nb = gridDim.x * gridDim.y * gridDim.z;
    volatile unsigned int *gen = &__weft_grid_barrier[1];
    unsigned int g = *gen;
    __threadfence();
    if (atomicAdd(&__weft_grid_barrier[0], 1u) == nb - 1) {
      atomicExch(&__weft_grid_barrier[0], 0u);
      __threadfence();
      atomicAdd(&__weft_grid_barrier[1], 1u);
    } else {
      while (*gen == g) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}
namespace cooperative_groups {
struct thread_block {
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  __device__ unsigned num_threads() const { return size(); }
};
struct grid_group {
  __device__ void sync() const { __weft_grid_sync(); }
  __device__ bool is_valid() const { return true; }
  __device__ unsigned long long size() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y *
           blockDim.z;
  }
  __device__ unsigned long long thread_rank() const {
    unsigned long long b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    return b * blockDim.x * blockDim.y * blockDim.z +
           (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
};
static __device__ __forceinline__ thread_block this_thread_block() { return thread_block(); }
static __device__ __forceinline__ grid_group this_grid() { return grid_group(); }
static __device__ __forceinline__ void synchronize(const thread_block &g) { g.sync(); }
static __device__ __forceinline__ void synchronize(const grid_group &g) { g.sync(); }
static __device__ __forceinline__ void sync(const thread_block &g) { g.sync(); }
static __device__ __forceinline__ void sync(const grid_group &g) { g.sync(); }
} // namespace cooperative_groups

/* ---- curand (XORWOW, Marsaglia 2003), enough for kernels that draw numbers ------------ */
struct curandStateXORWOW {
  unsigned int d, v[5];
};
typedef struct curandStateXORWOW curandState;
typedef struct curandStateXORWOW curandState_t;
/* MTGP32 states are drawn from with the same generator (one state shared by a block). */
typedef struct curandStateXORWOW curandStateMtgp32_t;
typedef struct curandStateXORWOW curandStateMtgp32;
static __device__ __forceinline__ unsigned int curand(curandState *s) {
  unsigned int t = s->v[0] ^ (s->v[0] >> 2);
  s->v[0] = s->v[1];
  s->v[1] = s->v[2];
  s->v[2] = s->v[3];
  s->v[3] = s->v[4];
  s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
  s->d += 362437;
  return s->v[4] + s->d;
}
static __device__ __forceinline__ void curand_init(unsigned long long seed,
                                                   unsigned long long subsequence,
                                                   unsigned long long offset, curandState *s) {
  unsigned int lo = (unsigned int)seed ^ 0xaad26b49u, hi = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
  s->v[0] = 123456789u + lo * 1099087573u;
  s->v[1] = 362436069u ^ hi * 2591861531u;
  s->v[2] = 521288629u + (unsigned int)subsequence;
  s->v[3] = 88675123u ^ (unsigned int)(subsequence >> 32);
  s->v[4] = 5783321u + lo;
  s->d = 6615241u + hi + lo;
  for (unsigned long long i = 0; i < offset; i++) curand(s);
}
static __device__ __forceinline__ float curand_uniform(curandState *s) {
  return (curand(s) >> 8) * (1.0f / 16777216.0f) + (0.5f / 16777216.0f);
}


/* ---- textures, sincos, vector arithmetic (helper_math.h's): weft_cuda_math.h ---------- */
#include "weft_cuda_math.h"
/* ---- the host side of a .cu file: the runtime API (weft-cudart implements it) --------- */
#include "weft_cuda_runtime.h"
/* Device printf compiles to a call of CUDA's vprintf(format, packed arguments), which weft's
   emulator runs (docs/programs.md). */
extern "C" __device__ int printf(const char *, ...);
/* Device assert: the C library's assert() calls __assert_fail, which on the device forwards
   to CUDA's __assertfail (run by weft's emulator: CUDA's message, the launch fails with
   cudaErrorAssert). <assert.h> is read here, before weft_gpuverify.h defines its one-argument
   `__assert` macro that would clash with the C library's declaration of `__assert`. */
#include <assert.h> /* assert works with or without the program including it, as in nvcc */
/* weft verify's force-included header gives __assertfail a body (the assertion sink). */
#define WEFT_CUDA_ASSERTFAIL 1
extern "C" {
__device__ void __assertfail(const char *__msg, const char *__file, unsigned __line,
                             const char *__func, __SIZE_TYPE__ __char_size);
__device__ static inline void __assert_fail(const char *__msg, const char *__file,
                                            unsigned __line, const char *__func) {
  __assertfail(__msg, __file, __line, __func, sizeof(char));
}
}
#endif /* !WEFT_NVCC */

/* ---- weft's scoped memory-model helpers: exact PTX via inline asm -------------------------
 * weft_ld_{relaxed,acquire}_{cta,gpu,sys}(p)           ld.<sem>.<scope>.b32
 * weft_st_{relaxed,release}_{cta,gpu,sys}(p, v)        st.<sem>.<scope>.b32
 * weft_atom_{add,exch,cas}_{relaxed,acquire,release,acq_rel}_{cta,gpu,sys}(p, ...)
 *                                                      atom.<sem>.<scope>.<op>.<type>
 * weft_fence_{sc,acq_rel}_{cta,gpu,sys}()              fence.<sem>.<scope>
 * weft_ld_volatile(p), weft_st_volatile(p, v)          ld.volatile / st.volatile
 * Each pointer helper has int and unsigned int overloads; addresses are generic.
 */
#define WEFT_LD(SEM, SCOPE)                                                                    \
  static __device__ __forceinline__ int weft_ld_##SEM##_##SCOPE(const int *p) {                \
    int v;                                                                                     \
    asm volatile("ld." #SEM "." #SCOPE ".b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");        \
    return v;                                                                                  \
  }                                                                                            \
  static __device__ __forceinline__ unsigned int weft_ld_##SEM##_##SCOPE(const unsigned int *p) { \
    return (unsigned int)weft_ld_##SEM##_##SCOPE((const int *)p);                              \
  }
#define WEFT_ST(SEM, SCOPE)                                                                    \
  static __device__ __forceinline__ void weft_st_##SEM##_##SCOPE(int *p, int v) {              \
    asm volatile("st." #SEM "." #SCOPE ".b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");          \
  }                                                                                            \
  static __device__ __forceinline__ void weft_st_##SEM##_##SCOPE(unsigned int *p, unsigned int v) { \
    weft_st_##SEM##_##SCOPE((int *)p, (int)v);                                                 \
  }
#define WEFT_RMW(SEM, SCOPE)                                                                   \
  static __device__ __forceinline__ int weft_atom_add_##SEM##_##SCOPE(int *p, int v) {         \
    int r;                                                                                     \
    asm volatile("atom." #SEM "." #SCOPE ".add.s32 %0, [%1], %2;"                              \
                 : "=r"(r)                                                                     \
                 : "l"(p), "r"(v)                                                              \
                 : "memory");                                                                  \
    return r;                                                                                  \
  }                                                                                            \
  static __device__ __forceinline__ unsigned int weft_atom_add_##SEM##_##SCOPE(unsigned int *p, \
                                                                               unsigned int v) { \
    return (unsigned int)weft_atom_add_##SEM##_##SCOPE((int *)p, (int)v);                      \
  }                                                                                            \
  static __device__ __forceinline__ int weft_atom_exch_##SEM##_##SCOPE(int *p, int v) {        \
    int r;                                                                                     \
    asm volatile("atom." #SEM "." #SCOPE ".exch.b32 %0, [%1], %2;"                             \
                 : "=r"(r)                                                                     \
                 : "l"(p), "r"(v)                                                              \
                 : "memory");                                                                  \
    return r;                                                                                  \
  }                                                                                            \
  static __device__ __forceinline__ unsigned int weft_atom_exch_##SEM##_##SCOPE(unsigned int *p, \
                                                                                unsigned int v) { \
    return (unsigned int)weft_atom_exch_##SEM##_##SCOPE((int *)p, (int)v);                     \
  }                                                                                            \
  static __device__ __forceinline__ int weft_atom_cas_##SEM##_##SCOPE(int *p, int cmp, int v) { \
    int r;                                                                                     \
    asm volatile("atom." #SEM "." #SCOPE ".cas.b32 %0, [%1], %2, %3;"                          \
                 : "=r"(r)                                                                     \
                 : "l"(p), "r"(cmp), "r"(v)                                                    \
                 : "memory");                                                                  \
    return r;                                                                                  \
  }                                                                                            \
  static __device__ __forceinline__ unsigned int weft_atom_cas_##SEM##_##SCOPE(                \
      unsigned int *p, unsigned int cmp, unsigned int v) {                                     \
    return (unsigned int)weft_atom_cas_##SEM##_##SCOPE((int *)p, (int)cmp, (int)v);            \
  }
#define WEFT_FENCE(SEM, SCOPE)                                                                 \
  static __device__ __forceinline__ void weft_fence_##SEM##_##SCOPE(void) {                    \
    asm volatile("fence." #SEM "." #SCOPE ";" ::: "memory");                                   \
  }
#define WEFT_ALL_SCOPES(X, SEM) X(SEM, cta) X(SEM, gpu) X(SEM, sys)

WEFT_ALL_SCOPES(WEFT_LD, relaxed)
WEFT_ALL_SCOPES(WEFT_LD, acquire)
WEFT_ALL_SCOPES(WEFT_ST, relaxed)
WEFT_ALL_SCOPES(WEFT_ST, release)
WEFT_ALL_SCOPES(WEFT_RMW, relaxed)
WEFT_ALL_SCOPES(WEFT_RMW, acquire)
WEFT_ALL_SCOPES(WEFT_RMW, release)
WEFT_ALL_SCOPES(WEFT_RMW, acq_rel)
WEFT_ALL_SCOPES(WEFT_FENCE, sc)
WEFT_ALL_SCOPES(WEFT_FENCE, acq_rel)
#undef WEFT_LD
#undef WEFT_ST
#undef WEFT_RMW
#undef WEFT_FENCE

static __device__ __forceinline__ int weft_ld_volatile(const volatile int *p) {
  int v;
  asm volatile("ld.volatile.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
static __device__ __forceinline__ void weft_st_volatile(volatile int *p, int v) {
  asm volatile("st.volatile.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* ---- weft::atomic_ref: a minimal cuda::atomic_ref for 32-bit integers -------------------
 * Orders map to PTX as in the PTX ISA's C++ mapping: seq_cst = fence.sc + acquire load /
 * relaxed store / acq_rel RMW. */
namespace weft {
enum memory_order {
  memory_order_relaxed,
  memory_order_acquire,
  memory_order_release,
  memory_order_acq_rel,
  memory_order_seq_cst
};
enum thread_scope { thread_scope_block, thread_scope_device, thread_scope_system };

template <thread_scope S> struct __scope_ops;
#define WEFT_SCOPE_OPS(S, SC)                                                                  \
  template <> struct __scope_ops<S> {                                                          \
    static __device__ __forceinline__ int load(int *p, memory_order o) {                       \
      if (o == memory_order_relaxed) return weft_ld_relaxed_##SC(p);                           \
      if (o == memory_order_seq_cst) weft_fence_sc_##SC();                                     \
      return weft_ld_acquire_##SC(p);                                                          \
    }                                                                                          \
    static __device__ __forceinline__ void store(int *p, int v, memory_order o) {              \
      if (o == memory_order_seq_cst) {                                                         \
        weft_fence_sc_##SC();                                                                  \
        weft_st_relaxed_##SC(p, v);                                                            \
      } else if (o == memory_order_relaxed) {                                                  \
        weft_st_relaxed_##SC(p, v);                                                            \
      } else {                                                                                 \
        weft_st_release_##SC(p, v);                                                            \
      }                                                                                        \
    }                                                                                          \
    static __device__ __forceinline__ int fetch_add(int *p, int v, memory_order o) {           \
      switch (o) {                                                                             \
      case memory_order_relaxed: return weft_atom_add_relaxed_##SC(p, v);                      \
      case memory_order_acquire: return weft_atom_add_acquire_##SC(p, v);                      \
      case memory_order_release: return weft_atom_add_release_##SC(p, v);                      \
      case memory_order_seq_cst: weft_fence_sc_##SC(); /* fall through */                      \
      default: return weft_atom_add_acq_rel_##SC(p, v);                                        \
      }                                                                                        \
    }                                                                                          \
    static __device__ __forceinline__ int exchange(int *p, int v, memory_order o) {            \
      switch (o) {                                                                             \
      case memory_order_relaxed: return weft_atom_exch_relaxed_##SC(p, v);                     \
      case memory_order_acquire: return weft_atom_exch_acquire_##SC(p, v);                     \
      case memory_order_release: return weft_atom_exch_release_##SC(p, v);                     \
      case memory_order_seq_cst: weft_fence_sc_##SC(); /* fall through */                      \
      default: return weft_atom_exch_acq_rel_##SC(p, v);                                       \
      }                                                                                        \
    }                                                                                          \
    static __device__ __forceinline__ int cas(int *p, int cmp, int v, memory_order o) {        \
      switch (o) {                                                                             \
      case memory_order_relaxed: return weft_atom_cas_relaxed_##SC(p, cmp, v);                 \
      case memory_order_acquire: return weft_atom_cas_acquire_##SC(p, cmp, v);                 \
      case memory_order_release: return weft_atom_cas_release_##SC(p, cmp, v);                \
      case memory_order_seq_cst: weft_fence_sc_##SC(); /* fall through */                      \
      default: return weft_atom_cas_acq_rel_##SC(p, cmp, v);                                   \
      }                                                                                        \
    }                                                                                          \
    static __device__ __forceinline__ void fence(memory_order o) {                             \
      if (o == memory_order_seq_cst) weft_fence_sc_##SC();                                     \
      else if (o != memory_order_relaxed) weft_fence_acq_rel_##SC();                           \
    }                                                                                          \
  };
WEFT_SCOPE_OPS(thread_scope_block, cta)
WEFT_SCOPE_OPS(thread_scope_device, gpu)
WEFT_SCOPE_OPS(thread_scope_system, sys)
#undef WEFT_SCOPE_OPS

/* A reference to a 32-bit integer accessed atomically at scope S. */
template <class T, thread_scope S = thread_scope_system> class atomic_ref {
  static_assert(sizeof(T) == 4, "weft::atomic_ref supports 32-bit integers");
  int *p_;

public:
  __device__ explicit atomic_ref(T &obj) : p_((int *)&obj) {}
  __device__ T load(memory_order o = memory_order_seq_cst) const {
    return (T)__scope_ops<S>::load(p_, o);
  }
  __device__ void store(T v, memory_order o = memory_order_seq_cst) const {
    __scope_ops<S>::store(p_, (int)v, o);
  }
  __device__ T fetch_add(T v, memory_order o = memory_order_seq_cst) const {
    return (T)__scope_ops<S>::fetch_add(p_, (int)v, o);
  }
  __device__ T exchange(T v, memory_order o = memory_order_seq_cst) const {
    return (T)__scope_ops<S>::exchange(p_, (int)v, o);
  }
  __device__ bool compare_exchange_strong(T &expected, T desired,
                                          memory_order o = memory_order_seq_cst) const {
    int old = __scope_ops<S>::cas(p_, (int)expected, (int)desired, o);
    if (old == (int)expected) return true;
    expected = (T)old;
    return false;
  }
};

/* A fence at scope S (`fence.sc.<scope>` or `fence.acq_rel.<scope>`). */
template <thread_scope S> __device__ __forceinline__ void atomic_thread_fence(memory_order o) {
  __scope_ops<S>::fence(o);
}
} /* namespace weft */

#ifdef __clang__
#pragma clang attribute pop
#endif

#pragma pop_macro("size_t")
#pragma pop_macro("ptrdiff_t")
#pragma pop_macro("clock_t")
#pragma pop_macro("time_t")
#pragma pop_macro("uint")
#pragma pop_macro("ushort")
#pragma pop_macro("uchar")
#pragma pop_macro("ulong")
#endif /* WEFT_CUDA_H */
