//pass
//--blockDim=64 --gridDim=1
// one block: the barrier separates the write from the read
__global__ void k(int *A, int *out) {
  A[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = A[63 - threadIdx.x];
}
