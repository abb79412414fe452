//--blockDim=2 --gridDim=1
// Repair test: two threads of one block exchange values through shared memory without a
// __syncthreads between the store and the load: a data race inside the block. Repair makes
// both accesses relaxed atomics of block scope (the threads share the block).
#include <weft_cuda.h>
__global__ void shared_nosync(int *out) {
  __shared__ int s[2];
  s[threadIdx.x] = threadIdx.x + 1;
  int v = s[1 - threadIdx.x];
  out[threadIdx.x] = v;
}
