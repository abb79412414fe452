//pass
//--local_size=1 --num_groups=2
// OpenCL 2.0 message passing with explicit release/acquire at device scope and a
// work-group-scope seq_cst fence.
__kernel void opencl20_mp(__global int *data, __global atomic_int *flag, __global int *out) {
  if (get_group_id(0) == 0) {
    data[0] = 42;
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
  } else {
    while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0) {
    }
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_group);
    out[0] = data[0];
  }
}
