//xfail:RACE
//--local_size=64 --num_groups=2
// the work-item reads l[lid] right after starting the copy into l, before the wait: the group's copy may not have written it yet (a race with the copy, OpenCL 1.2 §6.12.10), even though the work-item itself wrote l[lid] just before
__kernel void k(__global int *g, __global int *out) {
  __local int l[64];
  unsigned i = get_local_id(0);
  l[i] = 7;
  event_t e = async_work_group_copy(l, g + 64 * get_group_id(0), 64, 0);
  int x = l[i];
  wait_group_events(1, &e);
  out[get_global_id(0)] = x;
}
