//xfail:RACE
//--local_size=64 --num_groups=4
// every group has its own `count`, so each group's atomic_inc returns 0..63 again: work-items of two groups write the same word of the global array `A` (the relaxed repetition-free refinement is only per group)
kernel void k(global int *A) {
  local int count;
  if (get_local_id(0) == 0)
    count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  A[atomic_inc(&count)] = get_global_id(0);
}
