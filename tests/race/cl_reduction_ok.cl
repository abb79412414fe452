//--local_size=128 --num_groups=2
__kernel void k(__global const int *in, __global int *out) {
  __local int s[128];
  size_t l = get_local_id(0), g = get_group_id(0);
  s[l] = in[g * 128 + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t d = 64; d > 0; d >>= 1) {
    if (l < d)
      s[l] += s[l + d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[g] = s[0];
}
