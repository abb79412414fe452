//pass
//--local_size=16 --num_groups=4
// the null case needs a group id of 4 or more, which the launch does not have
__kernel void k(__global int *p) {
  __global int *r = get_group_id(0) < 4 ? p : NULL;
  r[get_global_id(0)] = 1;
}
