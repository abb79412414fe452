//--blockDim=64 --gridDim=2
// Shared-memory histogram: zero, barrier, atomic increments, barrier, merge to global.
__global__ void k(const int *in, int *hist) {
  __shared__ int h[16];
  unsigned t = threadIdx.x;
  if (t < 16)
    h[t] = 0;
  __syncthreads();
  atomicAdd(&h[in[blockIdx.x * 64 + t] & 15], 1);
  __syncthreads();
  if (t < 16)
    atomicAdd(&hist[t], h[t]);
}
