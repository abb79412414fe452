//pass
//--blockDim=8 --gridDim=1 --no-inline
// GPUVerify's dialect: cuda.h, a precondition, a loop invariant in the loop condition, a
// two-thread predicate (__other_int, not checkable by the emulator) and a checked assert.
#include "cuda.h"

__global__ void triangle(int *out, int n) {
  __requires(n == 8);
  int s = 0;
  for (int i = 0; __invariant(i <= (int)threadIdx.x + 1), __invariant(s >= 0),
           i <= (int)threadIdx.x; i++) {
    s += i;
  }
  __assert(__implies(threadIdx.x == 3, __other_int(threadIdx.x) == 3));
  __assert(s == (int)(threadIdx.x * (threadIdx.x + 1) / 2));
  out[threadIdx.x] = s;
}
