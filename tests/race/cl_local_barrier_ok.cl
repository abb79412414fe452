//--local_size=64 --num_groups=2
__kernel void k(__global const int *in, __global int *out) {
  __local int tmp[64];
  size_t l = get_local_id(0), g = get_group_id(0);
  tmp[l] = in[g * 64 + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g * 64 + l] = tmp[63 - l];
}
