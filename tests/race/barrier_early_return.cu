//--blockDim=64 --gridDim=1
// Threads past n return before the barrier the others wait at.
__global__ void k(const int *in, int *out, int n) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  if (t >= n)
    return;
  s[t] = in[t];
  __syncthreads(); // @B
  out[t] = s[(t + 1) % n];
}
