//not_checked
//--blockDim=64 --gridDim=1
// hand-derived: dec's postcondition holds for the kernel's argument (6 - 1 > 1) but not for every argument its precondition allows (x = 1 gives 0): GPUVerify checks it modularly and reports it, weft checks it at the call only and must say so
#include <weft_cuda.h>
__device__ int dec(int x) {
  __requires(x > 0);
  __ensures(__return_val_int() > 1);
  return x - 1;
}
__global__ void k(int *A) {
  A[threadIdx.x] = dec(6);
}
