//--local_size=64 --num_groups=2
// OpenCL: a work-group reverses its chunk through local memory without a barrier.
__kernel void k(__global const int *in, __global int *out) {
  __local int tmp[64];
  size_t l = get_local_id(0), g = get_group_id(0);
  tmp[l] = in[g * 64 + l]; // @W
  out[g * 64 + l] = tmp[63 - l]; // @R
}
