//pass
//--blockDim=64 --gridDim=1
// interleaved addressing reduction
__global__ void reduce(int *g) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  for (unsigned d = 1; d < 64; d *= 2) {
    unsigned i = 2 * d * t;
    if (i < 64) s[i] += s[i + d];
    __syncthreads();
  }
  if (t == 0) g[0] = s[0];
}
