//pass
//--blockDim=32 --gridDim=1
// work-efficient up-sweep, a barrier before every level
__global__ void scan(int *g) {
  __shared__ int a[64];
  unsigned t = threadIdx.x;
  a[2 * t] = g[2 * t]; a[2 * t + 1] = g[2 * t + 1];
  unsigned off = 1;
  for (unsigned d = 32; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) { unsigned ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1; a[bi] += a[ai]; }
    off *= 2;
  }
  __syncthreads();
  g[2 * t] = a[2 * t]; g[2 * t + 1] = a[2 * t + 1];
}
