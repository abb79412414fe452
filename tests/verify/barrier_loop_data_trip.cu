//xfail:BARRIER_DIVERGENCE
//--blockDim=32 --gridDim=1
// trip count read per thread from memory
__global__ void k(const int *n, int *A) {
  for (int i = 0; i < n[threadIdx.x]; i++) { A[threadIdx.x] = i; __syncthreads(); }
}
