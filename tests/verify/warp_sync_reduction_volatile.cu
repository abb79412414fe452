//pass
//--blockDim=64 --gridDim=1 --warp-sync=32
// CUDA SDK-style warp-synchronous last steps: one warp, lock-step, volatile
__global__ void reduce(int *g) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = g[t]; s[t + 64] = 0;
  __syncthreads();
  if (t < 32) {
    volatile int *v = s;
    v[t] += v[t + 32]; v[t] += v[t + 16]; v[t] += v[t + 8];
    v[t] += v[t + 4];  v[t] += v[t + 2];  v[t] += v[t + 1];
  }
  __syncthreads();
  if (t == 0) g[0] = s[0];
}
