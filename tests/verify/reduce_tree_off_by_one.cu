//xfail:RACE
//--blockDim=64 --gridDim=1
// t <= d: thread d writes s[d] that thread 0 reads
__global__ void reduce(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = in[t]; s[t + 64] = 0;
  __syncthreads();
  for (unsigned d = 32; d > 0; d >>= 1) {
    if (t <= d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) out[0] = s[0];
}
