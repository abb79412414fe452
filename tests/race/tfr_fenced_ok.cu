//--blockDim=64 --gridDim=4
// Single-pass reduction in the style of the CUDA SDK's threadFenceReduction: every block
// writes its partial sum, takes a ticket with an atomic, and the last block sums the
// partial sums. Fences before and after the ticket atomic: it is an acquire-release.
__global__ void k(const int *in, int *partial, unsigned *count, int *out) {
  __shared__ int s[64];
  __shared__ bool last;
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  for (unsigned d = 32; d > 0; d >>= 1) {
    if (t < d)
      s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0]; // @P
    __threadfence();
    unsigned ticket = atomicInc(&count[t], gridDim.x);
    __threadfence();
    last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (last && t == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b]; // @Q
    out[0] = sum;
  }
}
