//xfail:RACE
//--local_size=16 --num_groups=8
// two copies of one group fill the same local words: their writes collide
__kernel void k(__global const int *a, __global const int *b, __global int *out) {
  __local int tile[16];
  event_t e1 = async_work_group_copy(tile, a + 16 * get_group_id(0), 16, 0);
  event_t e2 = async_work_group_copy(tile, b + 16 * get_group_id(0), 16, 0);
  wait_group_events(1, &e1);
  wait_group_events(1, &e2);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
