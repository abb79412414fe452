//pass
//--blockDim=64 --gridDim=2
// the condition depends only on a kernel parameter: uniform
__global__ void k(int *A, int n) {
  A[blockIdx.x * 64 + threadIdx.x] = 0;
  if (n > 0) __syncthreads();
  A[blockIdx.x * 64 + threadIdx.x] = 1;
}
