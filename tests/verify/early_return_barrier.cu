//xfail:BARRIER_DIVERGENCE
//--blockDim=64 --gridDim=1
// threads 32..63 return before the barrier (GPUVerify semantics: divergence)
__global__ void k(int *A) {
  if (threadIdx.x >= 32) return;
  __syncthreads();
  A[threadIdx.x] = 1;
}
