//xfail:BARRIER_DIVERGENCE
//--blockDim=64 --gridDim=1
// only threads 0..15 reach the barrier
__global__ void k(int *A) {
  if (threadIdx.x < 16) { A[threadIdx.x] = 1; __syncthreads(); }
}
