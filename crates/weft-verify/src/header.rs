//! GPUVerify's annotation functions for weft's clang front-end, and GPUVerify analysis flags
//! from kernel header lines.
//!
//! [`ANNOTATIONS_H`] is force-included after weft-cuda's `weft_gpuverify.h` and replaces its
//! `__assert`/`__requires`/`__assume`/`__invariant`/`__ensures` macros: each annotation
//! becomes a guarded store to a named `volatile` sink variable that survives clang's
//! optimiser, and the verifier reads "this store is enabled" as "the annotated condition is
//! false" ([`crate::exec::ASSERT_SINK`], ...). weft-cuda's own lowering (marker calls to
//! `KOp::Annot`) passes the condition through `.local` call parameters, which the verifier
//! abstracts; the sinks keep the condition in registers. `KOp::Annot` is still handled
//! (kernels given as PTX).

use crate::{Options, WarpMethod};

/// File name of the annotation header.
pub const ANNOTATIONS_NAME: &str = "weft_verify.h";

/// `__assert`, `__requires`, `__assume`, `__invariant`, `__global_invariant`, `__ensures`,
/// `__global_requires`, `__global_ensures`, `__reads_from`, `__implies` for CUDA and OpenCL.
pub const ANNOTATIONS_H: &str = r#"/* weft_verify.h: GPUVerify-style annotations for weft verify (force-included). */
#ifndef WEFT_VERIFY_H
#define WEFT_VERIFY_H
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define WEFT_SINK_DECL(N) global volatile int N;
#else
#define WEFT_SINK_DECL(N) __device__ volatile int N;
#endif
WEFT_SINK_DECL(__weft_assert_sink)
WEFT_SINK_DECL(__weft_assume_sink)
WEFT_SINK_DECL(__weft_invariant_sink)
/* Contracts (GPUVerify's modular meaning; the verifier tells a kernel's annotation from a
 * called function's by its source line): `__requires` is assumed in a kernel and checked
 * at the call in any other function; `__ensures` is checked on return of a function whose
 * body is its contract only (entry and return states are one) and on return of any other
 * function (weft moves it there), assumed after a `__spec_` function that writes nothing,
 * ignored after one with a `__writes_to` frame (modelled as a write, see weft's
 * contract::frame_writes). The global forms store the negated condition as a value,
 * unguarded: it must hold for both threads of the pair, whether they make the call or not. */
WEFT_SINK_DECL(__weft_requires_sink)
WEFT_SINK_DECL(__weft_ensures_sink)
WEFT_SINK_DECL(__weft_grequires_sink)
WEFT_SINK_DECL(__weft_gensures_sink)
/* A specification function's frame write: the offset constraint, assumed unguarded (the
 * negated condition stored as a value, like the global forms). */
WEFT_SINK_DECL(__weft_frame_sink)
#define __weft_frame_assume(c) ((void)(__weft_frame_sink = !(c)))
/* The source line of a contract annotation (PTX line tables may be missing): the guarded
 * sinks store it, a global one is preceded by a store of it to this sink. */
WEFT_SINK_DECL(__weft_line_sink)
/* Stored after each word of an async copy: the verifier's own-write forwarding restarts (the
 * model has this work-item write a word that another one may really copy). */
WEFT_SINK_DECL(__weft_fwd_reset_sink)
/* Expressions, not statements: GPUVerify writes loop invariants in the loop condition
 * (`while (__invariant(e), i < n)`). */
#undef __assert
#define __assert(c) ((c) ? (void)0 : (void)(__weft_assert_sink = 1))
#undef __requires
#define __requires(c) ((c) ? (void)0 : (void)(__weft_requires_sink = __LINE__))
#undef __global_requires
#define __global_requires(c)                                                                   \
  ((void)(__weft_line_sink = __LINE__), (void)(__weft_grequires_sink = !(c)))
#undef __global_ensures
#define __global_ensures(c)                                                                    \
  ((void)(__weft_line_sink = __LINE__), (void)(__weft_gensures_sink = !(c)))
/* Left in a contract-only function's `__ensures` (entry and return states are one), so a
 * value on entry is the value itself; weft replaces them in the postconditions it moves to
 * a function's return. */
#undef __old_int
#define __old_int(x) ((int)(x))
#undef __old_bool
#define __old_bool(x) (!!(x))
/* The frame of a specification function: `__reads_from(p)` reads one arbitrary element of
 * p's array (GPUVerify: the function may read any element). */
#undef __reads_from
#define __reads_from(p)                                                                        \
  ((void)((volatile __typeof__(*(p)) *)(p))[(unsigned)__weft_query_return_val_int()])
#undef __assume
#define __assume(c) ((c) ? (void)0 : (void)(__weft_assume_sink = 1))
#undef __invariant
#define __invariant(c) ((c) ? (void)0 : (void)(__weft_invariant_sink = 1))
#undef __global_invariant
#define __global_invariant(c) __invariant(c)
#undef __ensures
#define __ensures(c) ((c) ? (void)0 : (void)(__weft_ensures_sink = __LINE__))
#ifndef __implies
#define __implies(a, b) (!(a) || (b))
#endif
/* Barrier invariants (GPUVerify; Chong et al., OOPSLA'13): `__barrier_invariant(e, i1, ...)`
 * (and `__barrier_invariant_N(e, i1..iN)`) states `e`, a condition over the thread's id and the
 * group's shared state, for every thread at the next barrier; after that barrier `e` is
 * assumed of the threads `i1..iN` (each evaluated by the thread, before the barrier).
 * Each instantiation id is stored to the first sink, then the negated condition, unguarded, to
 * the second: the verifier checks it where it is enabled and instantiates it after the
 * barrier by putting the id for the thread's x id and the barrier's memory for the memory the
 * condition read. Its reads are ordinary reads (race-checked: GPUVerify's barrier access
 * checks). `__read_permission(T, x)` is a read of `x`; `__array_snapshot(dst, src)` copies the
 * array `src` to the ghost array `dst` (two stores of the pointers to the third sink). */
WEFT_SINK_DECL(__weft_bi_inst_sink)
WEFT_SINK_DECL(__weft_bi_unary_sink)
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
global volatile unsigned long __weft_bi_snap_sink;
#define __WEFT_BI_ADDR unsigned long
#else
__device__ volatile unsigned long long __weft_bi_snap_sink;
#define __WEFT_BI_ADDR unsigned long long
#endif
#define __WEFT_BI_CAT2(a, b) a##b
#define __WEFT_BI_CAT(a, b) __WEFT_BI_CAT2(a, b)
#define __WEFT_BI_I(x) (void)(__weft_bi_inst_sink = (int)(x))
#define __WEFT_BI_1(a) __WEFT_BI_I(a)
#define __WEFT_BI_2(a, ...) __WEFT_BI_I(a), __WEFT_BI_1(__VA_ARGS__)
#define __WEFT_BI_3(a, ...) __WEFT_BI_I(a), __WEFT_BI_2(__VA_ARGS__)
#define __WEFT_BI_4(a, ...) __WEFT_BI_I(a), __WEFT_BI_3(__VA_ARGS__)
#define __WEFT_BI_5(a, ...) __WEFT_BI_I(a), __WEFT_BI_4(__VA_ARGS__)
#define __WEFT_BI_6(a, ...) __WEFT_BI_I(a), __WEFT_BI_5(__VA_ARGS__)
#define __WEFT_BI_7(a, ...) __WEFT_BI_I(a), __WEFT_BI_6(__VA_ARGS__)
#define __WEFT_BI_8(a, ...) __WEFT_BI_I(a), __WEFT_BI_7(__VA_ARGS__)
#define __WEFT_BI_9(a, ...) __WEFT_BI_I(a), __WEFT_BI_8(__VA_ARGS__)
#define __WEFT_BI_10(a, ...) __WEFT_BI_I(a), __WEFT_BI_9(__VA_ARGS__)
#define __WEFT_BI_11(a, ...) __WEFT_BI_I(a), __WEFT_BI_10(__VA_ARGS__)
#define __WEFT_BI_12(a, ...) __WEFT_BI_I(a), __WEFT_BI_11(__VA_ARGS__)
#define __WEFT_BI_13(a, ...) __WEFT_BI_I(a), __WEFT_BI_12(__VA_ARGS__)
#define __WEFT_BI_14(a, ...) __WEFT_BI_I(a), __WEFT_BI_13(__VA_ARGS__)
#define __WEFT_BI_15(a, ...) __WEFT_BI_I(a), __WEFT_BI_14(__VA_ARGS__)
#define __WEFT_BI_16(a, ...) __WEFT_BI_I(a), __WEFT_BI_15(__VA_ARGS__)
#define __WEFT_BI_17(a, ...) __WEFT_BI_I(a), __WEFT_BI_16(__VA_ARGS__)
#define __WEFT_BI_18(a, ...) __WEFT_BI_I(a), __WEFT_BI_17(__VA_ARGS__)
#define __WEFT_BI_19(a, ...) __WEFT_BI_I(a), __WEFT_BI_18(__VA_ARGS__)
#define __WEFT_BI_20(a, ...) __WEFT_BI_I(a), __WEFT_BI_19(__VA_ARGS__)
#define __WEFT_BI_21(a, ...) __WEFT_BI_I(a), __WEFT_BI_20(__VA_ARGS__)
#define __WEFT_BI_22(a, ...) __WEFT_BI_I(a), __WEFT_BI_21(__VA_ARGS__)
#define __WEFT_BI_23(a, ...) __WEFT_BI_I(a), __WEFT_BI_22(__VA_ARGS__)
#define __WEFT_BI_24(a, ...) __WEFT_BI_I(a), __WEFT_BI_23(__VA_ARGS__)
#define __WEFT_BI_COUNT(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, n, ...) n
#define __WEFT_BI_EACH(...) \
  __WEFT_BI_CAT(__WEFT_BI_, __WEFT_BI_COUNT(__VA_ARGS__, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1))(__VA_ARGS__)
#define __weft_bi_check(e) ((void)(__weft_bi_unary_sink = !(e)))
#undef __barrier_invariant
#define __barrier_invariant(e, ...) (__WEFT_BI_EACH(__VA_ARGS__), __weft_bi_check(e))
#undef __barrier_invariant_0
#define __barrier_invariant_0(e) __weft_bi_check(e)
#undef __barrier_invariant_1
#define __barrier_invariant_1(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_2
#define __barrier_invariant_2(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_3
#define __barrier_invariant_3(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_4
#define __barrier_invariant_4(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_5
#define __barrier_invariant_5(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_6
#define __barrier_invariant_6(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_7
#define __barrier_invariant_7(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_8
#define __barrier_invariant_8(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_9
#define __barrier_invariant_9(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_10
#define __barrier_invariant_10(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_11
#define __barrier_invariant_11(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_12
#define __barrier_invariant_12(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_13
#define __barrier_invariant_13(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_14
#define __barrier_invariant_14(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_15
#define __barrier_invariant_15(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_16
#define __barrier_invariant_16(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_17
#define __barrier_invariant_17(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_18
#define __barrier_invariant_18(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_19
#define __barrier_invariant_19(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_20
#define __barrier_invariant_20(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_21
#define __barrier_invariant_21(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_22
#define __barrier_invariant_22(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_23
#define __barrier_invariant_23(e, ...) __barrier_invariant(e, __VA_ARGS__)
#undef __barrier_invariant_24
#define __barrier_invariant_24(e, ...) __barrier_invariant(e, __VA_ARGS__)
/* The binary forms (a condition over the pair of threads, instantiated at pairs of ids) are
 * not checked and nothing is assumed from them: their reads may see cells a third thread
 * writes in the interval, which the pair's race check cannot tell (GPUVerify's read
 * permissions). `weft verify` lists them as "not checked" (crate::unchecked). */
#undef __barrier_invariant_binary
#define __barrier_invariant_binary(e, ...) ((void)0)
#undef __barrier_invariant_binary_0
#define __barrier_invariant_binary_0(...) ((void)0)
#undef __barrier_invariant_binary_1
#define __barrier_invariant_binary_1(...) ((void)0)
#undef __barrier_invariant_binary_2
#define __barrier_invariant_binary_2(...) ((void)0)
#undef __barrier_invariant_binary_3
#define __barrier_invariant_binary_3(...) ((void)0)
#undef __barrier_invariant_binary_4
#define __barrier_invariant_binary_4(...) ((void)0)
#undef __barrier_invariant_binary_5
#define __barrier_invariant_binary_5(...) ((void)0)
#undef __barrier_invariant_binary_6
#define __barrier_invariant_binary_6(...) ((void)0)
#undef __barrier_invariant_binary_7
#define __barrier_invariant_binary_7(...) ((void)0)
#undef __barrier_invariant_binary_8
#define __barrier_invariant_binary_8(...) ((void)0)
#undef __barrier_invariant_binary_9
#define __barrier_invariant_binary_9(...) ((void)0)
#undef __barrier_invariant_binary_10
#define __barrier_invariant_binary_10(...) ((void)0)
#undef __barrier_invariant_binary_11
#define __barrier_invariant_binary_11(...) ((void)0)
#undef __barrier_invariant_binary_12
#define __barrier_invariant_binary_12(...) ((void)0)
#undef __read_permission
#define __read_permission(T, x) ((void)*(volatile __typeof__(x) *)&(x))
#undef __array_snapshot
#define __array_snapshot(dst, src) \
  ((void)(__weft_bi_snap_sink = (__WEFT_BI_ADDR)(dst)), (void)(__weft_bi_snap_sink = (__WEFT_BI_ADDR)(src)))
/* Reads of uninitialised local variables (GPUVerify havocs them; clang's optimiser may assume
 * anything of them): clang's warnings are read back by the verifier and reported. */
#pragma clang diagnostic warning "-Wuninitialized"
#pragma clang diagnostic warning "-Wsometimes-uninitialized"
#if !defined(__OPENCL_VERSION__) && !defined(__OPENCL_C_VERSION__)
/* CUDA's `assert` (with or without <assert.h>) is an assertion, like `__assert`: glibc's
 * macro calls `__assert_fail` only where the condition is false, and this device overload of
 * it stores to the assertion sink. With NDEBUG defined, `assert` checks nothing, as in C.
 * <assert.h> declares a function `__assert`, GPUVerify's macro name: it is included here
 * with the macro set aside, and a later inclusion by the kernel skips the declarations. */
#ifdef WEFT_CUDA_ASSERTFAIL
/* weft_cuda.h already forwards `__assert_fail` to CUDA's `__assertfail`: that one stores to
 * the sink here (the emulator's bodiless `__assertfail` is CUDA's message instead). */
extern "C" __device__ __attribute__((nodebug, always_inline)) inline void
__assertfail(const char *, const char *, unsigned, const char *, __SIZE_TYPE__) {
  __weft_assert_sink = 1;
}
#else
#pragma push_macro("__assert")
#undef __assert
#include <assert.h>
#pragma pop_macro("__assert")
__device__ __attribute__((nodebug, always_inline)) inline void
__assert_fail(const char *, const char *, unsigned int, const char *) {
  __weft_assert_sink = 1;
}
#endif
#endif
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
/* OpenCL barrier fence flags (OpenCL 1.2 §6.12.8): `barrier(CLK_LOCAL_MEM_FENCE)` orders the
 * work-group's local memory accesses only, `CLK_GLOBAL_MEM_FENCE` its global ones. The flags
 * are stored to this sink just before the barrier; the verifier resets the access logs of
 * the spaces they name (a barrier without the store, CUDA's, orders every space). */
WEFT_SINK_DECL(__weft_barrier_flags_sink)
#undef barrier
#define barrier(f) ((void)(__weft_barrier_flags_sink = (int)(f)), __weft_barrier(f))
#if __OPENCL_C_VERSION__ >= 200
#undef work_group_barrier
#define work_group_barrier(f, ...)                                                             \
  ((void)(__weft_barrier_flags_sink = (int)(f)), __weft_barrier(f))
#endif
/* async_work_group_copy / async_work_group_strided_copy as GPUVerify reads them: the group
 * copies every element, in no particular order, until wait_group_events completes the copy's
 * event (OpenCL 1.2 §6.12.10). Each thread copies one arbitrary word (a fresh index per
 * thread), written plainly; two work-items of one group copy distinct words of one copy
 * (assumed), so one copy's writes do not race with each other but race with another copy of
 * the same words (by this group or another) and with any access of the destination before
 * the wait, by any thread; the source is read plainly. The copy must be reached by the whole
 * group and its arguments (the event included) be group-uniform (asserted).
 * An event is the record of its copy (`event_t` is this struct for the verifier): the wait
 * copies the same word again before its barrier, so a copy pending across a barrier still
 * races with the accesses between that barrier and the wait. An event names one copy: a copy
 * attached to an existing event is not copied again at the wait. */
typedef struct {
  volatile local char *l;
  volatile global char *g;
  size_t lo, gl;
  int live;
  int to_local;
} __weft_event_t;
#define __WEFT_AC static inline __attribute__((overloadable, always_inline))
/* One arbitrary 32-bit word of the copy: word `e` of a contiguous copy, or word `w` of
 * element `e` of a strided one (byte offsets `*lo` on the local side, `*gl` global). */
static inline __attribute__((always_inline)) int __weft_async_word(size_t n, size_t esz,
                                                                   size_t stride, size_t *lo,
                                                                   size_t *gl) {
  unsigned e = (unsigned)__weft_query_return_val_int();
  unsigned w = (unsigned)__weft_query_return_val_int();
  if (stride == 1) {
    *lo = *gl = (size_t)e * 4;
    return e < (n * esz + 3) / 4;
  }
  *lo = (size_t)e * esz + (size_t)w * 4;
  *gl = (size_t)e * stride * esz + (size_t)w * 4;
  return e < n && w < (esz + 3) / 4;
}
/* This work-item's word of the copy `ev` names. */
static inline __attribute__((always_inline)) void __weft_async_do(__weft_event_t ev) {
  if (ev.live) {
    if (ev.to_local)
      *(volatile local int *)(ev.l + ev.lo) = *(const volatile global int *)(ev.g + ev.gl);
    else
      *(volatile global int *)(ev.g + ev.gl) = *(const volatile local int *)(ev.l + ev.lo);
    __weft_fwd_reset_sink = 1;
  }
}
__WEFT_AC __weft_event_t __weft_async_copy(volatile local void *dst, const volatile global void *src,
                                           size_t n, size_t esz, size_t stride) {
  __weft_event_t ev;
  ev.l = (volatile local char *)dst;
  ev.g = (volatile global char *)src;
  ev.to_local = 1;
  ev.live = __weft_async_word(n, esz, stride, &ev.lo, &ev.gl);
  if (ev.live)
    __weft_annot_assume(!__weft_query_same_group() || __weft_query_distinct_int((int)ev.lo));
  __weft_async_do(ev);
  return ev;
}
__WEFT_AC __weft_event_t __weft_async_copy(volatile global void *dst, const volatile local void *src,
                                           size_t n, size_t esz, size_t stride) {
  __weft_event_t ev;
  ev.l = (volatile local char *)src;
  ev.g = (volatile global char *)dst;
  ev.to_local = 0;
  ev.live = __weft_async_word(n, esz, stride, &ev.lo, &ev.gl);
  if (ev.live)
    __weft_annot_assume(!__weft_query_same_group() || __weft_query_distinct_int((int)ev.lo));
  __weft_async_do(ev);
  return ev;
}
/* The copy's and the wait's arguments must be the same in every work-item of the group. */
#define __weft_group_uniform(x)                                                                \
  __weft_annot_assert(!__weft_query_same_group() || __weft_query_uniform_int((int)(x)))
/* An event argument (a copy attached to it, or a wait on it) names the same copy in every
 * work-item; `0` (no event) is uniform. */
__WEFT_AC void __weft_event_uniform(__weft_event_t ev) {
  __weft_group_uniform((size_t)ev.l);
  __weft_group_uniform((size_t)ev.g);
}
__WEFT_AC void __weft_event_uniform(int ev) { (void)ev; }
#define __weft_async_checked(d, s, n, stride, ev)                                                \
  (__weft_group_uniform(__weft_query_enabled()), __weft_group_uniform((size_t)(d)),        \
   __weft_group_uniform((size_t)(s)),                                                       \
   __weft_group_uniform(n), __weft_group_uniform(stride), __weft_event_uniform(ev),          \
   __weft_async_copy((d), (s), (n), sizeof(*(d)), (stride)))
/* The wait completes the listed events: each listed copy's word once more, then the group's
 * barrier (libclc implements wait_group_events as one). An event never assigned is
 * skipped (clang drops the guarded code of an undefined record), and so is the list when
 * its length is not a compile-time constant (the uniformity of the length is asserted).
 * When the list is an array of `len` events and the wait names only the first `n`, the
 * others are not completed (OpenCL 1.2 §6.12.10: the wait is for the events in the list):
 * their copies may still be writing after the wait, so their words are copied again after
 * the barrier and race with the accesses up to the next barrier. (An event of the array
 * that an earlier wait completed is copied again too: a possible false report, never a
 * missed one.) */
static inline __attribute__((always_inline)) void __weft_wait(int n, __weft_event_t *evs,
                                                              int len) {
  if (__builtin_constant_p(n)) {
#pragma unroll
    for (int i = 0; i < n; i++) {
      if (evs[i].live) {
        __weft_event_uniform(evs[i]);
        __weft_async_do(evs[i]);
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (__builtin_constant_p(n) && __builtin_constant_p(len)) {
#pragma unroll
    for (int i = n; i < len; i++) {
      if (evs[i].live)
        __weft_async_do(evs[i]);
    }
  }
}
#define event_t __weft_event_t
/* The number of events of an array list (0 for a pointer: its length is unknown). */
#define __weft_list_len(evs) ((int)(sizeof(evs) / sizeof(__weft_event_t)))
#define wait_group_events(n, evs)                                                               \
  (__weft_group_uniform(n), __weft_wait((n), (evs), __weft_list_len(evs)))
#define async_work_group_copy(d, s, n, ev) __weft_async_checked((d), (s), (n), 1, (ev))
#define async_work_group_strided_copy(d, s, n, stride, ev)                                      \
  __weft_async_checked((d), (s), (n), (stride), (ev))
#endif
/* Every source-level access of block-shared memory is an access (as GPUVerify, which
 * verifies unoptimised code): `__shared__` / `__local` data is volatile, so clang's
 * optimiser neither deletes a store nobody reads nor a load whose value is unused, nor
 * merges accesses (`__constant__` data too, so that a write to it is kept). A kernel that
 * does not compile so (a volatile array passed where a plain
 * pointer is expected, in C++) is compiled again with WEFT_VERIFY_PLAIN_SHARED defined. */
#ifndef WEFT_VERIFY_PLAIN_SHARED
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define __local __local volatile
#define local __local
#else
#undef __shared__
#define __shared__ __attribute__((shared)) volatile
/* Writes to `__constant__` data (GPUVerify reports them) are kept the same way. */
#undef __constant__
#define __constant__ __attribute__((constant)) volatile
#endif
#endif
#endif
"#;

/// `K,v1,...,vn` of `--kernel-args`: the kernel's name and the values (hexadecimal with
/// `0x`, or decimal; `*` or anything else: any value). `None` without a name.
pub(crate) fn parse_kernel_args(v: &str) -> Option<(String, Vec<Option<u64>>)> {
    let mut it = v.split(',');
    let name = it.next()?.trim().to_string();
    let vals = it.map(kernel_arg_value).collect();
    (!name.is_empty()).then_some((name, vals))
}

/// One value of `--kernel-args`: `None` (any value) for `*` or what does not parse.
pub(crate) fn kernel_arg_value(x: &str) -> Option<u64> {
    let x = x.trim();
    match x.strip_prefix("0x").or_else(|| x.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => x.parse::<i64>().ok().map(|n| n as u64),
    }
}

/// Applies GPUVerify analysis flags (from a header line or the command line) to `o`.
/// Returns the flags it did not understand.
pub fn apply_flags(o: &mut Options, flags: &[String]) -> Vec<String> {
    let mut unknown = Vec::new();
    for f in flags {
        let (name, val) = match f.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (f.as_str(), None),
        };
        match name {
            "--warp-sync" => {
                o.lockstep = true;
                if let Some(n) = val.and_then(|v| v.parse().ok()) {
                    o.warp_size = n;
                }
            }
            "--equality-abstraction" => o.equality = true,
            "--adversarial-abstraction" => o.equality = false,
            "--only-intra-group" => o.only_intra_group = true,
            "--only-inter-group" => o.only_inter_group = true,
            "--only-warp" => o.only_warp = true,
            "--no-benign-tolerance" | "--no-benign" => o.benign = false,
            "--loop-unwind" => o.loop_unwind = val.and_then(|v| v.parse().ok()),
            "--no-refined-atomics" => o.repetition_free = false,
            "--check-overflow" => o.check_overflow = true,
            "--assume-no-overflow" | "--math-int" => o.assume_no_overflow = true,
            "--check-array-bounds" => o.check_array_bounds = true,
            "--no-annotations" => {
                o.ignore_asserts = true;
                o.ignore_assumes = true;
                o.ignore_invariants = true;
            }
            "--only-requires" => {
                o.ignore_asserts = true;
                o.ignore_invariants = true;
            }
            "--invariants-as-candidates" => o.ignore_invariants = true,
            "--kernel-args" => match val.and_then(parse_kernel_args) {
                Some(ka) => o.kernel_args = Some(ka),
                None => unknown.push(f.clone()),
            },
            "--no-barrier-access-checks" => o.no_barrier_checks = true,
            "--warp-method" => {
                if val == Some("two-pass") {
                    o.warp_method = WarpMethod::TwoPass
                }
            }
            // Flags that change nothing here (inlining, solver tuning, reporting); `--only-log`
            // and `--vcgen-opt=/checkArrays:..` narrow the race checks in load.rs.
            "--no-inline"
            | "--inline"
            | "--no-infer"
            | "--infer-info"
            | "--time"
            | "--verbose"
            | "--debug"
            | "--race-instrumenter"
            | "--vcgen-opt"
            | "--vcgen-op"
            | "--boogie-opt"
            | "--kernel-arrays"
            | "--silent"
            | "--asymmetric-asserts"
            | "--atomic"
            | "--no-uniformity-analysis"
            | "--no-smart-predication"
            | "--only-divergence"
            | "--only-log"
            | "--array-equalities" => {}
            _ => unknown.push(f.clone()),
        }
    }
    unknown
}
