//not_checked
//--blockDim=64 --gridDim=1
// hand-derived: the kernel's own postcondition is not checked by weft (GPUVerify checks it at the kernel's exit); the writes are to distinct elements, so there is no error, and the verdict must say what was not checked instead of "verified"
#include <weft_cuda.h>
__global__ void k(int *A, int n) {
  __requires(n > 0);
  __ensures(n > 1);
  A[threadIdx.x] = n;
}
