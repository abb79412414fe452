//pass
//--local_size=64 --num_groups=4
// the same kernel as cl_barrier_global_fence_local_race.cl with CLK_LOCAL_MEM_FENCE: the barrier orders the local write before the neighbour's read
kernel void k(global int *out) {
  local int t[64];
  t[get_local_id(0)] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[(get_local_id(0) + 1) % 64];
}
