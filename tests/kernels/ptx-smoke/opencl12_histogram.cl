//pass
//--local_size=[32,1] --num_groups=[8,1]
// OpenCL 1.2: a local histogram built with atomic_inc, merged into global memory with
// atomic_add after a barrier (paper 002 Fig. 2a).
__kernel void opencl12_histogram(__global const uint *data, __global uint *bins) {
  __local uint local_bins[16];
  uint l = get_local_id(0);
  if (l < 16) {
    local_bins[l] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&local_bins[data[get_global_id(0)] % 16]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) {
    atomic_add(&bins[l], local_bins[l]);
  }
}
