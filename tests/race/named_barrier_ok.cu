//--blockDim=128 --gridDim=1
__device__ void named_sync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__global__ void k(int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x, w = t / 32;
  s[t] = t;
  named_sync(w < 2 ? 1 : 2, 64);
  if (w == 1)
    out[t] = s[t - 32];
  if (w == 3)
    out[t] = s[t - 32];
}
