//--blockDim=128 --gridDim=1
// The classic warp-synchronous tail of a reduction: the last 32 threads go on without
// barriers through a volatile pointer, relying on lock-step execution of a warp.
__global__ void k(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 64)
    s[t] += s[t + 64];
  __syncthreads();
  if (t < 32) {
    volatile int *v = s;
    v[t] += v[t + 32]; // @V32
    v[t] += v[t + 16]; // @V16
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
  }
  if (t == 0)
    out[0] = s[0];
}
