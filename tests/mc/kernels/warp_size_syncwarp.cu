//--blockDim=8 --gridDim=1
// `weft mc --warp-size` (issue 13): thread 5 reads, after a full-mask __syncwarp, the shared
// word thread 0 wrote before it. With warps of 32 lanes (the default) the 8 threads are one
// warp and __syncwarp orders the store before the load; with --warp-size 4 threads 0 and 5
// are in different warps (lanes 0..3 and 4..7), each warp synchronises only its own lanes,
// and the plain store and load race.
#include <weft_cuda.h>
__global__ void warp_size_syncwarp(int *out) {
  __shared__ int s[8];
  int t = (int)threadIdx.x;
  s[t] = t + 1;
  __syncwarp();
  if (t == 5)
    out[0] = s[0];
}
