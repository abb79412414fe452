//xfail:RACE
//--blockDim=64 --gridDim=1
// the barrier inside the loop is missing
__global__ void reduce(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned d = 32; d > 0; d >>= 1) {
    if (t < d) s[t] += s[t + d];
  }
  if (t == 0) out[0] = s[0];
}
