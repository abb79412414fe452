//--blockDim=32 --gridDim=4
// Every block records its index in the same word.
__global__ void k(int *last) {
  if (threadIdx.x == 0)
    *last = blockIdx.x; // @W
}
