//--blockDim=64 --gridDim=1
__global__ void k(const int *in, int *out) {
  __shared__ int buf[2][64];
  unsigned t = threadIdx.x;
  int p = 0;
  buf[0][t] = in[t];
  __syncthreads();
  for (unsigned d = 1; d < 64; d <<= 1) {
    int v = buf[p][t];
    if (t >= d)
      v += buf[p][t - d];
    buf[1 - p][t] = v;
    p = 1 - p;
    __syncthreads();
  }
  out[t] = buf[p][t];
}
