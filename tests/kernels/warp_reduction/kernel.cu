//pass
//--blockDim=128 --gridDim=2
// Warp-synchronous reduction: each warp sums its 32 inputs with __shfl_down_sync; lane 0
// writes the warp's sum. No shared memory, no barrier.
__global__ void warp_reduction(const int *in, int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int offset = 16; offset > 0; offset >>= 1) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if ((threadIdx.x & 31) == 0) {
    out[i / 32] = v;
  }
}
