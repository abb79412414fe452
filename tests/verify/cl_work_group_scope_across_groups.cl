//xfail:RACE
//--local_size=32 --num_groups=2
// beyond GPUVerify: work_group-scope atomics of different work-groups are not mutually in scope
__kernel void k(__global atomic_int *c) {
  atomic_fetch_add_explicit(c, 1, memory_order_relaxed, memory_scope_work_group);
}
