//--blockDim=4 --gridDim=1
// __activemask (issue 13): the lanes executing the instruction together with the caller.
// Under independent thread scheduling the caller alone is an answer the hardware may give,
// and it is the one weft mc models (docs/mc.md): the mask always holds the caller's own bit.
#include <weft_cuda.h>
__global__ void warp_activemask(int *out) {
  int l = (int)threadIdx.x;
  unsigned m = __activemask();
  __assert((m >> l) & 1u);
  out[l] = (int)m;
}
