//pass
//--blockDim=64 --gridDim=2
// paper 002 Fig. 2a: concurrent atomics do not race
__global__ void histo(const int *A, unsigned *B) {
  int t = A[blockIdx.x * 64 + threadIdx.x];
  atomicAdd(&B[t], 1u);
}
