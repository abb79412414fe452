//xfail:ASSERT
//--blockDim=64 --gridDim=1
// thread 5 exists
__global__ void k(int *A) {
  __assert(threadIdx.x != 5);
  A[threadIdx.x] = 1;
}
