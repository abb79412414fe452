//pass
//--local_size=64 --num_groups=4
// CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE orders both spaces: the local and the global neighbour accesses are separated by the barrier
kernel void k(global int *p) {
  local int t[64];
  t[get_local_id(0)] = 1;
  p[get_global_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) > 0)
    p[get_global_id(0) - 1] = t[get_local_id(0) - 1];
}
