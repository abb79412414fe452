//--blockDim=32 --gridDim=2
// GKLEE-style barrier test (paper 004 Table 3, GkleeTests1 at grid (2,32); paper 004
// Fig. 1(b)): even threads synchronise at one barrier and odd threads at another, so the two
// halves of a block wait at different barriers: barrier divergence.
#include <weft_cuda.h>
__global__ void gklee1(int *a) {
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  a[g] = (int)t;
  if (t % 2 == 0) {
    __syncthreads();
    a[g] += 1;
  } else {
    __syncthreads();
    a[g] += 2;
  }
}
