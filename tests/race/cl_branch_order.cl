//--local_size=32 --num_groups=1
// The two sides of a divergent branch write one local word (branch ordering).
__kernel void k(__global const int *in, __global int *out) {
  __local int s[1];
  size_t l = get_local_id(0);
  if (in[l] == 0) {
    s[0] = 1; // @A
    out[1] = 10;
  } else {
    out[2] = 20;
    s[0] = 2; // @B
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    out[0] = s[0];
}
