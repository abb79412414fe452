//xfail:ASSERT
//--local_size=16 --num_groups=2
// the event a copy is attached to must be the same in every work-item: here work-items
// 0..7 attach the copy to `ea` and 8..15 to `eb`
__kernel void k(__global const int *a, __global const int *b, __global int *out) {
  __local int ta[16];
  __local int tb[16];
  __local int tc[16];
  event_t ea = async_work_group_copy(ta, a + 16 * get_group_id(0), 16, 0);
  event_t eb = async_work_group_copy(tb, b + 16 * get_group_id(0), 16, 0);
  event_t *p = get_local_id(0) < 8 ? &ea : &eb;
  async_work_group_copy(tc, a + 16 * get_group_id(0), 16, *p);
  wait_group_events(1, &ea);
  wait_group_events(1, &eb);
  out[get_global_id(0)] = ta[get_local_id(0)] + tb[get_local_id(0)] + tc[get_local_id(0)];
}
