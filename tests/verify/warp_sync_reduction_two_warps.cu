//xfail:RACE
//--blockDim=128 --gridDim=1 --warp-sync=32
// the warp-synchronous part spans two warps: thread 0 reads v[32] that warp 1 writes
__global__ void reduce(int *g) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  if (t < 64) {
    volatile int *v = s;
    v[t] += v[t + 64]; v[t] += v[t + 32]; v[t] += v[t + 16];
  }
  __syncthreads();
  if (t == 0) g[0] = s[0];
}
