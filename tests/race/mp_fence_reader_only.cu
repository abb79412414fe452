//--blockDim=32 --gridDim=2
// Message passing between two blocks: block 0 publishes data and raises a flag, block 1
// waits for the flag and reads the data. Producer fence: none; consumer fence: __threadfence();.
__global__ void k(int *data, volatile int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42; // @D
    
    *flag = 1; // @F
  } else {
    while (*flag == 0) // @S
      ;
    __threadfence();
    out[0] = data[0]; // @R
  }
}
