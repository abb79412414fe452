//xfail:RACE
//--gridDim=1
// the header gives no block size, so any block size is verified: with more than 32 threads, threads t and t+32 write the same element (before, the block was silently one thread)
__global__ void k(int *out) {
  out[threadIdx.x % 32] = threadIdx.x;
}
