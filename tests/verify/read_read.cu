//pass
//--blockDim=64 --gridDim=2
// reads never race
__global__ void k(const int *A, int *out) {
  out[blockIdx.x * 64 + threadIdx.x] = A[0] + A[threadIdx.x];
}
