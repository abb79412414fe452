//xfail:ASSERT
//--local_size=16 --num_groups=2
// only half of the work-group reaches the copy, which the whole group must execute
__kernel void k(__global const int *in, __global int *out) {
  __local int tile[16];
  if (get_local_id(0) < 8) {
    event_t e = async_work_group_copy(tile, in, 16, 0);
    wait_group_events(1, &e);
  }
  out[get_global_id(0)] = 0;
}
