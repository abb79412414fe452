//pass
//--local_size=64 --num_groups=8
// the access through `NULL + k` is guarded by a condition no work-item meets (a local id is below the local size), so there is no null-pointer access
kernel void k(global float *p) {
  global float *r = NULL;
  if (get_local_id(0) >= get_local_size(0))
    r[get_global_id(0)] = 1.0f;
  p[get_global_id(0)] = 2.0f;
}
