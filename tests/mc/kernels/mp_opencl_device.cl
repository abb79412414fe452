//--local_size=1 --num_groups=2 --buffer=data=1 --buffer=flag=1 --buffer=out=1
// OpenCL 2.0 message passing across work-groups with release/acquire atomics at device
// scope.
__kernel void mp(__global int *data, __global atomic_int *flag, __global int *out) {
  if (get_group_id(0) == 0) {
    data[0] = 42;
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
  } else {
    int f = atomic_load_explicit(flag, memory_order_acquire, memory_scope_device);
    if (f == 1) {
      out[0] = data[0];
    }
  }
}
