//xfail:RACE
//--blockDim=64 --gridDim=1
// for n = 1 every thread writes A[0]
__global__ void k(int *A, unsigned n) {
  A[threadIdx.x % n] = 1;
}
