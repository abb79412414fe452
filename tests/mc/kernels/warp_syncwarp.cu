//--blockDim=2 --gridDim=1
// __syncwarp orders shared-memory accesses of the lanes of a warp (issue 13): each lane
// stores its slot, the warp synchronises, each lane reads the other's slot. Without the
// __syncwarp (-DNOSYNC) the store and the other lane's load race.
#include <weft_cuda.h>
__global__ void warp_syncwarp(int *out) {
  __shared__ int s[2];
  int l = (int)threadIdx.x;
  s[l] = l + 5;
#ifndef NOSYNC
  __syncwarp();
#endif
  out[l] = s[1 - l];
}
