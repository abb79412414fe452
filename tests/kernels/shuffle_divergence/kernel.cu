//xfail:WARP_SYNC_DIVERGENCE
//--blockDim=32 --gridDim=1
// __shfl_sync names all 32 lanes but only the lower half of the warp executes it: the
// member lanes must all reach the shuffle (undefined behaviour otherwise). Reported.
__global__ void shuffle_divergence(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16) {
    v = __shfl_sync(0xffffffffu, v, 0);
  }
  out[threadIdx.x] = v;
}
