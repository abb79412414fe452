// A single kernel calling device printf, for `weft run-kernel` (--grid 1 --block 2 --buffer
// out=2): each lane prints one line (lanes in increasing order) and stores printf's result,
// the number of arguments (2).
#include <cstdio>

__global__ void k(int *out) {
  out[threadIdx.x] = printf("lane %d of %d\n", threadIdx.x, blockDim.x);
}
