//--local_size=1 --num_groups=2 --buffer=data=1 --buffer=flag=1 --buffer=out=1
// OpenCL 2.0 message passing across work-groups with release/acquire atomics at work-group
// scope narrowed to the work-group: the two groups are not in each other's scope.
__kernel void mp(__global int *data, __global atomic_int *flag, __global int *out) {
  if (get_group_id(0) == 0) {
    data[0] = 42;
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_work_group);
  } else {
    int f = atomic_load_explicit(flag, memory_order_acquire, memory_scope_work_group);
    if (f == 1) {
      out[0] = data[0];
    }
  }
}
