//--blockDim=128 --gridDim=1
// Warp-synchronous code started one step too early: at d=32 threads 0-63 span two warps.
__global__ void k(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 64) {
    volatile int *v = s;
    v[t] += v[t + 32]; // @V32
  }
  __syncthreads();
  if (t == 0)
    out[0] = s[0];
}
