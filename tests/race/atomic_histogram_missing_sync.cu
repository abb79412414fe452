//--blockDim=64 --gridDim=1
// The barrier between zeroing the bins and the atomic increments is missing.
__global__ void k(const int *in, int *hist) {
  __shared__ int h[16];
  unsigned t = threadIdx.x;
  if (t < 16)
    h[t] = 0; // @Z
  atomicAdd(&h[in[t] & 15], 1); // @A
  __syncthreads();
  if (t < 16)
    hist[t] = h[t];
}
