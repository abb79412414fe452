//--blockDim=32 --gridDim=1
__global__ void k(const int *in, int *flag) {
  if (in[threadIdx.x] >= 0)
    *flag = 7;
}
