//pass
//--local_size=16 --num_groups=4
// the copy stays pending across the barrier but nothing touches `tile` until the wait has
// completed it; the second event of the list was never assigned (skipped, as GPUVerify does)
__kernel void k(__global const int *in, __global int *out) {
  __local int tile[16];
  event_t e[2];
  e[0] = async_work_group_copy(tile, in + 16 * get_group_id(0), 16, 0);
  out[get_global_id(0)] = get_local_id(0);
  barrier(CLK_GLOBAL_MEM_FENCE);
  wait_group_events(2, e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
