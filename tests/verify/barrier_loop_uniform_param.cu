//pass
//--blockDim=32 --gridDim=2
// symbolic but uniform trip count: loop cut with the inferred uniformity invariant
__global__ void k(int *A, int n) {
  __shared__ int S[32];
  for (int i = 0; i < n; i++) {
    S[threadIdx.x] = i;
    __syncthreads();
    A[blockIdx.x * 32 + threadIdx.x] += S[31 - threadIdx.x];
    __syncthreads();
  }
}
