//--blockDim=32 --gridDim=1
// Nested divergence: lanes 0-7 / 8-15 inside lanes 0-15; the inner paths race on s[0].
__global__ void k(int *out) {
  __shared__ int s[2];
  unsigned t = threadIdx.x;
  if (t < 16) {
    if (t < 8) {
      s[0] = 1; // @A
      out[t] = 1;
    } else {
      out[t] = 2;
      s[0] = 2; // @B
    }
    s[1] = 3;
  } else {
    out[t] = 5;
  }
  __syncthreads();
  if (t == 0)
    out[0] = s[0] + s[1];
}
