//xfail:RACE
//--gridDim=* --blockDim=256 --assume-no-overflow
// --assume-no-overflow hides only the races that need a wrap-around: here threads t and t+1 of a block both write element t+1 (i + 1 never wraps)
__global__ void k(int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + (threadIdx.x & 1)] = blockIdx.x;
}
