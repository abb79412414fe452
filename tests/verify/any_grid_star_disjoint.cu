//pass
//--blockDim=64 --gridDim=*
// any number of blocks of 64 threads: each block writes its own 64 elements (64-bit index)
__global__ void k(int *out) {
  out[(size_t)blockIdx.x * 64 + threadIdx.x] = 2;
}
