//pass
//--blockDim=64 --gridDim=1
// rotation by barrier-separated steps
__global__ void k(int *A) {
  __shared__ int S[64];
  S[threadIdx.x] = threadIdx.x;
  for (int r = 0; r < 4; r++) {
    __syncthreads();
    int v = S[(threadIdx.x + 1) % 64];
    __syncthreads();
    S[threadIdx.x] = v;
  }
  __syncthreads();
  A[threadIdx.x] = S[threadIdx.x];
}
