//xfail:RACE
//--local_size=64 --num_groups=4
// barrier(CLK_GLOBAL_MEM_FENCE) does not order local memory: work-item i reads the element work-item i+1 wrote before the barrier
kernel void k(global int *out) {
  local int t[64];
  t[get_local_id(0)] = (int)get_global_id(0);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = t[(get_local_id(0) + 1) % 64];
}
