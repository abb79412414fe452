//--blockDim=128 --gridDim=1
// Named barriers with a thread count: warps 0-1 meet at barrier 1, warps 2-3 at barrier 2.
// Warp 1 reads what warp 0 wrote (ordered by barrier 1); warp 2 also reads it, but barrier 2
// does not involve warp 0.
__device__ void named_sync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__global__ void k(int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x, w = t / 32;
  s[t] = t; // @W
  named_sync(w < 2 ? 1 : 2, 64);
  if (w == 1)
    out[t] = s[t - 32];
  if (w == 2)
    out[t + 0] = s[t - 64] * 3; // @R
}
