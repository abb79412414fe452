//pass
//--local_size=32 --num_groups=2
// device-scope atomics across work-groups
__kernel void k(__global atomic_int *c) {
  atomic_fetch_add_explicit(c, 1, memory_order_relaxed, memory_scope_device);
}
