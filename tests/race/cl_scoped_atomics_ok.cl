//--local_size=128 --num_groups=4
// OpenCL 2.0 scoped atomics: work-group scope on local memory, device scope on global.
__kernel void k(__global const int *in, __global atomic_int *total, __global int *per_group) {
  __local atomic_int count;
  size_t l = get_local_id(0);
  if (l == 0)
    atomic_store_explicit(&count, 0, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  if (in[get_global_id(0)] % 2 != 0)
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  if (l == 0) {
    int c = atomic_load_explicit(&count, memory_order_relaxed, memory_scope_work_group);
    per_group[get_group_id(0)] = c;
    atomic_fetch_add_explicit(total, c, memory_order_acq_rel, memory_scope_device);
  }
}
