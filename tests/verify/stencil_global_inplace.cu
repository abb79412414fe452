//xfail:RACE
//--blockDim=64 --gridDim=1
// in-place stencil on one array
__global__ void stencil(float *A) {
  unsigned i = threadIdx.x + 1;
  A[i] = A[i - 1] + A[i + 1];
}
