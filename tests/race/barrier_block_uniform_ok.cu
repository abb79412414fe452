//--blockDim=64 --gridDim=2
// A barrier under a condition that is uniform across each block.
__global__ void k(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  if (blockIdx.x == 1) {
    __syncthreads();
    out[64 + t] = s[63 - t];
  } else {
    out[t] = s[t];
  }
}
