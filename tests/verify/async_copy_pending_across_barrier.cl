//xfail:RACE
//--local_size=16 --num_groups=4
// a barrier does not complete an async copy: until wait_group_events (after the read) the
// group may still be writing `tile`, so reading it after the barrier races with the copy
__kernel void k(__global const int *in, __global int *out) {
  __local int tile[16];
  event_t e = async_work_group_copy(tile, in + 16 * get_group_id(0), 16, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[get_local_id(0)];
  wait_group_events(1, &e);
}
