//xfail:RACE
//--blockDim=64 --gridDim=4
// thread 0 of each block does a plain read-modify-write of *sum
__global__ void reduce(const int *in, int *sum) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  for (unsigned d = 32; d > 0; d >>= 1) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) *sum += s[0];
}
