//xfail:RACE
//--blockDim=64 --gridDim=1
// for n = 1 every thread writes A[0]; threads write their own ids (the same value everywhere would be a benign race)
__global__ void k(int *A, unsigned n) {
  A[threadIdx.x % n] = threadIdx.x;
}
