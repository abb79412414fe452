//--local_size=64 --num_groups=1
// Work-item 0 resets a local counter while the other sub-group increments it.
__kernel void k(__global int *out) {
  __local int c;
  size_t l = get_local_id(0);
  if (l == 0)
    c = 0; // @Z
  atomic_add(&c, (int)(l / get_local_size(0)) + 1); // @A
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    out[0] = c;
}
