//pass
//--gridDim=* --blockDim=256 --assume-no-overflow
// the kernel of overflow_index_wraps.cu verified under --assume-no-overflow: with the 32-bit index computed without wrap-around, distinct threads write distinct elements
__global__ void k(int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = blockIdx.x;
}
