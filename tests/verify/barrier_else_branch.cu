//xfail:BARRIER_DIVERGENCE
//--blockDim=64 --gridDim=1
// two textually different barriers: GPUVerify treats them as distinct (divergence)
__global__ void k(int *A) {
  if (threadIdx.x % 2) { __syncthreads(); A[threadIdx.x] = 1; }
  else { __syncthreads(); A[threadIdx.x] = 2; }
}
