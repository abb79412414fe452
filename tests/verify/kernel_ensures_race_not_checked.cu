//xfail:RACE
//--blockDim=64 --gridDim=1
// hand-derived: every thread writes its id to A[0] (a write-write race of different values); the kernel's postcondition is not checked, which does not change the verdict: the race is reported
#include <weft_cuda.h>
__global__ void k(int *A, int n) {
  __ensures(n > 0);
  A[0] = threadIdx.x;
}
