//--blockDim=64 --gridDim=1
// Producer/consumer with bar.arrive: warp 0 writes and arrives, warp 1 waits and reads.
__device__ void arrive(int id, int n) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ void named_sync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__global__ void k(int *out) {
  __shared__ int s[32];
  unsigned t = threadIdx.x;
  if (t < 32) {
    s[t] = t * 2;
    arrive(1, 64);
  } else {
    named_sync(1, 64);
    out[t] = s[t - 32];
  }
}
