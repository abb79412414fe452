//--blockDim=32 --gridDim=1
// All lanes of one warp store their own index to the same shared word in one instruction:
// which lane wins is undefined (paper 003 §3.3.1).
__global__ void k(int *out) {
  __shared__ int s[1];
  s[0] = threadIdx.x; // @W
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = s[0];
}
