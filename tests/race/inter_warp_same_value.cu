//--blockDim=64 --gridDim=1
// Two warps store the same value to one word: the filter is for lanes of one warp only.
__global__ void k(const int *in, int *flag) {
  if (in[threadIdx.x] >= 0)
    *flag = 7; // @W
}
