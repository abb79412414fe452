//--blockDim=64 --gridDim=1
// The producer keeps writing after bar.arrive: those writes are not ordered before the
// consumer's reads.
__device__ void arrive(int id, int n) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ void named_sync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__global__ void k(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  if (t < 32) {
    s[t] = t * 2;
    arrive(1, 64);
    s[t + 32] = t * 3; // @W
  } else {
    named_sync(1, 64);
    out[t] = s[t]; // @R
  }
}
