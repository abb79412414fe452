//--blockDim=64 --gridDim=1
// Hillis-Steele inclusive scan done in place with one barrier per step: a thread reads
// s[t-d] while thread t-d may already have updated it in the same step.
__global__ void k(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned d = 1; d < 64; d <<= 1) {
    if (t >= d)
      s[t] += s[t - d]; // @ACC
    __syncthreads();
  }
  out[t] = s[t];
}
