//pass
//--local_size=64 --num_groups=4
// the same kernel as cl_barrier_local_fence_global_race.cl with CLK_GLOBAL_MEM_FENCE: the barrier orders the two global writes of one work-group, and work-groups write disjoint elements
kernel void k(global int *p) {
  p[get_global_id(0)] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) > 0)
    p[get_global_id(0) - 1] = 2;
}
