//xfail:BARRIER_DIVERGENCE
//--blockDim=64 --gridDim=1
// Barrier divergence inside a warp: only odd threads reach __syncthreads(). On a SIMT stack
// machine the even threads wait on the stack and never arrive: reported, then deadlock.
__global__ void barrier_divergence_warp(int *out) {
  if (threadIdx.x % 2 == 1) {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}
