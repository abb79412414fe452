//pass
//--blockDim=64 --gridDim=4
// hand-derived: the specification function writes p only at the caller's global index (its __write_implies), so the frame writes of two threads are at distinct elements, and the kernel's own write after it is at the same element by the same thread
#include <weft_cuda.h>
__device__ void __spec_set(int *p) {
  __requires(__no_write(p));
  __ensures(__write_implies(p, __write_offset_bytes(p) / sizeof(int) == blockIdx.x * blockDim.x + threadIdx.x));
  __writes_to(p);
}
__global__ void k(int *A) {
  __spec_set(A);
  A[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
