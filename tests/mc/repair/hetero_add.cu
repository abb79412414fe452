//--blockDim=1 --gridDim=2
// Repair test: two blocks increment one counter with atomicAdd_block (block scope): the
// two RMWs are not mutually in scope, a heterogeneous race (paper 004 §2.1). Repair widens
// the call to device scope (atomicAdd).
#include <weft_cuda.h>
__global__ void hetero_add(int *x) {
  atomicAdd_block(&x[0], 1);
}
