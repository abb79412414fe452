//pass
//--local_size=4 --num_groups=2
// A __local pointer parameter (work-group-local scratch given by --local): each group
// reverses its chunk through it. get_work_dim() of this 1-dimensional launch is 1 (checked).
__kernel void rev(__global const int *in, __global int *out, __local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  tmp[l] = in[g * n + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g * n + l] = tmp[n - 1 - l];
  __assert(get_work_dim() == 1);
}
