//xfail:RACE
//--local_size=16 --num_groups=8
// every group copies its tile to the same 16 global words: copies of different groups race
__kernel void k(__global int *out) {
  __local int tile[16];
  tile[get_local_id(0)] = (int)get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out, tile, 16, 0);
  wait_group_events(1, &e);
}
