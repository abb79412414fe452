//pass
//--blockDim=64 --gridDim=2
// the launch bounds the thread id
__global__ void k(int *A) {
  __assert(threadIdx.x < 64);
  A[blockIdx.x * 64 + threadIdx.x] = 1;
}
