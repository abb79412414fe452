//pass
//--local_size=16 --num_groups=8
// each group copies its tile to its own 16 global words
__kernel void k(__global int *out) {
  __local int tile[16];
  tile[get_local_id(0)] = (int)get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out + 16 * get_group_id(0), tile, 16, 0);
  wait_group_events(1, &e);
}
