//--blockDim=64 --gridDim=1
__global__ void k(int *data, volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    data[0] = 42; // @D
    *flag = 1; // @F
  } else if (threadIdx.x == 32) {
    while (*flag == 0) // @S
      ;
    out[0] = data[0]; // @R
  }
}
