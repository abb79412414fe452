//xfail:MEMORY
//--local_size=64 --num_groups=8
// `NULL + k` with k from the ids: clang folds the null base away, so the address is computed from ids only and points into no array (GPUVerify's async_work_group_copy/fail/test16 pattern, without the copy)
kernel void k(global float *p) {
  global float *r = NULL;
  r[get_global_id(0)] = p[get_global_id(0)];
}
