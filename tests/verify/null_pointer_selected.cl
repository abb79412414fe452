//xfail:MEMORY
//--local_size=16 --num_groups=4
// groups other than 2 get a null pointer and still store through it
__kernel void k(__global int *p) {
  __global int *r = get_group_id(0) == 2 ? p : NULL;
  r[get_global_id(0)] = 1;
}
