//pass
//--local_size=64 --num_groups=4
// OpenCL: each work-group reverses its chunk through local memory, then adds its group
// sum (computed by work-item 0 after a second barrier) to every element.
__kernel void local_reverse(__global const int *in, __global int *out) {
  __local int tmp[64];
  __local int sum;
  size_t l = get_local_id(0);
  size_t n = get_local_size(0);
  size_t g = get_group_id(0);
  tmp[l] = in[g * n + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    int s = 0;
    for (size_t i = 0; i < n; i++) s += tmp[i];
    sum = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g * n + l] = tmp[n - 1 - l] + sum;
}
