//xfail:RACE
//--blockDim=* --gridDim=1
// `*` is any block size (before, it was 32 threads): with more than 64 threads, threads t and t+64 write the same element
__global__ void k(int *out) {
  out[threadIdx.x & 63] = threadIdx.x;
}
