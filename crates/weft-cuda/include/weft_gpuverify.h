/* weft_gpuverify.h: GPUVerify's kernel specification dialect for weft (force-included for
 * CUDA and OpenCL; `#include "cuda.h"` also brings it).
 *
 * Every annotation is a call of an external marker function `__weft_annot_KIND(cond)`; weft's
 * PTX lowering turns the call into an IR annotation statement (assert, assume, requires,
 * ensures, loop invariant, ...), which the verifier reads and the emulator checks (asserts and
 * invariants that do not depend on two-thread predicates). Predicates about the pair of
 * threads GPUVerify reasons about (`__read`, `__write`, `__same_group`, `__other_int`,
 * `__uniform_int`, `__enabled`, ...) are calls of `__weft_query_KIND(...)`, lowered to IR
 * queries. Meanings (GPUVerify's documentation):
 *   __assert(e)               e holds whenever reached (checked);
 *   __global_assert(e)        e holds for every thread;
 *   __assume(e)               only executions where e holds are considered;
 *   __requires(e)             precondition of the enclosing function (kernel: on launch);
 *   __global_requires(e)      precondition over all threads;
 *   __ensures(e)              postcondition of the enclosing function;
 *   __invariant(e)            loop invariant (written in the loop condition: checked at every
 *                             evaluation of the loop head);
 *   __global_invariant(e)     loop invariant over all threads;
 *   __function_wide_invariant(e)  an invariant of every loop of the function;
 *   __candidate_invariant(e)  a loop invariant to be inferred (may be dropped);
 *   __implies(a, b)           !a || b;   __ite(c, a, b)  c ? a : b;
 *   __read(p) / __write(p)    the thread has read / written the array p since the last barrier;
 *   __read_offset(p) / __write_offset(p)  the offset of that access;
 *   __same_group              the two threads considered are in the same group (block);
 *   __other_int(x)            x's value in the other thread; __uniform_int(x): equal in both;
 *   __distinct_int(x)         different in both; __enabled(): the thread is enabled here;
 *   __add_noovfl(a, b)        a + b, assuming it does not overflow;
 *   DECLARE_UF_BINARY(F, A, B, R) declares an uninterpreted function F : A x B -> R.
 */
#ifndef WEFT_GPUVERIFY_H
#define WEFT_GPUVERIFY_H

#ifdef __cplusplus
#define __WEFT_GV_DECL extern "C" __attribute__((device))
#define __WEFT_GV_INLINE static __attribute__((device)) __inline__ __attribute__((always_inline))
typedef unsigned long long __weft_gv_addr;
#else
#define __WEFT_GV_DECL extern
#define __WEFT_GV_INLINE static inline __attribute__((always_inline))
typedef unsigned long __weft_gv_addr;
#endif

__WEFT_GV_DECL void __weft_annot_assert(int);
__WEFT_GV_DECL void __weft_annot_global_assert(int);
__WEFT_GV_DECL void __weft_annot_assume(int);
__WEFT_GV_DECL void __weft_annot_requires(int);
__WEFT_GV_DECL void __weft_annot_global_requires(int);
__WEFT_GV_DECL void __weft_annot_ensures(int);
__WEFT_GV_DECL void __weft_annot_global_ensures(int);
__WEFT_GV_DECL void __weft_annot_invariant(int);
__WEFT_GV_DECL void __weft_annot_global_invariant(int);
__WEFT_GV_DECL void __weft_annot_function_wide_invariant(int);
__WEFT_GV_DECL void __weft_annot_candidate_invariant(int);
__WEFT_GV_DECL void __weft_annot_axiom(int);

__WEFT_GV_DECL int __weft_query_read(__weft_gv_addr);
__WEFT_GV_DECL int __weft_query_write(__weft_gv_addr);
__WEFT_GV_DECL int __weft_query_atomic(__weft_gv_addr);
__WEFT_GV_DECL unsigned __weft_query_read_offset(__weft_gv_addr);
__WEFT_GV_DECL unsigned __weft_query_write_offset(__weft_gv_addr);
__WEFT_GV_DECL __weft_gv_addr __weft_query_ptr_base(__weft_gv_addr);
__WEFT_GV_DECL unsigned __weft_query_ptr_offset(__weft_gv_addr);
__WEFT_GV_DECL int __weft_query_enabled(void);
__WEFT_GV_DECL int __weft_query_dominator_enabled(void);
__WEFT_GV_DECL int __weft_query_same_group(void);
__WEFT_GV_DECL int __weft_query_other_int(int);
__WEFT_GV_DECL int __weft_query_uniform_int(int);
__WEFT_GV_DECL int __weft_query_distinct_int(int);
__WEFT_GV_DECL __weft_gv_addr __weft_query_other_ptr(__weft_gv_addr);
__WEFT_GV_DECL int __weft_query_all(int);
__WEFT_GV_DECL int __weft_query_atomic_has_taken_value(__weft_gv_addr, __weft_gv_addr, __weft_gv_addr);
__WEFT_GV_DECL int __weft_query_at_most_one(int);
__WEFT_GV_DECL int __weft_query_old_int(int);
__WEFT_GV_DECL int __weft_query_return_val_int(void);
__WEFT_GV_DECL __weft_gv_addr __weft_query_return_val_ptr(void);
__WEFT_GV_DECL int __weft_query_no_overflow_add(int, int);
__WEFT_GV_DECL int __weft_query_no_overflow_add_unsigned(unsigned, unsigned);
__WEFT_GV_DECL double __weft_query_uf(int, int, double, double, double);

/* GPUVerify's file-scope `__axiom(e)`: a function holding the annotation, kept in the PTX
 * (`__weft_axiom_LINE`) for the verifier; never called. */
#define __WEFT_GV_CAT2(a, b) a##b
#define __WEFT_GV_CAT(a, b) __WEFT_GV_CAT2(a, b)
#ifdef __cplusplus
#define __axiom(e)                                                                             \
  extern "C" __attribute__((device)) void __WEFT_GV_CAT(__weft_axiom_, __LINE__)(void) {       \
    __weft_annot_axiom(!!(e));                                                                 \
  }
#else
#define __axiom(e)                                                                             \
  void __WEFT_GV_CAT(__weft_axiom_, __LINE__)(void) { __weft_annot_axiom(!!(e)); }
#endif
__WEFT_GV_DECL void __weft_annot_fresh_array(__weft_gv_addr);
#define __requires_fresh_array(p) __weft_annot_fresh_array((__weft_gv_addr)(p))

/* ---- statements --------------------------------------------------------------------- */
/* The frame of a specification function (`void __spec_f(p) { __writes_to(p); }`): accepted
 * and type-checked, not modelled (weft neither havocs the array nor restricts the frame). */
#define __reads_from(p) ((void)(p))
#define __writes_to(p) ((void)(p))
#define __assert(e) __weft_annot_assert(!!(e))
#define __global_assert(e) __weft_annot_global_assert(!!(e))
#define __assume(e) __weft_annot_assume(!!(e))
#define __requires(e) __weft_annot_requires(!!(e))
#define __global_requires(e) __weft_annot_global_requires(!!(e))
#define __ensures(e) __weft_annot_ensures(!!(e))
#define __global_ensures(e) __weft_annot_global_ensures(!!(e))
#define __function_wide_invariant(e) __weft_annot_function_wide_invariant(!!(e))
#define __function_wide_candidate_invariant(e) __weft_annot_candidate_invariant(!!(e))
/* Loop invariants sit in the loop condition: `for (i = 0; __invariant(i <= n), i < n; i++)`. */
#define __invariant(e) __weft_annot_invariant(!!(e))
#define __global_invariant(e) __weft_annot_global_invariant(!!(e))
#define __candidate_invariant(e) __weft_annot_candidate_invariant(!!(e))
#define __candidate_global_invariant(e) __weft_annot_candidate_invariant(!!(e))
#define __non_temporal(e) (e)
#define __barrier_invariant_0(e) __weft_annot_global_invariant(!!(e))
#define __barrier_invariant_1(e, a) __weft_annot_global_invariant(!!(e))
#define __barrier_invariant_2(e, a, b) __weft_annot_global_invariant(!!(e))
#define __barrier_invariant_3(e, a, b, c) __weft_annot_global_invariant(!!(e))
#define __barrier_invariant_binary_0(e) __weft_annot_global_invariant(!!(e))
#define __barrier_invariant_binary_1(e, a, b) __weft_annot_global_invariant(!!(e))
#define __barrier_invariant_binary_2(e, a, b, c, d) __weft_annot_global_invariant(!!(e))

/* ---- expressions -------------------------------------------------------------------- */
#define __implies(a, b) (!(a) || (b))
#define __ite(c, a, b) ((c) ? (a) : (b))
#define __read(p) __weft_query_read((__weft_gv_addr)(p))
#define __write(p) __weft_query_write((__weft_gv_addr)(p))
#define __atomic(p) __weft_query_atomic((__weft_gv_addr)(p))
#define __no_read(p) (!__read(p))
#define __no_write(p) (!__write(p))
#define __read_implies(p, e) __implies(__read(p), (e))
#define __write_implies(p, e) __implies(__write(p), (e))
#define __atomic_implies(p, e) __implies(__atomic(p), (e))
#define __read_offset(p) __weft_query_read_offset((__weft_gv_addr)(p))
#define __write_offset(p) __weft_query_write_offset((__weft_gv_addr)(p))
#define __read_offset_bytes(p) __read_offset(p)
#define __write_offset_bytes(p) __write_offset(p)
#define __ptr_base(p) __weft_query_ptr_base((__weft_gv_addr)(p))
#define __ptr_offset(p) __weft_query_ptr_offset((__weft_gv_addr)(p))
#define __ptr_offset_bytes(p) __ptr_offset(p)
#define __same_group __weft_query_same_group()
#define __other_int(x) __weft_query_other_int((int)(x))
#define __other_bool(x) __weft_query_other_int(!!(x))
#define __other_ptr(p) __weft_query_other_ptr((__weft_gv_addr)(p))
#define __uniform_int(x) __weft_query_uniform_int((int)(x))
#define __uniform_bool(x) __weft_query_uniform_int(!!(x))
#define __distinct_int(x) __weft_query_distinct_int((int)(x))
#define __distinct_bool(x) __weft_query_distinct_int(!!(x))
#define __all(e) __weft_query_all(!!(e))
/* the atomic counter at p + offset has, at some point, held value v */
#define __atomic_has_taken_value(p, off, v)                                                    \
  __weft_query_atomic_has_taken_value((__weft_gv_addr)(p), (__weft_gv_addr)(off),             \
                                      (__weft_gv_addr)(v))
#define __exclusive(e) __weft_query_at_most_one(!!(e))
#define __at_most_one(e) __weft_query_at_most_one(!!(e))
#define __enabled() __weft_query_enabled()
#define __dominator_enabled() __weft_query_dominator_enabled()
#define __old_int(x) __weft_query_old_int((int)(x))
#define __old_bool(x) __weft_query_old_int(!!(x))
#define __return_val_int() __weft_query_return_val_int()
#define __return_val_bool() __weft_query_return_val_int()
#define __return_val_ptr() ((void *)__weft_query_return_val_ptr())
#ifndef __cplusplus
/* OpenCL vector results: the query's value splatted (the verifier reads the element). */
#define __WEFT_GV_RV(T) ((T)(__weft_query_return_val_int()))
#define __return_val_int2() __WEFT_GV_RV(int2)
#define __return_val_int3() __WEFT_GV_RV(int3)
#define __return_val_int4() __WEFT_GV_RV(int4)
#define __return_val_uint2() __WEFT_GV_RV(uint2)
#define __return_val_uint4() __WEFT_GV_RV(uint4)
#define __return_val_float2() __WEFT_GV_RV(float2)
#define __return_val_float4() __WEFT_GV_RV(float4)
#endif
#define __return_val_funptr(T) ((T)__weft_query_return_val_ptr())
#define __is_pow2(x) (((x) != 0) && (((x) & ((x)-1)) == 0))
#define __mod_pow2(x, y) ((x) & ((y)-1))

/* a + b, with the assumption that it does not overflow */
__WEFT_GV_INLINE int __add_noovfl_int(int a, int b) {
  __weft_annot_assume(__weft_query_no_overflow_add(a, b));
  return a + b;
}
__WEFT_GV_INLINE unsigned __add_noovfl_unsigned(unsigned a, unsigned b) {
  __weft_annot_assume(__weft_query_no_overflow_add_unsigned(a, b));
  return a + b;
}
#define __add_noovfl(a, b) __add_noovfl_unsigned((unsigned)(a), (unsigned)(b))
#define __add_noovfl_signed(a, b) __add_noovfl_int((int)(a), (int)(b))
#define __add_noovfl_char(a, b) __add_noovfl_int((int)(a), (int)(b))
#define __add_noovfl_short(a, b) __add_noovfl_int((int)(a), (int)(b))
#define __add_noovfl_int_signed(a, b) __add_noovfl_int((int)(a), (int)(b))
#define __add_noovfl_unsigned_int(a, b) __add_noovfl_unsigned((unsigned)(a), (unsigned)(b))

/* Uninterpreted functions: a fixed function of the arguments, the same in every thread. */
#define DECLARE_UF_UNARY(NAME, A, R)                                                           \
  __WEFT_GV_INLINE R NAME(A a) { return (R)__weft_query_uf(__LINE__, 1, (double)a, 0, 0); }
#define DECLARE_UF_BINARY(NAME, A, B, R)                                                       \
  __WEFT_GV_INLINE R NAME(A a, B b) {                                                          \
    return (R)__weft_query_uf(__LINE__, 2, (double)a, (double)b, 0);                           \
  }
#define DECLARE_UF_TERNARY(NAME, A, B, C, R)                                                   \
  __WEFT_GV_INLINE R NAME(A a, B b, C c) {                                                     \
    return (R)__weft_query_uf(__LINE__, 3, (double)a, (double)b, (double)c);                   \
  }

#endif /* WEFT_GPUVERIFY_H */
