//xfail:ASSERT
//--blockDim=64 --gridDim=2
// CUDA's assert (from <assert.h>) is checked as an assertion: thread 0 of each block stores 0, so `assert(v == 1)` fails for it
#include <assert.h>
__global__ void k(int *out) {
  int v = threadIdx.x == 0 ? 0 : 1;
  assert(v == 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
