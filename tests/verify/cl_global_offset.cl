//pass
//--local_size=64 --num_groups=64 --global_offset=[100,0,7]
// hand-derived: with a global offset (100, 0, 7) every work-item's global id in x is its group's base plus its local id plus 100, so it is at least 100 and below 64 * 64 + 100; get_global_offset returns the offset per dimension; work-item i writes a[get_global_id(0) - 100] = a[i] only
__kernel void k(__global int *a) {
  size_t g = get_global_id(0);
  __assert(g >= 100);
  __assert(g < 64 * 64 + 100);
  __assert(get_global_offset(0) == 100);
  __assert(get_global_offset(1) == 0);
  __assert(get_global_offset(2) == 7);
  __assert(get_global_id(2) == 7);
  a[g - 100] = 1;
}
