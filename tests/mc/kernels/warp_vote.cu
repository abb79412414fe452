//--blockDim=4 --gridDim=1
// Warp votes (issue 13): __all_sync, __any_sync and __ballot_sync over the four lanes of a
// 4-thread block.
#include <weft_cuda.h>
__global__ void warp_vote(int *out) {
  int l = (int)threadIdx.x;
  int all = __all_sync(0xfu, l < 4);
  int any = __any_sync(0xfu, l == 2);
  int none = __any_sync(0xfu, l > 3);
  unsigned odd = __ballot_sync(0xfu, l & 1);
  __assert(all == 1);
  __assert(any == 1);
  __assert(none == 0);
  __assert(odd == 10u);
  out[l] = (int)odd;
}
