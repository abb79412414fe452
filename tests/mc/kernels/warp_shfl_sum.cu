//--blockDim=4 --gridDim=1
// Warp shuffles (issue 13, warp-level operations): four lanes of one warp sum their values
// with a butterfly (__shfl_xor_sync with lane masks 2 then 1). Lane l starts with l + 1, so
// after the two steps every lane holds 1 + 2 + 3 + 4 = 10 (-DWRONG asserts 11: assertion).
// The full mask names lanes 4..31, which a 4-thread block does not have: the members are
// the four lanes that exist.
#include <weft_cuda.h>
__global__ void warp_shfl_sum(int *out) {
  int v = (int)threadIdx.x + 1;
  v += __shfl_xor_sync(0xffffffffu, v, 2);
  v += __shfl_xor_sync(0xffffffffu, v, 1);
#ifdef WRONG
  __assert(v == 11);
#else
  __assert(v == 10);
#endif
  out[threadIdx.x] = v;
}
