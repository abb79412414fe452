//--blockDim=64 --gridDim=1
// A loop over tiles: load a tile, barrier, use it, and (bug) no barrier before the next
// iteration overwrites the tile another warp may still be reading.
__global__ void k(const int *in, int *out, int tiles) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  int acc = 0;
  for (int i = 0; i < tiles; ++i) {
    tile[t] = in[i * 64 + t]; // @W
    __syncthreads();
    acc += tile[63 - t]; // @R
  }
  out[t] = acc;
}
