//xfail:RACE
//--gridDim=* --blockDim=256
// any number of blocks of 256 threads: the 32-bit index blockIdx.x * 256 + threadIdx.x wraps from block 2^24 on, so threads of blocks b and b + 2^24 write different values (their block ids) to the same element; the race needs the wrap-around (overflow_assumed_index.cu verifies it under --assume-no-overflow)
__global__ void k(int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = blockIdx.x;
}
