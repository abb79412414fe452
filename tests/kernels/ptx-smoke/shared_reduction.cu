//pass
//--blockDim=128 --gridDim=8
// Tree reduction in shared memory; each step is separated by __syncthreads().
#define N 128
__global__ void shared_reduction(const int *in, int *out) {
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
