//pass
//--blockDim=64 --gridDim=1
// with n = 64, tid % n is the thread id
__global__ void k(int *A, unsigned n) {
  __requires(n == 64);
  A[threadIdx.x % n] = 1;
}
