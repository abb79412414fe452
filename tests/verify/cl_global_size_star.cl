//pass
//--local_size=128 --global_size=*
// hand-derived: a `*` global size is any multiple of the local size (OpenCL 1.2 requires it), so the number of groups times 128 is the global size and both assertions hold; work-item i writes only a[i]
__kernel void k(__global int *a) {
  __assert(get_global_size(0) % 128 == 0);
  __assert(get_num_groups(0) * 128 == get_global_size(0));
  a[get_global_id(0)] = 1;
}
