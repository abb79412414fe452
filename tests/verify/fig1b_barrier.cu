//pass
//--blockDim=64 --gridDim=1
// paper 002 Fig. 1b: the barrier separates the read of the neighbour from the write
__global__ void add(int *A) {
  __shared__ int S[64];
  S[threadIdx.x] = A[threadIdx.x];
  __syncthreads();
  int temp = S[(threadIdx.x + 1) % 64];
  __syncthreads();
  S[threadIdx.x] = S[threadIdx.x] + temp;
  __syncthreads();
  A[threadIdx.x] = S[threadIdx.x];
}
