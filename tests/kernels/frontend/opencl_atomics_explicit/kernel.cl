//pass
//--local_size=4 --num_groups=2
// OpenCL 2.0 atomics with explicit memory_order and memory_scope, and OpenCL 1.2 atomics.
// Each group counts its work-items into a work-group-scoped counter in __local memory and
// one of them publishes a final value with a release store; all groups add into a
// device-scoped global counter and race for a max; one CAS per group wins.
__kernel void k(__global atomic_int *total, __global atomic_int *mx, __global int *res,
                __global int *seen, __global int *old12) {
  __local atomic_int cnt;
  size_t l = get_local_id(0), g = get_group_id(0);
  if (l == 0)
    atomic_init(&cnt, 0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  int before = atomic_fetch_add_explicit(&cnt, 1, memory_order_relaxed,
                                         memory_scope_work_group);
  atomic_fetch_add_explicit(total, 1, memory_order_acq_rel, memory_scope_device);
  atomic_fetch_max_explicit(mx, (int)(g * 4 + l), memory_order_relaxed, memory_scope_device);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  seen[g * 4 + l] = atomic_load_explicit(&cnt, memory_order_acquire, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (before == 3)
    atomic_store_explicit(&cnt, 100, memory_order_release, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    res[4 + g] = atomic_load_explicit(&cnt, memory_order_acquire, memory_scope_work_group);
  // res[g] starts at 0: exactly one work-item of the group swaps the 0 for 7
  int expected = 0;
  if (atomic_compare_exchange_strong_explicit((__global atomic_int *)&res[g], &expected, 7,
                                              memory_order_acq_rel, memory_order_relaxed,
                                              memory_scope_device))
    atomic_fetch_add_explicit((__global atomic_int *)&res[2 + g], 1, memory_order_relaxed,
                              memory_scope_device);
  else
    atomic_exchange_explicit((__global atomic_int *)&res[6 + g], expected,
                             memory_order_relaxed, memory_scope_device);
  // OpenCL 1.2: atomic_add returns the old value; the 8 returns are 0..7 in some order
  int o = atomic_add((__global int *)&old12[0], 1);
  atomic_or((__global int *)&old12[1], 1 << o);
}
