//xfail:BARRIER_DIVERGENCE
//--blockDim=32 --gridDim=1
// trip count depends on the thread id
__global__ void k(int *A) {
  for (unsigned i = 0; i < threadIdx.x; i++) { __syncthreads(); }
  A[threadIdx.x] = 1;
}
