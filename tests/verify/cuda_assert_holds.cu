//pass
//--blockDim=64 --gridDim=2
// CUDA's assert over a fact of the launch: the thread index is below the block size, for every thread
#include <assert.h>
__global__ void k(int *out) {
  assert(threadIdx.x < blockDim.x);
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
