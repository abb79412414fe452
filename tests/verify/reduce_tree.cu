//pass
//--blockDim=64 --gridDim=2
// classic tree reduction
__global__ void reduce(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  for (unsigned d = 32; d > 0; d >>= 1) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
