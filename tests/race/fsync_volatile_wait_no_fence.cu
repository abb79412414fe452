//--blockDim=32 --gridDim=2
// As fsync_volatile_wait_ok without the reader's fence: the volatile load observes the flag
// but is no acquire pattern, so the data read races. PTX memory model fence-synchronisation
// (docs/race.md, "Trace operations", E5-E6): a release pattern (fence; strong write)
// synchronises with an acquire pattern (strong read; fence) that observes its write when both
// are morally strong.
__global__ void k(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42; // @D
    __threadfence();
    atomicExch(flag, 1); // @F
  } else {
    while (*(volatile int *)flag == 0) // @S
      ;
    out[0] = data[0]; // @R
  }
}
