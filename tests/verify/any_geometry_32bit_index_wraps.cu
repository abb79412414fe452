//xfail:RACE
// no launch line: the 32-bit index blockIdx.x * blockDim.x + threadIdx.x wraps for grids of more than 2^32 threads (2^31-1 blocks of 1024 threads are allowed), so threads of two blocks may write different values (their block ids) to the same element
__global__ void k(int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = blockIdx.x;
}
