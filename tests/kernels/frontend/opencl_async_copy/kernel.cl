//pass
//--local_size=4 --num_groups=2
// OpenCL 1.2 built-ins: async_work_group_copy + wait_group_events, prefetch, math (sqrt),
// vector types (int2), min.
#define N 4
kernel void dbl(global float *p, global int2 *q) {
  local float mine[N];
  event_t e = async_work_group_copy(mine, p + N * get_group_id(0), N, 0);
  wait_group_events(1, &e);
  prefetch(p, N);
  size_t l = get_local_id(0);
  p[get_global_id(0)] = 2 * mine[N - 1 - l] + sqrt(4.0f);
  int2 v = (int2)((int)get_global_id(0), min((int)l, 2));
  q[get_global_id(0)] = v;
}
