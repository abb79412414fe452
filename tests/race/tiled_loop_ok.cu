//--blockDim=64 --gridDim=1
__global__ void k(const int *in, int *out, int tiles) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  int acc = 0;
  for (int i = 0; i < tiles; ++i) {
    tile[t] = in[i * 64 + t];
    __syncthreads();
    acc += tile[63 - t];
    __syncthreads();
  }
  out[t] = acc;
}
