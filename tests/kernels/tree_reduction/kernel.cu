//pass
//--blockDim=128 --gridDim=4
// Shared-memory tree reduction: each block sums its 128 inputs; steps separated by
// __syncthreads().
#define N 128
__global__ void tree_reduction(const int *in, int *out) {
  __shared__ int buf[N];
  unsigned t = threadIdx.x;
  buf[t] = in[blockIdx.x * N + t];
  __syncthreads();
  for (unsigned s = N / 2; s > 0; s >>= 1) {
    if (t < s) {
      buf[t] += buf[t + s];
    }
    __syncthreads();
  }
  if (t == 0) {
    out[blockIdx.x] = buf[0];
  }
}
