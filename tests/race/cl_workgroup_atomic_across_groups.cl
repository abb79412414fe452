//--local_size=32 --num_groups=4
// A work-group-scope atomic on a global counter shared by all work-groups.
__kernel void k(__global atomic_int *total) {
  atomic_fetch_add_explicit(total, 1, memory_order_relaxed, memory_scope_work_group); // @A
}
