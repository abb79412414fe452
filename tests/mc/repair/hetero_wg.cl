//--local_size=1 --num_groups=2
// Repair test (OpenCL 2.0): two work-groups add to one counter with work-group scope, a
// heterogeneous race; repair widens memory_scope_work_group to memory_scope_device.
__kernel void hetero_wg(__global atomic_int *x) {
  atomic_fetch_add_explicit(x, 1, memory_order_relaxed, memory_scope_work_group);
}
