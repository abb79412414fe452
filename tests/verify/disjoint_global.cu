//pass
//--blockDim=64 --gridDim=4
// global index is distinct per thread
__global__ void k(int *A) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  A[i] = i;
}
