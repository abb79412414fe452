//xfail:BARRIER_DIVERGENCE
//--blockDim=64 --gridDim=2
// Barrier divergence across warps: the second warp of each block returns early and never
// reaches __syncthreads(); the first warp's barrier completes only because exited threads no
// longer count. Reported as divergence; the output is still written.
__global__ void barrier_divergence_exit(int *out) {
  __shared__ int s[32];
  if (threadIdx.x >= 32) {
    return;
  }
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = s[31 - threadIdx.x];
}
