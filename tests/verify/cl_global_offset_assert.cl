//xfail:ASSERT
//--local_size=64 --num_groups=64 --global_offset=64
// hand-derived: with a global offset of 64 the last 64 work-items have global ids 4096..4159, so the assertion fails for them (without the offset it would hold for all 4096)
__kernel void k(__global int *a) {
  size_t g = get_global_id(0);
  __assert(g < 4096);
  a[g] = 1;
}
