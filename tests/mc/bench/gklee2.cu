//--blockDim=64 --gridDim=1
// GKLEE-style barrier test (paper 004 Table 3, GkleeTests2 at grid (1,64)): a barrier in a
// loop whose trip count depends on the thread (t % 4 + 1 rounds), so threads leave the loop
// while others still wait at its barrier: barrier divergence.
#include <weft_cuda.h>
__global__ void gklee2(int *a) {
  unsigned t = threadIdx.x;
  int acc = 0;
  for (unsigned i = 0; i < t % 4 + 1; i++) {
    acc += a[(t + i) % 64];
    __syncthreads();
  }
  a[t] = acc;
}
