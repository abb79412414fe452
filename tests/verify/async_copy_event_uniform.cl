//pass
//--local_size=16 --num_groups=2
// the same copy as async_copy_event_nonuniform.cl attached to one event by every work-item
__kernel void k(__global const int *a, __global const int *b, __global int *out) {
  __local int ta[16];
  __local int tb[16];
  __local int tc[16];
  event_t ea = async_work_group_copy(ta, a + 16 * get_group_id(0), 16, 0);
  event_t eb = async_work_group_copy(tb, b + 16 * get_group_id(0), 16, 0);
  event_t *p = get_num_groups(0) < 8 ? &ea : &eb;
  async_work_group_copy(tc, a + 16 * get_group_id(0), 16, *p);
  wait_group_events(1, &ea);
  wait_group_events(1, &eb);
  out[get_global_id(0)] = ta[get_local_id(0)] + tb[get_local_id(0)] + tc[get_local_id(0)];
}
