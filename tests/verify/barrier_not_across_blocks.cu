//xfail:RACE
//--blockDim=64 --gridDim=2
// the barrier orders threads of one block only; blocks race on A
__global__ void k(int *A, int *out) {
  A[threadIdx.x] = 1;
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = A[63 - threadIdx.x];
}
