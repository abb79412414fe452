//xfail:ASSERT
//--blockDim=64 --gridDim=1
// hand-derived: for x > 10 inc returns x + 2, not __old_int(x) + 1 (threads 11..63 take that path): the postcondition fails on return
#include <weft_cuda.h>
__device__ int inc(int x) {
  __requires(x >= 0);
  __ensures(__return_val_int() == __old_int(x) + 1);
  int y = x + 1;
  x = 7;
  if (y > 11)
    return y + 1;
  return y + x - 7;
}
__global__ void k(int *A) {
  int v = inc((int)threadIdx.x);
  A[threadIdx.x] = v;
}
