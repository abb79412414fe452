//--local_size=2 --num_groups=4
// histogram with a divergent barrier in OpenCL 2.0 (paper 004 Table 3, histogram4 at grid
// (4,2)): a work-group histogram in local memory (relaxed work-group-scope atomics), merged
// into the global one (relaxed device-scope atomics); the barrier before the merge is inside
// `if (bin < BINS)`, taken by only some work-items: barrier divergence.
#define BINS 4
__kernel void histogram(__global const int *in, __global atomic_int *hist) {
  __local atomic_int local_hist[BINS];
  uint t = get_local_id(0);
  for (uint i = t; i < BINS; i += get_local_size(0)) {
    atomic_store_explicit(&local_hist[i], 0, memory_order_relaxed, memory_scope_work_group);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  int bin = (in[get_global_id(0)] * 5) % 8;
  if (bin < BINS) {
    atomic_fetch_add_explicit(&local_hist[bin], 1, memory_order_relaxed, memory_scope_work_group);
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  }
  for (uint i = t; i < BINS; i += get_local_size(0)) {
    int c = atomic_load_explicit(&local_hist[i], memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_add_explicit(&hist[i], c, memory_order_relaxed, memory_scope_device);
  }
}
