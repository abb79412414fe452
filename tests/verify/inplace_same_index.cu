//pass
//--blockDim=64 --gridDim=4
// each thread reads and writes only its own element (floats are uninterpreted)
__global__ void k(float *A) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  A[i] = A[i] * 2.0f;
}
