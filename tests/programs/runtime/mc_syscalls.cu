// Device printf and assert under `weft mc` (docs/mc.md, "Device printf and assert"), on
// --grid 1 --block 2 --buffer out=2:
//  - default: printf has two arguments, so it returns 2 (CUDA's documented result) in every
//    thread and execution; the assert on it holds: no error, exit 0.
//  - -DFAIL: thread 1 fails `assert(threadIdx.x == 0)`: an assertion error at that line,
//    exit 1.
//  - -DNONCONST: the format string is chosen at run time: mc cannot know printf's result,
//    so it says the construct is unsupported, exit 3.
#include <cassert>
#include <cstdio>

__global__ void k(int *out) {
#ifdef NONCONST
  out[threadIdx.x] = printf(threadIdx.x & 1 ? "odd %d\n" : "even\n", 1);
#else
  int n = printf("lane %d of %d\n", threadIdx.x, blockDim.x);
  out[threadIdx.x] = n;
  assert(n == 2);
#ifdef FAIL
  assert(threadIdx.x == 0); // @fails
#endif
#endif
}
