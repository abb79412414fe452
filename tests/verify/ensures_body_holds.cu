//not_checked
//--blockDim=64 --gridDim=1
// hand-derived: inc returns its argument's entry value + 1 on either path (the parameter's copy changes on the way, __old_int(x) is the value on entry); the ensures is checked on return; no error is possible, but weft checks the postcondition only at the kernel's own calls, not for every argument the function allows (GPUVerify's modular check), so it must say "not checked" (issue 27), never "verified"
#include <weft_cuda.h>
__device__ int inc(int x) {
  __requires(x >= 0);
  __ensures(__return_val_int() == __old_int(x) + 1);
  int y = x + 1;
  x = 7;
  if (y > 10)
    return y;
  return y + x - 7;
}
__global__ void k(int *A) {
  int v = inc((int)threadIdx.x);
  A[threadIdx.x] = v;
}
