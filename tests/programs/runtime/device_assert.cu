// Device assert (issue 26 item 1): the assert fails in exactly one thread (block 1, thread 2
// of a 2x4 launch); CUDA prints "FILE:LINE: FUNCTION: block: [1,0,0], thread: [2,0,0]
// Assertion `EXPR` failed." on stderr, the synchronisation returns cudaErrorAssert (710) and
// the error is sticky: a later cudaMemcpy returns it too.
#include <cassert>
#include <cstdio>

__global__ void check(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  assert(!(blockIdx.x == 1 && threadIdx.x == 2)); // @assert
  out[t] = t;
}

int main() {
  int *d;
  cudaMalloc(&d, 8 * sizeof(int));
  check<<<2, 4>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
  int h = 0;
  e = cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("memcpy after: %d %s\n", (int)e, cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
