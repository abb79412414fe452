//pass
//--blockDim=32 --gridDim=1
// Warp-level sum with __shfl_down_sync, then a ballot of the lanes holding positive values.
__global__ void warp_shuffle_reduction(const int *in, int *out, unsigned *ballot) {
  int v = in[threadIdx.x];
  unsigned mask = __activemask();
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_down_sync(mask, v, offset);
  }
  unsigned b = __ballot_sync(mask, in[threadIdx.x] > 0);
  v = __shfl_sync(mask, v, 0);
  if (threadIdx.x == 0) {
    out[0] = v;
    ballot[0] = b;
  }
  __syncwarp();
}
