//xfail:RACE
//--blockDim=64 --gridDim=1
// hand-derived: the specification allows each thread to write element threadIdx.x % 2 of p, so threads 0 and 2 may both write element 0 (arbitrary values): a write-write race on the frame that weft did not see before it modelled __writes_to
#include <weft_cuda.h>
__device__ void __spec_set(int *p) {
  __ensures(__write_implies(p, __write_offset_bytes(p) / sizeof(int) == threadIdx.x % 2));
  __writes_to(p);
}
__global__ void k(int *A) {
  __spec_set(A);
}
