//pass
//--local_size=64 --num_groups=4
// OpenCL 2.0: rotate values through local memory with a work-group barrier, then count
// work-items with a device-scope relaxed atomic increment.
__kernel void local_barrier_atomic(__global int *data, __local int *tmp,
                                   __global atomic_int *count) {
  size_t l = get_local_id(0);
  size_t g = get_global_id(0);
  tmp[l] = data[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  data[g] = tmp[(l + 1) % get_local_size(0)];
  atomic_fetch_add_explicit(count, 1, memory_order_relaxed, memory_scope_device);
}
