//--blockDim=64 --gridDim=1
// Message passing between two warps of one block with block-scope fences.
__global__ void k(int *data, volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    data[0] = 42;
    __threadfence_block();
    *flag = 1;
  } else if (threadIdx.x == 32) {
    while (*flag == 0)
      ;
    __threadfence_block();
    out[0] = data[0];
  }
}
