//--blockDim=256 --gridDim=1
// ArrayFire warp-reduce style kernel (paper 004 Table 3, arrayfire-wr at grid (1,256)): a
// block sum in shared memory, halving with __syncthreads down to one warp, then the last warp
// finishes. The bug: the last stage keeps a __syncthreads inside `if (t < 32)`, so the
// threads 32..255 finish while the first warp waits: barrier divergence.
#include <weft_cuda.h>
#define N 256
__global__ void warp_reduce(const int *in, int *out) {
  __shared__ int s[N];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned k = N / 2; k > 32; k /= 2) {
    if (t < k) {
      s[t] += s[t + k];
    }
    __syncthreads();
  }
  if (t < 32) {
    s[t] += s[t + 32];
    __syncthreads();
    for (unsigned k = 16; k > 0; k /= 2) {
      if (t < k) {
        s[t] += s[t + k];
      }
      __syncwarp();
    }
  }
  if (t == 0) {
    *out = s[0];
  }
}
