//--blockDim=4 --gridDim=1
// Warp collectives with different member masks in one warp (issue 13): lanes 0 and 1 swap
// values through shared memory, synchronised by a half-warp __syncwarp(0x3); then the whole
// warp synchronises with __syncwarp(0xf) and lane 3 reads lane 0's slot. PTX lets both
// pass: the first collective's members are lanes 0 and 1 only, the second's all four.
// -DSKIP: lane 1 leaves out the half-warp __syncwarp(0x3), so lane 0 waits there forever
// (divergence), while the full-warp one still has all four lanes.
#include <weft_cuda.h>
__global__ void warp_mixed_masks(int *out) {
  __shared__ int s[4];
  int t = (int)threadIdx.x;
  s[t] = t + 1;
  if (t < 2) {
#ifdef SKIP
    if (t == 0)
#endif
    __syncwarp(0x3u);
    out[t] = s[1 - t];
  }
  __syncwarp(0xfu);
  if (t == 3)
    out[3] = s[0];
}
